"""Initializers on tiny hand-made sources, with exact expected values."""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import math
import os
import re
import shutil
import sys
import time
import zipfile
from pathlib import Path

import numpy as np
import pytest
from scipy import sparse

import datasets
import initializers.availability
import initializers.builders
import initializers.corpus
import initializers.sbert
from initializers.builders import Builders
from initializers.cache import sidecar
from initializers.catalog import Catalog
from initializers.corpus import (
    association_matrix,
    collocation_weights,
    lemmatise,
    neighbour_counts,
    sentence_counts,
)
from initializers.fasttext_vectors import (
    FASTTEXT_THREADS,
    FastTextTable,
    FastTextVectors,
    fasttext_transform,
    read_vec,
    train_fasttext,
)
from initializers.readers import (
    USF_PARTS,
    Association,
    read_eat,
    read_usf,
    strip_gutenberg,
    usf_parts_missing,
)
from initializers.recipe import BUILD_TIME, SPARSE_BACKOFF, canonical
from initializers.settings import Settings
from initializers.sources import BuildError
from initializers.tables import CombinedTable, DoubleLinkTable, Lexicon, SparseTable, Table

# --- hand-made sources -----------------------------------------------------------------------

USF_HEADER = ("CUE, TARGET, NORMED?, #G, #P, FSG, BSG, MSG, OSG, #M, MMIAS, #O, OMIAS, QSS, QFR, QCON, "
              "QH, QPS, QMC, QPR, QRSG, QUC, TSS, TFR, TCON, TH, TPS, TMC, TPR, TRSG, TUC")


def usf_row(cue: str, target: str, fsg: str, msg: str) -> str:
    """A 31-field row as Appendix A writes it; ¥ (0xA5) in the not-normed fields."""
    normed = "YES" if msg != "\u00a5" else "NO"
    return (f"{cue}, {target}, {normed}, 148, 28, {fsg}, .014, {msg}, 0.0000, 0, 2, 0.0, 0, 21, 0, \u00a5, "
            f"W, N, 1.16, .05, .001, 1, 13, 111, 6.29, , N, 1.00, .23, .049, 1")


def write_usf(folder: Path, rows: list[str], name: str = "A-B.txt") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    lines = ["<HTML>", "<BODY>", "<PRE>", USF_HEADER, *rows, "</pre>", "</BODY>", "</HTML>"]
    path = folder / name
    path.write_bytes(("\n".join(lines) + "\n").encode("latin-1"))
    return path


PAJEK = """*Network test\r
% a comment\r
\r
*Vertices 6\r
1 ""\r
2 "OCEAN"\r
3 "SEA"\r
4 "WATER"\r
5 "DON&#39;T"\r
6 "DISESTABLISHMENTARI%"\r
*Arcs\r
2 3 6\r
2 4 3\r
2 6 1\r
3 2 5\r
3 5 5\r
"""


