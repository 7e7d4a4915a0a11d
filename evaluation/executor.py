"""Where the bench's games are played: in this process, or on the workers of a Dask cluster
(cluster.py), a LocalCluster of `--jobs` workers or a running one that `--scheduler` names.

On a cluster every game is one task: `play(setup, item)` for one item on one seed. The weight
matrices travel once per worker (scattered to all of them when a setup is first seen), never with
a game. Every game is seeded and builds its own players, so the results are the same wherever
and in whatever order the games are played.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Iterator
from typing import Any

from common import warn


class Executor:
    """Plays `play(setup, item, tick)` for every item; results by item, in order."""

    workers = 1

    def run(self, setup: Any, play: Callable, items: list, progress: Any = None) -> dict:
        tick = progress.update if progress is not None else (lambda: None)
        return {item: play(setup, item, tick) for item in items}


class DaskExecutor(Executor):
    """Each game a task on the cluster behind a Dask client."""

    def __init__(self, connection: Any):
        import cluster

        self.connection = connection
        self.workers = cluster.workers_of(connection)
        self._sent: tuple[dict, Any] | None = None   # the last weights, and their future on every worker

    def run(self, setup: Any, play: Callable, items: list, progress: Any = None) -> dict:
        from distributed import as_completed

        weights = self._weights(setup.weights)
        shell = dataclasses.replace(setup, weights={})
        tasks = {(item, seed): self.connection.submit(_game, weights, shell, play, item, seed, pure=False)
                 for item in items for seed in setup.seeds}
        for done in as_completed(tasks.values()):
            if progress is not None:
                progress.update(len(done.result()))
        results = dict(zip(tasks, self.connection.gather(list(tasks.values())), strict=True))
        return {item: [game for seed in setup.seeds for game in results[item, seed]] for item in items}

    def _weights(self, weights: dict) -> Any:
        """The weights' future on every worker: scattered when other weights than the last are
        asked for (the last ones are then released on the workers)."""
        if self._sent is None or self._sent[0] is not weights:
            self._sent = (weights, self.connection.scatter([weights], broadcast=True, hash=False)[0])
        return self._sent[1]


def _game(weights: dict, shell: Any, play: Callable, item: Any, seed: int) -> list:
    """On a worker: the games of `item` on one seed."""
    return play(dataclasses.replace(shell, weights=weights, seeds=[seed]), item)


@contextlib.contextmanager
def executor(jobs: int = 1, scheduler: str | None = None) -> Iterator[Executor]:
    """In this process for one job and no scheduler; else on Dask: the running cluster at
    `scheduler`, or a LocalCluster of `jobs` workers. Without dask, in this process after a line."""
    if scheduler is None and jobs <= 1:
        yield Executor()
        return
    import cluster

    with contextlib.ExitStack() as stack:
        try:
            connection = stack.enter_context(cluster.client(scheduler, workers=jobs))
        except cluster.ClusterUnavailable as reason:
            warn(f"bench: {reason}; playing in this process")
            connection = None
        yield Executor() if connection is None else DaskExecutor(connection)
