"""Where the tier's guessers misread the game's hints: their first picks binned by how near the
hint is to its weakest target in SBERT's reading, and by how far ahead of every other card.

    python -m lab.benchmarks.misreadings --sources ../shared/datasets --seeds 60 --seed-offset 140

Every hint of the human-model tier's games (the fitted guessers, greedy) with its targets: the
share whose first pick was not the team's, and the assassin. Decision 0070 reads it.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from pathlib import Path

import numpy as np

from board import Outcome, deal
from common import BOARD_WORDS_PATH, load_words
from lab.benchmarks.captain_ablation import build_ai, captain
from lab.evaluation import human_models
from lab.evaluation.games import play_solo

NEAR_BINS = (0.0, 0.35, 0.4, 0.45, 0.5, 0.6, 1.01)    # SBERT's cosine to the weakest target
LEAD_BINS = (-1.0, 0.03, 0.06, 0.1, 0.15, 1.01)       # ... less its cosine to the nearest other card


def first_picks(sources: Path, seeds: range) -> dict[str, np.ndarray]:
    """For every hint with targets: SBERT's cosine to its weakest target, that less its nearest
    other card's, whether the first pick missed, and whether it was the assassin."""
    words = load_words(BOARD_WORDS_PATH)
    ai, weights = build_ai(sources, words, embedded=False)
    sbert, rows = weights["sbert"], []
    for name in human_models.GUESSERS:
        guesser = human_models.fit_guesser(name, sources)
        for seed in seeds:
            board, rng = deal(seed, words)
            game = play_solo(board, board.starting_team, captain(ai, {}, None), guesser, rng, seed)
            for hint in (h for h in game.hints if h.targets and h.outcomes):
                row = sbert.hint_row(hint.word, hint.face_down)
                meant = np.isin(hint.face_down, hint.targets)
                weakest = row[meant].min()
                rows.append((weakest, weakest - row[~meant].max(), hint.outcomes[0] is not Outcome.OWN,
                             hint.outcomes[0] is Outcome.ASSASSIN))
    near, lead, missed, assassin = map(np.array, zip(*rows, strict=True))
    return {"near": near, "lead": lead, "missed": missed, "assassin": assassin}


def binned(values: np.ndarray, edges: tuple[float, ...], found: dict[str, np.ndarray]) -> list[str]:
    """One line per bin of `values`: hints, and the share of first picks missed and on the assassin."""
    lines = []
    for low, high in itertools.pairwise(edges):
        inside = (values >= low) & (values < high)
        if inside.any():
            lines.append(f"  [{low:5.2f}, {high:5.2f})  {inside.sum():5d} hints  "
                         f"missed {found['missed'][inside].mean():6.1%}  "
                         f"assassin {found['assassin'][inside].mean():5.1%}")
    return lines


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sources", type=Path, required=True)
    p.add_argument("--seeds", type=int, default=60)
    p.add_argument("--seed-offset", type=int, default=140)
    args = p.parse_args(argv)
    found = first_picks(args.sources, range(args.seed_offset, args.seed_offset + args.seeds))
    print(f"{len(found['near'])} hints; first pick missed {found['missed'].mean():.1%}, "
          f"the assassin {found['assassin'].mean():.1%}")
    print("by SBERT's cosine to the weakest target:", *binned(found["near"], NEAR_BINS, found), sep="\n")
    print("by its lead over the nearest other card:", *binned(found["lead"], LEAD_BINS, found), sep="\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
