"""The strategies by name, the AI that makes players from weights and chosen strategies, the
captain for a person it learns (made again when their reading changes), and the levels it plays
at."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from board import Board, Color
from models.agents import Agent, GreedyAgent, ThresholdAgent
from models.captains import Captain, ClusterCaptain, CumsumCaptain, MarginCaptain
from models.expected import FOR_PEOPLE, CaptainSettings, ExpectedCaptain
from models.people import PeopleAgent, PeopleModel, PeopleReading
from models.person import LAPSE_STEP, Person
from models.sight import Sight
from models.situation import HintChoice
from models.weights import Weights

# --- strategies by name ----------------------------------------------------------------

CAPTAINS: dict[str, type[Captain]] = {c.name: c for c in (
    CumsumCaptain, MarginCaptain, ClusterCaptain, ExpectedCaptain)}
AGENTS: dict[str, type[Agent]] = {a.name: a for a in (GreedyAgent, Agent, ThresholdAgent, PeopleAgent)}
DEFAULT_CAPTAIN, DEFAULT_AGENT = "expected", "greedy"


class PersonCaptain:
    """The captain for a person the AI learns as they play, behind a captain's interface: at each
    hint, the captain `plan` makes for the reading the person is known by now (`Person.reader`:
    one matrix they are seen to read by, or None: their model of people), made again within the
    game when that changes, and taking the game up where the last one left it
    (`ExpectedCaptain.carry_on`: what it aimed at and missed). A learnt model of people newly
    trusted needs no new captain: the person's model is the one it plans with, and `Person.use`
    sets its coefficients in place."""

    name = "person"

    def __init__(self, person: Person, plan: Callable[[Weights | None], ExpectedCaptain]):
        self.person, self.plan = person, plan
        self.reading, self.lapse = person.reader(), person.model.lapse
        self.planning = plan(self.reading)   # the captain planning now

    def give_hint(self, board: Board, team: Color, given: Sequence[str] = ()) -> HintChoice:
        """The hint of the captain for the person's reading now, made again if it changed (the
        matrix they read by, or how often they stray from their model of people)."""
        reading, lapse = self.person.reader(), self.person.model.lapse
        if reading is not self.reading or abs(lapse - self.lapse) >= LAPSE_STEP:
            self.reading, self.lapse = reading, lapse
            self.planning = self.plan(reading).carry_on(self.planning)
        return self.planning.give_hint(board, team, given)

    def observe(self, hint: str, face_down: Sequence[str], guesses: Sequence[str]) -> None:
        """What the person turned over for the last hint, told to the captain that gave it."""
        self.planning.observe(hint, face_down, guesses)


@dataclass
class AI:
    """The weights and the chosen strategies from which AI players are made: the one factory of
    captains and agents, for the game and the bench alike.

    `partners` are other initializers' weights; with `weights` they are what the model of
    people reads (`people`), the partner the captain plans for. A captain whose agent is this
    AI's own (`twin`: an ai:ai team with no level, as in the bench's self-play) plans for that agent alone.
    `plans_for` replaces the person with these matrices (none: the twin): the bench's captain
    for a partner it knows only by them. `captain_options` and `agent_options` are the
    strategies' own keyword parameters (the bench's `cumsum:gap=3`).
    """

    weights: Weights
    captain_strategy: str = DEFAULT_CAPTAIN
    agent_strategy: str = DEFAULT_AGENT
    partners: list[Weights] = field(default_factory=list)
    captain_options: dict[str, object] = field(default_factory=dict)
    agent_options: dict[str, object] = field(default_factory=dict)
    plans_for: tuple[Weights, ...] | None = None

    def __post_init__(self) -> None:
        for name, known in ((self.captain_strategy, CAPTAINS), (self.agent_strategy, AGENTS)):
            if name not in known:
                raise ValueError(f"unknown strategy {name!r}: choose one of {', '.join(known)}")

    def captain(self, twin: bool = False, alone: bool = False, level: Level | None = None,
                for_you: bool = False, person: Person | None = None) -> Captain | PersonCaptain:
        """A captain. It plans for a person: its partner is the model of people (`people`), and
        it plays `FOR_PEOPLE`. With `twin`, when its agent is this AI's `agent()` and it plays at
        no level, it plans for that agent's reading instead; with `plans_for`, for those matrices.
        `alone` for a team with no opponent (single-team mode). A `level` caps its count: the
        opponent's (`Level.max_count`); `for_you`, the AI captain whose hints a person guesses
        plays the level's `your_captain`; a `person`, the one it plans for is that person as the AI
        has learnt them (models/person.py), not people on average, or the one matrix they are seen
        to read by (`Person.reader`), as its twin, from the next hint on (`PersonCaptain`). Only the
        expected captain simulates its agent: every other strategy reads its own matrix whoever its
        agent is."""
        strategy = CAPTAINS[self.captain_strategy]
        options = dict(self.captain_options)
        settings = FOR_PEOPLE
        if level is not None and not for_you:
            options["max_count"] = level.max_count
        elif level is not None and level.your_captain is not None:
            settings = level.your_captain
            options["max_count"] = settings.max_count
        if (twin and level is None) or not issubclass(strategy, ExpectedCaptain):
            return strategy(self.weights, alone=alone, **options)
        if self.plans_for is not None:
            return strategy(self.weights, self.plans_for, alone, **options)
        options["max_count"] = min(options.get("max_count", settings.max_count), settings.max_count)
        plan = functools.partial(self.planning_for, strategy, alone, settings, options)
        if person is None:
            return plan(self.people)
        return PersonCaptain(person, lambda reader: plan(person.model if reader is None else reader))

    def planning_for(self, strategy: type[ExpectedCaptain], alone: bool, settings: CaptainSettings,
                     options: dict[str, object], reading: PeopleModel | Weights) -> ExpectedCaptain:
        """The captain planning for a person who reads as `reading` says: a model of people (its
        partner, what every person sees), or one matrix (`Person.reader`), whom it knows as its
        twin, what a person sees narrowed to that matrix's family."""
        if not isinstance(reading, PeopleModel):
            return strategy(reading, (), alone, settings=settings, sight=self.sight_of(reading), **options)
        people = PeopleReading(self.weights, reading)
        settings = replace(settings, lapse=reading.lapse, flat=reading.flat)
        return strategy(people, [people], alone, settings=settings, sight=self.sight, **options)

    def sight_of(self, reader: Weights) -> Sight:
        """What a person who reads by `reader` alone sees (none when its family is not one of sight's)."""
        if reader.name not in self.sights:
            self.sights[reader.name] = Sight([reader])
        return self.sights[reader.name]

    @functools.cached_property
    def sights(self) -> dict[str, Sight]:
        """The sights narrowed to one reader (`sight_of`), by the reader's name: made once each."""
        return {}

    @functools.cached_property
    def sight(self) -> Sight:
        """The ways a person may read a hint, on this AI's matrices: a target must pass them all."""
        return Sight([self.weights, *self.partners])

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
        """An agent; a `level` sets how often it takes its best card rather than a likely one,
        and how far those other picks stray. At a level whose captain plans for a person, the
        agent reads as people do."""
        options = dict(self.agent_options)
        if level is not None:
            options["chance"] = level.chance
            if level.among is not None:
                options["among"] = level.among
        if level is not None and self.agent_strategy == DEFAULT_AGENT:
            agent: Agent = PeopleAgent(self.weights, self.partners, model=self.people, **options)
        else:
            agent = AGENTS[self.agent_strategy](self.weights, self.partners, **options)
        if level is not None:   # its other picks stray further than its reading's chances
            agent.temperature *= level.spread
        return agent


