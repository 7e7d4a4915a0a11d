"""Hints, their legality, and the captain and agent models.

Everything here reads a `Weights` matrix (hint words × board words, where a
cell says how strongly a hint points to a board word) and a `Board`; nothing
prints and nothing reads files.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
from rapidfuzz.distance import Levenshtein
from rapidfuzz.process import cdist

from board import ASSASSIN, NEUTRAL, Board, Color
from common import lemmas, normalise

MAX_COUNT = 9
MIN_HINT_LETTERS = 3
MIN_RELATIVE_DISTANCE = 0.5


# --- hints -------------------------------------------------------------------


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
    if not count.isdigit() or not 0 <= int(count) <= MAX_COUNT:
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
    if Levenshtein.normalized_distance(hint, board_word) < MIN_RELATIVE_DISTANCE:
        return f"{hint!r} is spelled too much like the board word {board_word!r}"
    return None


def hint_problem(word: str, board: Board) -> str | None:
    """Why a hint word is illegal on this board, or None when it may be given."""
    if not word.isascii() or not word.isalpha():
        return "a hint is one word of letters only"
    if len(word) < MIN_HINT_LETTERS:
        return f"a hint has at least {MIN_HINT_LETTERS} letters"
    if word in board:
        return f"{word!r} is a word on the board"
    for board_word in board.unrevealed_words():
        if problem := pair_problem(word, board_word):
            return problem
    return None


class HintFilter:
    """Vectorised legality over a whole hint vocabulary.

    `banned(board_word)` agrees with `pair_problem` for every hint in the
    vocabulary; it is computed once per board word and cached.
    """

    def __init__(self, hints: Sequence[str]):
        self.hints = tuple(hints)
        self.index = {h: i for i, h in enumerate(self.hints)}
        self._array = np.array(self.hints)
        self._by_lemma: dict[str, list[int]] = {}
        for i, hint in enumerate(self.hints):
            for lemma in lemmas(hint):
                self._by_lemma.setdefault(lemma, []).append(i)
        shape_ok = np.array([h.isascii() and h.isalpha() and len(h) >= MIN_HINT_LETTERS
                             for h in self.hints], dtype=bool)
        self.well_formed = shape_ok

    @functools.lru_cache(maxsize=4096)  # noqa: B019 - one filter per vocabulary, kept for the process
    def banned(self, board_word: str) -> np.ndarray:
        """Indices of the hints that are illegal while `board_word` is face down."""
        banned = np.strings.find(self._array, board_word) >= 0  # hint contains the word
        n = len(board_word)
        for start in range(n):                                  # hint inside the word
            for end in range(start + 1, n + 1):
                if (i := self.index.get(board_word[start:end])) is not None:
                    banned[i] = True
        for lemma in lemmas(board_word):
            banned[self._by_lemma.get(lemma, [])] = True
        distance = cdist([board_word], self.hints, scorer=Levenshtein.normalized_distance,
                         dtype=np.float32)[0]
        banned |= distance < MIN_RELATIVE_DISTANCE
        return np.flatnonzero(banned)

    def legal(self, board: Board, given: Sequence[str] = ()) -> np.ndarray:
        """A boolean mask of the hints that may be given on this board."""
        mask = self.well_formed.copy()
        for word in board.words:
            if (i := self.index.get(word)) is not None:
                mask[i] = False
        for word in board.unrevealed_words():
            mask[self.banned(word)] = False
        for word in given:
            if (i := self.index.get(word)) is not None:
                mask[i] = False
        return mask


# --- weights -----------------------------------------------------------------


class Extender(Protocol):
    """A source that can weigh words the cached matrix does not hold (e.g. an embedding)."""

    def columns(self, words: Sequence[str]) -> np.ndarray:
        """Weights of every vocabulary hint for each word: shape (hints, len(words))."""

    def row(self, hint: str, words: Sequence[str]) -> np.ndarray:
        """Weights of one arbitrary hint for each word: shape (len(words),)."""


@dataclass
class Weights:
    """A hint × board-word weight matrix; columns for new board words are built on demand."""

    name: str
    hints: tuple[str, ...]
    words: tuple[str, ...]
    matrix: np.ndarray
    extender: Extender | None = None
    hint_index: dict[str, int] = field(init=False, repr=False)
    word_index: dict[str, int] = field(init=False, repr=False)
    filter: HintFilter = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if self.matrix.shape != (len(self.hints), len(self.words)):
            raise ValueError(f"matrix shape {self.matrix.shape} does not fit "
                             f"{len(self.hints)} hints × {len(self.words)} words")
        self.hint_index = {h: i for i, h in enumerate(self.hints)}
        self.word_index = {w: i for i, w in enumerate(self.words)}
        self.filter = HintFilter(self.hints)

    def knows(self, word: str) -> bool:
        return word in self.word_index

    def add_words(self, words: Sequence[str]) -> None:
        """Build columns for board words the matrix lacks; unknown to every source, they weigh 0."""
        new = [w for w in dict.fromkeys(words) if w not in self.word_index]
        if not new:
            return
        if self.extender is not None:
            columns = np.asarray(self.extender.columns(new), dtype=self.matrix.dtype)
        else:
            columns = np.zeros((len(self.hints), len(new)), dtype=self.matrix.dtype)
        self.matrix = np.hstack([self.matrix, columns])
        for word in new:
            self.word_index[word] = len(self.words)
            self.words += (word,)

    def board_matrix(self, words: Sequence[str]) -> np.ndarray:
        """Weights of every hint for the given board words: shape (hints, len(words))."""
        self.add_words(words)
        return self.matrix[:, [self.word_index[w] for w in words]]

    def hint_row(self, hint: str, words: Sequence[str]) -> np.ndarray:
        """How strongly any hint, in the vocabulary or not, points to each word."""
        if (i := self.hint_index.get(hint)) is not None:
            self.add_words(words)
            return self.matrix[i, [self.word_index[w] for w in words]]
        if self.extender is not None:
            return np.asarray(self.extender.row(hint, list(words)), dtype=np.float32)
        return np.zeros(len(words), dtype=np.float32)


# --- captain -----------------------------------------------------------------


@dataclass(frozen=True)
class HintChoice:
    """A captain's hint with the reasons behind it, for `--explain` and the bot protocol."""

    hint: Hint
    targets: tuple[str, ...]
    target_weights: tuple[float, ...]
    danger: tuple[str, float] | None          # the strongest non-team card for this hint
    runners_up: tuple[tuple[str, int, float], ...] = ()
    score: float = 0.0


