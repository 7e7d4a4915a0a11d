"""`python main.py bench`: measured play strength and speed of the AI.

Every captain (strategy × initializer) plays with every agent (strategy ×
initializer) on the same boards, one board per seed:

- single-team mode, as in the Codenames AI Competition: one team alone on a
  board of 9 own, 8 opponent, 7 neutral cards and the assassin; the score is
  the number of hints it needs to turn over all its cards, 25 on a loss (the
  assassin, or every opponent card turned over); N+1 guessing;
- two-team mode: teams play a reference team, sides swapped on every board.

The headline is the human-model tier (lab/evaluation/human_models.py): the game's captain with
guessers fitted to people's play from data it does not read as its own voice; then the foreign
tier (lab/evaluation/foreign_tier.py): agents built from data its AI never reads. Same-family
cross-play follows: pairs whose captain and agent read different matrices. Self-play flatters every bot
and is shown beside it, never as a headline. Rates and means carry 95% bootstrap intervals (fixed rng).
Nothing here changes the rules: every game runs on the game's engine (`engine.Game`) with the
models of model.py. This module is the command (its flags, the run,
the levels' branch); what it measures, and how, lives in lab/evaluation/.
"""

from __future__ import annotations

import argparse
import shlex
import time
from collections.abc import Sequence
from pathlib import Path

import model
from cli import Command, sources_folder
from common import (
    BOARD_WORDS_PATH,
    DEFAULT_SBERT_MODEL,
    SOURCES_DIR,
    atomic_write_bytes,
    cluster,
    load_words,
    warn,
)
from lab.evaluation import foreign_tier, human_models
from lab.evaluation.executor import executor
from lab.evaluation.games import TEST_OFFSET
from lab.evaluation.human_duet import available, folder
from lab.evaluation.human_models import GUESSERS, fit_guesser
from lab.evaluation.levels import PERSON_GUESSER, levels_markdown, run_levels
from lab.evaluation.loading import BenchError, load_all
from lab.evaluation.report import REPORTS_DIR, write
from lab.evaluation.runner import Setup, play_bench, reference_team, run_duet, run_human
from lab.evaluation.specs import PARTNER_POLICIES, Spec, parse_strategy
from lab.evaluation.tables import fmt
from lab.foreign.vectors import SOURCES

DEFAULT_SEEDS, QUICK_SEEDS = 20, 5

# A smoke run must never overwrite the committed report: it writes here (git-ignored) unless --out says.
QUICK_REPORTS_DIR = REPORTS_DIR / "quick"


SUMMARY = "measure the AI: strategies, tiers, speed"
DESCRIPTION = ("Measure the AI: every captain with every agent, single-team and two-team games, with\n"
               "partners it was not built from (the foreign tier) and people's clues (the human tier),\n"
               "speed. Writes benchmark.md, benchmark.json and pairing.png.")
EPILOG = """examples:
  python main.py bench --quick                        CI: a few boards, SBERT only
  python main.py bench --sources ../shared/datasets   the full matrix
  python main.py bench --captains cumsum cumsum:gap=3 --agents softmax --seeds 50
  python main.py bench --levels --sources ../shared/datasets   the levels, against a model of people"""


# One call a flag, in the order --help lists them: read whole, a flat list is clearer than one
# cut in parts to stay under the game's 40 lines (the lab's exception).
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
    p.add_argument("--sources", type=sources_folder, default=SOURCES_DIR, metavar="DIR",
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
                   help="Dask workers on this machine (default 1: no cluster; results do not depend on "
                        "it, latencies do)")
    cluster.add_scheduler_argument(p, "the games")
    p.add_argument("--duet", action="store_true",
                   help="also run the Duet benchmark (AI partners on the same seeds)")
    p.add_argument("--levels", action="store_true",
                   help="only measure the game's AI levels (easy, normal, hard) and the auto team "
                        "against a model of people in the person's seat (needs the human Duet record "
                        "in --sources); writes levels.md")
    p.add_argument("--no-human", action="store_true",
                   help="skip the human tier (people's Duet clues, read from SOURCES/human_duet)")
    foreign_tier.add_arguments(p)
    p.add_argument("--quick", action="store_true",
                   help=f"a smoke run for CI: {QUICK_SEEDS} boards, SBERT only")
    p.add_argument("--out", type=Path, default=None, metavar="DIR",
                   help="folder for benchmark.md, benchmark.json and pairing.png (default reports/; "
                        "reports/quick/, git-ignored, with --quick)")


# What every strategy is built with (`model.AI`): not a parameter a spec may set.
BUILT_WITH = ("partners", "alone")


def specs(requested: Sequence[str] | None, registry: dict, initializers: Sequence[str],
          role: str) -> list[Spec]:
    """Specs for every requested (or registered) strategy on every initializer."""
    styles = [parse_strategy(text) for text in (requested or list(registry))]
    for name, params in styles:
        if name not in registry:
            raise ValueError(f"unknown {role} strategy {name!r}: choose from {', '.join(registry)}")
        if set_here := [key for key, _ in params if key in BUILT_WITH]:
            raise ValueError(f"{role} strategy {name!r}: the bench sets {', '.join(set_here)} itself")
    return [Spec(name, i, params) for i in initializers for name, params in styles]


