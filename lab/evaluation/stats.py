"""The bench's statistics: counts per game, metrics as ratios with 95% bootstrap intervals, and a
share of independent trials with its Wilson interval."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from lab.evaluation.games import DuelResult, SoloResult

RESAMPLES, LEVEL, CI_SEED = 2000, 0.95, 0


@dataclass(frozen=True)
class Estimate:
    """A measured rate or mean with its 95% bootstrap interval over `n` resampled units."""

    value: float
    low: float
    high: float
    n: int

    def as_dict(self) -> dict:
        return {k: (None if isinstance(v, float) and not np.isfinite(v) else v)
                for k, v in vars(self).items()}


def bootstrap_ratio(numerator: Sequence[float], denominator: Sequence[float] | None = None,
                    resamples: int = RESAMPLES, level: float = LEVEL,
                    seed: int = CI_SEED) -> Estimate:
    """Σnumerator / Σdenominator with a percentile bootstrap interval over the units.

    A plain mean is the ratio with denominators of 1. Resampling whole units
    (games, or boards pooled over pairs) keeps what is correlated within a unit
    together. The same seed gives the same interval.
    """
    num = np.asarray(numerator, dtype=float)
    den = np.ones_like(num) if denominator is None else np.asarray(denominator, dtype=float)
    n = len(num)
    if n == 0 or den.sum() <= 0:
        return Estimate(float("nan"), float("nan"), float("nan"), n)
    value = float(num.sum() / den.sum())
    rows = np.random.default_rng(seed).integers(0, n, size=(resamples, n))
    with np.errstate(invalid="ignore", divide="ignore"):
        stats = num[rows].sum(axis=1) / den[rows].sum(axis=1)
    stats = stats[np.isfinite(stats)]
    tail = (1 - level) / 2 * 100
    low, high = np.percentile(stats, [tail, 100 - tail])
    return Estimate(value, float(low), float(high), n)


# name, numerator, denominator, kind, what the report calls it
METRICS = (
    ("win_rate", "won", "one", "rate", "win rate"),
    ("assassin_rate", "assassin", "one", "rate", "assassin losses"),
    ("mean_score", "score", "one", "mean", "mean score"),
    ("turns_on_wins", "win_hints", "won", "mean", "hints on wins"),
    ("cards_per_hint", "own_revealed", "hints", "mean", "own cards per hint"),
    ("precision", "own_guesses", "guesses", "rate", "guess precision"),
    ("count_asked", "asked", "hints", "mean", "count asked"),
    ("count_achieved", "delivered", "hints", "mean", "count achieved"),
    ("hints_fulfilled", "fulfilled", "hints", "rate", "hints fulfilled"),
)
TOTALS = ("illegal", "failures")
COUNT_KEYS = ("one", "won", "assassin", "score", "hints", "win_hints", "own_revealed", "guesses",
              "own_guesses", "asked", "delivered", "fulfilled", "illegal", "failures")


def count_table(games: Iterable[SoloResult]) -> np.ndarray:
    """Games × COUNT_KEYS: one row of numerators and denominators per game."""
    rows = [[g.counts()[k] for k in COUNT_KEYS] for g in games]
    return np.array(rows, dtype=float).reshape(-1, len(COUNT_KEYS))


def summarize(table: np.ndarray) -> dict:
    """Every metric of a count table (one row per unit) with intervals, and the totals."""
    column = {k: table[:, i] for i, k in enumerate(COUNT_KEYS)}
    summary: dict = {name: bootstrap_ratio(column[num], column[den])
                     for name, num, den, _, _ in METRICS}
    summary.update({k: int(column[k].sum()) for k in TOTALS})
    summary["games"] = int(column["one"].sum())
    return summary


def pooled(tables: Sequence[np.ndarray]) -> np.ndarray:
    """Several pairs' tables (rows aligned by seed) summed into one row per seed.

    Bootstrapping these rows resamples boards, so an aggregate's interval
    reflects that all pairs played the same boards.
    """
    return np.sum(tables, axis=0)


def summarize_duels(duels: Sequence[DuelResult]) -> dict:
    """Win rates of a tested team, overall and by seat, with intervals over boards."""
    seeds = sorted({d.seed for d in duels})
    by_seed = {s: [d for d in duels if d.seed == s] for s in seeds}

    def rate(keep: Callable[[DuelResult], bool], value: Callable[[DuelResult], bool]) -> Estimate:
        num = [sum(value(d) for d in by_seed[s] if keep(d)) for s in seeds]
        den = [sum(keep(d) for d in by_seed[s]) for s in seeds]
        return bootstrap_ratio(num, den)

    return {
        "win_rate": rate(lambda d: True, lambda d: d.won),
        "win_rate_first": rate(lambda d: d.starting, lambda d: d.won),
        "win_rate_second": rate(lambda d: not d.starting, lambda d: d.won),
        "assassin_rate": rate(lambda d: True, lambda d: d.assassin),
        "reference_assassin_rate": rate(lambda d: True, lambda d: d.reference_assassin),
        "games": len(duels),
        "errors": sum(d.error is not None for d in duels),
    }


def wilson(successes: int, trials: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a share, `successes` of `trials` independent ones."""
    from scipy.stats import binomtest

    interval = binomtest(successes, trials).proportion_ci(confidence_level=LEVEL, method="wilson")
    return interval.low, interval.high
