"""Shared fixtures: offline SBERT, and the shared datasets."""

import os
from pathlib import Path

import pytest
from helpers import Server

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


@pytest.fixture(scope="session")
def server():
    """`python main.py serve`, one process for the whole run (test_protocol, test_fuzz): loading
    the model is the slow part."""
    s = Server("--initializer", "sbert", "--captain", "cumsum", "--agent", "greedy")
    yield s
    code, rest = s.close()
    assert code == 0, "".join(s.stderr)[-2000:]
    assert rest == [], f"stray output on stdout: {rest}"
    assert any("ready" in line for line in s.stderr), "no start-up notice on stderr"
