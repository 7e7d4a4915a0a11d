"""What a person sees on stderr: one-line notices, progress bars, a clock for long work."""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Iterable, Iterator
from typing import Any


def warn(message: str) -> None:
    """Print a one-line notice on stderr, where it never mixes with game output."""
    print(message, file=sys.stderr, flush=True)


def on_terminal() -> bool:
    """Whether stderr is a terminal: progress bars are for a person watching, not for a log."""
    try:
        return bool(sys.stderr is not None and sys.stderr.isatty())
    except (AttributeError, ValueError):   # replaced by an object without isatty; closed
        return False


def interactive() -> bool:
    """Whether a person is at the keyboard: stdin and stdout are a terminal (a piped or scripted
    run is never asked a question it did not answer in its flags)."""
    try:
        return sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):   # replaced by an object without isatty; closed
        return False


def progress(iterable: Iterable[Any] | None = None, **options: Any):
    """A tqdm progress bar on stderr, drawn only on a terminal: every bar of ours is made here."""
    from tqdm import tqdm

    return tqdm(iterable, file=sys.stderr, disable=not on_terminal(), **options)


@contextlib.contextmanager
def ticking(desc: str, every: float = 1.0) -> Iterator[None]:
    """While open, a line on stderr counts the time spent ('fasttext: training for 02:31'), for
    long work that reports no progress of its own; drawn only on a terminal, as the bars are."""
    bar = progress(desc=desc, bar_format="{desc} for {elapsed}")
    done = threading.Event()

    def tick() -> None:
        while not done.wait(every):
            bar.refresh()

    ticker = threading.Thread(target=tick, daemon=True)
    ticker.start()
    try:
        yield
    finally:
        done.set()
        ticker.join()
        bar.close()
