"""`python main.py join`: a seat of a hosted game, played at this terminal.

A thread reads the host's lines and draws them as they come (`Screen`); the prompts the seat is
asked are typed in the main thread, as at the console. A connection that drops is opened again
for the same seat until the host is back; Ctrl-C or Ctrl-D leaves the table, the seat kept.
"""

from __future__ import annotations

import contextlib
import json
import queue
import signal
import socket
import threading
import time
from collections.abc import Callable
from typing import Any, TextIO

from common import COMMAND
from network.screen import Screen
from network.seats import SeatName
from network.wire import MAX_TEXT, encode

RETRY_EVERY = 2.0        # seconds between tries to reach a host that is gone
RETRY_FOR = 600.0        # seconds of trying before giving up
CONNECT_TIMEOUT = 10.0
MAX_HOST_LINE = 1 << 20  # bytes of a line from the host (a board is about 1.5 KB)
GONE = {"type": "gone"}  # the inbox's last message: the table is left


class Refused(Exception):
    """The host would not seat us: a wrong code, a taken or unknown seat."""


class Link:
    """The connection to the host for one seat, opened again when it drops (`retry`)."""

    def __init__(self, address: tuple[str, int], code: str, seat: str | None, screen: Screen,
                 on_ask: Callable[[dict[str, Any]], None], retry: bool = True):
        self.address, self.code, self.seat, self.screen, self.on_ask = address, code, seat, screen, on_ask
        self.retry = retry
        self.sock: socket.socket | None = None
        self.file = None
        self.over = False      # the host said its last word (the game is over, or we left)
        self.lock = threading.Lock()

    def open(self) -> dict[str, Any]:
        """Connect and join; the welcome. Refused when the host will not seat us, OSError when it
        cannot be reached."""
        sock = socket.create_connection(self.address, timeout=CONNECT_TIMEOUT)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.sendall(encode({"type": "join", "code": self.code, "seat": self.seat}))
        file = sock.makefile("rb")
        first = read(file)
        if first is None or first["type"] != "welcome":
            sock.close()
            raise Refused("it closed the connection" if first is None
                          else first.get("reason") or first.get("error"))
        sock.settimeout(None)
        with self.lock:
            self.sock, self.file = sock, file
        self.seat = first["seat"]   # the seat it gave us, taken again if we must come back
        return first

    def send(self, message: dict[str, Any]) -> None:
        with self.lock, contextlib.suppress(OSError):
            if self.sock is not None:
                self.sock.sendall(encode(message))

    def close(self) -> None:
        with self.lock, contextlib.suppress(OSError):
            if self.sock is not None:
                self.sock.close()

    def listen(self) -> None:
        """Read and draw the host's lines (an ask goes to `on_ask`) until the table is left."""
        while True:
            self.read_all()
            if self.over or not self.retry or not self.come_back():
                break

    def read_all(self) -> None:
        """Draw the host's lines until the connection ends or the host says its last word."""
        while (message := self.next_message()) is not None:
            if message.get("type") == "ask":
                self.on_ask(message)
                continue
            try:
                self.screen.draw(message)
            except (KeyError, TypeError, ValueError, StopIteration):   # a newer host's line
                self.screen.write(f"(a line from the host this version cannot draw: {message.get('type')})")
            if message.get("type") == "end":
                self.over = not message.get("again")   # a host that stopped is waited for
                return

    def next_message(self) -> dict[str, Any] | None:
        try:
            return read(self.file)
        except (OSError, ValueError):   # the connection broke, or the line was not JSON
            return None

    def come_back(self) -> bool:
        """Try to join again until the host is back; whether it is."""
        self.screen.write(f"\nLost the connection to the host: trying again every {RETRY_EVERY:.0f} s "
                          "(Ctrl-C to stop).")
        deadline = time.monotonic() + RETRY_FOR
        while time.monotonic() < deadline:
            time.sleep(RETRY_EVERY)
            try:
                self.screen.draw(self.open())
                return True
            except Refused as refused:
                self.screen.write(f"The host refused: {refused}.")
                return False
            except OSError:
                continue
        self.screen.write("The host did not come back.")
        return False


def read(file) -> dict[str, Any] | None:
    """The host's next message, None at the end of the connection."""
    line = file.readline(MAX_HOST_LINE)
    return json.loads(line) if line else None


class Client:
    """A seat at this terminal: the host's lines drawn as they come, its questions asked here."""

    def __init__(self, address: tuple[str, int], code: str, seat: SeatName | str | None,
                 stream: TextIO | None = None, retry: bool = True):
        self.screen = Screen(stream)
        self.inbox: queue.Queue[dict[str, Any]] = queue.Queue()
        self.link = Link(address, code, None if seat is None else str(seat), self.screen, self.asked, retry)
        self.prompting = False   # the main thread waits for a line typed
        self.latest: dict[str, Any] | None = None   # the last question asked
        self.gone = False        # the table is left: the host's last word, or no host to come back

    def play(self) -> int:
        """Join and play until the game ends (0) or the host refuses us (2); Ctrl-C and Ctrl-D
        leave the table (130, 0), the seat kept. The host's own terminal (`retry` off) lets
        Ctrl-C through, to stop the host."""
        try:
            self.screen.draw(self.link.open())
        except Refused as refused:
            self.screen.write(f"The host refused: {refused}.")
            return 2
        threading.Thread(target=self.listen, name="from the host", daemon=True).start()
        try:
            self.answer_until_gone()
        except (KeyboardInterrupt, EOFError) as leaving:
            if self.gone:             # the table was left while a line was awaited: said already
                return 0 if self.link.over else 1
            if not self.link.retry:
                raise
            self.leave()
            return 130 if isinstance(leaving, KeyboardInterrupt) else 0
        finally:
            self.link.close()
        return 0 if self.link.over else 1

    def listen(self) -> None:
        """The reading thread: the host's lines until the table is left; then the prompt is woken."""
        try:
            self.link.listen()
        finally:
            self.gone = True
            self.inbox.put(GONE)
        if self.prompting:
            wake_main_thread()

    def asked(self, message: dict[str, Any]) -> None:
        """A question from the host; asked again while its prompt waits (a host found again), the
        prompt is drawn again, for the player to see they are asked."""
        self.latest = message
        if self.prompting:
            self.screen.prompt(message["prompt"])
        self.inbox.put(message)

    def answer_until_gone(self) -> None:
        """Answer each question the host asks, once each, until the table is left. A line goes to
        the question asked last: after a reconnection, the one the player was typing for, asked
        again (by a host picked up again, under a new id)."""
        answered: set[str] = set()
        while (message := self.inbox.get()) is not GONE:
            if message["id"] in answered:   # asked again after a reconnection: answered already
                continue
            self.prompting = True
            text = self.screen.terminal.ask(message["prompt"])
            self.prompting = False
            ask = self.latest or message
            answered |= {message["id"], ask["id"]}
            # One character past the limit says "too long" at the host, in a line any script fits.
            self.link.send({"type": "answer", "id": ask["id"], "text": text[:MAX_TEXT + 1]})

    def leave(self) -> None:
        seat = self.link.seat
        again = f"{COMMAND} join {self.link.address[0]}:{self.link.address[1]} {self.link.code} --seat {seat}"
        self.screen.write(f"\nGoodbye. The {seat.replace(':', ' ')}'s seat stays yours: `{again}` "
                          "takes it again.")


def wake_main_thread() -> None:
    """Interrupt the main thread's prompt (the game is over while it waits for a line), as Ctrl-C
    would; where threads cannot be signalled, the prompt ends with the next line typed."""
    if hasattr(signal, "pthread_kill"):
        signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)

