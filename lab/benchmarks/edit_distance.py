"""The hint rules' edit distance over the whole vocabulary: rapidfuzz's cdist against the
Levenshtein package, pair by pair (decision 0091).

    python -m lab.benchmarks.edit_distance            # 25 card words a board, 20 boards
    python -m lab.benchmarks.edit_distance --boards 5

The AI keeps its hints clear of words spelled like a face-down card (`models.hints.spelled_alike`,
the Levenshtein package's distance over the longer word). Its filter measures each new board word
against every hint of the vocabulary (10,000 words) once (`HintFilter.banned`): one
`rapidfuzz.process.cdist` call, or a loop of the Levenshtein package's `distance`, which has no call
for many pairs. Both are timed on the same card words (best of `--repeats`, so that another job on
the machine weighs least), and their figures compared, pair by pair.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Sequence

import numpy as np
from rapidfuzz.distance import Levenshtein as VocabularyLevenshtein
from rapidfuzz.process import cdist

from common import board_words, hint_words
from models.hints import spelling_distance


def by_cdist(words: Sequence[str], hints: Sequence[str]) -> np.ndarray:
    """Each word's distance to every hint, a cdist call a word (as `HintFilter.banned` makes it)."""
    return np.stack([cdist([w], hints, scorer=VocabularyLevenshtein.normalized_distance,
                           dtype=np.float32)[0] for w in words])


def by_pairs(words: Sequence[str], hints: Sequence[str]) -> np.ndarray:
    """The same with the Levenshtein package, one pair at a time."""
    return np.array([[spelling_distance(w, h) for h in hints] for w in words], dtype=np.float32)


def best_time(measure: Callable[[], np.ndarray], repeats: int) -> tuple[float, np.ndarray]:
    """The fastest of `repeats` runs (seconds), and what the last one returned."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        result = measure()
        times.append(time.perf_counter() - start)
    return min(times), result


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--boards", type=int, default=20, help="boards of 25 card words (default 20)")
    p.add_argument("--repeats", type=int, default=3, help="runs of each, the fastest kept (default 3)")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)

    hints = hint_words()
    cards = board_words()
    rng = np.random.default_rng(args.seed)
    words = [cards[i] for i in rng.choice(len(cards), min(len(cards), 25 * args.boards), replace=False)]
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}; {len(words)} card "
          f"words against {len(hints):,} hints", flush=True)
    vectorised, measured = best_time(lambda: by_cdist(words, hints), args.repeats)
    paired, expected = best_time(lambda: by_pairs(words, hints), args.repeats)
    agree = bool(np.allclose(measured, expected, atol=1e-6))
    per_board = 25 / len(words)
    print(f"{'how':<58} {'a board':>10} {'a card word':>12}")
    for how, seconds in (("rapidfuzz.process.cdist, the vocabulary in one call", vectorised),
                         ("Levenshtein.distance, pair by pair", paired)):
        print(f"{how:<58} {1000 * seconds * per_board:>7.1f} ms {1e6 * seconds / len(words):>9.0f} us")
    print(f"cdist is {paired / vectorised:.1f} times as fast; the two agree on every pair: {agree}")
    print(f"load average at end: {os.getloadavg()[0]:.2f}")
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
