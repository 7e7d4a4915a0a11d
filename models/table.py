"""Words fit for the table: the AI never gives a hint that is offensive, vulgar or distressing at a
family table, in any mode or level. A person may still type one.

The unfit words are better-profanity's word list (the PyPI package better-profanity, its
`profanity_wordlist.txt` read as a list, not through its censor), less the words it flags whose
first meaning is an everyday one (data/table_fit_en.txt), plus the words it misses
(data/table_unfit_en.txt, which says how they were chosen). A word is unfit when it or one of its
lemmas is listed: FARTS with FART, KILLING with KILL.
"""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path

from common import PACKAGE_DATA, lemmas, load_words

FIT_PATH = PACKAGE_DATA / "table_fit_en.txt"
UNFIT_PATH = PACKAGE_DATA / "table_unfit_en.txt"


def profanity_words() -> frozenset[str]:
    """better-profanity's list, its single words only (its phrases and leetspeak are never hints)."""
    spec = importlib.util.find_spec("better_profanity")   # found, not imported: no censor is built
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("the hint filter needs better-profanity: pip install -r requirements.txt")
    path = Path(spec.submodule_search_locations[0]) / "profanity_wordlist.txt"
    return frozenset(word for word in load_words(path) if word.isalpha())


@functools.cache
def unfit_words() -> frozenset[str]:
    """Every word the AI never gives as a hint (with its forms: see `fit_for_table`)."""
    return (profanity_words() - set(load_words(FIT_PATH))) | frozenset(load_words(UNFIT_PATH))


def fit_for_table(word: str, forms: frozenset[str] | None = None) -> bool:
    """Whether the AI may give `word` as a hint: neither it nor a lemma of it is unfit.
    `forms` are the word's lemmas when the caller has them already."""
    return not ((lemmas(word) if forms is None else forms) & unfit_words())
