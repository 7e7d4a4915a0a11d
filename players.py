"""The players: the AI's captain and agent models, and people at the console, behind the
engine's HintGiver and Guesser interfaces; and the teams a game can be set up with."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from board import Color
from common import load_libraries
from engine import AutoTeam, Event, Game, Guessed, HintGiven, Team, Turn, TurnEnded
from model import AI, LEVELS, TARGETS, Agent, Choice, Hint, HintChoice, Person
from prompts import HELP_AGENT, HELP_CAPTAIN, Terminal, ask_card, ask_hint


class AICaptain:
    """A captain model behind the HintGiver interface; it never repeats a hint, and it tells
    the model what its agent turned over for the last one."""

    def __init__(self, model):
        self.model = model
        self.given: list[str] = []
        self.face_down: list[str] = []     # when the last hint was given
        self.seconds: list[float] = []     # how long each hint took to choose

    def give_hint(self, game: Game) -> HintChoice:
        if (last := self.last_turn(game)) is not None:
            self.observe(last, self.face_down)
        self.face_down = game.board.unrevealed_words()
        start = time.perf_counter()
        choice = self.model.give_hint(game.board, game.team, self.given)
        self.seconds.append(time.perf_counter() - start)
        self.given.append(choice.hint.word)
        return choice

    def observe(self, turn: Turn, face_down: list[str]) -> None:
        """Tell the model what its agent turned over for a hint it gave, with `face_down` the cards
        face down when it gave it."""
        self.model.observe(turn.hint.word, face_down, [w for w, _ in turn.guesses])

    def catch_up(self, given: Sequence[tuple[Turn, list[str]]]) -> None:
        """Take up a game restored part-way through (a hosted game resumed: network/saved.py) as if
        it had played it: `given` holds each turn it gave the hint of, in order, with the cards face
        down then. What was turned over for each is observed as `give_hint` does: all but the last
        now, the last at the next hint."""
        for turn, face_down in given[:-1]:
            self.observe(turn, face_down)
        self.given = [turn.hint.word for turn, _ in given]
        self.face_down = list(given[-1][1]) if given else []

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


@dataclass(frozen=True)
class GivenHint:
    """A hint a person gave, the cards face down when they gave it, and what the AI turned over."""

    hint: Hint
    face_down: tuple[str, ...]
    turned: tuple[tuple[str, Color], ...]


class Learning:
    """Teaches the AI a person's ways as they play: a game's listener that makes each of their
    turns a choice for `person` (models/person.py). Where the person guesses (`guessing`), the
    cards they turned over for the AI's hint, in order, learnt at once. Where they give the hints
    (`giving`), the hints are kept (`given`) for the person to say which cards they meant
    (`meant`): the cards the AI turned over are its own reading, and learning from them would
    only teach it what it already thinks."""

    def __init__(self, person: Person, guessing: set[Color], giving: set[Color]):
        self.person, self.guessing, self.giving = person, guessing, giving
        self.face_down: tuple[str, ...] = ()
        self.turned: list[tuple[str, Color]] = []
        self.given: list[GivenHint] = []

    def __call__(self, event: Event) -> None:
        if isinstance(event, HintGiven) and event.board is not None:
            self.face_down, self.turned = tuple(event.board.unrevealed_words()), []
        elif isinstance(event, Guessed):
            self.turned.append((event.word, event.color))
        elif isinstance(event, TurnEnded) and event.hint is not None and self.face_down:
            if event.side in self.guessing:
                meant = event.choice.targets if event.choice is not None else ()
                self.person.observe(Choice(event.hint.word, self.face_down, tuple(w for w, _ in self.turned),
                                           meant=tuple(w for w in meant if w in self.face_down),
                                           stopped=self.stopped(event)))
            elif event.side in self.giving:
                self.given.append(GivenHint(event.hint, self.face_down, tuple(self.turned)))

    def stopped(self, event: TurnEnded) -> bool:
        """Whether the person ended the turn themselves, every card they turned their own, short of
        the count and the game not over."""
        own = all(color == event.side for _, color in self.turned)
        count = event.hint.count
        return bool(self.turned) and own and not event.final and bool(count) and len(self.turned) < count

    def meant(self, given: GivenHint, cards: Sequence[str]) -> None:
        """Learn that the person meant `cards` by a hint they gave (ValueError: not among the
        cards face down when they gave it)."""
        if cards:
            self.person.observe(Choice(given.hint.word, given.face_down, tuple(cards), TARGETS))


class HumanCaptain:
    """A person giving hints at the console; illegal hints are refused with the reason."""

    def __init__(self, terminal: Terminal):
        self.terminal = terminal
        # The rules' word lists load now (a second or more): after the first hint they would hold
        # the key on a shared screen while the agents wait for it to clear.
        load_libraries()

    def give_hint(self, game: Game) -> HintChoice:
        show(self.terminal, game, captain=True)
        hint = ask_hint(self.terminal, f"{game.team.value} captain, your hint> ", game.board,
                        HELP_CAPTAIN, lambda: show(self.terminal, game, captain=True))
        return HintChoice.bare(hint)


class HumanAgent:
    """A person guessing at the console, with "did you mean …?" for typos."""

    def __init__(self, terminal: Terminal):
        self.terminal = terminal

    def guess(self, game: Game, hint: Hint, guessed: int) -> str | None:
        if guessed == 0:
            show(self.terminal, game, captain=False)
        left = game.guesses_left(hint, guessed)
        limit = "no limit" if left is None else f"{left} left"
        return ask_card(self.terminal, f"{game.team.value} agent, guess ({limit})> ",
                        game.board.unrevealed_words(), game.board.words, guessed, HELP_AGENT,
                        lambda: show(self.terminal, game, captain=False))


def show(terminal: Terminal, game: Game, captain: bool) -> None:
    """Show a person the board, in the captain's or the agents' view, with the game's status."""
    terminal.show(game.board, game.team, game.history, captain)