def write_eat(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "EATnew.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("EATnew.net", PAJEK)
        archive.writestr("multipleSort.net", "*Vertices 1\r\n1 \"X\"\r\n*Arcs\r\n")
    return path


# --- collocations ----------------------------------------------------------------------------------


def test_lemmatise_drops_function_words_and_marks_sentences():
    corpus = lemmatise(["The ships sailed the seas. Ships and boats!\n\nA boat's sail"])
    words = [corpus.lexicon[t] if t >= 0 else "|" for t in corpus.tokens]
    assert words == ["ship", "sail", "sea", "|", "ship", "boat", "|", "|", "boat", "sail"]


def test_strip_gutenberg_header_and_footer_and_plain_text():
    book = ("The Project Gutenberg EBook of X\r\nTitle: X\r\n"
            "*** START OF THIS PROJECT GUTENBERG EBOOK X ***\r\nCall me Ishmael.\r\n"
            "End of the Project Gutenberg EBook of X\r\n*** END OF THIS PROJECT ...\r\nlicence")
    assert strip_gutenberg(book).strip() == "Call me Ishmael."
    assert strip_gutenberg("just some text") == "just some text"


TOY = "Ship sea. Sea ship boat.\n\nBoat sea"
HINTS = ("boat", "sea", "ship")


def assert_pair_counts(count, expected: dict[tuple[str, str], int]) -> None:
    """`count(corpus, HINTS)` over TOY holds exactly these symmetric pair counts and nothing else."""
    corpus = lemmatise([TOY])
    counts = count(corpus, HINTS).toarray()
    column = {w: corpus.index[w] for w in HINTS}
    for (a, b), n in expected.items():
        assert counts[HINTS.index(a), column[b]] == n
        assert counts[HINTS.index(b), column[a]] == n
    assert counts.sum() == 2 * sum(expected.values())
    assert all(counts[i, column[h]] == 0 for i, h in enumerate(HINTS))  # never a word with itself


def test_neighbour_counts_are_exact():
    assert_pair_counts(neighbour_counts, {("ship", "sea"): 2, ("ship", "boat"): 1, ("boat", "sea"): 1})


def test_sentence_counts_are_exact():
    assert_pair_counts(sentence_counts, {("ship", "sea"): 2, ("ship", "boat"): 1, ("boat", "sea"): 2})


def test_sentence_counts_count_a_pair_once_per_sentence():
    corpus = lemmatise(["sea sea ship sea."])
    counts = sentence_counts(corpus, ("sea", "ship")).toarray()
    assert counts[0, corpus.index["ship"]] == 1


def test_neighbours_skip_removed_function_words_but_not_sentence_ends():
    corpus = lemmatise(["sea and the ship. boat"])
    counts = neighbour_counts(corpus, HINTS).toarray()
    assert counts[HINTS.index("sea"), corpus.index["ship"]] == 1
    assert counts[HINTS.index("ship"), corpus.index["boat"]] == 0


def test_collocation_post_processing():
    counts = sparse.csr_matrix(np.array([[10, 4], [5, 0], [20, 6]], dtype=np.float32))
    weights = collocation_weights(counts, min_count=5).toarray()
    log2 = math.log(2)
    expected = [[math.log(1.5) / log2, 0], [math.log(1.25) / log2, 0], [1, 1]]
    np.testing.assert_allclose(weights, expected, rtol=1e-6)


# --- association norms ----------------------------------------------------------------------------


def test_usf_reader_html_missing_values_and_the_cue_named_cue(tmp_path):
    path = write_usf(tmp_path, [
        usf_row("CUE", "POOL", ".189", "0.0000"),
        usf_row("OCEAN", "SEA", ".300", ".0100"),
        usf_row("OCEAN", "PINK PANTHER", ".020", "\u00a5"),
    ])
    assert list(read_usf([path])) == [
        Association("cue", "pool", 0.189, 0.0),
        Association("ocean", "sea", 0.3, 0.01),
        Association("ocean", "pink panther", 0.02, None),
    ]


def test_association_matrix_sums_both_directions_and_folds_forms():
    words, matrix = association_matrix([
        Association("ocean", "sea", 0.3, 0.01),
        Association("sea", "ocean", 0.2, None),
        Association("ocean", "seas", 0.1, None),   # "seas" is folded onto "sea"
    ])
    index = {w: i for i, w in enumerate(words)}
    assert sorted(words) == ["ocean", "sea"]
    assert matrix[index["ocean"], index["sea"]] == pytest.approx(0.3 + 0.01 + 0.2 + 0.1)
    assert matrix[index["sea"], index["ocean"]] == pytest.approx(0.61)


def test_eat_reader_forward_strengths(tmp_path):
    path = write_eat(tmp_path)
    pairs = {(a.cue, a.response): a.forward for a in read_eat([path])}
    # OCEAN's 10 responses: SEA 6, WATER 3, a truncated label 1 (skipped, but counted in the total)
    assert pairs == {("ocean", "sea"): pytest.approx(0.6), ("ocean", "water"): pytest.approx(0.3),
                     ("sea", "ocean"): pytest.approx(0.5), ("sea", "don't"): pytest.approx(0.5)}


# --- fastText ---------------------------------------------------------------------------------------


def test_fasttext_training_on_a_toy_corpus(tmp_path):
    letters = "bcdfghjklmnpqrstvwxz"
    toy_words = [f"{a}o{b}" for a in letters for b in letters[:5]]          # 100 made-up words
    corpus = lemmatise([" ".join(toy_words[(i * 7) % 100] for i in range(5000))])
    assert len(corpus.lexicon) == 100
    path = tmp_path / "model.bin"
    train_fasttext(corpus, path, threads=10, dim=8, epoch=2, minCount=1, bucket=10_000)
    assert path.exists() and not [p for p in tmp_path.iterdir() if p != path]  # no temporary left
    vectors = FastTextVectors(path)(["ship", "sea", "zeppelin", ""])
    assert vectors.shape == (4, 8)
    np.testing.assert_allclose(np.linalg.norm(vectors[:3], axis=1), 1, rtol=1e-5)  # subwords: any word
    assert not vectors[3].any()


def leave_on_the_heap(value: float) -> None:
    """Free blocks holding `value` where the next allocations come from, as reading a corpus does."""
    blocks = [np.full(n, value, dtype=np.float32) for n in (1_000, 4_000, 16_000) for _ in range(30)]
    del blocks


def test_fasttext_trains_one_model_whatever_the_heap_held(tmp_path):
    """On one thread fastText 0.9.3 draws only the first tenth of its input matrix; the rest was what
    the heap held: freed NaNs (or text, read as huge floats) failed the build with "Encountered
    NaN.", other leftovers gave another model. Its memory is now zeroed: one model, always."""
    letters = "bcdfghjklmnpqrstvwxz"
    corpus = lemmatise([" ".join(f"{a}o{b}" for a in letters for b in letters[:5]) * 20])
    digests = set()
    for n, leftover in enumerate((np.nan, 1e30, 7.0, 0.0)):
        leave_on_the_heap(leftover)
        path = tmp_path / f"{n}.bin"
        train_fasttext(corpus, path, threads=1, dim=8, epoch=1, minCount=1, bucket=1_000)
        digests.add(hashlib.sha256(path.read_bytes()).hexdigest())
    assert len(digests) == 1


def test_a_fasttext_that_fails_to_train_is_a_build_error(tmp_path, monkeypatch):
    import fasttext

    def fail(path, **options):
        raise RuntimeError("Encountered NaN.")

    monkeypatch.setattr(fasttext, "train_unsupervised", fail)
    with pytest.raises(BuildError, match="Encountered NaN"):
        train_fasttext(lemmatise(["the ship sails on the sea " * 10]), tmp_path / "m.bin",
                                minCount=1)
    assert not list(tmp_path.iterdir())   # no training folder left behind


def test_fasttext_trains_on_every_core_and_the_cache_says_so_not_a_count(tmp_path, monkeypatch):
    """One thread took twice as long; its threads race (Hogwild), so two builds differ a little,
    and the cache records "every core", so a model moves between machines with its checksum
    (docs/decisions/0041-fasttext-on-every-core.md)."""
    import fasttext

    calls = []

    class Stop(Exception):
        pass

    def train(path, **options):
        calls.append(options)
        raise Stop

    monkeypatch.setattr(fasttext, "train_unsupervised", train)
    monkeypatch.setattr(os, "cpu_count", lambda: 6)
    corpus = lemmatise(["the ship sails on the sea " * 10])
    with pytest.raises(Stop):
        train_fasttext(corpus, tmp_path / "model.bin", minCount=1)
    assert calls[0]["thread"] == 6 and FASTTEXT_THREADS == "every core"


def write_vec(path: Path) -> Path:
    path.write_text("4 2\nSea 1 0\nocean 3 3\nship 0 2\ncar -1 0\n", encoding="utf-8")
    return path


def test_read_vec_keeps_the_top_words_and_the_wanted_ones(tmp_path):
    words, vectors = read_vec(write_vec(tmp_path / "v.vec"), wanted={"car"}, keep=2)
    assert words == ["sea", "ocean", "car"]                  # lower case; "ship" neither top 2 nor wanted
    np.testing.assert_allclose(vectors.astype(np.float32), [[1, 0], [0.70710677, 0.70710677], [-1, 0]],
                               atol=1e-3)


def test_fasttext_weights_from_a_vec(tmp_path):
    words, vectors = read_vec(write_vec(tmp_path / "v.vec"), wanted=())
    lookup = FastTextVectors(tmp_path / "v.vec", lambda: (words, vectors))
    hints = ("sea", "ship")
    table = FastTextTable(hints, lookup, lambda: lookup(hints)).finish(["ocean", "car"])
    cosine = np.array([[0.70710677, -1.0], [0.70710677, 0.0]])
    raw = np.maximum(cosine / 2 + 0.5 - 0.685, 0)
    np.testing.assert_allclose(table.matrix, raw / raw.max(), rtol=1e-3)
    assert table.columns(["unknown"]).sum() == 0            # a .vec has no subwords
    np.testing.assert_allclose(fasttext_transform(np.array([1.0, 0.37, -1.0])), [0.315, 0.0, 0.0], atol=1e-6)


# --- tables: double link and combinations ------------------------------------------------------------


def sparse_table(name: str, hints: tuple[str, ...], words: tuple[str, ...], dense: np.ndarray) -> SparseTable:
    """A table whose raw weights are a hand-made hints × words matrix."""
    lexicon = Lexicon(words, sparse.csc_matrix(dense.astype(np.float32)))
    return SparseTable(name, hints, lambda: lexicon)


def test_double_link_against_a_dense_reference():
    rng = np.random.default_rng(0)
    hints = ("a", "b", "c", "d")
    words = (*hints, "x", "y")
    dense = rng.random((4, 6)) * (rng.random((4, 6)) > 0.4)
    inner = sparse_table("inner", hints, words, dense)
    link = DoubleLinkTable("link", hints, inner).finish(["x", "y", "c"])
    inner_weights = dense.copy()
    inner_weights[np.arange(4), np.arange(4)] = 0      # a word is not its own mediator
    reference = np.zeros((4, 3))
    for a in range(4):
        for k, target in enumerate(("x", "y", "c")):
            c = words.index(target)
            length = np.linalg.norm(inner_weights[:, c])
            reference[a, k] = sum(inner_weights[a, b] * inner_weights[b, c] for b in range(4)) / length
    reference[hints.index("c"), 2] = 0                  # nor linked to itself
    np.testing.assert_allclose(link.matrix, reference / reference.max(), rtol=1e-5)
    assert link.matrix.max() == pytest.approx(1.0)


def test_double_link_keeps_each_hints_strongest_links(monkeypatch):
    monkeypatch.setattr(DoubleLinkTable, "LINKS", 2)
    monkeypatch.setattr(DoubleLinkTable, "CHUNK", 4)    # the strongest are kept across chunks
    rng = np.random.default_rng(1)
    hints = ("a", "b", "c", "d", "e", "f", "g")
    words = (*hints, "x", "y")
    dense = rng.random((7, 9))
    link = DoubleLinkTable("link", hints, sparse_table("inner", hints, words, dense)).finish(["x", "y"])
    inner = dense.copy()
    inner[np.arange(7), np.arange(7)] = 0                # a word is not its own mediator
    lengths = np.linalg.norm(inner[:, 7:], axis=0)
    reference = np.zeros((7, 2))
    for a in range(7):
        for b in np.argsort(-inner[a, :7])[:2]:          # a's two strongest links only
            reference[a] += inner[a, b] * inner[b, 7:] / lengths
    assert np.diff(link.hint_block().indptr).max() == 2
    np.testing.assert_allclose(link.matrix, reference / reference.max(), rtol=1e-5)
    # A hint read on its own (as one outside the vocabulary is) keeps the same links.
    np.testing.assert_allclose(link.raw_row("a", ["x", "y"]), reference[0], rtol=1e-5)


def test_double_link_does_not_let_a_hub_top_every_row():
    hints = ("a", "b", "c", "d")
    words = (*hints, "hub", "x")
    dense = np.zeros((4, 6))
    dense[0, 1] = 1.0            # a → b
    dense[:, 4] = 0.9            # every hint → hub
    dense[1, 5] = 0.8            # b → x only
    link = DoubleLinkTable("link", hints, sparse_table("inner", hints, words, dense)).finish(["hub", "x"])
    # Unnormalised, a reaches the hub (1·0.9) before x (1·0.8) through b; x's links point at b alone.
    hub, x = link.matrix[0]
    assert x > hub > 0


class Fixed(Table):
    """A table that knows a fixed set of columns; other words are not covered."""

    def __init__(self, name, hints, columns):
        self.name, self.hints, self.known = name, hints, columns

    def raw_columns(self, words):
        return np.array([self.known.get(w, [0.0] * len(self.hints)) for w in words], np.float32).T.reshape(
            len(self.hints), len(words))

    def raw_row(self, hint, words):
        return np.zeros(len(words), np.float32)


def test_combined_is_a_weighted_sum_renormalised_over_covering_parts():
    hints = ("h1", "h2")
    one = Fixed("one", hints, {"p": [1.0, 0.5], "q": [0.5, 0.0]}).finish(["p", "q"])
    two = Fixed("two", hints, {"p": [0.0, 1.0], "r": [0.25, 0.5]}).finish(["p", "r"])
    sbert = Fixed("sbert", hints, {"s": [0.2, 0.4], "p": [1, 1]}).finish(["s"])
    combined = CombinedTable("c", hints, [(one, 1.0), (two, 3.0)], fallback=lambda: sbert)
    combined.finish(["p", "q", "r", "s"])
    # Column masses (mean column sum): one (1.5 + 0.5) / 2 = 1; two (1 + 0.75) / 2 = 0.875;
    # sbert, max-normalised by its 0.4: 0.5 + 1 = 1.5. A full column weighs 1·1 + 3·0.875.
    assert combined.masses()["columns"] == pytest.approx([1.0, 0.875])
    full = 1 * 1.0 + 3 * 0.875
    raw = np.array([
        # p: both parts, the plain weighted sum; q: one only; r: two only; s: nobody, the fallback
        [1 * 1.0 + 3 * 0.0, 0.5 * full / 1.0, 3 * 0.25 * full / (3 * 0.875), 0.5 * full / 1.5],
        [1 * 0.5 + 3 * 1.0, 0.0 * full / 1.0, 3 * 0.50 * full / (3 * 0.875), 1.0 * full / 1.5]])
    np.testing.assert_allclose(combined.matrix, raw / raw.max(), rtol=1e-6)
    outer = CombinedTable("outer", hints, [(combined, 1.0), (one, 1.0)]).finish(["p"])  # nested
    nested = raw[:, 0] / raw.max() + [1.0, 0.5]
    np.testing.assert_allclose(outer.matrix[:, 0], nested / nested.max(), rtol=1e-6)


def test_tables_weigh_any_word_without_raising():
    hints = ("sea", "ship")
    table = sparse_table("t", hints, ("ocean",), np.array([[1.0], [0.5]])).finish(["ocean"])
    for word in ["", "  ", "Ocean", "ice cream", "ünïcödé", "123", "a-b"]:
        assert table.columns([word]).shape == (2, 1)
        assert table.row(word, ["ocean", word]).shape == (2,)
    np.testing.assert_allclose(table.columns(["OCEAN "])[:, 0], [1.0, 0.5])


# --- the catalog: sources, caches, the recipe ---------------------------------------------------------


def make_sources(root: Path) -> Path:
    """A sources folder with tiny USF, EAT and corpus files."""
    write_usf(root / "usf", [usf_row("OCEAN", "SEA", ".300", ".0100"),
                             usf_row("SEA", "OCEAN", ".200", ".0200"),
                             usf_row("SHIP", "BOAT", ".500", "\u00a5"),
                             usf_row("WAVE", "OCEAN", ".100", ".0000")])
    write_eat(root / "eat")
    (root / "corpus").mkdir()
    text = "The ship sailed the ocean. Waves on the sea and the ocean. A boat on the sea. " * 5
    (root / "corpus" / "book.txt.gz").write_bytes(gzip.compress(text.encode()))
    return root


HINTS5 = ("sea", "ocean", "boat", "wave", "water", "ship")
WORDS5 = ("ocean", "ship")


def catalog(tmp_path: Path, say=None, **kwargs) -> Catalog:
    settings = Settings(tmp_path / "sources", tmp_path / "cache", hints=HINTS5, words=WORDS5, **kwargs)
    return Catalog(settings) if say is None else Catalog(settings, say)


def test_missing_sources_are_left_out_with_one_line_each(tmp_path):
    (tmp_path / "sources").mkdir()
    empty = catalog(tmp_path)
    assert empty.missing("association").startswith("no USF free association norms in")
    assert "http://w3.usf.edu/FreeAssociation/" in empty.missing("association")
    assert "gutenberg.org" in empty.missing("word_collocations")
    assert empty.missing("sbert") is None
    assert empty.default() == "sbert"
    lines = empty.report_missing("combined")
    assert len(lines) == 3                      # the corpus, USF and EAT; SBERT is there
    assert lines[0].startswith("word_collocations, sentence_collocations, fasttext left out: no text corpus")
    assert lines[2].startswith("eat left out: no Edinburgh Associative Thesaurus")
    write_usf(tmp_path / "sources" / "usf", [usf_row("OCEAN", "SEA", ".3", ".01")])
    some = catalog(tmp_path)
    assert some.default() == "combined" and some.missing("direct") is None
    assert datasets.availability(sources=tmp_path / "sources")["association"] is None


def test_association_weights_are_built_cached_and_reused(tmp_path):
    make_sources(tmp_path / "sources")
    weights = catalog(tmp_path).weights("association")
    ocean = weights.matrix[:, WORDS5.index("ocean")]
    raw = {"sea": 0.3 + 0.01 + 0.2 + 0.02, "wave": 0.1}
    assert ocean[HINTS5.index("sea")] == pytest.approx(1.0)  # the largest value of the matrix
    assert ocean[HINTS5.index("wave")] == pytest.approx(raw["wave"] / raw["sea"])
    assert weights.matrix[HINTS5.index("boat"), WORDS5.index("ship")] == pytest.approx(0.5 / raw["sea"])
    meta = json.loads(sidecar(tmp_path / "cache" / "association.npy").read_text())
    assert meta["sources"][0]["path"] == "usf/A-B.txt" and len(meta["sources"][0]["sha256"]) == 64
    assert meta["hints"] and meta["words"] and meta["params"] == {}


def test_cache_is_trusted_when_fresh_and_rebuilt_with_a_reason_when_not(tmp_path, monkeypatch, capsys):
    sources = make_sources(tmp_path / "sources")
    first = catalog(tmp_path).weights("association").matrix
    calls = []
    real_build = Builders.build
    monkeypatch.setattr(Builders, "build", lambda self, name, parts: calls.append(name) or
                        real_build(self, name, parts))

    assert np.array_equal(catalog(tmp_path).weights("association").matrix, first) and calls == []

    usf_file = sources / "usf" / "A-B.txt"
    os.utime(usf_file, ns=(1, 1))                       # touched, same bytes: still fresh
    catalog(tmp_path).weights("association")
    assert calls == []

    write_usf(sources / "usf", [usf_row("OCEAN", "SEA", ".900", ".0100")])
    catalog(tmp_path).weights("association")
    assert calls == ["association"]
    assert "association: rebuilding the cache: source file usf/A-B.txt changed" in capsys.readouterr().err

    path = tmp_path / "cache" / "association.npy"
    path.write_bytes(path.read_bytes()[:-8])            # truncated
    catalog(tmp_path).weights("association")
    assert calls == ["association"] * 2
    assert "checksum mismatch" in capsys.readouterr().err

    # Other hints: its backoff, fastText, loaded with it, is rebuilt too.
    Catalog(Settings(sources, tmp_path / "cache", hints=HINTS5[:3], words=WORDS5)).weights("association")
    assert calls == ["association"] * 3 + ["fasttext"] and "hints changed" in capsys.readouterr().err

    catalog(tmp_path, rebuild=["association"]).weights("association")     # (the first hints again)
    assert calls[4:] == ["association", "fasttext"]


def test_an_interrupted_write_keeps_the_old_cache(tmp_path, monkeypatch):
    make_sources(tmp_path / "sources")
    catalog(tmp_path).weights("association")
    cache = tmp_path / "cache"
    before = {p.name: p.read_bytes() for p in cache.iterdir()}

    def crash(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(np, "save", crash)
    with pytest.raises(KeyboardInterrupt):
        catalog(tmp_path, rebuild=["association"]).weights("association")
    after = {p.name: p.read_bytes() for p in cache.iterdir()}
    assert not [n for n in after if n.endswith(".tmp")]            # no temporary left behind
    monkeypatch.undo()
    # Either the old cache is intact, or its sidecar is gone and it is rebuilt: never trusted half-written.
    if "association.json" in after:
        assert after["association.npy"] == before["association.npy"]
    assert np.array_equal(catalog(tmp_path).weights("association").matrix,
                          np.load(io_bytes(before["association.npy"])))


def io_bytes(data: bytes):
    import io

    return io.BytesIO(data)


def test_a_corrupt_extra_file_is_rebuilt_when_a_new_word_needs_it(tmp_path, capsys):
    make_sources(tmp_path / "sources")
    catalog(tmp_path).weights("association")
    extra = tmp_path / "cache" / "association.extra.npz"
    extra.write_bytes(b"junk")
    weights = catalog(tmp_path).weights("association")
    weights.add_words(["sea"])
    assert weights.board_matrix(["sea"])[HINTS5.index("ocean"), 0] > 0
    assert "association: rebuilding the cache" in capsys.readouterr().err


def test_combined_recipe_over_the_available_sources(tmp_path):
    make_sources(tmp_path / "sources")
    vec = write_vec(tmp_path / "v.vec")
    cat = catalog(tmp_path, fasttext_model=vec)
    weights = cat.weights()
    assert weights.name == "combined"
    assert weights.matrix.shape == (len(HINTS5), len(WORDS5))
    assert weights.matrix.max() == pytest.approx(1.0) and weights.matrix.min() >= 0
    direct = cat.table("direct")
    assert {t.name: w for t, w in direct.parts} == datasets.COMBINED["direct"]   # every part built
    assert {"eat", "sbert"} <= {t.name for t, _ in direct.parts}
    # the top hint for OCEAN is SEA
    assert HINTS5[int(weights.matrix[:, 0].argmax())] == "sea"
    # a second catalog reads every part from cache; rebuilding fastText makes the combination stale
    again = catalog(tmp_path, fasttext_model=vec).weights()
    np.testing.assert_allclose(again.matrix, weights.matrix)


def test_on_demand_columns_and_out_of_vocabulary_hints(tmp_path):
    make_sources(tmp_path / "sources")
    vec = write_vec(tmp_path / "v.vec")
    weights = catalog(tmp_path, fasttext_model=vec).weights()
    weights.add_words(["sea", "wave", "car", "", "zeppelin"])           # any word, never an error
    sea = weights.board_matrix(["sea"])[:, 0]
    assert sea[HINTS5.index("ocean")] > 0 and sea[HINTS5.index("sea")] == 0
    assert weights.board_matrix(["car"]).max() > 0                     # only the .vec knows "car"
    row = weights.hint_row("pacific", ["ocean", "ship"])                # known to no part:
    assert row[0] > row[1] > 0                                          # SBERT's row stands in
    row = weights.hint_row("car", ["ocean", "ship"])                     # in the .vec only
    assert row.shape == (2,) and row[1] >= 0
    assert weights.hint_row("", ["ocean"]).tolist() == [0.0]


def test_sparse_matrices_back_off_to_fasttext_and_the_others_to_sbert(tmp_path):
    make_sources(tmp_path / "sources")
    cat = catalog(tmp_path, fasttext_model=write_vec(tmp_path / "v.vec"))
    association, fasttext, sbert = (cat.weights(n) for n in ("association", "fasttext", "sbert"))
    assert association.backoff is fasttext and fasttext.backoff is sbert and sbert.backoff is None
    assert cat.weights("combined").backoff is sbert and cat.weights("eat").backoff is fasttext
    assert cat.weights("association") is association                    # one per name
    assert association.reads() == {"association", "fasttext", "sbert"}
    silent = next(i for i, h in enumerate(HINTS5) if not association.matrix[i].any()
                  and fasttext.matrix[i].any())
    np.testing.assert_allclose(association.hint_row(HINTS5[silent], WORDS5),
                               fasttext.hint_row(HINTS5[silent], WORDS5))
    assert not association.own_row(HINTS5[silent], WORDS5).any()


def test_without_a_corpus_sparse_matrices_back_off_to_sbert(tmp_path):
    write_usf(tmp_path / "sources" / "usf", [usf_row("OCEAN", "SEA", ".300", ".0100")])
    cat = catalog(tmp_path)
    assert cat.missing("fasttext") is not None
    assert cat.weights("association").backoff is cat.weights("sbert")


def test_the_catalog_asks_each_initializer_for_its_matrix_once(tmp_path, monkeypatch):
    make_sources(tmp_path / "sources")
    vec = write_vec(tmp_path / "v.vec")
    asked = []
    def answered(real):   # the table a step gave: one ask, whether it came from the cache or a build
        def step(self, name, *rest):
            table = real(self, name, *rest)
            asked.append(name)
            return table
        return step

    for step in ("restore", "build"):
        monkeypatch.setattr(Builders, step, answered(getattr(Builders, step)))
    for module, function in ((initializers.builders, "sbert_table"),
                             (initializers.availability, "sbert_available")):
        real = getattr(module, function)
        monkeypatch.setattr(module, function, lambda *args, real=real, function=function,
                            **options: asked.append(function) or real(*args, **options))

    for _ in range(2):   # a first build, then every table from its cache
        asked.clear()
        datasets.load_with_partners(None, sources=tmp_path / "sources", cache_dir=tmp_path / "cache",
                                    hints=HINTS5, words=WORDS5, fasttext_model=vec)
        assert sorted(asked) == sorted([*(n for n in datasets.INITIALIZERS if n != "sbert"),
                                        "sbert_table", "sbert_available"])


def test_partners_are_every_other_available_matrix_from_one_catalog(tmp_path):
    make_sources(tmp_path / "sources")
    vec = write_vec(tmp_path / "v.vec")
    weights, partners = datasets.load_with_partners(
        None, sources=tmp_path / "sources", cache_dir=tmp_path / "cache", hints=HINTS5, words=WORDS5,
        fasttext_model=vec)
    assert weights.name == "combined"
    assert [p.name for p in partners] == [n for n in datasets.INITIALIZERS if n != "combined"]
    sbert, fasttext = partners[0], partners[3]
    assert fasttext.name == "fasttext" and weights.backoff is sbert
    assert all(p.backoff is (fasttext if p.name in SPARSE_BACKOFF else sbert)
               for p in partners[1:])


def test_unknown_initializer_and_missing_source_errors(tmp_path):
    (tmp_path / "sources").mkdir()
    with pytest.raises(ValueError, match="unknown initializer 'nope'"):
        catalog(tmp_path, rebuild=["nope"])
    with pytest.raises(datasets.MissingSource, match="association: no USF"):
        catalog(tmp_path).weights("association")
    assert canonical("Sentence-Collocations") == "sentence_collocations"


def test_recipe_names_are_consistent():
    for name, parts in datasets.COMBINED.items():
        assert all(p in datasets.INITIALIZERS for p in parts), name
    assert datasets.DEFAULT_INITIALIZER in datasets.INITIALIZERS
    assert isinstance(initializers.corpus.Corpus(("a",), np.array([0], np.int32)).frequencies(), np.ndarray)


def test_missing_usf_parts_are_named_under_either_naming():
    shared = [Path(f"{part}.txt") for part in USF_PARTS]
    site = [Path(f"Cue_Target_Pairs.{part}") for part in USF_PARTS]
    assert usf_parts_missing(shared) == [] == usf_parts_missing(site)
    assert usf_parts_missing(shared[:1] + shared[2:]) == ["C"]
    assert usf_parts_missing(site[:-1]) == ["T-Z"]
    assert usf_parts_missing([Path("my_norms.txt")]) == []     # other names: no guess


def test_a_problem_found_while_building_is_repeated_when_the_cache_is_used(tmp_path, capsys):
    sources = make_sources(tmp_path / "sources")
    (sources / "corpus" / "broken.txt.gz").write_bytes(b"\x1f\x8b not gzip")
    catalog(tmp_path).weights("word_collocations")
    assert "corpus: skipped broken.txt.gz is not a readable gzip file" in capsys.readouterr().err
    catalog(tmp_path).weights("sentence_collocations")      # the corpus comes from its cache
    assert "broken.txt.gz" in capsys.readouterr().err
    catalog(tmp_path).weights("word_collocations")          # the matrix comes from its cache
    assert "broken.txt.gz" in capsys.readouterr().err


# --- progress bars ----------------------------------------------------------------------------------


class Terminal(io.StringIO):
    """A stderr that a person watches."""

    def isatty(self) -> bool:
        return True


class Encoder:
    def get_sentence_embedding_dimension(self) -> int:
        return 4

    def encode(self, texts, **options) -> np.ndarray:
        return np.ones((len(texts), 4), dtype=np.float32)


@pytest.mark.parametrize("terminal", [True, False], ids=["terminal", "pipe"])
def test_progress_bars_are_drawn_on_a_terminal_only(monkeypatch, terminal):
    stderr = Terminal() if terminal else io.StringIO()
    monkeypatch.setattr(sys, "stderr", stderr)
    monkeypatch.setattr(initializers.sbert, "load_sbert", lambda model: Encoder())
    initializers.sbert.encode_with_progress(["sea", "ship"], "any")
    lemmatise(["the ship sails on the sea"])
    drawn = stderr.getvalue()
    assert ("sbert: encoding words" in drawn and "corpus: lemmatising" in drawn) if terminal else drawn == ""


def test_every_bar_goes_through_the_one_helper():
    root = Path(__file__).resolve().parent.parent
    sources = [p for p in (*root.glob("*.py"), *root.glob("models/*.py"), *root.glob("lab/benchmarks/*.py"))]
    makes_bars = re.compile(r"\btqdm\(|from tqdm|import tqdm")
    assert [p.name for p in sources if makes_bars.search(p.read_text(encoding="utf-8"))] == []


def test_a_game_without_datasets_says_so_in_one_short_line(tmp_path):
    # Issues 43 and 69: a launch with no sources printed three long lines every time (games, serve,
    # duet), a folder made for them but empty too.
    empty = catalog(tmp_path)
    assert empty.missing_sources("combined") == ["usf", "eat", "corpus"]
    assert empty.missing_sources("eat") == ["eat"] and empty.missing_sources("sbert") == []
    line = ("No datasets: the AI plays on SBERT and WordNet alone (python main.py datasets download "
            f"--sources {tmp_path / 'sources'} adds them).")
    assert datasets.missing_notice(empty, "combined") == [line]
    assert len(line.replace(f" --sources {tmp_path / 'sources'}", "")) <= 100   # short: the default folder's
    assert datasets.missing_notice(empty, "sbert") == []
    (tmp_path / "sources" / "corpus").mkdir(parents=True)   # made, but still empty
    assert datasets.missing_notice(catalog(tmp_path), "combined") == [line]
    make_sources(tmp_path / "setting_up")   # a user setting up datasets is told what each one needs
    shutil.rmtree(tmp_path / "setting_up" / "eat")
    settings = Settings(tmp_path / "setting_up", tmp_path / "cache", hints=HINTS5, words=WORDS5)
    [missing] = datasets.missing_notice(Catalog(settings), "combined")
    assert missing.startswith("eat left out: no Edinburgh Associative Thesaurus in")


def test_the_first_corpus_build_says_how_long_it_takes(tmp_path):
    corpus_dir = tmp_path / "sources" / "corpus"
    corpus_dir.mkdir(parents=True)
    (corpus_dir / "book.txt").write_text("The ship sailed the sea. " * 50)
    said = []
    catalog(tmp_path, say=said.append).corpus()
    assert said[0].startswith("corpus: reading 1 file; a first build of the matrices made from them "
                              f"takes {BUILD_TIME}, once")
    said.clear()
    catalog(tmp_path, say=said.append).corpus()   # from the cache: nothing to wait for
    assert said == []


def test_fasttext_training_counts_its_time_on_a_terminal(tmp_path, monkeypatch, capsys):
    """Issue 40: on one thread fastText printed nothing for the 4-5 minutes of a real build."""
    import common
    import support.console

    monkeypatch.setattr(support.console, "on_terminal", lambda: True)
    corpus = lemmatise([" ".join(f"{a}o{b}" for a in "bcdfghjklm" for b in "bcdfg") * 20])
    with common.ticking("slow work", every=0.01):
        time.sleep(0.05)
    train_fasttext(corpus, tmp_path / "model.bin", dim=8, epoch=1, minCount=1, bucket=1_000)
    err = capsys.readouterr().err
    assert re.search(r"slow work for 00:00", err)
    assert re.search(r"fasttext: training for \d\d:\d\d", err)
