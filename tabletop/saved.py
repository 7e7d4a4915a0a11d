"""The companion's session, saved after every step and resumed on the next start: the table, the
key, what is turned over, the clues suggested."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from board import SIZE, TEAMS, Board, Color, parse_color
from common import atomic_write_bytes, load_or_set_aside
from tabletop.parsing import key_problem, words_problem

STATE_VERSION = 1


@dataclass
class Session:
    """Everything the companion remembers: the table, the key, what is revealed, clues suggested."""

    words: list[str] = field(default_factory=list)
    key: list[Color] | None = None
    revealed: list[bool] = field(default_factory=lambda: [False] * SIZE)
    given: dict[str, list[str]] = field(default_factory=lambda: {t.value: [] for t in TEAMS})
    log: list[dict[str, Any]] = field(default_factory=list)

    def board(self) -> Board:
        return Board.from_key(self.words, self.key, self.revealed)

    def to_json(self) -> dict[str, Any]:
        return {"version": STATE_VERSION, "words": self.words,
                "key": None if self.key is None else [c.value for c in self.key],
                "revealed": self.revealed, "given": self.given, "log": self.log}

    @classmethod
    def from_json(cls, data: Any) -> Session:
        """A session from its saved form; ValueError says what is wrong with it."""
        if not isinstance(data, dict) or data.get("version") != STATE_VERSION:
            raise ValueError("not a companion session of this version")
        words = saved_words(data.get("words"))
        key = saved_key(data.get("key"), words)
        revealed = saved_revealed(data.get("revealed"))
        log = data.get("log", [])
        return cls(words, key, revealed, saved_given(data.get("given", {})),
                   log if isinstance(log, list) else [])

    def save(self, path: Path) -> None:
        atomic_write_bytes(path, json.dumps(self.to_json(), indent=1).encode("utf-8"))


def saved_words(words: Any) -> list[str]:
    """The saved table's words, checked as a typed table's are."""
    if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
        raise ValueError("bad 'words'")
    if problem := words_problem(words):
        raise ValueError(problem)
    return words


def saved_key(key: Any, words: list[str]) -> list[Color] | None:
    """The saved key card (None before it was typed), checked as a typed key is."""
    if key is None:
        return None
    if not isinstance(key, list) or len(words) != SIZE:
        raise ValueError("bad 'key'")
    key = [parse_color(c) for c in key]
    if problem := key_problem(key):
        raise ValueError(problem)
    return key


def saved_revealed(revealed: Any) -> list[bool]:
    if (not isinstance(revealed, list) or len(revealed) != SIZE
            or not all(isinstance(r, bool) for r in revealed)):
        raise ValueError("bad 'revealed'")
    return revealed


def saved_given(given: Any) -> dict[str, list[str]]:
    """The clues suggested to each team so far; none when the saved ones make no sense."""
    if not isinstance(given, dict):
        return {t.value: [] for t in TEAMS}
    return {t.value: [str(w) for w in given.get(t.value, [])] for t in TEAMS}


def load_session(path: Path) -> Session | None:
    """The saved session, None when there is none; a broken file is set aside, with a notice."""
    return load_or_set_aside(path, Session.from_json, "companion", "starting anew, ")
