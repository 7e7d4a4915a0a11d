"""The wire of a hosted game: JSON lines over TCP, one message a line, each an object with a `type`.

A player's line is read whole or refused: over MAX_LINE bytes, not UTF-8, not JSON, not an object,
of an unknown type or with a field of the wrong kind, it is a `WireError`, answered with one error
line (docs/network.md).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, BinaryIO

from prompts import MAX_INPUT

VERSION = 1         # of the protocol, in every welcome
MAX_LINE = 2048     # bytes of a line a player may send, its newline included
MAX_TEXT = MAX_INPUT   # characters of an answer read, as at the console's prompts

# What a player may send: each type's fields, and the JSON types they may be (None: may be null).
PLAYER_MESSAGES: dict[str, dict[str, tuple[type | None, ...]]] = {
    "join": {"code": (str,), "seat": (str, None)},
    "answer": {"id": (str,), "text": (str,)},
}


class WireError(Exception):
    """A line a player sent that means nothing: told back in an error line, and nothing else."""


def encode(message: dict[str, Any]) -> bytes:
    """One message as its line."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"


def decode(line: bytes) -> dict[str, Any]:
    """A player's line as its message, every field checked; WireError says what is wrong."""
    if len(line) > MAX_LINE:
        raise WireError(f"a line is at most {MAX_LINE} bytes")
    try:
        message = json.loads(line.decode("utf-8"))
    except UnicodeDecodeError:
        raise WireError("a line must be UTF-8") from None
    except (ValueError, RecursionError):
        raise WireError("a line must be one JSON object") from None
    if not isinstance(message, dict):
        raise WireError("a line must be one JSON object")
    kind = message.get("type")
    fields = PLAYER_MESSAGES.get(kind) if isinstance(kind, str) else None
    if fields is None:
        raise WireError(f"unknown message type {short(kind)}: a player sends {' or '.join(PLAYER_MESSAGES)}")
    for name, kinds in fields.items():
        value = message.get(name)
        if not (value is None and None in kinds or isinstance(value, tuple(k for k in kinds if k))):
            raise WireError(f"{kind}: {name!r} must be a string{' or null' if None in kinds else ''}")
    return message


def lines(stream: BinaryIO) -> Iterator[bytes]:
    """The lines of a stream until it ends. A line over MAX_LINE bytes is read to its end but only
    its first MAX_LINE + 1 bytes are kept (which `decode` refuses): memory stays bounded."""
    while line := stream.readline(MAX_LINE + 1):
        if len(line) > MAX_LINE and not line.endswith(b"\n"):
            while (rest := stream.readline(MAX_LINE + 1)) and not rest.endswith(b"\n"):
                pass
        yield line


def short(value: Any, width: int = 40) -> str:
    """A client's value, shortened and safe to quote in an error."""
    if isinstance(value, list | dict):
        return "a list" if isinstance(value, list) else "an object"
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= width else text[:width] + "..."


def error(message: str) -> dict[str, Any]:
    """The line that answers a line that means nothing."""
    return {"type": "error", "error": message}
