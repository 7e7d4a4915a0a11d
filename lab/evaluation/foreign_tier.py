"""The bench's foreign tier: the game's captains with agents that share nothing with its AI.

Each captain strategy on the game's default matrix (combined over the
available sources, else SBERT), checking its hints against every loaded matrix
as in the game, plays alone with each foreign agent (lab/foreign/agent.py) on the
bench's boards and seeds: single-team mode, N+1 guessing allowed (the foreign
agents stop at the count), score = hints to win, 25 on a loss. The default
captain's row is the bench's headline.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from pathlib import Path

import model
from board import deal
from common import progress, warn
from lab.evaluation.executor import Executor
from lab.evaluation.games import play_solo
from lab.evaluation.runner import run_all
from lab.evaluation.specs import Spec, captain_of, others
from lab.evaluation.stats import count_table, pooled, summarize
from lab.evaluation.tables import fmt, heading, ran, table
from lab.foreign.agent import ForeignAgent
from lab.foreign.isolation import NotForeign, ai_reads, isolated
from lab.foreign.vectors import SOURCES, load

RULE = ("One team alone (9 own, 8 opponent, 7 neutral, 1 assassin), count+1 guesses allowed; the "
        "foreign agent turns over the face-down card its own vectors rank first (cosine), `count` "
        "times, and stops (one guess for 0 or unlimited); score = hints to find all own cards, "
        "25 on a loss.")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The tier's flags on the bench's command line."""
    parser.add_argument("--foreign", nargs="+", metavar="NAME", choices=list(SOURCES),
                        help=f"foreign agents for the foreign tier (default: all of "
                             f"{', '.join(SOURCES)} that are installed)")
    parser.add_argument("--no-foreign", action="store_true", help="skip the foreign tier")


def install_hint() -> str:
    """How to install every foreign source."""
    return "pip install -r requirements-dev.txt (or: " + "; ".join(
        s.install for s in SOURCES.values()) + ")"


def default_initializer(weights: dict) -> str:
    """The matrix the game's AI plays on: combined when loaded, else SBERT, else the first."""
    import datasets

    for name in (datasets.DEFAULT_INITIALIZER, datasets.FALLBACK):
        if name in weights:
            return name
    return next(iter(weights))


def captain_specs(setup) -> list:
    """Each of the bench's captain styles on the default matrix, the default captain first."""
    initializer = default_initializer(setup.weights)
    styles = list(dict.fromkeys((c.strategy, c.params) for c in setup.captains))
    styles.sort(key=lambda s: (s != (model.DEFAULT_CAPTAIN, ()),))
    return [Spec(name, initializer, params) for name, params in styles]


def tier_games(setup, item: tuple, tick: Callable[[], None] = lambda: None) -> list:
    """One captain with one foreign agent on every seed's board, alone."""
    captain_spec, agent_name = item
    # The game's own captain plans for a person; another style, for every loaded matrix.
    game = captain_spec == Spec(model.DEFAULT_CAPTAIN, captain_spec.initializer)
    own = setup.weights[captain_spec.initializer]
    plans_for = None if game else [own, *others(captain_spec, setup.weights)]
    vectors = load(agent_name)
    games = []
    for seed in setup.seeds:
        board, rng = deal(seed, setup.words)
        captain = captain_of(captain_spec, setup.weights, plans_for, alone=True)
        games.append(play_solo(board, board.starting_team, captain, ForeignAgent(vectors), rng, seed))
        tick()
    return games


def choose(requested: Sequence[str] | None, setup, sources: Path, sbert_model: str | None
           ) -> tuple[list[str], dict[str, str]]:
    """The foreign agents to play, and why each other requested or registered one is left out."""
    reads = ai_reads(setup.weights, sources, sbert_model)
    keep, dropped = isolated(SOURCES, reads)
    if len(keep) < 2:
        raise NotForeign("the game's AI reads " + "; ".join(f"{k} ({v})" for k, v in dropped.items())
                         + ": fewer than two foreign agents are left")
    names = [n for n in (requested or keep) if n not in dropped]
    dropped.update({n: "not installed: " + SOURCES[n].install
                    for n in names if not SOURCES[n].installed()})
    return [n for n in names if n not in dropped], dropped


