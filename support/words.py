"""Word lists and lemmas: how a hint, a card and a corpus token meet on one spelling."""

from __future__ import annotations

import functools
import hashlib
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from support.files import atomic_write_bytes
from support.paths import BOARD_WORDS_PATH, HINT_WORDS_PATH


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


@functools.cache
def lemmatizer():
    """The lemminflect module, imported without its spaCy hook.

    lemminflect's `__init__` imports spaCy, when it is installed (the development requirements
    pull it in), only to register token extensions this project never uses; spaCy imports torch.
    That slowed every start of the game (docs/decisions/0032-first-hint-in-seconds.md). spaCy is
    hidden while lemminflect loads.
    """
    if "lemminflect" not in sys.modules and "spacy" not in sys.modules:
        finder = _Hidden("spacy")
        sys.meta_path.insert(0, finder)
        try:
            import lemminflect
        finally:
            sys.meta_path.remove(finder)
    import lemminflect

    return lemminflect


class _Hidden:
    """A meta-path finder under which a package cannot be imported (as if it were not installed)."""

    def __init__(self, package: str):
        self.package = package

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        if name == self.package or name.startswith(f"{self.package}."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)


@functools.cache
def lemmas(word: str) -> frozenset[str]:
    """Every lemma lemminflect knows for a word, over all parts of speech.

    A word that lemminflect does not know is its own lemma, so comparing lemma
    sets never fails.
    """
    lemminflect = lemmatizer()
    word = normalise(word)
    found = lemminflect.getAllLemmas(word) or lemminflect.getAllLemmasOOV(word, upos="NOUN")
    return frozenset({word} | {lemma.lower() for forms in found.values() for lemma in forms})


CONTENT_TAGS = ("NOUN", "VERB", "ADJ", "ADV")  # lemminflect's tags for content words


@functools.cache
def lemma_of(word: str) -> str:
    """The one lemma a word is counted under: itself when it is a content lemma, else its
    first noun, verb, adjective or adverb lemma, else the word itself (names, rare words).

    The hint vocabulary, the corpus and the association norms all go through this
    function, so that a hint, a corpus token and a board word meet on one spelling.
    """
    if " " in word:  # "pink panther": a multi-word entry is its own lemma
        return word
    found = lemmatizer().getAllLemmas(word)
    if _is_lemma(word, found):
        return word
    return next((found[tag][0] for tag in CONTENT_TAGS if tag in found), word)


def _is_lemma(word: str, found: dict[str, tuple[str, ...]]) -> bool:
    return any(word in found.get(tag, ()) for tag in CONTENT_TAGS)


def words_hash(words: Iterable[str]) -> str:
    """A short, order-sensitive fingerprint of a word list, for cache metadata."""
    return hashlib.sha256("\n".join(words).encode("utf-8")).hexdigest()[:16]
