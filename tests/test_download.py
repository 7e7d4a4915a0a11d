"""`python main.py datasets`: the download against a local server on 127.0.0.1 that serves the
shared datasets under the publishers' URL paths, as they serve them (the books as plain text),
and misbehaves on demand: a connection dropped half-way, a corrupt file, a 404, a slow answer,
and no server at all. Then the status, the help and the game's offer."""

from __future__ import annotations

import gzip
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT
from publisher import Publisher, served, serving, shared_books

import download
from initializers import fetch
from initializers.catalog import Catalog
from initializers.readers import read_corpus, read_usf
from initializers.settings import Settings

BOOKS = (46, 59679, 31287, 29994)   # A Christmas Carol and three short stories


@pytest.fixture
def publisher(shared_datasets, monkeypatch):
    for variable in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY",
                     "no_proxy", "NO_PROXY", fetch.BASE_URL_VARIABLE):
        monkeypatch.delenv(variable, raising=False)
    with serving(served(shared_datasets, BOOKS)) as server:
        yield server


def get(server: Publisher, sources: Path, names=("usf", "eat", "corpus"), **options) -> fetch.Download:
    options = {"base_url": server.url, "pause": 0.0, "timeout": 5.0, "books": BOOKS, **options}
    return fetch.download(list(names), sources, **options)


def no_temporaries(sources: Path) -> bool:
    return not [p for p in sources.rglob(".*") if p.is_file()]


# --- a whole download, and a second run -----------------------------------------------------


def test_a_full_download_lays_the_files_out_as_the_readers_expect(publisher, shared_datasets, tmp_path):
    sources = tmp_path / "sources"
    done = get(publisher, sources)
    assert len(done.fetched) == 8 + 1 + len(BOOKS) and not done.failed and not done.present
    for name in ("usf/A-B.txt", "usf/C.txt", "usf/T-Z.txt", "eat/EATnew.zip"):
        assert (sources / name).read_bytes() == (shared_datasets / name).read_bytes()
    carol = gzip.decompress((sources / "corpus" / "gutenberg" / "pg46.txt.gz").read_bytes())
    assert carol == gzip.decompress(shared_books(shared_datasets)[46].read_bytes())
    # what the readers make of them
    catalog = Catalog(Settings(sources, tmp_path / "cache", hints=(), words=()))
    assert [catalog.missing(n) for n in ("association", "eat", "word_collocations")] == [None] * 3
    assert sum(1 for _ in read_usf(catalog.files("usf"))) == 72_176
    carol_text = next(iter(read_corpus([sources / "corpus" / "gutenberg" / "pg46.txt.gz"])))
    assert "God bless Us, Every One!" in carol_text and "PROJECT GUTENBERG" not in carol_text
    assert not (sources / "human_duet").exists()   # evaluation data: only when named
    assert no_temporaries(sources)


def test_a_second_run_fetches_nothing(publisher, tmp_path):
    get(publisher, tmp_path)
    asked = len(publisher.requests)
    again = get(publisher, tmp_path)
    assert len(publisher.requests) == asked and not again.fetched and len(again.present) == 8 + 1 + len(BOOKS)


def test_every_request_names_the_project_and_waits_its_turn(publisher, tmp_path, monkeypatch):
    pauses = []
    monkeypatch.setattr(fetch.time, "sleep", pauses.append)
    get(publisher, tmp_path, names=("eat", "corpus"), pause=2.0)
    assert {agent for _, agent in publisher.requests} == {fetch.USER_AGENT}
    assert "codenames" in fetch.USER_AGENT
    # one server here: a pause before every request but the first, of nearly the whole 2 s
    assert len(pauses) == len(BOOKS) and all(1.0 < p <= 2.0 for p in pauses)


def test_the_duet_record_is_fetched_when_named(publisher, shared_datasets, tmp_path):
    done = get(publisher, tmp_path, names=("human_duet",))
    assert len(done.fetched) == 4
    task = "human_duet/clue_generation_task/val.csv"
    assert (tmp_path / task).read_bytes() == (shared_datasets / task).read_bytes()


