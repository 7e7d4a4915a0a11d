"""How many cards people claim with a clue, and how many their partner finds: the human Duet
record's turns by count (decision 0078).

    python -m lab.benchmarks.people_counts --sources ../shared/datasets

For each count (the number of cards the giver aimed at), the share of turns, the targets the
guesser turned over a clue, and the share of clues whose every target they turned over; and the
same over every turn, the record's own "every card seen" and "own cards a hint" (a target found,
not any card of the giver's). 95% bootstrap intervals over games. Validation figures.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from lab.evaluation.human_duet import Turn, read_turns
from lab.evaluation.stats import Estimate, bootstrap_ratio


def found(turns: Sequence[Turn]) -> tuple[np.ndarray, np.ndarray]:
    """For each turn: how many of its targets the guesser turned over, and whether every one."""
    hits = np.array([len(set(t.targets) & set(t.guesses)) for t in turns])
    return hits, hits == np.array([len(t.targets) for t in turns])


def by_game(values: np.ndarray, games: np.ndarray) -> Estimate:
    """The mean of `values` over turns, with its interval resampling whole games."""
    ids = np.unique(games)
    return bootstrap_ratio([values[games == g].sum() for g in ids], [(games == g).sum() for g in ids])


def report(turns: Sequence[Turn]) -> list[str]:
    """The table's lines: one per count, then every turn."""
    counts = np.array([len(t.targets) for t in turns])
    games = np.array([t.game for t in turns])
    hits, whole = found(turns)
    lines = ["| count | turns | targets found a clue | every target found |", "|---|---|---|---|"]
    groups = [(str(k), counts == k) for k in np.unique(counts)] + [("every turn", counts > 0)]
    for name, chosen in groups:
        targets, every = by_game(hits[chosen], games[chosen]), by_game(whole[chosen], games[chosen])
        lines.append(f"| {name} | {chosen.sum()} ({chosen.mean():.0%}) | {targets.value:.2f} "
                     f"[{targets.low:.2f}–{targets.high:.2f}] | {every.value:.0%} "
                     f"[{every.low:.0%}–{every.high:.0%}] |")
    lines.append(f"\nCards claimed a clue: {counts.mean():.2f}.")
    return lines


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sources", type=Path, required=True)
    args = p.parse_args(argv)
    print("\n".join(report(list(read_turns(args.sources)))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
