"""Cache files beside the matrices: a matrix or arrays with a checksummed JSON sidecar, read back only
when the sidecar vouches for them."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from common import atomic_write_bytes, sha256_file, temporary_beside

# --- caches beside the matrices --------------------------------------------------------------------


def save_matrix(path: Path, matrix: np.ndarray, meta: dict[str, Any], by_column: bool = False) -> None:
    """Save a matrix as `.npy` with a JSON sidecar that names it and records its checksum, and the
    file's size and modification time (`unchanged`). `by_column` writes it column-major, as
    `model.Weights` holds a hint × word matrix, so that it is read back without a copy.

    The matrix is written first and the sidecar last, each atomically: a cache is
    trusted only when its sidecar exists and the checksum matches, so a rebuild
    killed at any point leaves the old cache or none.
    """
    with temporary_beside(path) as temporary:
        with open(temporary, "wb") as f:
            np.save(f, np.asfortranarray(matrix) if by_column else np.ascontiguousarray(matrix))
        meta = {**meta, "shape": list(matrix.shape), "dtype": str(matrix.dtype),
                "sha256": (checksum := sha256_file(temporary)), "stat": file_stat(temporary, checksum)}
        sidecar(path).unlink(missing_ok=True)
        os.replace(temporary, path)
    atomic_write_bytes(sidecar(path), json.dumps(meta, indent=1, sort_keys=True).encode())


def file_stat(path: Path, checksum: str | None = None) -> list:
    """A file's size and modification time (ns), and the checksum they vouch for (`unchanged`)."""
    stat = path.stat()
    return [stat.st_size, stat.st_mtime_ns, checksum]


def sidecar(path: Path) -> Path:
    """The JSON metadata file beside a cached matrix."""
    return path.with_suffix(".json")


class StaleCache(Exception):
    """A cache that is missing, corrupt or built from other inputs; the message says which."""


NO_CACHE_YET = "no cache yet"   # the one reason not worth a line: a first build, nothing was lost


def missing_sidecar(path: Path) -> None:
    """Raise StaleCache when the sidecar of `path` is missing: "no cache yet" only when `path` is too."""
    if not sidecar(path).exists():
        raise StaleCache(f"{sidecar(path).name} is missing" if path.exists() else NO_CACHE_YET)


def load_matrix(path: Path, expected: dict[str, Any], mapped: bool = False,
                remember: bool = True) -> np.ndarray:
    """Load a cached matrix, checking its sidecar against the expected metadata; `mapped`, as a
    read-only memory map (a start then reads only the pages it uses: a board's columns).
    `remember=False` for a file the project ships: its sidecar is never rewritten (a clone stays
    clean; an installed copy may not write there).

    Raises StaleCache with the reason when it must be rebuilt.
    """
    missing_sidecar(path)
    if not path.exists():
        raise StaleCache(f"{path.name} is missing")
    try:
        meta = json.loads(sidecar(path).read_text())
    except (OSError, ValueError) as error:
        raise StaleCache(f"unreadable metadata ({error})") from None
    if not isinstance(meta, dict):
        raise StaleCache("unreadable metadata (not a JSON object)")
    for key, value in expected.items():
        if meta.get(key) != value:
            raise StaleCache(f"{key} changed")
    try:
        if not unchanged(path, meta):
            if meta.get("sha256") != sha256_file(path):
                raise StaleCache("checksum mismatch (truncated or corrupt file)")
            if remember:
                remember_stat(path, meta)
    except OSError as error:   # a directory, no permission, an I/O error: rebuild, don't crash
        raise StaleCache(f"unreadable matrix ({error})") from None
    try:
        matrix = np.load(path, mmap_mode="r" if mapped else None, allow_pickle=False)
    except (OSError, ValueError) as error:
        raise StaleCache(f"unreadable matrix ({error})") from None
    if list(matrix.shape) != meta.get("shape"):
        raise StaleCache("shape mismatch")
    return matrix


def unchanged(path: Path, meta: dict[str, Any]) -> bool:
    """Whether the file is as it was when its checksum was last verified: the size, modification
    time and checksum recorded then still hold. It is then trusted without hashing it again (as
    git's index trusts a file), which every start did for up to 150 MB of matrices; a write to it,
    a truncation or a copy changes its stat, and it is hashed. As in git, a file modified in the
    clock tick its sidecar was written in ("racily clean") is hashed all the same."""
    recorded = meta.get("stat")
    if not isinstance(recorded, list) or len(recorded) != 3 or recorded[2] != meta.get("sha256"):
        return False
    return recorded[:2] == file_stat(path)[:2] and recorded[1] < sidecar(path).stat().st_mtime_ns


