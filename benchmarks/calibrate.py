"""Fit the expected captain's danger calibration (model.DANGER) on tuning seeds.

    python benchmarks/calibrate.py --sources ../shared/datasets --seeds 30 --check-seeds 30

The default pair (expected captain, greedy agent) plays every cross-play pair
of the loaded initializers alone, on the boards of seeds 0 to N-1, once with
each of `--partners` (bench's held-out and disjoint partners: a calibration
fit on one alone misjudges the other). At every hint the captain records its `--top` best candidates
(hint and count), what its partners foresee of them (`model.danger_features`)
and what the greedy agent would do with each: walk down its reading until it
meets a card not its team's, which may lose the game. A logistic regression of
that outcome on the features is the calibration, printed to be pasted into
model.py.

The first round's captain prices the assassin at its partners' mean chance;
each later round's at the calibration fit so far, which is then fit again on
every round's hints: a captain that trusts the calibration chooses hints that
the first round's captain never looked at, and the fit must have seen those.
All rounds price the assassin as the captain did before the calibration
(`RECORDING_PRICES`).

The check plays the games of the next `--check-seeds` boards with the
partners' mean and with the calibration, at each `--scales` multiple of the
assassin's price, and prints their win rate, assassin losses and mean score.
"""

from __future__ import annotations

import argparse
import inspect
import itertools
import sys
import time
from pathlib import Path

import numpy as np
from scipy.optimize import minimize

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bench  # noqa: E402
import model  # noqa: E402
from common import BOARD_WORDS_PATH, SOURCES_DIR, load_words  # noqa: E402


class RecordingCaptain(model.ExpectedCaptain):
    """The expected captain, keeping what it foresaw of its best candidates and what a
    greedy agent reading `agent` does with them."""

    def __init__(self, weights: model.Weights, agent: model.Weights, top: int = 100, **options):
        super().__init__(weights, **options)
        self.agent, self.top = agent, top
        self.features: list[np.ndarray] = []
        self.outcomes: list[np.ndarray] = []
        self.foreseen: list[tuple] = []

    def foresee(self, situation, chosen, risk):
        values, fatal = super().foresee(situation, chosen, risk)
        self.foreseen.append((chosen, values, fatal))
        return values, fatal

    def score(self, situation, board):
        self.foreseen = []
        table = super().score(situation, board)
        chosen = np.concatenate([c for c, _, _ in self.foreseen])
        values = np.concatenate([v for _, v, _ in self.foreseen], axis=1)
        fatal = np.concatenate([f for _, _, f in self.foreseen], axis=1)
        best = np.argsort(-table[chosen].max(axis=1))[:self.top]
        belief = self.belief()
        features = model.danger_features(fatal[:, best], belief,
                                         np.tensordot(belief, values[:, best], axes=1))
        hints = [self.weights.hints[i] for i in chosen[best]]
        self.features.append(features.reshape(-1, features.shape[-1]).astype(np.float32))
        self.outcomes.append(greedy_loses(self.agent, hints, situation, table.shape[1]).reshape(-1))
        return table


# The prices of the assassin alone before the calibration, at which its hints are recorded,
# so that the fit does not depend on the prices tuned with it since.
RECORDING_PRICES = (("alone_assassin_cost", 8.0), ("endgame_assassin_cost", 12.0))


def greedy_loses(agent: model.Weights, hints: list[str], situation: model.Situation,
                 depth: int) -> np.ndarray:
    """For each hint and count 1..depth (hints × depth), whether a greedy agent reading
    `agent` turns over a card that loses: it walks down its reading until it has made
    `count` guesses or met a card not its team's."""
    rows = agent.hint_rows(hints, situation.words)
    order = np.argsort(-rows, axis=1, kind="stable")
    first_miss = np.argmin(situation.own[order], axis=1)     # the assassin is always face down
    fatal = model.ExpectedCaptain.losing(situation)[order[np.arange(len(hints)), first_miss]]
    return (first_miss[:, None] < np.arange(1, depth + 1)) & fatal[:, None]


def record(setup: bench.Setup, pair: tuple, tick=lambda: None) -> tuple[np.ndarray, np.ndarray]:
    """The features and outcomes of every decision of one captain and agent, alone."""
    captain_spec, agent_spec = pair
    partners = bench.partners_for(captain_spec, agent_spec, setup.weights, setup.partners)
    features, outcomes = [], []
    for seed in setup.seeds:
        board, rng = bench.deal(seed, setup.words)
        captain = RecordingCaptain(setup.weights[captain_spec.initializer],
                                   setup.weights[agent_spec.initializer], partners=partners,
                                   alone=True, **dict(captain_spec.params))
        agent = bench.build(setup.agent_registry, agent_spec, setup.weights)
        bench.play_solo(board, board.starting_team, captain, agent, rng, seed)
        features += captain.features
        outcomes += captain.outcomes
        tick()
    return np.concatenate(features), np.concatenate(outcomes)


