"""Tune a captain's or an agent's parameters on the tuning seeds, never on the test seeds.

    python -m lab.benchmarks.tune --role captain --strategy margin \\
        --grid opponent=0.3,0.5,0.8 assassin=1,2 --seeds 40
    python -m lab.benchmarks.tune --role agent --strategy threshold --grid floor=0.1,0.2,0.3 \\
        --sources ../shared/datasets --initializers sbert fasttext
    python -m lab.benchmarks.tune --role recipe --strategy direct --grid eat=0,0.5 sbert=0,0.5 \\
        --sources ../shared/datasets --initializers sbert fasttext

Every point of the grid (the product of the listed values of the strategy's
constructor parameters) plays single-team games on boards from the tuning
range (seeds below lab.evaluation.games.TEST_OFFSET), paired with the partner strategy in its
default setting. With two or more initializers only cross-play pairs count
(captain and agent on different matrices); with one, self-play, and the script
says so. Points are ranked by mean score (lower is better; a loss scores 25),
then win rate. The best setting is then to be measured on the held-out test
range with `python main.py bench`, which the script prints.

With `--role recipe`, the grid sets the part weights of one of datasets.COMBINED's
recipes (0 leaves a part out). Each point's matrix is built in a temporary cache
folder that links the parts' caches, so data/cache is never touched; it plays
cross-play with the default captain and agent, the recipe's matrix on one side
and each of `--initializers` on the other.
"""

from __future__ import annotations

import argparse
import itertools
import json
import shlex
import sys
import tempfile
import time
from pathlib import Path

from common import BOARD_WORDS_PATH, SOURCES_DIR, atomic_write_bytes, cluster, load_words, progress, warn
from lab.evaluation.executor import Executor, executor
from lab.evaluation.games import TEST_OFFSET
from lab.evaluation.loading import BenchError, load_all
from lab.evaluation.report import REPORTS_DIR, to_json
from lab.evaluation.runner import Setup, run_solo
from lab.evaluation.specs import PARTNER_POLICIES, Spec, parse_value
from lab.evaluation.stats import count_table, pooled, summarize
from lab.evaluation.tables import fmt


def parse_grid(items: list[str]) -> dict[str, list[object]]:
    """`["gap=1,2", "floor=0.1"]` → {"gap": [1, 2], "floor": [0.1]}."""
    grid: dict[str, list[object]] = {}
    for item in items:
        name, eq, values = item.partition("=")
        if not eq or not name.isidentifier() or not values:
            raise ValueError(f"bad grid item {item!r}: write name=value1,value2,...")
        grid[name] = [parse_value(v) for v in values.split(",")]
    return grid


def points(grid: dict[str, list[object]]) -> list[tuple[tuple[str, object], ...]]:
    """Every combination of the grid's values, as Spec parameter tuples."""
    names = list(grid)
    return [tuple(zip(names, values, strict=True)) for values in itertools.product(*grid.values())]


def evaluate(setups: list[Setup], cross_only: bool, games: Executor | None = None) -> dict:
    """Play the setups' pairs (on `games`, else here) and summarise their (cross-play) games as one pool."""
    tables = []
    for setup in setups:
        tables += [count_table(played) for (c, a), played in run_solo(setup, jobs=games or 1).items()
                   if not cross_only or c.initializer != a.initializer]
    return summarize(pooled(tables))


class RecipeWeights:
    """Weights of a datasets.COMBINED recipe with changed part weights, built aside.

    The temporary cache folder links every cached file of data/cache except the
    recipe's own, so only the recipe is rebuilt and the real cache stays as it is.
    """

    def __init__(self, name: str, sources: Path, sbert_model: str | None):
        import datasets
        from common import CACHE_DIR

        if name not in datasets.COMBINED:
            raise ValueError(f"{name!r} is not a recipe: choose from {', '.join(datasets.COMBINED)}")
        self.name, self.sources, self.sbert_model = name, sources, sbert_model
        self.base = dict(datasets.COMBINED[name])
        self.folder = tempfile.TemporaryDirectory(prefix="tune-recipe-")
        self.cache = Path(self.folder.name)
        for path in CACHE_DIR.glob("*") if CACHE_DIR.is_dir() else ():
            if not path.name.startswith(f"{name}."):
                (self.cache / path.name).symlink_to(path.resolve())

    def recipe(self, params: tuple[tuple[str, object], ...]) -> dict[str, float]:
        recipe = {**self.base, **{k: float(v) for k, v in params}}
        return {k: v for k, v in recipe.items() if v}

    def weights(self, params: tuple[tuple[str, object], ...]):
        import datasets

        for path in self.cache.glob(f"{self.name}.*"):
            path.unlink()
        datasets.COMBINED[self.name] = self.recipe(params)
        try:
            return datasets.load_weights(self.name, sources=self.sources, sbert_model=self.sbert_model,
                                         cache_dir=self.cache)
        finally:
            datasets.COMBINED[self.name] = self.base


