"""The catalog: every initializer the sources allow, loaded from cache when fresh, else built, once each.

A facade over three units: what is available (initializers/availability.py), the caches
(initializers/store.py) and the builders (initializers/builders.py).
"""

from __future__ import annotations

import contextlib
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from common import CACHE_DIR, DEFAULT_SBERT_MODEL, SOURCES_DIR, warn
from initializers.availability import Availability
from initializers.builders import Builders
from initializers.cache import NO_CACHE_YET, StaleCache
from initializers.corpus import Corpus
from initializers.notices import Notices
from initializers.recipe import (
    BASE,
    COMBINED,
    FALLBACK,
    FALLBACK_ROW_WEIGHT,
    INITIALIZERS,
    SPARSE_BACKOFF,
    canonical,
    parts_of,
    sources_of,
)
from initializers.settings import Settings
from initializers.sources import BuildError, MissingSource, SourceError
from initializers.store import Store
from initializers.tables import HintReader, Lazy, Table
from model import Weights

# What a source that cannot be read raises while its initializer is built.
BUILD_ERRORS = (SourceError, BuildError, OSError, EOFError, zipfile.BadZipFile)


class Catalog:
    """Every initializer the sources allow: loaded from cache when fresh, else built, once each.

    A stale or corrupt cache is rebuilt with a line (`say`, default stderr) saying why; a
    missing source leaves its initializer out (see `missing`).
    """

    def __init__(self, settings: Settings | None = None, say: Callable[[str], None] = warn):
        from common import board_words, hint_words

        self.settings = settings = settings or Settings()
        self.say = say   # where the catalog's one-line notices go (rebuilds, left out, source problems)
        self.hints = tuple(settings.hints) if settings.hints is not None else hint_words()
        self.words = tuple(settings.words) if settings.words is not None else board_words()
        self.sources = Path(settings.sources) if settings.sources is not None else SOURCES_DIR
        self.cache_dir = Path(settings.cache_dir) if settings.cache_dir is not None else CACHE_DIR
        self.rebuild = rebuilt(settings.rebuild)
        # Left to a background build when not cached (`Settings.background`); those found so: `pending`.
        self.deferred = frozenset(n for n in INITIALIZERS if "corpus" in sources_of(n)
                                  ) if settings.background and not self.rebuild else frozenset()
        self.pending: set[str] = set()
        self.notices = Notices(say)
        self.availability = Availability(self.sources, settings.sbert_model or DEFAULT_SBERT_MODEL,
                                         Path(settings.fasttext_model) if settings.fasttext_model else None)
        self.store = Store(self.cache_dir, self.hints, self.words, self.availability, self.notices)
        self.builders = Builders(self.hints, self.words, self.availability, self.store, self.notices,
                                 lambda: self.table(FALLBACK), settings.scheduler, "corpus" in self.rebuild)
        self._tables: dict[str, Table] = {}
        self._weights: dict[str, Weights] = {}

    # -- what is there (initializers/availability.py)

    def files(self, source: str) -> list[Path]:
        """The files of a source in the sources folder."""
        return self.availability.files(source)

    def missing(self, name: str) -> str | None:
        """Why initializer `name` cannot be built (one line), or None when it can."""
        return self.availability.missing(name)

    def available(self) -> dict[str, str | None]:
        """Each initializer, with None when it can be built or the reason it cannot."""
        return self.availability.available()

    def default(self) -> str:
        """The combined recipe over the available sources; SBERT alone when there are none."""
        return self.availability.default()

    def missing_sources(self, name: str) -> list[str]:
        """The folders of the sources that `name` (or its parts) would use and that are missing."""
        return self.availability.missing_sources(name)

    def report_missing(self, name: str) -> list[str]:
        """One line per missing source that `name` (or its parts) would use."""
        return self.availability.report_missing(name)

    def path(self, name: str) -> Path:
        """Where an initializer's hint × board matrix is cached (its JSON sidecar beside it)."""
        return self.store.path(name)

    def corpus(self) -> Corpus:
        """The lemmatised corpus, from its cache when fresh, else read and cached."""
        return self.builders.corpus()

    # -- weights

    def weights(self, name: str | None = None) -> Weights:
        """The `model.Weights` of an initializer (default: the best available), one per name.

        Every matrix but SBERT's backs off (`backoff`), so that an agent on a
        sparse matrix reads a hint its matrix is silent on as a dense one does,
        rather than turning over a card at random.
        """
        name = canonical(name) if name else self.default()
        if name in self._weights:
            return self._weights[name]
        table = self.table(name)
        extender = table
        if name in COMBINED and self.missing(FALLBACK) is None:
            extender = HintReader(table, Lazy(lambda: self.table(FALLBACK)), FALLBACK_ROW_WEIGHT)
        weights = self._weights[name] = Weights(name, self.hints, self.words, table.matrix,
                                                extender=extender, backoff=self.backoff(name))
        return weights

    def backoff(self, name: str) -> Weights | None:
        """The matrix that reads for `name` where it is silent: for counts and norms the first
        available of `SPARSE_BACKOFF`, for the others SBERT, which knows every word."""
        for reader in SPARSE_BACKOFF.get(name, (FALLBACK,)):
            if reader != name and self.missing(reader) is None:
                try:
                    return self.weights(reader)
                except MissingSource:    # present but unreadable, as it said: the next one reads
                    continue
        return None

    # -- tables

    def table(self, name: str) -> Table:
        """The table of an initializer: from cache when fresh, else built and cached."""
        name = canonical(name)
        if name in self._tables:
            return self._tables[name]
        if (reason := self.missing(name)) is not None:
            raise MissingSource(f"{name}: {reason}")
        if name == "sbert":  # it keeps its own cache, of embeddings
            table = self.builders.sbert(rebuild=name in self.rebuild)
        else:
            table = self._cached_or_built(name)
        self._tables[name] = table
        return table

    def _cached_or_built(self, name: str) -> Table:
        """A table from its cache when fresh, else built and cached; one left to the background
        (when not cached, or every part of it is) raises MissingSource and is `pending`."""
        try:
            parts = self._parts(name)
        except MissingSource:   # every part of it left to the background: so is it
            if name in self.deferred:
                self.pending.add(name)
            raise
        expected = self.store.expected(name, parts)
        table = None if name in self.rebuild else self._cached(name, expected, parts)
        if table is None and name in self.deferred:
            self.pending.add(name)
            raise MissingSource(f"{name}: being built in the background")
        return table if table is not None else self._built(name, parts, expected)

    def _cached(self, name: str, expected: dict[str, Any], parts: dict[str, Table]) -> Table | None:
        """The table from its cache, or None (with a line saying why) when it must be built."""
        try:
            matrix, meta = self.store.read(name, expected)
        except StaleCache as reason:
            if str(reason) != NO_CACHE_YET and name not in self.deferred:
                self.say(f"{name}: rebuilding the cache: {reason}")
            return None
        extras = Lazy(lambda: self._extras(name, meta.get("extra_sha256", "")))
        return self.builders.restore(name, meta, parts, extras).set_matrix(matrix, self.words)

    def _built(self, name: str, parts: dict[str, Table], expected: dict[str, Any]) -> Table:
        """The table built and cached; a base initializer whose source fails is left out, said once."""
        self.notices.problems.clear()
        try:
            table = self.builders.build(name, parts).finish(self.words)
        except BUILD_ERRORS as error:
            if name not in BASE:
                raise
            built = isinstance(error, BuildError)   # read, but no initializer came of it
            reason = self.availability.broken[name] = str(error) if built else f"unreadable source: {error}"
            self.say(f"{name} left out: {reason}")
            raise MissingSource(f"{name}: {reason}") from None
        self.store.write(name, table, expected)
        return table

    def _parts(self, name: str) -> dict[str, Table]:
        """The available parts of a combination; one whose source proves unreadable drops out."""
        parts = {}
        for part in parts_of(name):
            if self.missing(part) is None:
                with contextlib.suppress(MissingSource):
                    parts[part] = self.table(part)
        if parts_of(name) and not parts:
            raise MissingSource(f"{name}: none of its parts could be built")
        return parts

    def _extras(self, name: str, sha256: str) -> dict[str, np.ndarray]:
        """The arrays beside a cached matrix; a missing or corrupt file is rebuilt on the spot."""
        try:
            return self.store.extras(name, sha256)
        except (StaleCache, OSError, ValueError) as reason:
            self.say(f"{name}: rebuilding the cache: {reason}")
            parts = self._parts(name)
            table = self.builders.build(name, parts).finish(self.words)
            self.store.write(name, table, self.store.expected(name, parts))
            return table.state()[0]


def rebuilt(names: Sequence[str] | None) -> set[str]:
    """The initializers (and "corpus") `Settings.rebuild` names: none for None, every one for an
    empty list; the lemmatised corpus is rebuilt with what reads it."""
    if names is None:
        return set()
    rebuild = {canonical(n, steps=True) for n in names} or {*INITIALIZERS, "corpus"}
    if "corpus" in rebuild:
        rebuild |= {n for n, needs in BASE.items() if "corpus" in needs}
    return rebuild