# --- what goes wrong ----------------------------------------------------------------------


def test_a_connection_dropped_half_way_leaves_nothing_and_the_next_run_fetches_only_that(publisher, tmp_path):
    page = "/FreeAssociation/AppendixA/Cue_Target_Pairs.C"
    publisher.faults[page] = ["drop", "drop"]
    first = get(publisher, tmp_path, retries=1)
    assert [line.split(" not fetched")[0] for line in first.failed] == ["usf/C.txt"]
    assert "cut off" in first.failed[0] and publisher.url + page in first.failed[0]
    assert not (tmp_path / "usf" / "C.txt").exists() and (tmp_path / "usf" / "D-F.txt").exists()
    assert no_temporaries(tmp_path)
    asked = len(publisher.requests)
    second = get(publisher, tmp_path)
    assert second.fetched == ["usf/C.txt"] and len(publisher.requests) == asked + 1


def test_a_drop_is_retried(publisher, tmp_path):
    publisher.faults["/FreeAssociation/AppendixA/Cue_Target_Pairs.S"] = ["drop"]
    done = get(publisher, tmp_path, names=("usf",), retries=1)
    assert not done.failed and publisher.asked("Cue_Target_Pairs.S") == 2


def test_a_book_cut_off_without_a_length_is_caught_by_its_content(publisher, tmp_path):
    """A server that closes the connection instead of sending a length: the END marker is missing."""
    publisher.faults["/cache/epub/46/pg46.txt"] = ["drop-unsized"]
    done = get(publisher, tmp_path, names=("corpus",), retries=0)
    assert len(done.failed) == 1 and "pg46" in done.failed[0] and "END" in done.failed[0]
    assert not (tmp_path / "corpus" / "gutenberg" / "pg46.txt.gz").exists()


def test_a_corrupt_file_is_refused_and_a_corrupt_copy_is_replaced(publisher, shared_datasets, tmp_path):
    publisher.faults["/FreeAssociation/AppendixA/Cue_Target_Pairs.G-K"] = ["corrupt"]
    zip_path = [p for p in publisher.files if p.endswith("EATnew.zip")][0]
    publisher.faults[zip_path] = ["corrupt"]
    done = get(publisher, tmp_path, names=("usf", "eat"), retries=0)
    assert sorted(line.split(" not fetched")[0] for line in done.failed) == ["eat/EATnew.zip", "usf/G-K.txt"]
    assert all("SHA-256" in line for line in done.failed)
    assert not (tmp_path / "usf" / "G-K.txt").exists() and not (tmp_path / "eat" / "EATnew.zip").exists()
    # a copy damaged on disk (a download of another tool cut off) is fetched again, in place
    damaged = tmp_path / "usf" / "Cue_Target_Pairs.L-O"
    (tmp_path / "usf" / "L-O.txt").rename(damaged)
    damaged.write_bytes(damaged.read_bytes()[:1000])
    again = get(publisher, tmp_path, names=("usf", "eat"))
    assert sorted(again.fetched) == ["eat/EATnew.zip", "usf/G-K.txt"] and again.replaced == ["usf/L-O.txt"]
    assert damaged.read_bytes() == (shared_datasets / "usf" / "L-O.txt").read_bytes()
    assert not (tmp_path / "usf" / "L-O.txt").exists()   # no second copy for the reader to count twice


def test_a_changed_file_is_kept_with_trust_content_when_it_reads_right(publisher, tmp_path):
    page = "/FreeAssociation/AppendixA/Cue_Target_Pairs.P-R"
    publisher.files[page] = publisher.files[page].replace(b"<HTML>", b"<html>", 1)   # a new byte, same table
    refused = get(publisher, tmp_path, names=("usf",), retries=0)
    assert len(refused.failed) == 1 and "P-R" in refused.failed[0]
    kept = get(publisher, tmp_path, names=("usf",), trust_content=True)
    assert kept.fetched == ["usf/P-R.txt"]


