"""The download side by side, its lines for a log, and a mirror: `datasets mirror DIR`, served by
a plain static web server on 127.0.0.1, then a download through --base-url from it."""

from __future__ import annotations

import contextlib
import functools
import http.server
import threading
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest
from publisher import served, serving
from test_download import BOOKS

import download
from initializers import fetch

PROXIES = ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy",
           "NO_PROXY", fetch.BASE_URL_VARIABLE)


@pytest.fixture
def four_books(monkeypatch):
    """The corpus narrowed to BOOKS, as the download and the mirror see it."""
    monkeypatch.setattr(fetch, "gutenberg_books", lambda path=None: list(BOOKS))
    fetch.downloadable.cache_clear()
    yield
    fetch.downloadable.cache_clear()


@pytest.fixture
def clean_env(monkeypatch):
    for variable in PROXIES:
        monkeypatch.delenv(variable, raising=False)


@contextlib.contextmanager
def static_server(folder: Path) -> Iterator[str]:
    """`python -m http.server --directory FOLDER` on 127.0.0.1, in a thread: its URL."""
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

    handler = functools.partial(Quiet, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_a_mirror_serves_what_a_download_through_its_url_fetches(shared_datasets, tmp_path, four_books,
                                                                clean_env, capsys):
    names = ["usf", "eat", "corpus", "human_duet"]
    with serving(served(shared_datasets, BOOKS)) as publisher:
        assert not fetch.download(names, tmp_path / "sources", base_url=publisher.url, pause=0).failed
    (tmp_path / "sources" / "usf" / "S.txt").write_bytes(b"damaged")   # left out of the mirror
    code = download.main(["mirror", str(tmp_path / "mirror"), *names, "--sources", str(tmp_path / "sources")])
    err = capsys.readouterr().err
    assert code == 1 and "16 files written" in err and "1 file missing or corrupt" in err
    assert (tmp_path / "mirror" / "FreeAssociation" / "AppendixA" / "Cue_Target_Pairs.A-B").is_file()
    carol = (tmp_path / "mirror" / "cache" / "epub" / "46" / "pg46.txt").read_bytes()   # as served: text
    assert b"A CHRISTMAS CAROL" in carol.upper()

    with static_server(tmp_path / "mirror") as url:
        code = download.main(["download", *names, "--sources", str(tmp_path / "copy"), "--base-url", url,
                              "--pause", "0"])
    err = capsys.readouterr().err
    assert code == 1 and "16 fetched" in err and "usf/S.txt not fetched: " in err and "HTTP 404" in err
    for path in (tmp_path / "sources").rglob("*"):
        if path.is_file() and path.name != "S.txt":
            copy = tmp_path / "copy" / path.relative_to(tmp_path / "sources")
            assert copy.read_bytes() == path.read_bytes()


def test_the_publishers_are_fetched_side_by_side_each_with_its_pause(shared_datasets, tmp_path, four_books,
                                                                     clean_env, monkeypatch):
    """Each publisher is its own server: w3.usf.edu, raw.githubusercontent.com and www.gutenberg.org
    are asked at once, each one file at a time with the pause between two (the publishers' answers
    stand in for them, from the shared datasets, each taking 20 ms)."""
    files = served(shared_datasets, BOOKS)
    asked: list[tuple[str, float, float]] = []

    def publisher(url, *args, **kwargs):
        start = time.monotonic()
        time.sleep(0.02)
        asked.append((urllib.parse.urlsplit(url).netloc, start, time.monotonic()))
        return files[urllib.parse.urlsplit(url).path]
    monkeypatch.setattr(fetch, "fetch", publisher)
    pause = 0.2
    done = fetch.download(["usf", "eat", "corpus"], tmp_path, pause=pause)
    assert len(done.fetched) == 8 + 1 + len(BOOKS)
    assert done.fetched[:2] == ["usf/A-B.txt", "usf/C.txt"]   # in the datasets' order, as before
    by_host: dict[str, list[tuple[float, float]]] = {}
    for host, start, end in asked:
        by_host.setdefault(host, []).append((start, end))
    assert set(by_host) == {"w3.usf.edu", "raw.githubusercontent.com", "www.gutenberg.org"}
    for times in by_host.values():   # one at a time, the pause between two
        gaps = [later[0] - earlier[1] for earlier, later in zip(times, times[1:], strict=False)]
        assert all(gap >= pause - 0.01 for gap in gaps)
    books, norms = by_host["www.gutenberg.org"], by_host["w3.usf.edu"]
    assert books[0][0] < norms[-1][0]   # the books began before the norms were done


def test_without_a_terminal_a_line_says_each_tenth(shared_datasets, tmp_path, four_books, clean_env):
    said: list[str] = []
    with serving(served(shared_datasets, BOOKS)) as publisher:
        fetch.download(["usf", "eat", "corpus"], tmp_path, base_url=publisher.url, pause=0, say=said.append)
    tenths = [line for line in said if line.startswith("datasets: ")]
    assert tenths[0] == "datasets: 2 of 13 files (15%)" and tenths[-1] == "datasets: 13 of 13 files (100%)"
    assert len(tenths) == 10
