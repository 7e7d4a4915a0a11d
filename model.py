"""Hints, their legality, and the captain and agent models.

Everything here reads a `Weights` matrix (hint words × board words, where a
cell says how strongly a hint points to a board word) and a `Board`; nothing
prints and nothing reads files.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

import numpy as np
from rapidfuzz.distance import Levenshtein
from rapidfuzz.process import cdist

from board import ASSASSIN, NEUTRAL, Board, Card, Color
from common import accepts, lemmas, normalise

MAX_COUNT = 9
MIN_HINT_LETTERS = 3
MIN_RELATIVE_DISTANCE = 0.5
# How much a backoff matrix adds to a row its matrix does know: enough to order the cards the
# matrix weighs alike (its zeros, mostly), too little to reorder any two it tells apart.
TIE_BREAK = 1e-4


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
    if Levenshtein.normalized_distance(hint, board_word) < MIN_RELATIVE_DISTANCE:
        return f"{hint!r} is spelled too much like the board word {board_word!r}"
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


@functools.lru_cache(maxsize=8)
def hint_filter(hints: tuple[str, ...]) -> HintFilter:
    """One legality filter per vocabulary, shared by every matrix over it."""
    return HintFilter(hints)


# --- weights -----------------------------------------------------------------


class Extender(Protocol):
    """A source that can weigh words the cached matrix does not hold (e.g. an embedding)."""

    def columns(self, words: Sequence[str]) -> np.ndarray:
        """Weights of every vocabulary hint for each word: shape (hints, len(words))."""

    def row(self, hint: str, words: Sequence[str]) -> np.ndarray:
        """Weights of one arbitrary hint for each word: shape (len(words),)."""


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


# --- what a captain sees --------------------------------------------------------


@dataclass(frozen=True)
class HintChoice:
    """A captain's hint with the reasons behind it, for `--explain` and the bot protocol."""

    hint: Hint
    targets: tuple[str, ...]
    target_weights: tuple[float, ...]
    danger: tuple[str, float] | None          # the strongest non-team card for this hint
    runners_up: tuple[tuple[str, int, float], ...] = ()
    score: float = 0.0
    readers: tuple[tuple[str, bool], ...] = ()   # each reader family: does it rank the targets first?


class NoLegalHint(Exception):
    """The vocabulary has no legal hint for this board (never on a real board)."""


# Below what value of its best own hint an `ExpectedCaptain` also simulates its partners' hints.
WIDEN_SPARSE, WIDEN_DENSE = 0.0, -1.0

# For an unknown agent, a count is given only if every reader that knows the hint ranks that many
# own cards first and the assassin below this many other cards (tuned on seeds 0-29 with the
# foreign agents: 2 and 3 alike, docs/decisions/0027-captain-for-strangers.md).
STRANGER_ASSASSIN_GAP = 3

# What a card in the agent's reach is worth to the captain, relative to its team.
OWN, NEUTRAL_VALUE, OPPONENT_VALUE, ASSASSIN_VALUE = 1.0, -1.0, -1.5, -10.0


@dataclass
class Situation:
    """A captain's view of the face-down cards: their colours and every hint's weights for them."""

    words: list[str]
    colors: list[Color]
    team: Color
    weights: np.ndarray       # (hints, cards)
    legal: np.ndarray         # (hints,) bool

    @classmethod
    def of(cls, weights: Weights, board: Board, team: Color, given: Sequence[str] = ()) -> Situation:
        cards = board.unrevealed()
        words = [c.word for c in cards]
        return cls(words, [c.color for c in cards], team, weights.board_matrix(words),
                   weights.filter.legal(board, given))

    def mask(self, *colors: Color) -> np.ndarray:
        return np.array([c in colors for c in self.colors], dtype=bool)

    @property
    def own(self) -> np.ndarray:
        return self.mask(self.team)

    @property
    def values(self) -> np.ndarray:
        """Each card's value for the team: own +1, neutral, opponent and assassin negative."""
        value = {self.team: OWN, NEUTRAL: NEUTRAL_VALUE, ASSASSIN: ASSASSIN_VALUE,
                 self.team.other: OPPONENT_VALUE}
        return np.array([value[c] for c in self.colors], dtype=np.float32)

    def strongest(self, *colors: Color) -> np.ndarray:
        """For every hint, the largest weight among face-down cards of these colours (0 if none)."""
        mask = self.mask(*colors)
        return self.weights[:, mask].max(axis=1) if mask.any() else np.zeros(len(self.weights))

    def own_sorted(self) -> np.ndarray:
        """For every hint, the weights of the team's own cards, strongest first: (hints, own)."""
        return -np.sort(-self.weights[:, self.own], axis=1)


