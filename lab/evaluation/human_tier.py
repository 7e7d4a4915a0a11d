"""The human tier of `python main.py bench`: do the AI's agents read people's clues as people do?

On every aligned turn of the human Duet record (lab/evaluation/human_duet.py) an
agent sees the face-down words (never the key), the person's clue, and a count of
the giver's number of targets, and turns cards over as it would in a game. Measured
per turn, pooled per game, with 95% bootstrap intervals over games:

- first pick among the targets;
- top-k overlap: of the agent's first k picks (k = number of targets), the share
  that are targets;
- first pick on one of the giver's `black` (assassin) cards;
- agreement with the person's first pick (turns where the person picked).

Beside the agents: what the people did, and the exact expectation of a random
first pick. Games with even ids and odd ids are also reported apart, for the
halves an agent may have been tuned on (even) and not (odd).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

import numpy as np

from board import NEUTRAL, Board
from lab.evaluation.human_duet import Turn, available, folder, read_turns
from lab.evaluation.people_fit import cross_validated_people
from lab.evaluation.stats import bootstrap_ratio
from model import Hint, PeopleAgent, Weights

STOPS = (0.0, 0.25)   # the people model's agent: never stop early, and below a 25% chance

# name, what the report calls it; each has a numerator and a denominator per turn
MEASURES = (("first_target", "first pick a target"), ("top_k", "top-k overlap"),
            ("first_black", "first pick an assassin"), ("agree", "agrees with the person"),
            ("black_picks", "assassin picks a turn"), ("tan_picks", "bystander picks a turn"))
HALVES = {"all": lambda game: True, "even": lambda game: game % 2 == 0,
          "odd": lambda game: game % 2 == 1}


def agent_picks(agent, turn: Turn, rng: np.random.Generator) -> list[str]:
    """The agent's first k picks for the turn's clue, on a board of its face-down words
    dealt as bystanders: it never sees the key."""
    k = len(turn.targets)
    board = Board.from_key(list(turn.remaining), [NEUTRAL] * len(turn.remaining))
    hint, picks = Hint(turn.clue, k), []
    while len(picks) < k:
        word = agent.guess(board, hint, len(picks), rng)
        if word is None or word not in board or board.card(word).revealed:
            break
        board.reveal(word, NEUTRAL)
        picks.append(word)
    return picks


def turn_counts(turn: Turn, picks: Sequence[str]) -> np.ndarray:
    """(numerator, denominator) of every measure for one turn's picks: shape (measures, 2)."""
    targets, black, tan = set(turn.targets), set(turn.black), set(turn.tan)
    first = picks[0] if picks else None
    person = turn.guesses[0] if turn.guesses else None
    return np.array([[first in targets, 1],
                     [len(targets & set(picks[:len(targets)])), len(targets)],
                     [first in black, 1],
                     [person is not None and first == person, person is not None],
                     [len(black & set(picks)), 1], [len(tan & set(picks)), 1]], dtype=float)


def random_counts(turn: Turn) -> np.ndarray:
    """The expectation of `turn_counts` for picks drawn at random among the face-down words."""
    n, k = len(turn.remaining), len(turn.targets)
    black = len(set(turn.black) & set(turn.remaining))
    tan = len(set(turn.tan) & set(turn.remaining))
    has_person = bool(turn.guesses)
    return np.array([[k / n, 1], [k * k / n, k], [black / n, 1], [has_person / n, has_person],
                     [k * black / n, 1], [k * tan / n, 1]])


