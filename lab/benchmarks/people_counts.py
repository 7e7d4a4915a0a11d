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

RESAMPLES = 2000


def found(turns: Sequence[Turn]) -> tuple[np.ndarray, np.ndarray]:
    """For each turn: how many of its targets the guesser turned over, and whether every one."""
    hits = np.array([len(set(t.targets) & set(t.guesses)) for t in turns])
    return hits, hits == np.array([len(t.targets) for t in turns])


def interval(values: np.ndarray, games: np.ndarray, rng: np.random.Generator) -> tuple[float, float]:
    """A 95% bootstrap interval of the mean of `values`, resampling whole games."""
    ids = np.unique(games)
    rows = [np.flatnonzero(games == g) for g in ids]
    means = [values[np.concatenate([rows[i] for i in rng.integers(len(ids), size=len(ids))])].mean()
             for _ in range(RESAMPLES)]
    return float(np.percentile(means, 2.5)), float(np.percentile(means, 97.5))


def report(turns: Sequence[Turn], seed: int = 0) -> list[str]:
    """The table's lines: one per count, then every turn."""
    rng = np.random.default_rng(seed)
    counts = np.array([len(t.targets) for t in turns])
    games = np.array([t.game for t in turns])
    hits, whole = found(turns)
    lines = ["| count | turns | targets found a clue | every target found |", "|---|---|---|---|"]
    groups = [(str(k), counts == k) for k in np.unique(counts)] + [("every turn", counts > 0)]
    for name, chosen in groups:
        low, high = interval(hits[chosen], games[chosen], rng)
        low_all, high_all = interval(whole[chosen].astype(float), games[chosen], rng)
        lines.append(f"| {name} | {chosen.sum()} ({chosen.mean():.0%}) | {hits[chosen].mean():.2f} "
                     f"[{low:.2f}–{high:.2f}] | {whole[chosen].mean():.0%} [{low_all:.0%}–{high_all:.0%}] |")
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
