"""The host of a game played at several terminals: the one authority.

The host runs the engine, the AI and the log as the console game does; a person's seat is a
`SeatTerminal` at the table (network/table.py), which the player's connection fills. The game
plays in a thread of its own once every person's seat is taken, is saved after every move
(network/saved.py) and logged when it is over. The host's own terminal is a player like any
other, connected to its own table: it holds a seat, or watches as the agents see the board.
"""

from __future__ import annotations

import socket
import threading
import traceback
from pathlib import Path

from board import Color
from common import warn
from engine import AutoTeam, Game, RuleError, Team
from model import AI, hint_problem
from network.client import Client
from network.saved import Saver
from network.seats import ROLES, WATCH, SeatName
from network.server import LOOPBACK, Server
from network.table import HostStopped, SeatTerminal, Table
from players import make_team
from session import Lineup, log_game

GAME_OVER = "The game is over."
STOPPED = "The host stopped the game; it is saved, and goes on when the host picks it up again."


def players_of(lineup: Lineup) -> dict[SeatName, str]:
    """Who plays each seat: 'human', 'ai' or 'auto'."""
    players = {}
    for color, composition in lineup.teams.items():
        kinds = [seat.value for seat in composition.seats] or ["auto", "auto"]
        players |= {SeatName(color, role): kind for role, kind in zip(ROLES, kinds, strict=True)}
    return players


def teams_for(lineup: Lineup, ai: AI | None, table: Table) -> dict[Color, Team | AutoTeam]:
    """The teams, each person playing at their seat of the table."""
    return {color: make_team(color, composition, ai, SeatTerminal(table, SeatName(color, "captain")),
                             lineup.level, agent_terminal=SeatTerminal(table, SeatName(color, "agent")))
            for color, composition in lineup.teams.items()}


class Host:
    """A hosted game: its table, the server players join through, the save after every move
    (`saver`) and the log it goes to when it is over (`log`, None: not logged)."""

    def __init__(self, game: Game, table: Table, server: Server, saver: Saver | None, log: Path | None):
        self.game, self.table, self.server, self.saver, self.log = game, table, server, saver, log
        table.game = game
        if saver is not None:   # saved before the players hear of a move
            game.listeners.append(saver)
        game.listeners.append(table.on_event)
        self.thread = threading.Thread(target=self.play, name="game", daemon=True)
        self.code = 0
        self.resumed = False   # a saved game picked up again

    @property
    def address(self) -> tuple[str, int]:
        """Where players reach it (the loopback for a host listening on every address)."""
        host, port = self.server.address
        return {"0.0.0.0": LOOPBACK, "::": "::1"}.get(host, host), port

    def start(self) -> None:
        """Save the game as it is, ready the rules, listen and let the game's thread play."""
        if self.saver is not None:
            self.saver.save()   # a host killed before the first move resumes the same board and code
        hint_problem("ready", self.game.board)   # the rules' word lists load now, not at the first hint
        self.server.start()
        self.thread.start()

    def play(self) -> None:
        """The game's thread: wait for the players, play to the end, log it and close the table."""
        game = self.game
        try:
            self.table.wait_for_players(self.resumed)
            game.play()
        except HostStopped:   # saved at its last move; resumed, it goes on from there
            return
        except RuleError as problem:
            self.fail(f"internal error: {problem}")
        except Exception as problem:   # the last resort: the game ends, the players are told
            warn(traceback.format_exc())
            self.fail(f"internal error: {type(problem).__name__}")
        if self.log is not None:
            log_game(self.log, game.record())
        if self.saver is not None and game.over:
            self.saver.path.unlink(missing_ok=True)
        self.table.stop(GAME_OVER if game.over else f"The game cannot go on ({game.reason}).")

    def fail(self, reason: str) -> None:
        self.game.abandon(reason)
        warn(f"host: the game cannot go on: {reason}")
        self.code = 1

    def stop(self, reason: str = STOPPED) -> None:
        """Stop the game where it is (it stays saved), tell the players, who wait for it to come
        back, and stop listening."""
        self.table.stop(reason, again=True)
        self.server.stop()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the game's thread; whether it has ended."""
        self.thread.join(timeout)
        return not self.thread.is_alive()

    def at_this_terminal(self, seat: SeatName | str | None) -> int:
        """Play `seat` (or watch) at the host's own terminal until the game is over; Ctrl-C or the
        input closing stops the host, the game saved. The exit code."""
        try:
            Client(self.address, self.table.code, seat or WATCH, retry=False).play()
        except (KeyboardInterrupt, EOFError) as stop:
            self.stop()
            where = f" in {self.saver.path}" if self.saver is not None else ""
            print(f"\nStopped. The game is saved{where}: `host --resume` picks it up.", flush=True)
            return 130 if isinstance(stop, KeyboardInterrupt) else 0
        if not self.wait(10):   # this terminal left a game that goes on: stop it, saved
            self.stop()
        self.server.stop()
        return self.code


def shared_address(host: Host) -> str:
    """The address to give the players: for a host open on every address, this machine's own on
    its network (found without sending anything), else what it listens on."""
    address, port = host.server.address
    if address in ("0.0.0.0", "::"):
        address = socket.gethostname()
        probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            probe.connect(("10.255.255.255", 1))   # a UDP connect sends nothing; it picks the interface
            address = probe.getsockname()[0]
        except OSError:
            pass
        finally:
            probe.close()
    return f"[{address}]:{port}" if ":" in address else f"{address}:{port}"
