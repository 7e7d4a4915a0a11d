"""Where people stop short of a clue's count, and whether how they read foresees it. Measured on
the human Duet record (issue 48: "the cards the person turned over, and where they stopped").

A guesser who has turned over a card the clue meant, with cards of its count still to find, may
stop. If where they stop said how they read, the model of people would foresee it: a guesser
would stop when the cards left are weakly linked to the clue. Each chance to stop (after a right
card, before the count) is read four ways, each fitted on the record by maximum likelihood:

- a constant: people stop at this rate whatever the cards;
- an outside option: stopping is one more choice beside the cards left, at a fitted logit, as a
  pick among cards is (the model of people's held-out logits, cross-validated by game);
- a logistic on how strongly the cards left are linked (the log-sum-exp of their logits);
- a logistic on the chance the model gives the clue's next target among the cards left.

The last is the law a `Person` learns from where they stop (`Fit.stop`, fitted by
lab/evaluation/people_fit.py with lab/evaluation/stop_law.py): a stop is evidence that they read
the card meant as weaker than the model did.

    python -m lab.evaluation.stops --sources ../shared/datasets
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from scipy.optimize import minimize_scalar

from lab.evaluation.human_duet import read_turns
from lab.evaluation.people_fit import (
    SIGNALS,
    VARIANTS,
    cross_validated_logits,
    lower_bounds,
    played_with,
    readings_at_hand,
    turn_values,
)
from lab.evaluation.stop_law import chances_to_stop, logistic
from models.people import Features

VARIANT = "every dataset"


def log_likelihoods(stopped: np.ndarray, strength: np.ndarray, target: np.ndarray) -> dict[str, float]:
    """Each reading's log-likelihood of the stops, at its best fit."""
    rate = stopped.mean()
    constant = stopped.sum() * np.log(rate) + (~stopped).sum() * np.log(1 - rate)

    def outside(s: float) -> float:
        return -(np.where(stopped, s, strength) - np.logaddexp(s, strength)).sum()

    return {"a constant rate": float(constant),
            "an outside option": -minimize_scalar(outside, bounds=(-10, 10), method="bounded").fun,
            "the cards left's links": logistic(stopped, strength)[2],
            "the next target's chance": logistic(stopped, target)[2]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.evaluation.stops",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--sources", type=Path, required=True, help="the datasets folder (human_duet/ in it)")
    args = parser.parse_args(argv)

    turns = list(read_turns(args.sources))
    names = VARIANTS[VARIANT]
    features = Features(names, played_with(readings_at_hand(args.sources), names))
    values = turn_values(turns, features)
    logits, _ = cross_validated_logits(turns, values, SIGNALS, lower=lower_bounds(names))
    stopped, strength, target = chances_to_stop(turns, logits)
    print(f"{len(turns)} turns; {len(stopped)} chances to stop short of the count, "
          f"{stopped.sum()} taken ({100 * stopped.mean():.0f}%)")
    for reading, value in log_likelihoods(stopped, strength, target).items():
        print(f"  {reading}: log-likelihood {value:.2f}")
    a, b, _ = logistic(stopped, target)
    stop = {p: 100 / (1 + np.exp(-(a + b * np.log(p)))) for p in (0.9, 0.1)}
    print(f"the law: sigmoid({a:.2f} {b:+.2f} log p); with the card meant left at p = 0.9, "
          f"{stop[0.9]:.0f}% stop; at 0.1, {stop[0.1]:.0f}%")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
