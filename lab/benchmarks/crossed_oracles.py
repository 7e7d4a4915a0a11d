"""Each tier guesser's captain with the other guesser: how much of an oracle's lead is knowing its
own judge, and what a model of people on other vectors is worth to the game's captain.

    python -m lab.benchmarks.crossed_oracles --sources ../shared/datasets [--seeds 100] [--seed-offset 140]
        [--embedded] [--sample]

Every captain plays one team alone with every fitted guesser of the human-model tier
(lab/evaluation/human_models.py), greedy as in the tier (or sampling, `--sample`), on the same
boards: the game's captain (it plans for the model of people), each guesser's oracle
(`human_models.oracle`), and the game's captain planning for each guesser's model instead, with its
sight (`human_models.sighted`). Prints a markdown table: wins, assassin losses, hints on a win,
with 95% intervals over boards.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import datasets
from board import deal
from common import BOARD_WORDS_PATH, load_words, progress
from lab.evaluation import human_models
from lab.evaluation.games import play_solo
from lab.evaluation.human_models import FittedGuesser
from lab.evaluation.loading import load_all
from lab.evaluation.stats import count_table, summarize
from lab.evaluation.tables import fmt, table
from model import AI

HEADER = ["captain", "guesser", "games", "wins", "assassin losses", "hints on a win"]


def captains(ai: AI, guessers: Mapping[str, FittedGuesser]) -> dict[str, Callable[[], object]]:
    """Each captain of the table, by label, as a maker of a fresh one for a game."""
    made: dict[str, Callable[[], object]] = {"the game's": lambda: ai.captain(alone=True)}
    for name, guesser in guessers.items():
        made[f"oracle of {name}"] = lambda g=guesser: human_models.oracle(ai, g)
        made[f"the game's, planning for {name}"] = lambda g=guesser: human_models.sighted(ai, g)
    return made


def crossed(ai: AI, guessers: Mapping[str, FittedGuesser], seeds: Sequence[int],
            words: Sequence[str]) -> list[list]:
    """The table's rows: every captain with every guesser on the boards of `seeds`."""
    made, rows = captains(ai, guessers), []
    with progress(total=len(made) * len(guessers) * len(seeds), desc="crossed oracles", unit="game",
                  mininterval=1.0, dynamic_ncols=True) as bar:
        for label, make in made.items():
            for name, guesser in guessers.items():
                games = []
                for seed in seeds:
                    board, rng = deal(seed, words)
                    games.append(play_solo(board, board.starting_team, make(), guesser, rng, seed))
                    bar.update()
                s = summarize(count_table(games))
                rows.append([label, name, s["games"], fmt(s["win_rate"], "rate"),
                             fmt(s["assassin_rate"], "rate"), fmt(s["turns_on_wins"], "mean")])
    return rows


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sources", type=Path, required=True)
    p.add_argument("--seeds", type=int, default=100)
    p.add_argument("--seed-offset", type=int, default=140, help="the first board's seed (validation: 140)")
    p.add_argument("--embedded", action="store_true", help="the game's AI on the embedded default")
    p.add_argument("--sample", action="store_true",
                   help="the guessers sample their picks, as in reports/adaptation.md (the tier's: greedy)")
    args = p.parse_args(argv)
    started = time.perf_counter()
    words = load_words(BOARD_WORDS_PATH)
    weights, _, _ = load_all(list(datasets.INITIALIZERS), args.sources, None, required=False, words=words)
    ai = human_models.game_ai(weights, datasets.EMBEDDED if args.embedded else None)
    guessers = {name: human_models.fit_guesser(name, args.sources, args.sample)
                for name in human_models.GUESSERS}
    seeds = range(args.seed_offset, args.seed_offset + args.seeds)
    print("\n".join(table(HEADER, crossed(ai, guessers, seeds, words))))
    print(f"{time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
