"""The strategies by name, the AI that makes players from weights and chosen strategies, the
captain for a person it learns (made again when their reading changes), and the levels it plays
at."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from board import Board, Color
from models.agents import Agent, GreedyAgent, ThresholdAgent
from models.captains import Captain, ClusterCaptain, CumsumCaptain, MarginCaptain
from models.expected import MAX_COUNT, ExpectedCaptain
from models.people import PeopleAgent, PeopleModel
from models.person import Person
from models.reader import GREEDY, MatrixReader, Reader
from models.situation import HintChoice
from models.weights import Weights

# --- strategies by name ----------------------------------------------------------------

CAPTAINS: dict[str, type[Captain]] = {c.name: c for c in (
    CumsumCaptain, MarginCaptain, ClusterCaptain, ExpectedCaptain)}
AGENTS: dict[str, type[Agent]] = {a.name: a for a in (GreedyAgent, Agent, ThresholdAgent, PeopleAgent)}
DEFAULT_CAPTAIN, DEFAULT_AGENT = "expected", "greedy"
# The share of the price of the card that ends a turn read as people who read by meaning alone
# (the model of people fitted on SBERT alone) would end it: the tier's guessers, who read by
# cosine, lost games to the assassin where the model of people saw none (decision 0092).
DOUBT = 0.5


class PersonCaptain:
    """The captain for a person the AI learns as they play, behind a captain's interface: at each
    hint, the captain `plan` makes for the reader the person is known by now (`Person.reader`: one
    matrix they are seen to read by, or their model of people), made again when that changes. A
    learnt model of people newly trusted needs no new captain: the person's model is the reader it
    plans for, and `Person.use` sets its coefficients in place."""

    name = "person"

    def __init__(self, person: Person, plan: Callable[[Reader], ExpectedCaptain]):
        self.person, self.plan = person, plan
        self.reading = person.reader()
        self.planning = plan(self.reader())   # the captain planning now

    def reader(self) -> Reader:
        """The person as a reader: the matrix they read by, or their model of people."""
        return self.person.model if self.reading is None else MatrixReader(self.reading)

    def give_hint(self, board: Board, team: Color, given: Sequence[str] = ()) -> HintChoice:
        """The hint of the captain for the person's reading now, made again if it changed."""
        if (reading := self.person.reader()) is not self.reading:
            self.reading = reading
            self.planning = self.plan(self.reader())
        return self.planning.give_hint(board, team, given)

    def observe(self, hint: str, face_down: Sequence[str], guesses: Sequence[str]) -> None:
        """What the person turned over for the last hint, told to the captain that gave it."""
        self.planning.observe(hint, face_down, guesses)


