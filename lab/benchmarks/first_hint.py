"""From a fresh clone to the first hint, the download of the datasets, and the build with all of them.

    python -m lab.benchmarks.first_hint                    # first hint: cold and warm, then the download
    python -m lab.benchmarks.first_hint --without-shipped  # also cold without data/sbert_en.npy (~1 min)
    python -m lab.benchmarks.first_hint --full-build       # also every dataset: first hint, full AI (~3 min)
    python -m lab.benchmarks.first_hint --commit 231e949 --skip-download  # the same, for an older commit
    python -m lab.benchmarks.first_hint --only first-run --think 0 1   # a first run in a terminal

A fresh clone is the committed tree (`git archive HEAD`) in a temporary folder: no data/cache,
no data/sources. Each measure runs `python main.py --red ai:ai --blue ai:ai --seed 1 --no-log`
there, as a user would after the install command, and reads its stdout until the first hint
("RED captain: WORD N"). Cold: the first run of the clone; warm: the next ones (median of
`--runs`). The warm run is repeated under `-X importtime` to list what it imports of spaCy and
torch (nothing, unless a word needs encoding). The libraries' files are in the OS page cache
from earlier runs: a machine just booted reads them from disk first.

A first run in a terminal (`--only first-run`): `python main.py` in a pseudo-terminal of a fresh
clone, as a newcomer runs it: each question at the start answered with Enter `--think` seconds
after it appears (0: at once, the worst case; a person reads the few lines first), then the
seconds from the last Enter to the first hint (target: 3), and the questions asked (target: 3).

The download runs `python main.py datasets download` against the tests' local publisher
(tests/publisher.py) serving ../shared/datasets under the publishers' paths, every book, with
`--pause 0`; then once more (everything present: the check of what is there). The pause the real
download makes between two requests to one server is added up separately.

Targets: the first hint within 10 s cold; a full build within 3 minutes (stretch).
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from lab.benchmarks.startup import HINT_LINE, launch_until, user_env

ROOT = Path(__file__).resolve().parents[2]

GAME = ["main.py", "--red", "ai:ai", "--blue", "ai:ai", "--seed", "1", "--no-log"]


def fresh_clone(folder: Path, commit: str = "HEAD") -> Path:
    """The tree of `commit` of this repository, as a fresh clone has it, in `folder`."""
    archive = subprocess.run(["git", "archive", "--format=tar", commit], cwd=ROOT, capture_output=True,
                             check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    return folder


def to_first_hint(clone: Path, extra: list[str] = (), python: list[str] = (), timeout: float = 900
                  ) -> tuple[float, float, str]:
    """Seconds from launching the game in `clone` to its first hint on stdout, the CPU seconds it
    used by then (steadier than the wall time on a shared machine), and its stderr."""
    seconds, cpu, err = launch_until([sys.executable, *python, *GAME, *extra], clone, HINT_LINE, timeout)
    if seconds is None:
        raise RuntimeError(f"no hint from the game: {err[-2000:]}")
    return seconds, cpu, err


def heavy_imports(clone: Path) -> list[str]:
    """The spaCy and torch modules the game in `clone` imports before its first hint."""
    _, _, err = to_first_hint(clone, python=["-X", "importtime"])
    names = (line.rsplit("|", 1)[-1].strip() for line in err.splitlines() if line.startswith("import time:"))
    return sorted({n for n in names if n.split(".")[0] in ("spacy", "torch") and n not in ("spacy",)})


def first_run(clone: Path, think: float, timeout: float = 300) -> tuple[float, int]:
    """A first run of `python main.py` in a terminal of `clone`: each question answered with Enter
    `think` seconds after it came; the seconds from the last Enter to the first hint, and the
    number of questions."""
    from tests.helpers import Console  # a pseudo-terminal: the game asks what it asks a person

    console = Console(["--seed", "4", "--no-log"], main=clone / "main.py", env=user_env())
    try:
        questions, last = 0, time.perf_counter()
        while console.expect(r"\]> ", HINT_LINE.pattern.lstrip("^").replace("$", ""),
                             timeout=timeout)[0] == 0:
            time.sleep(think)
            console.type("")
            questions, last = questions + 1, time.perf_counter()
        return time.perf_counter() - last, questions
    finally:
        console.close()


def first_run_rows(commit: str, thinks: list[float], folder: Path) -> tuple[list[str], bool]:
    """The rows of the first-run measures, each on a fresh clone; whether the targets are met."""
    lines, ok = [], True
    for k, think in enumerate(thinks):
        seconds, questions = first_run(fresh_clone(folder / f"first-run-{k}", commit), think)
        ok &= seconds <= 3.0 and questions <= 3
        lines.append(row(f"first run in a terminal, Enter {think:g} s after each question: "
                         f"{questions} questions, then", f"{seconds:.2f} s", "", "<= 3 s"))
    return lines, ok


def measure_download(shared: Path, folder: Path) -> tuple[float, float, int, int]:
    """Seconds of a whole download from the local publisher, and of a second run; files, bytes."""
    from initializers import fetch
    from tests.publisher import served, serving  # run from the clone's folder, as benchmarks are

    books = fetch.gutenberg_books()
    command = [sys.executable, str(ROOT / "main.py"), "datasets", "download", "--sources", str(folder),
               "--pause", "0"]
    with serving(served(shared, books)) as server:
        env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
        env[fetch.BASE_URL_VARIABLE] = server.url
        times = []
        for _ in range(2):
            start = time.perf_counter()
            subprocess.run(command, env=env, check=True, capture_output=True)
            times.append(time.perf_counter() - start)
        files = len(server.requests)
    size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
    return times[0], times[1], files, size


def full_ai_ready(cache: Path, start: float, timeout: float = 3600) -> float:
    """Seconds from `start` until the background build in `cache` (initializers/background.py) left
    its marker: the next game plays with every matrix."""
    while not (cache / "build.joined").exists():
        if time.perf_counter() - start > timeout:
            raise RuntimeError(f"no finished build in {cache} after {timeout:.0f} s")
        time.sleep(1)
    return time.perf_counter() - start


def row(measure: str, value: str, cpu: str = "", target: str = "") -> str:
    return f"{measure:<78} {value:>9} {cpu:>9} {target:>9}"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--runs", type=int, default=5, help="warm launches (default 5)")
    p.add_argument("--commit", default="HEAD", help="the commit to measure (default HEAD; e.g. one before)")
    p.add_argument("--without-shipped", action="store_true",
                   help="also time a cold start without the shipped SBERT embeddings (as before them)")
    p.add_argument("--full-build", action="store_true",
                   help="also time the first game with every dataset (--sources ../shared/datasets)")
    p.add_argument("--shared", type=Path, default=ROOT.parent / "shared" / "datasets")
    p.add_argument("--skip-download", action="store_true")
    p.add_argument("--only", choices=("first-run",), help="only the first run in a terminal")
    p.add_argument("--think", type=float, nargs="+", default=[0.0, 1.0], metavar="SECONDS",
                   help="a first run's pause before each Enter (default 0 and 1)")
    args = p.parse_args(argv)

    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at start, "
          f"Python {sys.version.split()[0]}", flush=True)
    with tempfile.TemporaryDirectory() as folder:
        lines, ok = first_run_rows(args.commit, args.think, Path(folder))
        if args.only:
            return report(lines, ok)
        more, more_ok = clone_rows(args, Path(folder))
    return report(lines + more, ok and more_ok)


def clone_rows(args: argparse.Namespace, folder: Path) -> tuple[list[str], bool]:
    """The rows of the measures on a fresh clone run without a terminal; whether the targets are met."""
    lines, ok = [], True
    cold_imports = heavy_imports(fresh_clone(folder / "first", args.commit))
    clone = fresh_clone(folder / "clone", args.commit)
    cold, cpu, _ = to_first_hint(clone)
    ok &= cold <= 10.0
    lines.append(row("first hint, cold: fresh clone, no data/cache", f"{cold:.2f} s", f"{cpu:.2f} s",
                     "<= 10 s"))
    warm = [to_first_hint(clone)[:2] for _ in range(args.runs)]
    lines.append(row(f"first hint, warm (median of {len(warm)})",
                     f"{statistics.median(w for w, _ in warm):.2f} s",
                     f"{statistics.median(c for _, c in warm):.2f} s"))
    lines.append(row("  spaCy or torch modules imported by a cold start / a warm one",
                     f"{len(cold_imports)} / {len(heavy_imports(clone))}"))
    if args.without_shipped:
        bare = fresh_clone(folder / "bare", args.commit)
        (bare / "data" / "sbert_en.npy").unlink(missing_ok=True)
        seconds, cpu, _ = to_first_hint(bare)
        lines.append(row("first hint, cold, without the shipped embeddings (encoding 10,454 words)",
                         f"{seconds:.1f} s", f"{cpu:.1f} s"))
    if not args.skip_download and args.shared.is_dir():
        first, second, requests, size = measure_download(args.shared, folder / "sources")
        from initializers import fetch

        lines.append(row(f"download from the local publisher, {requests} files, pause 0",
                         f"{first:.1f} s"))
        lines.append(row("  the same command again (everything there: checked, nothing fetched)",
                         f"{second:.1f} s"))
        lines.append(row(f"  on disk: {size / 1e6:.1f} MB; the real download's pauses add "
                         f"{(requests - 3) * fetch.PAUSE / 60:.0f} min", ""))
    if args.full_build:
        start = time.perf_counter()
        seconds, cpu, _ = to_first_hint(clone, ["--sources", str(args.shared)], timeout=3600)
        lines.append(row("first hint with every dataset, empty data/cache (plays at once)",
                         f"{seconds:.1f} s", f"{cpu:.1f} s"))
        ready = full_ai_ready(clone / "data" / "cache", start)
        ok &= ready <= 180
        lines.append(row("  the full AI ready: the background build of the corpus matrices done",
                         f"{ready:.0f} s", "", "<= 180 s"))
    return lines, ok


def report(lines: list[str], ok: bool) -> int:
    """Print the rows under their header; the exit status."""
    print(row("measure", "wall", "CPU", "target"))
    print("-" * 108)
    print("\n".join(lines))
    print(f"load average at end: {os.getloadavg()[0]:.2f}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
