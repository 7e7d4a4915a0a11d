"""Shared fixtures: offline SBERT, the shared datasets, and the two real processes that load
SBERT, each shared by the tests that read it."""

import functools
import os
import subprocess
from pathlib import Path

import pytest
from helpers import HINTS_FOR_THE_AI, HINTS_TYPED, Server, assert_clean, finish, start

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

SHARED_DATASETS = ROOT.parent / "shared" / "datasets"


@pytest.fixture
def shared_datasets() -> Path:
    """The real datasets beside the repository; tests that need them skip without them."""
    if not SHARED_DATASETS.is_dir():
        pytest.skip(f"real datasets not found at {SHARED_DATASETS}")
    return SHARED_DATASETS


# --- the processes that load SBERT (~5 s each) ------------------------------------------------
# Started as soon as the tests are collected, so that they load on the second core while the
# first runs other tests; the fixtures read them when a test first asks.


@functools.cache
def serve_process() -> Server:
    return Server("--initializer", "sbert", "--captain", "cumsum", "--agent", "greedy")


@functools.cache
def hints_process() -> subprocess.Popen:
    return start(HINTS_FOR_THE_AI)


def pytest_collection_finish(session: pytest.Session) -> None:
    if session.config.option.collectonly:
        return
    wanted = {name for item in session.items for name in getattr(item, "fixturenames", ())}
    if "server" in wanted:
        serve_process()
    if "hints_for_the_ai" in wanted:
        hints_process()


@pytest.fixture(scope="session")
def server():
    """`python main.py serve`, one process for the whole run (test_protocol, test_fuzz)."""
    s = serve_process()
    yield s
    code, rest = s.close()
    assert code == 0, "".join(s.stderr)[-2000:]
    assert rest == [], f"stray output on stdout: {rest}"
    assert any("ready" in line for line in s.stderr), "no start-up notice on stderr"


@pytest.fixture(scope="session")
def hints_for_the_ai() -> tuple[str, str]:
    """The stdout and stderr of a game in which a person gives the hints and the AI guesses
    (helpers.HINTS_FOR_THE_AI)."""
    return assert_clean(finish(hints_process(), HINTS_TYPED))
