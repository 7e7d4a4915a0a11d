"""Dask on this machine: the bench's games and the corpus counts with 1 and 2 workers, against
one process and against the fork pool that `--jobs` was before Dask
(docs/decisions/0028-dask.md). Writes reports/dask.md.

    python -m lab.benchmarks.dask_scaling --sources ../shared/datasets
    python -m lab.benchmarks.dask_scaling --initializers sbert --seeds 2 --no-counts   # a minute

Each figure is wall time on a machine shared with other jobs: the load average at the start and
the end is written beside them. "Start" is starting the LocalCluster and scattering the weights
(or, for counting, the hint rows and the token ranges); the games and counts are timed apart.
Memory per worker is each worker's resident set after the work (psutil).
"""

from __future__ import annotations

import argparse
import dataclasses
import multiprocessing
import os
import sys
import time
from pathlib import Path

import model
from common import BOARD_WORDS_PATH, CACHE_DIR, atomic_write_bytes, cluster, load_words
from lab.evaluation.executor import DaskExecutor, Executor
from lab.evaluation.loading import load_all
from lab.evaluation.runner import Setup, pairs_of, solo_games
from lab.evaluation.specs import Spec

REPORT = Path(__file__).resolve().parents[2] / "reports" / "dask.md"


def rss_mb() -> float:
    """This process's resident set, in MB (run on each worker)."""
    import psutil

    return psutil.Process().memory_info().rss / 1e6


def load_average() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


# --- the bench ---------------------------------------------------------------------------


def the_setup(args: argparse.Namespace) -> Setup:
    words = load_words(BOARD_WORDS_PATH)
    weights, _, _ = load_all(args.initializers, args.sources, None, required=True, words=words,
                             cache_dir=args.cache_dir)
    return Setup(weights, [Spec(c, i) for c in model.CAPTAINS for i in weights],
                 [Spec(a, i) for a in model.AGENTS for i in weights],
                 list(range(100_000, 100_000 + args.seeds)), words)


_FORKED: Setup | None = None


def _fork_work(item):
    return item, solo_games(_FORKED, item)


def fork_pool(setup: Setup, jobs: int) -> tuple[float, dict]:
    """Today's `--jobs` before Dask: a fork pool over pairs (lab/evaluation/runner.py as it was)."""
    global _FORKED
    _FORKED = setup
    start = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        results = dict(pool.imap(_fork_work, pairs_of(setup)))
    return time.perf_counter() - start, results


def outcomes(results: dict) -> dict:
    return {item: [(g.won, [(h.word, h.outcomes) for h in g.hints]) for g in games]
            for item, games in results.items()}


def bench_rows(setup: Setup) -> list[dict]:
    """Games in one process, on Dask with 1 and 2 workers, and in the fork pool with 2."""
    items, rows = pairs_of(setup), []
    start = time.perf_counter()
    reference = Executor().run(setup, solo_games, items)
    rows.append({"how": "one process (--jobs 1)", "workers": 1, "start": 0.0,
                 "work": time.perf_counter() - start, "memory": [rss_mb()], "same": True})
    for workers in (1, 2):
        start = time.perf_counter()
        with cluster.client(workers=workers) as connection:
            games = DaskExecutor(connection)
            # One board for every pair first: each worker imports lemminflect (and spaCy, torch)
            # and builds the hint filter's lemma index once, as the one process did while loading.
            warm = dataclasses.replace(setup, seeds=[setup.seeds[0] - 1])
            games.run(warm, solo_games, items)
            started = time.perf_counter()
            results = games.run(setup, solo_games, items)
            work = time.perf_counter() - started
            memory = list(connection.run(rss_mb).values())
        rows.append({"how": f"Dask LocalCluster, {workers} worker{'s' * (workers > 1)}", "workers": workers,
                     "start": started - start, "work": work, "memory": memory,
                     "same": outcomes(results) == outcomes(reference)})
    work, results = fork_pool(setup, 2)
    rows.append({"how": "fork pool before Dask (--jobs 2)", "workers": 2, "start": 0.0, "work": work,
                 "memory": [], "same": outcomes(results) == outcomes(reference)})
    return rows


