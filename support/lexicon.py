"""What a word is: its lemmas, its British and American spellings, how common it is.

The libraries answer (lemminflect, breame, wordfreq), but loading them and asking about the
10,000 hints and the card words took 1.5 s of every start, for answers that never change while
the word lists and the libraries do not. So the answers for the shipped lists are computed once,
written to `lexicon.json` in the cache folder and read back (a few milliseconds) while its key
matches: the lists' SHA-256 and the libraries' versions. A word outside the lists (a person's
hint, a card of `--words`) is asked of the libraries, which then load.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import numpy as np

from support.files import atomic_write_bytes
from support.paths import BOARD_WORDS_PATH, CACHE_DIR, HINT_WORDS_PATH
from support.words import board_words, hint_words, normalise

LIBRARIES = ("lemminflect", "breame", "wordfreq")   # whose answers the lexicon keeps
FORMAT = 1   # of lexicon.json: a change makes every older file stale


# --- the libraries ---------------------------------------------------------------------------


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


CONTENT_TAGS = ("NOUN", "VERB", "ADJ", "ADV")  # lemminflect's tags for content words


def asked_lemmas(word: str) -> frozenset[str]:
    """lemminflect's lemmas of a normalised word, over all parts of speech, and the word itself."""
    lemminflect = lemmatizer()
    found = lemminflect.getAllLemmas(word) or lemminflect.getAllLemmasOOV(word, upos="NOUN")
    return frozenset({word} | {lemma.lower() for forms in found.values() for lemma in forms})


def asked_lemma_of(word: str) -> str:
    """The one lemma lemminflect gives a word to be counted under (see `lemma_of`)."""
    if " " in word:  # "pink panther": a multi-word entry is its own lemma
        return word
    found = lemmatizer().getAllLemmas(word)
    if any(word in found.get(tag, ()) for tag in CONTENT_TAGS):
        return word
    return next((found[tag][0] for tag in CONTENT_TAGS if tag in found), word)


def asked_spellings(forms: frozenset[str]) -> frozenset[str]:
    """Lemmas with their American spellings added (breame's lists)."""
    from breame.spelling import get_american_spelling

    return forms | {get_american_spelling(form) for form in forms}


@functools.cache
def _frequencies() -> dict[str, float]:
    from wordfreq import get_frequency_dict

    return get_frequency_dict("en", wordlist="best")


def asked_zipf(word: str) -> float:
    """wordfreq's Zipf frequency of a word in English (log10 of its uses per billion; 0 unknown)."""
    f = _frequencies().get(word.lower(), 0.0)
    return float(np.log10(f * 1e9)) if f > 0 else 0.0


# --- the lexicon of the shipped lists -------------------------------------------------------


@dataclass(frozen=True)
class Lexicon:
    """The libraries' answers for a list of words, as `lemmas`, `lemma_of`, `spellings` and `zipf`
    give them."""

    lemmas: dict[str, frozenset[str]]
    lemma_of: dict[str, str]
    spellings: dict[str, frozenset[str]]
    zipf: dict[str, float]

    @classmethod
    def asked(cls, words: list[str]) -> Lexicon:
        """The libraries' answers for `words` (normalised)."""
        lemmas = {w: asked_lemmas(w) for w in words}
        return cls(lemmas, {w: asked_lemma_of(w) for w in words},
                   {w: asked_spellings(forms) for w, forms in lemmas.items()},
                   {w: asked_zipf(w) for w in words})

    def to_json(self, key: str) -> dict[str, Any]:
        """The file's content: only what differs from the word itself is written."""
        words = list(self.lemmas)
        return {"key": key, "words": words,
                "lemmas": {w: sorted(f - {w}) for w, f in self.lemmas.items() if f != {w}},
                "lemma_of": {w: lemma for w, lemma in self.lemma_of.items() if lemma != w},
                "spellings": {w: sorted(s - self.lemmas[w]) for w, s in self.spellings.items()
                              if s != self.lemmas[w]},
                "zipf": [self.zipf[w] for w in words]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Lexicon:
        words = data["words"]
        lemmas = {w: frozenset((w, *data["lemmas"].get(w, ()))) for w in words}
        return cls(lemmas, {w: data["lemma_of"].get(w, w) for w in words},
                   {w: lemmas[w].union(data["spellings"][w]) if w in data["spellings"] else lemmas[w]
                    for w in words},
                   dict(zip(words, data["zipf"], strict=True)))


def shipped_words() -> list[str]:
    """The words the lexicon holds: the hint vocabulary, then the card words."""
    return list(dict.fromkeys((*hint_words(), *board_words())))


def lexicon_key() -> str:
    """What the lexicon's answers depend on: the word lists' bytes and the libraries' versions."""
    digest = hashlib.sha256(f"lexicon {FORMAT}\n".encode())
    for path in (HINT_WORDS_PATH, BOARD_WORDS_PATH):
        digest.update(Path(path).read_bytes())
    for library in LIBRARIES:
        try:
            digest.update(f"{library} {version(library)}\n".encode())
        except PackageNotFoundError:
            digest.update(f"{library} none\n".encode())
    return digest.hexdigest()


def lexicon_path() -> Path:
    return CACHE_DIR / "lexicon.json"


@functools.cache
def shipped() -> Lexicon:
    """The lexicon of the shipped lists: read back from the cache folder while its key matches,
    else asked of the libraries and written there (a cache that cannot be written is only kept
    in memory)."""
    key, path = lexicon_key(), lexicon_path()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("key") == key:
            return Lexicon.from_json(data)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass   # none yet, or unreadable: asked again below
    lexicon = Lexicon.asked(shipped_words())
    with contextlib.suppress(OSError):   # a folder that cannot be written: kept in memory only
        atomic_write_bytes(path, json.dumps(lexicon.to_json(key), separators=(",", ":")).encode("utf-8"))
    return lexicon


# --- what the rest of the project asks ---------------------------------------------------------


@functools.cache
def lemmas(word: str) -> frozenset[str]:
    """Every lemma lemminflect knows for a word, over all parts of speech.

    A word that lemminflect does not know is its own lemma, so comparing lemma
    sets never fails.
    """
    word = normalise(word)
    known = shipped().lemmas.get(word)
    return known if known is not None else asked_lemmas(word)


@functools.cache
def lemma_of(word: str) -> str:
    """The one lemma a word is counted under: itself when it is a content lemma, else its
    first noun, verb, adjective or adverb lemma, else the word itself (names, rare words).

    The hint vocabulary, the corpus and the association norms all go through this
    function, so that a hint, a corpus token and a board word meet on one spelling.
    """
    known = shipped().lemma_of.get(word)
    return known if known is not None else asked_lemma_of(word)


@functools.cache
def spellings(word: str) -> frozenset[str]:
    """A word's lemmas in both British and American spelling (breame's lists): COLOURS gives
    colours, colour and color; words that share one are one word (GREY and GRAY)."""
    known = shipped().spellings.get(normalise(word))
    return known if known is not None else asked_spellings(lemmas(word))


def zipf(words: Sequence[str]) -> np.ndarray:
    """Each word's Zipf frequency in English (wordfreq's; 0 for a word it does not know)."""
    known = shipped().zipf
    lowered = (w.lower() for w in words)
    return np.array([known[w] if w in known else asked_zipf(w) for w in lowered], dtype=np.float64)


def load_libraries() -> None:
    """Load lemminflect and breame now, for a word outside the lists (a person's hint) to come:
    a second's wait then could hold a captain's key on a shared screen."""
    asked_spellings(asked_lemmas("ready"))
