"""Where the bench's games are played: in this process, or on the workers of a Dask cluster
(support/cluster.py), a LocalCluster of `--jobs` workers or a running one that `--scheduler` names.

On a cluster a task plays `play(setup, item)` for one item on a run of its seeds: one run per item
when there are enough items to keep every worker busy (`TASKS_PER_WORKER`), else shorter ones
(a task of one short game costs more in scheduling than it plays). The weight
matrices travel once per worker (scattered to all of them when a setup is first seen), never with
a game. Every game is seeded and builds its own players, so the results are the same wherever
and in whatever order the games are played.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Iterator
from typing import Any

from common import cluster, warn

TASKS_PER_WORKER = 4   # at least this many tasks per worker, so that the last ones end together


class Executor:
    """Plays `play(setup, item, tick)` for every item; results by item, in order."""

    workers = 1

    def run(self, setup: Any, play: Callable, items: list, progress: Any = None) -> dict:
        tick = progress.update if progress is not None else (lambda: None)
        return {item: play(setup, item, tick) for item in items}


class DaskExecutor(Executor):
    """Each game a task on the cluster behind a Dask client."""

    def __init__(self, connection: Any):
        self.connection = connection
        self.workers = max(1, len(connection.nthreads()))   # the cluster's workers now
        self._sent: tuple[dict, Any] | None = None   # the last weights, and their future on every worker

    def run(self, setup: Any, play: Callable, items: list, progress: Any = None) -> dict:
        from distributed import as_completed

        weights = self._weights(setup.weights)
        shell = dataclasses.replace(setup, weights={})
        runs = seed_runs(setup.seeds, -(-TASKS_PER_WORKER * self.workers // max(1, len(items))))
        tasks = {(item, i): self.connection.submit(_games, weights, shell, play, item, run, pure=False)
                 for item in items for i, run in enumerate(runs)}
        for done in as_completed(tasks.values()):
            if progress is not None:
                progress.update(len(done.result()))
        results = dict(zip(tasks, self.connection.gather(list(tasks.values())), strict=True))
        return {item: [game for i in range(len(runs)) for game in results[item, i]] for item in items}

    def _weights(self, weights: dict) -> Any:
        """The weights' future on every worker: scattered when other weights than the last are
        asked for (the last ones are then released on the workers)."""
        if self._sent is None or self._sent[0] is not weights:
            self._sent = (weights, self.connection.scatter([weights], broadcast=True, hash=False)[0])
        return self._sent[1]


def seed_runs(seeds: list[int], parts: int) -> list[list[int]]:
    """`seeds` in at most `parts` consecutive runs of nearly equal length, in order."""
    parts = max(1, min(parts, len(seeds)))
    size, extra = divmod(len(seeds), parts)
    bounds = [i * size + min(i, extra) for i in range(parts + 1)]
    return [seeds[a:b] for a, b in zip(bounds, bounds[1:], strict=False)]


def _games(weights: dict, shell: Any, play: Callable, item: Any, seeds: list[int]) -> list:
    """On a worker: the games of `item` on a run of seeds."""
    return play(dataclasses.replace(shell, weights=weights, seeds=seeds), item)


@contextlib.contextmanager
def executor(jobs: int = 1, scheduler: str | None = None) -> Iterator[Executor]:
    """In this process for one job and no scheduler; else on Dask: the running cluster at
    `scheduler`, or a LocalCluster of `jobs` workers. Without dask, in this process after a line."""
    if scheduler is None and jobs <= 1:
        yield Executor()
        return
    with contextlib.ExitStack() as stack:
        try:
            connection = stack.enter_context(cluster.client(scheduler, workers=jobs))
        except cluster.ClusterUnavailable as reason:
            warn(f"bench: {reason}; playing in this process")
            connection = None
        yield Executor() if connection is None else DaskExecutor(connection)
