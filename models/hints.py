"""Hints and their legality: a hint, parsing one, why a hint may not be given, and the
vectorised filter over a whole vocabulary."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import Levenshtein
import numpy as np
from rapidfuzz.distance import Levenshtein as VocabularyLevenshtein
from rapidfuzz.process import cdist

from board import Board
from common import lemmas, normalise, spellings, zipf
from models.table import fit_for_table

MAX_COUNT = 9
MIN_HINT_LETTERS = 3
# The AI's own caution, beyond the rules: it gives no hint within this relative Levenshtein
# distance of a face-down word (SOAP with STAMP), which an agent might misread. People may: an edit
# distance refused their everyday clues (docs/decisions/0031-another-spelling.md).
CAPTAIN_MIN_DISTANCE = 0.5


def spelling_distance(a: str, b: str) -> float:
    """The Levenshtein distance of two words over the longer one's length: 0 the same word, 1
    nothing in common. The vocabulary's filter measures a board word against every hint in one
    rapidfuzz call, to the same figure (docs/decisions/0091-the-levenshtein-package.md)."""
    return Levenshtein.distance(a, b) / max(len(a), len(b), 1)


def spelled_alike(hint: str, board_word: str) -> bool:
    """Whether the AI keeps `hint` away from a face-down `board_word` (`CAPTAIN_MIN_DISTANCE`)."""
    return spelling_distance(hint, board_word) < CAPTAIN_MIN_DISTANCE


@dataclass(frozen=True)
class Hint:
    """A captain's hint: one word and a count, 0-9, or None for unlimited."""

    word: str
    count: int | None

    @property
    def max_guesses(self) -> int | None:
        """count+1 guesses; with 0 or unlimited there is no cap."""
        return None if not self.count else self.count + 1

    def __str__(self) -> str:
        return f"{self.word.upper()} {'unlimited' if self.count is None else self.count}"


def parse_hint(text: str) -> Hint:
    """`"ocean 2"`, `"ocean unlimited"` or `"ocean inf"` → Hint; ValueError says what is wrong."""
    parts = text.split()
    if len(parts) != 2:
        raise ValueError("give one word and a count, e.g. 'ocean 2' (count 0-9 or 'unlimited')")
    word, count = normalise(parts[0]), parts[1].lower()
    if count in ("unlimited", "inf", "infinity", "u"):
        return Hint(word, None)
    if not (count.isascii() and count.isdecimal()) or not 0 <= int(count) <= MAX_COUNT:
        raise ValueError(f"the count must be 0-{MAX_COUNT} or 'unlimited', not {parts[1]!r}")
    return Hint(word, int(count))


def pair_problem(hint: str, board_word: str) -> str | None:
    """Why `hint` may not be given while `board_word` is face down, or None."""
    if hint == board_word:
        return f"{hint!r} is a word on the board"
    if board_word in hint:
        return f"{hint!r} contains the board word {board_word!r}"
    if hint in board_word:
        return f"{hint!r} is part of the board word {board_word!r}"
    if lemmas(hint) & lemmas(board_word):
        return f"{hint!r} is a form of the board word {board_word!r}"
    if spellings(hint) & spellings(board_word):
        return f"{hint!r} is another spelling of the board word {board_word!r}"
    return None


def hint_problem(word: str, board: Board) -> str | None:
    """Why a hint word is illegal on this board, or None when it may be given."""
    if not word.isascii() or not word.isalpha():
        return "a hint is one word of the plain letters a-z (no accents, digits, hyphens or apostrophes)"
    if len(word) < MIN_HINT_LETTERS:
        return f"a hint has at least {MIN_HINT_LETTERS} letters"
    if word in board:
        return f"{word!r} is a word on the board"
    for board_word in board.unrevealed_words():
        if problem := pair_problem(word, board_word):
            return problem
    return None


# The rarest hint the AI gives, in wordfreq's Zipf scale (log10 of a word's uses per billion):
# near the frequency of people's clues (docs/decisions/0035-a-captain-for-people.md).
MIN_HINT_ZIPF = 4.0


def spoken(hints: Sequence[str], floor: float = MIN_HINT_ZIPF) -> np.ndarray:
    """Which hints are common enough for a person to give and read (Zipf at least `floor`)."""
    return zipf(hints) >= floor


class HintFilter:
    """Vectorised legality over a whole hint vocabulary.

    `banned(board_word)` holds every hint that `pair_problem` refuses while the word is face
    down, and those the AI avoids besides (`CAPTAIN_MIN_DISTANCE`); it is computed once per
    board word and cached. `fit` leaves out the hints unfit for the table (models/table.py),
    and those too rare for a person to give or read (`MIN_HINT_ZIPF`): the AI never gives them,
    though a person may.
    """

    def __init__(self, hints: Sequence[str]):
        self.hints = tuple(hints)
        self.index = {h: i for i, h in enumerate(self.hints)}
        self._array = np.array(self.hints)
        self._by_form: dict[str, list[int]] = {}   # hints by lemma, in either spelling
        self.fit = np.ones(len(self.hints), dtype=bool)   # fit for the table (models/table.py)
        for i, hint in enumerate(self.hints):
            forms = spellings(hint)
            self.fit[i] = fit_for_table(hint, forms)
            for form in forms:
                self._by_form.setdefault(form, []).append(i)
        self.well_formed = np.array([h.isascii() and h.isalpha() and len(h) >= MIN_HINT_LETTERS
                                     for h in self.hints], dtype=bool)
        self.fit &= spoken(self.hints)

    @functools.lru_cache(maxsize=4096)  # noqa: B019 - one filter per vocabulary, kept for the process
    def banned(self, board_word: str) -> np.ndarray:
        """Indices of the hints that are illegal while `board_word` is face down."""
        banned = np.strings.find(self._array, board_word) >= 0  # hint contains the word
        n = len(board_word)
        for start in range(n):                                  # hint inside the word
            for end in range(start + 1, n + 1):
                if (i := self.index.get(board_word[start:end])) is not None:
                    banned[i] = True
        for form in spellings(board_word):                      # a form, another spelling
            banned[self._by_form.get(form, [])] = True
        distance = cdist([board_word], self.hints, scorer=VocabularyLevenshtein.normalized_distance,
                         dtype=np.float32)[0]   # `spelling_distance`, the whole vocabulary at once
        banned |= distance < CAPTAIN_MIN_DISTANCE
        return np.flatnonzero(banned)

    def legal(self, board: Board, given: Sequence[str] = ()) -> np.ndarray:
        """A boolean mask of the hints the AI may give on this board: legal, and fit for the table."""
        mask = self.well_formed & self.fit
        for word in board.words:
            if (i := self.index.get(word)) is not None:
                mask[i] = False
        for word in board.unrevealed_words():
            mask[self.banned(word)] = False
        for word in given:
            if (i := self.index.get(word)) is not None:
                mask[i] = False
        return mask


@functools.lru_cache(maxsize=8)
def hint_filter(hints: tuple[str, ...]) -> HintFilter:
    """One legality filter per vocabulary, shared by every matrix over it."""
    return HintFilter(hints)
