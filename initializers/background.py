"""The corpus matrices built in a background process, while the game plays on what is quick.

A first game after the datasets arrive would wait ten minutes for the matrices made from the
corpus (the collocations, fastText, the double link and the combinations over them). Instead the
catalog plays on what loads or builds in seconds (SBERT, the norms, the phrases: `Catalog` with
`Settings.background`), and `start` runs `build` in a process of its own, at a lower priority.
Each matrix it finishes is cached as any other (written whole, then renamed), so a build killed
at any point loses only the matrix it was making, and the next start begins a new build that
loads what is done and goes on. One build runs at a time: its status file, `build.json` in the
cache folder, names its process while it lives; its lines go to `build.log`. When it is done it
leaves `build.joined`; the next start loads every matrix and says once that they joined.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from common import ROOT, atomic_write_bytes, pid_alive
from initializers.catalog import Catalog
from initializers.recipe import INITIALIZERS, sources_of
from initializers.settings import Settings
from initializers.sources import MissingSource

# What waits for the background: every initializer made from the corpus, its parts before it.
CORPUS_MADE = tuple(name for name in INITIALIZERS if "corpus" in sources_of(name))
STATUS, LOG, JOINED, SETTINGS = "build.json", "build.log", "build.joined", "build.settings.json"

_children: dict[int, subprocess.Popen] = {}   # builders started here: a zombie is not a live one


def status(cache_dir: Path) -> dict[str, Any] | None:
    """The running build's status (pid, started, done, total, now), or None when none runs."""
    try:
        state = json.loads((Path(cache_dir) / STATUS).read_text())
        pid = int(state["pid"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    alive = _children[pid].poll() is None if pid in _children else pid_alive(pid)
    return state if alive else None


def start(settings: Settings, names: Sequence[str] = CORPUS_MADE) -> str:
    """Start the build of the corpus matrices in a background process unless one runs; the line
    to say to the player, which names the matrices left to it (`names`: those the game's catalog
    found wanting). The process is waited for in a thread, so that it leaves no zombie behind."""
    cache_dir = Path(settings.cache_dir)
    names = [name for name in CORPUS_MADE if name in names]   # the parts before what they make
    if (state := status(cache_dir)) is None:
        cache_dir.mkdir(parents=True, exist_ok=True)
        # The build gets the game's settings whole (its word lists too): what it caches is then
        # what the next game's catalog looks for.
        chosen = {key: getattr(settings, key) for key in ("sources", "cache_dir", "sbert_model",
                                                          "fasttext_model", "hints", "words")}
        atomic_write_bytes(cache_dir / SETTINGS, json.dumps(
            {**{k: (str(v) if isinstance(v, Path) else list(v) if isinstance(v, tuple) else v)
                for k, v in chosen.items()}, "names": names}).encode())
        command = [sys.executable, "-c", f"import sys; sys.path.insert(0, {str(ROOT)!r}); "
                   "from initializers.background import main; sys.exit(main(sys.argv[1:]))",
                   str(cache_dir / SETTINGS)]
        with open(cache_dir / LOG, "ab") as log:
            child = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                     start_new_session=True)   # a Ctrl-C at the game's prompt spares it
        _children[child.pid] = child
        threading.Thread(target=child.wait, name="build reaper", daemon=True).start()
        state = {"pid": child.pid, "done": 0, "total": len(names)}
    return _building(state.get("names") or names, state, cache_dir)


def _building(names: Sequence[str], state: dict[str, Any], cache_dir: Path) -> str:
    """The line that says which matrices a build makes, how far it is, and where its log is."""
    one = len(names) == 1
    what = f"The matrix {names[0]} is" if one else f"{len(names)} matrices ({', '.join(names)}) are"
    return (f"{what} being built in the background ({state.get('done', 0)} of "
            f"{state.get('total', len(names))} done, "
            f"process {state['pid']}; {cache_dir / LOG}): this game plays without them, the next one "
            "with them.")


def joined(cache_dir: Path) -> list[str]:
    """The matrices a finished build made, once: the marker is removed as it is read."""
    marker = Path(cache_dir) / JOINED
    try:
        names = marker.read_text().split()
        marker.unlink()
    except OSError:
        return []
    return names


def build(settings: Settings, say=None, names: Sequence[str] = CORPUS_MADE) -> list[str]:
    """Build (or load, when cached) the corpus-made matrices among `names`, one after another,
    keeping the status file; leave the marker of a finished build. Returns the matrices now
    cached; [] when another build holds the status file."""
    cache_dir = Path(settings.cache_dir)
    say = say or (lambda line: print(line, file=sys.stderr, flush=True))
    if not _take(cache_dir):
        return []
    try:
        catalog = Catalog(replace(settings, background=False), say=say)
        names = [name for name in CORPUS_MADE if name in names and catalog.missing(name) is None]
        started, built = time.time(), []
        for done, name in enumerate(names):
            _write_status(cache_dir, {"pid": os.getpid(), "started": started, "done": done,
                                      "total": len(names), "now": name, "names": names})
            say(f"build: {name} ({done + 1} of {len(names)}), {time.time() - started:.0f} s in")
            with contextlib.suppress(MissingSource):   # said by the catalog; the rest go on
                catalog.table(name)
                built.append(name)
        atomic_write_bytes(cache_dir / JOINED, " ".join(built).encode())
        say(f"build: done in {time.time() - started:.0f} s: {', '.join(built)}")
        return built
    finally:
        (cache_dir / STATUS).unlink(missing_ok=True)


def _take(cache_dir: Path) -> bool:
    """Hold the status file for this process: made exclusively, or taken over from a build that
    died (a killed one leaves it)."""
    cache_dir.mkdir(parents=True, exist_ok=True)
    for _ in range(2):
        try:
            fd = os.open(cache_dir / STATUS, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            if status(cache_dir) is not None:
                return False
            (cache_dir / STATUS).unlink(missing_ok=True)   # a dead build's
            continue
        with os.fdopen(fd, "w") as f:
            json.dump({"pid": os.getpid(), "started": time.time(), "done": 0, "total": len(CORPUS_MADE)}, f)
        return True
    return False


def _write_status(cache_dir: Path, state: dict[str, Any]) -> None:
    with contextlib.suppress(OSError):
        atomic_write_bytes(cache_dir / STATUS, json.dumps(state).encode())


def main(argv: list[str] | None = None) -> int:
    """The background process: `build` with the game's settings (a JSON file), at a lower priority."""
    p = argparse.ArgumentParser(description="Build the corpus matrices (started by the game).")
    p.add_argument("settings", type=Path, help="the game's settings, as `start` writes them")
    chosen = json.loads(p.parse_args(argv).settings.read_text())
    names = chosen.pop("names", CORPUS_MADE)
    with contextlib.suppress(OSError, AttributeError):
        os.nice(10)   # the game, in the foreground, comes first
    build(Settings(**chosen), names=names)
    return 0
