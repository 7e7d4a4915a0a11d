"""What a person sees on stderr: one-line notices, progress bars, a clock for long work."""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Iterable, Iterator
from typing import Any

_held: list[str] | None = None   # the notices kept while a question is on the screen (`holding`)
_holding = threading.Lock()


def warn(message: str) -> None:
    """Print a one-line notice on stderr, where it never mixes with game output (or keep it, while
    `holding`, for when the question on the screen is answered)."""
    with _holding:
        if _held is not None:
            _held.append(message)
            return
    print(message, file=sys.stderr, flush=True)


@contextlib.contextmanager
def holding() -> Iterator[list[str]]:
    """While open, notices wait and no bar is drawn: work in a thread (the AI loading) stays off
    the screen while a person answers the questions at the start. The notices are said when it
    closes, in order, unless the block raised (a person leaving has no use for them)."""
    global _held
    with _holding:
        held = _held = []
    try:
        yield held
    finally:
        with _holding:
            _held = None
    for message in held:
        warn(message)


def on_terminal() -> bool:
    """Whether stderr is a terminal: progress bars are for a person watching, not for a log (nor
    for a screen with a question on it: `holding`)."""
    if _held is not None:
        return False
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
