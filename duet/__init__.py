"""Codenames Duet, `python main.py duet`: the two-player cooperative variant on the game's engine.

This module is the entry (the names in `__all__`); the work is done in the package, one concept a
module: rules (the double key, the board, the rules' text), game (the engine's loop on the double
key, and Duet's own events), partners (the AI and a person), view (drawing and narrating) and
command (the CLI). The Duet benchmark is the lab's (lab/evaluation/duet_benchmark.py).
"""

from __future__ import annotations

from duet.command import COMMAND
from duet.game import DuetGame, DuetOver, DuetTurnStarted, Touched
from duet.partners import AIPartner, HumanPartner
from duet.rules import (
    AGENT,
    BYSTANDER,
    DUET_ASSASSIN,
    KEY_PAIRS,
    RULES,
    TIMER_TOKENS,
    TOTAL_AGENTS,
    DuetBoard,
    Role,
    Side,
    deal_keys,
)
from duet.view import LEGEND, DuetTerminal, DuetView

__all__ = [
    "AGENT",
    "BYSTANDER",
    "COMMAND",
    "DUET_ASSASSIN",
    "KEY_PAIRS",
    "LEGEND",
    "RULES",
    "TIMER_TOKENS",
    "TOTAL_AGENTS",
    "AIPartner",
    "DuetBoard",
    "DuetGame",
    "DuetOver",
    "DuetTerminal",
    "DuetTurnStarted",
    "DuetView",
    "HumanPartner",
    "Role",
    "Side",
    "Touched",
    "deal_keys",
]
