"""Speed of the captain and agent strategies against the 10k-word hint vocabulary.

    python -m lab.benchmarks.strategies [--boards 40] [--initializer NAME] [--sources DIR]

Prints the median and 95th-percentile hint time of every captain, the median
agent guess time, and the time to build on-demand columns for a board of 25
words that no matrix has seen. Targets: cumsum and margin ≤ 10 ms,
cluster and expected ≤ 150 ms, a guess ≤ 2 ms, 25 unseen words ≤ 1.5 s.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from board import Board
from common import SOURCES_DIR, board_words
from model import AGENTS, AI, CAPTAINS

TARGETS_MS = {"cumsum": 10, "margin": 10, "cluster": 150, "expected": 150}

# Real English words, none of them in data/board_words_en.txt.
UNSEEN = ["accordion", "avalanche", "barracuda", "blizzard", "bulldozer", "caravan", "chandelier",
          "cobweb", "daffodil", "dynamite", "escalator", "flamingo", "gondola", "harmonica",
          "igloo", "jellyfish", "kayak", "lighthouse", "meteor", "origami", "pelican", "quiver",
          "saxophone", "tornado", "walrus"]


def timed(function, *args, **kwargs) -> tuple[float, object]:
    start = time.perf_counter()
    result = function(*args, **kwargs)
    return time.perf_counter() - start, result


def hint_times(ai: AI, strategy: str, boards: list[Board]) -> list[float]:
    """Seconds per hint: a first hint on each board, then a second on the same board (as in play)."""
    ai = AI(ai.weights, strategy, ai.agent_strategy, ai.partners)
    times = []
    for board in boards:
        captain = ai.captain()
        for _ in range(2):
            seconds, _ = timed(captain.give_hint, board, board.starting_team)
            times.append(seconds)
    return times


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--boards", type=int, default=40)
    p.add_argument("--initializer", default=None)
    p.add_argument("--sources", type=Path, default=SOURCES_DIR)
    args = p.parse_args(argv)

    import datasets

    weights, partners = datasets.load_with_partners(args.initializer, sources=args.sources)
    ai = AI(weights, partners=partners)
    rng = np.random.default_rng(2024)
    boards = [Board.random(board_words(), rng) for _ in range(args.boards)]
    print(f"initializer {weights.name}: {len(weights.hints)} hints × {len(weights.words)} board words;"
          f" {args.boards} boards, two hints each; partners of `expected`: "
          f"{', '.join(p.name for p in partners) or 'none'}\n")
    print(f"{'measure':34} {'median':>9} {'p95':>9} {'target':>8}  ok")
    for strategy in CAPTAINS:
        hint_times(ai, strategy, boards[:2])        # warm-up: imports, legality caches
        times = np.array(hint_times(ai, strategy, boards)) * 1000
        target = TARGETS_MS[strategy]
        print(f"{'hint: ' + strategy:34} {np.median(times):7.1f}ms {np.percentile(times, 95):7.1f}ms"
              f" {target:6}ms  {'yes' if np.median(times) <= target else 'NO'}")
    for strategy in AGENTS:
        agent = AI(weights, agent_strategy=strategy).agent()
        times = []
        for board in boards:
            hint = ai.captain().give_hint(board, board.starting_team).hint
            seconds, _ = timed(agent.guess, board, hint, 0, rng, team=board.starting_team)
            times.append(seconds * 1000)
        print(f"{'guess: ' + strategy:34} {np.median(times):7.2f}ms {np.percentile(times, 95):7.2f}ms"
              f" {2:6}ms  {'yes' if np.median(times) <= 2 else 'NO'}")
    unseen = [w for w in UNSEEN if not weights.knows(w)]
    weights.board_matrix(["warmup"])                 # the embedding model loads once per process
    seconds, _ = timed(weights.board_matrix, unseen)
    print(f"{f'{len(unseen)} unseen board words':34} {seconds:8.2f}s {'':>9} {1.5:7}s "
          f" {'yes' if seconds <= 1.5 else 'NO'}")
    seconds, _ = timed(weights.hint_row, "seashore", unseen)
    print(f"{'out-of-vocabulary hint row':34} {seconds * 1000:7.1f}ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