class Seat(Enum):
    """Who plays a role: a person at the console, or the AI."""

    HUMAN = "human"
    AI = "ai"


# What people type for a seat: the word, or its first letter.
SEATS = {"h": Seat.HUMAN, "a": Seat.AI, "human": Seat.HUMAN, "ai": Seat.AI}


@dataclass(frozen=True)
class Composition:
    """Who plays one team: a person or the AI as its captain and as its agent, written
    captain:agent ('ai:human': the AI gives hints, a person guesses); or `auto`, a solo-play
    opponent with neither (both None)."""

    captain: Seat | None = None
    agent: Seat | None = None

    @classmethod
    def parse(cls, text: str) -> Composition:
        """Read 'captain:agent' (each 'human' or 'ai', 'h' or 'a'; one word means both roles),
        or 'auto' ('solo'); ValueError names the choices."""
        team = text.strip().lower().replace(" ", "")
        if team in ("auto", "solo"):
            return AUTO
        parts = team.split(":") if ":" in team else [team, team]
        if len(parts) == 2 and all(part in SEATS for part in parts):
            return cls(SEATS[parts[0]], SEATS[parts[1]])
        raise ValueError(f"unknown team {text.strip()!r}: choose one of {', '.join(map(str, COMPOSITIONS))}")

    def __str__(self) -> str:
        return "auto" if self.auto else f"{self.captain.value}:{self.agent.value}"

    @property
    def auto(self) -> bool:
        return self.captain is None

    @property
    def seats(self) -> tuple[Seat, ...]:
        """The seats of its two roles, captain first (none for auto)."""
        return () if self.auto else (self.captain, self.agent)

    @property
    def people(self) -> bool:
        """Whether a person plays in it."""
        return Seat.HUMAN in self.seats

    @property
    def ai(self) -> bool:
        """Whether the AI plays in it."""
        return Seat.AI in self.seats

    @property
    def all_ai(self) -> bool:
        """The AI in both roles: the team whose agent a level weakens too."""
        return self.seats == (Seat.AI, Seat.AI)


AUTO = Composition()
COMPOSITIONS = tuple(Composition(captain, agent) for captain in Seat for agent in Seat) + (AUTO,)


def make_team(color: Color, composition: Composition, ai: AI | None, terminal: Terminal,
              level: str | None = None, person: Person | None = None,
              agent_terminal: Terminal | None = None) -> Team | AutoTeam:
    """The players of one team; a `level` sets how its AI captain plays, for a person who guesses
    (ai:human: easy gives one card at a time) or as the opponent (ai:ai, its agent too). A `person`
    is the one the AI plays alongside, as it has learnt them: its captain plans for them (ai:human),
    its agent reads their hints (human:ai). A person agent plays at `agent_terminal` when it is not
    the captain's (each player at their own terminal: network/)."""
    if composition.auto:
        return AutoTeam(color)
    strength = LEVELS[level] if level and composition.captain is Seat.AI else None
    for_you = composition.agent is Seat.HUMAN
    captain = (HumanCaptain(terminal) if composition.captain is Seat.HUMAN
               else AICaptain(ai.captain(not for_you, level=strength, for_you=for_you,
                                         person=person if for_you else None)))
    if composition.agent is Seat.HUMAN:
        agent = HumanAgent(agent_terminal or terminal)
    elif composition.captain is Seat.HUMAN:   # a person's clues, read as people (models/people.py) mean them
        agent = AIAgent(ai.people_agent(person=person))
    else:
        agent = AIAgent(ai.agent(level=strength))
    label = f"{composition} ({level})" if strength else str(composition)
    return Team(color, captain, agent, label=label)
