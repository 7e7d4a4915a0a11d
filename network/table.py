"""The table of a hosted game: the seats, the connections that hold them, and what passes between
them and the game.

The game runs in its own thread and talks to a person's seat as the console game talks to its
terminal (`SeatTerminal`, a prompts.Terminal): what it shows and tells goes down the seat's
connection, and what it asks waits for the seat's answer, however long the player is away. Each
connection's lines go out through a queue and a thread of their own (`Connection`), so that a
player who stops reading never holds up the game. Everything else happens under one lock.
"""

from __future__ import annotations

import contextlib
import itertools
import queue
import secrets
import socket
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from board import Board, Color
from common import warn
from engine import Event, Game, Turn
from network.seats import WATCH, SeatName, same_code
from network.views import board_message, event_message
from network.wire import VERSION, encode, error
from prompts import clean, command

MAX_QUEUED = 2000        # lines waiting for a player who does not read; then the connection is closed
MAX_CONNECTIONS = 64     # at once, seated or not; more are refused
FLUSH_TIMEOUT = 2.0      # seconds a stopping table waits for its last lines to go out


class HostStopped(Exception):
    """The host stopped while the game waited for a player."""


@dataclass(frozen=True)
class Ask:
    """A question put to a seat: its id (unique across the host's runs) and its prompt."""

    id: str
    prompt: str

    def message(self) -> dict[str, Any]:
        return {"type": "ask", "id": self.id, "prompt": self.prompt}


class Connection:
    """One player's connection, as the host holds it: its seat (a SeatName, WATCH, or None before
    it has joined) and its lines out."""

    def __init__(self, sock: socket.socket, address: str):
        self.sock, self.address = sock, address
        self.seat: SeatName | str | None = None
        self.outbox: queue.Queue[bytes | None] = queue.Queue(MAX_QUEUED)
        self.closed = threading.Event()
        threading.Thread(target=self._write, name=f"to {address}", daemon=True).start()

    @property
    def captain(self) -> bool:
        """Whether this connection may see the key."""
        return isinstance(self.seat, SeatName) and self.seat.captain

    def send(self, message: dict[str, Any]) -> None:
        self.send_line(encode(message))

    def send_line(self, line: bytes) -> None:
        """Queue a line for the player (a closed connection drops it)."""
        if self.closed.is_set():
            return
        try:
            self.outbox.put_nowait(line)
        except queue.Full:   # the player stopped reading long ago; their seat is kept
            self.close()

    def finish(self) -> None:
        """Close the connection once what is queued is sent."""
        try:
            self.outbox.put_nowait(None)
        except queue.Full:
            self.close()

    def close(self) -> None:
        """Close the connection now; its reader sees the end, and the seat is left."""
        self.closed.set()
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        with contextlib.suppress(queue.Full):
            self.outbox.put_nowait(None)

    def _write(self) -> None:
        while (line := self.outbox.get()) is not None and not self.closed.is_set():
            try:
                self.sock.sendall(line)
            except OSError:
                break
        self.close()


def notice(text: str) -> dict[str, Any]:
    return {"type": "notice", "text": text}


def end(reason: str, again: bool = False) -> dict[str, Any]:
    """The last line a connection gets: the game is over, the player left, or the host stopped
    (`again`: the game will go on when the host picks it up, and the player may wait for it)."""
    return {"type": "end", "reason": reason, "again": again}


class Refused(Exception):
    """A join the table turns down, with the reason the player is told."""


