"""The people reader: SBERT's similarity plus the free-association norms, as an agent reads a
person's clue (docs/decisions/0025-reading-people.md; `reading.py` says when the game uses it)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from models.agents import GreedyAgent
from models.weights import Weights

NORMS = ("association", "eat")   # USF and EAT: their words × words strengths, both directions
NORMS_WEIGHT = 1.0               # the one knob, tuned on the record's even games only
READER = "sbert"                 # the dense reader the norms are added to


def tables_in(node: object, seen: set[int] | None = None) -> Iterator[object]:
    """Every table a matrix is made of: its extender, a combination's parts, a double link's inner."""
    seen = set() if seen is None else seen
    if node is None or id(node) in seen:
        return
    seen.add(id(node))
    yield node
    for child in (getattr(node, "table", None), getattr(node, "inner", None),
                  *(part for part, _ in getattr(node, "parts", ()))):
        yield from tables_in(child, seen)


def norms_of(weights: Weights) -> list[object]:
    """The association-norm tables that a matrix (or its backoff chain) is made of."""
    found: dict[str, object] = {}
    chain: Weights | None = weights
    while chain is not None:
        for table in tables_in(chain.extender):
            if getattr(table, "name", None) in NORMS and hasattr(table, "raw_row"):
                found.setdefault(table.name, table)
        chain = chain.backoff
    return [found[name] for name in NORMS if name in found]


def reader_of(weights: Weights) -> Weights:
    """The SBERT matrix among a matrix's backoffs (itself if it is SBERT's), else the matrix."""
    chain: Weights | None = weights
    while chain is not None:
        if chain.name == READER:
            return chain
        chain = chain.backoff
    return weights


class PeopleReading:
    """A `Weights` as an agent reads it: `hint_row` is SBERT's row plus NORMS_WEIGHT ×
    √(the summed raw strengths of the norms between the hint and each word, either way);
    everything else is the matrix's own."""

    def __init__(self, weights: Weights, norms_weight: float = NORMS_WEIGHT):
        self.weights, self.reader = weights, reader_of(weights)
        self.norms, self.norms_weight = norms_of(weights), norms_weight

    def __getattr__(self, name: str):
        return getattr(self.weights, name)

    def hint_row(self, hint: str, words: Sequence[str]) -> np.ndarray:
        return self.hint_rows([hint], words)[0]

    def hint_rows(self, hints: Sequence[str], words: Sequence[str]) -> np.ndarray:
        rows = np.array(self.reader.hint_rows(hints, words), dtype=np.float32)
        if self.norms and self.norms_weight:
            strength = np.array([sum(t.raw_row(h, list(words)) for t in self.norms) for h in hints],
                                dtype=np.float32)
            rows += np.float32(self.norms_weight) * np.sqrt(np.maximum(strength, 0.0))
        return rows


class PeopleAgent(GreedyAgent):
    """The greedy agent reading clues as people mean them (`PeopleReading`)."""

    name = "people"

    def __init__(self, weights: Weights, norms_weight: float = NORMS_WEIGHT, **options):
        super().__init__(PeopleReading(weights, norms_weight), **options)
