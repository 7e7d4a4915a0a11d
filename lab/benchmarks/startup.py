"""Speed of the playable game, measured on this machine.

    python -m lab.benchmarks.startup                # every measure
    python -m lab.benchmarks.startup --skip-build   # leave out the SBERT cache build (~1-2 min)
    python -m lab.benchmarks.startup --only build --torch-threads 1   # the build on one thread
    python -m lab.benchmarks.startup --only blink --sources ../shared/datasets   # issue 46's targets

Measures, each against its target:

1. launch → first board: `python main.py --red ai:ai --blue ai:ai` in a subprocess,
   with a warm cache (one untimed run first), its stdout read until the
   first line of the grid appears; median of `--runs` launches (≤ 3 s).
2. SBERT cache build: the 10k-hint vocabulary + the board words encoded and
   written into a temporary cache folder, including the model load (≤ 60 s).
3. AI hint time: every hint of the default captain (`model.DEFAULT_CAPTAIN`)
   in `--games` whole AI-vs-AI games (default agent), each game starting
   with the legality filter's per-board-word cache empty, as after a fresh
   launch. Median over all hints (≤ 20 ms); the p90 and the median of each
   game's first hint (which builds the filter for its 25 cards) are printed
   for information.

4. In a blink (issue 46), whole processes, each after one untimed run, median of `--runs`:
   `python main.py --help` (≤ 0.3 s CPU); the first hint of a warm start (`--red ai:ai --blue
   ai:ai --seed 1`, launch to "RED captain: WORD N", ≤ 0.5 s); a whole AI-vs-AI game, seed 1,
   CPU of the process: embedded, with an empty sources folder (≤ 1.0 s), and with every dataset
   in `--sources` (≤ 1.2 s; its matrices already in data/cache, or it measures their build).

Wall-clock times are what a player waits; the CPU column shows the work,
which stays meaningful when other jobs share the cores (see the load
average printed before and after).

Exit status 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]

GRID_LINE = re.compile(r"^([\[(][RBNA ][\])] \S+ *){5}$")
HINT_LINE = re.compile(r"^(RED|BLUE) captain: [A-Z]+ (\d|unlimited)")
AI_GAME = ["--red", "ai:ai", "--blue", "ai:ai", "--seed", "1", "--no-log"]


def launch_to_first_board(seed: int, timeout: float = 120.0) -> tuple[float, float]:
    """Seconds from starting main.py (AI vs AI) to the first grid line on its stdout,
    and the CPU seconds the process had used when it was stopped there."""
    command = [sys.executable, str(ROOT / "main.py"), "--red", "ai:ai", "--blue", "ai:ai",
               "--seed", str(seed), "--no-log"]
    seconds, cpu, _ = launch_until(command, ROOT, GRID_LINE, timeout)
    if seconds is None:
        raise RuntimeError("main.py ended or stalled without drawing a board")
    return seconds, cpu


def launch_until(command: list[str], cwd: Path, wanted: re.Pattern, timeout: float = 120.0
                 ) -> tuple[float | None, float, str]:
    """Run `command` (without colour) until a line of its stdout matches `wanted`: the seconds
    that took (None if it ended or stalled first), the CPU seconds it had used when it was
    stopped there, and its stderr."""
    env = user_env()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    seconds = None
    with tempfile.TemporaryFile("w+") as stderr:   # a file: a full pipe would stall the process
        process = subprocess.Popen(command, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                                   stdout=subprocess.PIPE, stderr=stderr, text=True)
        try:
            for line in process.stdout:
                if wanted.match(line.rstrip("\n")):
                    seconds = time.perf_counter() - start
                    break
                if time.perf_counter() - start > timeout:
                    break
        finally:
            process.kill()
            process.communicate()
        stderr.seek(0)
        err = stderr.read()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return seconds, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime), err


def user_env() -> dict[str, str]:
    """This environment as a player's: no colour, and Python caching the bytecode of the project's
    modules as it does by default (a session here may set PYTHONDONTWRITEBYTECODE, which made every
    start compile 40 modules again)."""
    return {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}, "NO_COLOR": "1"}


def whole_run(argv: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of `python main.py ARGV` run to its end (no colour, no input)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, str(ROOT / "main.py"), *argv], cwd=ROOT, env=user_env(),
                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def to_first_hint(argv: list[str]) -> tuple[float, float]:
    """Wall seconds from launching `python main.py ARGV` to its first hint, and its CPU seconds then."""
    seconds, cpu, err = launch_until([sys.executable, str(ROOT / "main.py"), *argv], ROOT, HINT_LINE)
    if seconds is None:
        raise RuntimeError(f"no hint from the game: {err[-2000:]}")
    return seconds, cpu


def medians(measure, argv: list[str], runs: int) -> tuple[float, float, float]:
    """The median wall and CPU seconds of `runs` measures after one untimed one, and the load
    average (1 min) when they ended."""
    measure(argv)
    times = [measure(argv) for _ in range(runs)]
    return (statistics.median(w for w, _ in times), statistics.median(c for _, c in times),
            os.getloadavg()[0])


def blink_rows(runs: int, sources: Path | None, lines: list[str]) -> bool:
    """Issue 46's measures of a start, whole processes (see the module's docstring); their rows
    are added to `lines`. Whether every target is met."""
    ok = True

    def add(measure: str, value: tuple[float, float, float], target: float, on_cpu: bool = True) -> None:
        nonlocal ok
        wall, cpu, load = value
        met = (cpu if on_cpu else wall) <= target
        ok &= met
        lines.append(row(f"{measure} (load {load:.1f})", f"{wall:.2f} s", f"{cpu:.2f} s",
                         f"<= {target:g} s{' CPU' if on_cpu else ''}", met))

    with tempfile.TemporaryDirectory() as empty:
        embedded = [*AI_GAME, "--sources", empty]
        add(f"python main.py --help (median of {runs})", medians(whole_run, ["--help"], runs), 0.3)
        add("first hint of a warm start, embedded", medians(to_first_hint, embedded, runs), 0.5, on_cpu=False)
        add("AI-vs-AI game, seed 1, embedded (no dataset)", medians(whole_run, embedded, runs), 1.0)
    if sources is not None:
        every = [*AI_GAME, "--sources", str(sources)]
        add("first hint of a warm start, every dataset", medians(to_first_hint, every, runs), 0.5,
            on_cpu=False)
        add("AI-vs-AI game, seed 1, every dataset", medians(whole_run, every, runs), 1.2)
    return ok


def measure_startup(runs: int) -> tuple[list[float], list[float]]:
    launch_to_first_board(seed=0)            # warm: builds the cache if missing, fills the OS cache
    measured = [launch_to_first_board(seed=run + 1) for run in range(runs)]
    return [wall for wall, _ in measured], [cpu for _, cpu in measured]


def measure_cache_build(torch_threads: int | None = None) -> tuple[float, float, int, int]:
    """Seconds (wall, CPU) to build the SBERT cache from nothing (model load included) into a
    temp folder; `torch_threads` overrides torch's thread count (default: torch's choice)."""
    import datasets

    if torch_threads:
        import torch

        torch.set_num_threads(torch_threads)
    from common import board_words, hint_words

    hints, words = hint_words(), board_words()
    with tempfile.TemporaryDirectory() as folder:
        start, cpu = time.perf_counter(), time.process_time()
        weights = datasets.sbert_weights(hints, words, cache_dir=Path(folder), rebuild=True)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        assert (Path(folder) / "sbert.npy").exists()
    return seconds, cpu, len(weights.hints), len(weights.words)


def measure_hints(games: int) -> tuple[str, list[float], list[float]]:
    """Every hint time (seconds) of the default captain over whole AI-vs-AI games.

    Each game starts with the legality filter's per-board-word cache emptied, as
    in a fresh launch, so the first hint of each game pays for its 25 board
    words. Returns the strategy name, all hint times and each game's first.
    """
    import datasets
    from board import TEAMS, Board
    from common import board_words
    from engine import Game, Team
    from model import AI, HintFilter
    from players import AIAgent, AICaptain

    weights, partners = datasets.load_with_partners()
    ai = AI(weights, partners=partners)   # as `python main.py` builds it
    every, first = [], []
    for seed in range(games):
        banned = getattr(HintFilter.banned, "cache_clear", None)
        if banned is not None:
            banned()
        rng = np.random.default_rng(seed)
        board = Board.random(board_words(), rng)
        teams = {}
        for color in TEAMS:
            captain = ai.captain()
            captain.give_hint = timed(captain.give_hint, every)
            teams[color] = Team(color, AICaptain(captain), AIAgent(ai.agent()))
        seen = len(every)
        Game(board, teams, rng=rng, seed=seed).play()
        first.append(every[seen])
    return ai.captain_strategy, every, first


def timed(function, times: list[float]):
    """`function`, appending the seconds of each call to `times`."""
    def wrapper(*args, **kwargs):
        start = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            times.append(time.perf_counter() - start)
    return wrapper


def row(measure: str, value: str, cpu: str, target: str, ok: bool | None) -> str:
    verdict = "" if ok is None else ("pass" if ok else "FAIL")
    return f"{measure:<66} {value:>10} {cpu:>9} {target:>9}  {verdict}".rstrip()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--runs", type=int, default=5, help="timed launches (default 5)")
    p.add_argument("--games", type=int, default=50, help="AI-vs-AI games for the hint time (default 50)")
    p.add_argument("--skip-build", action="store_true", help="do not time the SBERT cache build")
    p.add_argument("--only", choices=("startup", "build", "hints", "blink"), help="run one measure only")
    p.add_argument("--sources", type=Path, default=None, metavar="DIR",
                   help="the datasets for the blink's runs with every dataset (e.g. ../shared/datasets)")
    p.add_argument("--torch-threads", type=int, metavar="N",
                   help="torch threads for the cache build (default: torch's own choice)")
    args = p.parse_args(argv)

    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at start, "
          f"Python {sys.version.split()[0]}", flush=True)
    lines, ok = [], True

    def wanted(measure: str) -> bool:
        return args.only in (None, measure)

    if wanted("startup"):
        walls, cpus = measure_startup(args.runs)
        startup = statistics.median(walls)
        ok &= startup <= 3.0
        lines.append(row(f"launch to first board, warm cache (median of {len(walls)})", f"{startup:.2f} s",
                         f"{statistics.median(cpus):.2f} s", "<= 3 s", startup <= 3.0))
        lines.append(row("  each launch (wall)", "", "", "", None) + " "
                     + " ".join(f"{t:.2f}" for t in walls))

    if wanted("build") and not args.skip_build:
        seconds, cpu, n_hints, n_words = measure_cache_build(args.torch_threads)
        ok &= seconds <= 60.0
        threads = f", {args.torch_threads} torch thread(s)" if args.torch_threads else ""
        lines.append(row(f"SBERT cache build, {n_hints} hints + {n_words} words{threads}", f"{seconds:.1f} s",
                         f"{cpu:.1f} s", "<= 60 s", seconds <= 60.0))

    if wanted("hints"):
        ok &= hint_rows(args.games, lines)

    if wanted("blink"):
        ok &= blink_rows(args.runs, args.sources, lines)

    print(row("measure", "wall", "CPU", "target", None) + "  result")
    print("-" * 104)
    print("\n".join(lines))
    print(f"load average at end: {os.getloadavg()[0]:.2f}")
    return 0 if ok else 1


def hint_rows(games: int, lines: list[str]) -> bool:
    """Measure the AI hint time, add its rows to `lines`, and say whether it meets the target."""
    name, every, first = measure_hints(games)
    median = statistics.median(every) * 1000
    lines.append(row(f"AI hint time, {name} captain, {len(every)} hints (median)", f"{median:.1f} ms",
                     "", "<= 20 ms", median <= 20.0))
    lines.append(row(f"  p90 of all hints, over {len(first)} AI-vs-AI games",
                     f"{np.percentile(every, 90) * 1000:.1f} ms", "", "", None))
    lines.append(row("  first hint of a game, cold filter (median)",
                     f"{statistics.median(first) * 1000:.1f} ms", "", "", None))
    return median <= 20.0


if __name__ == "__main__":
    sys.exit(main())