# What a card in the agent's reach is worth to the captain, by colour relative to its team.
CARD_VALUES = {"own": 1.0, "neutral": -1.0, "opponent": -1.5, "assassin": -10.0}


def card_values(board_colors: Sequence[Color], team: Color) -> np.ndarray:
    """The value of each card for `team`, in CARD_VALUES units."""
    def value(color: Color) -> float:
        if color is team:
            return CARD_VALUES["own"]
        if color is ASSASSIN:
            return CARD_VALUES["assassin"]
        if color is NEUTRAL:
            return CARD_VALUES["neutral"]
        return CARD_VALUES["opponent"]
    return np.array([value(c) for c in board_colors], dtype=np.float32)


class CumsumCaptain:
    """The reference captain: rank the cards for each hint and sum card values down the ranking.

    For hint h and position k, score = Σ values of its k best-ranked cards
    + gap·(weight of the k-th card − weight of the (k+1)-th), which prefers hints
    whose targets stand clear of the rest. The count is the best k.
    """

    name = "cumsum"

    def __init__(self, weights: Weights, gap: float = 2.0, floor: float = 0.15,
                 max_count: int = 4):
        self.weights, self.gap, self.floor, self.max_count = weights, gap, floor, max_count

    def give_hint(self, board: Board, team: Color, given: Sequence[str] = ()) -> HintChoice:
        cards = board.unrevealed()
        words = [c.word for c in cards]
        values = card_values([c.color for c in cards], team)
        w = self.weights.board_matrix(words)                       # (H, U)
        order = np.argsort(-w, axis=1)
        ranked = np.take_along_axis(w, order, axis=1)
        ranked_values = values[order]
        own_left = int((values > 0).sum())
        depth = min(self.max_count, own_left, len(words))
        sums = np.cumsum(ranked_values[:, :depth], axis=1)
        following = ranked[:, 1:depth + 1] if depth < len(words) else np.pad(
            ranked[:, 1:], ((0, 0), (0, 1)))
        score = sums + self.gap * (ranked[:, :depth] - following)
        # A target must be pointed to, not merely ranked: weak links score nothing.
        score = np.where(ranked[:, :depth] >= self.floor, score, -np.inf)
        score[~self.weights.filter.legal(board, given)] = -np.inf
        return choose(score, order, ranked, words, values, self.weights.hints)