# --- the counts --------------------------------------------------------------------------


def count_rows(cache_dir: Path) -> list[dict]:
    """Both collocation counts of the cached corpus: in one process, and on 1 and 2 workers."""
    from common import hint_words
    from initializers.cache import load_arrays, read_sidecar
    from initializers.corpus import Corpus, neighbour_counts, sentence_counts
    from initializers.partitioned import partitioned_counts

    path = cache_dir / "corpus.npz"
    arrays = load_arrays(path, read_sidecar(path)["sha256"])
    corpus, hints = Corpus(tuple(arrays["lexicon"].tolist()), arrays["tokens"]), hint_words()
    start = time.perf_counter()
    reference = [neighbour_counts(corpus, hints), sentence_counts(corpus, hints)]
    rows = [{"how": "one process (today's --rebuild)", "workers": 1, "start": 0.0,
             "work": time.perf_counter() - start, "memory": [rss_mb()], "same": True}]
    for workers in (1, 2):
        start = time.perf_counter()
        with cluster.client(workers=workers) as connection:
            started = time.perf_counter()
            counts = [partitioned_counts(corpus, hints, kind, connection)
                      for kind in ("neighbour", "sentence")]
            work = time.perf_counter() - started
            memory = list(connection.run(rss_mb).values())
        rows.append({"how": f"Dask LocalCluster, {workers} worker{'s' * (workers > 1)}", "workers": workers,
                     "start": started - start, "work": work, "memory": memory,
                     "same": all((a != b).nnz == 0 for a, b in zip(counts, reference, strict=True))})
    return rows


# --- the report --------------------------------------------------------------------------


def table(rows: list[dict]) -> list[str]:
    one = next(r["work"] for r in rows if r["how"].startswith("one process"))
    fork = next((r["work"] for r in rows if r["how"].startswith("fork")), None)
    lines = ["| how | start s | work s | speed-up vs one process | vs fork pool | memory per worker MB "
             "| same results |", "| --- | ---: | ---: | ---: | ---: | --- | --- |"]
    for r in rows:
        against = f"{r['work'] / fork:.2f}×" if fork and r["workers"] == 2 else ""
        memory = ", ".join(f"{m:.0f}" for m in r["memory"]) or "shared (fork)"
        lines.append(f"| {r['how']} | {r['start']:.1f} | {r['work']:.1f} | {one / r['work']:.2f}× "
                     f"| {against} | {memory} | {'yes' if r['same'] else 'NO'} |")
    return lines


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sources", type=Path, default=Path("../shared/datasets"))
    p.add_argument("--cache-dir", type=Path, default=CACHE_DIR)
    p.add_argument("--initializers", nargs="+", default=["sbert", "fasttext"])
    p.add_argument("--seeds", type=int, default=3)
    p.add_argument("--no-counts", action="store_true")
    p.add_argument("--out", type=Path, default=REPORT)
    args = p.parse_args(argv)
    before = load_average()
    setup = the_setup(args)
    lines = ["# Dask on this machine", "",
             f"Command: `python -m lab.benchmarks.dask_scaling {' '.join(argv)}`; {os.cpu_count()} CPUs; "
             f"load average (1, 5, 15 min) {before} at the start.", "",
             f"## The bench: {len(pairs_of(setup))} pairs × {len(setup.seeds)} boards, single-team "
             f"({', '.join(setup.weights)})", "", *table(bench_rows(setup)), ""]
    if not args.no_counts:
        lines += ["## Collocation counts of the cached corpus (neighbour and sentence)", "",
                  *table(count_rows(args.cache_dir)), ""]
    lines += [f"Load average at the end: {load_average()}.", ""]
    atomic_write_bytes(args.out, "\n".join(lines).encode())
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
