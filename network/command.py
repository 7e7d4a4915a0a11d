"""`python main.py host` and `python main.py join`: their flags, and what runs them."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from board import game_rngs
from cli import Command, add_ai_arguments, load_ai, parse_seed, team_flag
from common import BOARD_WORDS_PATH, COMMAND, DATA_DIR, GAMES_LOG_PATH, shown, warn
from engine import Game
from model import AI, LEVELS
from network.client import Client
from network.host import Host, players_of, shared_address, teams_for
from network.saved import Saved, Saver, load, restore
from network.seats import WATCH, SeatName, new_code, seat_flag, spelled
from network.server import DEFAULT_PORT, LOOPBACK, Server
from network.table import Table
from players import COMPOSITIONS, Composition, Seat
from session import Lineup, fresh_seed, new_board, ready_for_hints, who_plays

DEFAULT_STATE = DATA_DIR / "hosted.json"
PEOPLE = Composition(Seat.HUMAN, Seat.HUMAN)
RESUME_FLAGS = ("resume", "state", "seat", "bind", "port")   # what may be given with --resume

HOST_DESCRIPTION = f"""Host a game that each player joins from their own terminal, on this computer
(over SSH, say) or, with --bind, on a network. The teams are a game's (--red, --blue): each
human seat is taken by whoever joins it, the AI plays its own. The host prints the line to
share: `{COMMAND} join ADDRESS CODE`. The game begins when every person's seat is taken;
a player who drops keeps the seat and joins again; the game is saved after every move, and
a host that stopped picks it up with --resume. See docs/network.md."""

HOST_EPILOG = f"""examples:
  {COMMAND} host                                 four people, on this computer
  {COMMAND} host --red human:human --blue ai:human --seat red:captain
  {COMMAND} host --bind 0.0.0.0                  open to the network (friends with laptops)
  {COMMAND} host --resume                        pick up the game the host stopped"""

JOIN_DESCRIPTION = f"""Join a hosted game and play a seat at this terminal: the board, prompts and
commands of the console game, in the view of the seat (captains see the key). ADDRESS and CODE
are those the host printed. Ctrl-C leaves; the seat stays yours, and `{COMMAND} join` with
the same code and seat takes it again."""

JOIN_EPILOG = f"""examples:
  {COMMAND} join 127.0.0.1:{DEFAULT_PORT} owl-piano-jam                   the first free seat
  {COMMAND} join 192.168.1.20:{DEFAULT_PORT} owl-piano-jam --seat blue:agent
  {COMMAND} join 127.0.0.1:{DEFAULT_PORT} owl-piano-jam --seat watch      watch, as the agents see it"""


def seat_type(text: str) -> SeatName | str:
    try:
        return seat_flag(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def port_type(text: str) -> int:
    if not text.isdecimal() or not 0 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"a port is a number 0-65535, not {text!r}")
    return int(text)


def add_host_arguments(p: argparse.ArgumentParser) -> None:
    """host's flags: a game's, where it listens, the host's own seat, the save."""
    teams = p.add_argument_group("teams")
    for color in ("red", "blue"):
        teams.add_argument(f"--{color}", metavar="TEAM", type=team_flag, default=PEOPLE,
                           help=f"{color} team: {', '.join(map(str, COMPOSITIONS))} "
                                "(default human:human)")
    p.add_argument("--level", choices=list(LEVELS), default=None,
                   help="how the AI plays (default normal)")
    p.add_argument("--seed", type=parse_seed, help="make the board, key and AI sampling reproducible")
    p.add_argument("--words", type=Path, metavar="FILE",
                   help=f"play with another list of card words (default {BOARD_WORDS_PATH.name})")
    p.add_argument("--explain", action="store_true", help="captains hear why the AI chose each hint")
    p.add_argument("--log", type=Path, default=GAMES_LOG_PATH, metavar="FILE",
                   help="append the game as a JSON line here when it is over (default data/games.jsonl)")
    p.add_argument("--no-log", action="store_true", help="do not write the game log")
    add_ai_arguments(p)
    net = p.add_argument_group("the table")
    net.add_argument("--bind", metavar="ADDRESS", default=None,
                     help=f"the address to listen on (default {LOOPBACK}: this computer only); "
                          "0.0.0.0 opens the game to every network this computer is on")
    net.add_argument("--port", type=port_type, default=None, metavar="N",
                     help=f"the port to listen on (default {DEFAULT_PORT}; 0: any free one)")
    net.add_argument("--seat", type=seat_type, default=None, metavar="SEAT",
                     help="the seat this terminal plays, e.g. red:captain (default: it watches)")
    net.add_argument("--state", type=Path, default=DEFAULT_STATE, metavar="FILE",
                     help=f"where the game is saved after every move (default {shown(DEFAULT_STATE)})")
    again = net.add_mutually_exclusive_group()
    again.add_argument("--resume", action="store_true",
                       help="pick up the saved game, with the flags it was hosted with")
    again.add_argument("--new", action="store_true", help="host a new game over the saved one")


