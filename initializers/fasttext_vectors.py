"""fastText: training a skipgram model on the corpus, reading .bin and .vec vectors, its table."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from common import lemma_of, progress, sweep_temporaries, temporary_prefix, ticking, warn
from initializers.corpus import Corpus
from initializers.sources import BuildError
from initializers.tables import VectorTable, clean_word, unit_rows

FASTTEXT_OFFSET = 0.685  # cos/2 + 0.5 below this is no link


def fasttext_transform(cosine: np.ndarray) -> np.ndarray:
    """fastText weight: cos/2 + 0.5 − 0.685, clipped at 0 (in place when it can)."""
    weight = np.asarray(cosine, dtype=np.float32)
    weight *= np.float32(0.5)
    weight += np.float32(0.5 - FASTTEXT_OFFSET)
    return np.maximum(weight, 0.0, out=weight)


# --- fastText ---------------------------------------------------------------------------------

# Chosen so that training on the content tokens of ../shared/datasets fits in a few minutes on 2
# cores: 64 dimensions and 5 epochs, the quality of 100 dimensions for less CPU, where fewer epochs
# lose quality (docs/decisions/0001-fasttext-64-dimensions.md). A bucket of 200k, not the default
# 2M, keeps the saved model a fraction of the size (measured there too).
FASTTEXT_PARAMS = {"model": "skipgram", "dim": 64, "epoch": 5, "minCount": 5, "ws": 5, "neg": 5,
                   "minn": 3, "maxn": 6, "bucket": 200_000, "lr": 0.05}
# On every core: its threads race (Hogwild), so two builds differ a little, but the model of
# people gives fastText no weight and the trained model is kept with its checksum, so games replay
# from the cache; one thread took twice as long (docs/decisions/0041-fasttext-on-every-core.md,
# which replaced 0019). The cache records "every core", not a count: it moves between machines.
FASTTEXT_THREADS = "every core"


def training_threads() -> int:
    """The threads fastText trains on: every core of this machine."""
    return os.cpu_count() or 1
VEC_KEEP = 100_000  # words kept from a user's .vec besides the vocabulary (they are frequency-ordered)


def train_fasttext(corpus: Corpus, path: Path, threads: int | None = None,
                   say: Callable[[str], None] = warn, **params: Any):
    """Train a skipgram model on the lemmatised corpus and save it atomically at `path`.

    Raises BuildError when the corpus is too small or fastText fails (the caller leaves it out).
    The start of training is said in one line to `say` (default: stderr); on a terminal a line
    then counts the time it takes.
    """
    import fasttext

    options = FASTTEXT_PARAMS | params
    if np.count_nonzero(corpus.frequencies() >= options["minCount"]) < 2:
        raise BuildError("the corpus is too small to train fastText on")  # fastText would hang
    lexicon = np.array(corpus.lexicon + ("\n",), dtype=object)
    text = " ".join(lexicon[corpus.tokens].tolist())   # SENTENCE_END (-1) picks the "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    sweep_temporaries(path.parent)   # training folders of runs that were killed
    prefix = temporary_prefix(".fasttext-training")
    with tempfile.TemporaryDirectory(prefix=prefix, dir=path.parent) as folder:
        corpus_file = Path(folder) / "corpus.txt"
        corpus_file.write_text(text, encoding="utf-8")
        del text
        say(f"fasttext: training a skipgram model ({options['dim']}d, {options['epoch']} epochs) "
             f"on {len(corpus.tokens):,} tokens")
        try:
            # fastText reports nothing until it is done (minutes on a real corpus).
            with zeroed_allocations(), ticking("fasttext: training"):
                model = fasttext.train_unsupervised(str(corpus_file), thread=threads or training_threads(),
                                                    verbose=0, **options)
        except RuntimeError as error:   # "Encountered NaN." and the like: no model, say why
            raise BuildError(f"fastText failed to train on the corpus ({error})") from None
        temporary = Path(folder) / "model.bin"
        model.save_model(str(temporary))
        os.replace(temporary, path)
    return model


# fastText 0.9.3 allocates its input matrix with posix_memalign and draws it in 10 blocks, one
# per training thread: on one thread only the first tenth is drawn, the rest is whatever the heap
# held. After reading the corpus in the same process that is freed text, much of which reads as
# floats of 1e29 and more: "Encountered NaN." (after reading two books, 5 and 7 of 10 trainings
# failed, and each one that did not gave another model). Its API has no way out: the threads that
# draw the matrix are the threads that train (Hogwild, not reproducible), and pretrained vectors
# set the words' rows only, not the subwords'. So the memory it gets is zeroed, as a fresh mmap
# is: one model per corpus, the undrawn rows zero (learnt from the output side as training goes).
M_PERTURB = -6   # glibc mallopt: fill every new allocation with the complement of this byte


@contextlib.contextmanager
def zeroed_allocations() -> Iterator[bool]:
    """While open, glibc's malloc returns zeroed memory; yields False where it cannot (not glibc)."""
    import ctypes
    import ctypes.util

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c"))
        zeroing = bool(libc.mallopt(M_PERTURB, 0xFF))   # new blocks: 0xFF ^ 0xFF = 0
    except (OSError, AttributeError, TypeError):
        zeroing = False
    try:
        yield zeroing
    finally:
        if zeroing:
            libc.mallopt(M_PERTURB, 0)


