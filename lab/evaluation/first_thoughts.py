"""Did a person take the cards an AI hint claimed past its first? Read from a game log.

    python -m lab.evaluation.first_thoughts --sources ../shared/datasets [--log data/games.jsonl]

For every hint of two cards or more that the AI captain gave a person (an `ai:human` team), each
target past the first: whether today's sight counts it one of a person's first thoughts for the
hint (models/sight.py: among as many of its nearest card words as the rule's `claimed`, vouched
for, or linked by the norms or a phrase a person knows), and whether the person turned it over
for that hint. Prints each target and a table of how often each kind was taken (decision 0058).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import numpy as np

import datasets
from common import BOARD_WORDS_PATH, GAMES_LOG_PATH, load_words
from lab.evaluation import human_models
from lab.evaluation.loading import load_all
from model import Sight

Claim = tuple[int, str, str, bool, bool]   # (seed, hint, card, a first thought, taken)


def claims(log: Path, sight: Sight, first_seed: int = 0) -> Iterator[Claim]:
    """Each target past a hint's first, of the AI captain's hints to a person in `log`."""
    rule = sight.rule
    within = rule.evoked if rule.claimed is None else rule.claimed
    for line in log.read_text(encoding="utf-8").splitlines():
        game = json.loads(line)
        if game["seed"] < first_seed:
            continue
        people = {team for team, kind in game["teams"].items() if kind.startswith("ai:human")}
        turned: set[str] = set()
        for turn in game["turns"]:
            hint, taken = turn.get("hint"), [word for word, _ in turn["guesses"]]
            if turn["team"] in people and hint and (hint[1] or 0) >= 2 and len(turn.get("targets", ())) >= 2:
                face_down = [w for w in game["board"] if w not in turned]
                index = sight.index(hint[0])
                if index is not None:
                    first = sight.evoked(face_down, np.array([index]), within=within, vouched=True)[0]
                    for card in turn["targets"][1:]:
                        yield game["seed"], hint[0], card, bool(first[face_down.index(card)]), card in taken
            turned.update(taken)


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sources", type=Path, required=True)
    p.add_argument("--log", type=Path, default=GAMES_LOG_PATH)
    p.add_argument("--from-seed", type=int, default=0, help="only games of this seed or later")
    args = p.parse_args(argv)
    weights, _, _ = load_all(list(datasets.INITIALIZERS), args.sources, None, required=False,
                             words=load_words(BOARD_WORDS_PATH))
    sight = human_models.game_ai(weights).sight
    found = list(claims(args.log, sight, args.from_seed))
    for seed, hint, card, first, taken in found:
        print(f"{seed} {hint.upper()} {card.upper()}: {'a first thought' if first else 'evoked only'}, "
              f"{'taken' if taken else 'not taken'}")
    counts = Counter((first, taken) for *_, first, taken in found)
    print("\n| card past the first | taken | of |\n|---|---|---|")
    for first, name in ((True, "a first thought"), (False, "evoked only")):
        total = counts[first, True] + counts[first, False]
        print(f"| {name} | {counts[first, True]} | {total} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