def add_join_arguments(p: argparse.ArgumentParser) -> None:
    """join's: where the host is, the code, the seat."""
    p.add_argument("address", metavar="ADDRESS", type=address_type,
                   help=f"HOST:PORT (or HOST: port {DEFAULT_PORT})")
    p.add_argument("code", metavar="CODE", nargs="+",
                   help="the join code the host printed (owl-piano-jam; or its words: owl piano jam)")
    p.add_argument("--seat", type=seat_type, default=None, metavar="SEAT",
                   help=f"red:captain, red:agent, blue:captain, blue:agent, or {WATCH} "
                        "(default: the first free)")


def address_type(text: str) -> tuple[str, int]:
    """HOST:PORT, [IPV6]:PORT or HOST."""
    host, colon, port = text.rpartition(":")
    if not colon or (host.count(":") and not host.startswith("[")):   # no port, or a bare IPv6 address
        host, port = text, str(DEFAULT_PORT)
    host = host.strip("[]")
    if not host or not port.isdecimal() or not 0 < int(port) <= 65535:
        raise argparse.ArgumentTypeError(f"an address is HOST:PORT, e.g. {LOOPBACK}:{DEFAULT_PORT}, "
                                         f"not {text!r}")
    return host, int(port)


# --- host -------------------------------------------------------------------------------------


class CannotHost(Exception):
    """What stops a game from being hosted, in a sentence for the user."""


def run_host(args: argparse.Namespace) -> int:
    """Host a game, or pick up the saved one, and play or watch it here; an exit code."""
    if hasattr(sys.stdin, "reconfigure"):
        sys.stdin.reconfigure(errors="replace")
    try:
        return host_game(args)
    except KeyboardInterrupt:   # while the AI loads: nothing hosted yet
        print("\nGoodbye.")
        return 130


def host_game(args: argparse.Namespace) -> int:
    """The game set up, hosted and played here; what cannot be is said in a line (exit 2)."""
    try:
        saved = saved_game(args)
        if saved is not None:
            args = resumed(args, saved)
        lineup = who_plays(args)
        players = players_of(lineup)
        if isinstance(args.seat, SeatName) and players[args.seat] != "human":
            raise CannotHost(f"--seat {args.seat}: the {args.seat.spoken} is {players[args.seat]}, "
                             "not a person")
        host = hosted(args, lineup, ai_for(args, lineup), saved)
    except CannotHost as problem:
        warn(f"host: {problem}")
        return 2
    host.start()
    announce(host, args)
    return host.at_this_terminal(args.seat)


def saved_game(args: argparse.Namespace) -> Saved | None:
    """The saved game to pick up (--resume), or None for a new one; a saved game is never hosted over
    unasked (--new)."""
    if args.resume:
        if (saved := load(args.state)) is None:
            raise CannotHost(f"no game is saved in {args.state} to pick up")
        return saved
    if args.state.exists() and not args.new:
        raise CannotHost(f"a game that is not over is saved in {args.state}: --resume picks it up, --new "
                         "hosts a new one over it")
    return None


