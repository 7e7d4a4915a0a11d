"""`python main.py bench`: measured play strength and speed of the AI.

Every captain (strategy × initializer) plays with every agent (strategy ×
initializer) on the same boards, one board per seed:

- single-team mode, as in the Codenames AI Competition: one team alone on a
  board of 9 own, 8 opponent, 7 neutral cards and the assassin; the score is
  the number of hints it needs to turn over all its cards, 25 on a loss (the
  assassin, or every opponent card turned over); N+1 guessing;
- two-team mode: teams play a reference team, sides swapped on every board.

The headline is the foreign tier (foreign/tier.py): the game's captains with
agents built from data its AI never reads. Same-family cross-play follows: pairs
whose captain and agent read different matrices. Self-play flatters every bot
and is shown beside it, never as a headline. Rates and means carry 95% bootstrap intervals (fixed rng).
Nothing here changes the rules: games run on `board.Board` and the models of
model.py; two-team games on `players.Game`.
"""

from __future__ import annotations

import argparse
import ast
import functools
import inspect
import json
import os
import platform
import shlex
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from board import Board, Color, Outcome, deal
from common import BOARD_WORDS_PATH, DEFAULT_SBERT_MODEL, ROOT, SOURCES_DIR, load_words, progress, warn
from foreign import tier as foreign_tier
from model import NoLegalHint, hint_problem

LOSS_SCORE = 25        # the competition's score for a lost game
MAX_HINTS = 25         # a game still running after this many hints is lost
TEST_OFFSET = 10_000   # seeds from here on are the test range; tuning uses seeds below
DEFAULT_SEEDS, QUICK_SEEDS = 20, 5
FULL_TABLE_PAIRS = 60   # above this many pairs, the per-pair table drops its intervals
RESAMPLES, LEVEL, CI_SEED = 2000, 0.95, 0
REPORTS_DIR = ROOT / "reports"
# A smoke run must never overwrite the committed report: it writes here (git-ignored) unless --out says.
QUICK_REPORTS_DIR = REPORTS_DIR / "quick"


# --- what plays: a strategy on an initializer --------------------------------------------


@dataclass(frozen=True)
class Spec:
    """A captain or agent configuration: a registered strategy, its parameters, a matrix."""

    strategy: str
    initializer: str
    params: tuple[tuple[str, object], ...] = ()

    @property
    def style(self) -> str:
        """The strategy with its parameters, e.g. `cumsum` or `cumsum(gap=3)`."""
        if not self.params:
            return self.strategy
        return f"{self.strategy}({','.join(f'{k}={v}' for k, v in self.params)})"

    @property
    def label(self) -> str:
        return f"{self.style}/{self.initializer}"


def parse_strategy(text: str) -> tuple[str, tuple[tuple[str, object], ...]]:
    """`"cumsum"` or `"cumsum:gap=3,floor=0.1"` → (name, params); values are Python literals."""
    name, _, rest = text.partition(":")
    params = []
    for item in filter(None, rest.split(",")):
        key, eq, value = item.partition("=")
        if not eq or not key.strip().isidentifier():
            raise ValueError(f"bad parameter {item!r} in {text!r}: write name=value")
        params.append((key.strip(), parse_value(value.strip())))
    return name.strip(), tuple(params)


