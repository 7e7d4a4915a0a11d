"""The agents: they read a hint's weights over the face-down cards and turn cards over."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from board import NEUTRAL, Board, Card, Color
from models.chances import softmax
from models.hints import Hint
from models.weights import Weights


@dataclass
class Memory:
    """An earlier hint of the agent's team, the cards face down when it was given and the cards
    guessed for it."""

    hint: Hint
    face_down: tuple[str, ...] = ()
    guesses: list[str] = field(default_factory=list)

    def outstanding(self, board: Board, team: Color) -> int:
        """How many of the hint's targets are presumably still face down."""
        found = sum(board.card(w).color is team for w in self.guesses)
        return max(0, (self.hint.count or 0) - found)

    def candidates(self, board: Board, team: Color) -> list[str]:
        """The cards the hint may still have meant: those face down when it was given, less the
        cards guessed for it and the cards since turned over that are not the team's. A team's
        card turned over since for another hint stays, so that a hint whose best card was found
        that way reads as done, not as pointing to its next best (the assassin, at times)."""
        return [w for w in self.face_down if w not in self.guesses
                and (not board.card(w).revealed or board.card(w).color is team)]


class Agent:
    """Reads a hint's column over the face-down cards and picks cards.

    With probability `chance` it takes the best card, otherwise it samples a
    softmax of the weights (`chance=1` is greedy). It makes `count` guesses;
    with 0 or unlimited, it goes on while the best card weighs at least
    `threshold`. With `memory`, it spends the bonus guess on an earlier hint
    whose targets are still face down, when one card stands out for it.

    At a level (`misread`), that share of its picks go astray as people's do: to the card the
    hint brings to mind most among the bystanders and the other team's cards. Only those misreads
    know the key, as a chess engine's weaker level knows its best move, so that they never fall on
    the assassin: a person who beats the AI team beats it in the race, not by its suicide.

    Every strategy is built the same way (`models.ai.AI.agent` builds them all): from its
    matrix, the `partners` (the other matrices at hand, which a strategy reading its own
    alone ignores) and keyword parameters of its own.
    """

    name = "softmax"

    def __init__(self, weights: Weights, partners: Sequence[Weights] = (), *, chance: float = 0.9,
                 temperature: float = 0.05, threshold: float = 0.3, memory: bool = True,
                 confidence: float = 0.45, lead: float = 0.1, misread: float = 0.0):
        self.weights, self.chance, self.misread = weights, chance, misread
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
            self.remembered.append(Memory(hint, tuple(board.unrevealed_words())))
        words = board.unrevealed_words()
        if hint.count and guessed >= hint.count:
            word = self.bonus(board, team) if self.memory and team is not None else None
        else:
            column = self.weights.hint_row(hint.word, words)
            word = None if guessed and self.stop(column, hint) else self.pick(words, column, rng)
            if word is not None and self.misread and team is not None and rng.random() < self.misread:
                word = astray(board, team, words, column) or word
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
        chances = softmax(column / self.temperature)
        return words[int(rng.choice(len(words), p=chances))]

    def bonus(self, board: Board, team: Color) -> str | None:
        """A card for an earlier, unfinished hint, when it stands out clearly and is still face
        down (`Memory.candidates`)."""
        for memory in self.remembered[:-1]:
            words = memory.candidates(board, team)
            if memory.outstanding(board, team) == 0 or len(words) < 2:
                continue
            column = self.weights.hint_row(memory.hint.word, words)
            first, second = np.sort(column)[::-1][:2]
            best = words[int(column.argmax())]
            if first >= self.confidence and first - second >= self.lead and not board.card(best).revealed:
                return best
        return None


def astray(board: Board, team: Color, words: list[str], column: np.ndarray) -> str | None:
    """The card of `words` that `column` weighs most among the bystanders and the other team's
    cards (None: none is face down)."""
    wrong = [i for i, w in enumerate(words) if board.card(w).color in (NEUTRAL, team.other)]
    return words[max(wrong, key=lambda i: column[i])] if wrong else None


class GreedyAgent(Agent):
    """Always the best card; `count` guesses, then the bonus guess from memory."""

    name = "greedy"

    def __init__(self, weights: Weights, partners: Sequence[Weights] = (), **options):
        super().__init__(weights, partners, **{"chance": 1.0, **options})


class ThresholdAgent(Agent):
    """Greedy, but stops early when the next card is weak or barely beats the one after it."""

    name = "threshold"

    def __init__(self, weights: Weights, partners: Sequence[Weights] = (), *, floor: float = 0.2,
                 min_lead: float = 0.0, **options):
        super().__init__(weights, partners, **{"chance": 1.0, **options})
        self.floor, self.min_lead = floor, min_lead

    def stop(self, column: np.ndarray, hint: Hint) -> bool:
        first, second = (np.sort(column)[::-1][:2] if len(column) > 1 else (column.max(), 0.0))
        return super().stop(column, hint) or first < self.floor or first - second < self.min_lead


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
        word = agent.guess(board, hint, len(guesses), rng, team=team)
        if word is None:
            break
        guesses.append(word)
        board.card(word).revealed = True
    return guesses
