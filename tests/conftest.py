"""Shared fixtures: the project on sys.path, offline SBERT, and the shared datasets."""

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

SHARED_DATASETS = ROOT.parent / "shared" / "datasets"


@pytest.fixture
def shared_datasets() -> Path:
    """The real datasets beside the repository; tests that need them skip without them."""
    if not SHARED_DATASETS.is_dir():
        pytest.skip(f"real datasets not found at {SHARED_DATASETS}")
    return SHARED_DATASETS
