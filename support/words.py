"""Word lists: reading, writing and fingerprinting them; the shipped hint and card lists."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable, Iterator
from pathlib import Path

from support.files import atomic_write_bytes
from support.paths import BOARD_WORDS_PATH, COMPOUNDS_PATH, HINT_WORDS_PATH


def normalise(word: str) -> str:
    """The canonical spelling of a word: stripped and lower case."""
    return word.strip().lower()


def load_words(path: Path | str) -> list[str]:
    """Read a word list: one word a line, `#` comments and blanks skipped, order kept."""
    words: list[str] = []
    seen: set[str] = set()
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        word = normalise(line.split("#", 1)[0])
        if word and word not in seen:
            seen.add(word)
            words.append(word)
    return words


def save_words(path: Path | str, words: Iterable[str]) -> None:
    """Write a word list, one word a line, atomically."""
    atomic_write_bytes(Path(path), "".join(f"{w}\n" for w in words).encode("utf-8"))


@functools.cache
def hint_words() -> tuple[str, ...]:
    """The committed hint vocabulary (see `initializers.vocabulary.build_hint_words`)."""
    return tuple(load_words(HINT_WORDS_PATH))


@functools.cache
def board_words() -> tuple[str, ...]:
    """The project's own list of card words."""
    return tuple(load_words(BOARD_WORDS_PATH))


def read_compounds(path: Path = COMPOUNDS_PATH) -> Iterator[tuple[str, str]]:
    """The (first part, second part) of every committed closed compound (`python -m
    initializers.compounds` makes the list)."""
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            if line.strip() and not line.startswith("#"):
                _, first, second = line.split()
                yield first, second


def words_hash(words: Iterable[str]) -> str:
    """A short, order-sensitive fingerprint of a word list, for cache metadata."""
    return hashlib.sha256("\n".join(words).encode("utf-8")).hexdigest()[:16]