def run(setup, requested: Sequence[str] | None, sources: Path, sbert_model: str | None,
        jobs: int | Executor = 1) -> dict:
    """Play the tier and summarise it; {'skipped': why} when no foreign agent can play."""
    try:
        names, dropped = choose(requested, setup, sources, sbert_model)
    except NotForeign as error:
        warn(f"bench: foreign tier refused: {error}")
        return {"skipped": f"refused: {error}"}
    if not names:
        line = f"foreign tier skipped: no foreign agent is installed; {install_hint()}"
        warn(f"bench: {line}")
        return {"skipped": line, "left_out": dropped}
    for name in names:   # load once here: a game played in this process reads them at once
        load(name)
    items = [(c, n) for c in captain_specs(setup) for n in names]
    games = _play(setup, items, jobs)
    return {"agents": names, "left_out": dropped, "rule": RULE, **summary(games, items)}


def _play(setup, items: list, jobs: int | Executor) -> dict:
    with progress(total=len(items) * len(setup.seeds), desc="bench: foreign tier", unit="game",
                  mininterval=1.0, dynamic_ncols=True) as bar:
        return run_all(setup, tier_games, items, bar, jobs)


def summary(games: dict, items: list) -> dict:
    """Per pair, and the default captain's games pooled over the foreign agents (by board)."""
    tables = {item: count_table(games[item]) for item in items}
    default = items[0][0]
    return {
        "captain_initializer": default.initializer,
        "default_captain": default.label,
        "pairs": [{"captain": c.label, "agent": n, **summarize(tables[c, n])} for c, n in items],
        "default": {"pairs": sum(c == default for c, _ in items),
                    **summarize(pooled([t for (c, _), t in tables.items() if c == default]))},
    }


def markdown(section: dict | None) -> list[str]:
    """The tier's part of the report: the headline table, or the line saying why it was skipped."""
    lines = heading("Headline: foreign tier, single team", section, "Not run (--no-foreign).")
    if not ran(section):
        return lines
    lines += [f"Agents built from data the game's AI never reads ({', '.join(section['agents'])}; "
              "see lab/foreign/vectors.py), with the game's captains on its default matrix "
              f"({section['captain_initializer']}), each checking its hints against every loaded "
              f"matrix as in the game. {RULE} 95% bootstrap intervals over boards.", ""]
    if section["left_out"]:
        lines += ["Left out: " + "; ".join(f"{k} ({v})" for k, v in section["left_out"].items()) + ".",
                  ""]
    header = ["captain", "agent", "games", "win rate", "assassin losses", "mean score",
              "hints on wins", "guess precision", "illegal hints"]

    def row(captain: str, agent: str, g: dict) -> list:
        return [captain, agent, g["games"], fmt(g["win_rate"], "rate"), fmt(g["assassin_rate"], "rate"),
                fmt(g["mean_score"], "mean"), fmt(g["turns_on_wins"], "mean"),
                fmt(g["precision"], "rate"), g["illegal"]]

    d = section["default"]
    rows = [row(f"**{section['default_captain']}**", f"**all foreign ({d['pairs']})**", d)]
    rows += [row(p["captain"], p["agent"], p) for p in section["pairs"]]
    return lines + table(header, rows) + [""]


def headline(section: dict | None) -> str | None:
    """One line for the terminal: the default captain with the foreign agents pooled."""
    if not section or "default" not in section:
        return None
    d = section["default"]
    return (f"foreign tier ({section['default_captain']} with {', '.join(section['agents'])}): win "
            f"rate {fmt(d['win_rate'], 'rate')}, assassin {fmt(d['assassin_rate'], 'rate')}, mean "
            f"score {fmt(d['mean_score'], 'mean')}")
