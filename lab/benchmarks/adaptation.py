"""The AI that learns its partner, measured on partners it was not fitted to.

    python -m lab.benchmarks.adaptation --sources ../shared/datasets --sessions 6
    python -m lab.benchmarks.adaptation --sources ../shared/datasets --tune   # tuning seeds

Each simulated partner guesses in sessions of 12 games, one team alone on fresh boards (the
competition's single-team mode: a game's score is the hints it took to win, 25 for a loss). The
captains that give it hints: the game's captain for a person, which never adapts (`fixed`); the
same captain planning for a model of this partner learnt as it plays (models/person.py), carried
from game to game within a session, with the Bayes learner (`adapting`) or the experts learner
(`experts`); and the captain built for the partner (`oracle`: the expected captain simulating the
partner's own reading: its matrix, or a tier guesser's fitted model, `human_models.oracle`).

The partners read hints each their own way: one family of sources alone (`meaning`: fastText,
`norms`: USF, `phrases`: phrases and compounds first, `books`: word collocations; each backs
off to SBERT where it is silent, as a person falls back on meaning), the human-model tier's
guessers (lab/evaluation/human_models.py, fitted on foreign vectors, sampling), and a noisy
reader that samples the model of people's own chances (`noisy`, the partner the model was
fitted to). Reported seeds start at 30000, tuning seeds at 20000: apart from the validation
(100) and test (10000) ranges.

Writes reports/adaptation.md and reports/adaptation.png (score and wins by game index).
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

import datasets
from board import deal
from common import BOARD_WORDS_PATH, load_words
from lab.evaluation import human_models
from lab.evaluation.foreign_tier import default_initializer
from lab.evaluation.games import LOSS_SCORE, play_solo
from lab.evaluation.loading import load_all
from model import AI, GreedyAgent
from models.expected import FOR_PEOPLE, ExpectedCaptain
from models.people import PeopleAgent
from models.person import Bayes, Experts, Person
from players import Learning

REPORT = Path(__file__).resolve().parents[2] / "reports" / "adaptation.md"
GAMES = 12
REPORTED, TUNING = 30_000, 20_000
# partner → the matrix it reads, falling back on SBERT where that is silent
FAMILY_READERS = {"meaning": "fasttext", "norms": "association", "phrases": "phrases",
                  "books": "word_collocations"}
PARTNERS = (*FAMILY_READERS, *human_models.GUESSERS, "noisy")
CAPTAINS = ("fixed", "adapting", "experts", "oracle")   # experts: adapting with the other learner


@dataclass(frozen=True)
class Job:
    partner: str
    captain: str
    session: int
    strength: float = 3.0


class Lab:
    """The AI, the matrices and the partners, loaded once (the workers are forked from it)."""

    def __init__(self, sources: Path):
        self.words = load_words(BOARD_WORDS_PATH)
        weights, _, _ = load_all(list(datasets.INITIALIZERS), sources, None, required=False, words=self.words)
        self.weights = weights
        own = default_initializer(weights)
        self.ai = AI(weights[own], partners=[w for n, w in weights.items() if n != own])
        self.guessers = {name: human_models.fit_guesser(name, sources, sample=True)
                         for name in human_models.GUESSERS}
        self.ai.sight, self.ai.people   # noqa: B018 -- built before the fork, shared by the workers

    def reader(self, partner: str):
        """The partner's own matrix (its backoff SBERT), or None for a partner that reads no one matrix."""
        if partner not in FAMILY_READERS:
            return None
        matrix = self.weights[FAMILY_READERS[partner]]
        if matrix.backoff is None and "sbert" in self.weights and matrix is not self.weights["sbert"]:
            matrix = replace(matrix, backoff=self.weights["sbert"])
        return matrix

    def agent(self, partner: str):
        if partner in self.guessers:
            return self.guessers[partner]
        if partner == "noisy":
            return PeopleAgent(self.ai.weights, self.ai.partners, model=self.ai.people, chance=0.0)
        return GreedyAgent(self.reader(partner), memory=False)

    def captain(self, job: Job, person: Person | None) -> ExpectedCaptain | None:
        if job.captain == "oracle":
            if job.partner in self.guessers:
                return human_models.oracle(self.ai, self.guessers[job.partner])
            reader = self.reader(job.partner)
            if reader is None:
                return None
            return ExpectedCaptain(reader, (), True, max_count=FOR_PEOPLE.max_count)
        return self.ai.captain(alone=True, person=person)   # the game's captain for a person

    def session(self, job: Job, base: int, captain=None) -> list[tuple[int, bool, bool]]:
        """(score, won, assassin) of each game of one session; `captain`, one that gives every
        game's hints instead of the job's (the protocol's, lab/benchmarks/adaptation_protocol.py)."""
        person = None
        if captain is None and job.captain == "adapting":
            person = Person(self.ai.people, Bayes(job.strength))
        elif captain is None and job.captain == "experts":
            person = Person(self.ai.people, Experts())
        out = []
        for game in range(GAMES):
            seed = base + GAMES * job.session + game
            playing = captain or self.captain(job, person)   # the game's: built afresh each game
            if playing is None:
                return []
            board, rng = deal(seed, self.words)
            team = board.starting_team
            listeners = [Learning(person, {team}, set())] if person is not None else []
            result = play_solo(board, team, playing, self.agent(job.partner), rng, seed, listeners)
            out.append((result.score, result.won, result.assassin))
        return out