def choose(situation: Situation, score: np.ndarray, hints: Sequence[str],
           runners_up: int = 3) -> HintChoice:
    """The best (hint, count) of a (hints × count) score table, with its reasons.

    Column k-1 of `score` scores the hint for count k; illegal hints must be
    -inf already. The targets are the hint's k strongest own cards.
    """
    score = np.where(situation.legal[:, None], score, -np.inf)
    best = score.max(axis=1)
    top = np.argpartition(-best, min(runners_up, len(best) - 1))[:runners_up + 1]
    top = top[np.argsort(-best[top])]
    h = int(top[0])
    if not np.isfinite(best[h]):
        raise NoLegalHint("no legal hint points to an own card")
    k = int(score[h].argmax()) + 1
    row = situation.weights[h]
    own = np.flatnonzero(situation.own)
    targets = own[np.argsort(-row[own])][:k]
    others = np.flatnonzero(~situation.own)
    danger = None
    if len(others):
        worst = others[row[others].argmax()]
        danger = (situation.words[worst], float(row[worst]))
    return HintChoice(
        hint=Hint(hints[h], k),
        targets=tuple(situation.words[i] for i in targets),
        target_weights=tuple(float(row[i]) for i in targets),
        danger=danger,
        runners_up=tuple((hints[i], int(score[i].argmax()) + 1, float(best[i]))
                         for i in top[1:] if np.isfinite(best[i])),
        score=float(best[h]),
    )


def fallback(situation: Situation) -> np.ndarray:
    """A count-1 score for every hint: its best own card's lead over the strongest other card."""
    rival = situation.strongest(situation.team.other, NEUTRAL, ASSASSIN)
    return (situation.own_sorted()[:, :1] - rival[:, None]).astype(np.float64)


class Captain:
    """Base of the captain strategies: build the situation, score it, choose.

    A strategy implements `score(situation) -> (hints × count)` table; the
    legality filter and the choice are shared.
    """

    name = "base"

    def __init__(self, weights: Weights, max_count: int = 4):
        self.weights, self.max_count = weights, max_count

    def give_hint(self, board: Board, team: Color, given: Sequence[str] = ()) -> HintChoice:
        situation = Situation.of(self.weights, board, team, given)
        score = self.score(situation, board)
        if not np.isfinite(score[situation.legal]).any():
            score = fallback(situation)   # the strategy found nothing safe: still give a hint
        return choose(situation, score, self.weights.hints)

    def observe(self, hint: str, face_down: Sequence[str], guesses: Sequence[str]) -> None:
        """What the agent turned over for the last hint; a strategy that learns its agent uses it."""

    def depth(self, situation: Situation) -> int:
        return max(1, min(self.max_count, int(situation.own.sum())))

    def score(self, situation: Situation, board: Board) -> np.ndarray:
        raise NotImplementedError


class CumsumCaptain(Captain):
    """The reference captain: rank the cards for each hint and sum card values down the ranking.

    For hint h and position k, score = Σ values of its k best-ranked cards
    + gap·(weight of the k-th card − weight of the (k+1)-th), which prefers
    hints whose targets stand clear of the rest. Targets weaker than `floor`
    do not count. The count is the best k.
    """

    name = "cumsum"

    def __init__(self, weights: Weights, gap: float = 2.0, floor: float = 0.3, max_count: int = 4):
        super().__init__(weights, max_count)
        self.gap, self.floor = gap, floor

    def score(self, situation: Situation, board: Board) -> np.ndarray:
        w, depth = situation.weights, self.depth(situation)
        table = np.full((len(w), depth), -np.inf)
        # Only hints whose strongest card is an own card above the floor can score: sort just those.
        best = w.argmax(axis=1)
        rows = np.flatnonzero(situation.legal & situation.own[best]
                              & (w[np.arange(len(w)), best] >= self.floor))
        order = np.argsort(-w[rows], axis=1)
        ranked = np.take_along_axis(w[rows], order, axis=1)
        sums = np.cumsum(situation.values[order][:, :depth], axis=1)
        following = np.pad(ranked, ((0, 0), (0, 1)))[:, 1:depth + 1]
        score = sums + self.gap * (ranked[:, :depth] - following)
        table[rows] = np.where(ranked[:, :depth] >= self.floor, score, -np.inf)
        return table


class MarginCaptain(Captain):
    """Target a hint's k strongest own cards; pay for the strongest card of each other kind.

    score = weakest target − λo·max opponent − λa·assassin − λn·max neutral + bonus·(k−1),
    and a count is allowed only when its weakest target beats every other
    card by `margin`.
    """

    name = "margin"

    def __init__(self, weights: Weights, opponent: float = 0.5, assassin: float = 1.0,
                 neutral: float = 0.25, bonus: float = 0.15, margin: float = 0.05,
                 max_count: int = 4):
        super().__init__(weights, max_count)
        self.opponent, self.assassin, self.neutral = opponent, assassin, neutral
        self.bonus, self.margin = bonus, margin

    def score(self, situation: Situation, board: Board) -> np.ndarray:
        team = situation.team
        opponent = situation.strongest(team.other)
        assassin = situation.strongest(ASSASSIN)
        neutral = situation.strongest(NEUTRAL)
        rival = np.maximum.reduce([opponent, assassin, neutral])
        targets = situation.own_sorted()[:, :self.depth(situation)]
        k = np.arange(targets.shape[1])
        score = (targets - (self.opponent * opponent + self.assassin * assassin
                            + self.neutral * neutral)[:, None] + self.bonus * k)
        return np.where(targets >= rival[:, None] + self.margin, score, -np.inf)


