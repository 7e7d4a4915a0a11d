"""Players, teams and the game.

The `Game` runs the turns and enforces the rules; it never prints. It reports
what happens as events to its listeners (the renderer), and it asks players
for hints and guesses. Human players talk to the user through a `Terminal`
that main.py provides.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from board import TEAMS, Board, Color, Outcome
from common import normalise
from model import Agent, Hint, HintChoice, NoLegalHint, agent_guess, hint_problem, parse_hint, spellings

MAX_INPUT = 200  # characters of a typed line that are read; the rest is noise


class QuitGame(Exception):
    """The user asked to leave the game."""


class RuleError(Exception):
    """A player broke a rule the engine cannot repair (a bug in an AI, never a user's typo)."""


# --- events: what the game reports --------------------------------------------------


@dataclass(frozen=True)
class TurnStarted:
    team: Color


@dataclass(frozen=True)
class HintGiven:
    team: Color
    hint: Hint
    choice: HintChoice | None = None  # the AI's reasons, for --explain


@dataclass(frozen=True)
class Guessed:
    team: Color
    word: str
    color: Color
    outcome: Outcome


@dataclass(frozen=True)
class Passed:
    team: Color


@dataclass(frozen=True)
class TurnEnded:
    """A team's turn is over; `choice` says what an AI captain meant by its hint (None for a
    person's hint or an auto team's turn)."""

    team: Color
    hint: Hint | None
    choice: HintChoice | None = None


@dataclass(frozen=True)
class GameOver:
    winner: Color
    reason: str


Event = TurnStarted | HintGiven | Guessed | Passed | TurnEnded | GameOver


@dataclass
class Turn:
    """One team's turn: its hint (None for an auto team), an AI captain's reasons for it, and
    what the team turned over."""

    team: Color
    hint: Hint | None = None
    guesses: list[tuple[str, Outcome]] = field(default_factory=list)
    choice: HintChoice | None = None


# --- players ------------------------------------------------------------------------


class HintGiver(Protocol):
    """A captain as the game sees it: human or AI, it gives a hint for its team."""

    def give_hint(self, game: Game) -> Hint: ...


class Guesser(Protocol):
    def guess(self, game: Game, hint: Hint, guessed: int) -> str | None: ...


class Terminal(Protocol):
    """What a human player needs of the console."""

    def ask(self, prompt: str) -> str: ...   # may raise EOFError or KeyboardInterrupt
    def tell(self, message: str) -> None: ...
    def show(self, game: Game, captain: bool) -> None: ...
    def help(self, message: str) -> None: ...   # the prompt's help, with the rules and the legend


class AICaptain:
    """A captain model behind the HintGiver interface; it never repeats a hint, and it tells
    the model what its agent turned over for the last one."""

    def __init__(self, model):
        self.model = model
        self.given: list[str] = []
        self.last_choice: HintChoice | None = None
        self.face_down: list[str] = []     # when the last hint was given

    def give_hint(self, game: Game) -> Hint:
        if (last := self.last_turn(game)) is not None:
            self.model.observe(last.hint.word, self.face_down, [w for w, _ in last.guesses])
        self.face_down = game.board.unrevealed_words()
        choice = self.model.give_hint(game.board, game.team, self.given)
        self.given.append(choice.hint.word)
        self.last_choice = choice
        return choice.hint

    def last_turn(self, game: Game) -> Turn | None:
        """The turn of the last hint this captain gave, if it gave one."""
        if not self.given:
            return None
        return next((t for t in reversed(game.history) if t.team is game.team
                     and t.hint is not None and t.hint.word == self.given[-1]), None)


class AIAgent:
    """An agent model behind the Guesser interface, sampling with the game's rng."""

    def __init__(self, model: Agent):
        self.model = model

    def guess(self, game: Game, hint: Hint, guessed: int) -> str | None:
        return agent_guess(self.model, game.board, hint, guessed, game.rng, team=game.team)


HELP_CAPTAIN = ("Give a hint as one word and a count, e.g. 'ocean 2' (0-9 or 'unlimited').\n"
                "Commands: board (show the board), help, quit.")
HELP_AGENT = ("Type a word from the board to turn it over.\n"
              "Commands: pass (end the turn, after one guess), board, help, quit. When a card is\n"
              "called PASS, typing pass asks which you mean; /pass always passes.")
EMPTY_HINT = "Type a {} and a count, e.g. 'ocean 2', or 'help'."
EMPTY_CAPTAIN = EMPTY_HINT.format("hint")
EMPTY_AGENT = "Type a word from the board, 'pass' or 'help'."

# What people type for each command; a leading slash ('/pass') makes any of them a command.
COMMANDS = {"help": "help", "?": "help", "rules": "help", "board": "board", "pass": "pass",
            "stop": "pass", "end": "pass", "quit": "quit", "exit": "quit", "q": "quit"}


class HumanCaptain:
    """A person giving hints at the console; illegal hints are refused with the reason."""

    def __init__(self, terminal: Terminal):
        self.terminal = terminal
        # The rules' word lists load now (a second or more): after the first hint they would hold
        # the key on a shared screen while the agents wait for it to clear.
        spellings("ready")

    def give_hint(self, game: Game) -> Hint:
        self.terminal.show(game, captain=True)
        return ask_hint(self.terminal, f"{game.team.value} captain, your hint> ", game.board,
                        HELP_CAPTAIN, lambda: self.terminal.show(game, captain=True))


class HumanAgent:
    """A person guessing at the console, with "did you mean …?" for typos."""

    def __init__(self, terminal: Terminal):
        self.terminal = terminal

    def guess(self, game: Game, hint: Hint, guessed: int) -> str | None:
        if guessed == 0:
            self.terminal.show(game, captain=False)
        left = game.guesses_left(hint, guessed)
        limit = "no limit" if left is None else f"{left} left"
        return ask_card(self.terminal, f"{game.team.value} agent, guess ({limit})> ",
                        game.board.unrevealed_words(), game.board.words, guessed, HELP_AGENT,
                        lambda: self.terminal.show(game, captain=False))


# --- the input loops, shared with Duet --------------------------------------------------


def ask_hint(terminal: Terminal, prompt: str, board: Board, help_text: str,
             show: Callable[[], None], noun: str = "hint") -> Hint:
    """Ask until the person gives a hint that is legal on `board`; commands are answered."""
    while True:
        line = read_command(terminal, prompt)
        match command(line):
            case "help":
                terminal.help(help_text)
            case "board":
                show()
            case None if not line:
                terminal.tell(EMPTY_HINT.format(noun))
            case None:
                try:
                    hint = parse_hint(line)
                except ValueError as error:
                    terminal.tell(str(error))
                    continue
                if problem := hint_problem(hint.word, board):
                    terminal.tell(f"That {noun} is not allowed: {problem}.")
                    continue
                return hint
            case other:
                terminal.tell(unknown_command(line, other))


def ask_card(terminal: Terminal, prompt: str, open_words: list[str], words: Collection[str],
             guessed: int, help_text: str, show: Callable[[], None],
             closed: str = "is already turned over") -> str | None:
    """Ask until the person names an open card (returned) or passes after a guess (None).

    A face-down card called like a command (PASS, BOARD) is never turned over unasked: the
    person says which they meant (`card_or_command`); '/pass' is always the command.
    """
    while True:
        line = read_command(terminal, prompt, open_words)
        if line in open_words and COMMANDS.get(line) and not card_or_command(terminal, line):
            line = "/" + line
        match command(line, open_words):
            case "help":
                terminal.help(help_text)
            case "board":
                show()
            case "pass" if guessed:
                return None
            case "pass":
                terminal.tell("Make at least one guess before you pass.")
            case None if not line:
                terminal.tell(EMPTY_AGENT)
            case None if line in open_words:
                return line
            case None if line in words:
                terminal.tell(f"{line.upper()} {closed}.")
            case None:
                terminal.tell(did_you_mean(line, open_words))
            case "quit":
                raise QuitGame
            case other:
                terminal.tell(unknown_command(line, other))


def card_or_command(terminal: Terminal, word: str) -> bool:
    """Ask whether `word`, a face-down card's word and a command, meant the card (True)."""
    name = COMMANDS[word]
    while True:
        answer = read_line(terminal, f"{word.upper()} is a card on the board: type card to turn it "
                                     f"over, or /{name} to {name}> ")
        if answer in (name, f"/{name}"):
            return False
        if answer in ("card", word):
            return True
        terminal.tell(f"Type 'card' to turn over {word.upper()}, or '/{name}'.")


def read_line(terminal: Terminal, prompt: str) -> str:
    """One line of input, cleaned: printable, lower case, single-spaced.

    A line longer than MAX_INPUT is refused with a message, and the prompt comes again.
    """
    while True:
        raw = terminal.ask(prompt)
        if len(raw) <= MAX_INPUT:
            line = normalise("".join(ch if ch.isprintable() else " " for ch in raw))
            return " ".join(line.split())
        terminal.tell(f"That line is too long ({len(raw):,} characters; at most {MAX_INPUT}).")


def read_command(terminal: Terminal, prompt: str, cards: Collection[str] = ()) -> str:
    """One cleaned line of input (see `read_line`); 'quit' raises QuitGame.

    `cards` are the words that a bare command word does not shadow (see `command`).
    """
    line = read_line(terminal, prompt)
    if command(line, cards) == "quit":
        raise QuitGame
    return line


def command(line: str, cards: Collection[str] = ()) -> str | None:
    """The command a cleaned line names ('help', 'board', 'pass', 'quit'; 'unknown'), or None.

    '/pass' is always a command; a bare 'pass' is one unless a card in `cards` is called PASS,
    since a card's word must always turn the card over.
    """
    if line.startswith("/"):
        return COMMANDS.get(line[1:].strip(), "unknown")
    if line in cards:
        return None
    return COMMANDS.get(line)


def unknown_command(line: str, name: str) -> str:
    """The answer to a command typed at a prompt where it means nothing."""
    if name == "unknown":
        return f"{line!r} is not a command. Type 'help' for the commands."
    return f"'{name}' does nothing here. Type 'help' for the commands."


def did_you_mean(word: str, choices: list[str]) -> str:
    """A helpful answer to a word that is not a face-down card."""
    match = process.extractOne(word, choices, scorer=Levenshtein.normalized_distance)
    if match and match[1] <= 0.5:
        return f"{word!r} is not on the board. Did you mean {match[0].upper()}?"
    return f"{word!r} is not a face-down card on the board. Type 'board' to see it."


# --- teams --------------------------------------------------------------------------


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


COMPOSITIONS = ("human:human", "human:ai", "ai:human", "ai:ai", "auto")


def parse_composition(text: str) -> str:
    """Check a 'captain:agent' composition ('human:ai', 'ai:ai', …) or 'auto'."""
    text = text.strip().lower().replace(" ", "")
    aliases = {"h": "human", "a": "ai", "human": "human", "ai": "ai"}
    if text in ("auto", "solo"):
        return "auto"
    parts = text.split(":")
    if len(parts) == 2 and all(p in aliases for p in parts):
        return f"{aliases[parts[0]]}:{aliases[parts[1]]}"
    if text in aliases:   # one word means both roles
        return f"{aliases[text]}:{aliases[text]}"
    raise ValueError(f"unknown team {text!r}: choose one of {', '.join(COMPOSITIONS)}")


# --- the game -----------------------------------------------------------------------


class Game:
    """A game of Codenames between two teams, run turn by turn to the end."""

    def __init__(self, board: Board, teams: dict[Color, Team | AutoTeam],
                 rng: np.random.Generator | None = None, seed: int | None = None):
        self.board, self.teams = board, teams
        self.rng = rng if rng is not None else np.random.default_rng(seed)
        self.seed = seed
        self.team: Color = board.starting_team
        self.history: list[Turn] = []
        self.winner: Color | None = None
        self.reason = ""
        self.listeners: list[Callable[[Event], None]] = []
        self.started = time.time()

    @property
    def over(self) -> bool:
        return self.winner is not None

    def emit(self, event: Event) -> None:
        for listener in self.listeners:
            listener(event)

    @staticmethod
    def guesses_left(hint: Hint, guessed: int) -> int | None:
        return None if hint.max_guesses is None else hint.max_guesses - guessed

    def play(self) -> Color:
        """Play turns until a team wins; returns the winner."""
        while not self.over:
            self.play_turn()
        return self.winner

    def play_turn(self) -> None:
        """One team's whole turn; then the other team is to play."""
        team = self.teams[self.team]
        turn = Turn(self.team)
        self.history.append(turn)
        self.emit(TurnStarted(self.team))
        if isinstance(team, AutoTeam):
            own = [c.word for c in self.board.unrevealed() if c.color is self.team]
            self._reveal(turn, own[int(self.rng.integers(len(own)))])
        else:
            self._hint_and_guess(team, turn)
        self.emit(TurnEnded(turn.team, turn.hint, turn.choice))
        if self.over:
            self.emit(GameOver(self.winner, self.reason))
        else:
            self.team = self.team.other

    def _hint_and_guess(self, team: Team, turn: Turn) -> None:
        try:
            hint = team.captain.give_hint(self)
        except NoLegalHint as error:
            raise RuleError(f"the {self.team.value} captain has no legal hint: {error}") from None
        if problem := hint_problem(hint.word, self.board):
            raise RuleError(f"illegal hint {hint}: {problem}")
        turn.hint, turn.choice = hint, getattr(team.captain, "last_choice", None)
        self.emit(HintGiven(self.team, hint, turn.choice))
        guessed = 0
        while not self.over and (hint.max_guesses is None or guessed < hint.max_guesses):
            word = team.agent.guess(self, hint, guessed)
            if word is None:
                if guessed == 0:
                    raise RuleError("an agent must make at least one guess")
                self.emit(Passed(self.team))
                return
            outcome = self._reveal(turn, word)
            guessed += 1
            if outcome is not Outcome.OWN:
                return

    def _reveal(self, turn: Turn, word: str) -> Outcome:
        word = normalise(word)
        if word not in self.board or self.board.card(word).revealed:
            raise RuleError(f"{word!r} is not a face-down card")
        outcome = self.board.reveal(word, self.team)
        turn.guesses.append((word, outcome))
        self.emit(Guessed(self.team, word, self.board.card(word).color, outcome))
        if outcome is Outcome.ASSASSIN:
            self._end(self.team.other, f"{self.team.value} turned over the assassin")
        elif (winner := self.board.winner()) is not None:
            self._end(winner, f"{winner.value} found all their agents")
        return outcome

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
            "teams": {t.value: self.teams[t].label for t in TEAMS},
            "turns": [{"team": t.team.value,
                       "hint": None if t.hint is None else [t.hint.word, t.hint.count],
                       "targets": None if t.choice is None else list(t.choice.targets),
                       "guesses": [[w, o.value] for w, o in t.guesses]} for t in self.history],
            "winner": None if self.winner is None else self.winner.value,
            "reason": self.reason,
            "assassin": any(o is Outcome.ASSASSIN for t in self.history for _, o in t.guesses),
        }