def test_a_404_is_named_asked_once_and_the_other_files_still_come(publisher, tmp_path):
    publisher.faults["/cache/epub/31287/pg31287.txt"] = ["404", "404"]
    done = get(publisher, tmp_path, names=("corpus",))
    assert done.absent == [publisher.url + "/cache/epub/31287/pg31287.txt"] and not done.failed
    assert publisher.asked("pg31287") == 1   # not there: asking again would not help
    assert len(done.fetched) == len(BOOKS) - 1


def test_a_slow_server_times_out_and_leaves_nothing(publisher, tmp_path):
    publisher.slow = 1.5
    publisher.faults["/FreeAssociation/AppendixA/Cue_Target_Pairs.A-B"] = ["slow", "slow"]
    done = get(publisher, tmp_path, names=("usf",), timeout=0.3, retries=1)
    # given up: waiting would have got the page (the server answers whole after 1.5 s)
    assert len(done.failed) == 1 and "timed out" in done.failed[0]
    assert "Cue_Target_Pairs.A-B" in done.failed[0] and publisher.asked("Cue_Target_Pairs.A-B") == 2
    assert not (tmp_path / "usf" / "A-B.txt").exists() and len(done.fetched) == 7


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_no_network_one_line_naming_the_url_exit_1_nothing_removed(tmp_path, monkeypatch):
    """The command as a user runs it, with the base URL from the environment."""
    kept = tmp_path / "usf" / "C.txt"
    kept.parent.mkdir()
    kept.write_bytes(b"a half page from before")
    env = {**fetch_env(), fetch.BASE_URL_VARIABLE: f"http://127.0.0.1:{closed_port()}"}
    result = subprocess.run([sys.executable, str(ROOT / "main.py"), "datasets", "download", "--sources",
                             str(tmp_path), "--pause", "0"], capture_output=True, text=True, env=env,
                            timeout=120)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot reach http://127.0.0.1:" in lines[0]
    assert "/FreeAssociation/AppendixA/Cue_Target_Pairs.A-B" in lines[0]
    assert kept.read_bytes() == b"a half page from before" and no_temporaries(tmp_path)


def fetch_env() -> dict[str, str]:
    """This environment without its proxies (a request to 127.0.0.1 must not go through one)."""
    return {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}


def test_the_download_goes_through_the_proxy_the_environment_names(publisher, tmp_path, monkeypatch):
    """With http_proxy set and no base URL, the request for w3.usf.edu goes to the proxy (here the
    local server, which answers as the publisher would)."""
    monkeypatch.setenv("http_proxy", publisher.url)
    done = fetch.download(["usf"], tmp_path, pause=0.0, timeout=5.0)
    assert len(done.fetched) == 8
    assert publisher.requests[0][0] == "http://w3.usf.edu/FreeAssociation/AppendixA/Cue_Target_Pairs.A-B"


# --- the command -------------------------------------------------------------------------


def test_the_command_downloads_then_says_so(publisher, tmp_path, capsys):
    code = download.main(["download", "usf", "eat", "--sources", str(tmp_path), "--base-url", publisher.url,
                          "--pause", "0"])
    err = capsys.readouterr().err
    assert code == 0 and "9 files" in err and "9 fetched" in err
    code = download.main(["download", "usf", "--sources", str(tmp_path), "--base-url", publisher.url])
    assert code == 0 and "8 already there" in capsys.readouterr().err


def test_the_command_fails_when_a_file_fails(publisher, tmp_path, capsys):
    publisher.faults["/FreeAssociation/AppendixA/Cue_Target_Pairs.C"] = ["drop", "drop"]
    code = download.main(["download", "usf", "--sources", str(tmp_path), "--base-url", publisher.url,
                          "--pause", "0"])
    err = capsys.readouterr().err
    assert code == 1 and "usf/C.txt not fetched" in err and "1 failed" in err and "again" in err


