"""A hosted game, saved after every move and resumed from the save: `host --resume`.

The save is the game as the log keeps it (`Game.record`), whether its last turn is still under way,
the state of the game's generator, the join code and the address, and the host's flags; written
atomically, as the caches are (support/files.py), so that a host killed at any moment leaves the
last move's save whole. Resumed, the turns played are laid on the board as they were; a turn under
way is played again through the engine, its hint and guesses said again as they were (`Replayed`),
and then its players go on from there.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from board import Board, Card, Color, Outcome
from common import atomic_write_bytes, load_or_set_aside
from engine import AutoTeam, Event, Game, Guessed, HintGiven, Team, Turn, TurnEnded
from model import Hint, HintChoice
from players import AICaptain

STATE_VERSION = 1


@dataclass
class Saved:
    """A hosted game as saved: `argv` the host's flags, `record` the game (Game.record), `under_way`
    whether its last turn is still being played, `rng` its generator's state."""

    argv: list[str]
    code: str
    address: tuple[str, int]
    record: dict[str, Any]
    under_way: bool
    rng: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"version": STATE_VERSION, "argv": self.argv, "code": self.code, "address": list(self.address),
                "record": self.record, "under_way": self.under_way, "rng": self.rng}

    @classmethod
    def from_json(cls, data: Any) -> Saved:
        """A save from its JSON; ValueError says what is wrong with it."""
        if not isinstance(data, dict) or data.get("version") != STATE_VERSION:
            raise ValueError("not a hosted game saved by this version")
        try:
            host, port = data["address"]
            saved = cls([str(a) for a in data["argv"]], str(data["code"]), (str(host), int(port)),
                         dict(data["record"]), bool(data["under_way"]), dict(data["rng"]))
        except (KeyError, TypeError, ValueError):
            raise ValueError("a hosted game's save with a field missing or wrong") from None
        return saved

    def save(self, path: Path) -> None:
        atomic_write_bytes(path, json.dumps(self.to_json()).encode("utf-8"))


def load(path: Path) -> Saved | None:
    """The game saved at `path`, None when there is none; a broken file is set aside, with a notice."""
    return load_or_set_aside(path, Saved.from_json, "host")


class Saver:
    """A game's listener that saves it after every move: a hint, a card turned over by a team's
    agent, the end of a turn (an auto team's turn is saved whole, at its end: it is one move)."""

    def __init__(self, path: Path, game: Game, argv: Sequence[str], code: str, address: tuple[str, int]):
        self.path, self.game, self.argv, self.code, self.address = path, game, list(argv), code, address

    def __call__(self, event: Event) -> None:
        if isinstance(event, HintGiven) or (isinstance(event, Guessed)
                                            and not isinstance(self.game.teams[event.side], AutoTeam)):
            self.save(under_way=True)
        elif isinstance(event, TurnEnded):
            self.save(under_way=False)

    def save(self, under_way: bool = False) -> None:
        game = self.game
        Saved(self.argv, self.code, self.address, game.record(), under_way,
              game.rng.bit_generator.state).save(self.path)


def restore(saved: Saved, teams: dict[Color, Team | AutoTeam]) -> Game:
    """The saved game, played by `teams`, ready to go on; ValueError when the save makes no sense."""
    record = saved.record
    try:
        cards = [Card(word, Color(color)) for word, color in zip(record["board"], record["key"], strict=True)]
        game = Game(Board(cards, Color(record["starting_team"])), teams, seed=record["seed"])
        game.started = record["time"]
        turns = [turn_of(t) for t in record["turns"]]
        game.rng.bit_generator.state = saved.rng
    except (KeyError, TypeError, ValueError) as problem:
        raise ValueError(f"the saved game makes no sense ({problem})") from None
    played, under_way = (turns[:-1], turns[-1]) if saved.under_way and turns else (turns, None)
    given = lay_out(game, played)
    if played:
        game.team = played[-1].side.other
    if under_way is not None:
        game.team = under_way.side
        given.setdefault(under_way.side, []).append((under_way, game.board.unrevealed_words()))
    for color, team in teams.items():
        if isinstance(team, Team) and isinstance(team.captain, AICaptain):
            team.captain.catch_up(given.get(color, []))
    if under_way is not None:   # its players stand in for the team until the turn is as it was
        Replayed(game, under_way)
    return game


def lay_out(game: Game, turns: list[Turn]) -> dict[Color, list[tuple[Turn, list[str]]]]:
    """Lay the turns played on the game's board and history; each team's hints, with the cards face
    down when each was given (what an AI captain catches up on)."""
    given: dict[Color, list[tuple[Turn, list[str]]]] = {}
    for turn in turns:
        face_down = game.board.unrevealed_words()
        for word, outcome in turn.guesses:
            if word not in game.board or game.board.card(word).revealed:
                raise ValueError(f"the saved game makes no sense: {word!r} is not a face-down card")
            if game.board.reveal(word, turn.side) is not outcome:
                raise ValueError(f"the saved game makes no sense: {word!r} was not {outcome.value}")
        game.history.append(turn)
        if turn.hint is not None:
            given.setdefault(turn.side, []).append((turn, face_down))
    if game.board.winner() is not None or any(o is Outcome.ASSASSIN for t in turns for _, o in t.guesses):
        raise ValueError("the saved game is over")
    return given


def turn_of(record: dict[str, Any]) -> Turn:
    """A turn from the game's record."""
    hint = None if record["hint"] is None else Hint(record["hint"][0], record["hint"][1])
    choice = None if not record["targets"] else HintChoice(hint, tuple(record["targets"]), (), None)
    return Turn(Color(record["team"]), hint, [(w, Outcome(o)) for w, o in record["guesses"]], choice)


class Replayed:
    """The turn under way when the host stopped, played again as it went: the hint said again and
    the cards turned over again, then the team's own players take over (at its end at the latest)."""

    def __init__(self, game: Game, turn: Turn):
        self.game, self.turn = game, turn
        self.team = game.teams[turn.side]
        game.teams[turn.side] = Team(turn.side, self, self, self.team.label)
        game.listeners.insert(0, self.on_event)

    def give_hint(self, game: Game) -> HintChoice:
        return self.turn.choice or HintChoice.bare(self.turn.hint)

    def guess(self, game: Game, hint: Hint, guessed: int) -> str | None:
        if guessed < len(self.turn.guesses):
            return self.turn.guesses[guessed][0]
        self.hand_back()
        return self.team.agent.guess(game, hint, guessed)

    def on_event(self, event: Event) -> None:
        if isinstance(event, TurnEnded):
            self.hand_back()

    def hand_back(self) -> None:
        self.game.teams[self.turn.side] = self.team
