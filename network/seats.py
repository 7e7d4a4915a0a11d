"""Who may sit where: the four seats of a game, written `red:captain`, and the join code that
lets a player in, three short card words (`owl-piano-jam`), easy to say across a room."""

from __future__ import annotations

import hmac
import re
import secrets
from dataclasses import dataclass

from board import TEAMS, Color
from common import board_words

ROLES = ("captain", "agent")
WATCH = "watch"   # a seat that plays nothing: it sees the game as the agents do


@dataclass(frozen=True)
class SeatName:
    """One player's place: a team's captain or its agent."""

    team: Color
    role: str

    @classmethod
    def parse(cls, text: str) -> SeatName:
        """`red:captain`, `red captain` or `blue-agent`, in any case; ValueError names the choices."""
        parts = re.split(r"[\s:_-]+", text.strip().lower())
        teams = {team.value: team for team in TEAMS}
        if len(parts) == 2 and parts[0] in teams and parts[1] in ROLES:
            return cls(teams[parts[0]], parts[1])
        raise ValueError(f"unknown seat {text!r}: choose one of {', '.join(map(str, SEATS))}, or {WATCH}")

    def __str__(self) -> str:
        return f"{self.team.value}:{self.role}"

    @property
    def spoken(self) -> str:
        """The seat in a sentence: 'red captain'."""
        return f"{self.team.value} {self.role}"

    @property
    def captain(self) -> bool:
        """Whether the seat sees the key."""
        return self.role == "captain"


SEATS = tuple(SeatName(team, role) for team in TEAMS for role in ROLES)


def seat_flag(text: str) -> SeatName | str:
    """A `--seat` value: a seat, or WATCH."""
    return WATCH if text.strip().lower() == WATCH else SeatName.parse(text)


def code_words() -> list[str]:
    """The words a join code is made of: card words of 3 to 6 plain letters (430: 80 million codes)."""
    return [w for w in board_words() if w.isascii() and w.isalpha() and 3 <= len(w) <= 6]


def new_code() -> str:
    """A fresh random join code: three different words."""
    words = code_words()
    chosen: list[str] = []
    while len(chosen) < 3:
        if (word := secrets.choice(words)) not in chosen:
            chosen.append(word)
    return "-".join(chosen)


def spelled(code: str) -> str:
    """A code as typed (`Piano River moon`, `piano_river-moon`) in the form the host printed."""
    return "-".join(re.findall(r"[a-z0-9]+", code.lower()))


def same_code(typed: str, code: str) -> bool:
    """Whether a typed code is the game's, compared in constant time."""
    return hmac.compare_digest(spelled(typed).encode("utf-8"), code.encode("utf-8"))
