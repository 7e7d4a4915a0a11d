"""The captain that learns its partner through the bot protocol, against the same in the game.

    python -m lab.benchmarks.adaptation_protocol --sources ../shared/datasets --sessions 4

The partners and sessions of lab/benchmarks/adaptation.py (12 games, one team alone, fresh
boards), with the bot answering every hint: a clue request a hint, the board as the game stands,
with a player ID (`protocol-adapting`) or without (`protocol-fixed`). Through the protocol the
bot never hears what the partner turned over: it reads it from the next board (docs/protocol.md,
players), without the order of the picks or the last turn of a game. `game-adapting` is the
adapting captain in the game, which hears every pick in order (adaptation.py's `adapting`).
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from pathlib import Path

import numpy as np

from board import Board, Color
from lab.benchmarks import adaptation
from lab.benchmarks.adaptation import GAMES, PARTNERS, REPORTED, Job, Lab, summarise
from model import Hint, HintChoice
from protocol import Bot

ARMS = ("game-adapting", "protocol-fixed", "protocol-adapting")


class ProtocolCaptain:
    """The bot behind the game's captain interface: each hint a `clue` request, alone."""

    def __init__(self, bot: Bot, player: str | None):
        self.bot, self.player = bot, player

    def give_hint(self, board: Board, team: Color, given=()) -> HintChoice:
        request = {"op": "clue", "board": board.words, "key": [c.value for c in board.key],
                   "revealed": [c.revealed for c in board.cards], "team": team.value, "alone": True,
                   "given": list(given)}
        if self.player is not None:
            request["player"] = self.player
        reply = self.bot.handle(request)
        if not reply["ok"]:
            raise RuntimeError(reply["error"])
        return HintChoice(Hint(reply["clue"], reply["count"]), tuple(reply["targets"]), (), None)

    def observe(self, hint: str, face_down, guesses) -> None:
        """Nothing: a client of the protocol never says what its partner turned over."""


def session(job: Job, base: int) -> list[tuple[int, bool, bool]]:
    """(score, won, assassin) of each game of one session; a fresh bot a session."""
    lab = adaptation.LAB
    if job.captain == "game-adapting":
        return lab.session(Job(job.partner, "adapting", job.session), base)
    captain = ProtocolCaptain(Bot(lab.ai), "partner" if job.captain == "protocol-adapting" else None)
    return lab.session(job, base, captain)


def run_job(args: tuple[Job, int]) -> tuple[Job, list]:
    job, base = args
    return job, session(job, base)


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sources", type=Path, required=True)
    p.add_argument("--sessions", type=int, default=4)
    p.add_argument("--partners", default=",".join(PARTNERS))
    p.add_argument("--base", type=int, default=REPORTED, help=f"the first seed (default {REPORTED})")
    p.add_argument("--processes", type=int, default=2)
    args = p.parse_args(argv)
    started = time.perf_counter()
    adaptation.LAB = Lab(args.sources)
    jobs = [(Job(partner, arm, s), args.base) for partner in args.partners.split(",")
            for arm in ARMS for s in range(args.sessions)]
    results = {}
    with multiprocessing.get_context("fork").Pool(args.processes) as pool:
        for job, games in pool.imap_unordered(run_job, jobs):
            results[job] = games
            print(f"{job.partner:13s} {job.captain:17s} session {job.session}: "
                  f"score {np.mean([g[0] for g in games]):.2f}", flush=True)
    table = summarise(results)
    print(f"\nseeds from {args.base}, {args.sessions} sessions of {GAMES} games, one team alone; score: "
          f"hints to win (lower is better), means by session, 95% intervals; "
          f"{(time.perf_counter() - started) / 60:.0f} min\n")
    print("| partner | captain | games 1-6 | games 7-12 | wins 7-12 |\n|---|---|---|---|---|")
    for partner in args.partners.split(","):
        for arm in ARMS:
            if (row := table.get((partner, arm))) is not None:
                print(f"| {partner} | {arm} | {row['early'][0]:.2f} ± {row['early'][1]:.2f} | "
                      f"{row['late'][0]:.2f} ± {row['late'][1]:.2f} | "
                      f"{row['wins_late'][0]:.0%} ± {row['wins_late'][1]:.0%} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
