"""What a captain sees (the face-down cards, their colours and every hint's weights), and the
hint it chooses from a score table, with its reasons."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from board import ASSASSIN, NEUTRAL, Board, Color
from models.hints import Hint
from models.weights import Weights


@dataclass(frozen=True)
class HintChoice:
    """A captain's hint with the reasons behind it: what every captain gives the game, the AI's
    read by `--explain`, the game log and the bot protocol."""

    hint: Hint
    targets: tuple[str, ...]
    target_weights: tuple[float, ...]
    danger: tuple[str, float] | None          # the strongest non-team card for this hint
    runners_up: tuple[tuple[str, int, float], ...] = ()
    score: float = 0.0
    chance: float | None = None   # the chance its reader turns over `count` own cards (None: not said)

    @classmethod
    def bare(cls, hint: Hint) -> HintChoice:
        """A hint given without its reasons (a person's): no targets, nothing to explain."""
        return cls(hint, (), (), None)

    @property
    def reasoned(self) -> bool:
        """Whether the captain said what it meant (the AI does; a person's hint comes bare)."""
        return bool(self.targets)


class NoLegalHint(Exception):
    """The vocabulary has no legal hint for this board (never on a real board)."""


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