def by_game(turns: Sequence[Turn], counts: Iterable[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Per-turn counts summed per game: (game ids, games × measures × 2)."""
    games = np.array([t.game for t in turns])
    ids, where = np.unique(games, return_inverse=True)
    table = np.zeros((len(ids), len(MEASURES), 2))
    np.add.at(table, where, np.stack(list(counts)))
    return ids, table


def summarize(ids: np.ndarray, table: np.ndarray) -> dict:
    """Every measure, for all games and each half, with bootstrap intervals over games."""
    out = {}
    for half, keep in HALVES.items():
        rows = table[[keep(int(g)) for g in ids]]
        out[half] = {name: bootstrap_ratio(rows[:, m, 0], rows[:, m, 1])
                     for m, (name, _) in enumerate(MEASURES)}
        out[half]["games"], out[half]["turns"] = len(rows), int(rows[:, 0, 1].sum())
    return out


def measure_agent(make_agent: Callable[[Turn], object], turns: Sequence[Turn]) -> tuple[dict, list[float]]:
    """An agent's summary over the turns, and the seconds each turn's picks took; `make_agent`
    makes the agent that reads a turn (a model fitted without the turn's game, say)."""
    import time

    counts, seconds = [], []
    for turn in turns:
        agent, rng = make_agent(turn), np.random.default_rng(turn.row)
        start = time.perf_counter()
        picks = agent_picks(agent, turn, rng)
        seconds.append(time.perf_counter() - start)
        counts.append(turn_counts(turn, picks))
    return summarize(*by_game(turns, counts)), seconds


def baselines(turns: Sequence[Turn]) -> dict:
    """What the people themselves did (their first k clicks), and a random first pick."""
    people = summarize(*by_game(turns, (turn_counts(t, t.guesses) for t in turns)))
    for half in people.values():
        half["agree"] = None   # a person always agrees with themselves
    return {"people": people, "random": summarize(*by_game(turns, map(random_counts, turns)))}


def people_agents(turns: Sequence[Turn], readings: Mapping[str, Weights]
                  ) -> list[tuple[str, Callable[[Turn], object]]]:
    """The agent on every variant of the model of people that the matrices allow, each turn read
    by the variant fitted without its game (cross-validated), at every stopping threshold."""
    weights = next(iter(readings.values()))
    return [(f"people: {name}" + (f", stops below {stop:.0%}" if stop else ""),
             lambda turn, model=model, stop=stop: PeopleAgent(weights, model=model(turn), stop_below=stop))
            for name, model in cross_validated_people(turns, readings) for stop in STOPS]


def run(sources: Path, agents: Sequence[tuple[str, Callable[[Turn], object]]],
        readings: Mapping[str, Weights] | None = None) -> dict:
    """The tier for named agent factories (each makes the agent that reads a turn), and the
    cross-validated model of people on `readings`; or why it was skipped."""
    if not available(sources):
        return {"skipped": f"no human Duet record in {folder(sources)}"}
    turns = list(read_turns(sources))
    if readings:
        agents = [*people_agents(turns, readings), *agents]
    rows = []
    for label, make in agents:
        summary, seconds = measure_agent(make, turns)
        rows.append({"agent": label, **summary,
                     "median_ms": float(np.median(seconds) * 1000) if seconds else None})
    return {"turns": len(turns), "games": len({t.game for t in turns}), **baselines(turns),
            "agents": rows}


def markdown(tier: dict, fmt: Callable) -> list[str]:
    """The report's section; `fmt(estimate, "rate")` formats a value with its interval."""
    lines = ["## Human tier: reading people's clues (Duet record, validation split)", ""]
    if "skipped" in tier:
        return lines + [f"Skipped: {tier['skipped']}.", ""]
    lines += [f"{tier['turns']} turns of {tier['games']} games of people playing Codenames Duet: "
              "each agent sees the face-down words (never the key) and the person's clue, with "
              "the giver's number of targets as the count. 95% bootstrap intervals over games. "
              "All figures are validation figures; 'even' and 'odd' are the halves by game id "
              "(agents are tuned on even games only). The model of people ('people: …') is "
              "cross-validated by game: each turn is read by the model fitted without its game "
              "(lab/evaluation/people_fit.py).", ""]
    header = ["reader", "half"] + [label for _, label in MEASURES] + ["median ms"]
    rows = []
    for label, summary, speed in ([("people", tier["people"], None), ("random first pick",
                                    tier["random"], None)]
                                  + [(a["agent"], a, a["median_ms"]) for a in tier["agents"]]):
        for half in HALVES:
            rows.append([label, half] + [fmt(summary[half][name], "rate") if summary[half][name]
                                         else "—" for name, _ in MEASURES]
                        + ["—" if speed is None or half != "all" else f"{speed:.2f}"])
    lines += ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(x) for x in row) + " |" for row in rows]
    return lines + [""]
