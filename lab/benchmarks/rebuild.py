"""Time and peak memory of a full rebuild of every initializer, and of on-demand board words.

    python -m lab.benchmarks.rebuild                       # from ../shared/datasets into a temporary cache
    python -m lab.benchmarks.rebuild --cache-dir data/cache   # ... and keep the caches for the game
    python -m lab.benchmarks.rebuild --skip fasttext       # reuse a cached fastText model

Each step runs in its own process, so that its peak memory (ru_maxrss, from
wait4) and CPU time are its own. Steps run in dependency order; each later
step reads the caches the earlier ones wrote. Then a fresh process measures
the warm start (loading the default weights from cache, as the game does)
and the time to build columns for two boards of 25 words outside
data/board_words_en.txt, plus rows for hints outside the vocabulary.

Targets (this 2-core machine): everything but fastText training
<= 3 min, all <= 10 min, peak memory <= 4 GB; 25 unseen words <= 1.5 s.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

STEPS = ("corpus", "word_collocations", "sentence_collocations", "fasttext", "association", "eat",
         "sbert", "direct", "double_link", "combined")

# Words outside data/board_words_en.txt: some in the hint vocabulary, some not even there.
UNSEEN = ("tornado", "wizard", "penguin", "lantern", "submarine", "avalanche", "lighthouse", "meteor",
          "dragonfly", "igloo", "jellyfish", "saxophone", "scarecrow", "trampoline", "zeppelin",
          "origami", "quasar", "kazoo", "xylophone", "harbour", "blizzard", "pyramid", "mermaid",
          "canyon", "falcon")
UNSEEN_2 = ("orchestra", "parachute", "glacier", "volleyball", "dinosaur", "emerald", "fireworks",
            "hammock", "jigsaw", "marathon", "noodle", "peacock", "quicksand", "rainbow", "skeleton",
            "telescope", "walrus", "trombone", "gondola", "yeti", "sombrero", "hurricane", "labyrinth",
            "tarantula", "unicorn")
OUT_OF_VOCABULARY_HINTS = ("poseidon", "tsunami", "snorkel", "hogwarts", "zxqv")


def run_step(step: str, sources: Path, cache_dir: Path) -> dict:
    """Run one step in a child process; its wall time, CPU time and peak resident memory."""
    # A module run from the clone's folder, where the game's modules are (not a script in lab/).
    command = [sys.executable, "-m", "lab.benchmarks.rebuild", "--step", step,
               "--sources", str(sources.resolve()), "--cache-dir", str(cache_dir.resolve())]
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    output = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"step {step} failed (exit {child.returncode})")
    result = json.loads(output.strip().splitlines()[-1]) if output.strip() else {}
    return {"step": step, "wall_s": wall, "cpu_s": usage.ru_utime + usage.ru_stime,
            "peak_mb": usage.ru_maxrss / 1024, **result}


def step(name: str, sources: Path, cache_dir: Path) -> dict:
    """In the child: rebuild one initializer (or the lemmatised corpus), or measure on-demand words."""
    import datasets

    if name == "on_demand":
        return on_demand(sources, cache_dir)
    catalog = datasets.Catalog(datasets.Settings(sources, cache_dir, rebuild=[name]))
    if name == "corpus":
        corpus = catalog.corpus()
        return {"tokens": int(len(corpus.tokens)), "lemmas": len(corpus.lexicon)}
    catalog.rebuild = {name}   # only this step: its parts come from the caches just written
    table = catalog.table(name)
    return {"density": float((table.matrix > 0).mean()), "max": float(table.matrix.max())}


def on_demand(sources: Path, cache_dir: Path) -> dict:
    """Warm start, then columns for two boards of unseen words and rows for unknown hints."""
    import datasets
    from common import board_words

    assert not set(UNSEEN + UNSEEN_2) & set(board_words()), "the unseen words must be unseen"
    start = time.perf_counter()
    weights = datasets.load_weights(sources=sources, cache_dir=cache_dir)
    warm_start = time.perf_counter() - start
    timings = {"warm_start_s": warm_start, "initializer": weights.name}
    for label, board in (("first_25_unseen_s", UNSEEN), ("second_25_unseen_s", UNSEEN_2)):
        start = time.perf_counter()
        weights.add_words(list(board))
        timings[label] = time.perf_counter() - start
    rows, seconds = [], []
    for hint in OUT_OF_VOCABULARY_HINTS:
        start = time.perf_counter()
        rows.append(weights.hint_row(hint, list(UNSEEN)))
        seconds.append(time.perf_counter() - start)
    timings["first_oov_hint_s"] = seconds[0]
    timings["next_oov_hints_s"] = sorted(seconds[1:])[len(seconds[1:]) // 2]
    column = weights.board_matrix(["lighthouse"])[:, 0]
    timings["lighthouse_top_hints"] = [weights.hints[i] for i in column.argsort()[::-1][:5]]
    timings["poseidon_best_card"] = UNSEEN[int(rows[0].argmax())]
    return timings


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sources", type=Path, default=ROOT.parent / "shared" / "datasets")
    p.add_argument("--cache-dir", type=Path, default=None,
                   help="where to build (default: a temporary folder, removed afterwards)")
    p.add_argument("--skip", nargs="*", default=[], choices=STEPS,
                   help="steps to leave out (their caches must already be in --cache-dir)")
    p.add_argument("--step", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.step:
        print(json.dumps(step(args.step, args.sources, args.cache_dir)))
        return 0
    if not args.sources.is_dir():
        print(f"no datasets at {args.sources}", file=sys.stderr)
        return 2
    cache_dir = args.cache_dir or Path(tempfile.mkdtemp(prefix="codenames-rebuild-"))
    print(f"sources {args.sources}, cache {cache_dir}, {os.cpu_count()} cores, "
          f"load average before {os.getloadavg()[0]:.1f}")
    results = []
    try:
        for name in STEPS:
            if name in args.skip:
                continue
            result = run_step(name, args.sources, cache_dir)
            results.append(result)
            print(f"{name:<22} {result['wall_s']:7.1f} s wall {result['cpu_s']:7.1f} s CPU "
                  f"{result['peak_mb']:7.0f} MB peak", flush=True)
        demand = run_step("on_demand", args.sources, cache_dir)
    finally:
        if args.cache_dir is None:
            shutil.rmtree(cache_dir, ignore_errors=True)
    but_fasttext = [r for r in results if r["step"] != "fasttext"]
    total = sum(r["wall_s"] for r in results)
    print(f"{'all but fastText':<22} {sum(r['wall_s'] for r in but_fasttext):7.1f} s wall "
          f"{sum(r['cpu_s'] for r in but_fasttext):7.1f} s CPU   (target <= 180 s)")
    print(f"{'all':<22} {total:7.1f} s wall {sum(r['cpu_s'] for r in results):7.1f} s CPU   "
          f"(target <= 600 s)")
    print(f"{'peak memory':<22} {max(r['peak_mb'] for r in results):7.0f} MB          (target <= 4096 MB)")
    print(f"warm start (load {demand['initializer']} from cache): {demand['warm_start_s']:.2f} s")
    print(f"25 unseen board words: first board {demand['first_25_unseen_s']:.2f} s (loads the on-demand "
          f"caches and models), second board {demand['second_25_unseen_s']:.2f} s   (target <= 1.5 s)")
    print(f"a hint outside the vocabulary: first {demand['first_oov_hint_s']:.2f} s (loads the SBERT model), "
          f"then {demand['next_oov_hints_s'] * 1000:.0f} ms (median)")
    print(f"sanity: LIGHTHOUSE's top hints {demand['lighthouse_top_hints']}; "
          f"POSEIDON points to {demand['poseidon_best_card']}")
    print(f"load average after {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
