"""The Duet game: the engine's turn loop on the double key, with its own events for what the
shared ones cannot say (the timer, a touched card's role, a win or loss for both partners)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from board import Board
from duet.rules import AGENT, DUET_ASSASSIN, TIMER_TOKENS, TOTAL_AGENTS, DuetBoard, Role, Side
from engine import Event, Guesser, HintGiver, RuleError, Turn, TurnEnded, TurnGame, TurnStarted
from model import Hint


@dataclass(frozen=True)
class DuetTurnStarted(TurnStarted):
    tokens: int          # timer tokens left, this turn's included
    number: int = 1      # the turn's number in the game, from 1


@dataclass(frozen=True)
class Touched(Event):
    side: Side           # the guesser
    word: str
    role: Role           # on the clue giver's key


@dataclass(frozen=True)
class DuetOver(Event):
    """The game is won or lost, with `tokens` timer tokens left; `board` is the whole key, for
    its last view."""

    won: bool
    reason: str
    tokens: int = 0
    board: DuetBoard | None = field(default=None, compare=False)


class DuetGame(TurnGame):
    """A cooperative game of Codenames Duet, run turn by turn to a win or a loss.

    Each partner (a HintGiver and a Guesser in one) gives clues for its side of the key and
    guesses on its partner's; `game.cluer` is the side whose clue is being played.
    """

    noun = "clue"

    def __init__(self, board: DuetBoard, players: dict[Side, HintGiver | Guesser],
                 rng: np.random.Generator | None = None, first: Side | None = None,
                 tokens: int = TIMER_TOKENS, seed: int | None = None):
        super().__init__(rng, seed)
        self.board, self.players = board, players
        self.cluer = first if first is not None else (Side.A, Side.B)[int(self.rng.integers(2))]
        self.tokens = tokens
        self.won: bool | None = None
        self.reason = ""

    @property
    def over(self) -> bool:
        return self.won is not None

    def play(self) -> bool:
        """Play turns until the game is won or lost; returns whether it was won."""
        while not self.over:
            self.play_turn()
        return bool(self.won)

    def play_turn(self) -> None:
        """One clue and its guesses; then a timer token is spent and the partners swap roles."""
        if self.board.agents_left(self.cluer) == 0:
            self.cluer = self.cluer.other   # nothing left to clue for: the partner clues
        cluer = self.cluer
        turn = Turn(cluer)
        self.history.append(turn)
        self.emit(DuetTurnStarted(cluer, self.tokens, len(self.history)))
        self.hint_and_guesses(turn, cluer.other)
        if not self.over:
            self.tokens -= 1
            if self.board.agents_found() == TOTAL_AGENTS:
                self.end(True, f"all {TOTAL_AGENTS} agents found in {self.turns_used} turns")
            elif self.tokens == 0:
                self.end(False, f"time ran out with {self.board.agents_found()} of "
                                f"{TOTAL_AGENTS} agents found")
            self.cluer = cluer.other
        self.emit(TurnEnded(cluer, turn.hint, turn.choice, self.over, self.board.captain_board(cluer)))
        if self.over:
            self.emit(DuetOver(bool(self.won), self.reason, self.tokens, self.board))

    def captain(self) -> HintGiver:
        return self.players[self.cluer]

    def guesser(self) -> Guesser:
        return self.players[self.cluer.other]

    def table(self) -> Board:
        return self.board.table_board()

    def key_board(self) -> Board:
        return self.board.captain_board(self.cluer)

    def may_guess(self, hint: Hint, guessed: int) -> bool:
        """The guesser goes on while the clue giver still has agents hidden."""
        return self.board.agents_left(self.cluer) > 0

    def reveal(self, turn: Turn, word: str) -> bool:
        if word not in self.board or word not in self.board.open_for(turn.side):
            raise RuleError(f"{word!r} is not open to guesses")
        role = self.board.reveal(word, turn.side)
        turn.guesses.append((word, role))
        self.emit(Touched(turn.side.other, word, role))
        if role is DUET_ASSASSIN:
            self.end(False, f"an assassin was touched ({word.upper()})")
        return role is AGENT

    def describe(self, side: Side) -> str:
        return f"partner {side.value}"

    def end(self, won: bool, reason: str) -> None:
        """The game is won or lost; DuetOver is told when the turn has ended (`play_turn`)."""
        self.won, self.reason = won, reason

    @property
    def turns_used(self) -> int:
        return len(self.history)

    def record(self) -> dict:
        """The whole game as a JSON-ready dict."""
        return {
            "seed": self.seed,
            "board": self.board.words,
            "keys": {side.value: [r.value for r in self.board.keys[side]] for side in Side},
            "turns": [{"cluer": t.side.value,
                       "clue": None if t.hint is None else [t.hint.word, t.hint.count],
                       "touched": [[w, r.value] for w, r in t.guesses]} for t in self.history],
            "won": self.won,
            "reason": self.reason,
            "agents_found": self.board.agents_found(),
            "turns_used": self.turns_used,
        }
