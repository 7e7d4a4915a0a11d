"""The players: the AI's captain and agent models, and people at the console, behind the
engine's HintGiver and Guesser interfaces; and the teams a game can be set up with."""

from __future__ import annotations

import time

from common import load_libraries
from engine import Game, Turn
from model import Agent, Hint, HintChoice
from prompts import HELP_AGENT, HELP_CAPTAIN, Terminal, ask_card, ask_hint


class AICaptain:
    """A captain model behind the HintGiver interface; it never repeats a hint, and it tells
    the model what its agent turned over for the last one."""

    def __init__(self, model):
        self.model = model
        self.given: list[str] = []
        self.last_choice: HintChoice | None = None
        self.face_down: list[str] = []     # when the last hint was given
        self.seconds: list[float] = []     # how long each hint took to choose

    def give_hint(self, game: Game) -> Hint:
        if (last := self.last_turn(game)) is not None:
            self.model.observe(last.hint.word, self.face_down, [w for w, _ in last.guesses])
        self.face_down = game.board.unrevealed_words()
        start = time.perf_counter()
        choice = self.model.give_hint(game.board, game.team, self.given)
        self.seconds.append(time.perf_counter() - start)
        self.given.append(choice.hint.word)
        self.last_choice = choice
        return choice.hint

    def last_turn(self, game: Game) -> Turn | None:
        """The turn of the last hint this captain gave, if it gave one."""
        if not self.given:
            return None
        return next((t for t in reversed(game.history) if t.side is game.team
                     and t.hint is not None and t.hint.word == self.given[-1]), None)


class AIAgent:
    """An agent model behind the Guesser interface, sampling with the game's rng."""

    def __init__(self, model: Agent):
        self.model = model
        self.seconds: list[float] = []     # how long each guess took to choose

    def guess(self, game: Game, hint: Hint, guessed: int) -> str | None:
        start = time.perf_counter()
        word = self.model.guess(game.board, hint, guessed, game.rng, team=game.team)
        self.seconds.append(time.perf_counter() - start)
        return word


class HumanCaptain:
    """A person giving hints at the console; illegal hints are refused with the reason."""

    def __init__(self, terminal: Terminal):
        self.terminal = terminal
        # The rules' word lists load now (a second or more): after the first hint they would hold
        # the key on a shared screen while the agents wait for it to clear.
        load_libraries()

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