def arguments() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].strip(),
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--role", choices=("captain", "agent", "recipe"), required=True)
    p.add_argument("--strategy", required=True,
                   help="the registered strategy to tune (with --role recipe: the recipe's name)")
    p.add_argument("--grid", nargs="+", default=[], metavar="NAME=V1,V2",
                   help="constructor parameters and the values to try")
    p.add_argument("--partner", default=None,
                   help="the other role's strategy (default: model's default strategy)")
    p.add_argument("--initializers", nargs="+", default=None, metavar="NAME",
                   help="matrices to pair across (default: sbert)")
    p.add_argument("--seeds", type=int, default=40, metavar="N", help="boards per grid point")
    p.add_argument("--seed-offset", type=int, default=0, metavar="K",
                   help=f"first tuning seed (tuning seeds must stay below {TEST_OFFSET})")
    p.add_argument("--sources", type=Path, default=SOURCES_DIR, metavar="DIR")
    p.add_argument("--words", type=Path, default=BOARD_WORDS_PATH, metavar="FILE",
                   help="card words to deal boards from")
    p.add_argument("--sbert-model", default=None)
    p.add_argument("--partners", choices=PARTNER_POLICIES, default="held-out")
    p.add_argument("--out", type=Path, default=REPORTS_DIR / "tuning.json",
                   help="where to write the results as JSON")
    p.add_argument("--jobs", type=int, default=1, metavar="N",
                   help="Dask workers on this machine (default 1: no cluster; results do not depend on it)")
    cluster.add_scheduler_argument(p, "the games")
    return p


def main(argv: list[str]) -> int:
    """Tune one strategy (or recipe) over its grid on the tuning seeds; write and print the ranking."""
    args = arguments().parse_args(argv)
    try:
        seeds = tuning_seeds(args)
        partner = partner_of(args)
        grid, recipe, words, weights = prepare(args, partner)
    except (ValueError, OSError, BenchError) as error:
        warn(f"tune: {error}")
        return 2
    cross = len(weights) > 1 or recipe is not None
    if not cross:
        warn("tune: one initializer only, so this tunes self-play, which flatters the AI")
    started = time.perf_counter()
    try:
        results = run_grid(args, grid, partner, weights, recipe, seeds, words, cross)
    except (ValueError, OSError) as error:
        warn(f"tune: {error}")
        return 2
    best, check = rank(args, results, partner, recipe, seeds, cross)
    report = {"command": "python -m lab.benchmarks.tune " + shlex.join(argv), "role": args.role,
              "strategy": args.strategy, "partner": partner, "initializers": list(weights),
              "play": "cross" if cross else "self", "seeds": [seeds[0], seeds[-1]],
              "runtime_s": time.perf_counter() - started, "best": best, "check": check,
              "results": results}
    atomic_write_bytes(args.out, json.dumps(to_json(report), indent=1).encode("utf-8"))
    return 0


def tuning_seeds(args: argparse.Namespace) -> list[int]:
    """The boards to tune on; ValueError when they reach into the held-out test range."""
    seeds = list(range(args.seed_offset, args.seed_offset + args.seeds))
    if args.seeds < 1 or args.seed_offset < 0 or seeds[-1] >= TEST_OFFSET:
        raise ValueError(f"seeds must lie in the tuning range 0–{TEST_OFFSET - 1}; "
                         f"{seeds[0] if seeds else '?'}–{seeds[-1] if seeds else '?'} does not")
    return seeds


def partner_of(args: argparse.Namespace) -> str:
    """The other role's strategy: --partner, or the model's default."""
    import model

    return args.partner or (model.DEFAULT_AGENT if args.role == "captain" else model.DEFAULT_CAPTAIN)


def check_strategies(args: argparse.Namespace, partner: str) -> None:
    """ValueError when the tuned strategy or its partner is not registered."""
    import model

    if args.role == "recipe":
        return
    registry, other = ((model.CAPTAINS, model.AGENTS) if args.role == "captain"
                       else (model.AGENTS, model.CAPTAINS))
    for name, known in ((args.strategy, registry), (partner, other)):
        if name not in known:
            raise ValueError(f"unknown strategy {name!r}: choose from {', '.join(known)}")