# Your own AI captain at easy: one card a hint. It simulates the model of people at its own
# chances and aims only where every reading puts the card first (models/sight.py), so the card is
# the one people pick first, by a wide margin (docs/ai.md, the twin).
ONE_CLEAR_CARD = replace(FOR_PEOPLE, max_count=1)


@dataclass(frozen=True)
class Level:
    """How the AI plays at a level, on each side of the table. The opponent (an `ai:ai` team): its
    captain's largest count (`max_count`), how often its agent takes its best card (`chance`) and
    how far its other picks stray (`spread`), and among what share of the face-down cards, its
    likeliest (`among`: a person who strays takes a card the hint brings to mind, not any card on
    the board).
    Your side: how the AI captain whose hints you guess plays (`your_captain`). A level never
    changes the words a captain may use.

    The opponent's spreads were set for a model of people in the person's seat to win about 75%
    at easy, 50% at normal and 25% at hard (`python main.py bench --levels`, reports/levels.md,
    decisions 0036 and 0072); straying among a share of the cards face down (0074), it wins less
    against that stand-in, which is far weaker than a person."""

    name: str
    max_count: int
    chance: float
    spread: float   # its other picks: its reading's chances, flattened by this factor (1: as they are)
    theirs: str     # what the opponent does at this level
    yours: str      # what your own AI captain does at this level
    your_captain: CaptainSettings | None = None   # None: it plays whole
    among: float | None = None   # its other picks: among this share of the cards, its likeliest (None: any)

    def help(self) -> str:
        """What this level changes, for your side and for the opponent, on one line."""
        return f"{self.name}: your AI captain {self.yours}; the opponent {self.theirs}"


LEVELS: dict[str, Level] = {level.name: level for level in (
    Level("easy", max_count=1, chance=0.0, spread=50.0, among=0.2, your_captain=ONE_CLEAR_CARD,
          theirs="gives one card a hint, and its guesses often go astray",
          yours="gives one clear card a hint"),
    Level("normal", max_count=2, chance=0.0, spread=6.0, among=0.2,
          theirs="gives up to two cards a hint, guessing as a person might, at times astray",
          yours="plays whole"),
    Level("hard", max_count=2, chance=0.0, spread=2.0, among=0.2,
          theirs="gives up to two cards a hint, guessing nearly as a person does",
          yours="plays whole"),
)}
DEFAULT_LEVEL = "normal"
