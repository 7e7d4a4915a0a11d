"""The bench's human-model tier alone, and the foreign tier beside it: the game's captain (it plans
for a person) with guessers fitted to people's play, and with the foreign agents, on the test boards.

    python -m lab.benchmarks.people_tiers --sources ../shared/datasets [--embedded] [--seeds 20]

The full `python main.py bench` plays the same tiers (its headline) after every same-family pair;
this plays only them, in minutes. Prints both sections of the report as markdown.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import datasets
import model
from common import BOARD_WORDS_PATH, load_words
from lab.evaluation import foreign_tier, human_models
from lab.evaluation.games import TEST_OFFSET
from lab.evaluation.loading import load_all
from lab.evaluation.runner import Setup
from lab.evaluation.specs import Spec


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sources", type=Path, required=True)
    p.add_argument("--seeds", type=int, default=20)
    p.add_argument("--seed-offset", type=int, default=TEST_OFFSET)
    p.add_argument("--embedded", action="store_true",
                   help="the game's AI on the embedded default (SBERT and phrases: no dataset); the "
                        "guessers are fitted as always")
    args = p.parse_args(argv)
    started = time.perf_counter()
    words = load_words(BOARD_WORDS_PATH)
    weights, _, _ = load_all(list(datasets.INITIALIZERS), args.sources, None, required=False, words=words)
    default = foreign_tier.default_initializer(weights)
    setup = Setup(weights, [Spec(model.DEFAULT_CAPTAIN, default)], [Spec(model.DEFAULT_AGENT, default)],
                  list(range(args.seed_offset, args.seed_offset + args.seeds)), words)
    embedded = datasets.EMBEDDED if args.embedded else None
    tier = human_models.run(setup, args.sources, ai_names=embedded)
    print("\n".join(human_models.markdown(tier)))
    if not args.embedded:
        print("\n".join(foreign_tier.markdown(foreign_tier.run(setup, None, args.sources, None))))
    print(f"{time.perf_counter() - started:.0f} s; {human_models.headline(tier)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
