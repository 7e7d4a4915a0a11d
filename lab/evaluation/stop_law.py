"""The law of where a guesser stops short of a clue's count, fitted on the human Duet record:
people stop with chance sigmoid(a + b · log p), p the model of people's chance of the clue's
likeliest target among the cards left (`Fit.stop`; measured in lab/evaluation/stops.py)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy.optimize import minimize
from scipy.special import logsumexp

from lab.evaluation.human_duet import Turn
from model import PICKS, Choice


def duet_choice(turn: Turn) -> Choice:
    """A turn of the record as the game's `Choice`: the guesser's clicks, the giver's targets, and
    whether the guesser stopped themselves (their last click right, short of the count)."""
    wrong = set(turn.tan) | set(turn.black)
    stopped = bool(turn.guesses) and turn.guesses[-1] not in wrong and len(turn.guesses) < len(turn.targets)
    return Choice(turn.clue, turn.remaining, turn.guesses, PICKS,
                  meant=tuple(t for t in turn.targets if t in turn.remaining), stopped=stopped)


def chances_to_stop(turns: Sequence[Turn], logits: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every chance a guesser had to stop short (`Choice.stop_chances`, as the game reads them):
    whether they did, the log-sum-exp of the cards left's logits, and the log-chance of the
    likeliest target left among them."""
    stopped, strength, target = [], [], []
    for turn, row in zip(turns, logits, strict=True):
        row = row[:len(turn.remaining)]
        for left, meant, took in duet_choice(turn).stop_chances():
            stopped.append(took)
            strength.append(logsumexp(row[left]))
            target.append(row[meant].max() - strength[-1])
    return np.array(stopped), np.array(strength), np.array(target)


def logistic(stopped: np.ndarray, x: np.ndarray) -> tuple[float, float, float]:
    """The logistic law of stopping on `x`, (a, b), that makes the stops likeliest, and its
    log-likelihood."""
    def loss(ab: np.ndarray) -> float:
        z = ab[0] + ab[1] * x
        return -(np.where(stopped, z, 0.0) - np.logaddexp(0.0, z)).sum()

    result = minimize(loss, [0.0, 0.0])
    return float(result.x[0]), float(result.x[1]), -float(result.fun)


def stop_law(turns: Sequence[Turn], logits: np.ndarray) -> tuple[float, float] | None:
    """(a, b): people stop short with chance sigmoid(a + b · log p), p the model's chance (held-out
    `logits`) of the clue's likeliest target left; None when the record has no stop to learn from."""
    stopped, _, target = chances_to_stop(turns, logits)
    if not stopped.any() or stopped.all():
        return None
    a, b, _ = logistic(stopped, target)
    return a, b
