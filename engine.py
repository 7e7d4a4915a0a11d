"""The game engine: events, turns, teams, rule errors and the turn loop.

A game asks its players for hints and guesses, enforces the rules and reports what happens as
events to its listeners (the renderer); it never prints. `TurnGame` is the loop every variant
shares: a hint checked against the rules, then guesses until the guessers stop or the rules stop
them. `Game` is Codenames, two teams or one team alone (the single-team mode the bench measures);
Duet (duet/) is the other variant, on the same events.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from board import TEAMS, Board, Color, Outcome
from common import normalise
from model import Hint, HintChoice, NoLegalHint, hint_problem


class RuleError(Exception):
    """A player broke a rule the engine cannot repair (a bug in an AI, never a user's typo)."""


# --- events: what a game reports -------------------------------------------------------------
# `side` is who acts: a team's colour in Codenames, a partner's side of the key in Duet.


@dataclass(frozen=True)
class Event:
    """Something that happened in a game, told to its listeners."""


@dataclass(frozen=True)
class TurnStarted(Event):
    side: Hashable


@dataclass(frozen=True)
class HintGiven(Event):
    """A hint, with what its captain meant when it said (the AI's reasons, for --explain);
    `board` is the key the captain chose it on, for the colours its reasons name."""

    side: Hashable
    hint: Hint
    choice: HintChoice | None = None
    board: Board | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Guessed(Event):
    """A Codenames card turned over: its colour, and what it means for the guessing team."""

    side: Hashable
    word: str
    color: Color
    outcome: Outcome


@dataclass(frozen=True)
class Passed(Event):
    """The guessers stopped of their own accord (`side` is theirs)."""

    side: Hashable


@dataclass(frozen=True)
class TurnEnded(Event):
    """A turn is over; `choice` says what an AI captain meant by its hint (None for a person's
    hint or an auto team's turn); `final` when the game ended with it. `board` is the key as the
    turn left it, for the cards still face down."""

    side: Hashable
    hint: Hint | None
    choice: HintChoice | None = None
    final: bool = False
    board: Board | None = field(default=None, compare=False)




@dataclass
class Turn:
    """One turn: who gives the hint (a team's colour in Codenames, the clue giver's side in Duet),
    the hint (None for an auto team), an AI captain's reasons for it, each card turned over with
    what it meant, and what is wrong with the hint when a lenient game played it anyway."""

    side: Hashable
    hint: Hint | None = None
    guesses: list[tuple[str, Hashable]] = field(default_factory=list)
    choice: HintChoice | None = None
    problem: str | None = None


@dataclass(frozen=True)
class GameOver(Event):
    """The game is won; `board` and `turns` are the whole game, for its last view and recap."""

    winner: Color
    reason: str
    board: Board | None = field(default=None, compare=False)
    turns: tuple[Turn, ...] = field(default=(), compare=False)


# --- players and teams -----------------------------------------------------------------------


class HintGiver(Protocol):
    """A captain as a game sees it: human or AI, it gives a hint for the side to play, with what
    it meant by it when it says (`HintChoice.bare` when it does not)."""

    def give_hint(self, game: TurnGame) -> HintChoice: ...


class Guesser(Protocol):
    """An agent as a game sees it: the next card to turn over for a hint, or None to stop."""

    def guess(self, game: TurnGame, hint: Hint, guessed: int) -> str | None: ...


@dataclass
class Team:
    """A captain and an agent (a guesser) playing one colour."""

    color: Color
    captain: HintGiver
    agent: Guesser
    label: str = ""


@dataclass
class AutoTeam:
    """A solo-play opponent: each turn it turns over one of its own cards at random."""

    color: Color
    label: str = "auto"


# --- the loop every variant shares -------------------------------------------------------------


class TurnGame:
    """A game of turns: each turn a captain gives a hint and guessers turn cards over.

    A variant says who plays (`captain`, `guesser`), which words a hint must not name (`table`),
    how many guesses a hint allows (`may_guess`), what a guess turns over (`reveal`) and when the
    game is over.
    """

    noun = "hint"   # what the rules call a hint, in errors

    def __init__(self, rng: np.random.Generator | None, seed: int | None):
        self.rng = rng if rng is not None else np.random.default_rng(seed)
        self.seed = seed
        self.history: list[Turn] = []
        self.listeners: list[Callable[[Event], None]] = []

    @property
    def over(self) -> bool:
        raise NotImplementedError

    def emit(self, event: Event) -> None:
        for listener in self.listeners:
            listener(event)

    def play_turn(self) -> None:
        raise NotImplementedError

    # What a variant says about the turn being played.
    def captain(self) -> HintGiver:
        raise NotImplementedError

    def guesser(self) -> Guesser:
        raise NotImplementedError

    def table(self) -> Board:
        raise NotImplementedError

    def key_board(self) -> Board:
        """The board with the key of the captain to play: the colours an AI's reasons name."""
        raise NotImplementedError

    def may_guess(self, hint: Hint, guessed: int) -> bool:
        raise NotImplementedError

    def reveal(self, turn: Turn, word: str) -> bool:
        """Turn over the card a guesser named; whether the guessers may go on."""
        raise NotImplementedError

    def hint_and_guesses(self, turn: Turn, guessers: Hashable, lenient: bool = False) -> None:
        """The captain's hint, then guesses until the guessers pass or the rules end the turn.

        A hint the rules refuse is a RuleError, unless `lenient`: it is then played, and what is
        wrong with it kept in `turn.problem`.
        """
        try:
            choice = self.captain().give_hint(self)
        except NoLegalHint as error:
            raise RuleError(f"the {self.describe(turn.side)} has no legal {self.noun}: {error}") from None
        hint = choice.hint
        turn.problem = hint_problem(hint.word, self.table())
        if turn.problem and not lenient:
            raise RuleError(f"illegal {self.noun} {hint}: {turn.problem}")
        turn.hint, turn.choice = hint, choice if choice.reasoned else None
        self.emit(HintGiven(turn.side, hint, turn.choice, self.key_board()))
        guessed = 0
        while not self.over and self.may_guess(hint, guessed):
            word = self.guesser().guess(self, hint, guessed)
            if word is None:
                if guessed == 0:
                    raise RuleError("a guesser must make at least one guess")
                self.emit(Passed(guessers))
                return
            guessed += 1
            if not self.reveal(turn, normalise(word)):
                return

    def describe(self, side: Hashable) -> str:
        """Who gives the hints for `side`, in errors."""
        return f"{side} captain"


# --- Codenames ---------------------------------------------------------------------------------


class Game(TurnGame):
    """A game of Codenames, run turn by turn to the end.

    With two teams they take turns; with one (the single-team mode of the Codenames AI
    Competition, which the bench measures) that team plays every turn and loses when the
    other team's cards are all turned over (each turn turns one over at least, so it ends). A
    `lenient` game plays an illegal hint and records why it is illegal (`Turn.problem`), for the
    bench to count, where a strict one raises RuleError.
    """

    def __init__(self, board: Board, teams: dict[Color, Team | AutoTeam],
                 rng: np.random.Generator | None = None, seed: int | None = None,
                 lenient: bool = False):
        super().__init__(rng, seed)
        self.board, self.teams = board, teams
        self.team: Color = board.starting_team if board.starting_team in teams else next(iter(teams))
        self.lenient = lenient
        self.winner: Color | None = None
        self.reason = ""
        self.started = time.time()

    @property
    def solo(self) -> bool:
        """One team alone on the board."""
        return len(self.teams) == 1

    @property
    def over(self) -> bool:
        return self.winner is not None

    @staticmethod
    def guesses_left(hint: Hint, guessed: int) -> int | None:
        return None if hint.max_guesses is None else hint.max_guesses - guessed

    def play(self) -> Color:
        """Play turns until a team wins; returns the winner."""
        while not self.over:
            self.play_turn()
        return self.winner

    def play_turn(self) -> None:
        """One team's whole turn; then the other team is to play (in single-team mode, the same)."""
        team = self.teams[self.team]
        turn = Turn(self.team)
        self.history.append(turn)
        self.emit(TurnStarted(self.team))
        if isinstance(team, AutoTeam):
            own = [c.word for c in self.board.unrevealed() if c.color is self.team]
            self.reveal(turn, own[int(self.rng.integers(len(own)))])
        else:
            self.hint_and_guesses(turn, self.team, self.lenient)
        self.emit(TurnEnded(turn.side, turn.hint, turn.choice, self.over, self.board))
        if self.over:
            self.emit(GameOver(self.winner, self.reason, self.board, tuple(self.history)))
        elif not self.solo:
            self.team = self.team.other

    def captain(self) -> HintGiver:
        return self.teams[self.team].captain

    def guesser(self) -> Guesser:
        return self.teams[self.team].agent

    def table(self) -> Board:
        return self.board

    def key_board(self) -> Board:
        return self.board

    def may_guess(self, hint: Hint, guessed: int) -> bool:
        return hint.max_guesses is None or guessed < hint.max_guesses

    def reveal(self, turn: Turn, word: str) -> bool:
        if word not in self.board or self.board.card(word).revealed:
            raise RuleError(f"{word!r} is not a face-down card")
        outcome = self.board.reveal(word, self.team)
        turn.guesses.append((word, outcome))
        self.emit(Guessed(self.team, word, self.board.card(word).color, outcome))
        if outcome is Outcome.ASSASSIN:
            self._end(self.team.other, f"{self.team.value} turned over the assassin")
        elif (winner := self.board.winner()) is not None:
            self._end(winner, f"{winner.value} found all their agents")
        return outcome is Outcome.OWN

    def describe(self, side: Color) -> str:
        return f"{side.value} captain"

    def abandon(self, reason: str) -> None:
        """Record why a game stopped before its end (a player quit, the input closed)."""
        if not self.over:
            self.reason = f"abandoned: {reason}"

    def _end(self, winner: Color, reason: str) -> None:
        """The game is won; GameOver is told when the turn has ended (`play_turn`)."""
        self.winner, self.reason = winner, reason

    def record(self) -> dict:
        """The whole game as one JSON-ready dict, for the game log."""
        return {
            "time": round(self.started),
            "seed": self.seed,
            "board": self.board.words,
            "key": [c.value for c in self.board.key],
            "starting_team": self.board.starting_team.value,
            "teams": {t.value: self.teams[t].label for t in TEAMS if t in self.teams},
            "turns": [{"team": t.side.value,
                       "hint": None if t.hint is None else [t.hint.word, t.hint.count],
                       "targets": None if t.choice is None else list(t.choice.targets),
                       "guesses": [[w, o.value] for w, o in t.guesses]} for t in self.history],
            "winner": None if self.winner is None else self.winner.value,
            "reason": self.reason,
            "assassin": any(o is Outcome.ASSASSIN for t in self.history for _, o in t.guesses),
        }
