"""Files written safely: atomic writes, temporaries swept once their writer is gone, checksums."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from support.console import warn

T = TypeVar("T")


def sha256_file(path: Path) -> str:
    """The SHA-256 of a file's bytes (hex), read a megabyte at a time."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


# A temporary carries its writer's pid (".sbert.npy.pid1234.x7k2.tmp"), so that one left by a
# killed writer (SIGKILL, power loss) is swept as soon as that pid is gone, and one that a live
# writer is filling is never touched, however long it takes. Temporaries named without a pid
# (older versions) are swept by age.
STALE_TEMPORARY = 3600  # seconds: a temporary without a pid this old was left by a writer killed long ago
_PID_MARK = re.compile(r"\.pid(\d+)\.")


def temporary_prefix(stem: str) -> str:
    """The start of a temporary's name (file or folder) that records this process as its writer."""
    return f"{stem}.pid{os.getpid()}."


def _umask() -> int:
    mask = os.umask(0o022)   # reading the umask means setting it: put it straight back
    os.umask(mask)
    return mask


_UMASK = _umask()


@contextlib.contextmanager
def temporary_beside(path: Path) -> Iterator[Path]:
    """A temporary file in the target's folder, removed unless it was renamed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    sweep_temporaries(path.parent)
    fd, name = tempfile.mkstemp(prefix=temporary_prefix(f".{path.name}"), suffix=".tmp", dir=path.parent)
    # Nothing that calls Python code comes between mkstemp and the try: a Ctrl-C is raised at such
    # a call (Path(name) was one), and would leave the temporary behind.
    try:
        try:
            os.fchmod(fd, 0o666 & ~_UMASK)   # the mode open() gives; mkstemp's 0600 hid reports and caches
        finally:
            os.close(fd)
        yield Path(name)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(name)


def sweep_temporaries(folder: Path) -> list[Path]:
    """Delete the temporaries in `folder` whose writer is gone (any target's); returns them."""
    try:
        entries = [e for e in folder.iterdir() if e.name.startswith(".")]
    except OSError:   # a folder that cannot be listed holds nothing to sweep
        return []
    swept = []
    for entry in entries:
        try:   # another process may be sweeping it too
            if not _abandoned(entry):
                continue
            if entry.is_dir():
                shutil.rmtree(entry)
            else:
                entry.unlink()
        except OSError:
            continue
        swept.append(entry)
    return swept


def _abandoned(entry: Path) -> bool:
    """Whether a dot-entry is a temporary whose writer is dead (or, named without a pid, old)."""
    if (mark := _PID_MARK.search(entry.name)) is not None:
        return (entry.name.endswith(".tmp") or entry.is_dir()) and not pid_alive(int(mark.group(1)))
    legacy = entry.name.endswith(".tmp") or entry.name.startswith(".fasttext-training-")
    return legacy and time.time() - entry.stat().st_mtime > STALE_TEMPORARY


def pid_alive(pid: int) -> bool:
    """Whether a process with this id runs (signal 0 checks without sending anything)."""
    if pid <= 0:   # 0 and below name process groups, never a writer
        return False
    try:
        os.kill(pid, 0)
    except PermissionError:   # another user's process
        return True
    except (ProcessLookupError, OverflowError):
        return False
    return True


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write a file so that readers see the old content or the new, never half."""
    with temporary_beside(path) as temporary:
        temporary.write_bytes(data)
        os.replace(temporary, path)


def load_or_set_aside(path: Path, parse: Callable[[Any], T], who: str, then: str = "") -> T | None:
    """What `parse` makes of the JSON file at `path` (a saved session); None when there is none. A
    file that cannot be read, or that `parse` refuses (ValueError), is moved to NAME.bad.EXT, so
    that nothing is lost and a new one can be written, with a line on stderr from `who` saying so
    (and what it does `then`)."""
    if not path.exists():
        return None
    try:
        return parse(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, RecursionError) as problem:
        aside = set_aside(path, lambda k: f"{path.stem}.bad{f'.{k}' if k > 1 else ''}{path.suffix}")
        kept = f"the file is kept as {aside.name}" if aside else "the file could not be moved aside"
        warn(f"{who}: cannot resume {path} ({problem}); {then}{kept}")
        return None


def set_aside(path: Path, name: Callable[[int], str]) -> Path | None:
    """Move a file that cannot be read beside itself, to the first free `name(k)` (k = 1, 2, ...:
    an earlier one is never written over); where it went, or None when it could not be moved."""
    for k in range(1, 100):
        aside = path.with_name(name(k))
        if not aside.exists():
            try:
                path.replace(aside)
            except OSError:
                return None
            return aside
    return None


def append_line(path: Path, line: str) -> None:
    """Append one line of text to a file (made with its folders when missing); OSError when it
    cannot be written.

    The line always starts on a line of its own, even after a half line that a killed writer
    left; a write cut short (a full disk) is undone, so as not to leave one.
    """
    data = (line + "\n").encode("utf-8")
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "ab+", buffering=0) as f:
        start = f.seek(0, os.SEEK_END)
        if start and (f.seek(start - 1), f.read(1))[1] != b"\n":
            data = b"\n" + data
        try:
            written = 0
            while written < len(data):
                written += f.write(data[written:])
        except OSError:
            with contextlib.suppress(OSError):
                f.truncate(start)
            raise
