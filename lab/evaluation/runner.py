"""Running the bench: the Setup, every pair's single-team games and every team's duels, on
Dask workers when asked (lab/evaluation/executor.py); the report's data as a dict."""

from __future__ import annotations

import os
import platform
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from board import Color, deal
from common import ROOT, progress
from lab.evaluation import duet_benchmark, human_tier
from lab.evaluation.analysis import analyse, speed
from lab.evaluation.executor import Executor, executor
from lab.evaluation.games import TEST_OFFSET, DuelResult, SoloResult, play_duel, play_solo
from lab.evaluation.specs import Spec, agent_of, base_sources, captain_of, partners_for
from lab.evaluation.stats import bootstrap_ratio, summarize_duels


@dataclass
class Setup:
    """Everything a benchmark run needs, already loaded."""

    weights: dict                    # initializer name → model.Weights
    captains: list[Spec]
    agents: list[Spec]
    seeds: list[int]
    words: Sequence[str]
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
        captain = captain_of(captain_spec, setup.weights, partners, alone=True)
        agent = agent_of(agent_spec, setup.weights)
        games.append(play_solo(board, board.starting_team, captain, agent, rng, seed))
        tick()
    return games


def run_solo(setup: Setup, progress=None, jobs: int | Executor = 1
             ) -> dict[tuple[Spec, Spec], list[SoloResult]]:
    """Every captain with every agent on every seed's board, alone."""
    return run_all(setup, solo_games, pairs_of(setup), progress, jobs)


def run_all(setup: Setup, play: Callable, items: list, progress, jobs: int | Executor = 1) -> dict:
    """`play(setup, item)` for every item, results in order: on `jobs` if it is an Executor,
    else in this process for one job and on a LocalCluster of `jobs` Dask workers for more.

    Every game is seeded, so the results do not depend on where or how many ways they are played.
    """
    if isinstance(jobs, Executor):
        return jobs.run(setup, play, items, progress)
    with executor(jobs) as games:
        return games.run(setup, play, items, progress)


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
    return captain_of(captain, setup.weights, partners), agent_of(agent, setup.weights)


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


def run_duels(setup: Setup, progress=None, jobs: int | Executor = 1
              ) -> dict[tuple[Spec, Spec], list[DuelResult]]:
    """Each team against the reference team on every board, once on each side."""
    if setup.reference is None:
        return {}
    return run_all(setup, duel_games, teams_of(setup), progress, jobs)


def reference_team(setup: Setup, model) -> tuple[Spec, Spec]:
    """The two-team opponent: the default strategies on the default matrix (else the first)."""
    import datasets

    initializer = getattr(datasets, "DEFAULT_INITIALIZER", None)
    if initializer not in setup.weights:
        initializer = next(iter(setup.weights))
    return Spec(model.DEFAULT_CAPTAIN, initializer), Spec(model.DEFAULT_AGENT, initializer)


def play_bench(setup: Setup, default_pair: tuple[str, str], jobs: int | Executor = 1) -> dict:
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
    """The Duet benchmark (duet_benchmark.py) for the reference pair."""
    captain, agent = setup.reference or reference_team(setup, model)
    partners = partners_for(captain, agent, setup.weights, setup.partners)[1:]
    ai = model.AI(setup.weights[captain.initializer], captain.strategy, agent.strategy, partners)
    result = {"pair": f"{captain.label} + {agent.label}", **duet_benchmark.benchmark(seeds, ai)}
    games = result.get("per_seed") or []
    fields = [k for k, v in (games[0].items() if games else ())
              if k != "seed" and isinstance(v, bool | int | float)]
    result["intervals"] = {k: bootstrap_ratio([float(g[k]) for g in games]) for k in fields}
    return result


def run_human(sources: Path, setup: Setup) -> dict:
    """The human tier (lab/evaluation/human_tier.py) for every agent spec, or why it was skipped."""
    agents = [(spec.label, lambda turn, spec=spec: agent_of(spec, setup.weights))
              for spec in setup.agents if spec.strategy != "people"]   # people: cross-validated
    tier = human_tier.run(sources, agents, setup.weights)
    if "skipped" in tier:
        print(f"bench: human tier skipped: {tier['skipped']}")
    return tier


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
