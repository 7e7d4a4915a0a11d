"""Shared fixtures: offline SBERT, and the shared datasets."""

import os
from pathlib import Path

import pytest

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
