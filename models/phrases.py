"""Phrases a person knows: which of the phrases matrix's links are a person's first thought.

WordNet lists about 69,000 phrases (initializers/phrases.py), and some are known to few people
(CAT SHARK, WINTER ROSE, SHEEP FROG); no reading of meaning tells them apart from those everyone
knows (PRIVATE EYE is 156th of EYE's card words, CAT SHARK 56th). A phrase is known when it is a
closed compound of the committed list (HAMMERHEAD: initializers/compounds.py), or when the norms
link its words too, even by one person's answer of a hundred (FAN BELT, GAS METER, JAILBAIT).
With no norms at hand, a phrase of two words counts (HOT DOG, RED TAPE), and two words of a longer
one do not (CRAB-EATING DOG links no DOG and CRAB: decision 0058).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

import numpy as np

from common import read_compounds

# The phrases matrix's link for a phrase's only two content words or a compound (initializers/
# phrases.py's `PAIR`; two words of a longer phrase link less).
TWO_WORDS = 1.0
PHRASE_LINK = 0.5   # above it, a phrase or compound of either kind; ~0 otherwise


@functools.cache
def compound_partners() -> Mapping[str, frozenset[str]]:
    """Each word of the committed closed compounds, with the words it makes one with (either order)."""
    partners: dict[str, set[str]] = {}
    for first, second in read_compounds():
        partners.setdefault(first, set()).add(second)
        partners.setdefault(second, set()).add(first)
    return {word: frozenset(found) for word, found in partners.items()}


def compounds(hints: Sequence[str], words: Sequence[str], index: Mapping[str, int] | None = None
              ) -> np.ndarray:
    """Hints × words: whether the two make a closed compound of the committed list, in either
    order. `index`, each hint's row when the hints are a vocabulary that has one
    (`Weights.hint_index`): the rows are found from the words' partners, never hint by hint."""
    if index is None:
        index = {}
        for row, hint in enumerate(hints):
            index.setdefault(hint, row)
    found = np.zeros((len(hints), len(words)), dtype=bool)
    partners = compound_partners()
    for column, word in enumerate(words):
        found[[index[p] for p in partners.get(word, ()) if p in index], column] = True
    if len(index) < len(hints):   # a hint asked twice reads as its first
        found = found[[index[hint] for hint in hints]]
    return found


def known_phrases(phrases: np.ndarray, said: np.ndarray | None, compound: np.ndarray) -> np.ndarray:
    """The phrases matrix's rows (hints × cards, as it holds them) with only the phrases a person
    knows: a closed compound (`compound`), or linked by the norms too (`said`: their rows), or,
    when no norms are at hand (`said` None), a phrase of two words."""
    known = (phrases >= TWO_WORDS) if said is None else (said > 0)
    return np.where(known | compound, phrases, 0).astype(phrases.dtype)