def test_files_a_server_does_not_have_are_said_in_three_lines_with_what_to_do(publisher, tmp_path, capsys):
    for n in BOOKS:   # the publisher serves these four books of the 359: it has none of them now
        publisher.faults[f"/cache/epub/{n}/pg{n}.txt"] = ["404"]
    code = download.main(["download", "usf", "corpus", "--sources", str(tmp_path), "--base-url",
                          publisher.url, "--pause", "0"])
    lines = [line for line in capsys.readouterr().err.splitlines() if not line.endswith("%)")]
    assert code == 1 and len(lines) == 3, lines
    assert lines[0].endswith("8 fetched, 0 already there, 359 not found (HTTP 404).")
    assert lines[1].startswith(f"datasets: not at {publisher.url}: cache/epub/")
    assert lines[1].endswith("and 356 more.")
    assert "datasets mirror DIR --sources FOLDER" in lines[2] and "without --base-url" in lines[2]
    assert "the same command again" not in " ".join(lines)   # it would not help


def test_status_says_what_is_there(publisher, tmp_path, capsys):
    get(publisher, tmp_path, names=("usf", "corpus"))
    (tmp_path / "usf" / "S.txt").write_bytes(b"damaged")
    (tmp_path / "corpus" / "mine.txt").write_text("a book of my own")
    assert download.main(["status", "--sources", str(tmp_path), "--files"]) == 0
    out = capsys.readouterr().out
    assert "usf: 8 of 8 files" in out and "7 sound" in out and "1 corrupt" in out
    assert f"eat: missing: python main.py datasets download eat --sources {tmp_path}" in out
    assert f"corpus: {len(BOOKS)} of 359 books" in out and "1 other file the AI reads" in out
    assert "adds: the association matrix" in out
    assert "sha256 " + fetch.USF_SHA256["A-B"] in out


def test_the_help_says_what_each_dataset_is_its_size_terms_and_source():
    text = download.parser().format_help()
    for name, dataset in fetch.downloadable().items():
        assert f"{name}" in text and dataset.size in text
    for words in ("Project Gutenberg License", "CC BY-NC-SA 2.5", "Copyright Nelson", "w3.usf.edu",
                  "github.com/bavla/Nets", "https://www.gutenberg.org", "evaluation only"):
        assert words in " ".join(text.split())


def test_the_book_list_and_the_publishers_urls():
    assert len(fetch.gutenberg_books()) == 359 == len(set(fetch.gutenberg_books()))
    assert fetch.book(46).url == "https://www.gutenberg.org/cache/epub/46/pg46.txt"
    assert fetch.downloadable()["usf"].files[0].url == \
        "http://w3.usf.edu/FreeAssociation/AppendixA/Cue_Target_Pairs.A-B"
    assert fetch.located(fetch.book(46).url, "http://127.0.0.1:8000/") == "http://127.0.0.1:8000/cache/epub/46/pg46.txt"


# --- the game's offer --------------------------------------------------------------------


class Asked:
    def __init__(self, *answers: str):
        self.answers, self.questions = list(answers), []

    def __call__(self, question: str) -> str:
        self.questions.append(question)
        return self.answers.pop(0)


def test_the_offer_remembers_a_no(tmp_path, monkeypatch):
    monkeypatch.setattr(download, "interactive", lambda: True)
    declined = tmp_path / "declined"
    ask = Asked("n")
    download.offer(tmp_path / "sources", declined, ask)
    download.offer(tmp_path / "sources", declined, ask)
    assert len(ask.questions) == 1 and "MB" in ask.questions[0] and declined.exists()


def test_no_offer_when_not_interactive_or_with_a_dataset(tmp_path, monkeypatch):
    ask = Asked()
    monkeypatch.setattr(download, "interactive", lambda: False)
    download.offer(tmp_path, tmp_path / "declined", ask)
    monkeypatch.setattr(download, "interactive", lambda: True)
    (tmp_path / "eat").mkdir()
    (tmp_path / "eat" / "EATnew.zip").write_bytes(b"PK")
    download.offer(tmp_path, tmp_path / "declined", ask)
    assert ask.questions == [] and not (tmp_path / "declined").exists()


