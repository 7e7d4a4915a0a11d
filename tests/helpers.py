"""What many test modules share: a fixed board, scripted players, a scripted terminal, and
running main.py as a person would, with scripted stdin."""

from __future__ import annotations

import json
import os
import pty
import queue
import re
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from board import ASSASSIN, BLUE, NEUTRAL, RED, Board, Color, deal
from common import board_words
from engine import Game
from model import Hint, HintChoice, hint_problem

ROOT = Path(__file__).resolve().parent.parent
REPLY_TIMEOUT = 120  # seconds; the first request may wait for the model to load

# A fixed board: red starts with 9, blue has 8, 7 neutral, 1 assassin.
RED_WORDS = ["apple", "bridge", "castle", "dragon", "engine", "forest", "guitar", "hammer", "island"]
BLUE_WORDS = ["jacket", "kettle", "lemon", "mirror", "needle", "orange", "pencil", "rocket"]
NEUTRAL_WORDS = ["saddle", "tunnel", "violin", "wallet", "yogurt", "zipper", "button"]
ASSASSIN_WORD = "candle"
WORDS = RED_WORDS + BLUE_WORDS + NEUTRAL_WORDS + [ASSASSIN_WORD]
KEY = [RED] * 9 + [BLUE] * 8 + [NEUTRAL] * 7 + [ASSASSIN]


def fixed_board(revealed: set[str] = frozenset()) -> Board:
    return Board.from_key(WORDS, KEY, [w in revealed for w in WORDS])


class ScriptedCaptain:
    """Gives the hints it is handed, in order."""

    def __init__(self, *hints: Hint):
        self.hints = list(hints)

    def give_hint(self, game: Game) -> HintChoice:
        return HintChoice.bare(self.hints.pop(0))


class ScriptedAgent:
    """Guesses the words it is handed (None = pass) and records how often it was asked."""

    def __init__(self, *words: str | None):
        self.words = list(words)
        self.asked: list[int] = []

    def guess(self, game: Game, hint: Hint, guessed: int) -> str | None:
        self.asked.append(guessed)
        return self.words.pop(0)


class FakeTerminal:
    """Answers prompts from a script; EOF when the script runs out."""

    def __init__(self, *lines: str):
        self.lines = list(lines)
        self.prompts: list[str] = []
        self.told: list[str] = []
        self.shown: list[bool] = []

    def ask(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)

    def tell(self, message: str) -> None:
        self.told.append(message)

    def help(self, message: str) -> None:
        self.told.append(message)

    def show(self, board, team, turns, captain: bool) -> None:
        self.shown.append(captain)


def typed(monkeypatch, *lines: str) -> None:
    """Answer the prompts that read `input()` with these lines, then EOF."""
    answers = iter(lines)

    def answer(prompt: str = "") -> str:
        print(prompt, end="")
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", answer)


def run(args: list[str], stdin: str | bytes, timeout: float = 900) -> subprocess.CompletedProcess:
    """Run main.py with scripted stdin, without colour, and return the finished process.

    The timeout allows for a first SBERT cache build on a clean clone of a busy machine.
    """
    return finish(start(args), stdin, timeout)


def start(args: list[str]) -> subprocess.Popen:
    """Start main.py without colour, on pipes; `finish` gives it its stdin later."""
    return subprocess.Popen([sys.executable, str(ROOT / "main.py"), *args], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "NO_COLOR": "1"}, cwd=ROOT)


