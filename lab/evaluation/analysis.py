"""The single-team games analysed: per pair, cross-play and self-play groups, strategies and
matrices side by side; and the speed of every captain and agent."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from lab.evaluation.games import SoloResult
from lab.evaluation.specs import Spec
from lab.evaluation.stats import count_table, pooled, summarize


def analyse(solo: dict[tuple[Spec, Spec], list[SoloResult]], default_pair: tuple[str, str],
            sources: dict[str, frozenset[str]] | None = None) -> dict:
    """Per-pair metrics, the cross-play headline, self-play beside it, strategy and matrix groups.

    `sources` maps each initializer to the base initializers it is made of; pairs
    whose matrices share none are the strictest cross-play.
    """
    tables = {pair: count_table(games) for pair, games in solo.items()}
    sources = sources or {}
    per_pair = [{"captain": c.label, "agent": a.label, "cross": c.initializer != a.initializer,
                 **summarize(tables[c, a])} for c, a in solo]

    def group(keep: Callable[[Spec, Spec], bool]) -> dict | None:
        chosen = [tables[p] for p in tables if keep(*p)]
        return {"pairs": len(chosen), **summarize(pooled(chosen))} if chosen else None

    def cross(c: Spec, a: Spec) -> bool:
        return c.initializer != a.initializer

    def disjoint(c: Spec, a: Spec) -> bool:
        return not (sources.get(c.initializer, {c.initializer})
                    & sources.get(a.initializer, {a.initializer}))

    def default(c: Spec, a: Spec) -> bool:
        return (c.strategy, a.strategy) == default_pair and not c.params and not a.params

    styles = list(dict.fromkeys((c.style, a.style) for c, a in solo))
    matrices = list(dict.fromkeys(s.initializer for pair in solo for s in pair))
    chosen = default if any(default(*p) for p in solo) else (lambda c, a: True)
    return {
        "pairs": per_pair,
        "headline": {
            "cross_all": group(cross),
            "cross_disjoint": group(disjoint),
            "cross_default": group(lambda c, a: cross(c, a) and default(c, a)),
            "cross_disjoint_default": group(lambda c, a: disjoint(c, a) and default(c, a)),
            "self_all": group(lambda c, a: not cross(c, a)),
            "self_default": group(lambda c, a: not cross(c, a) and default(c, a)),
        },
        "styles": [{"captain": cs, "agent": as_,
                    "cross": group(lambda c, a, cs=cs, as_=as_: (c.style, a.style) == (cs, as_)
                                   and cross(c, a)),
                    "self": group(lambda c, a, cs=cs, as_=as_: (c.style, a.style) == (cs, as_)
                                  and not cross(c, a))}
                   for cs, as_ in styles],
        "matrices": {
            "strategies": "default pair" if chosen is default else "all strategies",
            "rows": [{"initializer": m,
                      "captain_cross": group(lambda c, a, m=m: chosen(c, a) and c.initializer == m
                                             and cross(c, a)),
                      "agent_cross": group(lambda c, a, m=m: chosen(c, a) and a.initializer == m
                                           and cross(c, a)),
                      "self": group(lambda c, a, m=m: chosen(c, a) and c.initializer == a.initializer == m)}
                     for m in matrices]},
    }


def latency(seconds: Sequence[float]) -> dict:
    """Median and 95th percentile in milliseconds, and how many calls were timed."""
    if not seconds:
        return {"median_ms": None, "p95_ms": None, "calls": 0}
    ms = np.asarray(seconds) * 1000
    return {"median_ms": float(np.median(ms)), "p95_ms": float(np.percentile(ms, 95)),
            "calls": len(ms)}


def speed(solo: dict[tuple[Spec, Spec], list[SoloResult]]) -> dict:
    """Hint latency per captain and guess latency per agent, over all their games."""
    hints: dict[str, list[float]] = {}
    guesses: dict[str, list[float]] = {}
    for (captain, agent), games in solo.items():
        for game in games:
            hints.setdefault(captain.label, []).extend(game.hint_seconds)
            guesses.setdefault(agent.label, []).extend(game.guess_seconds)
    return {"hint": {k: latency(v) for k, v in hints.items()},
            "guess": {k: latency(v) for k, v in guesses.items()}}