def choose(score: np.ndarray, order: np.ndarray, ranked: np.ndarray, words: Sequence[str],
           values: np.ndarray, hints: Sequence[str], runners_up: int = 3) -> HintChoice:
    """Turn a (hints × count) score table into the best HintChoice, with its reasons."""
    best_per_hint = score.max(axis=1)
    top = np.argsort(-best_per_hint)[:runners_up + 1]
    h = int(top[0])
    if not np.isfinite(best_per_hint[h]):
        raise NoLegalHint("no legal hint points to an own card")
    k = int(score[h].argmax()) + 1
    targets = order[h, :k]
    others = [i for i in order[h] if values[i] <= 0]
    danger = (words[others[0]], float(ranked[h, list(order[h]).index(others[0])])) if others else None
    return HintChoice(
        hint=Hint(hints[h], k),
        targets=tuple(words[i] for i in targets),
        target_weights=tuple(float(x) for x in ranked[h, :k]),
        danger=danger,
        runners_up=tuple((hints[i], int(score[i].argmax()) + 1, float(best_per_hint[i]))
                         for i in top[1:] if np.isfinite(best_per_hint[i])),
        score=float(best_per_hint[h]),
    )


class NoLegalHint(Exception):
    """The vocabulary has no legal hint for this board (never on a real board)."""


# --- agent -------------------------------------------------------------------


class Agent:
    """Reads a hint's column over the face-down cards and picks cards.

    With probability `chance` it takes the best card, otherwise it samples a
    softmax of the weights (`chance=1` is greedy). It stops after `count`
    guesses, or, for 0 and unlimited, when the best card weighs less than
    `threshold`.
    """

    name = "softmax"

    def __init__(self, weights: Weights, chance: float = 1.0, temperature: float = 0.05,
                 threshold: float = 0.3):
        self.weights, self.chance = weights, chance
        self.temperature, self.threshold = temperature, threshold

    def guess(self, board: Board, hint: Hint, guessed: int,
              rng: np.random.Generator) -> str | None:
        """The next card to turn over for this hint, or None to stop."""
        if hint.count and guessed >= hint.count:
            return None
        words = board.unrevealed_words()
        column = self.weights.hint_row(hint.word, words)
        best = int(column.argmax())
        if not hint.count and guessed > 0 and column[best] < self.threshold:
            return None
        if rng.random() < self.chance:
            return words[best]
        logits = (column - column[best]) / self.temperature
        p = np.exp(logits)
        return words[int(rng.choice(len(words), p=p / p.sum()))]


# --- strategies by name ----------------------------------------------------------------

CAPTAINS = {"cumsum": CumsumCaptain}
AGENTS = {"softmax": Agent}
DEFAULT_CAPTAIN, DEFAULT_AGENT = "cumsum", "softmax"


@dataclass
class AI:
    """The weights and the chosen strategies from which AI players are made."""

    weights: Weights
    captain_strategy: str = DEFAULT_CAPTAIN
    agent_strategy: str = DEFAULT_AGENT

    def __post_init__(self) -> None:
        for name, known in ((self.captain_strategy, CAPTAINS), (self.agent_strategy, AGENTS)):
            if name not in known:
                raise ValueError(f"unknown strategy {name!r}: choose one of {', '.join(known)}")

    def captain(self):
        return CAPTAINS[self.captain_strategy](self.weights)

    def agent(self) -> Agent:
        return AGENTS[self.agent_strategy](self.weights)