def parse_value(text: str) -> object:
    """A parameter value: a number, True/False/None, or else the text itself."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def build(registry: dict, spec: Spec, weights: dict, partners: Sequence | None = None,
          alone: bool = False) -> object:
    """A fresh captain or agent model for one game (models may keep state within a game).

    `partners` go to strategies that check their hints against other matrices
    (a `partners` parameter), and `alone` to those that play differently
    without an opponent (an `alone` parameter), unless the spec sets them itself.
    """
    cls = registry[spec.strategy]
    kwargs = dict(spec.params)
    if partners is not None and accepts(cls, "partners"):
        kwargs.setdefault("partners", list(partners))
    if alone and accepts(cls, "alone"):
        kwargs.setdefault("alone", True)
    return cls(weights[spec.initializer], **kwargs)


@functools.cache
def accepts(function: Callable, parameter: str) -> bool:
    """Whether a callable (or a class's constructor) takes a parameter of this name."""
    try:
        return parameter in inspect.signature(function).parameters
    except (TypeError, ValueError):
        return False


PARTNER_POLICIES = ("held-out", "disjoint", "all", "own")
PARTNER_TEXT = {
    "held-out": "in cross-play, its own and every other loaded matrix except those its agent reads "
                "(the agent's, and those it backs off to: fastText, SBERT), none of them backing "
                "off to one of those, so cross-play measures a partner the captain has never "
                "seen; in self-play none, for its agent is its twin, whose reading it knows (as in "
                "the game's AI teams).",
    "disjoint": "as held-out, and no combination made from a matrix its agent reads either "
                "(with SBERT in the recipe, every agent reads it as its backoff, so no combination "
                "is a partner): cross-play against a partner whose sources the captain never reads.",
    "all": "every loaded matrix, the agent's included (as in a game where all are available); "
           "this flatters cross-play.",
    "own": "its own matrix only.",
}


def partners_for(captain: Spec, agent: Spec, weights: dict, policy: str) -> list:
    """The matrices a captain may check its hints against, the captain's own first.

    held-out: in cross-play, every loaded matrix but those the agent reads
    (its own and its chain of backoffs), and none, the captain's own included,
    backing off to one of them, so that cross-play measures an unknown partner; in
    self-play none, for the agent is the captain's twin, as in a game's AI team;
    disjoint: as held-out, and no matrix made from one that the agent reads
    either (a combination that holds it); all: every loaded matrix; own: the
    captain's matrix only.
    """
    own = weights[captain.initializer]
    if policy == "own":
        return [own]
    others = [w for name, w in weights.items() if name != captain.initializer]
    if policy == "all":
        return [own, *others]
    if captain.initializer == agent.initializer:
        return []
    read = weights[agent.initializer].reads()
    sources = frozenset().union(*map(leaves, read))

    def known(name: str) -> bool:
        """Whether the agent reads this matrix (disjoint: anything it is made from)."""
        return bool(leaves(name) & sources) if policy == "disjoint" else name in read

    def alone(w):
        # A backoff is read through its own backoff too: it goes if any of them is known.
        return w if w.backoff is None or not any(map(known, w.backoff.reads())) else w.without_backoff()

    return [alone(own), *(alone(w) for w in others if not known(w.name))]


def guess(agent, board: Board, hint, guessed: int, rng: np.random.Generator, team: Color):
    """The agent's next guess, telling it its team when it can use it (for its memory)."""
    if accepts(type(agent).guess, "team"):
        return agent.guess(board, hint, guessed, rng, team=team)
    return agent.guess(board, hint, guessed, rng)


# --- single-team games -----------------------------------------------------------------


@dataclass
class HintRecord:
    """One hint of a single-team game and what its guesses turned over."""

    word: str
    count: int | None
    illegal: str | None = None
    outcomes: list[Outcome] = field(default_factory=list)

    @property
    def achieved(self) -> int:
        return sum(o is Outcome.OWN for o in self.outcomes)

    @property
    def delivered(self) -> int:
        """Own cards found, up to the count asked (0 or unlimited: all found)."""
        return min(self.achieved, self.count) if self.count else self.achieved

    @property
    def fulfilled(self) -> bool:
        """All the cards asked for were found (for 0 or unlimited: at least one)."""
        return self.achieved >= max(self.count or 0, 1)


@dataclass
class SoloResult:
    """One single-team game: its hints, its end, its timings."""

    seed: int
    hints: list[HintRecord] = field(default_factory=list)
    won: bool = False
    failure: str | None = None   # a model that could not go on (no legal hint, bad guess)
    hint_seconds: list[float] = field(default_factory=list)
    guess_seconds: list[float] = field(default_factory=list)

    @property
    def assassin(self) -> bool:
        return any(o is Outcome.ASSASSIN for h in self.hints for o in h.outcomes)

    @property
    def score(self) -> int:
        return len(self.hints) if self.won else LOSS_SCORE

    def counts(self) -> dict[str, float]:
        """The numerators and denominators of every metric for this game."""
        outcomes = [o for h in self.hints for o in h.outcomes]
        own = sum(o is Outcome.OWN for o in outcomes)
        return {
            "one": 1, "won": int(self.won), "assassin": int(self.assassin), "score": self.score,
            "hints": len(self.hints), "win_hints": len(self.hints) if self.won else 0,
            "own_revealed": own, "guesses": len(outcomes), "own_guesses": own,
            "asked": sum(h.count or 0 for h in self.hints),
            "delivered": sum(h.delivered for h in self.hints),
            "fulfilled": sum(h.fulfilled for h in self.hints),
            "illegal": sum(h.illegal is not None for h in self.hints),
            "failures": int(self.failure is not None),
        }


def play_solo(board: Board, team: Color, captain, agent, rng: np.random.Generator,
              seed: int = 0) -> SoloResult:
    """One team alone against the board until it wins or loses, with N+1 guessing.

    Every hint is checked with `model.hint_problem`; an illegal hint is
    counted (the benchmark requires none) and played as given.
    """
    result, given = SoloResult(seed), []
    while len(result.hints) < MAX_HINTS and not _solo_over(board, team, result):
        start = time.perf_counter()
        try:
            choice = captain.give_hint(board, team, list(given))
        except NoLegalHint as error:
            result.failure = f"no legal hint: {error}"
            break
        result.hint_seconds.append(time.perf_counter() - start)
        hint = choice.hint
        given.append(hint.word)
        face_down, guesses = board.unrevealed_words(), []
        record = HintRecord(hint.word, hint.count, hint_problem(hint.word, board))
        result.hints.append(record)
        while hint.max_guesses is None or len(guesses) < hint.max_guesses:
            start = time.perf_counter()
            word = guess(agent, board, hint, len(guesses), rng, team)
            result.guess_seconds.append(time.perf_counter() - start)
            if word is None:
                break
            if word not in board or board.card(word).revealed:
                result.failure = f"the agent chose {word!r}, not a face-down card"
                break
            outcome = board.reveal(word, team)
            record.outcomes.append(outcome)
            guesses.append(word)
            if outcome is not Outcome.OWN or _solo_over(board, team, result):
                break
        if result.failure:
            break
        captain.observe(hint.word, face_down, guesses)
    result.won = board.remaining(team) == 0 and not result.assassin
    return result


def _solo_over(board: Board, team: Color, result: SoloResult) -> bool:
    """The assassin, all own cards, or all opponent cards turned over."""
    return result.assassin or board.remaining(team) == 0 or board.remaining(team.other) == 0


# --- statistics ----------------------------------------------------------------------------


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


# --- two-team games --------------------------------------------------------------------


@dataclass(frozen=True)
class DuelResult:
    """One two-team game between a tested team and the reference team."""

    seed: int
    color: Color        # the tested team's colour
    won: bool
    starting: bool      # the tested team moved first (it had 9 cards)
    assassin: bool      # the tested team turned over the assassin
    error: str | None = None


def play_duel(seed: int, words: Sequence[str], tested: tuple, reference: tuple,
              color: Color) -> DuelResult:
    """A two-team game on `players.Game`; `tested`/`reference` are (captain, agent) models."""
    from players import AIAgent, AICaptain, Game, RuleError, Team

    board, rng = deal(seed, words)
    other = color.other
    teams = {color: Team(color, AICaptain(tested[0]), AIAgent(tested[1]), "tested"),
             other: Team(other, AICaptain(reference[0]), AIAgent(reference[1]), "reference")}
    game = Game(board, teams, rng=rng, seed=seed)
    try:
        winner = game.play()
        error = None
    except RuleError as problem:  # the side to play broke a rule: it loses
        winner, error = game.team.other, f"{game.team.value}: {problem}"
    assassin = any(o is Outcome.ASSASSIN for t in game.history if t.team is color
                   for _, o in t.guesses)
    return DuelResult(seed, color, winner is color, board.starting_team is color, assassin, error)


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
        "games": len(duels),
        "errors": sum(d.error is not None for d in duels),
    }


# --- speed -----------------------------------------------------------------------------------


