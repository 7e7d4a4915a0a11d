"""Models of people built from data the captain does not read as its own voice: the guessers of
the bench's human-model tier.

Each is a conditional logit (evaluation/people_fit.py) fitted to people's play in
the human Duet record, over a foreign word-vector cosine (foreign/vectors.py: mpnet,
GloVe) in its board context and the card's word frequency; the GloVe one also hears
the association norms, which are measurements of people. A guesser samples its
picks from the model's chances, as people vary, and makes `count` guesses (one for
0 or unlimited): people rarely take the bonus guess.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from board import Board, Color
from evaluation import people_fit
from evaluation.human_duet import read_turns
from foreign.agent import scores
from foreign.vectors import Vectors, load
from model import Hint, Weights
from models.chances import softmax
from models.people import CONTEXTS, ROOTED, card_frequency, in_context

# guesser name → (foreign vectors, whether it hears the norms)
GUESSERS: dict[str, tuple[str, bool]] = {"mpnet-people": ("mpnet", False),
                                         "glove-people": ("glove", True)}
NORMS = ("association", "eat")


class StrangerFeatures:
    """(clues × cards × features) from foreign vectors, the card's frequency, and the norms if given."""

    def __init__(self, vectors: Vectors, norms: Mapping[str, Weights] | None = None):
        self.vectors = vectors
        self.norms = {n: w.without_backoff() for n, w in (norms or {}).items()}
        self.names = ("cos", *(f"cos~{c}" for c in CONTEXTS), "zipf", *self.norms)

    def __call__(self, clues: Sequence[str], words: Sequence[str]) -> np.ndarray:
        cos = np.stack([scores(self.vectors, clue, list(words)) for clue in clues])
        parts = [cos, *(in_context(cos, c) for c in CONTEXTS),
                 np.broadcast_to(card_frequency(words), cos.shape)]
        for name, norm in self.norms.items():
            rows = np.asarray(norm.own_rows(list(clues), list(words)), dtype=np.float32)
            parts.append(np.sqrt(np.maximum(rows, 0.0)) if name in ROOTED else rows)
        return np.stack(parts, axis=-1).astype(np.float32)


@dataclass
class FittedGuesser:
    """A model of a person guessing: the fitted logit's chances, sampled (or its best card)."""

    name: str
    features: StrangerFeatures
    coefficients: np.ndarray
    sample: bool = False

    def guess(self, board: Board, hint: Hint, guessed: int, rng: np.random.Generator,
              team: Color | None = None) -> str | None:
        if guessed >= (hint.count or 1):
            return None
        words = board.unrevealed_words()
        logits = self.features([hint.word], words)[0] @ self.coefficients
        if not self.sample:
            return words[int(np.argmax(logits))]
        return words[int(rng.choice(len(words), p=softmax(logits.astype(np.float64))))]


def stranger_features(name: str, norms: Mapping[str, Weights]) -> StrangerFeatures:
    vectors_name, hears_norms = GUESSERS[name]
    heard = {n: norms[n] for n in NORMS if n in norms} if hears_norms else {}
    return StrangerFeatures(load(vectors_name), heard)


def fit_guesser(name: str, sources: Path, norms: Mapping[str, Weights], sample: bool = False
                ) -> FittedGuesser:
    """A guesser fitted on the whole record (the penalty chosen by cross-validation by game)."""
    turns = list(read_turns(sources))
    features = stranger_features(name, norms)
    values = people_fit.turn_values(turns, features)
    beta, _ = people_fit.fit_penalised(turns, values, people_fit.SIGNALS, np.ones(len(turns), dtype=bool))
    return FittedGuesser(name, features, beta.astype(np.float32), sample)


def agreement(name: str, sources: Path, norms: Mapping[str, Weights]) -> dict[str, float]:
    """How often the guesser's best card is a target, and an assassin, on the record,
    cross-validated by game: each turn read by the model fitted without its game."""
    turns = list(read_turns(sources))
    values = people_fit.turn_values(turns, stranger_features(name, norms))
    logits, _ = people_fit.cross_validated_logits(turns, values, people_fit.SIGNALS)
    return people_fit.first_pick_rates(turns, logits)