class Table:
    """The seats of a hosted game (`players`: each seat's player, 'human', 'ai' or 'auto') and the
    connections at it. A connection joins with the code, for a seat or the first free one, and
    then answers what its seat is asked, and nothing else."""

    def __init__(self, code: str, players: dict[SeatName, str], explain: bool = False):
        self.code, self.players, self.explain = code, players, explain
        self.held: dict[SeatName, Connection | None] = {s: None for s, p in players.items() if p == "human"}
        self.watchers: set[Connection] = set()
        self.connections: set[Connection] = set()
        self.asked: dict[SeatName, Ask] = {}
        self.answers: dict[SeatName, str] = {}
        self.wrong_codes = 0
        self.game: Game | None = None
        self.begun = False   # every seat was taken once, and the game plays
        self.stopped: str | None = None
        self.lock = threading.Condition()
        self._run, self._asks = secrets.token_hex(3), itertools.count(1)

    # --- connections: the server's side ---------------------------------------------------------

    def connect(self, connection: Connection) -> bool:
        """Take in a new connection; False (and it is told why) when there are too many."""
        with self.lock:
            if len(self.connections) >= MAX_CONNECTIONS or self.stopped:
                connection.send(end(self.stopped or "the table is full of connections"))
                connection.finish()
                return False
            self.connections.add(connection)
            return True

    def receive(self, connection: Connection, message: dict[str, Any]) -> None:
        """A player's message, checked on the wire (network/wire.py)."""
        with self.lock:
            if message["type"] == "join":
                self.join(connection, message)
            elif connection.seat is None:
                connection.send(error("join the game first: send a join line with the code"))
            else:
                self.answer(connection, message)

    def disconnect(self, connection: Connection) -> None:
        """A connection ended: its seat is kept for the player to come back to."""
        with self.lock:
            self.connections.discard(connection)
            self.watchers.discard(connection)
            seat = connection.seat
            if isinstance(seat, SeatName) and self.held.get(seat) is connection:
                self.held[seat] = None
                then = ": waiting for them to come back" if seat in self.asked else "; the seat stays theirs"
                self.tell_all(notice(f"The {seat.spoken} left{then}."))
            self.lock.notify_all()

    # --- joining --------------------------------------------------------------------------------

    def join(self, connection: Connection, message: dict[str, Any]) -> None:
        """A join line: the code checked (a wrong one counted), a seat chosen, or the join refused."""
        if connection.seat is not None:
            connection.send(error(f"already at the table as {describe(connection.seat)}"))
            return
        try:
            if not same_code(message["code"], self.code):
                self.wrong_codes += 1
                warn(f"host: refused a wrong join code from {connection.address} ({self.wrong_codes} so far)")
                raise Refused("wrong join code")
            seat = self.choose(message.get("seat"))
        except Refused as refused:
            connection.send({"type": "refused", "reason": str(refused)})
            connection.finish()
            return
        self.sit(connection, seat)

    def choose(self, wanted: str | None) -> SeatName | str:
        """The seat a join asks for (None: the first free person's seat); Refused says why not."""
        if wanted is None:
            free = [seat for seat, held in self.held.items() if held is None]
            if not free:
                raise Refused(f"no seat is free (join with --seat {WATCH} to watch)")
            return free[0]
        if wanted.strip().lower() == WATCH:
            return WATCH
        try:
            seat = SeatName.parse(wanted)
        except ValueError as problem:
            raise Refused(str(problem)) from None
        if seat not in self.held:
            player = "the AI" if self.players.get(seat) == "ai" else "a solo opponent (auto)"
            raise Refused(f"the {seat.spoken} is {player}, not a person")
        return seat

    def sit(self, connection: Connection, seat: SeatName | str) -> None:
        """Seat a connection: the one that held the seat before (a closed laptop that has not said
        so) is told and let go; the new one gets the table as its seat sees it."""
        if seat == WATCH:
            self.watchers.add(connection)
        else:
            if (before := self.held[seat]) is not None:
                before.send(end("another terminal took your seat"))
                before.finish()
            self.held[seat] = connection
        connection.seat = seat
        connection.send(self.welcome(seat))
        for message in self.snapshot(seat):
            connection.send(message)
        if seat != WATCH:
            came = "is back" if self.begun else "joined"
            self.tell_all(notice(f"The {seat.spoken} {came}."), but=connection)
            if not self.begun and self.missing():
                self.tell_all(notice(self.waiting_for()), but=connection)
        self.lock.notify_all()

    def welcome(self, seat: SeatName | str) -> dict[str, Any]:
        """The first line a seated connection gets: its seat and view, the game, who sits where."""
        game = self.game
        return {"type": "welcome", "version": VERSION, "seat": str(seat),
                "view": "captain" if isinstance(seat, SeatName) and seat.captain else "agents",
                "game": None if game is None else game.seed, "explain": self.explain,
                "seats": {str(s): self.status(s, seat) for s in self.players}}

    def status(self, seat: SeatName, yours: SeatName | str) -> str:
        """Who is in a seat: 'you', 'here', 'away' (a person not at the table), 'ai' or 'auto'."""
        if seat not in self.held:
            return self.players[seat]
        return "you" if seat == yours else "away" if self.held[seat] is None else "here"

    def snapshot(self, seat: SeatName | str) -> list[dict[str, Any]]:
        """What a seat is shown as it sits down: the board in its view, who the game waits for and
        what it is asked."""
        messages = []
        if (game := self.game) is not None:
            captain = isinstance(seat, SeatName) and seat.captain
            messages.append(board_message(game.board, game.team, game.history, captain))
        if not self.begun and self.missing():
            messages.append(notice(self.waiting_for()))
        messages += [notice(f"Waiting for the {s.spoken} to come back.") for s in self.asked
                     if s != seat and self.held[s] is None]
        if isinstance(seat, SeatName) and seat in self.asked:
            messages.append(self.asked[seat].message())
        return messages

    def missing(self) -> list[SeatName]:
        return [seat for seat, held in self.held.items() if held is None]

    def waiting_for(self) -> str:
        seats = [seat.spoken for seat in self.missing()]
        listed = seats[0] if len(seats) == 1 else f"{', '.join(seats[:-1])} and {seats[-1]}"
        return f"Waiting for the {listed} to join."

    # --- answers ----------------------------------------------------------------------------------

    def answer(self, connection: Connection, message: dict[str, Any]) -> None:
        """A seat's answer to what it is asked; anything else gets an error line and changes nothing."""
        seat = connection.seat
        ask = self.asked.get(seat) if isinstance(seat, SeatName) else None
        if ask is None or seat in self.answers:
            connection.send(error(f"nothing is asked of {describe(seat)} now"))
        elif message["id"] != ask.id:
            connection.send(error("that answers a question no longer asked; here is the one that is"))
            connection.send(ask.message())
        elif command(clean(message["text"])) == "quit":   # as the seat's prompt reads it
            connection.send(end(f"You left the game; the {seat.spoken}'s seat is kept for you: join again "
                                f"with the same code and --seat {seat} to play on."))
            connection.finish()
        else:
            self.answers[seat] = message["text"]
            self.lock.notify_all()

    # --- the game's side ----------------------------------------------------------------------------

    def ask(self, seat: SeatName, prompt: str) -> str:
        """Put a question to a seat and wait for its answer (HostStopped if the host stops first)."""
        with self.lock:
            ask = Ask(f"{self._run}.{next(self._asks)}", prompt)
            self.asked[seat] = ask
            if (connection := self.held[seat]) is not None:
                connection.send(ask.message())
            else:
                self.tell_all(notice(f"Waiting for the {seat.spoken} to come back."))
            try:
                while seat not in self.answers:
                    if self.stopped:
                        raise HostStopped(self.stopped)
                    self.lock.wait()
                return self.answers.pop(seat)
            finally:
                del self.asked[seat]

    def send(self, seat: SeatName, message: dict[str, Any]) -> None:
        """A line for one seat, if it is at the table (a seat away gets the board when it is back)."""
        with self.lock:
            if (connection := self.held[seat]) is not None:
                connection.send(message)

    def on_event(self, event: Event) -> None:
        """Tell every connection an event of the game, as its seat may see it."""
        lines = {captain: encode(event_message(event, captain)) for captain in (True, False)}
        with self.lock:
            for connection in self.seated():
                connection.send_line(lines[connection.captain])

    def wait_for_players(self, resumed: bool = False) -> None:
        """Wait until every person's seat is taken (HostStopped if the host stops first)."""
        with self.lock:
            while self.missing():
                if self.stopped:
                    raise HostStopped(self.stopped)
                self.lock.wait()
            self.begun = True
            then = "the game goes on where it stopped." if resumed else "the game begins."
            self.tell_all(notice(f"Every seat is taken: {then}" if self.held else then.capitalize()))

    def stop(self, reason: str, again: bool = False) -> None:
        """End the table: every connection is told why (and whether the game goes on `again`) and
        closed, and the game stops waiting."""
        with self.lock:
            self.stopped = reason
            connections = list(self.connections)
            for connection in connections:
                connection.send(end(reason, again))
                connection.finish()
            self.lock.notify_all()
        # A host that exits next would drop the lines still queued: the players must hear why.
        deadline = time.monotonic() + FLUSH_TIMEOUT
        for connection in connections:
            connection.closed.wait(max(0.0, deadline - time.monotonic()))

    def tell_all(self, message: dict[str, Any], but: Connection | None = None) -> None:
        line = encode(message)
        for connection in self.seated():
            if connection is not but:
                connection.send_line(line)

    def seated(self) -> list[Connection]:
        return [c for c in self.held.values() if c is not None] + list(self.watchers)


def describe(seat: SeatName | str | None) -> str:
    """A connection's seat in a sentence."""
    if isinstance(seat, SeatName):
        return f"the {seat.spoken}"
    return "a watcher" if seat == WATCH else "a connection that has not joined"


class SeatTerminal:
    """A person's seat as the game's prompts see a terminal (prompts.Terminal): what they are shown
    and told goes to the seat's connection, what they are asked waits for the seat's answer."""

    def __init__(self, table: Table, seat: SeatName):
        self.table, self.seat = table, seat

    def ask(self, prompt: str) -> str:
        return self.table.ask(self.seat, prompt)

    def tell(self, message: str) -> None:
        self.table.send(self.seat, {"type": "tell", "text": message})

    def help(self, message: str) -> None:
        self.table.send(self.seat, {"type": "help", "text": message})

    def show(self, board: Board, team: Color, turns: Sequence[Turn], captain: bool) -> None:
        # Only a captain's seat is ever shown the key, whatever it is asked to show.
        self.table.send(self.seat, board_message(board, team, turns, captain and self.seat.captain))
