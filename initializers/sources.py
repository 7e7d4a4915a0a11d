"""Where the sources live (the user's sources folder), their fingerprints, and what goes wrong with them."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from common import COMMAND, SOURCES_DIR, sha256_file

# --- where the sources live -------------------------------------------------------------


@dataclass(frozen=True)
class Source:
    """A dataset the user puts in the sources folder, and how to get it."""

    name: str
    folder: str
    what: str
    download: str
    patterns: tuple[str, ...]

    def files(self, root: Path) -> list[Path]:
        """The source's files under `root`, sorted; empty when it is missing."""
        folder = root / self.folder
        if not folder.is_dir():
            return []
        found = {p for pattern in self.patterns for p in folder.glob(pattern)}
        return sorted(p for p in found if p.is_file() and not p.name.startswith(".")
                      and p.suffix.lower() not in (".md", ".json", ".npy"))

    def missing(self, root: Path) -> str:
        return (f"no {self.what} in {root / self.folder}/: {download_command(root, self.name)} fetches "
                f"it; or download {self.download} and put the files in that folder")


def download_command(root: Path, *names: str) -> str:
    """The command that downloads these sources into `root` (download.py)."""
    where = "" if Path(root).resolve() == SOURCES_DIR.resolve() else f" --sources {root}"
    return " ".join((f"{COMMAND} datasets download", *names)) + where


SOURCES = {
    "usf": Source("usf", "usf", "USF free association norms",
                  "Appendix A (the 8 'Cue_Target_Pairs' files, A-B … T-Z) from "
                  "http://w3.usf.edu/FreeAssociation/", ("*",)),
    "eat": Source("eat", "eat", "Edinburgh Associative Thesaurus",
                  "the EAT Pajek network EATnew.zip (e.g. from github.com/bavla/Nets, "
                  "data/Pajek/dic/EAT/)", ("*.zip", "*.net")),
    "corpus": Source("corpus", "corpus", "text corpus",
                     "plain-text books (.txt or .txt.gz, e.g. from https://www.gutenberg.org; "
                     "any English plain text works)", ("**/*.txt", "**/*.txt.gz", "**/*.gz")),
}


# --- fingerprints of source files -------------------------------------------------------


def fingerprint(path: Path, root: Path) -> dict[str, Any]:
    """Name (relative to the sources folder), size, modification time and SHA-256 of a file."""
    stat = path.stat()
    return {"path": _relative(path, root), "size": stat.st_size, "mtime_ns": stat.st_mtime_ns,
            "sha256": sha256_file(path)}


@functools.lru_cache(maxsize=65536)   # every initializer of the corpus names its 359 books: once
def _relative(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(_resolved(root)).as_posix()
    except ValueError:
        return path.name


@functools.lru_cache(maxsize=64)
def _resolved(root: Path) -> Path:
    return root.resolve()


def sources_changed(stored: list[dict[str, Any]], files: Sequence[Path], root: Path) -> str | None:
    """Why the source files differ from the stored fingerprints, or None when they match.

    Cheap on every launch: a file whose name, size and modification time match is
    trusted without reading it; only a file whose time changed but size did not is
    hashed again, as git's index does. So touching or copying a source costs one
    hash, and editing it is always caught.
    """
    by_path = {entry["path"]: entry for entry in stored}
    names = [_relative(p, root) for p in files]
    if set(names) != set(by_path):
        added, removed = sorted(set(names) - set(by_path)), sorted(set(by_path) - set(names))
        return f"source files changed ({', '.join((added + removed)[:2])})"
    for path, name in zip(files, names, strict=True):
        entry, stat = by_path[name], path.stat()
        if stat.st_size != entry["size"]:
            return f"source file {name} changed"
        if stat.st_mtime_ns != entry["mtime_ns"]:
            if sha256_file(path) != entry["sha256"]:
                return f"source file {name} changed"
            entry["mtime_ns"] = stat.st_mtime_ns  # same bytes: remember the new time
    return None


class SourceError(ValueError):
    """A source file that cannot be read; the message names it."""


class BuildError(ValueError):
    """Sources that were read, but from which an initializer could not be built; the message says why."""


class MissingSource(ValueError):
    """An initializer was asked for whose source is not in the sources folder."""
