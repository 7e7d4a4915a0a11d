"""A reader: how someone reads a hint, as chances over the face-down cards.

Whoever turns cards over for a hint (a person, the AI's agent, a bench's guesser) is a reader:
for a hint and the cards face down it has logits, the softmax of which is the chance that it
picks each card next, and it picks without putting back (Plackett–Luce). Now and then it reads
loosely: a `lapse` share of its turns follow `flat` times the logits. The model of people
(models/people.py) is a reader; so is a weight matrix read as a softmax (`MatrixReader`). The
captain plans for one reader (models/expected.py), and may price the card that ends a turn in part
as another reads it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from models.weights import Weights


class Reader(Protocol):
    """Logits over the face-down cards for any hints, and for every hint of the vocabulary."""

    name: str
    lapse: float
    flat: float

    def logits(self, hints: Sequence[str], words: Sequence[str]) -> np.ndarray:
        """hints × cards: each card's logit for each hint."""

    def board_logits(self, words: Sequence[str]) -> np.ndarray:
        """Every hint of the vocabulary × cards: the logits of `logits`, all at once."""


def sharpnesses(reader: Reader) -> list[tuple[float, float]]:
    """(share, factor on the logits) of a reader's turns: its own sharpness, and its lapse's."""
    both = ((1.0 - reader.lapse, 1.0), (reader.lapse, reader.flat))
    return [(share, sharpness) for share, sharpness in both if share > 0]


def turns(reader: Reader, words: Sequence[str]) -> list[tuple[float, np.ndarray]]:
    """How a reader's turns go, each with its share: its logits for every hint of the vocabulary
    (hints × `words`), at its own sharpness and at its lapse's."""
    logits = np.asarray(reader.board_logits(list(words)), dtype=np.float64)
    return [(share, sharpness * logits) for share, sharpness in sharpnesses(reader)]


# A matrix's weights are about 0 to 1: read at this softmax, its strongest card is its pick.
MATRIX_TEMPERATURE = 0.02
# ... and at this one, as an agent that always takes its strongest card (the AI's own, greedy).
GREEDY = 0.0005


@dataclass
class MatrixReader:
    """A weight matrix read as a softmax of its weights, as an agent reading it does (its backoff
    too, where it is silent on a hint)."""

    weights: Weights
    temperature: float = MATRIX_TEMPERATURE
    lapse: float = 0.0
    flat: float = 1.0

    @property
    def name(self) -> str:
        return self.weights.name

    def logits(self, hints: Sequence[str], words: Sequence[str]) -> np.ndarray:
        return self.weights.hint_rows(list(hints), list(words)) / np.float32(self.temperature)

    def board_logits(self, words: Sequence[str]) -> np.ndarray:
        if self.weights.backoff is None:
            return self.weights.board_matrix(list(words)) / np.float32(self.temperature)
        return self.logits(self.weights.hints, words)