def setup_for(weights: dict, seeds: list[int], words: list[str], params: tuple,
              partners: str) -> bench.Setup:
    """The cross-play pairs of the default pair, the captain with `params` and `partners`."""
    return bench.Setup(weights, [bench.Spec("expected", i, params) for i in weights],
                       [bench.Spec("greedy", i) for i in weights], seeds, words,
                       model.CAPTAINS, model.AGENTS, partners=partners)


def cross_pairs(setup: bench.Setup) -> list[tuple]:
    return [p for p in bench.pairs_of(setup) if p[0].initializer != p[1].initializer]


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1.0) -> model.Calibration:
    """A logistic regression with an L2 penalty on the coefficients (scikit-learn's
    default), by L-BFGS."""
    def loss(theta):
        logit = x @ theta[:-1] + theta[-1]
        grad = x.T @ (1.0 / (1.0 + np.exp(-logit)) - y)
        bias = (1.0 / (1.0 + np.exp(-logit)) - y).sum()
        nll = np.logaddexp(0.0, logit).sum() - y @ logit
        return (nll + 0.5 * l2 * theta[:-1] @ theta[:-1],
                np.append(grad + l2 * theta[:-1], bias))

    theta = minimize(loss, np.zeros(x.shape[1] + 1), jac=True, method="L-BFGS-B").x
    return model.Calibration(tuple(round(float(c), 4) for c in theta[:-1]), round(float(theta[-1]), 4))


def check(weights: dict, seeds: list[int], words: list[str], params: tuple, partners: str,
          jobs: int) -> dict:
    """Cross-play games of the default pair, pooled: wins, assassin losses, mean score."""
    setup = setup_for(weights, seeds, words, params, partners)
    games = bench.run_all(setup, bench.solo_games, cross_pairs(setup), None, jobs)
    return bench.summarize(bench.pooled([bench.count_table(g) for g in games.values()]))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sources", type=Path, default=SOURCES_DIR)
    p.add_argument("--seeds", type=int, default=30, help="fit on tuning seeds 0..N-1")
    p.add_argument("--rounds", type=int, default=3, help="rounds of recording and fitting")
    p.add_argument("--top", type=int, default=100, help="candidates recorded per hint")
    p.add_argument("--check-seeds", type=int, default=30, help="play the next N tuning seeds")
    p.add_argument("--scales", type=float, nargs="+", default=[1.0],
                   help="prices of the assassin to check, as multiples of the captain's")
    p.add_argument("--partners", nargs="+", choices=("held-out", "disjoint"),
                   default=["held-out", "disjoint"],
                   help="the captain's partners (as in bench), each recorded and checked")
    p.add_argument("--words", type=Path, default=BOARD_WORDS_PATH, help="the board words")
    p.add_argument("--jobs", type=int, default=2)
    args = p.parse_args(argv)
    if args.seeds + args.check_seeds > bench.TEST_OFFSET:
        p.error(f"the tuning seeds end at {bench.TEST_OFFSET}")
    words = load_words(args.words)
    import datasets
    weights, _, _ = bench.load_all(list(datasets.INITIALIZERS), args.sources, None,
                                   required=True, words=words)
    start = time.perf_counter()
    xs, ys, calibration = [], [], None
    for round_ in range(args.rounds):
        for partners in args.partners:
            setup = setup_for(weights, list(range(args.seeds)), words, (
                ("calibration", calibration), ("top", args.top), *RECORDING_PRICES), partners)
            for x, y in bench.run_all(setup, record, cross_pairs(setup), None, args.jobs).values():
                xs.append(x)
                ys.append(y)
        calibration = fit(np.concatenate(xs), np.concatenate(ys).astype(float))
        print(f"round {round_ + 1}: {sum(map(len, ys))} hints and counts, "
              f"{time.perf_counter() - start:.0f} s\n  DANGER = {calibration!r}", flush=True)

    seeds = list(range(args.seeds, args.seeds + args.check_seeds))
    print(f"\ncross-play on seeds {seeds[0]}-{seeds[-1]}: wins, assassin losses, mean score")
    for partners, scale in itertools.product(args.partners, args.scales):
        for name, danger in (("partners' mean", None), ("calibrated", calibration)):
            params = (("calibration", danger),) + scaled_prices(scale)
            s = check(weights, seeds, words, params, partners, args.jobs)
            print(f"  {partners} partners, price ×{scale:g}, {name}: {s['win_rate'].value:.1%} wins, "
                  f"{s['assassin_rate'].value:.1%} assassin, score {s['mean_score'].value:.2f}",
                  flush=True)
    return 0


def scaled_prices(scale: float) -> tuple:
    """The captain's parameters that multiply both prices of the assassin alone by `scale`."""
    defaults = inspect.signature(model.ExpectedCaptain).parameters
    return tuple((name, defaults[name].default * scale)
                 for name in ("alone_assassin_cost", "endgame_assassin_cost"))


if __name__ == "__main__":
    raise SystemExit(main())
