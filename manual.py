"""`python main.py help [TOPIC]`: the documentation, as the game carries it. The README and the
guides in docs/ ship in the package (pyproject.toml), so an installed `codenames` has them too:
its messages point here, not to files a user of the command never sees."""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path

from cli import Command
from common import COMMAND as PROGRAM
from common import ROOT, warn

# Each topic: the file it is in, the section (None: the whole file), and what it says.
TOPICS: dict[str, tuple[str, str | None, str]] = {
    "playing": ("README.md", "Playing", "the teams, the prompt at the start, a game in the terminal"),
    "rules": ("README.md", "The rules as the game enforces them", "what a hint may be, and the turns"),
    "commands": ("README.md", "Commands at the prompts", "what to type at each prompt"),
    "flags": ("README.md", "Flags", "every flag of the game"),
    "datasets": ("README.md", "Adding datasets", "the download, a mirror, and the files by hand"),
    "players": ("docs/players.md", None, "what the AI learns of you, and where it is kept"),
    "duet": ("docs/duet.md", None, "Codenames Duet: you and an AI partner"),
    "companion": ("docs/companion.md", None, "a helper for a game at a real table"),
    "protocol": ("docs/protocol.md", None, "serve: the AI for other programs, JSON lines"),
    "ai": ("docs/ai.md", None, "how the AI works"),
}
HEADING = re.compile(r"^(#+) (.*)$")


def section(text: str, title: str | None) -> str:
    """The part of a Markdown text under the heading `title`, to the next heading as high (the
    whole text for None); empty when there is no such heading."""
    if title is None:
        return text.strip()
    lines, found, level = text.splitlines(), [], None
    for line in lines:
        heading = HEADING.match(line)
        if level is None:
            if heading and heading.group(2).strip() == title:
                level = len(heading.group(1))
                found.append(line)
        elif heading and len(heading.group(1)) <= level:
            break
        else:
            found.append(line)
    return "\n".join(found).strip()


def topic_text(name: str, root: Path = ROOT) -> str:
    """A topic's text; OSError when its file is not there."""
    path, title, _ = TOPICS[name]
    return section((root / path).read_text(encoding="utf-8"), title)


def topics() -> str:
    """The list of topics, a line each."""
    width = max(map(len, TOPICS))
    return "\n".join([f"{PROGRAM} help TOPIC, one of:",
                      *(f"  {name:<{width}}  {what}" for name, (_, _, what) in TOPICS.items())])


def topic_name(text: str) -> str:
    """A topic, as an argparse type."""
    if text not in TOPICS:
        raise argparse.ArgumentTypeError(f"no topic {text!r}: choose one of {', '.join(TOPICS)}")
    return text


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("topic", nargs="?", type=topic_name, metavar="TOPIC", help=", ".join(TOPICS))


def run(args: argparse.Namespace, out: Callable[[str], None] = print) -> int:
    """Print a topic (or the list of them); exit status 1 when its file is missing."""
    try:
        text = topics() if args.topic is None else topic_text(args.topic)
    except OSError as error:
        warn(f"{PROGRAM} help: {error}")
        return 1
    try:
        out(text)
    except BrokenPipeError:   # `| head`: the reader has seen enough
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())   # no error at exit's flush
    return 0


COMMAND = Command("help", "the documentation: the rules, the flags, the datasets, the players, Duet",
                  "The game's documentation, as it ships with it.\n\n" + topics(), add_arguments, run)
