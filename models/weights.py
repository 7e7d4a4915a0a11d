"""Weights: a hint × board-word matrix, extended on demand, backing off to a denser one."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from models.hints import HintFilter, hint_filter

# How much a backoff matrix adds to a row its matrix does know: enough to order the cards the
# matrix weighs alike (its zeros, mostly), too little to reorder any two it tells apart.
TIE_BREAK = 1e-4


class Extender(Protocol):
    """A source that can weigh words the cached matrix does not hold (e.g. an embedding)."""

    def columns(self, words: Sequence[str]) -> np.ndarray:
        """Weights of every vocabulary hint for each word: shape (hints, len(words))."""

    def row(self, hint: str, words: Sequence[str]) -> np.ndarray:
        """Weights of one arbitrary hint for each word: shape (len(words),)."""

    def prepare(self) -> None:
        """Load now what new board words and new hints need (models, caches), so that the first
        of them does not wait."""


@dataclass
class Weights:
    """A hint × board-word weight matrix; columns for new board words are built on demand.

    A sparse matrix (counts, norms) is silent on most hints. `backoff`, a matrix
    that knows every word, speaks for it when an agent reads a hint: it orders
    the cards the matrix weighs alike, and reads alone a hint the matrix gives
    no weight on the board. The captain's own view, `board_matrix`, never backs off.
    """

    name: str
    hints: tuple[str, ...]
    words: tuple[str, ...]
    matrix: np.ndarray
    extender: Extender | None = None
    backoff: Weights | None = field(default=None, repr=False, compare=False)
    hint_index: dict[str, int] = field(init=False, repr=False)
    word_index: dict[str, int] = field(init=False, repr=False)
    filter: HintFilter = field(init=False, repr=False)
    _store: np.ndarray = field(init=False, repr=False)   # column capacity beyond `matrix`

    def __post_init__(self) -> None:
        if self.matrix.shape != (len(self.hints), len(self.words)):
            raise ValueError(f"matrix shape {self.matrix.shape} does not fit "
                             f"{len(self.hints)} hints × {len(self.words)} words")
        # Column-major: a board's 25 columns are then 25 contiguous reads, not 250,000 strided ones.
        self.matrix = self._store = np.asfortranarray(self.matrix)
        self.hint_index = {h: i for i, h in enumerate(self.hints)}
        self.word_index = {w: i for i, w in enumerate(self.words)}
        self.filter = hint_filter(self.hints)

    def knows(self, word: str) -> bool:
        return word in self.word_index

    @functools.cached_property
    def knows_every_hint(self) -> bool:
        """Whether every hint of the vocabulary weighs on some word (a dense matrix, an embedding)."""
        return bool(self.matrix.any(axis=1).all())

    @functools.cached_property
    def least_link(self) -> float:
        """The weakest link the matrix holds (0 for an empty one): in the norms, about one
        person's answer."""
        links = self.matrix[self.matrix > 0]
        return float(links.min()) if links.size else 0.0

    def add_words(self, words: Sequence[str]) -> None:
        """Build columns for board words the matrix lacks; unknown to every source, they weigh 0."""
        new = [w for w in dict.fromkeys(words) if w not in self.word_index]
        if not new:
            return
        if self.extender is not None:
            columns = np.asarray(self.extender.columns(new), dtype=self.matrix.dtype)
        else:
            columns = np.zeros((len(self.hints), len(new)), dtype=self.matrix.dtype)
        n = len(self.words)
        if n + len(new) > self._store.shape[1]:
            # Grow by doubling, so adding words one board at a time costs amortised O(1) copies.
            grown = np.zeros((len(self.hints), 2 * (n + len(new))), self.matrix.dtype, order="F")
            grown[:, :n] = self.matrix
            self._store = grown
        self._store[:, n:n + len(new)] = columns
        self.matrix = self._store[:, :n + len(new)]
        for word in new:
            self.word_index[word] = len(self.words)
            self.words += (word,)

    def board_matrix(self, words: Sequence[str]) -> np.ndarray:
        """Weights of every hint for the given board words: shape (hints, len(words))."""
        self.add_words(words)
        return np.ascontiguousarray(self.matrix[:, [self.word_index[w] for w in words]])

    def hint_row(self, hint: str, words: Sequence[str]) -> np.ndarray:
        """How strongly any hint, in the vocabulary or not, points to each word (with backoff)."""
        return self.hint_rows([hint], words)[0]

    def hint_rows(self, hints: Sequence[str], words: Sequence[str]) -> np.ndarray:
        """`hint_row` of many hints at once: shape (len(hints), len(words))."""
        rows = self.own_rows(hints, words)
        if self.backoff is None:
            return rows
        other = self.backoff.hint_rows(hints, words)
        silent = ~rows.any(axis=1, keepdims=True)
        return np.where(silent, other, rows + np.float32(TIE_BREAK) * other)

    def own_row(self, hint: str, words: Sequence[str]) -> np.ndarray:
        """The hint's row in this matrix alone: zeros where it knows nothing."""
        return self.own_rows([hint], words)[0]

    def own_rows(self, hints: Sequence[str], words: Sequence[str]) -> np.ndarray:
        """`own_row` of many hints at once: shape (len(hints), len(words))."""
        self.add_words(words)
        columns = [self.word_index[w] for w in words]
        found = [self.hint_index.get(h) for h in hints]
        rows = self.matrix[np.ix_([i if i is not None else 0 for i in found], columns)]
        for k in (k for k, i in enumerate(found) if i is None):   # outside the vocabulary
            rows[k] = self.extender.row(hints[k], list(words)) if self.extender is not None else 0.0
        return rows

    def reads(self) -> frozenset[str]:
        """The names of the matrices that `hint_row` reads: its own and its backoff's."""
        return frozenset({self.name}) | (self.backoff.reads() if self.backoff else frozenset())

    def without_backoff(self) -> Weights:
        """The same matrix (shared until either grows) reading hints alone."""
        if self.backoff is None:
            return self
        return Weights(self.name, self.hints, self.words, self.matrix, self.extender)