def test_a_yes_downloads(publisher, tmp_path, monkeypatch):
    monkeypatch.setattr(download, "interactive", lambda: True)
    monkeypatch.setenv(fetch.BASE_URL_VARIABLE, publisher.url)
    monkeypatch.setattr(fetch, "PAUSE", 0.0)
    monkeypatch.setattr(fetch, "gutenberg_books", lambda path=None: list(BOOKS))
    fetch.downloadable.cache_clear()
    try:
        download.offer(tmp_path / "sources", tmp_path / "declined", Asked("y"))
    finally:
        fetch.downloadable.cache_clear()
    assert (tmp_path / "sources" / "usf" / "A-B.txt").exists()
    assert (tmp_path / "sources" / "corpus" / "gutenberg" / "pg46.txt.gz").exists()
    assert not (tmp_path / "declined").exists()


def test_a_game_without_a_terminal_never_asks(tmp_path):
    result = subprocess.run([sys.executable, str(ROOT / "main.py"), "--red", "ai:ai", "--blue", "auto",
                             "--seed", "1", "--no-log", "--sources", str(tmp_path)],
                            capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert result.returncode == 0 and "Download them" not in result.stdout + result.stderr


def test_no_question_in_a_terminal_when_no_person_plays(tmp_path, monkeypatch, capsys):
    import main
    import session

    for module in (download, session):
        monkeypatch.setattr(module, "interactive", lambda: True)
    monkeypatch.setattr(download, "DECLINED_PATH", tmp_path / "declined")
    monkeypatch.setattr("builtins.input", lambda question: pytest.fail(f"asked: {question}"))
    args = ["--red", "ai:ai", "--blue", "auto", "--seed", "1", "--no-log", "--sources", str(tmp_path)]
    assert main.main(args) == 0 and "wins" in capsys.readouterr().out
    assert not (tmp_path / "declined").exists()


def test_a_persons_first_game_offers_the_download_once_after_it(tmp_path, monkeypatch, capsys):
    from helpers import dealt_board

    import main
    import session

    for module in (download, session):
        monkeypatch.setattr(module, "interactive", lambda: True)
    monkeypatch.setattr(download, "DECLINED_PATH", tmp_path / "declined")
    board = dealt_board(1)
    red = [c.word for c in board.cards if c.color.value == "red"]
    questions = []

    def answer(question: str = "") -> str:   # red's every card, whatever the hint; then no, and no
        questions.append(question)
        return red.pop(0) if "guess" in question else "n"
    monkeypatch.setattr("builtins.input", answer)
    args = ["--red", "ai:human", "--blue", "auto", "--seed", "1", "--no-log", "--sources", str(tmp_path),
            "--player", "guest", "--profiles", str(tmp_path / "players")]
    assert main.main(args) == 0
    asked = [q for q in questions if "guess" not in q]
    assert len(asked) == 2 and "Download them now?" in asked[0] and asked[1] == "Play again? [Y/n]> "
    assert questions.index(asked[0]) > max(i for i, q in enumerate(questions) if "guess" in q)
    assert (tmp_path / "declined").exists() and "*** RED wins" in capsys.readouterr().out
    red[:] = [c.word for c in board.cards if c.color.value == "red"]
    questions.clear()
    assert main.main(args) == 0
    assert [q for q in questions if "guess" not in q] == ["Play again? [Y/n]> "]   # a no, never repeated


@pytest.mark.slow
def test_every_book_comes_and_reads_as_the_shared_copy(shared_datasets, tmp_path, monkeypatch):
    """All 368 files from the local publisher: the corpus the readers make of them is the shared one."""
    for variable in ("http_proxy", "HTTP_PROXY", fetch.BASE_URL_VARIABLE):
        monkeypatch.delenv(variable, raising=False)
    with serving(served(shared_datasets, fetch.gutenberg_books())) as server:
        done = fetch.download(["usf", "eat", "corpus"], tmp_path, base_url=server.url, pause=0.0)
    assert not done.failed and len(done.fetched) == 8 + 1 + 359

    def words(sources: Path) -> int:
        files = Catalog(Settings(sources, hints=(), words=())).files("corpus")
        return sum(len(text.split()) for text in read_corpus(files))
    assert words(tmp_path) == words(shared_datasets) == 15_044_427   # ../shared/datasets/README.md