def latency(seconds: Sequence[float]) -> dict:
    """Median and 95th percentile in milliseconds, and how many calls were timed."""
    if not seconds:
        return {"median_ms": None, "p95_ms": None, "calls": 0}
    ms = np.asarray(seconds) * 1000
    return {"median_ms": float(np.median(ms)), "p95_ms": float(np.percentile(ms, 95)),
            "calls": len(ms)}


# --- the whole benchmark ---------------------------------------------------------------------


@dataclass
class Setup:
    """Everything a benchmark run needs, already loaded."""

    weights: dict                    # initializer name → model.Weights
    captains: list[Spec]
    agents: list[Spec]
    seeds: list[int]
    words: Sequence[str]
    captain_registry: dict
    agent_registry: dict
    reference: tuple[Spec, Spec] | None = None   # the two-team opponent; None: no two-team games
    partners: str = "held-out"                   # see partners_for


def pairs_of(setup: Setup) -> list[tuple[Spec, Spec]]:
    return [(c, a) for c in setup.captains for a in setup.agents]


def solo_games(setup: Setup, pair: tuple[Spec, Spec], tick: Callable[[], None] = lambda: None
               ) -> list[SoloResult]:
    """One captain with one agent on every seed's board, alone."""
    captain_spec, agent_spec = pair
    partners = partners_for(captain_spec, agent_spec, setup.weights, setup.partners)
    games = []
    for seed in setup.seeds:
        board, rng = deal(seed, setup.words)
        captain = build(setup.captain_registry, captain_spec, setup.weights, partners, alone=True)
        agent = build(setup.agent_registry, agent_spec, setup.weights)
        games.append(play_solo(board, board.starting_team, captain, agent, rng, seed))
        tick()
    return games


def run_solo(setup: Setup, progress=None, jobs: int = 1) -> dict[tuple[Spec, Spec], list[SoloResult]]:
    """Every captain with every agent on every seed's board, alone."""
    return run_all(setup, solo_games, pairs_of(setup), progress, jobs)


def run_all(setup: Setup, play: Callable, items: list, progress, jobs: int) -> dict:
    """`play(setup, item)` for every item, in worker processes when jobs > 1; results in order.

    Every game is seeded, so the results do not depend on the number of jobs.
    """
    tick = progress.update if progress is not None else (lambda: None)
    if jobs <= 1 or len(items) <= 1:
        return {item: play(setup, item, tick) for item in items}
    import multiprocessing

    global _WORK
    _WORK = (setup, play)   # inherited by the forked workers: the weights are not copied
    try:
        with multiprocessing.get_context("fork").Pool(min(jobs, len(items))) as pool:
            results = {}
            for item, result in pool.imap(_work, items):
                results[item] = result
                if progress is not None:
                    progress.update(len(result))
            return results
    finally:
        _WORK = None


_WORK: tuple | None = None


def _work(item):
    setup, play = _WORK
    return item, play(setup, item)


def teams_of(setup: Setup) -> list[tuple[Spec, Spec]]:
    """The teams of two-team mode: each captain and agent style on each shared matrix."""
    captain_styles = list(dict.fromkeys((c.strategy, c.params) for c in setup.captains))
    agent_styles = list(dict.fromkeys((a.strategy, a.params) for a in setup.agents))
    initializers = list(dict.fromkeys(c.initializer for c in setup.captains))
    return [(Spec(cs, i, cp), Spec(as_, i, ap)) for i in initializers
            for cs, cp in captain_styles for as_, ap in agent_styles
            if any(a.initializer == i for a in setup.agents)]


def players_of(setup: Setup, captain: Spec, agent: Spec) -> tuple:
    """Fresh (captain, agent) models of a team for one game."""
    partners = partners_for(captain, agent, setup.weights, setup.partners)
    return (build(setup.captain_registry, captain, setup.weights, partners),
            build(setup.agent_registry, agent, setup.weights))


def duel_games(setup: Setup, team: tuple[Spec, Spec], tick: Callable[[], None] = lambda: None
               ) -> list[DuelResult]:
    """A team against the reference team on every board, once on each side."""
    duels = []
    for seed in setup.seeds:
        for color in (Color.RED, Color.BLUE):
            tested = players_of(setup, *team)
            reference = players_of(setup, *setup.reference)
            duels.append(play_duel(seed, setup.words, tested, reference, color))
            tick()
    return duels


def run_duels(setup: Setup, progress=None, jobs: int = 1) -> dict[tuple[Spec, Spec], list[DuelResult]]:
    """Each team against the reference team on every board, once on each side."""
    if setup.reference is None:
        return {}
    return run_all(setup, duel_games, teams_of(setup), progress, jobs)


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


def base_sources(weights: dict) -> dict[str, frozenset[str]]:
    """Each initializer's base initializers, through datasets.parts_of, and those of the
    matrix it backs off to."""
    return {name: frozenset().union(*map(leaves, w.reads())) for name, w in weights.items()}


def leaves(name: str) -> frozenset[str]:
    """The base initializers a matrix is made from (itself, if it is one)."""
    import datasets

    parts = datasets.parts_of(name)
    return frozenset().union(*map(leaves, parts)) if parts else frozenset({name})


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


# --- loading --------------------------------------------------------------------------------


class BenchError(Exception):
    """A benchmark that cannot run as asked; the message says why."""


def load_initializer(name: str, sources: Path, sbert_model: str | None,
                     cache_dir: Path | None = None) -> tuple[object, dict]:
    """An initializer's weights and how long loading took: first (may build), then from cache."""
    import datasets

    options = {"cache_dir": cache_dir} if cache_dir is not None else {}
    timings = {}
    for attempt in ("first_load_s", "cache_load_s"):
        start = time.perf_counter()
        weights = datasets.load_weights(name, sources=sources, sbert_model=sbert_model, **options)
        timings[attempt] = time.perf_counter() - start
    return weights, timings


def load_all(names: Sequence[str], sources: Path, sbert_model: str | None, required: bool,
             words: Sequence[str], cache_dir: Path | None = None) -> tuple[dict, dict, dict]:
    """Weights, load times and the reason for each initializer that could not be loaded."""
    weights, timings, missing = {}, {}, {}
    for name in names:
        try:
            weights[name], timings[name] = load_initializer(name, sources, sbert_model, cache_dir)
        except Exception as error:  # an initializer's own error says what source it lacks
            if required:
                raise BenchError(f"cannot load initializer {name!r}: {error}") from None
            missing[name] = f"{type(error).__name__}: {error}"
            warn(f"bench: skipping initializer {name}: {error}")
            continue
        weights[name].add_words(list(words))
    return weights, timings, missing


