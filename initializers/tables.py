"""Tables: an initializer's weights for any word (sparse, vector, combined, double link)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from common import lemma_of, progress

if TYPE_CHECKING:   # scipy.sparse loads where a sparse matrix is made: a game on SBERT alone needs none
    from scipy import sparse

# --- tables: an initializer's weights for any word -----------------------------------------------


class Table:
    """An initializer's weights for every hint × any word, max-normalised by `scale`.

    Subclasses give `raw_columns` and `raw_row`; this class scales them, zeroes
    a word against itself (a hint equal to a card is illegal and meaningless)
    and clips into [0, 1]. Columns of the board words it was built for come
    straight from `matrix`. Implements `model.Extender`.
    """

    name: str
    hints: tuple[str, ...]
    scale: float = 1.0
    matrix: np.ndarray | None = None   # hints × `board`, as cached
    board: tuple[str, ...] = ()

    def raw_columns(self, words: Sequence[str]) -> np.ndarray:
        raise NotImplementedError

    def raw_row(self, hint: str, words: Sequence[str]) -> np.ndarray:
        raise NotImplementedError

    @functools.cached_property
    def hint_index(self) -> dict[str, int]:
        return {h: i for i, h in enumerate(self.hints)}

    def set_matrix(self, matrix: np.ndarray, board: Sequence[str]) -> Table:
        self.matrix, self.board = matrix, tuple(board)
        self.__dict__.pop("board_index", None)
        return self

    @functools.cached_property
    def board_index(self) -> dict[str, int]:
        return {w: i for i, w in enumerate(self.board)}

    def columns(self, words: Sequence[str]) -> np.ndarray:
        """Weights of every hint for each word: (hints, len(words)), in [0, 1], column-major."""
        words = [clean_word(w) for w in words]
        cached = {j: i for j, w in enumerate(words) if (i := self.board_index.get(w)) is not None} \
            if self.matrix is not None else {}
        if not cached:
            out = self.scaled(words)
            return np.minimum(out, 1.0, out=out)
        out = np.empty((len(self.hints), len(words)), dtype=np.float32, order="F")
        for j, i in cached.items():
            out[:, j] = self.matrix[:, i]
        rest = [j for j in range(len(words)) if j not in cached]
        if rest:
            computed = np.minimum(self.scaled([words[j] for j in rest]), 1.0)
            for k, j in enumerate(rest):
                out[:, j] = computed[:, k]
        return out

    def prepare(self) -> None:
        """Load now what a new board word needs (a table's lexicon or vectors: seconds)."""
        self.columns(["warm"])

    def scaled(self, words: list[str]) -> np.ndarray:
        """raw / scale, non-negative, a word zeroed against itself (not clipped at 1).

        `raw_columns` must return a new array: it is scaled in place.
        """
        out = np.asfortranarray(self.raw_columns(words), dtype=np.float32)
        out /= np.float32(self.scale)
        for j, word in enumerate(words):
            for form in {word, lemma_of(word)} if word else ():
                if (i := self.hint_index.get(form)) is not None:
                    out[i, j] = 0.0
        return np.maximum(out, 0.0, out=out)

    def row(self, hint: str, words: Sequence[str]) -> np.ndarray:
        """Weights of one hint, in the vocabulary or not, for each word: (len(words),)."""
        hint, words = clean_word(hint), [clean_word(w) for w in words]
        if not hint:
            return np.zeros(len(words), dtype=np.float32)
        if (i := self.hint_index.get(hint)) is not None:
            return self.columns(words)[i]
        out = np.asarray(self.raw_row(hint, words), dtype=np.float32) / np.float32(self.scale)
        same = {hint, lemma_of(hint)}
        out[[j for j, w in enumerate(words) if w in same or lemma_of(w) in same]] = 0.0
        return _within_one(np.maximum(out, 0.0, out=out))

    def finish(self, board: Sequence[str]) -> Table:
        """Set the scale so that the hint × board matrix peaks at 1, and keep that matrix."""
        self.scale, self.matrix = 1.0, None
        raw = self.scaled([clean_word(w) for w in board])
        self.scale = float(raw.max()) if raw.size and raw.max() > 0 else 1.0
        return self.set_matrix(np.minimum(raw / np.float32(self.scale), 1.0).astype(np.float32), board)

    def state(self) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """The arrays and facts to cache beside the matrix, so that it can be restored."""
        return {}, {}


def clean_word(word: str) -> str:
    return " ".join(str(word).lower().split())


class Lazy:
    """A value loaded on first use: big caches are read only when a new word needs them."""

    def __init__(self, load: Callable[[], Any]):
        self._load, self._value = load, None

    def __call__(self) -> Any:
        if self._value is None:
            self._value = self._load()
        return self._value


@dataclass
class Lexicon:
    """A sparse source's words: hints × words weights, and words × words for other hints."""

    words: tuple[str, ...]
    wide: sparse.csc_matrix                # hints × words
    full: sparse.csr_matrix | None = None  # words × words, when the source has rows for any word
    index: dict[str, int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.index = {w: i for i, w in enumerate(self.words)}

    def find(self, word: str) -> int | None:
        return _lookup(self.index, word)


def _lookup(index: dict[str, int], word: str) -> int | None:
    """A word's id in a lexicon, under its own spelling or else its lemma."""
    i = index.get(word)
    return i if i is not None or not word else index.get(lemma_of(word))


class SparseTable(Table):
    """Weights from counts or norms: a sparse hint × lexicon matrix (collocations, association)."""

    def __init__(self, name: str, hints: Sequence[str], lexicon: Callable[[], Lexicon], scale: float = 1.0):
        self.name, self.hints, self.lexicon, self.scale = name, tuple(hints), lexicon, scale

    def raw_columns(self, words: Sequence[str]) -> np.ndarray:
        lexicon = self.lexicon()
        ids = [lexicon.find(w) for w in words]
        found = [j for j, i in enumerate(ids) if i is not None]
        if len(found) == len(words):
            return lexicon.wide[:, ids].toarray(order="F")
        out = np.zeros((len(self.hints), len(words)), dtype=np.float32, order="F")
        if found:
            block = lexicon.wide[:, [ids[j] for j in found]].toarray(order="F")
            for k, j in enumerate(found):
                out[:, j] = block[:, k]
        return out

    def raw_row(self, hint: str, words: Sequence[str]) -> np.ndarray:
        lexicon = self.lexicon()
        out = np.zeros(len(words), dtype=np.float32)
        if lexicon.full is None or (r := lexicon.find(hint)) is None:
            return out
        row = lexicon.full.getrow(r).toarray()[0]
        found = [(j, i) for j, w in enumerate(words) if (i := lexicon.find(w)) is not None]
        if found:
            out[[j for j, _ in found]] = row[[i for _, i in found]]
        return out

    def state(self) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        lexicon = self.lexicon()
        arrays = {"words": np.array(lexicon.words, dtype=str)}
        if lexicon.full is not None:
            arrays |= _sparse_arrays("full", lexicon.full)
        else:
            arrays |= _sparse_arrays("wide", lexicon.wide)
        return arrays, {}

    @staticmethod
    def restore(hints: Sequence[str], arrays: dict[str, np.ndarray]) -> Lexicon:
        words = tuple(arrays["words"].tolist())
        if "full_data" in arrays:
            full = sparse_from(arrays, "full").tocsr()
            return Lexicon(words, hint_rows_of(full, words, hints), full)
        return Lexicon(words, sparse_from(arrays, "wide").tocsc())


def hint_rows_of(full: sparse.csr_matrix, words: Sequence[str], hints: Sequence[str]) -> sparse.csc_matrix:
    """The hint rows of a words × words matrix (hints it does not know: empty rows)."""
    from scipy import sparse

    index = {w: i for i, w in enumerate(words)}
    pick = [(r, i) for r, h in enumerate(hints) if (i := _lookup(index, h)) is not None]
    rows = np.array([r for r, _ in pick], dtype=np.int64)
    ids = np.array([i for _, i in pick], dtype=np.int64)
    selector = sparse.coo_matrix((np.ones(len(rows), dtype=np.float32), (rows, ids)),
                                 shape=(len(hints), len(words))).tocsr()
    return (selector @ full).tocsc()


def _sparse_arrays(prefix: str, matrix: sparse.spmatrix) -> dict[str, np.ndarray]:
    from scipy import sparse

    m = sparse.csr_matrix(matrix)
    return {f"{prefix}_data": m.data.astype(np.float32), f"{prefix}_indices": m.indices,
            f"{prefix}_indptr": m.indptr, f"{prefix}_shape": np.array(m.shape)}


def sparse_from(arrays: dict[str, np.ndarray], prefix: str) -> sparse.csr_matrix:
    from scipy import sparse

    return sparse.csr_matrix((arrays[f"{prefix}_data"].astype(np.float32, copy=False),
                              arrays[f"{prefix}_indices"].astype(np.int32, copy=False),
                              arrays[f"{prefix}_indptr"]), shape=tuple(arrays[f"{prefix}_shape"]))


class VectorTable(Table):
    """Weights from word vectors: a transform of the cosine similarity (fastText, SBERT)."""

    def __init__(self, name: str, hints: Sequence[str], hint_vectors: Callable[[], np.ndarray],
                 vectors: Callable[[Sequence[str]], np.ndarray],
                 transform: Callable[[np.ndarray], np.ndarray], scale: float = 1.0):
        self.name, self.hints, self.scale = name, tuple(hints), scale
        self.hint_vectors, self.vectors, self.transform = hint_vectors, vectors, transform

    def raw_columns(self, words: Sequence[str]) -> np.ndarray:
        return self.transform((self.vectors(words) @ self.hint_vectors().T).T)  # column-major

    def raw_row(self, hint: str, words: Sequence[str]) -> np.ndarray:
        vectors = self.hint_vectors() if tuple(words) == self.hints else self.vectors(words)
        return self.transform(self.vectors([hint]) @ vectors.T)[0]

    def state(self) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        return {"hint_vectors": self.hint_vectors()}, {}


def unit_rows(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to length 1; zero rows (unknown words) stay zero."""
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return np.divide(vectors, norms, out=np.zeros_like(vectors), where=norms > 0)


class CombinedTable(Table):
    """A weighted sum of other tables, each already max-normalised; tables nest.

    A word that every part covers (gives any weight) gets the plain weighted sum.
    A word that only some parts cover is renormalised over them: its sum is
    scaled by (Σ all w·m) / (Σ covering w·m), where m is a part's typical column
    mass (the mean column sum over the words it covers). The masses make a dense
    part (fastText) and a sparse one (association) count for what they usually
    contribute, so a word known only to fastText is not inflated. A word that no
    part covers takes the `fallback` table's column (SBERT knows every word),
    scaled to the typical mass. Rows of hints outside the vocabulary are
    renormalised the same way, with row masses.
    """

    def __init__(self, name: str, hints: Sequence[str], parts: Sequence[tuple[Table, float]],
                 fallback: Callable[[], Table | None] | None = None, scale: float = 1.0,
                 masses: dict[str, list[float]] | None = None):
        self.name, self.hints, self.scale = name, tuple(hints), scale
        self.parts, self.fallback = list(parts), fallback
        self._masses = masses

    def masses(self) -> dict[str, list[float]]:
        """Each part's typical column mass and row mass, measured on its cached matrix."""
        if self._masses is None:
            self._masses = {"columns": [_mass(t.matrix, 0) for t, _ in self.parts],
                            "rows": [_mass(t.matrix, 1) for t, _ in self.parts]}
        return self._masses

    def raw_columns(self, words: Sequence[str]) -> np.ndarray:
        total = np.zeros((len(self.hints), len(words)), dtype=np.float32, order="F")
        cover = np.zeros(len(words))
        full = 0.0
        for (table, weight), mass in zip(self.parts, self.masses()["columns"], strict=True):
            values = table.columns(words)
            cover += weight * mass * values.any(axis=0)
            full += weight * mass
            values *= np.float32(weight)
            total += values
            del values
        covered = cover > 0
        total *= (full / np.where(covered, cover, full)).astype(np.float32)
        if not covered.all() and (table := self._fallback()) is not None:
            lost = [j for j, c in enumerate(covered) if not c]
            stand_in = table.columns([words[j] for j in lost]) * np.float32(full / _mass(table.matrix, 0))
            for k, j in enumerate(lost):
                total[:, j] = stand_in[:, k]
        return total

    def raw_row(self, hint: str, words: Sequence[str]) -> np.ndarray:
        total = np.zeros(len(words), dtype=np.float32)
        cover = full = 0.0
        for (table, weight), mass in zip(self.parts, self.masses()["rows"], strict=True):
            values = table.row(hint, words)
            total += np.float32(weight) * values
            cover += weight * mass * bool(values.any())
            full += weight * mass
        return total * np.float32(full / cover) if cover > 0 else total

    def _fallback(self) -> Table | None:
        return self.fallback() if self.fallback is not None else None

    def state(self) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        return {}, {"masses": self.masses()}


def _mass(matrix: np.ndarray | None, axis: int) -> float:
    """The mean sum along `axis` over the lines that hold any weight (1 when there is none)."""
    if matrix is None:
        return 1.0
    sums = np.asarray(matrix, dtype=np.float64).sum(axis=axis)
    held = sums[sums > 0]
    return float(held.mean()) if held.size else 1.0


class HintReader:
    """The extender of a combination's `Weights`: its table's columns, and for a hint outside
    the vocabulary, the table's row mixed with SBERT's (which reads any word), renormalised
    over the two that know the hint.

    SBERT joins only here, at the top: inside the combination, its dense rows would
    flood the double link's sum over intermediate words.
    """

    def __init__(self, table: Table, reader: Callable[[], Table | None], weight: float = 1.0):
        self.table, self.reader, self.weight = table, reader, weight

    def columns(self, words: Sequence[str]) -> np.ndarray:
        return self.table.columns(words)

    def prepare(self) -> None:
        """Load now, once, what new board words and new hints need (the caches beside the
        matrices, the fastText and SBERT models: seconds), e.g. in a thread at game start."""
        self.table.columns(["warm"])
        if (reader := self.reader()) is not None:
            reader.row("warm", ["up"])

    def row(self, hint: str, words: Sequence[str]) -> np.ndarray:
        own = self.table.row(hint, words)
        reader = self.reader()
        if reader is None or not clean_word(hint):
            return own
        other = reader.row(hint, words)
        cover = float(own.any()) + self.weight * bool(other.any())
        total = 1.0 + self.weight
        return _within_one((own + np.float32(self.weight) * other) * np.float32(total / max(cover, 1e-9)))


def _lengths(columns: np.ndarray) -> np.ndarray:
    """Each column's Euclidean length, 1 for an empty column (whose products are 0 anyway)."""
    lengths = np.linalg.norm(np.asarray(columns, dtype=np.float32), axis=0)
    return np.where(lengths > 0, lengths, np.float32(1.0))


def _within_one(row: np.ndarray) -> np.ndarray:
    """A row brought into [0, 1] by rescaling, not clipping, so that its order survives."""
    peak = float(row.max()) if row.size else 0.0
    return row / np.float32(peak) if peak > 1.0 else row


class DoubleLinkTable(Table):
    """Mediated association: weight(A, C) = Σ_B inner(A, B) · inner(B, C) / ‖inner(·, C)‖.

    The sum runs over A's `LINKS` strongest links B. Dividing by the length of C's own links
    keeps a hub, a word linked to everything (KING, STABLE), from topping
    every hint's row: A must point along C's links, not merely at many of them.

    The hint × hint block of the inner table is computed once (in chunks, with a
    progress bar) and cached beside the matrix as a sparse matrix (each hint keeps
    its `LINKS` strongest links), so that a new column costs one
    sparse product, not a rebuild. A word is never its own mediator: the inner
    table zeroes a word against itself.
    """

    CHUNK = 1024
    # Each hint keeps only its strongest links as mediators. With SBERT in `direct` every
    # hint links a little to every other, and the whole block took gigabytes to build
    # (docs/decisions/0013-double-link-strongest-links.md).
    LINKS = 100

    def __init__(self, name: str, hints: Sequence[str], inner: Table, scale: float = 1.0,
                 hint_block: Callable[[], sparse.csr_matrix] | None = None):
        self.name, self.hints, self.inner, self.scale = name, tuple(hints), inner, scale
        self._hint_block = Lazy(hint_block or self._compute_hint_block)

    def hint_block(self) -> sparse.csr_matrix:
        """inner(A, B) for every pair of hints A, B: (hints, hints)."""
        return self._hint_block()

    def _compute_hint_block(self) -> sparse.csr_matrix:
        from scipy import sparse

        n, links = len(self.hints), min(self.LINKS, len(self.hints))
        weight = np.zeros((n, 0), dtype=np.float32)   # each hint's strongest links so far
        index = np.zeros((n, 0), dtype=np.int64)
        for start in progress(range(0, n, self.CHUNK), desc=f"{self.name}: hint × hint links",
                              unit="chunk", leave=False):
            chunk = np.asarray(self.inner.columns(self.hints[start:start + self.CHUNK]), np.float32)
            weight = np.hstack([weight, chunk])
            index = np.hstack([index, np.broadcast_to(np.arange(start, start + chunk.shape[1]),
                                                      chunk.shape)])
            if weight.shape[1] > links:
                keep = np.argpartition(-weight, links - 1, axis=1)[:, :links]
                weight = np.take_along_axis(weight, keep, axis=1)
                index = np.take_along_axis(index, keep, axis=1)
        rows = np.repeat(np.arange(n), weight.shape[1])
        block = sparse.csr_matrix((weight.ravel(), (rows, index.ravel())), shape=(n, n))
        block.eliminate_zeros()
        return block

    def raw_columns(self, words: Sequence[str]) -> np.ndarray:
        inner = self.inner.columns(words)
        return np.asfortranarray(self.hint_block() @ inner / _lengths(inner))

    def raw_row(self, hint: str, words: Sequence[str]) -> np.ndarray:
        inner = self.inner.columns(words)
        row = np.array(self.inner.row(hint, self.hints), dtype=np.float32)
        if len(row) > self.LINKS:   # the same links as a hint of the vocabulary keeps
            row[np.argpartition(-row, self.LINKS - 1)[self.LINKS:]] = 0.0
        return row @ inner / _lengths(inner)

    def state(self) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        # float16 weights and int16 column indices halve the file that the first new word loads
        arrays = _sparse_arrays("hint_block", self.hint_block())
        arrays["hint_block_data"] = arrays["hint_block_data"].astype(np.float16)
        if len(self.hints) < np.iinfo(np.int16).max:
            arrays["hint_block_indices"] = arrays["hint_block_indices"].astype(np.int16)
        return arrays, {}
