"""The builders: each initializer's table made from its sources (or the parts it combines), or
restored from its cache's facts; and the lemmatised corpus several of them read."""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from common import cluster, lemma_of, read_compounds
from initializers.availability import Availability
from initializers.corpus import (
    Corpus,
    association_matrix,
    collocation_weights,
    lemmatise,
    neighbour_counts,
    sentence_counts,
)
from initializers.fasttext_vectors import FastTextTable, FastTextVectors, read_vec, train_fasttext
from initializers.notices import Notices
from initializers.phrases import PAIR, phrase_matrix, phrase_pairs, read_phrases, wordnet_folder
from initializers.readers import Association, read_corpus, read_eat, read_usf
from initializers.recipe import BUILD_TIME, COMBINED, DOUBLE_LINK, FALLBACK
from initializers.relations import relation_matrix
from initializers.sbert import sbert_table
from initializers.store import Store
from initializers.tables import (
    CombinedTable,
    DoubleLinkTable,
    Lazy,
    Lexicon,
    SparseTable,
    Table,
    hint_rows_of,
    sparse_from,
)

if TYPE_CHECKING:   # scipy.sparse loads where a sparse matrix is made: a game on SBERT alone needs none
    from scipy import sparse

COUNTS = {"neighbour": neighbour_counts, "sentence": sentence_counts}