class FastTextVectors:
    """Unit word vectors from a fastText model: a .bin (subwords give any word a vector) or
    the words and vectors read from a .vec file (other words have none)."""

    def __init__(self, path: Path, table: Callable[[], tuple[Sequence[str], np.ndarray]] | None = None):
        self.path, self._table = Path(path), table
        self._model = None
        self._index: dict[str, int] | None = None
        self._vectors: np.ndarray | None = None

    def model(self):
        if self._model is None:
            import fasttext

            self._model = fasttext.load_model(str(self.path))
        return self._model

    def lookup(self) -> tuple[dict[str, int], np.ndarray]:
        """The .vec words and their unit vectors (float16)."""
        if self._index is None:
            words, self._vectors = self._table()
            self._index = {w: i for i, w in enumerate(words)}
        return self._index, self._vectors

    def __call__(self, words: Sequence[str]) -> np.ndarray:
        """Unit vectors, (len(words), dim); a multi-word entry is the mean of its words'."""
        if self._table is None:
            model = self.model()
            dim = model.get_dimension()
            vector = lambda w: model.get_word_vector(lemma_of(w))  # noqa: E731
        else:
            index, vectors = self.lookup()
            dim = vectors.shape[1]

            def vector(w: str) -> np.ndarray | None:
                i = index.get(w, index.get(lemma_of(w)))
                return None if i is None else vectors[i].astype(np.float32)
        out = np.zeros((len(words), dim), dtype=np.float32)
        for j, word in enumerate(words):
            parts = [v for part in clean_word(word).split() if (v := vector(part)) is not None]
            if parts:
                out[j] = np.mean(unit_rows(np.vstack(parts)), axis=0)
        return unit_rows(out)


def read_vec(path: Path, wanted: Iterable[str], keep: int = VEC_KEEP) -> tuple[list[str], np.ndarray]:
    """A .vec text file's first `keep` words and every wanted word (lower case), with unit vectors
    as float16. The header line ("count dim"), when present, is skipped."""
    wanted = set(wanted)
    words: list[str] = []
    rows: list[np.ndarray] = []
    seen: set[str] = set()
    with open(path, encoding="utf-8", errors="replace") as f:
        rank = 0
        for line in progress(f, desc="fasttext: reading .vec", unit=" words", leave=False):
            parts = line.rstrip().split(" ")
            if len(parts) <= 2:
                continue  # the header line ("count dim") or a blank
            word, rank = parts[0].lower(), rank + 1
            if (rank <= keep or word in wanted) and word not in seen:
                seen.add(word)
                words.append(word)
                rows.append(np.asarray(parts[1:], dtype=np.float32))
    if not rows:
        raise ValueError(f"{path} holds no word vectors")
    return words, unit_rows(np.vstack(rows)).astype(np.float16)


class FastTextTable(VectorTable):
    """The fastText initializer: cosine of word vectors, mapped to cos/2 + 0.5 − 0.685, clipped."""

    def __init__(self, hints: Sequence[str], vectors: FastTextVectors, hint_vectors: Callable[[], np.ndarray],
                 scale: float = 1.0):
        super().__init__("fasttext", hints, hint_vectors, vectors, fasttext_transform, scale)

    def state(self) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        arrays = {"hint_vectors": self.hint_vectors()}
        if self.vectors._table is not None:
            index, vectors = self.vectors.lookup()
            arrays |= {"vocabulary": np.array(list(index), dtype=str), "vectors": vectors}
        return arrays, {}