@dataclass
class AI:
    """The weights and the chosen strategies from which AI players are made: the one factory of
    captains and agents, for the game and the bench alike.

    `partners` are other initializers' weights; with `weights` they are what the model of
    people reads (`people`), the reader the captain plans for. `captain_options` and
    `agent_options` are the strategies' own keyword parameters (the bench's `cumsum:gap=3`).
    """

    weights: Weights
    captain_strategy: str = DEFAULT_CAPTAIN
    agent_strategy: str = DEFAULT_AGENT
    partners: list[Weights] = field(default_factory=list)
    captain_options: dict[str, object] = field(default_factory=dict)
    agent_options: dict[str, object] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name, known in ((self.captain_strategy, CAPTAINS), (self.agent_strategy, AGENTS)):
            if name not in known:
                raise ValueError(f"unknown strategy {name!r}: choose one of {', '.join(known)}")

    def captain(self, twin: bool = False, alone: bool = False, level: Level | None = None,
                for_you: bool = False, person: Person | None = None) -> Captain | PersonCaptain:
        """A captain. It plans for a person: its reader is the model of people (`people`), the danger
        priced in part as people who read by meaning alone read it (`doubt_of`). With
        `twin`, when its agent is this AI's `agent()` and it plays at no level, it plans for that
        agent's matrix instead. `alone` for a team with no opponent (single-team mode). A `level`
        caps its count: the opponent's (`Level.max_count`); `for_you`, the AI captain whose hints a
        person guesses, the level's `your_count`; a `person`, the reader it plans for is that person
        as the AI has learnt them (models/person.py), from the next hint on (`PersonCaptain`). Every
        other strategy reads its own matrix whoever its agent is."""
        strategy = CAPTAINS[self.captain_strategy]
        options = dict(self.captain_options)
        if level is not None:
            options["max_count"] = level.your_count if for_you else level.max_count
        if not issubclass(strategy, ExpectedCaptain):
            return strategy(self.weights, alone=alone, **options)
        if twin and level is None:   # its agent is this AI's own, which takes its strongest card
            return strategy(self.weights, MatrixReader(self.weights, GREEDY), alone, **options)

        def plan(reader: Reader) -> ExpectedCaptain:
            return strategy(self.weights, reader, alone=alone, doubt=self.doubt_of(reader), **options)

        return plan(self.people) if person is None else PersonCaptain(person, plan)

    def doubt_of(self, reader: Reader) -> tuple[float, Reader] | None:
        """For a model of people, the reader whose reading prices a share of the danger
        (`DOUBT`): people who read by meaning alone; none for any other reader."""
        meaning = self.by_meaning
        if not isinstance(reader, PeopleModel) or meaning is None or reader.fit.name == meaning.fit.name:
            return None
        return DOUBT, meaning

    @functools.cached_property
    def by_meaning(self) -> PeopleModel | None:
        """The model of people fitted on SBERT alone, when SBERT is at hand (None: it is not)."""
        sbert = next((w for w in (self.weights, *self.partners) if w.name == "sbert"), None)
        return None if sbert is None else PeopleModel.of({"sbert": sbert})

    @functools.cached_property
    def people(self) -> PeopleModel:
        """The model of people on this AI's matrices: how a person reads a clue."""
        return PeopleModel.of([self.weights, *self.partners])

    def people_agent(self, person: Person | None = None) -> Agent:
        """The agent for clues that a person gives: with the default strategy it reads them as
        people mean them (`PeopleAgent`), or as this `person` means them, once learnt; a strategy
        the user chose is kept."""
        if self.agent_strategy == DEFAULT_AGENT:
            model = self.people if person is None else person.model
            return PeopleAgent(self.weights, self.partners, model=model)
        return self.agent()

    def agent(self, level: Level | None = None) -> Agent:
        """An agent; at a `level` (the AI team's), it reads as people do and misreads as often as
        the level says (`Level.misread`)."""
        if level is None:
            return AGENTS[self.agent_strategy](self.weights, self.partners, **self.agent_options)
        options = {**self.agent_options, "misread": level.misread}
        if self.agent_strategy == DEFAULT_AGENT:   # the default reads a person's way at a level
            return PeopleAgent(self.weights, self.partners, model=self.people, **options)
        return AGENTS[self.agent_strategy](self.weights, self.partners, **options)


@dataclass(frozen=True)
class Level:
    """How the AI plays at a level, on each side of the table. The opponent (an `ai:ai` team): its
    captain's largest count (`max_count`: its tempo) and the share of its agent's picks that go
    astray as people's do, never on the assassin (`misread`; models/agents.py). Your side: the
    largest count of the AI captain whose hints you guess (`your_count`). A level never changes the
    words a captain may use. The opponent's pace is set against the solo team's, a person's side
    measured by `python main.py bench --levels` (reports/levels.md, decision 0093)."""

    name: str
    max_count: int
    misread: float
    theirs: str     # what the opponent does at this level
    yours: str      # what your own AI captain does at this level
    your_count: int = MAX_COUNT

    def help(self) -> str:
        """What this level changes, for your side and for the opponent, on one line."""
        return f"{self.name}: your AI captain {self.yours}; the opponent {self.theirs}"


LEVELS: dict[str, Level] = {level.name: level for level in (
    Level("easy", max_count=1, misread=0.3, your_count=1,
          theirs="gives one card a hint, and often misreads it",
          yours="gives one clear card a hint"),
    Level("normal", max_count=2, misread=0.125,
          theirs="gives up to two cards a hint, misreading as often as people do",
          yours="plays whole"),
    Level("hard", max_count=3, misread=0.05,
          theirs="gives up to three cards a hint, and seldom misreads",
          yours="plays whole"),
)}
DEFAULT_LEVEL = "normal"
