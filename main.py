"""Codenames in the terminal: `python main.py` to play, `python main.py --help` for the flags."""

from __future__ import annotations

import argparse
import functools
import importlib
import os
import sys
from pathlib import Path

import session
from board import SIZE, TEAMS
from cli import (
    Command,
    CommandParser,
    OneLineParser,
    add_ai_arguments,
    file_to_write,
    parse_seed,
    team_flag,
    wrong,
)
from common import BOARD_WORDS_PATH, CLONE_COMMAND, COMMAND, GAMES_LOG_PATH, PLAYERS_DIR, load_words, shown
from model import LEVELS
from players import COMPOSITIONS
from profiles import GUEST, NOBODY, add_profiles_argument, player_flag
from prompts import QuitGame

DESCRIPTION = """Play Codenames in the console against, or alongside, an AI.

Each team is a captain (spymaster) and an agent (guesser), each a human or
the AI, written captain:agent (ai:human: the AI gives hints, you guess); or
'auto', a solo-play opponent that turns over one of its own cards each turn.
Without --red/--blue you are asked at the start."""

EPILOG = f"""examples:
  {COMMAND}                               ask for the teams, then play
  {COMMAND} --red human:ai --blue auto    you give hints, the AI guesses
  {COMMAND} --red ai:human --blue ai:ai   the AI gives you hints
  {COMMAND} --red ai:ai --blue ai:ai --seed 1   watch the AI play itself
  {COMMAND} --player alice                the AI learns how alice plays, and remembers it

A person playing alongside the AI (ai:human or human:ai) at a terminal is asked
once, after a first game, whether to keep what the AI learnt, under a name.
What the AI learns stays on this computer: {COMMAND} player show|forget NAME.

commands: {COMMAND} bench|serve|companion|duet|host|join|datasets|player --help
the documentation: {COMMAND} help [TOPIC]"""


# The other commands and the line --help gives each. Each one's module is imported only when it
# runs or its help is asked for (`command`): a game and --help start without them.
COMMANDS = {"bench": "measure the AI: strategies, tiers, speed",
            "serve": "the AI for other programs: JSON lines on stdin and stdout",
            "companion": "a helper for a game at a real table: clues and rankings on demand",
            "duet": "Codenames Duet: you and an AI partner against the timer",
            "host": "host a game that each player joins from their own terminal",
            "join": "join a hosted game and play a seat at this terminal",
            "datasets": "download the datasets, or say which are there",
            "player": "what the AI has learnt of each player: list, show, forget",
            "help": "the documentation: the rules, the flags, the datasets, the players, Duet"}


# The lab (lab/, in a clone only) measures the game and imports it; the game never imports the lab.
# Its command is named here and loaded by name when it runs: an installed copy has no lab.
LAB = Path(__file__).resolve().parent / "lab"
LAB_COMMANDS = {"bench": "lab.bench"}


def lab_command(name: str) -> Command:
    """A command of the lab, loaded by name; without the lab, one line and exit status 2."""
    if not (LAB / "__init__.py").is_file():
        print(f"{COMMAND} {name}: the {name} is part of the lab, which comes with a clone of the project "
              f"only (not with pip install): run `{CLONE_COMMAND} {name}` in a clone", file=sys.stderr)
        raise SystemExit(2)
    return importlib.import_module(LAB_COMMANDS[name]).COMMAND


def command(name: str) -> Command:
    """The command called `name`, from its module."""
    if name in LAB_COMMANDS:
        return lab_command(name)
    if name in ("host", "join"):
        import multiplayer

        return multiplayer.COMMANDS[name]
    if name == "serve":
        import protocol as module
    elif name == "companion":
        import companion as module
    elif name == "duet":
        import duet as module
    elif name == "player":
        import profiles as module
    elif name == "help":
        import manual as module
    else:
        import download as module
    return module.COMMAND


def parser() -> argparse.ArgumentParser:
    """The game's flags, and a subcommand for each other command."""
    p = OneLineParser(prog=COMMAND, description=DESCRIPTION, epilog=EPILOG,
                      formatter_class=argparse.RawDescriptionHelpFormatter)
    teams = p.add_argument_group("teams")
    for color in TEAMS:
        teams.add_argument(f"--{color.value}", metavar="TEAM", type=team_flag,
                           help=f"{color.value} team: {', '.join(map(str, COMPOSITIONS))} (captain:agent)")
    you = p.add_argument_group("the player")
    you.add_argument("--player", type=player_flag, metavar="NAME",
                     help=f"your name: the AI learns how you play alongside it and keeps it in "
                          f"{shown(PLAYERS_DIR)}NAME.json, on this computer only. {GUEST}: it learns for "
                          f"this session only and keeps nothing; {NOBODY}: it learns nothing. Without it, "
                          f"a game at a terminal plays as the last name kept, and the first time asks "
                          f"after the game whether to keep what the AI learnt; a piped one plays as a "
                          f"{GUEST}")
    add_profiles_argument(you)
    p.add_argument("--level", choices=list(LEVELS), default=None,
                   help="how the AI plays, for your side and for the opponent (an ai:ai team). "
                        + ". ".join(level.help() for level in LEVELS.values()) + ".")
    p.add_argument("--seed", type=parse_seed, help="make the board, key and AI sampling reproducible")
    p.add_argument("--words", type=word_list, metavar="FILE",
                   help=f"play with another list of card words (default {BOARD_WORDS_PATH.name})")
    add_ai_arguments(p)
    p.add_argument("--explain", action="store_true",
                   help="say why the AI chose each hint (while a person guesses, after the turn)")
    p.add_argument("--log", type=file_to_write("--log"), default=GAMES_LOG_PATH, metavar="FILE",
                   help=f"append each game as a JSON line here (default {shown(GAMES_LOG_PATH)})")
    p.add_argument("--no-log", action="store_true", help="do not write the game log")
    commands = p.add_subparsers(dest="command", title="other commands", metavar="COMMAND",
                                parser_class=CommandParser)
    for name, summary in COMMANDS.items():
        commands.add_parser(name, help=summary, command=functools.partial(command, name))
    return p


def word_list(text: str) -> Path:
    """`--words FILE` as an argparse type: a word list that deals a board (25 distinct words)."""
    try:
        words = load_words(text)
    except UnicodeDecodeError:
        wrong("--words", text, "is not UTF-8 text: a word list is one word a line")
    except OSError as error:
        wrong("--words", text, f"cannot be read ({error.strerror or error})")
    if len(words) < SIZE:
        held = f"{len(words)} distinct word{'s' * (len(words) != 1)}"
        wrong("--words", text, f"holds {held}: a board needs {SIZE}")
    return Path(text)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    args = parser().parse_args(argv)
    if args.command is not None:
        args.argv = argv[argv.index(args.command) + 1:]
        return args.run(args)
    if hasattr(sys.stdin, "reconfigure"):
        sys.stdin.reconfigure(errors="replace")   # bytes that are not UTF-8 are a typo, not a crash
    try:
        return session.play(args)
    except (EOFError, QuitGame):                  # stdin closed, or 'quit', at the team prompt
        print("\nGoodbye.")
        return 0
    except KeyboardInterrupt:
        print("\nGoodbye.")
        return 130
    except BrokenPipeError:                       # `| head`: the reader has seen enough
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())   # no error at exit's flush
        return 1


if __name__ == "__main__":
    sys.exit(main())
