"""How fast a move reaches every player of a hosted game, on the loopback.

    python -m lab.benchmarks.network_latency [--moves N] [--report]

`python main.py host` in a subprocess (four people's seats, saving after every move as it does),
four players on raw sockets in this process. A move's time runs from the line its player sends
(a hint, a card's word, a pass) to the moment the last of the four has read the event it makes:
the host's reading and checking of the line, the engine, the save, the broadcast and the loopback.
Scripted games (a hint for 1, one card, a pass) are played until N moves are timed. Target: the
worst move within 50 ms. `--report` writes the table to reports/network_latency.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import select
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from board import TEAMS, Color, deal
from common import board_words
from model import hint_problem

ROOT = Path(__file__).resolve().parents[2]
TARGET_MS = 50.0
SEATS = ("red:captain", "red:agent", "blue:captain", "blue:agent")
MOVES = ("hint", "guessed", "passed")


class Seat:
    """One player's socket, and the lines it has read and not yet taken, each with when it was read."""

    def __init__(self, address: tuple[str, int], code: str, seat: str):
        self.sock = socket.create_connection(address, timeout=30)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.seat, self.buffer = seat, b""
        self.pending: list[tuple[float, dict]] = []
        self.send({"type": "join", "code": code, "seat": seat})

    def send(self, message: dict) -> float:
        sent = time.perf_counter()
        self.sock.sendall(json.dumps(message).encode() + b"\n")
        return sent

    def read(self) -> bool:
        """Read what has come, each line timed; False at the end of the connection."""
        data = self.sock.recv(1 << 16)
        now = time.perf_counter()
        self.buffer += data
        *lines, self.buffer = self.buffer.split(b"\n")
        self.pending += [(now, json.loads(line)) for line in lines]
        return bool(data)

    def take(self, wanted: Callable[[dict], bool]) -> tuple[float, dict] | None:
        """The first line read that is `wanted`, with those before it dropped; None if none is."""
        for i, (at, message) in enumerate(self.pending):
            if wanted(message):
                del self.pending[:i + 1]
                return at, message
        return None


def start_host(seed: int, state: Path) -> tuple[subprocess.Popen, tuple[str, int], str]:
    """`python main.py host` for four people on a free port; the process, its address and code."""
    process = subprocess.Popen([sys.executable, "main.py", "host", "--seed", str(seed), "--port", "0",
                                "--no-log", "--new", "--state", str(state)], cwd=ROOT,
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               text=True)
    while line := process.stdout.readline():
        if found := re.search(r"join (\S+):(\d+) (\S+)", line):
            return process, (found[1], int(found[2])), found[3]
    raise SystemExit("the host did not start")


def play(seed: int, state: Path, times: list[float], wanted: int) -> None:
    """Time the moves of one game (each to the last of the four players, in ms) until `wanted`."""
    process, address, code = start_host(seed, state)
    board = deal(seed, board_words())[0]
    hints = iter(w for w in board_words()[::-1] if w not in board and hint_problem(w, board) is None)
    own = {team: [c.word for c in board.cards if c.color is team] for team in TEAMS}
    seats = [Seat(address, code, seat) for seat in SEATS]
    try:
        while len(times) < wanted and (asked := next_question(seats)) is not None:
            seat, ask = asked
            team, role = seat.seat.split(":")
            if role == "captain":
                text = f"{next(hints)} 1"
            else:   # one card, then a pass
                text = own[Color(team)].pop(0) if "(2 left)" in ask["prompt"] else "pass"
            sent = seat.send({"type": "answer", "id": ask["id"], "text": text})
            times.append(1000 * (max(heard(s) for s in seats) - sent))
    finally:
        process.kill()
        process.wait()


def wait(seats: list[Seat], what: Callable[[Seat], tuple[float, dict] | None]) -> tuple[Seat, float, dict]:
    """The first seat (and line, and when it was read) that `what` finds, reading until one does."""
    while True:
        for seat in seats:
            if (found := what(seat)) is not None:
                return seat, *found
        ready, _, _ = select.select([s.sock for s in seats], [], [], 30)
        if not ready:
            raise SystemExit("no line from the host for 30 s")
        for seat in seats:
            if seat.sock in ready and not seat.read():
                raise SystemExit(f"the host closed {seat.seat}'s connection")


def next_question(seats: list[Seat]) -> tuple[Seat, dict] | None:
    """The next question a seat is asked; None when the game is over."""
    seat, _, message = wait(seats, lambda s: s.take(lambda m: m["type"] in ("ask", "end")))
    return None if message["type"] == "end" else (seat, message)


def heard(seat: Seat) -> float:
    """When the seat read the event of the move just made."""
    return wait([seat], lambda s: s.take(lambda m: m["type"] == "event" and m["event"] in MOVES))[1]


def main(argv: list[str]) -> int:
    """Time the moves, print the table (and write it with --report); 1 when over the target."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--moves", type=int, default=200, metavar="N", help="moves to time (default 200)")
    p.add_argument("--report", action="store_true", help="write the table to reports/network_latency.md")
    args = p.parse_args(argv)
    machine = (f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, load average "
               f"{os.getloadavg()[0]:.1f} at start; python {platform.python_version()}")
    print(f"machine: {machine}")
    times: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        seed = 0
        while len(times) < args.moves:
            play(seed, Path(folder) / "hosted.json", times, args.moves)
            seed += 1
    median, p95, worst = np.median(times), np.percentile(times, 95), max(times)
    ok = worst <= TARGET_MS
    table = ("| moves | games | median ms | p95 ms | worst ms | target (worst) ms | result |\n"
             "|---|---|---|---|---|---|---|\n"
             f"| {len(times)} | {seed} | {median:.2f} | {p95:.2f} | {worst:.2f} | {TARGET_MS:.0f} | "
             f"{'ok' if ok else 'OVER TARGET'} |")
    print(table)
    if args.report:
        how = " ".join(__doc__.split("\n\n")[2].split())
        (ROOT / "reports" / "network_latency.md").write_text(
            "# A move to every player of a hosted game, on the loopback\n\n"
            f"`python -m lab.benchmarks.network_latency --report`. {how}\n\nMachine: {machine}.\n\n{table}\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
