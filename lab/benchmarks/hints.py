"""The hints a person gets from the game's captain, with its reasons (`--explain`), on seeded boards.

    python -m lab.benchmarks.hints --sources ../shared/datasets --seeds 12 > reports/hints.md

The captain is the one an `ai:human` team plays with (it plans for a person: its partner is the
model of people, models/people.py). Under each hint, for each target, the link that counts most
for a person, in plain words. Each board is played alone to its end by a guesser fitted to
people's play that the captain does not read as its own voice (the human-model tier's GloVe one,
lab/evaluation/human_models.py; with no human record, the model of people), standing in for the
person; the outcome of each guess follows the hint: o own, n bystander, p the opponent's, a the
assassin. A record to read, not a score.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import datasets
from board import deal
from common import SOURCES_DIR, board_words
from lab.evaluation.games import TEST_OFFSET, play_solo
from lab.evaluation.human_duet import available
from lab.evaluation.human_models import fit_guesser
from model import AI
from renderer import explanation


class Explained:
    """A captain that keeps each choice it makes, to show its reasons afterwards."""

    def __init__(self, captain):
        self.captain, self.choices = captain, []

    def give_hint(self, board, team, given=()):
        self.choices.append(self.captain.give_hint(board, team, given))
        return self.choices[-1]

    def observe(self, hint, face_down, guesses):
        self.captain.observe(hint, face_down, guesses)


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sources", type=Path, default=SOURCES_DIR)
    p.add_argument("--seeds", type=int, default=12)
    p.add_argument("--seed-offset", type=int, default=TEST_OFFSET)
    args = p.parse_args(argv)
    weights, partners = datasets.load_with_partners(None, sources=args.sources)
    words = list(board_words())
    weights.add_words(words)
    ai = AI(weights, partners=partners)
    fitted = (fit_guesser("glove-people", args.sources)
              if available(args.sources) else None)   # stateless; the people agent remembers a game
    print(f"# Hints a person gets, with `--explain`\n\n`python -m lab.benchmarks.hints --seeds {args.seeds}"
          f" --seed-offset {args.seed_offset}` ({weights.name}; partners: "
          f"{', '.join(w.name for w in partners) or 'none'})\n")
    for seed in range(args.seed_offset, args.seed_offset + args.seeds):
        board, rng = deal(seed, words)
        captain = Explained(ai.captain(twin=False, alone=True))
        person = fitted or ai.people_agent()
        result = play_solo(board, board.starting_team, captain, person, rng, seed)
        ending = "won" if result.won else ("assassin" if result.assassin else "lost")
        print(f"## Seed {seed}: {ending} in {len(result.hints)} hints\n\n```")
        for choice, record in zip(captain.choices, result.hints, strict=False):
            outcomes = "".join(o.value[0] for o in record.outcomes)
            words = [c.word for c in board.cards]
            links = ai.people.links(choice.hint.word, words, choice.targets)
            print(f"{choice.hint}  -> {outcomes}\n{explanation(choice, board)}")
            print("    How: " + "; ".join(f"{t.upper()}: {how}" for t, how in links.items()))
        print("```\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
