"""How long the AI takes to learn a player: `Person.observe` after 100 choices, and a profile's
choices learnt at once, with the model of people on every dataset.

    python -m lab.benchmarks.learning_speed --sources ../shared/datasets

The choices are made up: on dealt boards, a clue of the vocabulary and the two cards the model
of people likes best. Each figure is the median of `--runs`; the fits run on one BLAS thread
(models/likelihood.py), 2-4 times faster on two cores than spread over both (decision 0042).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from board import deal
from common import BOARD_WORDS_PATH, load_words
from lab.evaluation.people_fit import readings_at_hand
from models.people import PeopleModel
from models.person import Bayes, Choice, Person


def made_up_choices(model: PeopleModel, hints: list[str], count: int) -> list[Choice]:
    words, rng = load_words(BOARD_WORDS_PATH), np.random.default_rng(0)
    out = []
    for k in range(count):
        board, _ = deal(k, words)
        face_down = tuple(w.lower() for w in board.words)[: rng.integers(8, 26)]
        clue = hints[k % len(hints)]
        order = np.argsort(-model.logits([clue], list(face_down))[0])
        out.append(Choice(clue, face_down, tuple(face_down[i] for i in order[:2])))
    return out


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sources", type=Path, required=True)
    p.add_argument("--runs", type=int, default=3)
    args = p.parse_args(argv)
    model = PeopleModel.of(readings_at_hand(args.sources))
    choices = made_up_choices(model, list(model.features.readings["sbert"].hints[:3000:7]), 130)
    Person(model, Bayes(), choices[:5])   # the optimiser's imports, paid once
    timings: dict[str, list[float]] = {"a choice learnt (after 100)": [],
                                       "a profile of 100 choices at once": []}
    for _ in range(args.runs):
        person = Person(model, Bayes(), choices[:100])
        started = time.perf_counter()
        for choice in choices[100:130]:
            person.observe(choice)
        timings["a choice learnt (after 100)"].append((time.perf_counter() - started) / 30)
        started = time.perf_counter()
        Person(model, Bayes(), choices[:100])
        timings["a profile of 100 choices at once"].append(time.perf_counter() - started)
    for name, seconds in timings.items():
        print(f"{name}: {1000 * statistics.median(seconds):.0f} ms (median of {args.runs})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