def finish(process: subprocess.Popen, stdin: str | bytes,
           timeout: float = 900) -> subprocess.CompletedProcess:
    """Write the scripted stdin to a started main.py, close it, and wait for the process to end."""
    data = stdin.encode("utf-8", "surrogateescape") if isinstance(stdin, str) else stdin
    try:
        out, err = process.communicate(data, timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        raise
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


def interruptible() -> None:
    """A child's `preexec_fn`: SIGINT's default action, whatever the suite inherited. A shell that
    starts a job in the background (`nohup python -m pytest &`, a runner, a scheduler) makes it
    ignore SIGINT; a Python started so installs no KeyboardInterrupt, and a Ctrl-C test's signal
    would never land."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def dealt_board(seed: int) -> Board:
    """The board main.py deals for a seed from the card list."""
    return deal(seed, board_words())[0]


def legal_hints(board: Board, n: int) -> list[str]:
    candidates = ["zebra", "quantum", "galaxy", "velvet", "thunder", "crystal", "meadow", "puzzle",
                  "glacier", "harmony", "voyage", "saffron", "tundra", "lantern", "biscuit"]
    found = [h for h in candidates if hint_problem(h, board) is None]
    assert len(found) >= n
    return found[:n]


def own_cards(board: Board, team: Color) -> list[str]:
    return [c.word for c in board.cards if c.color is team]


def assert_clean(result: subprocess.CompletedProcess, code: int = 0) -> tuple[str, str]:
    out, err = result.stdout.decode("utf-8", "replace"), result.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err and "Traceback" not in out, err
    assert result.returncode == code, (result.returncode, err[-2000:])
    return out, err


# One game in which a person gives the hints and the AI guesses (seed 6): help, a hint outside
# the vocabulary, quit. Several tests read its output (conftest's `hints_for_the_ai`).
HINTS_FOR_THE_AI = ["--red", "human:ai", "--blue", "auto", "--seed", "6", "--no-log"]
HINTS_TYPED = "help\nqwertyuiop 1\nquit\n"


class Server:
    """`python main.py serve` with a reader thread, so that a hung server fails the test, not CI."""

    def __init__(self, *flags: str):
        self.process = subprocess.Popen(
            [sys.executable, "main.py", "serve", *flags], cwd=ROOT, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8")
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.stderr: list[str] = []
        threading.Thread(target=self._pump, args=(self.process.stdout, self.lines.put), daemon=True).start()
        threading.Thread(target=self._pump, args=(self.process.stderr, self.stderr.append),
                         daemon=True).start()

    @staticmethod
    def _pump(stream, put) -> None:
        for line in stream:
            put(line)
        put(None)

    def send(self, text: str) -> dict:
        """Send one raw line; the one reply line, parsed (it must be JSON)."""
        self.process.stdin.write(text + "\n")
        self.process.stdin.flush()
        line = self.lines.get(timeout=REPLY_TIMEOUT)
        assert line is not None, f"the server died: {''.join(self.stderr)[-2000:]}"
        assert line.endswith("\n")
        return json.loads(line)

    def ask(self, request: dict) -> dict:
        return self.send(json.dumps(request))

    def send_bytes(self, line: bytes) -> str:
        """Send one line as raw bytes (they need not be UTF-8); the one reply line, unparsed."""
        self.process.stdin.flush()
        self.process.stdin.buffer.write(line + b"\n")
        self.process.stdin.buffer.flush()
        reply = self.lines.get(timeout=REPLY_TIMEOUT)
        assert reply is not None, f"the server died: {''.join(self.stderr)[-2000:]}"
        assert reply.endswith("\n")
        return reply

    def close(self) -> tuple[int, list[str]]:
        """Close stdin; the exit code and whatever else came out on stdout."""
        self.process.stdin.close()
        code = self.process.wait(timeout=60)
        rest = []
        while (line := self.lines.get(timeout=10)) is not None:
            rest.append(line)
        return code, rest


class Console:
    """main.py in a pseudo-terminal, as a person runs it in a terminal (so it asks its questions):
    what it writes is read as it comes (`expect`), and lines are typed (`type`)."""

    def __init__(self, args: list[str], main: Path = ROOT / "main.py", env: dict | None = None):
        master, slave = pty.openpty()
        self.process = subprocess.Popen([sys.executable, str(main), *args], stdin=slave, stdout=slave,
                                        stderr=slave, cwd=main.parent, start_new_session=True,
                                        env={**os.environ, "NO_COLOR": "1", **(env or {})})
        os.close(slave)
        self.master, self.seen, self.at = master, "", 0

    def expect(self, *patterns: str, timeout: float = 120) -> tuple[int, re.Match]:
        """Read until one of the regular expressions matches what came since the last match: which
        one, and its match. AssertionError when the program ends or stalls first."""
        deadline = time.monotonic() + timeout
        while True:
            matches = ((i, re.compile(p).search(self.seen, self.at)) for i, p in enumerate(patterns))
            found = [(m.start(), i, m) for i, m in matches if m]
            if found:
                _, i, match = min(found)
                self.at = match.end()
                return i, match
            assert time.monotonic() < deadline, f"none of {patterns} in: {self.seen[self.at:][-2000:]!r}"
            ready, _, _ = select.select([self.master], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:   # the program ended: the terminal is closed
                    chunk = b""
                assert chunk, f"main.py ended: {self.seen[self.at:][-2000:]!r}"
                self.seen += chunk.decode("utf-8", "replace").replace("\r\n", "\n")

    def type(self, line: str) -> None:
        os.write(self.master, (line + "\n").encode())

    def to_the_end(self, timeout: float = 120) -> str:
        """Read what the program writes until it ends; all it wrote."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if select.select([self.master], [], [], 0.1)[0]:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:   # the program ended: the terminal is closed
                    break
                if not chunk:
                    break
                self.seen += chunk.decode("utf-8", "replace").replace("\r\n", "\n")
        return self.seen

    def close(self) -> int:
        """End the program (if it still runs); its exit status."""
        if self.process.poll() is None:
            self.process.kill()
        code = self.process.wait(timeout=60)
        os.close(self.master)
        return code
