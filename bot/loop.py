"""Serving the bot: one JSON reply a line, in order, on a stdout nothing else may write to."""

from __future__ import annotations

import json
import os
import sys
import traceback
from collections.abc import Iterable
from typing import TextIO

from bot.answers import Bot
from bot.requests import error
from common import warn


def serve(bot: Bot, lines: Iterable[str], out: TextIO) -> int:
    """Answer every line until the input ends; returns the number of requests answered."""
    answered = 0
    for line in lines:
        if not line.strip():
            continue
        try:
            text = json.dumps(bot.handle_line(line))
        except Exception as problem:  # the last resort: whatever happens, one reply per line
            warn(traceback.format_exc())
            text = json.dumps(error(f"internal error: {type(problem).__name__}"))
        out.write(text + "\n")
        out.flush()
        answered += 1
    return answered


def claim_stdout() -> TextIO:
    """The protocol's own handle on stdout; everything else printed goes to stderr.

    File descriptor 1 itself is pointed at stderr, so that no library (tqdm,
    transformers, a C extension) can ever write a stray line into the replies.
    """
    sys.stdout.flush()
    replies = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8", newline="\n")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    sys.stdout = sys.stderr
    return replies