class ClusterCaptain(Captain):
    """Group own cards by how the vocabulary sees them; hint the best-concentrated group.

    Own cards are clustered agglomeratively (average linkage, cosine distance
    between their hint-weight columns), the number of clusters chosen by mean
    silhouette. For each cluster, a hint scores by its concentration on the
    cluster (its weight there over its weight on all face-down cards) times its
    evenness inside it (1 / (size · Herfindahl index)). Hints whose strongest
    group is the assassin are dropped. The count is the number of cluster
    members that beat every other card.
    """

    name = "cluster"

    def __init__(self, weights: Weights, margin: float = 0.03, max_count: int = 4):
        super().__init__(weights, max_count)
        self.margin = margin

    def clusters(self, situation: Situation) -> list[np.ndarray]:
        """Own-card indices (into situation.words) grouped by silhouette-best clustering."""
        from scipy.cluster.hierarchy import fcluster, linkage

        own = np.flatnonzero(situation.own)
        if len(own) <= 2:
            return [own[[i]] for i in range(len(own))] + ([own] if len(own) == 2 else [])
        columns = situation.weights[:, own].T + 1e-9
        tree = linkage(columns, method="average", metric="cosine")
        best, labels = -2.0, np.ones(len(own), dtype=int)
        for k in range(2, len(own)):
            found = fcluster(tree, k, criterion="maxclust")
            if len(set(found)) < 2:
                continue
            quality = silhouette(columns, found)
            if quality > best:
                best, labels = quality, found
        groups = [own[labels == label] for label in np.unique(labels)]
        return groups + [own[[i]] for i in range(len(own))]  # singletons keep a safe fallback

    def score(self, situation: Situation, board: Board) -> np.ndarray:
        w = situation.weights
        total = w.sum(axis=1) + 1e-9
        rival = situation.strongest(situation.team.other, NEUTRAL, ASSASSIN)
        assassin = situation.strongest(ASSASSIN)
        depth = self.depth(situation)
        table = np.full((len(w), depth), -np.inf)
        for group in self.clusters(situation):
            part = w[:, group]
            mass = part.sum(axis=1) + 1e-9
            # Herfindahl index of the hint's weight inside the group: 1/size when even, 1 when on one card.
            herfindahl = np.maximum(((part / mass[:, None]) ** 2).sum(axis=1), 1.0 / len(group))
            quality = (mass / total) / (len(group) * herfindahl)
            safe = (part >= rival[:, None] + self.margin).sum(axis=1)
            # Hints whose strongest group is the assassin are out.
            strongest_group = part.mean(axis=1)
            quality = np.where(assassin >= strongest_group, -np.inf, quality)
            count = np.minimum(safe, min(len(group), depth))
            score = quality + count          # every safe target outweighs any concentration
            for k in range(1, depth + 1):
                table[:, k - 1] = np.where(count == k, np.maximum(table[:, k - 1], score),
                                           table[:, k - 1])
        return table


def silhouette(points: np.ndarray, labels: np.ndarray) -> float:
    """The mean silhouette of a clustering under cosine distance (a point alone in its cluster
    scores 0), as Rousseeuw (1987) defines it."""
    from scipy.spatial.distance import pdist, squareform

    distance = squareform(pdist(points, metric="cosine"))
    labels = np.asarray(labels)
    members = labels[None, :] == np.unique(labels)[:, None]            # (clusters, points)
    same = labels[:, None] == labels[None, :]
    sizes = same.sum(axis=1)
    within = (distance * same).sum(axis=1) / np.maximum(sizes - 1, 1)
    to_others = (distance @ members.T) / members.sum(axis=1)           # (points, clusters)
    nearest_other = np.where(members.T, np.inf, to_others).min(axis=1)
    scores = (nearest_other - within) / np.maximum(within, nearest_other)
    return float(np.where(sizes > 1, scores, 0.0).mean())


# Which source family each matrix reads: matrices of one family are one voice, not several.
# A name not listed is a family of its own (SBERT; a user's matrix).
FAMILIES: dict[str, str] = {
    "word_collocations": "corpus", "sentence_collocations": "corpus", "fasttext": "corpus",
    "association": "norms", "eat": "norms",
    "direct": "mixed", "double_link": "mixed", "combined": "mixed",
}


def family_of(weights: Weights) -> str:
    """The source family of a matrix (`FAMILIES`), its own name when it has none listed."""
    return FAMILIES.get(weights.name, weights.name)


def family_members(partners: Sequence[Weights]) -> np.ndarray:
    """Families × partners, 1 where the partner belongs to the family (families in first-seen order)."""
    names = list(dict.fromkeys(family_of(p) for p in partners))
    return np.array([[family_of(p) == f for p in partners] for f in names], dtype=np.float64)


@functools.lru_cache(maxsize=4)
def zipf_of(hints: tuple[str, ...]) -> np.ndarray:
    """Each hint's wordfreq Zipf frequency (log10 per billion words; 0 if unknown)."""
    from wordfreq import zipf_frequency
    return np.array([zipf_frequency(h, "en") for h in hints], dtype=np.float64)


