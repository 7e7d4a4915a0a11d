"""How long the game's captain takes for a hint on a known board (its columns already built).

    python -m lab.benchmarks.hint_speed [--sources ../shared/datasets] [--seeds 12]

Prints the median and the slowest over the test boards, for the sources given (every dataset)
and for the embedded default (no dataset).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

import datasets
from board import deal
from common import board_words
from lab.evaluation.games import TEST_OFFSET
from model import AI


def hint_seconds(sources: Path, seeds: range) -> list[float]:
    """Seconds of the second hint asked on each board (the first builds the board's columns)."""
    weights, partners = datasets.load_with_partners(None, sources=sources)
    ai, words = AI(weights, partners=partners), board_words()
    seconds = []
    for seed in seeds:
        board, _ = deal(seed, words)
        captain = ai.captain(alone=True)
        captain.give_hint(board, board.starting_team)
        start = time.perf_counter()
        captain.give_hint(board, board.starting_team)
        seconds.append(time.perf_counter() - start)
    return seconds


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sources", type=Path, default=Path("../shared/datasets"))
    p.add_argument("--seeds", type=int, default=12)
    args = p.parse_args(argv)
    seeds = range(TEST_OFFSET, TEST_OFFSET + args.seeds)
    for label, sources in (("every dataset", args.sources), ("embedded default", Path("/nonexistent"))):
        ms = 1000 * np.array(hint_seconds(sources, seeds))
        print(f"{label}: median {np.median(ms):.0f} ms, slowest {ms.max():.0f} ms over {len(ms)} boards")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