def resumed(args: argparse.Namespace, saved: Saved) -> argparse.Namespace:
    """The flags the saved game was hosted with, and where it listens, now or as before."""
    fresh = host_parser().parse_args([])
    changed = [name for name, value in vars(fresh).items()
               if name not in RESUME_FLAGS and vars(args).get(name, value) != value]
    if changed:
        flags = ", ".join("--" + name.replace("_", "-") for name in changed)
        raise CannotHost(f"--resume plays the saved game as it was hosted; leave out {flags}")
    again = host_parser().parse_args(saved.argv)
    again.argv, again.resume, again.new = saved.argv, True, False
    again.state, again.seat = args.state, args.seat
    again.bind = args.bind or saved.address[0]
    again.port = args.port if args.port is not None else saved.address[1]
    return again


def ai_for(args: argparse.Namespace, lineup: Lineup) -> AI | None:
    """The AI the teams need (None: none does)."""
    if not lineup.needs_ai:
        return None
    try:
        ai = load_ai(args)
    except (OSError, ValueError, RuntimeError) as error:
        raise CannotHost(f"cannot build the AI: {error}") from None
    ready_for_hints(ai, lineup)
    return ai


def hosted(args: argparse.Namespace, lineup: Lineup, ai: AI | None, saved: Saved | None) -> Host:
    """The game at its table, listening."""
    code = saved.code if saved is not None else new_code()
    table = Table(code, players_of(lineup), args.explain)
    teams = teams_for(lineup, ai, table)
    try:
        game = restore(saved, teams) if saved is not None else new_game(args, teams)
    except (OSError, ValueError) as error:
        raise CannotHost(f"cannot {'pick up the saved game' if saved else 'deal a board'}: {error}") from None
    if ai is not None:
        ai.weights.add_words(game.board.words)
    bind, port = args.bind or LOOPBACK, DEFAULT_PORT if args.port is None else args.port
    try:
        server = Server((bind, port), table)
    except OSError as error:
        raise CannotHost(f"cannot listen on {bind}:{port}: {error.strerror or error} (another host there? "
                         "--port N takes another port)") from None
    host = Host(game, table, server, Saver(args.state, game, args.argv, code, server.address),
                None if args.no_log else args.log)
    host.resumed = saved is not None
    return host


def new_game(args: argparse.Namespace, teams: dict) -> Game:
    seed = fresh_seed() if args.seed is None else args.seed
    board_rng, play_rng = game_rngs(seed)
    return Game(new_board(args.words, board_rng), teams, rng=play_rng, seed=seed)


def announce(host: Host, args: argparse.Namespace) -> None:
    """The lines the host prints: where the game is, and the one line to share."""
    reach = ("on this computer only (players on it, or reaching it over SSH; --bind opens it to a network)"
             if host.server.address[0] in (LOOPBACK, "::1") else "on the network")
    picked_up = "picked up where it stopped, " if args.resume else ""
    print(f"Game {host.game.seed}, {picked_up}hosted {reach}. Each player types:\n\n"
          f"    {COMMAND} join {shared_address(host)} {host.table.code}\n\n"
          f"(with --seat red:captain, say, to choose a seat; Ctrl-C here stops the game, saved)", flush=True)


def host_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=f"{COMMAND} host", add_help=False)
    add_host_arguments(p)
    return p


# --- join -------------------------------------------------------------------------------------


def run_join(args: argparse.Namespace) -> int:
    """Play a seat of a hosted game at this terminal; an exit code."""
    if hasattr(sys.stdin, "reconfigure"):
        sys.stdin.reconfigure(errors="replace")
    try:
        return Client(args.address, spelled(" ".join(args.code)), args.seat).play()
    except OSError as error:
        host, port = args.address
        warn(f"join: cannot reach a host at {host}:{port}: {error.strerror or error}")
        return 2
    except KeyboardInterrupt:   # while it connects
        print("\nGoodbye.")
        return 130


HOST = Command("host", "host a game that each player joins from their own terminal", HOST_DESCRIPTION,
               add_host_arguments, run_host, HOST_EPILOG)
JOIN = Command("join", "join a hosted game and play a seat at this terminal", JOIN_DESCRIPTION,
               add_join_arguments, run_join, JOIN_EPILOG)
