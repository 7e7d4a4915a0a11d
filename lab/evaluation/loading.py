"""Loading the bench's initializers (weight matrices), timed."""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

from common import warn


class BenchError(Exception):
    """A benchmark that cannot run as asked; the message says why."""


def load_initializer(name: str, sources: Path, sbert_model: str | None,
                     cache_dir: Path | None = None) -> tuple[object, dict]:
    """An initializer's weights and how long loading took: first (may build), then from cache."""
    import datasets

    settings = datasets.Settings(sources=sources, sbert_model=sbert_model, cache_dir=cache_dir)
    timings = {}
    for attempt in ("first_load_s", "cache_load_s"):
        start = time.perf_counter()
        weights = datasets.load_weights(name, settings)
        timings[attempt] = time.perf_counter() - start
    return weights, timings


def load_all(names: Sequence[str], sources: Path, sbert_model: str | None, required: bool,
             words: Sequence[str], cache_dir: Path | None = None) -> tuple[dict, dict, dict]:
    """Weights, load times and the reason for each initializer that could not be loaded."""
    weights, timings, missing = {}, {}, {}
    for name in names:
        try:
            weights[name], timings[name] = load_initializer(name, sources, sbert_model, cache_dir)
        except Exception as error:  # an initializer's own error says what source it lacks
            if required:
                raise BenchError(f"cannot load initializer {name!r}: {error}") from None
            missing[name] = f"{type(error).__name__}: {error}"
            warn(f"bench: skipping initializer {name}: {error}")
            continue
        weights[name].add_words(list(words))
    return weights, timings, missing
