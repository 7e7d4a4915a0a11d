"""A mirror, not a target: would the game's captain give the clue a person gave?

    python -m lab.benchmarks.clue_mirror --sources ../shared/datasets > reports/clue_mirror.md

On each turn of the human Duet record (validation split, `<sources>/human_duet/`), the giver's
view becomes a board: the cards they aimed at are the team's own, their assassins the assassin,
every other face-down card a bystander. It says how often the person's clue is in the hint
vocabulary (and legal there), and where the captain's own scoring ranks it among all legal
hints for that many cards (1 = the captain's choice). Tuning to it would overfit 453 turns.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

import datasets
from board import ASSASSIN, NEUTRAL, RED, Board
from common import SOURCES_DIR
from lab.evaluation.human_duet import read_turns
from model import AI, Situation


def rank_of(captain, weights, turn) -> int | None:
    """The rank of the person's clue among the legal hints the captain scores for its count;
    0 when the captain does not score it at all (outside the candidates it simulates)."""
    words = list(turn.remaining)
    key = [RED if w in turn.targets else ASSASSIN if w in turn.black else NEUTRAL for w in words]
    board = Board.from_key(words, key)
    situation = Situation.of(weights, board, RED)
    if turn.clue not in weights.hint_index or not situation.legal[weights.hint_index[turn.clue]]:
        return None
    score = captain.score(situation, board)
    column = score[:, min(len(turn.targets), score.shape[1]) - 1]
    column = np.where(situation.legal, column, -np.inf)
    mine = column[weights.hint_index[turn.clue]]
    return int((column > mine).sum()) + 1 if np.isfinite(mine) else 0


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sources", type=Path, default=SOURCES_DIR)
    args = p.parse_args(argv)
    weights, partners = datasets.load_with_partners(None, sources=args.sources)
    turns = list(read_turns(args.sources))
    weights.add_words(sorted({w for t in turns for w in t.remaining}))
    captain = AI(weights, partners=partners).captain(twin=False, alone=True)
    known = [t for t in turns if t.clue in weights.hint_index]
    found = [r for t in known if (r := rank_of(captain, weights, t)) is not None]
    ranks = [r for r in found if r > 0]
    legal = len(weights.hints)
    print("# Would the captain give the person's clue? (a mirror)\n")
    print(f"`python -m lab.benchmarks.clue_mirror --sources ../shared/datasets` ({weights.name}, "
          f"{len(partners)} partners; validation split, {len(turns)} turns)\n")
    print("| measure | value |\n|---|---|")
    print(f"| the person's clue is in the hint vocabulary | {len(known)} of {len(turns)} "
          f"({len(known) / len(turns):.1%}) |")
    print(f"| ... and legal on that board | {len(found)} |")
    print(f"| ... and among the hints the captain scores (its candidates) | {len(ranks)} |")
    if ranks:
        print(f"| median rank of those among the scored legal hints (of ~{legal:,} legal) | "
              f"{int(np.median(ranks))} |")
        print(f"| ranked first / in the top 10 / in the top 100 | {np.mean(np.array(ranks) == 1):.1%} / "
              f"{np.mean(np.array(ranks) <= 10):.1%} / {np.mean(np.array(ranks) <= 100):.1%} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