def prepare(args: argparse.Namespace, partner: str) -> tuple[dict, RecipeWeights | None, list[str], dict]:
    """The grid, the recipe being tuned (None for a strategy), the card words and the matrices."""
    import datasets

    grid = parse_grid(args.grid)
    check_strategies(args, partner)
    recipe = RecipeWeights(args.strategy, args.sources, args.sbert_model) \
        if args.role == "recipe" else None
    if recipe is not None and (unknown := [k for k in grid if k not in datasets.INITIALIZERS]):
        raise ValueError(f"not initializers: {', '.join(unknown)}")
    words = load_words(args.words)
    weights, _, _ = load_all(args.initializers or ["sbert"], args.sources, args.sbert_model,
                             required=True, words=words)
    return grid, recipe, words, weights


def run_grid(args: argparse.Namespace, grid: dict, partner: str, weights: dict,
             recipe: RecipeWeights | None, seeds: list[int], words: list[str], cross: bool) -> list[dict]:
    """Every grid point's summary, best first (lowest mean score, then highest win rate)."""
    results = []
    with executor(args.jobs, cluster.scheduler_address(args.scheduler)) as games:
        for params in progress(points(grid), desc="tune: grid", unit="point"):
            try:
                setups = plan(args, params, partner, weights, recipe, seeds, words)
                summary = evaluate(setups, cross_only=cross, games=games)
            except TypeError as error:   # a parameter the strategy does not take
                raise ValueError(f"{args.strategy} does not accept {dict(params)}: {error}") from None
            results.append({"params": dict(params), **summary})
    results.sort(key=lambda r: (r["mean_score"].value, -r["win_rate"].value))
    return results


def rank(args: argparse.Namespace, results: list[dict], partner: str, recipe: RecipeWeights | None,
         seeds: list[int], cross: bool) -> tuple[dict, str]:
    """Print the ranking and the best point with the command that measures it on the test range;
    returns both."""
    what = (f"recipe {args.strategy} with the default captain and agent" if recipe is not None
            else f"{args.role} {args.strategy} with {partner}")
    print(f"{'cross-play' if cross else 'self-play'} on tuning seeds {seeds[0]}–{seeds[-1]}, "
          f"{what}; ranked by mean score:")
    for r in results:
        print(f"  {json.dumps(r['params']):40} score {fmt(r['mean_score'], 'mean'):22} "
              f"win {fmt(r['win_rate'], 'rate'):22} assassin {fmt(r['assassin_rate'], 'rate')}")
    best = results[0]["params"]
    spec = args.strategy + (":" + ",".join(f"{k}={v}" for k, v in best.items()) if best else "")
    if recipe is not None:
        check = (f"set datasets.COMBINED[{args.strategy!r}] = {recipe.recipe(tuple(best.items()))}, "
                 f"then: python main.py bench --seed-offset {TEST_OFFSET} --sources {args.sources}")
    else:
        role_flag = "--captains" if args.role == "captain" else "--agents"
        check = f"python main.py bench {role_flag} {shlex.quote(spec)} --seed-offset {TEST_OFFSET}"
    print(f"best: {spec}\nmeasure it on the held-out test range: {check}")
    return best, check


def plan(args: argparse.Namespace, params: tuple, partner: str, weights: dict,
         recipe: RecipeWeights | None, seeds: list[int], words: list[str]) -> list[Setup]:
    """The games that measure one grid point."""
    import model

    def setup(all_weights: dict, captains: list, agents: list) -> Setup:
        return Setup(all_weights, captains, agents, seeds, words,
                           partners=args.partners)

    if recipe is not None:   # the recipe's matrix on one side, each other matrix on the other
        tuned = {f"{recipe.name}*": recipe.weights(params), **weights}
        name = next(iter(tuned))
        tuned[name].add_words(words)
        others = [i for i in weights]
        return [setup(tuned, [Spec(model.DEFAULT_CAPTAIN, name)],
                      [Spec(model.DEFAULT_AGENT, i) for i in others]),
                setup(tuned, [Spec(model.DEFAULT_CAPTAIN, i) for i in others],
                      [Spec(model.DEFAULT_AGENT, name)])]
    tuned = [Spec(args.strategy, i, params) for i in weights]
    partners = [Spec(partner, i) for i in weights]
    captains, agents = (tuned, partners) if args.role == "captain" else (partners, tuned)
    return [setup(weights, captains, agents)]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
