"""Latency of the bot protocol, measured as a client sees it: `python main.py serve` in a subprocess.

    python -m lab.benchmarks.protocol_latency [--known N] [--unseen N] [--player N] [-- serve flags ...]

Round-trip time of each request (write the line → read the reply), after the
server has loaded (its start-up time is reported apart). Known boards deal
words from the project's board list, whose matrix columns are cached; unseen
boards deal words from wordfreq's list that are not in the board list, fresh
words for every board, so that every such request embeds 25 new words.
A player's boards are known boards played for one player ID, `PLAYER_TURNS` clues a
board, its targets turned over after each: every clue after a board's first reads
the player's picks and learns them before choosing (docs/protocol.md, players).
Targets: ≤ 1.5 s for a board of unseen words, ≤ 50 ms for a known board, a player's too.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from board import Board
from common import board_words

ROOT = Path(__file__).resolve().parents[2]

TARGETS_MS = {"known": 50.0, "unseen": 1500.0, "player": 50.0}
PLAYER_TURNS = 4


class Client:
    def __init__(self, flags: list[str]):
        self.process = subprocess.Popen([sys.executable, "main.py", "serve", *flags], cwd=ROOT,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True, encoding="utf-8")

    def ask(self, request: dict) -> tuple[dict, float]:
        """The reply and the round trip in milliseconds."""
        start = time.perf_counter()
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        elapsed = (time.perf_counter() - start) * 1000
        if not line:
            raise SystemExit("the server stopped")
        return json.loads(line), elapsed

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=60)


def unseen_words(count: int) -> list[str]:
    """`count` common English words absent from the board list, in a fixed order."""
    from wordfreq import top_n_list

    known = set(board_words())
    words = [w for w in top_n_list("en", 40_000)[5_000:]
             if w.isascii() and w.isalpha() and len(w) >= 4 and w not in known]
    if len(words) < count:
        raise SystemExit(f"only {len(words)} unseen words available, {count} needed")
    rng = np.random.default_rng(0)
    return [words[i] for i in rng.choice(len(words), count, replace=False)]


def clue_request(board: Board) -> dict:
    return {"op": "clue", "board": board.words, "key": [c.value for c in board.key],
            "revealed": [False] * 25, "team": board.starting_team.value}


def measure(client: Client, boards: list[Board], kind: str, times: dict[str, list[float]]) -> None:
    for i, board in enumerate(boards):
        if kind == "unseen" and i % 2:
            # Every other fresh board is asked for guesses first, so that the guess op also meets
            # 25 words it has never seen.
            reply, ms = client.ask({"op": "guess", "board": board.words, "clue": "animal", "count": 2})
            times[f"guess/{kind}"].append(ms)
            continue
        reply, ms = client.ask(clue_request(board))
        if not reply.get("ok"):
            raise SystemExit(f"error reply: {reply}")
        times[f"clue/{kind}"].append(ms)
        if kind == "known":
            reply, ms = client.ask({"op": "guess", "board": board.words, "clue": reply["clue"],
                                    "count": reply["count"]})
            times[f"guess/{kind}"].append(ms)


def measure_player(client: Client, boards: list[Board], times: dict[str, list[float]]) -> None:
    """Clues for one player, each after a board's first learning the targets turned over for the last."""
    for board in boards:
        revealed = [False] * 25
        for _ in range(PLAYER_TURNS):
            reply, ms = client.ask({**clue_request(board), "revealed": revealed, "player": "bench"})
            if not reply.get("ok"):   # the team has won
                break
            if "learnt" in reply:
                times["clue/player"].append(ms)
            for word in reply["targets"]:
                revealed[board.words.index(word)] = True


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--known", type=int, default=40, metavar="N", help="known boards (default 40)")
    p.add_argument("--unseen", type=int, default=20, metavar="N", help="unseen boards (default 20)")
    p.add_argument("--player", type=int, default=10, metavar="N", help="a player's boards (default 10)")
    p.add_argument("serve_flags", nargs="*", help="flags for `main.py serve` (after --)")
    args = p.parse_args(argv)

    rng = np.random.default_rng(1)
    known = [Board.random(board_words(), rng) for _ in range(args.known)]
    fresh = unseen_words(25 * args.unseen)
    unseen = [Board.random(fresh[25 * i:25 * (i + 1)], rng) for i in range(args.unseen)]
    played = [Board.random(board_words(), rng) for _ in range(args.player)]

    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.1f} at start; python {platform.python_version()}")
    start = time.perf_counter()
    client = Client(args.serve_flags)
    client.ask({"op": "ping"})
    print(f"server start-up (load the AI, warm up) until the first reply: "
          f"{time.perf_counter() - start:.1f} s")
    times: dict[str, list[float]] = {f"{op}/{kind}": [] for op in ("clue", "guess")
                                     for kind in ("known", "unseen")}
    times["clue/player"] = []
    measure(client, known, "known", times)
    measure(client, unseen, "unseen", times)
    measure_player(client, played, times)
    client.close()

    print(f"\n{'request':<14}{'n':>4}{'median ms':>12}{'p95 ms':>10}{'max ms':>10}{'target ms':>11}  result")
    failed = False
    for name, values in times.items():
        if not values:
            continue
        target = TARGETS_MS[name.split("/")[1]]
        median, p95 = np.median(values), np.percentile(values, 95)
        ok = p95 <= target
        failed |= not ok
        print(f"{name:<14}{len(values):>4}{median:>12.1f}{p95:>10.1f}{max(values):>10.1f}"
              f"{target:>11.0f}  {'ok (p95 within target)' if ok else 'OVER TARGET'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
