"""Which clause of the sight rule keeps the captain for a person from its multi-card hints.

    python -m lab.benchmarks.sight_blocks --sources ../shared/datasets --seeds 10

It plays the captain for a person (a variant of lab/benchmarks/captain_ablation.py) alone with the
human-model tier's guessers on the validation boards and, at each hint, takes for count 2 and 3 the
candidates worth more than the hint it gave had they been seen. For the best of them it counts the
clauses of `Sight.clauses` that fail (with `reach`, the model of people's own ranking, and `chase`,
the rule for a card missed twice), and how often a clause fails alone: the one to loosen. The
board's first hint and the later ones are counted apart.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import numpy as np

from board import deal
from common import BOARD_WORDS_PATH, load_words
from lab.benchmarks.captain_ablation import VARIANTS, build_ai, captain
from lab.evaluation import human_models
from lab.evaluation.games import play_solo
from models.expected import ExpectedCaptain

# Sets of clauses loosened together: for each, how often some candidate then passes.
LOOSENED = {
    "own cards": ("meaning:own", "norms:own"),
    "own cards, reach": ("meaning:own", "norms:own", "reach"),
    "own cards, norms": ("meaning:own", "norms:own", "norms:others"),
    "own cards, norms, reach": ("meaning:own", "norms:own", "norms:others", "reach"),
    "own cards, meaning": ("meaning:own", "norms:own", "meaning:others"),
    "own cards, evoked": ("meaning:own", "norms:own", "evoked"),
}


class Blocks:
    """The failing clauses of the unseen multi-card candidates worth more than the hint given,
    tallied by stage (the board's first hint, later ones) and count."""

    def __init__(self):
        self.any: Counter = Counter()
        self.alone: Counter = Counter()
        self.candidates: Counter = Counter()
        self.unlocked: Counter = Counter()

    def record(self, captain: ExpectedCaptain, table: np.ndarray, stage: str) -> None:
        failing = captain.failing
        chosen = np.where(captain.seen & (np.arange(1, table.shape[1] + 1) <= captain.reached[:, None]),
                          table, -np.inf).max()
        for k in range(2, table.shape[1] + 1):
            value = np.where(np.isfinite(table[:, k - 1]), table[:, k - 1], -np.inf)
            better = np.flatnonzero(value > chosen)
            better = better[~captain.seen[better, k - 1]]
            self.candidates[stage, k] += 1
            if not len(better):
                continue
            self.candidates[stage, k, "better"] += 1
            h = better[np.argmax(value[better])]
            names = failing.get((int(h), k), ())
            for name in names:
                self.any[stage, k, name] += 1
            if len(names) == 1:
                self.alone[stage, k, names[0]] += 1
            for loosened, clauses in LOOSENED.items():
                if any(set(failing.get((int(b), k), ("?",))) <= set(clauses) for b in better):
                    self.unlocked[stage, k, loosened] += 1

    def report(self) -> str:
        lines = []
        for stage, k in sorted(key for key in self.candidates if len(key) == 2):
            n, worse = self.candidates[stage, k], self.candidates[stage, k, "better"]
            lines.append(f"{stage} count {k}: {n} hints, {worse} with a better unseen candidate; "
                         f"its failing clauses (share of those):")
            names = sorted({c for s, kk, c in self.any if (s, kk) == (stage, k)},
                           key=lambda c: -self.any[stage, k, c])
            for name in names:
                lines.append(f"  {name:18s} fails {self.any[stage, k, name] / worse:5.0%}"
                             f"   alone {self.alone[stage, k, name] / worse:5.0%}")
            lines.append("  loosened, some better candidate passes (share of all hints):")
            for loosened in LOOSENED:
                lines.append(f"  {loosened:26s} {self.unlocked[stage, k, loosened] / n:5.0%}")
        return "\n".join(lines)


class Instrumented(ExpectedCaptain):
    """The captain, keeping each simulated hint's failing clauses (`failing`) for `Blocks`."""

    def __init__(self, base: ExpectedCaptain, blocks: Blocks):
        self.__dict__.update(base.__dict__)
        self.blocks, self.failing, self.hints_given = blocks, {}, 0

    def counts_seen(self, situation, chosen, sight):
        seen = super().counts_seen(situation, chosen, sight)
        own = situation.own
        found = sight.clauses(situation.words, chosen, self.order(situation, chosen), own,
                              self.losing(situation))
        rule = np.logical_and.reduce([*found.values(), np.ones(seen.shape, dtype=bool)])   # Sight.counts
        found["chase"] = ~(rule & ~seen)
        depth = min(seen.shape[1], 3)
        for i, h in enumerate(chosen):
            for k in range(2, depth + 1):
                self.failing[int(h), k] = tuple(n for n, ok in found.items() if not ok[i, k - 1])
        return seen

    def agreed(self, table):
        for (h, k), names in list(self.failing.items()):
            if k <= self.reached[h] or not np.isfinite(self.reached[h]):
                continue
            self.failing[h, k] = (*names, "reach")
        self.blocks.record(self, table, "first" if self.hints_given == 0 else "later")
        self.hints_given += 1
        self.failing = {}
        return super().agreed(table)


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sources", type=Path, required=True)
    p.add_argument("--seeds", type=int, default=10)
    p.add_argument("--seed-offset", type=int, default=100)
    p.add_argument("--variant", default="now", choices=list(VARIANTS))
    args = p.parse_args(argv)
    words = load_words(BOARD_WORDS_PATH)
    ai, _ = build_ai(args.sources, words, embedded=False)
    blocks = Blocks()
    for name in human_models.GUESSERS:
        guesser = human_models.fit_guesser(name, args.sources)
        for seed in range(args.seed_offset, args.seed_offset + args.seeds):
            board, rng = deal(seed, words)
            tested = Instrumented(captain(ai, VARIANTS[args.variant], None), blocks)
            play_solo(board, board.starting_team, tested, guesser, rng, seed)
    print(blocks.report())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
