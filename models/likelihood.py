"""The likelihood of people's choices under a conditional logit, and its maximum.

A choice is a card picked among cards (a softmax over them): a click among the cards still
face down, or a card a clue was meant for among those it was not. A guesser who may stop short of
the clue's count, a card it meant still face down, stops or goes on (`Stops`): people stop more
often where the model gives that card a lower chance (lab/evaluation/stops.py), so a stop is
evidence that they read its link as weaker. The model of people is
fitted to a record of such choices (lab/evaluation/people_fit.py); a partner's model is
updated on this person's (models/partner.py), the fitted coefficients its prior.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

FREQUENCY = "zipf"   # the one feature that does not measure a link between a clue and a card


@dataclass(frozen=True)
class Stops:
    """Chances to stop short of a clue's count, on boards of `Choices`: with the cards `left`
    face down, the guesser `stopped` or went on; `meant` is the card the clue meant that the
    model gives the best chance among them. They stop with chance sigmoid(a + b · log p), p that
    card's chance: `law` = (a, b), fitted on people."""

    board: np.ndarray       # (chances,)
    left: np.ndarray        # (chances, cards) bool
    meant: np.ndarray       # (chances, cards) bool: the cards meant among those left
    stopped: np.ndarray     # (chances,) bool
    law: tuple[float, float]

    def subset(self, chances: np.ndarray) -> Stops:
        return Stops(self.board[chances], self.left[chances], self.meant[chances],
                     self.stopped[chances], self.law)


@dataclass(frozen=True)
class Choices:
    """Choice events over padded boards: every event picks `chosen` among its `left` cards
    of board `board`, whose features are `values[board]` (boards × cards × features); and
    the chances to stop on those boards (`stops`, none when None)."""

    values: np.ndarray      # (boards, cards, features)
    board: np.ndarray       # (events,) the board of each event
    left: np.ndarray        # (events, cards) bool: the cards it chose among
    chosen: np.ndarray      # (events,) the card chosen
    weight: np.ndarray      # (events,) the event's weight in the likelihood
    stops: Stops | None = None

    def subset(self, events: np.ndarray) -> Choices:
        """These events, and the chances to stop on their boards."""
        stops = self.stops
        if stops is not None:
            stops = stops.subset(np.flatnonzero(np.isin(stops.board, self.board[events])))
        return Choices(self.values, self.board[events], self.left[events], self.chosen[events],
                       self.weight[events], stops)

    def scaled(self, scale: np.ndarray) -> Choices:
        """The same choices with every feature divided by its `scale`."""
        return replace(self, values=self.values / scale)


def negative_log_likelihood(beta: np.ndarray, data: Choices, l2: float,
                            prior: np.ndarray | None = None) -> tuple[float, np.ndarray]:
    """The penalised negative log-likelihood of the events and its gradient: the penalty pulls
    the coefficients towards `prior` (zero when None)."""
    x = data.values[data.board]                                   # (E, C, F)
    logits = np.where(data.left, x @ beta, -np.inf)
    logits -= logits.max(axis=1, keepdims=True)
    chances = np.exp(logits)
    chances /= chances.sum(axis=1, keepdims=True)
    picked = np.arange(len(data.chosen)), data.chosen
    nll = -(data.weight * np.log(np.maximum(chances[picked], 1e-300))).sum()
    expected = np.einsum("ec,ecf->ef", chances, x)
    gradient = -(data.weight[:, None] * (x[picked] - expected)).sum(axis=0)
    if data.stops is not None and len(data.stops.board):
        stop_nll, stop_gradient = stops_negative_log_likelihood(beta, data.values, data.stops)
        nll, gradient = nll + stop_nll, gradient + stop_gradient
    pull = beta if prior is None else beta - prior
    return nll + 0.5 * l2 * pull @ pull, gradient + l2 * pull


def stops_negative_log_likelihood(beta: np.ndarray, values: np.ndarray, stops: Stops
                                  ) -> tuple[float, np.ndarray]:
    """The negative log-likelihood of where a guesser stopped and went on (`Stops`), and its gradient."""
    z, chances, meant, x = stop_logits(beta, values, stops)
    nll = -(np.where(stops.stopped, z, 0.0) - np.logaddexp(0.0, z)).sum()
    # d nll / dz = sigmoid(z) - stopped; d log p / d beta = x_meant - E[x]
    dz = 1.0 / (1.0 + np.exp(-z)) - stops.stopped
    dlog = x[np.arange(len(meant)), meant] - np.einsum("sc,scf->sf", chances, x)
    return float(nll), (dz * stops.law[1]) @ dlog


def stop_chances(beta: np.ndarray, values: np.ndarray, stops: Stops) -> np.ndarray:
    """Each chance to stop's chance that the guesser takes it, by the law and `beta`."""
    return 1.0 / (1.0 + np.exp(-stop_logits(beta, values, stops)[0]))


def stop_logits(beta: np.ndarray, values: np.ndarray, stops: Stops
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each chance to stop's logit by the law, the chances of the cards left, the card meant
    whose chance it reads, and the cards' features: (S,), (S, C), (S,), (S, C, F)."""
    x = values[stops.board]
    logits = np.where(stops.left, x @ beta, -np.inf)
    chances = np.exp(logits - logits.max(axis=1, keepdims=True))
    chances /= chances.sum(axis=1, keepdims=True)
    meant = np.where(stops.meant, logits, -np.inf).argmax(axis=1)
    log_chance = np.log(np.maximum(chances[np.arange(len(meant)), meant], 1e-300))
    return stops.law[0] + stops.law[1] * log_chance, chances, meant, x


def fit(data: Choices, l2: float, lower: np.ndarray | None = None,
        prior: np.ndarray | None = None, start: np.ndarray | None = None) -> np.ndarray:
    """The coefficients (per unit of the features given) that maximise the penalised likelihood,
    each at least its `lower` bound (-inf: free), pulled towards `prior` (zero when None); the
    search starts from `start` (default the prior)."""
    from scipy.optimize import minimize  # 0.8 s to import: only a fit pays it, never a start
    from threadpoolctl import threadpool_limits

    if start is None:
        start = np.zeros(data.values.shape[2]) if prior is None else prior
    start = np.asarray(start, dtype=float)
    if lower is not None:
        start = np.maximum(start, np.where(np.isfinite(lower), lower, start))
    bounds = None if lower is None else [(b if np.isfinite(b) else None, None) for b in lower]
    with threadpool_limits(limits=1):   # products this small lose more to threads than they gain
        result = minimize(negative_log_likelihood, start, args=(data, l2, prior), jac=True,
                          method="L-BFGS-B", bounds=bounds)
    return result.x


def monotone_bounds(names: Sequence[str], floors: dict[str, float] | None = None) -> np.ndarray:
    """Each feature's least coefficient (per unit): zero, or its `floors` entry, for every feature
    that measures a link between a clue and a card, so that a stronger link never makes a card
    less likely (a monotone model); none for the card's own frequency."""
    floors = floors or {}
    return np.array([-np.inf if name == FREQUENCY else floors.get(name, 0.0) for name in names])


def scales(values: np.ndarray) -> np.ndarray:
    """Each feature's spread over the cards (1 for a constant one), to standardise it."""
    flat = values.reshape(-1, values.shape[-1])
    spread = flat.std(axis=0)
    return np.where(spread > 0, spread, 1.0)
