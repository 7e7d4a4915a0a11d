"""Initializers: they turn sources into hint × board-word weight matrices, cached in data/cache.

Data flows one way: sources (PyPI packages, the user's `--sources` folder)
→ readers → tables → `model.Weights`. Every matrix is rescaled so that its
largest value is 1.

An initializer's weights live in a *table*: the cached hint × board matrix,
plus whatever it needs to weigh a word it has not seen (a sparse row of
counts over the corpus lexicon, a word vector, an association lookup).
A table is the `model.Extender` of its `Weights`, so a board word outside
data/board_words_en.txt gets its column, and a human's hint outside the
vocabulary its row, on demand.

The default weights are the recipe (`COMBINED`, `DOUBLE_LINK` in initializers/recipe.py): a
weighted sum of initializers, computed over whichever sources are present.

This module is the entry (the names in `__all__`); the work is done in the
`initializers` package: vocabulary, sources, readers, corpus, tables,
fasttext_vectors, sbert, cache, recipe, availability, store, builders and catalog.
"""

from __future__ import annotations

import contextlib
from dataclasses import replace
from typing import Any

from common import sweep_temporaries, warn
from initializers import background
from initializers.cache import column_major
from initializers.catalog import Catalog
from initializers.phrases import wordnet_folder
from initializers.readers import read_eat, read_usf
from initializers.recipe import (
    BASE,
    COMBINED,
    DEFAULT_INITIALIZER,
    EMBEDDED,
    FALLBACK,
    INITIALIZERS,
    NOT_PLAYED,
    canonical,
    leaves,
    parts_of,
)
from initializers.sbert import SBERT_TEMPLATES, load_sbert, packaged_minilm, sbert_weights
from initializers.settings import Settings
from initializers.sources import SOURCES, MissingSource, download_command
from model import Weights

__all__ = [
    "BASE",
    "wordnet_folder",
    "COMBINED",
    "DEFAULT_INITIALIZER",
    "EMBEDDED",
    "FALLBACK",
    "INITIALIZERS",
    "SBERT_TEMPLATES",
    "SOURCES",
    "Catalog",
    "Settings",
    "MissingSource",
    "NOT_PLAYED",
    "availability",
    "canonical",
    "leaves",
    "load_sbert",
    "load_weights",
    "load_with_partners",
    "missing_notice",
    "packaged_minilm",
    "parts_of",
    "read_eat",
    "read_usf",
    "sbert_weights",
    "warm_up",
]


def warm_up(*weights: Weights) -> None:
    """Load now what the first new board word or out-of-vocabulary hint would wait for (the SBERT
    encoder, the caches beside the matrices), for these weights and the ones they back off to.

    Quiet (no bars, no notices); seconds, so best run before the first prompt or in a thread.
    """
    seen: set[int] = set()
    for first in weights:
        w = first
        while w is not None and id(w) not in seen:
            seen.add(id(w))
            if w.extender is not None:
                w.extender.prepare()
            w = w.backoff



# --- choosing an initializer --------------------------------------------------------


def settings_of(settings: Settings | None, changes: dict[str, Any]) -> Settings:
    """`settings` (default: every default) with the fields named in `changes` changed."""
    return replace(settings or Settings(), **changes)


def availability(settings: Settings | None = None, **changes: Any) -> dict[str, str | None]:
    """Each initializer with None when its sources are present, else what is missing and how
    to add it (one line). For the CLI to list."""
    return Catalog(settings_of(settings, {"hints": (), "words": (), **changes})).available()


def load_weights(name: str | None = None, settings: Settings | None = None, **changes: Any) -> Weights:
    """The weights of a named initializer (default: the combined recipe over the available
    sources, SBERT alone without any), from cache when fresh.

    `settings` (initializers/settings.py) says where the sources and the cache are and what to
    rebuild; a keyword changes one of its fields (`sources=`, `words=`, ...). A missing source
    leaves its initializer out with one line on stderr; asking by name for one whose source is
    missing raises MissingSource.
    """
    catalog = Catalog(settings_of(settings, changes))
    weights = _open(name, catalog)
    _background(catalog)
    return weights


def load_with_partners(name: str | None = None, settings: Settings | None = None, **changes: Any
                       ) -> tuple[Weights, list[Weights]]:
    """`load_weights`, and every other available initializer's weights from the same catalog
    (which has read most of their tables already), for the expected captain to check its
    hints against, so that they work for agents unlike itself.

    All of them, sparse ones too: with partners it had never seen, the captain checking every
    other matrix won more cross-play games than checking the dense ones alone (SBERT, fastText):
    a hint must then be known, and safe, in many minds (measured at commit 5696071, in its message).
    """
    catalog = Catalog(settings_of(settings, changes))
    weights = _open(name, catalog)
    partners = []
    for other in INITIALIZERS:
        if other != weights.name and catalog.missing(other) is None:
            with contextlib.suppress(MissingSource):   # unreadable, or left to the background: said
                partners.append(catalog.weights(other))
    _background(catalog)
    return weights, partners


def missing_notice(catalog: Catalog, name: str) -> list[str]:
    """What to say of the sources `name` would use and that are missing: with no dataset at all
    (a first game) one short line; to someone setting them up, a line for each, with where to get it."""
    if not any(catalog.files(source) for source in SOURCES):
        fetch = download_command(catalog.sources)
        return [f"No datasets: the AI plays on SBERT and WordNet alone ({fetch} adds them)."
                ] if catalog.missing_sources(name) else []
    return catalog.report_missing(name)


def _open(name: str | None, catalog: Catalog) -> Weights:
    """The weights of `name` (default: the best available) from a catalog, after reporting
    what is missing and rebuilding what the catalog was asked to rebuild."""
    chosen = canonical(name) if name else catalog.default()
    sweep_temporaries(catalog.cache_dir)   # what writers killed since the last run left behind
    column_major(catalog.cache_dir)        # a cache older builds wrote row-major, rewritten once
    for line in missing_notice(catalog, chosen if name else DEFAULT_INITIALIZER):
        warn(line)
    for other in sorted(catalog.rebuild - {"corpus"}, key=INITIALIZERS.index):
        if catalog.missing(other) is None:
            catalog.table(other)
    try:
        return catalog.weights(chosen)
    except MissingSource:
        if name or not catalog.pending:
            raise
        return catalog.weights(FALLBACK)   # the default waits for the background: SBERT meanwhile


def _background(catalog: Catalog) -> None:
    """Start the build of what the catalog left to the background, or say once that a finished
    build's matrices joined."""
    if catalog.pending:
        where = {"sources": catalog.sources, "cache_dir": catalog.cache_dir}
        try:
            warn(background.start(replace(catalog.settings, **where), sorted(catalog.pending)))
        except OSError as error:   # a cache folder that cannot be written: the game goes on without
            warn(f"The matrices {', '.join(sorted(catalog.pending))} could not be built in the background "
                 f"({error}); this game plays without them.")
    elif catalog.deferred and (names := background.joined(catalog.cache_dir)):
        warn(f"The matrices built in the background joined the AI ({', '.join(names)}): it plays "
             "with every dataset.")
