"""Cache files beside the matrices: arrays with a checksummed JSON sidecar, and reading sidecars."""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from common import StaleCache, atomic_write_bytes, missing_sidecar, sidecar

# --- caches beside the matrices --------------------------------------------------------------------


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
