"""What the tests of a hosted game share: a host on 127.0.0.1 (in this process, or as `python main.py
host`), scripted players on raw sockets that keep every byte they get, and a loop that plays them
all to the end."""

from __future__ import annotations

import json
import os
import re
import select
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from helpers import ROOT, dealt_board, interruptible, legal_hints, own_cards

import multiplayer
from board import Board, Color

TIMEOUT = 20.0   # seconds a scripted player waits for a line before the test fails


def start_host(tmp_path: Path, *flags: str) -> multiplayer.Host:
    """A host in this process, listening on a free port of 127.0.0.1, saving and logging in tmp_path."""
    argv = ["--port", "0", "--state", str(tmp_path / "hosted.json"), "--log", str(tmp_path / "games.jsonl"),
            *flags]
    args = multiplayer.HOST.parser().parse_args(argv)
    args.argv = argv
    from network.command import hosted, who_plays

    lineup = who_plays(args)
    host = hosted(args, lineup, None, None)
    host.start()
    return host


class HostProcess:
    """`python main.py host` in a subprocess, its terminal typing `stdin` (then closed); its address
    and code read from the line it prints to share."""

    def __init__(self, *flags: str, stdin: str = ""):
        self.process = subprocess.Popen([sys.executable, str(ROOT / "main.py"), "host", *flags],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, env={**os.environ, "NO_COLOR": "1"}, cwd=ROOT,
                                        preexec_fn=interruptible)   # Ctrl-C lands, however pytest started
        self.process.stdin.write(stdin.encode())
        self.process.stdin.close()
        self.process.stdin = None   # typed and closed: `communicate` has nothing to send
        self.out: list[str] = []
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            line = self.process.stdout.readline().decode()
            assert line, f"the host ended: {self.process.stderr.read().decode()[-2000:]}"
            self.out.append(line)
            if found := re.search(r"join (\S+):(\d+) (\S+)", line):
                self.address, self.code = (found[1], int(found[2])), found[3]
                return
        raise AssertionError("the host printed no line to share")

    def kill(self) -> None:
        self.process.kill()
        self.process.wait(timeout=30)

    def finish(self) -> tuple[int, str, str]:
        out, err = self.process.communicate(timeout=60)
        return self.process.returncode, "".join(self.out) + out.decode(), err.decode()


class Player:
    """A scripted player on a raw socket, joining with `code` for `seat`: every line it got is
    kept, raw (`raw`) and parsed (`messages`)."""

    def __init__(self, address: tuple[str, int], code: str | None, seat: str | None):
        self.sock = socket.create_connection(address, timeout=TIMEOUT)
        self.seat = seat
        self.buffer = b""
        self.raw: list[bytes] = []
        self.messages: list[dict[str, Any]] = []
        self.asked: dict[str, Any] | None = None
        self.taken = 0   # of the messages, by `next`
        self.ended = False
        if code is not None:   # None: a connection that never joins
            self.send({"type": "join", "code": code, "seat": seat})

    def send(self, message: dict[str, Any]) -> None:
        self.send_raw(json.dumps(message).encode())

    def send_raw(self, line: bytes) -> None:
        self.sock.sendall(line + b"\n")

    def receive(self) -> list[dict[str, Any]]:
        """The lines that have come (waiting up to TIMEOUT for one); [] when the connection ended."""
        data = self.sock.recv(1 << 16)
        if not data:
            self.ended = True
            return []
        self.buffer += data
        *lines, self.buffer = self.buffer.split(b"\n")
        got = [json.loads(line) for line in lines]
        self.raw += [line + b"\n" for line in lines]
        self.messages += got
        for message in got:
            if message["type"] == "ask":
                self.asked = message
            if message["type"] in ("end", "refused"):
                self.ended = True
        return got

    def drain(self, quiet: float = 0.3) -> None:
        """Take in every line that comes until none has for `quiet` seconds."""
        while select.select([self.sock], [], [], quiet)[0] and self.receive():
            pass

    def next(self, kind: str | None = None) -> dict[str, Any]:
        """The next message not yet taken (of this type, those before it passed over), waiting for it."""
        while True:
            while self.taken < len(self.messages):
                message = self.messages[self.taken]
                self.taken += 1
                if kind is None or message["type"] == kind:
                    return message
            assert not self.ended, f"{self.seat}: the connection ended before a {kind or 'line'} came"
            self.receive()

    def answer(self, text: str) -> None:
        """Answer the question asked (waiting for one)."""
        ask = self.asked or self.next("ask")
        self.asked = None
        self.send({"type": "answer", "id": ask["id"], "text": text})

    def close(self) -> None:
        self.sock.close()


def seat_players(address: tuple[str, int], code: str, seats=("red:captain", "red:agent", "blue:captain",
                                                             "blue:agent")) -> dict[str, Player]:
    return {seat: Player(address, code, seat) for seat in seats}


class Script:
    """How scripted players play a known board: a captain gives a legal hint for 2 each turn, an
    agent turns over its own cards, three a turn (count + 1), so the team that starts wins in its
    third turn."""

    def __init__(self, board: Board):
        self.board = board
        self.hints = iter(legal_hints(board, 12))
        self.left = {team: own_cards(board, team) for team in (Color.RED, Color.BLUE)}

    def __call__(self, player: Player, ask: dict[str, Any]) -> str:
        team, role = player.seat.split(":")
        if role == "captain":
            return f"{next(self.hints)} 2"
        return self.left[Color(team)].pop(0)


def play_out(players: dict[str, Player], script: Callable[[Player, dict], str],
             stop: Callable[[], bool] | None = None) -> None:
    """Answer every question until every player has the host's last word (or `stop` says so); a
    TIMEOUT without a line fails the test."""
    stop = stop or (lambda: all(p.ended for p in players.values()))
    quiet_since = time.monotonic()
    while not stop():
        for player in players.values():
            if player.asked is not None and not player.ended:
                player.answer(script(player, player.asked))
        live = {p.sock: p for p in players.values() if not p.ended}
        ready, _, _ = select.select(list(live), [], [], 0.05)
        if ready:
            quiet_since = time.monotonic()
        assert time.monotonic() - quiet_since < TIMEOUT, \
            f"no line for {TIMEOUT} s; asked: {[s for s, p in players.items() if p.asked]}"
        for sock in ready:
            live[sock].receive()


def board_of(seed: int) -> Board:
    return dealt_board(seed)


def events(player: Player, name: str) -> list[dict[str, Any]]:
    return [m for m in player.messages if m["type"] == "event" and m["event"] == name]