LAB: Lab | None = None


def run_job(args: tuple[Job, int]) -> tuple[Job, list]:
    job, base = args
    return job, LAB.session(job, base)


def interval(values: np.ndarray) -> tuple[float, float]:
    """The mean and its 95% half-width (normal, by session)."""
    values = np.asarray(values, float)
    if len(values) < 2:
        return float(values.mean()) if len(values) else float("nan"), float("nan")
    return float(values.mean()), float(1.96 * values.std(ddof=1) / np.sqrt(len(values)))


def summarise(results: dict[Job, list]) -> dict[tuple[str, str], dict]:
    """Per partner and captain: score and wins over games 1-6 and 7-12 (by session), per game index."""
    table = {}
    for (partner, captain) in {(j.partner, j.captain) for j in results}:
        sessions = [np.array(r, float) for j, r in results.items()
                    if j.partner == partner and j.captain == captain and r]
        if not sessions:
            continue
        games = np.stack(sessions)                      # sessions × games × (score, won, assassin)
        table[partner, captain] = {
            "early": interval(games[:, :6, 0].mean(axis=1)), "late": interval(games[:, 6:, 0].mean(axis=1)),
            "wins_late": interval(games[:, 6:, 1].mean(axis=1)),
            "assassin_late": float(games[:, 6:, 2].mean()),
            "by_game": games[:, :, 0].mean(axis=0), "wins_by_game": games[:, :, 1].mean(axis=0),
            "sessions": len(sessions)}
    return table


def markdown(table: dict, args: argparse.Namespace, seconds: float) -> str:
    lines = ["# The AI that learns its partner", "",
             f"`python -m lab.benchmarks.adaptation --sources ../shared/datasets --sessions {args.sessions}"
             f"{'' if args.tier_sessions is None else f' --tier-sessions {args.tier_sessions}'}"
             f" --strength {args.strength}` ({seconds / 60:.0f} min on 2 cores). "
             f"Seeds from {args.base}, {GAMES} games a session, one team alone; a game's score is the hints "
             f"it took to win, {LOSS_SCORE} for a loss (lower is better). Means by session, 95% intervals.",
             "", "| partner | captain | games 1-6 | games 7-12 | wins 7-12 | assassin 7-12 |",
             "|---|---|---|---|---|---|"]
    for partner in PARTNERS:
        for captain in CAPTAINS:
            if (row := table.get((partner, captain))) is None:
                continue
            lines.append(f"| {partner} | {captain} | {row['early'][0]:.2f} ± {row['early'][1]:.2f} | "
                         f"{row['late'][0]:.2f} ± {row['late'][1]:.2f} | "
                         f"{row['wins_late'][0]:.0%} ± {row['wins_late'][1]:.0%} | "
                         f"{row['assassin_late']:.0%} |")
    return "\n".join(lines) + "\n"


def plot(table: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    partners = [p for p in PARTNERS if any((p, c) in table for c in CAPTAINS)]
    figure, axes = plt.subplots(1, len(partners), figsize=(3 * len(partners), 3), sharey=True)
    for axis, partner in zip(np.atleast_1d(axes), partners, strict=True):
        for captain in CAPTAINS:
            if (row := table.get((partner, captain))) is not None:
                axis.plot(range(1, GAMES + 1), row["by_game"], marker=".", label=captain)
        axis.set_title(partner)
        axis.set_xlabel("game of the session")
    np.atleast_1d(axes)[0].set_ylabel("score (hints to win; 25 a loss)")
    np.atleast_1d(axes)[0].legend()
    figure.tight_layout()
    figure.savefig(path, dpi=80)


def main(argv: list[str]) -> int:
    global LAB
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sources", type=Path, required=True)
    p.add_argument("--sessions", type=int, default=6)
    p.add_argument("--tier-sessions", type=int, help="fewer sessions for the human-model tier's "
                   "guessers, whose foreign vectors are slow to read (default: --sessions)")
    p.add_argument("--partners", default=",".join(PARTNERS))
    p.add_argument("--captains", default=",".join(CAPTAINS))
    p.add_argument("--strength", type=float, default=3.0, help="the Bayes learner's prior precision")
    p.add_argument("--tune", action="store_true", help=f"the tuning seeds ({TUNING}), no report")
    p.add_argument("--processes", type=int, default=2)
    args = p.parse_args(argv)
    args.base = TUNING if args.tune else REPORTED
    started = time.perf_counter()
    LAB = Lab(args.sources)
    jobs = [(Job(partner, captain, s, args.strength), args.base)
            for partner in args.partners.split(",") for captain in args.captains.split(",")
            for s in range(args.tier_sessions if partner in human_models.GUESSERS
                           and args.tier_sessions is not None else args.sessions)]
    results = {}
    with multiprocessing.get_context("fork").Pool(args.processes) as pool:
        for job, games in pool.imap_unordered(run_job, jobs):
            results[job] = games
            if games:
                print(f"{job.partner:13s} {job.captain:9s} session {job.session}: "
                      f"score {np.mean([g[0] for g in games]):.2f} "
                      f"late {np.mean([g[0] for g in games[6:]]):.2f} "
                      f"wins {np.mean([g[1] for g in games]):.2f}", flush=True)
    table = summarise(results)
    text = markdown(table, args, time.perf_counter() - started)
    print(text)
    if not args.tune:
        REPORT.write_text(text, encoding="utf-8")
        plot(table, REPORT.with_suffix(".png"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