class Builders:
    """The makers of the initializers' tables over these hints and board words.

    `fallback` gives the SBERT table, which a combination reads for the board words none of its
    parts knows; `scheduler` names a Dask scheduler (or 'local') to count collocations on;
    `reread_corpus` lemmatises the corpus again rather than read its cache.
    """

    def __init__(self, hints: tuple[str, ...], words: tuple[str, ...], availability: Availability,
                 store: Store, notices: Notices, fallback: Callable[[], Table],
                 scheduler: str | None = None, reread_corpus: bool = False):
        self.hints, self.words = hints, words
        self.availability, self.store, self.notices = availability, store, notices
        self.fallback = fallback
        self.scheduler = scheduler
        self.reread_corpus = reread_corpus
        self.fasttext_model = availability.fasttext_model
        self._corpus: Corpus | None = None
        self._corpus_problems: list[str] = []

    def build(self, name: str, parts: dict[str, Table]) -> Table:
        """The table of `name` made from its sources, or from `parts` (the tables it combines)."""
        files = self.availability.files
        if name in COMBINED:
            return self.combined(name, parts)
        if name in DOUBLE_LINK:
            return DoubleLinkTable(name, self.hints, parts[DOUBLE_LINK[name]])
        if name == "word_collocations":
            return self.collocations(name, "neighbour")
        if name == "sentence_collocations":
            return self.collocations(name, "sentence")
        if name == "association":
            return self.association(name, read_usf(files("usf"), self.notices.problem))
        if name == "eat":
            return self.association(name, read_eat(files("eat")))
        if name == "fasttext":
            return self.fasttext()
        if name == "phrases":
            pairs = itertools.chain(phrase_pairs(read_phrases(wordnet_folder())),
                                    ((a, b, PAIR) for a, b in read_compounds()))
            return self.sparse(name, *phrase_matrix(pairs))
        if name == "wordnet":
            return self.sparse(name, *relation_matrix(wordnet_folder()))
        raise ValueError(f"no builder for {name!r}")

    def restore(self, name: str, meta: dict[str, Any], parts: dict[str, Table],
                extras: Callable[[], dict[str, np.ndarray]]) -> Table:
        """A table from its cached facts (`meta`, its sidecar); its big arrays (`extras`) are
        read when first needed."""
        scale, facts = float(meta["scale"]), meta.get("facts") or {}
        if name in COMBINED:
            return self.combined(name, parts, scale, facts.get("masses"))
        if name in DOUBLE_LINK:
            return DoubleLinkTable(name, self.hints, parts[DOUBLE_LINK[name]], scale,
                                   lambda: sparse_from(extras(), "hint_block"))
        if name == "fasttext":
            vectors = self.fasttext_vectors(lambda: (extras()["vocabulary"].tolist(), extras()["vectors"]))
            # (the lookup table is used only for a user's .vec; .bin models give vectors themselves)
            return FastTextTable(self.hints, vectors, lambda: extras()["hint_vectors"], scale)
        return SparseTable(name, self.hints, Lazy(lambda: SparseTable.restore(self.hints, extras())), scale)

    def sbert(self, rebuild: bool = False) -> Table:
        """SBERT's table, which keeps its own cache, of embeddings."""
        return sbert_table(self.hints, self.words, model=self.availability.sbert_model,
                           cache_dir=self.store.cache_dir, rebuild=rebuild, say=self.notices.say)

    # -- the corpus

    def corpus(self) -> Corpus:
        """The lemmatised corpus, from its cache (corpus.npz) when fresh, else read and cached.

        What was wrong with its files (a book that could not be read) is passed on to
        every initializer built from it, so that their caches repeat it.
        """
        if self._corpus is None:
            self._corpus = self._cached_corpus()
        if self._corpus is None:
            self._corpus = self._read_corpus()
        else:
            for problem in self._corpus_problems:
                if problem not in self.notices.problems:
                    self.notices.problems.append(problem)
        return self._corpus

    def _cached_corpus(self) -> Corpus | None:
        """The corpus from its cache, its problems said once; None when it must be read."""
        cached = None if self.reread_corpus else self.store.read_corpus()
        if cached is None:
            return None
        corpus, self._corpus_problems = cached
        for problem in self._corpus_problems:
            self.notices.once(problem)
        return corpus

    def _read_corpus(self) -> Corpus:
        """The corpus read from its files and lemmatised (minutes), then cached."""
        files = self.availability.files("corpus")
        plural = "" if len(files) == 1 else "s"
        self.notices.say(f"corpus: reading {len(files)} file{plural}; a first build of the matrices made "
                         f"from them takes {BUILD_TIME}, once (later "
                         "games start from the cache)")
        before = len(self.notices.problems)
        corpus = lemmatise(read_corpus(files, self.notices.problem))
        self._corpus_problems = self.notices.problems[before:]
        self.store.write_corpus(corpus, self._corpus_problems)
        return corpus

    # -- counts, norms and phrases

    def collocations(self, name: str, kind: str) -> Table:
        """The collocation table of `kind` ('neighbour', 'sentence') over the corpus."""
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
                self.notices.once(f"{reason}; counting in this process")
        return COUNTS[kind](corpus, self.hints)

    def association(self, name: str, pairs: Iterable[Association]) -> Table:
        """The table of free-association norms (USF, EAT)."""
        return self.sparse(name, *association_matrix(pairs))

    def sparse(self, name: str, words: Sequence[str], full: sparse.csr_matrix) -> Table:
        """The table of a symmetric words × words matrix (norms, phrases): any word's row."""
        lexicon = Lexicon(tuple(words), hint_rows_of(full, words, self.hints), full)
        return SparseTable(name, self.hints, lambda: lexicon)

    # -- fastText

    def fasttext(self) -> Table:
        """fastText's table: vectors trained on the corpus, or the user's model (.bin or .vec)."""
        wanted = {*self.hints, *self.words, *map(lemma_of, self.words)}
        if self.fasttext_model is None:
            train_fasttext(self.corpus(), self._trained_model(), say=self.notices.say)
            vectors = self.fasttext_vectors()
        elif self._user_vec():
            table = read_vec(self.fasttext_model, wanted)
            vectors = self.fasttext_vectors(lambda: table)
        else:
            vectors = self.fasttext_vectors()
        hint_vectors = vectors(self.hints)
        return FastTextTable(self.hints, vectors, lambda: hint_vectors)

    def _trained_model(self) -> Path:
        return self.store.cache_dir / "fasttext.bin"

    def _user_vec(self) -> bool:
        return self.fasttext_model is not None and self.fasttext_model.suffix.lower() == ".vec"

    def fasttext_vectors(self, table: Callable[[], tuple[Sequence[str], np.ndarray]] | None = None
                         ) -> FastTextVectors:
        """The user's model (a .bin, or a .vec's words as `table` gives them), else the trained one."""
        if self.fasttext_model is None:
            return FastTextVectors(self._trained_model())
        return FastTextVectors(self.fasttext_model, table if self._user_vec() else None)

    # -- combinations

    def combined(self, name: str, parts: dict[str, Table], scale: float = 1.0,
                 masses: dict[str, list[float]] | None = None) -> Table:
        """A weighted sum of the available parts, with SBERT for the board words none of them knows."""
        weighted = [(parts[p], w) for p, w in COMBINED[name].items() if p in parts]
        fallback = None
        if self.availability.missing(FALLBACK) is None and FALLBACK not in parts:
            fallback = Lazy(self.fallback)
        return CombinedTable(name, self.hints, weighted, fallback, scale, masses)
