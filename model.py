"""Hints, their legality, and the captain and agent models.

Everything here reads a `Weights` matrix (hint words × board words, where a
cell says how strongly a hint points to a board word) and a `Board`; nothing
prints and nothing reads files.

This module is the entry (the names in `__all__`); the work is done in the
`models` package, one concept a module: hints (Hint, parsing, legality and
the vectorised `HintFilter`), weights (`Weights`, `Extender`), situation
(what a captain sees, `HintChoice`, the choice from a score table), captains
(the base `Captain`, cumsum, margin, cluster), chances (softmax), reader (who
turns cards over for a hint: `Reader`, `MatrixReader`), expected (`ExpectedCaptain`:
the hint its reader gets the most from, `Prices`), agents
(`Agent` and its kinds, `agent_plays`), people (the model of people,
fitted to people's play, and its agent), person (one person as the AI learns them as they
play: `Person`, `Choice`), likelihood (of people's choices, `Choices`, and its
maximum), phrases (the phrases a person knows), ai (`CAPTAINS`, `AGENTS`, `AI`,
`PersonCaptain`, `LEVELS`) and
table (the words the AI never gives as hints).
"""

from __future__ import annotations

from models.agents import Agent, GreedyAgent, Memory, ThresholdAgent, agent_plays
from models.ai import (
    AGENTS,
    AI,
    CAPTAINS,
    DEFAULT_AGENT,
    DEFAULT_CAPTAIN,
    DEFAULT_LEVEL,
    LEVELS,
    Level,
    PersonCaptain,
)
from models.captains import Captain, ClusterCaptain, CumsumCaptain, MarginCaptain, silhouette
from models.chances import pick_chances, softmax
from models.expected import MAX_COUNT as MAX_AI_COUNT
from models.expected import ExpectedCaptain, Prices
from models.hints import (
    CAPTAIN_MIN_DISTANCE,
    MAX_COUNT,
    MIN_HINT_LETTERS,
    MIN_HINT_ZIPF,
    Hint,
    HintFilter,
    hint_filter,
    hint_problem,
    pair_problem,
    parse_hint,
    spellings,
    spoken,
    zipf,
)
from models.likelihood import Choices
from models.people import PeopleAgent, PeopleModel, PeopleReading
from models.person import KEPT, NOTHING_YET, PICKS, TARGETS, Choice, Person
from models.phrases import compounds, known_phrases
from models.reader import GREEDY, MATRIX_TEMPERATURE, MatrixReader, Reader
from models.situation import (
    ASSASSIN_VALUE,
    NEUTRAL_VALUE,
    OPPONENT_VALUE,
    OWN,
    HintChoice,
    NoLegalHint,
    Situation,
    choose,
    fallback,
)
from models.table import fit_for_table, unfit_words
from models.weights import TIE_BREAK, Extender, Weights

__all__ = [
    "AGENTS",
    "PeopleAgent",
    "PeopleModel",
    "Person",
    "Choice",
    "Choices",
    "KEPT",
    "NOTHING_YET",
    "PICKS",
    "TARGETS",
    "PeopleReading",
    "compounds",
    "known_phrases",
    "AI",
    "ASSASSIN_VALUE",
    "CAPTAINS",
    "CAPTAIN_MIN_DISTANCE",
    "DEFAULT_AGENT",
    "DEFAULT_CAPTAIN",
    "DEFAULT_LEVEL",
    "LEVELS",
    "MAX_COUNT",
    "MIN_HINT_LETTERS",
    "MIN_HINT_ZIPF",
    "NEUTRAL_VALUE",
    "OPPONENT_VALUE",
    "OWN",
    "TIE_BREAK",
    "Agent",
    "Captain",
    "ClusterCaptain",
    "CumsumCaptain",
    "ExpectedCaptain",
    "MAX_AI_COUNT",
    "GREEDY",
    "MATRIX_TEMPERATURE",
    "MatrixReader",
    "Prices",
    "Reader",
    "Extender",
    "GreedyAgent",
    "Hint",
    "HintChoice",
    "HintFilter",
    "Level",
    "MarginCaptain",
    "Memory",
    "NoLegalHint",
    "PersonCaptain",
    "Situation",
    "ThresholdAgent",
    "Weights",
    "agent_plays",
    "choose",
    "fallback",
    "fit_for_table",
    "hint_filter",
    "hint_problem",
    "pair_problem",
    "spellings",
    "parse_hint",
    "pick_chances",
    "silhouette",
    "softmax",
    "unfit_words",
    "spoken",
    "zipf",
]