def initializers_to_load(named: Sequence[str] | None, quick: bool) -> tuple[list[str], list[str]]:
    """The matrices to load, and those the strategies play on. Named: those. Else every matrix the
    game's AI reads, the model of people's own (`NOT_PLAYED`) too, so that the tiers that play the
    game's captain play it as it is; the strategies play on the others. Quick: SBERT alone."""
    import datasets

    if named:
        return list(named), list(named)
    names = ["sbert"] if quick else list(datasets.INITIALIZERS)
    return names, [n for n in names if n not in datasets.NOT_PLAYED]


def run(args: argparse.Namespace) -> int:
    """Run the benchmark and write the report; returns a process exit code. The command's own
    arguments (`args.argv`) are recorded in the report."""
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
        return levels_main(args, args.argv, seeds, words)
    try:
        setup, load_times, missing = set_up(args, seeds, words)
    except (ValueError, BenchError) as error:
        warn(f"bench: {error}")
        return 2
    report = measure(args, setup, load_times=load_times, missing=missing)
    command = "python main.py bench " + shlex.join(args.argv) if args.argv else "python main.py bench"
    report["command"] = command
    report["runtime_s"] = time.perf_counter() - started
    write(report, setup, out)
    say(report, out)
    return 0


def set_up(args: argparse.Namespace, seeds: list[int], words: list[str]) -> tuple[Setup, dict, dict]:
    """The matrices loaded and the pairs to play on them, with each matrix's load times and why
    any is missing; ValueError or BenchError says what is wrong with the flags."""
    import datasets

    known = list(datasets.INITIALIZERS)
    names, played = initializers_to_load(args.initializers, args.quick)
    if unknown := [n for n in names if n not in known]:
        raise ValueError(f"unknown initializer {', '.join(unknown)}: choose from {', '.join(known)}")
    # parse the strategies before the (slow) loading, so typos fail at once
    specs(args.captains, model.CAPTAINS, [], "captain")
    specs(args.agents, model.AGENTS, [], "agent")
    weights, load_times, missing = load_all(names, args.sources, args.sbert_model,
                                            required=bool(args.initializers), words=words,
                                            cache_dir=args.cache_dir)
    if not weights:
        raise ValueError("no initializer could be loaded")
    loaded = [n for n in weights if n in played]
    setup = Setup(weights, specs(args.captains, model.CAPTAINS, loaded, "captain"),
                  specs(args.agents, model.AGENTS, loaded, "agent"), seeds, words, partners=args.partners)
    setup.reference = None if args.no_two_team else reference_team(setup, model)
    return setup, load_times, missing


def measure(args: argparse.Namespace, setup: Setup, **loading) -> dict:
    """Every tier the flags ask for, played on `setup`: the report's measurements, with how the
    matrices loaded (`loading`)."""
    with executor(args.jobs, cluster.scheduler_address(args.scheduler)) as games:
        report = play_bench(setup, default_pair=(model.DEFAULT_CAPTAIN, model.DEFAULT_AGENT), jobs=games)
        report["jobs"] = games.workers
        report["human_models"] = None if args.no_human else human_models.run(setup, args.sources, games)
        report["foreign"] = None if args.no_foreign else foreign_tier.run(
            setup, args.foreign, args.sources, args.sbert_model, jobs=games)
    report.update(loading)
    if args.duet:
        report["duet"] = run_duet(setup.seeds, setup, model)
    if not args.no_human:
        report["human"] = run_human(args.sources, setup)
    return report


def say(report: dict, out: Path) -> None:
    """The headline of the run, and of the human and foreign tiers, on stdout."""
    h = report["single_team"]["headline"]
    head = h["cross_all"] or h["self_all"]
    kind = "cross-play" if h["cross_all"] else "self-play (no cross-play pairs)"
    print(f"{kind}: win rate {fmt(head['win_rate'], 'rate')}, mean score "
          f"{fmt(head['mean_score'], 'mean')}, illegal hints {head['illegal']}; "
          f"report in {out / 'benchmark.md'} ({report['runtime_s']:.0f} s)")
    for line in (human_models.headline(report["human_models"]), foreign_tier.headline(report["foreign"])):
        if line:
            print(line)


def levels_main(args: argparse.Namespace, argv: list[str], seeds: list[int], words: Sequence[str]) -> int:
    """`bench --levels`: the game's levels against a model of people; writes levels.md."""
    import datasets

    if not available(args.sources):
        warn(f"bench: --levels plays a guesser fitted to people's play and needs the human Duet record "
             f"in {folder(args.sources)} (e.g. --sources ../shared/datasets)")
        return 2
    vectors = GUESSERS[PERSON_GUESSER][0]
    if not SOURCES[vectors].installed():
        warn(f"bench: --levels needs the {vectors} vectors: {SOURCES[vectors].install}")
        return 2
    try:
        weights, partners = datasets.load_with_partners(None, sources=args.sources,
                                                        sbert_model=args.sbert_model)
    except (OSError, ValueError, RuntimeError) as error:
        warn(f"bench: cannot build the AI: {error}")
        return 2
    weights.add_words(words)
    ai = model.AI(weights, partners=partners)
    guesser = fit_guesser(PERSON_GUESSER, args.sources, sample=True)
    rows = run_levels(seeds, words, ai, model.LEVELS, guesser)
    command = "python main.py bench " + shlex.join(argv)
    text = levels_markdown(rows, command)
    out = args.out or REPORTS_DIR
    out.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(out / "levels.md", text.encode("utf-8"))
    print(text + f"\n(written to {out / 'levels.md'})")
    return 0


COMMAND = Command("bench", SUMMARY, DESCRIPTION, add_arguments, run, EPILOG)
