"""Companion mode: the AI as a helper for a group playing Codenames at a real table.

`codenames companion` (`python main.py companion` from a clone) asks for the 25 words on the
table (typed, or from a file) and the key card (5 rows of R/B/N/A), then answers commands: a clue
for red or blue with its reasons, how the board ranks for a clue, and cards
marked as revealed as the game goes on. The session is saved after every step
(data/companion.json by default) and resumed on the next start, so a closed
terminal loses nothing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

import cli
from cli import Command, add_ai_arguments
from common import COMMAND as PROGRAM
from common import DATA_DIR, shown, warn
from model import AI
from prompts import QuitGame
from renderer import ConsoleTerminal, Renderer
from tabletop.loop import Companion
from tabletop.parsing import (
    key_problem,
    parse_key_row,
    parse_words,
    read_key_file,
    read_words_file,
    words_problem,
)
from tabletop.saved import Session, load_session

__all__ = ["COMMAND", "Companion", "Session", "key_problem", "load_session", "parse_key_row",
           "parse_words", "read_key_file", "read_words_file", "words_problem"]

DEFAULT_STATE = DATA_DIR / "companion.json"


DESCRIPTION = """The AI as a companion for a game of Codenames at a real table.

Type the 25 words on the table (or load them with --words) and the key card
as 5 rows of R/B/N/A letters; then ask for clues, rank the board for a clue,
and mark cards as they are turned over. The session is saved after every
step and resumed when you start again."""


SUMMARY = "a helper for a game at a real table: clues and rankings on demand"


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The companion's flags: the table's files, the saved session, the AI's."""
    p.add_argument("--words", type=Path, metavar="FILE", help="the 25 words on the table, from a file")
    p.add_argument("--key", type=Path, metavar="FILE", help="the key card, 5 rows of R/B/N/A, from a file")
    p.add_argument("--state", type=Path, default=DEFAULT_STATE, metavar="FILE",
                   help=f"where the session is saved and resumed from (default {shown(DEFAULT_STATE)})")
    p.add_argument("--new", action="store_true", help="start a new session, forgetting the saved one")
    add_ai_arguments(p)


def run(args: argparse.Namespace, stream: TextIO | None = None, load_ai=None) -> int:
    """Run the companion; `load_ai(words) -> AI` may be given (tests), else the flags build it."""
    if hasattr(sys.stdin, "reconfigure"):
        sys.stdin.reconfigure(errors="replace")   # bytes that are not UTF-8 are a typo, not a crash
    renderer = Renderer(stream)
    try:
        session = start_session(args, renderer)
    except (OSError, ValueError) as error:
        warn(f"companion: {error}")
        return 2
    if load_ai is None:
        def load_ai(words: list[str]) -> AI:
            return cli.load_ai(args, words)
    companion = Companion(session, args.state, ConsoleTerminal(renderer), renderer, load_ai)
    companion.save()
    return answer(companion, args.state, renderer)


def start_session(args: argparse.Namespace, renderer: Renderer) -> Session:
    """The saved session, resumed (and said so), or a new one from --words and --key; OSError
    or ValueError when they cannot be read, or would replace a saved session without --new."""
    session = None if args.new else load_session(args.state)
    if session is None:
        session = Session()
        if args.words:
            session.words = read_words_file(args.words)
        if args.key:
            session.key = read_key_file(args.key)
        return session
    if args.words or args.key:
        raise ValueError("--words and --key start a new session: add --new to replace the saved one")
    turned = sum(session.revealed)
    renderer.write(f"Resuming the session saved in {args.state} ({turned} "
                   f"card{'' if turned == 1 else 's'} turned over); --new starts over.")
    return session


def answer(companion: Companion, state: Path, renderer: Renderer) -> int:
    """Run the companion until the players leave, saving the session whatever happens; the exit code."""
    try:
        companion.run()
    except (QuitGame, EOFError):
        companion.save()
        again = "" if state == DEFAULT_STATE else f" --state {state}"
        renderer.write(f"\nSession saved in {state}; run '{PROGRAM} companion{again}' to resume.")
        return 0
    except KeyboardInterrupt:
        companion.save()
        renderer.write("\nSession saved. Goodbye.")
        return 130
    except (OSError, ValueError, RuntimeError) as error:
        companion.save()
        warn(f"companion: {error}")
        return 1
    return 0


COMMAND = Command("companion", SUMMARY, DESCRIPTION, add_arguments, run)
