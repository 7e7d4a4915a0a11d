"""The default captain with strangers: the foreign agents, and same-family agents, on few boards.

    python -m lab.benchmarks.strangers --sources ../shared/datasets --seeds 20 --seed-offset 0 \\
        --set family=1 --agents glove mpnet sbert fasttext people

A fast loop for tuning the game's captain (ExpectedCaptain, alone, partners = every loaded
matrix, as in the game and the bench's foreign tier): it plays single-team games with each
agent and prints win rate, assassin losses and mean score (25 on a loss) per agent.
`--set name=value` passes constructor options to the captain. Same-family agents (an
initializer's name, or `people`) are greedy on that matrix; the captain's partners then
leave that matrix out (the bench's `held-out` policy). Tune on seeds below 10000 only.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from pathlib import Path

import numpy as np

import datasets
import model
from board import deal
from common import BOARD_WORDS_PATH, load_words
from lab.evaluation import human_models
from lab.evaluation.games import play_solo
from lab.evaluation.specs import parse_value

STATE: dict = {}


def people() -> model.PeopleModel:
    """The model of people on every loaded matrix."""
    return model.PeopleModel.of([STATE["weights"], *STATE["partners"]])


def captain_for(agent: str, options: dict) -> model.ExpectedCaptain:
    """The game's captain, its partners every loaded matrix but the agent's own."""
    weights, partners = STATE["weights"], STATE["partners"]
    if STATE["captain"] == "people":   # planning for the model of people, the matrices as voices
        reading = model.PeopleReading(weights, people())
        voices = [reading, *([weights, *partners] if STATE["voices"] else [])]
        return model.ExpectedCaptain(reading, partners=voices, alone=True, **options)
    views = [w for w in [weights, *partners] if w.name != agent] or [weights]
    if STATE["people"] and agent != "people":
        views.append(model.PeopleReading(weights, people()))
    return model.ExpectedCaptain(weights, partners=views, alone=True, **options)


def agent_for(name: str):
    """A foreign agent, the people reader, or a greedy agent on a loaded matrix."""
    if name in ("glove", "mpnet"):
        from lab.foreign.agent import ForeignAgent
        from lab.foreign.vectors import load
        return ForeignAgent(load(name))
    if name == "people":
        return model.PeopleAgent(STATE["weights"], model=people())
    if name in STATE["guessers"]:
        return STATE["guessers"][name]
    found = {w.name: w for w in [STATE["weights"], *STATE["partners"]]}
    return model.GreedyAgent(found[name])


def play(item: tuple[str, int, dict]) -> tuple[str, int, bool, bool, int, list[str]]:
    """One game: (agent, seed, won, assassin, score, hints)."""
    agent_name, seed, options = item
    board, rng = deal(seed, STATE["words"])
    result = play_solo(board, board.starting_team, captain_for(agent_name, options),
                             agent_for(agent_name), rng, seed)
    won = bool(result.won)
    hints = [f"{h.word}:{h.count}:{''.join(o.value[0] for o in h.outcomes)}" for h in result.hints]
    return agent_name, seed, won, bool(result.assassin), result.score, hints


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sources", type=Path, default=None)
    p.add_argument("--seeds", type=int, default=20)
    p.add_argument("--seed-offset", type=int, default=0)
    p.add_argument("--agents", nargs="+", default=["glove", "mpnet"])
    p.add_argument("--set", nargs="*", default=[], metavar="NAME=VALUE")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--people", action="store_true", help="the people reader as one more partner")
    p.add_argument("--hints", action="store_true", help="print every game's hints")
    p.add_argument("--captain", choices=("game", "people"), default="game")
    p.add_argument("--initializer", default=None, help="the captain's own matrix (default: the game's)")
    p.add_argument("--voices", action="store_true", help="with --captain people: every matrix a voice")
    args = p.parse_args(argv)
    options = {k: parse_value(v) for k, _, v in (s.partition("=") for s in args.set)}
    STATE["people"], STATE["captain"], STATE["voices"] = args.people, args.captain, args.voices
    STATE["words"] = load_words(BOARD_WORDS_PATH)
    STATE["weights"], STATE["partners"] = datasets.load_with_partners(args.initializer, sources=args.sources)
    STATE["guessers"] = {}
    for name in args.agents:   # fitted to people's play before forking
        if name in human_models.GUESSERS:
            STATE["guessers"][name] = human_models.fit_guesser(name, args.sources)
    for name in args.agents:   # load before forking
        if name in ("glove", "mpnet") or name in human_models.GUESSERS:
            from lab.foreign.vectors import load
            load(human_models.GUESSERS.get(name, (name,))[0])
    items = [(a, s, options) for a in args.agents
             for s in range(args.seed_offset, args.seed_offset + args.seeds)]
    start = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        games = pool.map(play, items, chunksize=1)
    print(f"options {options}  ({time.perf_counter() - start:.0f} s)")
    for name in args.agents:
        mine = [g for g in games if g[0] == name]
        wins, assassins = np.mean([g[2] for g in mine]), np.mean([g[3] for g in mine])
        score = np.mean([g[4] for g in mine])
        hints = [h.split(":")[0] for g in mine for h in g[5]]
        zipf = model.zipf(hints)
        print(f"  {name:12s} wins {wins:6.1%}  assassin {assassins:6.1%}  score {score:5.2f}  "
              f"hint zipf median {np.median(zipf):.2f}, {np.mean(zipf >= 4):.0%} at 4+")
        if args.hints:
            for g in mine:
                print(f"    {g[1]} {'W' if g[2] else ('A' if g[3] else 'L')} {' '.join(g[5])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
