"""A guesser that reads a hint with foreign word vectors: the bench's agent interface.

`ForeignAgent.guess(board, hint, guessed, rng, team=None)` is the interface of
model.Agent that lab.evaluation.games.play_solo calls. It ranks the face-down cards by the
cosine of its own vectors of the hint and of each card, and turns over the best
one, greedily, until it has made `count` guesses (cautious; the rule allows
count+1, which `bold=True` takes). For a count of 0 or unlimited it makes one
guess. It keeps no memory between hints.

Out of vocabulary (only GloVe has one): a card without a vector ranks below
every card with one; a hint without a vector is read as the mean of its parts
(`ice-cream` → ice, cream) when it has known parts, else by spelling: the share
of character trigrams it shares with each card.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from board import Board, Color
from lab.foreign.vectors import Vectors, unit
from model import Hint

UNKNOWN_CARD = -2.0   # below any cosine: a card the vectors do not know ranks last


def trigrams(word: str) -> frozenset[str]:
    """The character trigrams of a word padded with spaces (`cat` → ` ca`, `cat`, `at `)."""
    padded = f" {word.lower()} "
    return frozenset(padded[i:i + 3] for i in range(len(padded) - 2))


def spelling_scores(hint: str, words: Sequence[str]) -> np.ndarray:
    """Jaccard overlap of the hint's character trigrams with each word's, in [0, 1]."""
    mine = trigrams(hint)
    return np.array([len(mine & (t := trigrams(w))) / len(mine | t) for w in words], dtype=np.float32)


def hint_vector(vectors: Vectors, hint: str) -> np.ndarray | None:
    """The hint's unit vector: its own, else the mean of its known parts; None if neither."""
    rows, known = vectors.embed([hint])
    if known[0]:
        return rows[0]
    parts = [p for p in re.split(r"[\s\-_']+", hint) if p]
    if len(parts) > 1:
        rows, known = vectors.embed(parts)
        if known.any():
            return unit(rows[known].mean(axis=0, keepdims=True))[0]
    return None


def scores(vectors: Vectors, hint: str, words: Sequence[str]) -> np.ndarray:
    """How strongly the hint points to each word, by these vectors (higher first)."""
    target = hint_vector(vectors, hint)
    if target is None:
        return spelling_scores(hint, words)
    rows, known = vectors.embed(list(words))
    return np.where(known, rows @ target, np.float32(UNKNOWN_CARD)).astype(np.float32)


class ForeignAgent:
    """Greedy by foreign cosine, `count` guesses (count+1 when bold), one for 0 or unlimited."""

    def __init__(self, vectors: Vectors, bold: bool = False):
        self.vectors, self.bold = vectors, bold
        self.name = vectors.name + ("+1" if bold else "")

    def limit(self, hint: Hint) -> int:
        """How many guesses it makes for this hint."""
        if not hint.count:
            return 1
        return hint.count + 1 if self.bold else hint.count

    def guess(self, board: Board, hint: Hint, guessed: int, rng: np.random.Generator,
              team: Color | None = None) -> str | None:
        """The best face-down card for the hint, or None once it has made its guesses."""
        words = board.unrevealed_words()
        if guessed >= self.limit(hint) or not words:
            return None
        return words[int(np.argmax(scores(self.vectors, hint.word, words)))]
