"""Dask distributed for the work that outgrows one process: the game's corpus counting
(`--scheduler`), and, in the lab, the bench's games and tuning. dask and distributed are developer
requirements (requirements-dev.txt), imported only here and only when a cluster is asked for, so
that the game itself never needs them.

A scheduler is named by `--scheduler ADDRESS` or, without the flag, by the environment variable
DASK_SCHEDULER_ADDRESS (Dask's own); `local` starts a LocalCluster on this machine.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import Any

SCHEDULER_ENV = "DASK_SCHEDULER_ADDRESS"
LOCAL = "local"   # a LocalCluster on this machine, as `--scheduler local`
MISSING = ("dask is not installed: pip install -r requirements-dev.txt "
           "(dask and distributed run the bench and corpus counting on a cluster)")


class ClusterUnavailable(RuntimeError):
    """dask is missing, or the scheduler could not be reached: one line to show."""


def scheduler_address(flag: str | None = None) -> str | None:
    """The scheduler the flag names, else the one DASK_SCHEDULER_ADDRESS names, else None."""
    return flag or os.environ.get(SCHEDULER_ENV) or None


def add_scheduler_argument(parser: Any, work: str = "the work") -> None:
    """`--scheduler ADDRESS` on an argparse parser (or group); `work` says what it sends."""
    parser.add_argument("--scheduler", default=None, metavar="ADDRESS",
                        help=f"a running Dask scheduler (tcp://host:8786) to send {work} to, or "
                             f"'{LOCAL}' for a cluster on this machine (default: ${SCHEDULER_ENV})")


def _distributed() -> Any:
    """The distributed module, or ClusterUnavailable saying how to install it."""
    try:
        import distributed
    except ImportError:
        raise ClusterUnavailable(MISSING) from None
    return distributed


@contextlib.contextmanager
def client(scheduler: str | None = None, workers: int = 1, processes: bool = True) -> Iterator[Any]:
    """A Dask client: on the running scheduler at `scheduler`, else on a LocalCluster of
    `workers` single-threaded workers (processes, or threads of this one when not `processes`)."""
    distributed = _distributed()
    with _quiet_logs():
        if scheduler and scheduler != LOCAL:
            try:
                connection = distributed.Client(scheduler, timeout="10s")
            except OSError as error:
                raise ClusterUnavailable(f"no Dask scheduler at {scheduler}: {error}") from None
            with connection:
                yield connection
            return
        with _glibc_malloc(), _calm_workers():
            local = distributed.LocalCluster(n_workers=max(1, workers), threads_per_worker=1,
                                             processes=processes, dashboard_address=None)
        with local, distributed.Client(local) as connection:
            yield connection


@contextlib.contextmanager
def _glibc_malloc() -> Iterator[None]:
    """Workers started without the MALLOC_TRIM_THRESHOLD_ a Nanny sets by default: any fixed
    threshold stops glibc from raising its mmap threshold, so that every large numpy temporary
    is mapped and unmapped again, and bench games run far slower (docs/decisions/0028-dask.md)."""
    import dask

    key = "distributed.nanny.pre-spawn-environ"
    environ = {k: v for k, v in (dask.config.get(key) or {}).items() if k != "MALLOC_TRIM_THRESHOLD_"}
    with dask.config.set({key: environ}):
        yield


@contextlib.contextmanager
def _calm_workers() -> Iterator[None]:
    """Local workers without the statistical profiler and with the memory and system monitors
    waking every 5 s, not every 20 to 500 ms: each wakes a thread that takes the GIL from the
    games (measured in docs/decisions/0028-dask.md). Remote workers take the same settings from
    their own Dask config (docs/benchmark.md)."""
    import dask

    with dask.config.set({"distributed.worker.profile.enabled": False,
                          "distributed.worker.memory.monitor-interval": "5s",
                          "distributed.admin.system-monitor.interval": "5s",
                          "distributed.admin.tick.interval": "5s"}):
        yield


@contextlib.contextmanager
def _quiet_logs() -> Iterator[None]:
    """Dask's INFO lines (workers starting and stopping) kept off the terminal: warnings still show."""
    import logging

    loggers = [logging.getLogger(name) for name in ("distributed", "dask")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(max(logger.level, logging.WARNING))
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)
