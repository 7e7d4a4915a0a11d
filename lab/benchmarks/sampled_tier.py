"""The game's captain with the human-model tier's guessers sampling their picks, one team alone.

    python -m lab.benchmarks.sampled_tier --sources ../shared/datasets [--seeds 60] [--seed-offset 20000]
        [--embedded]

Each guesser (lab/evaluation/human_models.py: a model of people fitted to the Duet record on
vectors the captain never reads) samples its picks from its own chances, as the adaptation sessions'
partners do, and makes `count` guesses. Prints a markdown row a guesser: games, wins, assassin
losses and hints on a win, with bootstrap intervals over boards. Run it from a checkout of an older
build (PYTHONPATH) to measure that build's captain on the same boards.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from board import deal
from common import BOARD_WORDS_PATH, load_words
from lab.evaluation import human_models
from lab.evaluation.games import play_solo
from lab.evaluation.stats import count_table, summarize
from lab.evaluation.tables import fmt


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sources", type=Path, required=True)
    p.add_argument("--seeds", type=int, default=60)
    p.add_argument("--seed-offset", type=int, default=20000)
    p.add_argument("--embedded", action="store_true", help="the AI on SBERT and WordNet alone")
    args = p.parse_args(argv)
    started, words = time.perf_counter(), load_words(BOARD_WORDS_PATH)
    if hasattr(human_models, "build_ai"):
        ai, _ = human_models.build_ai(args.sources, words, args.embedded)
    else:   # an older build's lab, where it lived beside the captain's variants
        from lab.benchmarks.captain_ablation import build_ai
        ai, _ = build_ai(args.sources, words, args.embedded)
    print("| guesser | games | wins | assassin losses | hints on a win |\n|---|---|---|---|---|")
    for name in human_models.GUESSERS:
        guesser = human_models.fit_guesser(name, args.sources, sample=True)
        games = []
        for seed in range(args.seed_offset, args.seed_offset + args.seeds):
            board, rng = deal(seed, words)
            games.append(play_solo(board, board.starting_team, ai.captain(alone=True), guesser, rng, seed))
        s = summarize(count_table(games))
        print(f"| {name} | {len(games)} | {fmt(s['win_rate'], 'rate')} | {fmt(s['assassin_rate'], 'rate')} | "
              f"{fmt(s['turns_on_wins'], 'mean')} |", flush=True)
    print(f"\n{time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
