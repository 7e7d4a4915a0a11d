"""Reading the bot protocol's requests: each field checked, and a client's mistake told back in
an error that names it (`RequestError`)."""

from __future__ import annotations

import json
from typing import Any

from board import BLUE, RED, SIZE, Color, card_word_problem
from common import normalise
from model import MAX_COUNT

COLORS = {color.value: color for color in Color}
TEAM_NAMES = {RED.value: RED, BLUE.value: BLUE}
MAX_LINE = 1 << 20  # characters; a longer line is refused
MAX_PLAYER = 64     # characters of a player ID
SAFE_INTEGER = 1 << 53   # a JSON integer beyond this is not exact in every client


class RequestError(Exception):
    """A request the bot cannot answer; the message goes back to the client."""


# --- reading requests ------------------------------------------------------------------


def board_words(request: dict[str, Any]) -> tuple[list[str], list[str]]:
    """The board's 25 words as sent (for replies) and normalised (for lookups)."""
    words = field(request, "board", list)
    if len(words) != SIZE:
        raise RequestError(f"'board' must list {SIZE} words, got {len(words)}")
    spelled, seen = [], {}
    for i, word in enumerate(words):
        if not isinstance(word, str) or not word.strip():
            raise RequestError(f"'board'[{i}] must be a non-empty string")
        key = " ".join(normalise(word).split())
        if problem := card_word_problem(key):      # as the companion checks a table
            raise RequestError(f"'board'[{i}]: {problem}")
        if key in seen:
            raise RequestError(f"duplicate word {word!r} on the board (positions {seen[key]} and {i})")
        seen[key] = i
        spelled.append(word)
    return spelled, list(seen)


def revealed_flags(request: dict[str, Any]) -> list[bool]:
    """The 25 revealed flags; a request without them has every card face down."""
    if "revealed" not in request:
        return [False] * SIZE
    flags = field(request, "revealed", list)
    if len(flags) != SIZE:
        raise RequestError(f"'revealed' must list {SIZE} booleans, got {len(flags)}")
    if not all(isinstance(flag, bool) for flag in flags):
        raise RequestError("'revealed' must hold only true or false")
    return flags


def key_colors(request: dict[str, Any]) -> list[Color]:
    """The 25 colours of the key, each a known colour, in any numbers.

    Only the team's own face-down cards are required (see `Bot.clue`): other
    frameworks deal other keys, e.g. the Codenames AI Competition's 8/7/9/1.
    """
    names = field(request, "key", list)
    if len(names) != SIZE:
        raise RequestError(f"'key' must list {SIZE} colours, got {len(names)}")
    colors = []
    for i, name in enumerate(names):
        if not isinstance(name, str) or name.lower() not in COLORS:
            raise RequestError(f"'key'[{i}] must be one of {', '.join(COLORS)}, not {describe(name)}")
        colors.append(COLORS[name.lower()])
    return colors


def given_clues(request: dict[str, Any]) -> list[str]:
    """Clues already given in this game (optional), which the captain will not repeat."""
    if "given" not in request:
        return []
    given = field(request, "given", list)
    if not all(isinstance(word, str) for word in given):
        raise RequestError("'given' must be a list of strings")
    return [normalise(word) for word in given]


def player_id(request: dict[str, Any]) -> str | int | None:
    """The person a request is for (optional, null: none): a string of 1-64 characters, not
    blank, or an integer, which the bot learns as they play (bot/partners.py)."""
    player = request.get("player")
    if player is None:
        return None
    if isinstance(player, str) and player.strip() and len(player) <= MAX_PLAYER:
        return player
    if isinstance(player, int) and not isinstance(player, bool) and abs(player) < SAFE_INTEGER:
        return player
    raise RequestError(f"'player' must be a string of 1-{MAX_PLAYER} characters or an integer "
                       f"(below 2**53 in size), not {describe(player)}")


def flag(request: dict[str, Any], name: str) -> bool:
    """An optional true/false field, false when absent."""
    return field(request, name, bool) if name in request else False


def clue_count(request: dict[str, Any]) -> int | None:
    """The clue's count: 0-9, or null / "unlimited" for no limit."""
    count = request.get("count")
    if count is None or count == "unlimited":
        return None
    if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_COUNT:
        raise RequestError(f"'count' must be an integer 0-{MAX_COUNT}, null or \"unlimited\", "
                           f"not {describe(count)}")
    return count


def field(request: dict[str, Any], name: str, kind: type) -> Any:
    """A required field of the given JSON type."""
    if name not in request:
        raise RequestError(f"missing field {name!r}")
    value = request[name]
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise RequestError(f"{name!r} must be a {JSON_TYPES[kind]}, not {describe(value)}")
    return value


JSON_TYPES = {list: "list", str: "string", int: "integer", bool: "boolean", dict: "object"}


def describe(value: Any, width: int = 40) -> str:
    """A short, safe description of a client's value for an error message."""
    if isinstance(value, str):
        return repr(value if len(value) <= width else value[:width] + "...")
    if value is None or isinstance(value, bool | int | float):
        return json.dumps(value)[:width]
    return "a list" if isinstance(value, list) else "an object"


def writable(value: Any) -> bool:
    """Whether a value can go back into a JSON reply (deep nesting cannot)."""
    try:
        json.dumps(value)
    except (RecursionError, ValueError, TypeError):
        return False
    return True


def error(message: str) -> dict[str, Any]:
    """The reply to a request that cannot be answered."""
    return {"ok": False, "error": message}
