"""Codenames in the terminal: `python main.py` to play, `python main.py --help` for the flags."""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import os
import sys
from pathlib import Path

import numpy as np

from board import BLUE, RED, TEAMS, Board, Color, game_rngs
from cli import Command, CommandParser, add_ai_arguments, load_ai, parse_seed
from common import BOARD_WORDS_PATH, COMMAND, GAMES_LOG_PATH, load_words, warn
from engine import AutoTeam, Game, RuleError, Team, TurnStarted
from model import AI, DEFAULT_LEVEL, LEVELS
from players import COMPOSITIONS, AIAgent, AICaptain, HumanAgent, HumanCaptain, parse_composition
from prompts import QuitGame, read_line
from renderer import RULES, ConsoleTerminal, Renderer

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

commands: {COMMAND} bench|serve|companion|duet|datasets --help"""


# The other commands and the line --help gives each. Each one's module is imported only when it
# runs or its help is asked for (`command`): a game and --help start without them.
COMMANDS = {"bench": "measure the AI: strategies, tiers, speed",
            "serve": "the AI for other programs: JSON lines on stdin and stdout",
            "companion": "a helper for a game at a real table: clues and rankings on demand",
            "duet": "Codenames Duet: you and an AI partner against the timer",
            "datasets": "download the datasets, or say which are there"}


def command(name: str) -> Command:
    """The command called `name`, from its module."""
    if name == "bench":
        import bench as module
    elif name == "serve":
        import protocol as module
    elif name == "companion":
        import companion as module
    elif name == "duet":
        import duet as module
    else:
        import download as module
    return module.COMMAND


def parser() -> argparse.ArgumentParser:
    """The game's flags, and a subcommand for each other command."""
    p = argparse.ArgumentParser(prog=COMMAND, description=DESCRIPTION, epilog=EPILOG,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    teams = p.add_argument_group("teams")
    for color in TEAMS:
        teams.add_argument(f"--{color.value}", metavar="TEAM", type=composition,
                           help=f"{color.value} team: {', '.join(COMPOSITIONS)} (captain:agent)")
    p.add_argument("--level", choices=list(LEVELS), default=None,
                   help="how strongly ai:ai teams play: " + "; ".join(
                       f"{level.name}: {level.about}" for level in LEVELS.values()))
    p.add_argument("--seed", type=parse_seed, help="make the board, key and AI sampling reproducible")
    p.add_argument("--words", type=Path, metavar="FILE",
                   help=f"play with another list of card words (default {BOARD_WORDS_PATH.name})")
    add_ai_arguments(p)
    p.add_argument("--explain", action="store_true",
                   help="say why the AI chose each hint (while a person guesses, after the turn)")
    p.add_argument("--log", type=Path, default=GAMES_LOG_PATH, metavar="FILE",
                   help="append each game as a JSON line here (default data/games.jsonl)")
    p.add_argument("--no-log", action="store_true", help="do not write the game log")
    commands = p.add_subparsers(dest="command", title="other commands", metavar="COMMAND",
                                parser_class=CommandParser)
    for name, summary in COMMANDS.items():
        commands.add_parser(name, help=summary, command=functools.partial(command, name))
    return p


def composition(text: str) -> str:
    try:
        return parse_composition(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


# --- setting up a game ----------------------------------------------------------------


TEAM_QUESTION = """Who plays? Each team is captain:agent, each human or ai: ai:human means the AI
gives the hints and you guess; human:ai, you give hints and the AI guesses; human:human,
two people share the screen. auto is a solo opponent that turns over one of its own cards
each turn. Type help for the rules, quit to leave."""

# What an empty answer chooses: a person guesses for red against an AI team.
DEFAULT_TEAMS = {RED: "ai:human", BLUE: "ai:ai"}


def ask_line(question: str) -> str:
    """A line typed at a set-up prompt, cleaned as at the game's prompts (a line too long is
    refused with a message and asked again)."""
    return read_line(ConsoleTerminal(Renderer()), question)


def ask_composition(color: Color) -> str:
    """Ask for one team's composition until the answer makes sense."""
    default = DEFAULT_TEAMS[color]
    while True:
        answer = ask_line(f"{color.value} team ({' / '.join(COMPOSITIONS)}) [{default}]> ")
        if answer in ("quit", "exit", "q"):
            raise QuitGame
        if answer in ("help", "?"):
            print(f"{TEAM_QUESTION}\n\n{RULES}")
            continue
        try:
            return parse_composition(answer or default)
        except ValueError as error:
            print(error)


def ask_level() -> str:
    """Ask how strongly the AI teams play."""
    choices = " / ".join(LEVELS)
    while True:
        choice = ask_line(f"AI level ({choices}) [{DEFAULT_LEVEL}]> ")
        if choice in ("quit", "exit", "q"):
            raise QuitGame
        if choice in LEVELS or not choice:
            return choice or DEFAULT_LEVEL
        if choice not in ("help", "?"):
            print(f"unknown level {choice!r}: choose one of {', '.join(LEVELS)}")
        print("\n".join(f"{level.name}: {level.about}" for level in LEVELS.values()))


def make_team(color: Color, kind: str, ai, terminal: ConsoleTerminal, level: str | None = None
              ) -> Team | AutoTeam:
    """The players of one team; a `level` weakens an ai:ai team (people play with the AI whole)."""
    if kind == "auto":
        return AutoTeam(color)
    captain_kind, agent_kind = kind.split(":")
    twin = agent_kind == "ai"   # the AI captain then knows how its agent reads a hint
    strength = LEVELS[level] if level and kind == "ai:ai" else None
    captain = (HumanCaptain(terminal) if captain_kind == "human"
               else AICaptain(ai.captain(twin, level=strength)))
    if agent_kind == "human":
        agent = HumanAgent(terminal)
    else:   # a person's clues are read by the model of people (models/people.py)
        agent = AIAgent(ai.people_agent() if captain_kind == "human" else ai.agent(level=strength))
    label = f"{kind} ({level})" if strength else kind
    return Team(color, captain, agent, label=label)


def new_board(words_file: Path | None, rng: np.random.Generator) -> Board:
    """Deal a board from the card list (or the user's), with the game's board rng."""
    words = load_words(words_file or BOARD_WORDS_PATH)
    return Board.random(words, rng)


def append_log(path: Path, record: dict) -> None:
    """Append one game to the log; a log that cannot be written never stops the game.

    A record always starts on a line of its own, even after a half line that a killed writer
    left; a write cut short (a full disk) is undone, so as not to leave one.
    """
    line = (json.dumps(record) + "\n").encode("utf-8")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "ab+", buffering=0) as f:
            start = f.seek(0, os.SEEK_END)
            if start and (f.seek(start - 1), f.read(1))[1] != b"\n":
                line = b"\n" + line
            try:
                written = 0
                while written < len(line):
                    written += f.write(line[written:])
            except OSError:
                with contextlib.suppress(OSError):
                    f.truncate(start)
                raise
    except OSError as error:
        warn(f"could not write the game log {path}: {error}")


def play(args: argparse.Namespace) -> int:
    """Set up the teams, then play games until the players have had enough."""
    prompted = not (args.red and args.blue)
    if prompted:
        print(TEAM_QUESTION)
    kinds = {RED: args.red or ask_composition(RED), BLUE: args.blue or ask_composition(BLUE)}
    people = any("human" in kind for kind in kinds.values())
    level = args.level
    if level is None and "ai:ai" in kinds.values():
        level = ask_level() if prompted and people else DEFAULT_LEVEL
    elif level is not None and "ai:ai" not in kinds.values():
        warn(f"--level {level} is not used: it sets how ai:ai teams play, and no team is ai:ai")
    needs_ai = any(k != "auto" and "ai" in k.split(":") for k in kinds.values())
    if needs_ai:
        import download

        download.offer(args.sources)   # once, in a terminal, when there is no dataset yet
    try:
        # The model of people reads every matrix: it reads a person's hints, and the captain plans
        # for it, but at a level whose captain plans for its own twin.
        twins = level is not None and LEVELS[level].twin
        for_people = any(k != "auto" and not (k == "ai:ai" and twins) for k in kinds.values())
        ai = load_ai(args, partners=for_people) if needs_ai else None
    except (OSError, ValueError, RuntimeError) as error:   # a bad flag or a missing model
        warn(f"cannot build the AI: {error}")
        return 2
    if "human:ai" in kinds.values():
        import datasets

        print("Getting the AI agent ready to read any hint...")
        datasets.warm_up(ai.weights)   # so that the first hint outside the vocabulary does not stall
    seed = args.seed
    while True:
        seed = fresh_seed() if seed is None else seed
        code, finished = play_game(args, kinds, ai, level, seed)
        if code or not finished or not people or not again():
            return code
        seed = seed + 1 if args.seed is not None else None


def fresh_seed() -> int:
    """A seed for a game the user did not seed, so that the log can replay it."""
    return int(np.random.SeedSequence().generate_state(1)[0] >> 1)


def again() -> bool:
    """Ask whether to play another game until the answer is yes or no; the input closing is no."""
    try:
        while (reply := ask_line("Play again? [Y/n]> ")) not in ("", "y", "yes", "n", "no"):
            print("Type y to play again, or n to stop.")
    except EOFError:
        return False
    return reply in ("", "y", "yes")


def play_game(args: argparse.Namespace, kinds: dict[Color, str], ai: AI | None, level: str | None,
              seed: int) -> tuple[int, bool]:
    """One game: (exit code, whether it was played to its end)."""
    board_rng, play_rng = game_rngs(seed)
    try:
        board = new_board(args.words, board_rng)
    except (OSError, ValueError) as error:
        warn(f"cannot deal a board: {error}")
        return 2, False
    # Nobody may see the key while a person guesses: no spectator's board, and what the AI meant
    # (with --explain, why) only once the turn is over, the cards still face down unnamed.
    human_agents = any(k.endswith(":human") for k in kinds.values())
    human_captains = any(k.startswith("human:") for k in kinds.values())
    renderer = Renderer(explain=args.explain, secret=human_agents)
    terminal = ConsoleTerminal(renderer, hot_seat=human_agents and human_captains)
    if ai is not None:
        ai.weights.add_words(board.words)
    teams = {color: make_team(color, kind, ai, terminal, level) for color, kind in kinds.items()}
    game = Game(board, teams, rng=play_rng, seed=seed)
    game.listeners.append(lambda event: renderer.on_event(event, game))
    if not human_agents:
        game.listeners.append(lambda event: spectate(event, game, renderer))
    renderer.write(f"\nGame {seed} (replay it with --seed {seed}). Type help at any prompt.")
    renderer.write(renderer.legend())
    try:
        game.play()
    except (QuitGame, EOFError, KeyboardInterrupt) as stop:
        reason = {QuitGame: "a player quit", EOFError: "the input closed"}.get(type(stop), "interrupted")
        game.abandon(reason)
        renderer.write("\nGame abandoned." if isinstance(stop, QuitGame) else "\nGoodbye.")
        return (130 if isinstance(stop, KeyboardInterrupt) else 0), False
    except RuleError as error:
        game.abandon(f"internal error: {error}")
        warn(f"internal error, the game cannot go on: {error}")
        return 1, False
    finally:
        if not args.no_log:
            append_log(args.log, game.record())
    return 0, True


def spectate(event, game: Game, renderer: Renderer) -> None:
    """With no human guessing, show the full board at the start of each turn (a human captain
    is shown the board by its own prompt, so not twice)."""
    if (isinstance(event, TurnStarted)
            and not isinstance(getattr(game.teams[event.side], "captain", None), HumanCaptain)):
        renderer.write(renderer.board(game.board, captain=True))


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    args = parser().parse_args(argv)
    if args.command is not None:
        args.argv = argv[argv.index(args.command) + 1:]
        return args.run(args)
    if hasattr(sys.stdin, "reconfigure"):
        sys.stdin.reconfigure(errors="replace")   # bytes that are not UTF-8 are a typo, not a crash
    try:
        return play(args)
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