# --- output -------------------------------------------------------------------------------


def fmt(estimate: Estimate | None, kind: str) -> str:
    """`93.0% [88.0–97.0]` for rates, `6.12 [5.80–6.45]` for means, `—` when undefined."""
    if estimate is None or not np.isfinite(estimate.value):
        return "—"
    if kind == "rate":
        return f"{estimate.value:.1%} [{estimate.low * 100:.1f}–{estimate.high * 100:.1f}]"
    return f"{estimate.value:.2f} [{estimate.low:.2f}–{estimate.high:.2f}]"


def value(estimate: Estimate, kind: str) -> str:
    """A measured value without its interval."""
    if not np.isfinite(estimate.value):
        return "—"
    return f"{estimate.value:.1%}" if kind == "rate" else f"{estimate.value:.2f}"


def cell(group: dict | None, metric: str) -> str:
    """One metric of a group of pairs, formatted; `—` when the group is empty."""
    kinds = {name: kind for name, _, _, kind, _ in METRICS}
    return fmt(group[metric] if group else None, kinds[metric])


def ms(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


def table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return lines + ["| " + " | ".join(str(x) for x in row) + " |" for row in rows]


def seed_ranges(seeds: Sequence[int]) -> str:
    """Describe a seed list and say whether it lies in the test or the tuning range."""
    span = f"{min(seeds)}–{max(seeds)}" if seeds else "none"
    if seeds and min(seeds) >= TEST_OFFSET:
        return (f"seeds {span} ({len(seeds)} boards), the **test range** (≥ {TEST_OFFSET}); "
                f"parameters are tuned only on the tuning range, seeds 0–{TEST_OFFSET - 1} "
                "(benchmarks/tune.py), so these boards are held out.")
    return (f"seeds {span} ({len(seeds)} boards) — **in the tuning range** (< {TEST_OFFSET}): "
            "these are not held-out numbers.")


def markdown(report: dict) -> str:
    """The human-readable report."""
    m = report
    metric_kinds = {name: kind for name, _, _, kind, _ in METRICS}
    lines = [
        "# Benchmark: play strength and speed", "",
        f"Command: `{m['command']}`", "",
        f"Run on {m['machine']['when']} on this machine ({m['machine']['cpus']} CPUs, "
        f"{m['machine']['platform']}, Python {m['machine']['python']}), commit "
        f"`{m['machine']['commit']}`; wall time **{m['runtime_s']:.0f} s** with {m.get('jobs', 1)} "
        f"worker process{'es' if m.get('jobs', 1) > 1 else ''}.", "",
        f"Boards: {seed_ranges(m['seeds'])}", "",
        "Initializers: " + (", ".join(f"{k} (first load {v['first_load_s']:.2f} s, from cache "
                                      f"{v['cache_load_s']:.2f} s)"
                                      for k, v in m["load_times"].items()) or "none") + ".",
    ]
    if m["missing"]:
        lines += ["", "Not available in this run: " + "; ".join(
            f"{k} ({v})" for k, v in m["missing"].items()) + "."]
    lines += ["", f"Captains: {', '.join(m['captains'])}.", "",
              f"Agents: {', '.join(m['agents'])}.", "",
              f"Partner matrices of captains that check hints against several (`--partners "
              f"{m['partners']}`): {PARTNER_TEXT[m['partners']]}", ""]
    lines += foreign_tier.markdown(m.get("foreign"))
    h = m["single_team"]["headline"]
    lines += ["## Same-family cross-play, single team", "",
              "One team alone (9 own, 8 opponent, 7 neutral, 1 assassin), N+1 guessing; score = "
              f"hints to find all own cards, {LOSS_SCORE} on a loss. **Cross-play** pairs a captain "
              "and an agent that read different matrices; self-play (same matrix) is shown beside "
              "it and flatters every bot. 95% bootstrap intervals over boards in brackets.", ""]
    header = ["pairs", "n pairs", "games", "win rate", "assassin losses", "mean score",
              "hints on wins", "illegal hints"]
    pair = "+".join(m["default_pair"])
    names = {"cross_all": "**cross-play, all pairs**",
             "cross_disjoint": "cross-play, matrices sharing no source",
             "cross_default": f"**cross-play, default pair ({pair})**",
             "cross_disjoint_default": f"cross-play sharing no source, default pair ({pair})",
             "self_all": "self-play, all pairs",
             "self_default": f"self-play, default pair ({pair})"}
    rows = [[names[k], g["pairs"], g["games"], fmt(g["win_rate"], "rate"),
             fmt(g["assassin_rate"], "rate"), fmt(g["mean_score"], "mean"),
             fmt(g["turns_on_wins"], "mean"), g["illegal"]]
            for k, g in h.items() if g is not None]
    lines += table(header, rows) if rows else ["No pairs were played."]
    if h["cross_all"] is None:
        lines += ["", "No cross-play pairs in this run (one initializer only): the numbers above are "
                  "self-play and flatter the AI."]
    shared = ("Combined matrices are made of base ones, and every matrix but SBERT's backs off to "
              "SBERT (counts and norms through fastText), so some cross-play pairs share a source "
              "(e.g. combined and association)")
    lines += ["", f"{shared}; the rows 'sharing no source' leave those out." if h["cross_disjoint"]
              else f"{shared}: here every cross-play pair shares one, so there is no row of pairs "
                   "sharing no source."]
    lines += ["", *targets(h), ""]
    mats = m["single_team"]["matrices"]
    lines += ["## Matrices side by side (single team)", "",
              f"Each initializer's matrix in cross-play, as the captain's and as the agent's "
              f"({mats['strategies']}), and in self-play.", ""]
    rows = [[r["initializer"]] + [cell(r[g], metric) for g in ("captain_cross", "agent_cross", "self")
                                  for metric in ("win_rate", "mean_score")] for r in mats["rows"]]
    lines += table(["matrix", "as captain: win", "score", "as agent: win", "score", "self: win",
                    "score"], rows)
    lines += ["", "## Strategies side by side (single team)", "",
              "Each captain style with each agent style, pooled over initializers.", ""]
    rows = []
    for s in m["single_team"]["styles"]:
        cross, same = s["cross"], s["self"]
        rows.append([s["captain"], s["agent"], cell(cross, "win_rate"), cell(cross, "assassin_rate"),
                     cell(cross, "mean_score"), cell(cross, "precision"), cell(same, "win_rate"),
                     cell(same, "mean_score")])
    lines += table(["captain", "agent", "cross win", "cross assassin", "cross score",
                    "cross precision", "self win", "self score"], rows)
    lines += ["", "## Pairing matrix", "", f"![pairing matrix]({m['plot']})", "",
              "Rows are captains, columns agents; the boxed cells are self-play.", "",
              "## Every pair (single team)", ""]
    pairs = m["single_team"]["pairs"]
    if len(pairs) <= FULL_TABLE_PAIRS:
        header = ["captain", "agent", "play"] + [label for *_, label in METRICS] + ["illegal", "failures"]
        rows = [[p["captain"], p["agent"], "cross" if p["cross"] else "self"]
                + [fmt(p[name], metric_kinds[name]) for name, *_ in METRICS]
                + [p["illegal"], p["failures"]] for p in pairs]
    else:
        lines += [f"{len(pairs)} pairs: values only; every interval is in the JSON report.", ""]
        shown = ("win_rate", "assassin_rate", "mean_score", "cards_per_hint", "precision", "count_asked")
        header = ["captain", "agent", "play"] + [label for name, *_, label in METRICS if name in shown] \
            + ["illegal", "failures"]
        rows = [[p["captain"], p["agent"], "cross" if p["cross"] else "self"]
                + [value(p[name], metric_kinds[name]) for name in shown]
                + [p["illegal"], p["failures"]] for p in pairs]
    lines += table(header, rows)
    lines += ["", "## Two-team mode", ""]
    if m["two_team"]:
        ref = m["two_team"]["reference"]
        lines += [f"Each team (captain and agent on one matrix) plays the reference team "
                  f"{ref[0]} + {ref[1]} on every board twice, once on each side. "
                  "A team that breaks a rule loses that game (errors column).", ""]
        rows = [[t["team"], t["games"], fmt(t["win_rate"], "rate"), fmt(t["win_rate_first"], "rate"),
                 fmt(t["win_rate_second"], "rate"), fmt(t["assassin_rate"], "rate"), t["errors"]]
                for t in m["two_team"]["teams"]]
        lines += table(["team", "games", "win rate", "moving first", "moving second",
                        "assassin", "errors"], rows)
    else:
        lines += ["Not run."]
    lines += ["", "## Speed", "",
              "Wall-clock latency of each call in the single-team games (median and 95th "
              "percentile, ms), on this shared machine.", ""]
    rows = [[k, "hint", ms(v["median_ms"]), ms(v["p95_ms"]), v["calls"]]
            for k, v in m["speed"]["hint"].items()]
    rows += [[k, "guess", ms(v["median_ms"]), ms(v["p95_ms"]), v["calls"]]
             for k, v in m["speed"]["guess"].items()]
    lines += table(["model", "call", "median ms", "p95 ms", "calls"], rows)
    if "duet" in m:
        lines += ["", "## Duet", ""]
        duet = m["duet"]
        if "error" in duet:
            lines += [duet["error"]]
        else:
            lines += [f"The Duet benchmark of duet.py (`duet.benchmark`) for {duet.get('pair')}, "
                      "on the same seeds; intervals over its games.", ""]
            rows = [[k, json.dumps(v)] for k, v in duet.items()
                    if k not in ("pair", "per_seed", "intervals")]
            rows += [[f"{k} (mean, 95% CI)", fmt(e, "mean")]
                     for k, e in duet.get("intervals", {}).items()]
            lines += table(["measure", "value"], rows)
    if "human" in m:
        from evaluation.human_tier import markdown as human_markdown

        lines += ["", *human_markdown(m["human"], fmt)]
    lines += ["", "## How to read this", "",
              "- Win rate, assassin losses, mean score: per game. Hints on wins: mean number of hints "
              "in the games won. Own cards per hint: own cards found / hints given. Guess precision: "
              "the share of guesses that were own cards. Count asked / achieved: the mean hint count "
              "and the mean number of own cards found on that hint, up to its count (N+1 guessing "
              "may find one more: that shows in cards per hint). Hints fulfilled: the share of "
              "hints whose count was reached.",
              f"- Intervals: percentile bootstrap, {RESAMPLES} resamples, rng seed {CI_SEED}; "
              "aggregates resample boards (all pairs of a board together). At 0% or 100% the "
              "interval collapses to a point: with 0 events in n games the true rate is still "
              "plausibly up to about 3/n.",
              "- Illegal hints are checked with `model.hint_problem` and must be 0. Failures are "
              "games where a model could not go on (no legal hint, or an invalid guess); they "
              "count as losses.",
              "- Each seed's board and the agents' sampling rng are those of "
              "`python main.py --seed SEED`; every pair plays the same boards.", ""]
    return "\n".join(lines)


TARGETS = (("cross_default", "win_rate", ">=", 0.90, "cross-play win rate ≥ 90%"),
           ("cross_default", "assassin_rate", "<=", 0.05, "cross-play assassin losses ≤ 5%"),
           ("cross_default", "mean_score", "<=", 8.0, "cross-play mean score ≤ 8.0"),
           ("self_default", "mean_score", "<=", 4.5, "self-play mean score of the default pair ≤ 4.5"))


def targets(headline: dict) -> list[str]:
    """The issue's targets, each marked met or missed on the default pair's measured value."""
    lines = ["Targets (default pair):", ""]
    for group, metric, op, goal, text in TARGETS:
        g = headline.get(group)
        if g is None or not np.isfinite(g[metric].value):
            lines.append(f"- {text}: not measured in this run")
            continue
        value = g[metric].value
        met = value >= goal if op == ">=" else value <= goal
        shown = f"{value:.1%}" if goal < 1 else f"{value:.2f}"
        lines.append(f"- {text}: {shown} — {'met' if met else 'missed'}")
    return lines


def plot(report: dict, solo_pairs: Sequence[tuple[Spec, Spec]], path: Path) -> None:
    """Heat maps of win rate and mean score, captains × agents, self-play cells boxed."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    captains = list(dict.fromkeys(c for c, _ in solo_pairs))
    agents = list(dict.fromkeys(a for _, a in solo_pairs))
    by_pair = {(p["captain"], p["agent"]): p for p in report["single_team"]["pairs"]}
    shape = (len(captains), len(agents))
    win, score = np.full(shape, np.nan), np.full(shape, np.nan)
    for i, c in enumerate(captains):
        for j, a in enumerate(agents):
            if (p := by_pair.get((c.label, a.label))) is not None:
                win[i, j], score[i, j] = p["win_rate"].value, p["mean_score"].value
    width = max(6.0, 0.55 * len(agents) + 3)
    height = max(3.0, 0.4 * len(captains) + 2)
    fig, axes = plt.subplots(1, 2, figsize=(2 * width, height), constrained_layout=True)
    worst = float(np.nanmax(score)) if np.isfinite(score).any() else LOSS_SCORE
    panels = ((win, "win rate", "viridis", 0, 1, "{:.0%}"),
              (score, "mean score (lower is better)", "viridis_r", 1, min(LOSS_SCORE, max(10, worst)),
               "{:.1f}"))
    for ax, (values, title, cmap, vmin, vmax, text) in zip(axes, panels, strict=True):
        image = ax.imshow(values, cmap=cmap, vmin=vmin, vmax=vmax, aspect="auto")
        ax.set_title(f"single team, {title}")
        ax.set_xticks(range(len(agents)), [a.label for a in agents], rotation=60, ha="right",
                      fontsize=8)
        ax.set_yticks(range(len(captains)), [c.label for c in captains], fontsize=8)
        ax.set_xlabel("agent")
        ax.set_ylabel("captain")
        fig.colorbar(image, ax=ax, shrink=0.8)
        for i, c in enumerate(captains):
            for j, a in enumerate(agents):
                if c.initializer == a.initializer:
                    ax.add_patch(Rectangle((j - .5, i - .5), 1, 1, fill=False, lw=1.5, ec="red"))
                if shape[1] <= 16 and np.isfinite(values[i, j]):
                    red, green, blue, _ = image.cmap(image.norm(values[i, j]))
                    dark = 0.299 * red + 0.587 * green + 0.114 * blue < 0.5
                    ax.text(j, i, text.format(values[i, j]), ha="center", va="center", fontsize=6,
                            color="white" if dark else "black")
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def to_json(value):
    """Estimates and Specs made JSON-ready, recursively; floats rounded to 4 decimals."""
    if isinstance(value, Estimate):
        return to_json(value.as_dict())
    if isinstance(value, dict):
        return {k: to_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [to_json(v) for v in value]
    if isinstance(value, float):
        return round(value, 4) if np.isfinite(value) else None
    return value


def machine() -> dict:
    """Where and on what code the benchmark ran; uncommitted changes to Python files are flagged."""
    def git(*args: str) -> str:
        try:
            return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True,
                                  timeout=10).stdout
        except (OSError, subprocess.SubprocessError):
            return ""

    commit = git("rev-parse", "--short", "HEAD").strip() or "unknown"
    changed = [line[3:] for line in git("status", "--porcelain", "--", "*.py").splitlines()]
    if changed:
        commit += f" with uncommitted changes to {', '.join(sorted(changed))}"
    return {"when": time.strftime("%Y-%m-%d %H:%M %Z"), "cpus": os.cpu_count(),
            "platform": platform.platform(terse=True), "python": platform.python_version(),
            "commit": commit}


# --- the command ----------------------------------------------------------------------------


SUMMARY = "measure the AI: strategies, tiers, speed"
DESCRIPTION = ("Measure the AI: every captain with every agent, single-team and two-team games, with\n"
               "partners it was not built from (the foreign tier) and people's clues (the human tier),\n"
               "speed. Writes benchmark.md, benchmark.json and pairing.png.")
EPILOG = """examples:
  python main.py bench --quick                        CI: a few boards, SBERT only
  python main.py bench --sources ../shared/datasets   the full matrix
  python main.py bench --captains cumsum cumsum:gap=3 --agents softmax --seeds 50
  python main.py bench --levels                       the game's AI levels"""


def parser() -> argparse.ArgumentParser:
    """`python main.py bench`'s own parser."""
    p = argparse.ArgumentParser(prog="python main.py bench", description=DESCRIPTION, epilog=EPILOG,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(p)
    return p


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The bench's flags."""
    p.add_argument("--seeds", type=int, default=None, metavar="N",
                   help=f"boards to play (default {DEFAULT_SEEDS}; {QUICK_SEEDS} with --quick)")
    p.add_argument("--seed-offset", type=int, default=TEST_OFFSET, metavar="K",
                   help=f"first seed (default {TEST_OFFSET}, the test range; seeds below it are "
                        "for tuning)")
    p.add_argument("--captains", nargs="+", metavar="STRATEGY",
                   help="captain strategies, optionally with parameters: cumsum:gap=3,floor=0.1 "
                        "(default: all registered)")
    p.add_argument("--agents", nargs="+", metavar="STRATEGY", help="agent strategies (default: all)")
    p.add_argument("--initializers", nargs="+", metavar="NAME",
                   help="weight matrices (default: every one that loads; sbert only with --quick)")
    p.add_argument("--sources", type=Path, default=SOURCES_DIR, metavar="DIR",
                   help="datasets folder for the initializers (default data/sources/)")
    p.add_argument("--sbert-model", default=None, metavar="NAME_OR_PATH",
                   help=f"sentence-transformers model (default {DEFAULT_SBERT_MODEL})")
    p.add_argument("--cache-dir", type=Path, default=None, metavar="DIR",
                   help="folder of cached matrices (default data/cache/)")
    p.add_argument("--words", type=Path, default=None, metavar="FILE",
                   help=f"card words to deal boards from (default {BOARD_WORDS_PATH.name})")
    p.add_argument("--partners", choices=PARTNER_POLICIES, default="held-out",
                   help="matrices a captain with partners (expected) checks hints against: "
                        "held-out = all but its agent's (default), all, or own")
    p.add_argument("--no-two-team", action="store_true", help="skip the two-team games")
    p.add_argument("--jobs", type=int, default=1, metavar="N",
                   help="worker processes (default 1; results do not depend on it, latencies do)")
    p.add_argument("--duet", action="store_true", help="also run the Duet benchmark (duet.py)")
    p.add_argument("--levels", action="store_true",
                   help="only measure the game's AI levels (easy, normal, hard) with the game's AI, "
                        "alone and against the reference team; writes levels.md")
    p.add_argument("--no-human", action="store_true",
                   help="skip the human tier (people's Duet clues, read from SOURCES/human_duet)")
    foreign_tier.add_arguments(p)
    p.add_argument("--quick", action="store_true",
                   help=f"a smoke run for CI: {QUICK_SEEDS} boards, SBERT only")
    p.add_argument("--out", type=Path, default=None, metavar="DIR",
                   help="folder for benchmark.md, benchmark.json and pairing.png (default reports/; "
                        "reports/quick/, git-ignored, with --quick)")


def specs(requested: Sequence[str] | None, registry: dict, initializers: Sequence[str],
          role: str) -> list[Spec]:
    """Specs for every requested (or registered) strategy on every initializer."""
    styles = [parse_strategy(text) for text in (requested or list(registry))]
    for name, _ in styles:
        if name not in registry:
            raise ValueError(f"unknown {role} strategy {name!r}: choose from {', '.join(registry)}")
    return [Spec(name, i, params) for i in initializers for name, params in styles]


def main(argv: list[str]) -> int:
    """`python main.py bench ARGV`."""
    return run(parser().parse_args(argv), argv)


def run(args: argparse.Namespace, argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and write the report; returns a process exit code. `argv`, the
    command's own arguments, is recorded in the report (default: this process's)."""
    import datasets
    import model

    argv = list(sys.argv[2:] if argv is None else argv)
    out = args.out or (QUICK_REPORTS_DIR if args.quick else REPORTS_DIR)
    started = time.perf_counter()
    n_seeds = args.seeds if args.seeds is not None else (QUICK_SEEDS if args.quick else DEFAULT_SEEDS)
    if n_seeds < 1:
        warn("bench: --seeds must be at least 1")
        return 2
    seeds = list(range(args.seed_offset, args.seed_offset + n_seeds))
    try:
        words = load_words(args.words or BOARD_WORDS_PATH)
    except OSError as error:
        warn(f"bench: cannot read the card words: {error}")
        return 2
    if args.levels:
        return levels_main(args, argv, seeds, words)
    known = list(datasets.INITIALIZERS)
    names = args.initializers or (["sbert"] if args.quick else known)
    if unknown := [n for n in names if n not in known]:
        warn(f"bench: unknown initializer {', '.join(unknown)}: choose from {', '.join(known)}")
        return 2
    try:
        # parse the strategies before the (slow) loading, so typos fail at once
        specs(args.captains, model.CAPTAINS, [], "captain")
        specs(args.agents, model.AGENTS, [], "agent")
        weights, load_times, missing = load_all(names, args.sources, args.sbert_model,
                                                required=bool(args.initializers), words=words,
                                                cache_dir=args.cache_dir)
    except (ValueError, BenchError) as error:
        warn(f"bench: {error}")
        return 2
    if not weights:
        warn("bench: no initializer could be loaded")
        return 2
    loaded = list(weights)
    setup = Setup(weights, specs(args.captains, model.CAPTAINS, loaded, "captain"),
                  specs(args.agents, model.AGENTS, loaded, "agent"), seeds, words,
                  model.CAPTAINS, model.AGENTS, partners=args.partners)
    setup.reference = None if args.no_two_team else reference_team(setup, model)
    report = play_bench(setup, default_pair=(model.DEFAULT_CAPTAIN, model.DEFAULT_AGENT), jobs=args.jobs)
    report["jobs"] = args.jobs
    report["foreign"] = None if args.no_foreign else foreign_tier.run(
        setup, args.foreign, args.sources, args.sbert_model, jobs=args.jobs)
    report.update(load_times=load_times, missing=missing)
    if args.duet:
        report["duet"] = run_duet(seeds, setup, model)
    if not args.no_human:
        report["human"] = run_human(args.sources, setup)
    report["command"] = "python main.py bench " + shlex.join(argv) if argv else "python main.py bench"
    report["runtime_s"] = time.perf_counter() - started
    write(report, setup, out)
    h = report["single_team"]["headline"]
    head = h["cross_all"] or h["self_all"]
    kind = "cross-play" if h["cross_all"] else "self-play (no cross-play pairs)"
    print(f"{kind}: win rate {fmt(head['win_rate'], 'rate')}, mean score "
          f"{fmt(head['mean_score'], 'mean')}, illegal hints {head['illegal']}; "
          f"report in {out / 'benchmark.md'} ({report['runtime_s']:.0f} s)")
    if line := foreign_tier.headline(report["foreign"]):
        print(line)
    return 0


def reference_team(setup: Setup, model) -> tuple[Spec, Spec]:
    """The two-team opponent: the default strategies on the default matrix (else the first)."""
    import datasets

    initializer = getattr(datasets, "DEFAULT_INITIALIZER", None)
    if initializer not in setup.weights:
        initializer = next(iter(setup.weights))
    captain = model.DEFAULT_CAPTAIN if model.DEFAULT_CAPTAIN in setup.captain_registry else next(
        iter(setup.captain_registry))
    agent = model.DEFAULT_AGENT if model.DEFAULT_AGENT in setup.agent_registry else next(
        iter(setup.agent_registry))
    return Spec(captain, initializer), Spec(agent, initializer)


def play_bench(setup: Setup, default_pair: tuple[str, str], jobs: int = 1) -> dict:
    """Play everything the setup asks for and return the report as a dict (without output)."""
    duel_games = 2 * len(setup.seeds) * len(teams_of(setup)) if setup.reference else 0
    total = len(pairs_of(setup)) * len(setup.seeds) + duel_games
    with progress(total=total, desc="bench: games", unit="game", mininterval=1.0,
                  dynamic_ncols=True) as bar:
        solo = run_solo(setup, bar, jobs)
        duels = run_duels(setup, bar, jobs)
    report = {
        "machine": machine(),
        "seeds": setup.seeds,
        "test_offset": TEST_OFFSET,
        "captains": list(dict.fromkeys(c.label for c in setup.captains)),
        "agents": list(dict.fromkeys(a.label for a in setup.agents)),
        "default_pair": list(default_pair),
        "partners": setup.partners,
        "single_team": analyse(solo, default_pair, base_sources(setup.weights)),
        "speed": speed(solo),
        "plot": "pairing.png",
        "two_team": None,
        "_solo_pairs": list(solo),
    }
    if duels:
        report["two_team"] = {
            "reference": [setup.reference[0].label, setup.reference[1].label],
            "teams": [{"team": f"{c.label} + {a.label}", **summarize_duels(d)}
                      for (c, a), d in duels.items()]}
    return report


def run_duet(seeds: list[int], setup: Setup, model) -> dict:
    """The Duet benchmark of duet.py for the reference pair, or why it could not run."""
    try:
        import duet
    except ImportError as error:
        warn(f"bench: --duet needs duet.py, which is not available yet ({error})")
        return {"error": f"Not run: duet.py is not available ({error})."}
    captain, agent = setup.reference or reference_team(setup, model)
    weights = setup.weights[captain.initializer]
    extra = {}
    if accepts(model.AI, "partners"):
        extra["partners"] = partners_for(captain, agent, setup.weights, setup.partners)[1:]
    ai = model.AI(weights, captain.strategy, agent.strategy, **extra)
    result = {"pair": f"{captain.label} + {agent.label}", **duet.benchmark(seeds, ai)}
    games = result.get("per_seed") or []
    fields = [k for k, v in (games[0].items() if games else ())
              if k != "seed" and isinstance(v, bool | int | float)]
    result["intervals"] = {k: bootstrap_ratio([float(g[k]) for g in games]) for k in fields}
    return result


# --- the game's levels --------------------------------------------------------------------


def run_levels(seeds: Sequence[int], words: Sequence[str], ai, levels: dict) -> list[dict]:
    """Each level's ai:ai team as a person meets it in the game: alone, how many hints it takes
    to find all its cards; against the reference team (the full AI, planning for an unknown
    agent), how often it wins. One row a level."""
    rows = []
    for name, level in levels.items():
        solo = []
        for seed in seeds:
            board, rng = deal(seed, words)
            captain, agent = ai.captain(twin=True, level=level), ai.agent(level=level)
            solo.append(play_solo(board, board.starting_team, captain, agent, rng, seed))
        duels = [play_duel(seed, words, (ai.captain(twin=True, level=level), ai.agent(level=level)),
                           (ai.captain(twin=False), ai.agent()), color)
                 for seed in seeds for color in (Color.RED, Color.BLUE)]
        rows.append({"level": name, "about": level.about,
                     "hints_to_win": bootstrap_ratio([g.score for g in solo if g.won]),
                     "solo_win_rate": bootstrap_ratio([float(g.won) for g in solo]),
                     "cards_per_hint": bootstrap_ratio([sum(o is Outcome.OWN for h in g.hints
                                                            for o in h.outcomes) for g in solo],
                                                       [len(g.hints) for g in solo]),
                     **{f"duel_{k}": v for k, v in summarize_duels(duels).items()}})
    return rows


def levels_markdown(rows: list[dict], command: str) -> str:
    """The levels' table, as the README and reports/levels.md show it."""
    lines = [f"# The game's AI levels\n\n`{command}`\n",
             "Alone: the hints a level's ai:ai team takes to find all its cards (on the games it wins), "
             "and its own cards per hint. Against the reference team (the full AI planning for an "
             "unknown agent), one game on each side of every board.\n"]
    lines += table(["level", "hints to win alone", "own cards per hint", "wins alone",
                    "wins against the reference", "assassin losses against it"],
                   [[r["level"], fmt(r["hints_to_win"], "mean"), fmt(r["cards_per_hint"], "mean"),
                     fmt(r["solo_win_rate"], "rate"), fmt(r["duel_win_rate"], "rate"),
                     fmt(r["duel_assassin_rate"], "rate")] for r in rows])
    return "\n".join(lines) + "\n"


def levels_main(args: argparse.Namespace, argv: list[str], seeds: list[int], words: Sequence[str]) -> int:
    """`bench --levels`: measure the game's levels alone and write levels.md."""
    import datasets
    import model
    from common import atomic_write_bytes

    try:
        weights, partners = datasets.load_with_partners(None, sources=args.sources,
                                                        sbert_model=args.sbert_model)
    except (OSError, ValueError, RuntimeError) as error:
        warn(f"bench: cannot build the AI: {error}")
        return 2
    weights.add_words(words)
    ai = model.AI(weights, partners=partners)
    rows = run_levels(seeds, words, ai, model.LEVELS)
    command = "python main.py bench " + shlex.join(argv)
    text = levels_markdown(rows, command)
    out = args.out or REPORTS_DIR
    out.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(out / "levels.md", text.encode("utf-8"))
    print(text + f"\n(written to {out / 'levels.md'})")
    return 0
def run_human(sources: Path, setup: Setup) -> dict:
    """The human tier (evaluation/human_tier.py) for every agent spec, or why it was skipped."""
    from evaluation import human_tier

    agents = [(spec.label, lambda spec=spec: build(setup.agent_registry, spec, setup.weights))
              for spec in setup.agents]
    tier = human_tier.run(sources, agents)
    if "skipped" in tier:
        print(f"bench: human tier skipped: {tier['skipped']}")
    return tier


def write(report: dict, setup: Setup, out: Path) -> None:
    """benchmark.md, benchmark.json and pairing.png in `out`."""
    from common import atomic_write_bytes

    solo_pairs = report.pop("_solo_pairs")
    out.mkdir(parents=True, exist_ok=True)
    plot(report, solo_pairs, out / "pairing.png")
    atomic_write_bytes(out / "benchmark.md", markdown(report).encode("utf-8"))
    atomic_write_bytes(out / "benchmark.json",
                       json.dumps(to_json(report), indent=1).encode("utf-8"))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