def voices(values: np.ndarray, fatal: np.ndarray, members: np.ndarray, belief: np.ndarray,
           speaks: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Partners' simulated values and fatal chances (partners × hints × counts) heard as the
    voices of their families (`members`, families × partners): within a family, the mean of
    its partners that speak on a hint (`speaks`, partners × hints), weighted by `belief`;
    between families, equal weights, each family's its mean belief. Returns, per hint and
    count, the worst family's value, the families' mean value, the mean and the worst fatal
    chance. A hint no partner speaks on is heard from all of them."""
    speaks = speaks | ~speaks.any(axis=0)                              # (P, n)
    heard = members[:, :, None] * (belief[:, None] * speaks)[None]     # (F, P, n)
    share = heard.sum(axis=1)                                          # (F, n)
    present = share > 0
    within = heard / np.where(present, share, 1.0)[:, None]
    family_values = np.einsum("fpn,pnk->fnk", within, values)
    family_fatal = np.einsum("fpn,pnk->fnk", within, fatal)
    weight = share / np.maximum(np.einsum("fp,pn->fn", members, speaks.astype(float)), 1.0)
    weight /= weight.sum(axis=0)                                        # (F, n)
    mean = np.einsum("fn,fnk->nk", weight, family_values)
    danger = np.einsum("fn,fnk->nk", weight, family_fatal)
    absent = ~present[..., None]
    worst = np.where(absent, np.inf, family_values).min(axis=0)
    worst_danger = np.where(absent, -np.inf, family_fatal).max(axis=0)
    return worst, mean, danger, worst_danger


def softmax(logits: np.ndarray, axis: int = -1) -> np.ndarray:
    """Shares proportional to exp(`logits`) along `axis`, summing to 1."""
    shares = np.exp(logits - logits.max(axis=axis, keepdims=True))    # no overflow
    return shares / shares.sum(axis=axis, keepdims=True)


def pick_chances(logits: np.ndarray, picks: Sequence[int]) -> np.ndarray:
    """The chance that each row's softmax over `logits` (readings × cards) picks each of
    `picks` in turn, without putting back: picks × readings."""
    logits = logits.copy()
    chances = np.empty((len(picks), len(logits)))
    for turn, i in enumerate(picks):
        chances[turn] = softmax(logits, axis=1)[:, i]
        logits[:, i] = -np.inf
    return chances


class ExpectedCaptain(Captain):
    """Choose the hint with the most own cards expected from its agent, known or unknown.

    The agent is simulated: it ranks the face-down cards by its own weights
    plus Gumbel noise of scale `temperature` (a Plackett-Luce softmax agent)
    and guesses down that ranking until it misses or has made `count` guesses.
    A hint's value is the expected number of own cards revealed, less the
    expected cost of the card that ends the turn: a neutral, an opponent's
    card, or the assassin, which loses the game. Each hint is scored under
    every partner matrix; it keeps a blend of its worst and its mean score
    (`caution`), so it must work for all of them, and prices the assassin at
    their mean chance of it. As the game goes on it learns which partners read
    hints as its agent does (`observe`) and weighs them more in the mean; and
    how noisy its agent is, doubling `temperature` up to `doublings` times,
    each doubling needing `doubling_cost` more log-likelihood, so that it
    turns more careful only on evidence.
    With no partners its agent is its twin, reading the captain's own matrix
    greedily, so it is simulated alone with the small `twin_temperature`: the
    captain knows what its twin will do and asks for more. The captain dares
    more when behind and plays safer when ahead.

    A team that plays `alone` (single-team mode, as in the Codenames AI
    Competition, scored by the hints a win takes) races no one, and every
    hint costs one turn however it ends: a miss costs nothing unless it loses
    the game, so it asks for as many cards as the assassin's risk allows.

    Alone, with `endgame` own cards or fewer left, the assassin costs
    `endgame_assassin_cost`: a hint then points at one card or two anyway,
    so care costs few cards, and by then the captain has learnt its agent.
    Racing, the care would cost turns that the opponent uses.

    With partners its agent is a stranger (`strangers`): the partners are heard as families
    of sources, one voice each (`voices`); a partner silent on a hint abstains rather than echo
    its backoff; and a count is given only if every reader that knows the hint ranks that many
    own cards first and the assassin below its `assassin_gap` strongest other cards (`reach`).

    It simulates the `candidates` hints that its own matrix likes best; when
    none is worth `widen_below` cards, it also simulates those its partners
    like best on average, as a hard card may need a hint its matrix misses.
    By default a matrix silent on some hints widens as soon as nothing of its
    own is worth a card (0); one that knows every hint, whose judgement the
    partners' consensus rarely betters, only when all its own risk more than a
    card (-1).
    """

    name = "expected"

    def __init__(self, weights: Weights, partners: Sequence[Weights] = (),
                 temperature: float = 0.02, twin_temperature: float = 0.0005,
                 samples: int = 96, candidates: int = 200,
                 neutral_cost: float = 0.3, opponent_cost: float = 1.0,
                 assassin_cost: float = 8.0, endgame_assassin_cost: float = 12.0,
                 endgame: int = 2, max_count: int = 4, seed: int = 0,
                 caution: float = 0.5, widen_below: float | None = None,
                 reading_temperature: float = 0.05, slip: float = 0.1,
                 doublings: int = 2, doubling_cost: float = 0.1, alone: bool = False,
                 strangers: bool | None = None, assassin_gap: int = STRANGER_ASSASSIN_GAP,
                 by_family: bool | None = None, abstain: bool | None = None,
                 consensus: bool | None = None, worst_danger: float = 0.0,
                 rarity: float = 0.0, common: float = 4.0, min_zipf: float = 0.0):
        super().__init__(weights, max_count)
        # With partners the agent is unknown: hear the readers as families (`voices`), each
        # reading a hint itself, and give only counts every one of them reaches (`reach`).
        strangers = bool(partners) if strangers is None else strangers
        self.by_family = strangers if by_family is None else by_family
        self.abstain = strangers if abstain is None else abstain
        self.consensus = strangers if consensus is None else consensus
        self.assassin_gap = assassin_gap if self.consensus else 0
        self.worst_danger = worst_danger
        self.rarity, self.common, self.min_zipf = rarity, common, min_zipf
        self.alone = alone
        self.partners = list(partners) or [weights]
        self.temperature = temperature if partners else twin_temperature
        # A twin's noise is known; an unknown agent's is learnt (`observe`) among these.
        self.noises = temperature * 2.0 ** np.arange(doublings + 1 if partners else 1)
        self.noise_prior = -doubling_cost * np.arange(len(self.noises))
        self.noise_evidence = np.zeros(len(self.noises))
        self.samples, self.candidates = samples, candidates
        self.neutral_cost, self.opponent_cost = neutral_cost, opponent_cost
        self.assassin_cost = assassin_cost
        # Tuned on seeds 0-29 and checked on 30-59 (docs/decisions/0018-the-assassin-in-the-endgame.md).
        self.endgame, self.endgame_assassin_cost = endgame, endgame_assassin_cost
        self.seed = seed
        # 1: a hint is worth its worst partner's score; 0: their mean. Tuned on seeds 2000-2023.
        self.caution = caution
        # Tuned on seeds 0-19: widening at 0 costs `combined` 5 points, at -1 it costs the
        # sparse norms as much (docs/decisions/0009-widening-by-matrix.md).
        if widen_below is None:
            widen_below = WIDEN_DENSE if weights.knows_every_hint else WIDEN_SPARSE
        self.widen_below = widen_below
        self.prefilter = MarginCaptain(weights, margin=-1.0, max_count=max_count)
        # How the partners' readings have foreseen the agent's guesses: log-likelihoods.
        self.reading_temperature, self.slip = reading_temperature, slip
        self.evidence = np.zeros(len(self.partners))
        self.members = (family_members(self.partners) if self.by_family
                        else np.eye(len(self.partners)))

    def observe(self, hint: str, face_down: Sequence[str], guesses: Sequence[str]) -> None:
        """Learn from what the agent turned over for a hint, in order, among the cards face
        down when it was given. Each partner gains the likelihood of those guesses under a
        softmax of its reading; each simulation temperature gains their likelihood under
        the believed mix of partners, and the likeliest becomes the captain's."""
        words = list(face_down)
        picks = [words.index(word) for word in guesses]
        rows = np.stack([p.hint_row(hint, words) for p in self.partners])
        if len(self.noises) > 1:
            belief = self.belief()
            for k, noise in enumerate(self.noises):
                mix = pick_chances(rows / noise, picks) @ belief[:, None]
                self.noise_evidence[k] += self.log_likelihood(mix, len(words)).sum()
            self.temperature = self.noises[np.argmax(self.noise_evidence + self.noise_prior)]
        chances = pick_chances(rows / self.reading_temperature, picks)
        self.evidence += self.log_likelihood(chances, len(words)).sum(axis=0)

    def log_likelihood(self, chances: np.ndarray, face_down: int) -> np.ndarray:
        """The log-likelihood of each pick (picks × readings), given each reading's chances."""
        left = face_down - np.arange(len(chances))[:, None]
        # Any agent may pick a card that no reading puts first; one surprise must not
        # silence a partner for the rest of the game.
        return np.log((1 - self.slip) * chances + self.slip / left)

    def belief(self) -> np.ndarray:
        """Each partner's weight in the mean: how well its reading has foreseen the agent's
        guesses this game (equal before any)."""
        return softmax(self.evidence)

    def risk(self, board: Board, team: Color) -> float:
        """A multiplier on costs: below 1 when behind or when the opponent is about to win."""
        if self.alone:
            return 1.0
        own, opponent = board.remaining(team), board.remaining(team.other)
        if opponent <= 1 or own - opponent >= 3:
            return 0.5
        if own - opponent >= 1:
            return 0.8
        if opponent - own >= 2:
            return 1.3
        return 1.0

    def score(self, situation: Situation, board: Board) -> np.ndarray:
        table = np.full((len(situation.legal), self.depth(situation)), -np.inf)
        self.reached = np.zeros(len(situation.legal))   # per hint: the count all readers reach
        if self.min_zipf:
            situation.legal = situation.legal & (zipf_of(self.weights.hints) >= self.min_zipf)
        own = self.shortlist(situation, board)
        self.simulate(situation, board, own, table)
        if len(self.partners) > 1 and table.max() < self.widen_below:
            wider = self.shortlist(situation, board, views=[p.board_matrix(situation.words)
                                                             for p in self.partners])
            self.simulate(situation, board, np.setdiff1d(wider, own), table)
        return self.agreed(table) if self.consensus else table

    def agreed(self, table: np.ndarray) -> np.ndarray:
        """The table without the counts that some reader speaking on the hint does not reach
        (`reached`); unchanged when that leaves no hint, as a hint must still be given."""
        k = np.arange(1, table.shape[1] + 1)
        kept = np.where(k <= self.reached[:, None], table, -np.inf)
        return kept if np.isfinite(kept).any() else table

    def simulate(self, situation: Situation, board: Board, chosen: np.ndarray,
                 table: np.ndarray) -> None:
        """Fill the chosen hints' rows of `table` with their value over the partners."""
        if len(chosen) == 0:
            return
        risk = self.risk(board, situation.team)
        readings = [self.expected(situation, partner, chosen, risk) for partner in self.partners]
        values = np.stack([value for value, _, _ in readings])
        fatal = np.stack([chance for _, chance, _ in readings])
        sure = np.stack([reach for _, _, reach in readings])             # (partners, n)
        # The costs of a miss that ends the turn are blended between the worst voice (a partner,
        # or with `by_family` a family of them) and the mean, weighted by what each has foreseen
        # of the agent (`caution`). A card that loses
        # (`losing`) is priced at that mean, unblended: a partner silent on a hint guesses at
        # random in the simulation, so the worst partner's chance is about one in the cards
        # left for most hints, a floor that hides the ones the informed partners see as fatal
        # (`worst_danger` blends in the worst voice's chance anyway; 0 was measured best).
        speaks = self.speaking(situation, chosen)                       # (partners, n)
        worst, mean, danger, worst_danger = voices(values, fatal, self.members,
                                                   self.belief(), speaks)
        danger = (1 - self.worst_danger) * danger + self.worst_danger * worst_danger
        table[chosen] = (self.caution * worst + (1 - self.caution) * mean
                         - self.assassin_price(situation) * risk * danger
                         - self.prior()[chosen, None])
        self.reached[chosen] = np.where(speaks | ~speaks.any(axis=0), sure, np.inf).min(axis=0)

    def give_hint(self, board: Board, team: Color, given: Sequence[str] = ()) -> HintChoice:
        choice = super().give_hint(board, team, given)
        return replace(choice, readers=self.agreement(board, choice))

    def agreement(self, board: Board, choice: HintChoice) -> tuple[tuple[str, bool], ...]:
        """Each family of partners that reads the hint itself (not through a backoff), and
        whether every such partner ranks the targets above every other face-down card."""
        words = board.unrevealed_words()
        targets = np.isin(words, choice.targets)
        verdicts: dict[str, bool] = {}
        for partner in self.partners:
            if partner.backoff is not None and not partner.own_row(choice.hint.word, words).any():
                continue
            row = partner.hint_row(choice.hint.word, words)
            agrees = bool(targets.all() or row[targets].min() > row[~targets].max())
            family = family_of(partner)
            verdicts[family] = verdicts.get(family, True) and agrees
        return tuple(verdicts.items())

    def speaking(self, situation: Situation, chosen: np.ndarray) -> np.ndarray:
        """Partners × chosen hints: whether the partner has its own reading of the hint. One
        silent on it reads it through its backoff, a partner already heard: with `abstain`
        it is left out of that hint's voices rather than heard twice."""
        if not self.abstain:
            return np.ones((len(self.partners), len(chosen)), dtype=bool)
        hints = [self.weights.hints[i] for i in chosen]
        return np.stack([p.own_rows(hints, situation.words).any(axis=1) | (p.backoff is None)
                         for p in self.partners])

    def prior(self) -> np.ndarray:
        """What each hint of the vocabulary costs for being rare, in own cards: `rarity` per
        Zipf unit below `common` (people give common words; rare ones are the corpus's)."""
        if not self.rarity:
            return np.zeros(len(self.weights.hints))
        return self.rarity * np.maximum(0.0, self.common - zipf_of(self.weights.hints))

    def assassin_price(self, situation: Situation) -> float:
        """What a card that loses costs, in own cards: more in the endgame of a team alone."""
        late = self.alone and situation.own.sum() <= self.endgame
        return self.endgame_assassin_cost if late else self.assassin_cost

    def shortlist(self, situation: Situation, board: Board,
                  views: Sequence[np.ndarray] = ()) -> np.ndarray:
        """The `candidates` legal hints worth simulating, best by a quick margin score: under
        the captain's own matrix, or averaged over `views`, other matrices of the board."""
        def quick(weights: np.ndarray) -> np.ndarray:
            view = replace(situation, weights=weights)
            return np.where(situation.legal, self.prefilter.score(view, board).max(axis=1), -np.inf)

        best = np.mean([quick(w) for w in views], axis=0) if views else quick(situation.weights)
        n = min(self.candidates, int(np.isfinite(best).sum()))
        return np.argpartition(-best, n - 1)[:n] if n else np.array([], dtype=int)

    def expected(self, situation: Situation, partner: Weights, chosen: np.ndarray,
                 risk: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For each chosen hint and count 1..depth, under one partner's weights: the expected
        own cards less the expected cost of a miss that does not lose, and the chance of a
        miss that does (`losing`); and for each hint, how many own cards the partner's plain
        ranking puts first, short of `assassin_gap` cards from the assassin (its reach)."""
        # As the partner's agent reads them, backoff included, even for the captain's own matrix.
        w = partner.hint_rows([self.weights.hints[i] for i in chosen], situation.words)
        rng = np.random.default_rng(self.seed)  # common random numbers: fair between hints
        noise = rng.gumbel(size=(self.samples, 1, w.shape[1])).astype(np.float32)
        noisy = w[None] / self.temperature + noise                         # (S, n, cards)
        own, others, losing = situation.own, ~situation.own, self.losing(situation)
        cost = np.array([self.cost(c, situation.team) for c in situation.colors], np.float32)
        cost[losing] = 0.0   # a card that loses is priced by its chance (`simulate`), not as a miss
        if others.any():
            best_other = noisy[..., others].max(axis=2)                     # (S, n)
            # Which other card ends the turn does not depend on when (a Gumbel max is
            # independent of its argmax), so its chances are exact, a softmax over the others:
            # a rare assassin is priced at its chance, not at 0 or 1 in `samples`.
            ends = softmax(w[:, others] / self.temperature, axis=1)         # (n, others)
        else:                                        # only own cards are left: no miss
            best_other, ends = np.full(noisy.shape[:2], -np.inf), np.zeros((len(w), 0))
        # The agent guesses down its noisy ranking: the own cards above the best other one.
        miss = (noisy[..., own] > best_other[..., None]).sum(axis=2)        # (S, n)
        miss_cost = ends @ cost[others]
        fatal = ends @ losing[others].astype(np.float32)
        k = np.arange(1, self.depth(situation) + 1)
        found = np.minimum(miss[..., None], k).mean(axis=0)                 # (n, depth)
        missed = (miss[..., None] < k).mean(axis=0)
        return found - missed * (miss_cost * risk)[:, None], missed * fatal[:, None], \
            self.reach(situation, w)

    def reach(self, situation: Situation, w: np.ndarray) -> np.ndarray:
        """For each row of `w` (hints × cards): how many own cards the plain ranking puts above
        every other card; none when the assassin is among its `assassin_gap` strongest other
        cards or tied with them (a reader that strays once may meet it), or is not last when
        fewer are left."""
        own, others = situation.own, ~situation.own
        if not others.any():
            return np.full(len(w), float(own.sum()))
        clear = (w[:, own] > w[:, others].max(axis=1, keepdims=True)).sum(axis=1).astype(float)
        assassin = situation.mask(ASSASSIN)
        if not assassin.any() or not self.assassin_gap:
            return clear
        # Other cards weighed at least as the assassin (itself not counted): ties are no shield.
        rank = (w[:, others] >= w[:, assassin].max(axis=1, keepdims=True)).sum(axis=1) - 1
        gap = min(self.assassin_gap, int(others.sum()) - 1)   # few cards left: it may be last
        return np.where(rank < gap, 0.0, clear)

    @staticmethod
    def losing(situation: Situation) -> np.ndarray:
        """The face-down cards that lose the game when turned over: the assassin, and the
        opponent's last card, which wins it for them."""
        assassin, opponent = situation.mask(ASSASSIN), situation.mask(situation.team.other)
        return assassin | opponent if opponent.sum() == 1 else assassin

    def cost(self, color: Color, team: Color) -> float:
        """What a card of this colour costs when it ends the turn; the cards that lose the game
        are priced apart (`losing`). Alone, a miss costs nothing: the turn ends anyway."""
        if color is team or color is ASSASSIN or self.alone:
            return 0.0
        return self.neutral_cost if color is NEUTRAL else self.opponent_cost


# --- agent -------------------------------------------------------------------


@dataclass
class Memory:
    """An earlier hint of the agent's team and the cards guessed for it."""

    hint: Hint
    guesses: list[str] = field(default_factory=list)

    def outstanding(self, board: Board, team: Color) -> int:
        """How many of the hint's targets are presumably still face down."""
        found = sum(board.card(w).color is team for w in self.guesses)
        return max(0, (self.hint.count or 0) - found)


class Agent:
    """Reads a hint's column over the face-down cards and picks cards.

    With probability `chance` it takes the best card, otherwise it samples a
    softmax of the weights (`chance=1` is greedy). It makes `count` guesses;
    with 0 or unlimited, it goes on while the best card weighs at least
    `threshold`. With `memory`, it spends the bonus guess on an earlier hint
    whose targets are still face down, when one card stands out for it.
    """

    name = "softmax"

    def __init__(self, weights: Weights, chance: float = 0.9, temperature: float = 0.05,
                 threshold: float = 0.3, memory: bool = True, confidence: float = 0.45,
                 lead: float = 0.1):
        self.weights, self.chance = weights, chance
        self.temperature, self.threshold = temperature, threshold
        self.memory, self.confidence, self.lead = memory, confidence, lead
        self.remembered: list[Memory] = []

    def guess(self, board: Board, hint: Hint, guessed: int, rng: np.random.Generator,
              team: Color | None = None) -> str | None:
        """The next card to turn over for this hint, or None to stop.

        `team` lets the agent keep its memory of earlier hints; without it the
        agent judges each hint alone.
        """
        if guessed == 0 and team is not None:
            self.remembered.append(Memory(hint))
        words = board.unrevealed_words()
        if hint.count and guessed >= hint.count:
            word = self.bonus(board, team) if self.memory and team is not None else None
        else:
            column = self.weights.hint_row(hint.word, words)
            word = None if guessed and self.stop(column, hint) else self.pick(words, column, rng)
        if word is not None and team is not None:
            self.remembered[-1].guesses.append(word)
        return word

    def stop(self, column: np.ndarray, hint: Hint) -> bool:
        """Whether to stop before the next guess (never before the first)."""
        return not hint.count and column.max() < self.threshold

    def pick(self, words: list[str], column: np.ndarray, rng: np.random.Generator) -> str:
        best = int(column.argmax())
        if self.chance >= 1 or rng.random() < self.chance:
            return words[best]
        return words[int(rng.choice(len(words), p=softmax(column / self.temperature)))]

    def bonus(self, board: Board, team: Color) -> str | None:
        """A card for an earlier, unfinished hint, when it stands out clearly."""
        words = board.unrevealed_words()
        if len(words) < 2:
            return None
        for memory in self.remembered[:-1]:
            if memory.outstanding(board, team) == 0:
                continue
            column = self.weights.hint_row(memory.hint.word, words)
            first, second = np.sort(column)[::-1][:2]
            if first >= self.confidence and first - second >= self.lead:
                return words[int(column.argmax())]
        return None


class GreedyAgent(Agent):
    """Always the best card; `count` guesses, then the bonus guess from memory."""

    name = "greedy"

    def __init__(self, weights: Weights, **options):
        super().__init__(weights, **{"chance": 1.0, **options})


class ThresholdAgent(Agent):
    """Greedy, but stops early when the next card is weak or barely beats the one after it."""

    name = "threshold"

    def __init__(self, weights: Weights, floor: float = 0.2, min_lead: float = 0.0, **options):
        super().__init__(weights, **{"chance": 1.0, **options})
        self.floor, self.min_lead = floor, min_lead

    def stop(self, column: np.ndarray, hint: Hint) -> bool:
        first, second = (np.sort(column)[::-1][:2] if len(column) > 1 else (column.max(), 0.0))
        return super().stop(column, hint) or first < self.floor or first - second < self.min_lead


def agent_guess(agent: Agent, board: Board, hint: Hint, guessed: int, rng: np.random.Generator,
                team: Color | None = None) -> str | None:
    """The agent's next guess for a hint, telling it its team when it takes one (for its memory)."""
    if team is not None and accepts(type(agent).guess, "team"):
        return agent.guess(board, hint, guessed, rng, team=team)
    return agent.guess(board, hint, guessed, rng)


def agent_plays(agent: Agent, board: Board, hint: Hint, rng: np.random.Generator,
                team: Color | None = None) -> list[str]:
    """The cards the agent would turn over for a hint, in order, without knowing the key.

    Each guess is assumed right (the agent keeps going), so the list ends where
    the agent's own rule stops it, or at the rules' cap of count+1 guesses.
    The board is not changed.
    """
    board = Board([Card(c.word, c.color, c.revealed) for c in board.cards], board.starting_team)
    guesses: list[str] = []
    while board.unrevealed() and (hint.max_guesses is None or len(guesses) < hint.max_guesses):
        word = agent_guess(agent, board, hint, len(guesses), rng, team)
        if word is None:
            break
        guesses.append(word)
        board.card(word).revealed = True
    return guesses


# --- strategies by name ----------------------------------------------------------------

CAPTAINS: dict[str, type[Captain]] = {c.name: c for c in (
    CumsumCaptain, MarginCaptain, ClusterCaptain, ExpectedCaptain)}
AGENTS: dict[str, type[Agent]] = {a.name: a for a in (GreedyAgent, Agent, ThresholdAgent)}
DEFAULT_CAPTAIN, DEFAULT_AGENT = "expected", "greedy"


@dataclass
class AI:
    """The weights and the chosen strategies from which AI players are made.

    `partners` are other initializers' weights that the expected captain
    checks its hints against, so that they work for agents unlike itself.
    A captain whose agent is this AI's own (`twin`) plans for that agent alone.
    """

    weights: Weights
    captain_strategy: str = DEFAULT_CAPTAIN
    agent_strategy: str = DEFAULT_AGENT
    partners: list[Weights] = field(default_factory=list)

    def __post_init__(self) -> None:
        for name, known in ((self.captain_strategy, CAPTAINS), (self.agent_strategy, AGENTS)):
            if name not in known:
                raise ValueError(f"unknown strategy {name!r}: choose one of {', '.join(known)}")

    def captain(self, twin: bool = False, alone: bool = False, level: Level | None = None) -> Captain:
        """A captain; `twin` when its agent is this AI's `agent()`, whose reading it then knows;
        `alone` for a team with no opponent (single-team mode), if the strategy plays one;
        `level` caps its count (and a level that is not `twin` plans for an unknown agent)."""
        options = {} if level is None else {"max_count": level.max_count}
        twin = twin and (level is None or level.twin)
        if self.captain_strategy == ExpectedCaptain.name:
            partners = [] if twin else [self.weights, *self.partners]
            return ExpectedCaptain(self.weights, partners=partners, alone=alone, **options)
        return CAPTAINS[self.captain_strategy](self.weights, **options)

    def agent(self, level: Level | None = None) -> Agent:
        """An agent; a `level` sets how often it takes its best card rather than a likely one."""
        options = {} if level is None else {"chance": level.chance}
        return AGENTS[self.agent_strategy](self.weights, **options)


@dataclass(frozen=True)
class Level:
    """How strongly an AI team plays: its captain's largest count, whether the captain knows how
    its own agent reads (`twin`), and how often the agent takes its best card (`chance`)."""

    name: str
    max_count: int
    twin: bool
    chance: float
    about: str   # what a player meets at this level, measured by `python main.py bench --levels`


LEVELS: dict[str, Level] = {level.name: level for level in (
    Level("easy", max_count=1, twin=False, chance=0.7,
          about="one card a hint: about 9 turns to find its cards"),
    Level("normal", max_count=2, twin=True, chance=0.95,
          about="up to two cards a hint: about 5 turns"),
    Level("hard", max_count=4, twin=True, chance=1.0,
          about="the whole AI, with its twin: about 3 turns"),
)}
DEFAULT_LEVEL = "normal"
