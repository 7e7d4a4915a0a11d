"""The download side by side, its lines for a log, and a mirror: `datasets mirror DIR`, served by
a plain static web server on 127.0.0.1, then a download through --base-url from it."""

from __future__ import annotations

import contextlib
import functools
import http.server
import os
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
    assert code == 1 and "16 fetched" in err and "1 not found (HTTP 404)" in err
    assert f"not at {url}: FreeAssociation/AppendixA/Cue_Target_Pairs.S." in err
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


def filled_by_hand(shared: Path, folder: Path) -> Path:
    """A sources folder as a person fills it: the USF pages and the EAT zip under names of their own,
    four books named by their titles (as in ../shared/datasets), in a subfolder."""
    from publisher import shared_books

    for remote in fetch.downloadable()["usf"].files:
        part = remote.path.split("/")[1].removesuffix(".txt")
        (folder / "usf" / f"Cue Target Pairs {part}.html").parent.mkdir(parents=True, exist_ok=True)
        (folder / "usf" / f"Cue Target Pairs {part}.html").write_bytes((shared / remote.path).read_bytes())
    (folder / "eat").mkdir()
    (folder / "eat" / "edinburgh.zip").write_bytes((shared / "eat" / "EATnew.zip").read_bytes())
    (folder / "corpus" / "my books").mkdir(parents=True)
    for path in (shared_books(shared)[n] for n in BOOKS):
        (folder / "corpus" / "my books" / path.name).write_bytes(path.read_bytes())
    return folder


def test_a_folder_filled_by_hand_is_counted_and_serves_a_mirror(shared_datasets, tmp_path, four_books,
                                                                 clean_env, capsys):
    sources = filled_by_hand(shared_datasets, tmp_path / "mine")
    assert download.main(["status", "--sources", str(sources)]) == 0
    out = capsys.readouterr().out
    assert "usf: 8 of 8 files" in out and "eat: 1 of 1 files" in out and "corpus: 4 of 4 books" in out
    assert "other file" not in out and "missing" not in out.split("human_duet")[0]

    code = download.main(["mirror", str(tmp_path / "mirror"), "--sources", str(sources)])
    assert code == 0 and "13 files written" in capsys.readouterr().err
    with static_server(tmp_path / "mirror") as url:
        assert download.main(["download", "--sources", str(tmp_path / "copy"), "--base-url", url,
                              "--pause", "0"]) == 0
    assert "13 fetched" in capsys.readouterr().err
    assert download.main(["status", "--sources", str(tmp_path / "copy")]) == 0
    copied = capsys.readouterr().out
    assert "usf: 8 of 8 files" in copied and "8 sound" in copied and "corpus: 4 of 4 books" in copied
    eat = (sources / "eat" / "edinburgh.zip").read_bytes()
    assert (tmp_path / "copy" / "eat" / "EATnew.zip").read_bytes() == eat


def test_a_book_is_known_by_the_ebook_number_its_header_names(tmp_path):
    old = "The Project Gutenberg Etext\nRelease Date: August, 2003  [Etext #4363]\n"
    (tmp_path / "a.txt").write_text(old + "*** START OF THIS PROJECT GUTENBERG EBOOK X ***\nbook #12 of it\n")
    (tmp_path / "b.txt").write_text("Release Date: May 5, 2007 [EBook #21337]\n")
    (tmp_path / "c.txt").write_text("no header here, but book #5 in the text\n")
    assert [fetch.ebook_number(tmp_path / n) for n in ("a.txt", "b.txt", "c.txt")] == [4363, 21337, None]


@pytest.mark.slow   # the whole corpus: 368 files (100 MB) written, served and fetched, then the AI's load
def test_the_mirror_of_the_shared_datasets_gives_a_download_with_every_dataset(shared_datasets, tmp_path,
                                                                                clean_env, capsys):
    import signal

    import datasets
    from initializers import background
    from initializers.settings import Settings

    assert download.main(["mirror", str(tmp_path / "mirror"), "--sources", str(shared_datasets)]) == 0
    assert "368 files written" in capsys.readouterr().err
    with static_server(tmp_path / "mirror") as url:
        assert download.main(["download", "--sources", str(tmp_path / "copy"), "--base-url", url,
                              "--pause", "0"]) == 0
    assert "368 fetched" in capsys.readouterr().err
    settings = Settings(tmp_path / "copy", tmp_path / "cache", background=True)
    available = datasets.availability(settings)
    assert all(why is None for why in available.values()), available
    weights, partners = datasets.load_with_partners(settings=settings)
    assert {"association", "eat", "wordnet", "phrases"} <= {p.name for p in partners}
    err = capsys.readouterr().err
    corpus_made = ", ".join(background.CORPUS_MADE)
    assert f"6 matrices ({corpus_made}) are being built in the background" in err
    assert "left out" not in err
    if (state := background.status(tmp_path / "cache")) is not None:   # its 3 minutes are not this test's
        os.kill(state["pid"], signal.SIGKILL)
