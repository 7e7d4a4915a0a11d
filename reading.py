"""How the AI agent reads a person's clue: SBERT's similarity, plus the free-association norms.

Measured on the human Duet record (benchmarks/human_reading.py, the human tier of
`python main.py bench`; docs/decisions/0025-reading-people.md): people's clues
point at cards that people name when given the clue, or that name the clue. A
reading that adds √(USF + EAT strength, both directions) to SBERT's cosine picked
a giver's target first in 73.1% of the 453 turns (SBERT alone 65.1%, the
`combined` matrix 55.4%), and an assassin in 4.0% (5.5%, 10.2%). Without the
norms (no sources) it is SBERT's reading unchanged.
"""

from __future__ import annotations

from model import AI, DEFAULT_AGENT, Agent
from models.people import (
    NORMS,
    NORMS_WEIGHT,
    READER,
    PeopleAgent,
    PeopleReading,
    norms_of,
    reader_of,
    tables_in,
)

__all__ = ["NORMS", "NORMS_WEIGHT", "READER", "PeopleAgent", "PeopleReading", "norms_of",
           "people_agent", "reader_of", "tables_in"]


def people_agent(ai: AI) -> Agent:
    """The agent for clues that a person gives: with the default strategy it reads them as people
    mean them (`PeopleAgent`); a strategy the user chose is kept."""
    if ai.agent_strategy == DEFAULT_AGENT:
        return PeopleAgent(ai.weights)
    return ai.agent()