def remember_stat(path: Path, meta: dict[str, Any]) -> None:
    """After a checksum verified a file whose stat changed (a copied cache), record its new stat,
    so that the next start need not hash it; a sidecar that cannot be written is left as it was."""
    with contextlib.suppress(OSError):
        atomic_write_bytes(sidecar(path), json.dumps({**meta, "stat": file_stat(path, meta["sha256"])},
                                                     indent=1, sort_keys=True).encode())


def column_major(cache_dir: Path) -> list[str]:
    """Rewrite the hint × word matrices that older builds cached row-major (every matrix but
    SBERT's embeddings) column-major, once: `model.Weights` holds them so, and converting 150 MB
    on every start took half a second. A combination's sidecar names its parts by checksum, so
    those are rewritten too, and nothing is rebuilt. A pass cut short leaves what it had not
    reached to be rebuilt. Returns the names rewritten."""
    renamed: dict[str, str] = {}   # old checksum → new
    names = []
    for path in sorted(Path(cache_dir).glob("*.npy")):
        try:
            meta = read_sidecar(path)
            if meta.get("initializer") in (None, "sbert") or len(meta.get("shape", ())) != 2:
                continue
            if np.load(path, mmap_mode="r").flags["F_CONTIGUOUS"]:   # the header alone is read
                continue
            matrix = load_matrix(path, {})
            save_matrix(path, matrix, {k: v for k, v in meta.items() if k not in ("sha256", "stat")},
                        by_column=True)
            renamed[meta["sha256"]] = read_sidecar(path)["sha256"]
            names.append(path.stem)
        except (StaleCache, OSError, ValueError, KeyError):
            continue   # unreadable or stale: the catalog says so and rebuilds it
    if renamed:
        for path in sorted(Path(cache_dir).glob("*.json")):
            with contextlib.suppress(OSError, ValueError, AttributeError):
                meta = json.loads(path.read_text())
                if isinstance(meta.get("parts"), dict) and set(meta["parts"].values()) & set(renamed):
                    meta["parts"] = {p: renamed.get(c, c) for p, c in meta["parts"].items()}
                    atomic_write_bytes(path, json.dumps(meta, indent=1, sort_keys=True).encode())
    return names


def save_arrays(path: Path, arrays: dict[str, np.ndarray], meta: dict[str, Any]) -> str:
    """Save arrays as one .npz with a JSON sidecar holding its checksum; both writes atomic.

    Returns the checksum, which the owning matrix's sidecar records.
    """
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    data = buffer.getvalue()
    digest = hashlib.sha256(data).hexdigest()
    sidecar(path).unlink(missing_ok=True)
    atomic_write_bytes(path, data)
    atomic_write_bytes(sidecar(path), json.dumps({**meta, "sha256": digest}, sort_keys=True).encode())
    return digest


def load_arrays(path: Path, sha256: str) -> dict[str, np.ndarray]:
    """Load arrays saved by `save_arrays`.

    The sidecar's checksum must be the expected one: that ties the arrays to the
    matrix whose sidecar names them, without hashing them again. Integrity is
    checked as they are read: the .npz is a zip, whose members carry a CRC-32, so
    a truncated or corrupt file is refused (this keeps the first on-demand word
    fast: the double link's arrays alone are 100+ MB).
    """
    try:
        meta = json.loads(sidecar(path).read_text())
    except (OSError, ValueError):
        raise StaleCache(f"{path.name}: missing or unreadable sidecar") from None
    if not isinstance(meta, dict) or meta.get("sha256") != sha256:
        raise StaleCache(f"{path.name} does not belong to its matrix")
    try:
        with np.load(path, allow_pickle=False) as archive:
            return {key: archive[key] for key in archive.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as error:
        raise StaleCache(f"{path.name}: unreadable ({error})") from None


def read_sidecar(path: Path) -> dict[str, Any]:
    missing_sidecar(path)
    try:
        return json.loads(sidecar(path).read_text())
    except (OSError, ValueError) as error:
        raise StaleCache(f"unreadable metadata ({error})") from None


def sidecar_checksum(path: Path) -> str | None:
    """The checksum in a cache's sidecar: a combination is rebuilt when a part is."""
    try:
        return json.loads(sidecar(path).read_text()).get("sha256")
    except (OSError, ValueError):
        return None
