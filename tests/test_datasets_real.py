"""Every initializer built from the real datasets in ../shared/datasets (slow: trains fastText).

    python -m pytest -m slow tests/test_datasets_real.py

The caches go to a temporary folder, never data/cache. To reuse a finished build
between runs, point CODENAMES_SLOW_CACHE at a folder of your choice.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

import datasets
import initializers.builders
from datasets import INITIALIZERS, Catalog, Settings

pytestmark = pytest.mark.slow

UNSEEN = ("harbour", "tornado", "wizard", "penguin", "lantern", "submarine", "lighthouse", "meteor",
          "dragonfly", "igloo", "jellyfish", "saxophone", "zeppelin", "quasar", "kazoo")


_BUILT: dict[Path, Catalog] = {}   # one build for the whole module


@pytest.fixture
def built(shared_datasets, tmp_path_factory) -> Catalog:
    """A catalog over the real datasets with every initializer built (or loaded from CODENAMES_SLOW_CACHE)."""
    if shared_datasets not in _BUILT:
        cache = Path(os.environ.get("CODENAMES_SLOW_CACHE") or tmp_path_factory.mktemp("cache"))
        catalog = Catalog(Settings(shared_datasets, cache))
        assert all(reason is None for reason in catalog.available().values()), catalog.available()
        for name in INITIALIZERS:
            catalog.table(name)
        _BUILT[shared_datasets] = catalog
    return _BUILT[shared_datasets]


def test_the_readers_see_the_whole_datasets(shared_datasets):
    usf = list(datasets.read_usf(datasets.SOURCES["usf"].files(shared_datasets)))
    assert len(usf) == 72_176                                   # every data row, no header
    assert sum(pair.cue == "cue" for pair in usf) > 10          # the real cue "CUE" is read
    assert sum(pair.mediated is None for pair in usf) == 8_557  # ¥ in MSG for the not-normed targets
    eat = list(datasets.read_eat(datasets.SOURCES["eat"].files(shared_datasets)))
    assert 300_000 < len(eat) < 325_593                         # truncated and empty labels skipped
    assert {pair.cue for pair in eat} >= {"ocean", "sea"}


def test_every_matrix_has_the_right_shape_range_and_density(built):
    for name in INITIALIZERS:
        weights = built.weights(name)
        matrix = weights.matrix
        assert matrix.shape == (len(built.hints), len(built.words)), name
        assert matrix.dtype == np.float32, name
        assert matrix.min() >= 0 and matrix.max() == pytest.approx(1.0), name
        density = float((matrix > 0).mean())
        assert density > 0.001, (name, density)
        assert (matrix > 0).any(axis=0).mean() > 0.9, name       # nearly every card has some hint


@pytest.mark.parametrize("name", ["association", "eat", "direct", "combined"])
def test_ocean_brings_sea_or_water_to_mind(built, name):
    weights = built.weights(name)
    column = weights.matrix[:, weights.words.index("ocean")]
    top = {weights.hints[i] for i in np.argsort(-column)[:10]}
    assert top & {"sea", "water"}, (name, sorted(top))


def test_corpus_initializers_know_their_neighbours(built):
    for name in ("word_collocations", "sentence_collocations", "fasttext"):
        weights = built.weights(name)
        column = weights.matrix[:, weights.words.index("ocean")]
        top = {weights.hints[i] for i in np.argsort(-column)[:15]}
        assert top & {"sea", "water", "wave", "pacific", "atlantic"}, (name, sorted(top))


def test_the_corpus_knows_magic_carpet(built):
    """Issue 40: MAGIC 1 meant CARPET, and HAMMER was the assassin. WordNet's phrases have no
    "magic carpet" (tests/test_phrases.py); the books' neighbour counts have."""
    weights = built.weights("word_collocations").without_backoff()
    carpet, hammer = weights.hint_row("magic", ["carpet", "hammer"])
    assert carpet > 0.3 and hammer == 0


def test_unseen_board_words_and_unknown_hints_on_real_data(built):
    weights = built.weights("combined")
    weights.add_words(list(UNSEEN))
    harbour = weights.board_matrix(["harbour"])[:, 0]
    top = {weights.hints[i] for i in np.argsort(-harbour)[:10]}
    assert top & {"ship", "sea", "port", "boat", "shore", "coast"}, sorted(top)
    board = weights.board_matrix(list(UNSEEN))
    assert board.max() <= 1 and (board > 0).any(axis=0).all()   # every unseen word gets a column
    row = weights.hint_row("snorkel", list(UNSEEN))             # not in the hint vocabulary
    assert UNSEEN[int(row.argmax())] in {"jellyfish", "submarine", "harbour"}


def test_a_second_launch_reads_every_cache(built, monkeypatch):
    def no_build(*args, **kwargs):
        raise AssertionError("a fresh cache was rebuilt")

    monkeypatch.setattr(initializers.builders.Builders, "build", no_build)
    monkeypatch.setattr(initializers.builders, "train_fasttext", no_build)
    again = Catalog(Settings(built.sources, built.cache_dir))
    for name in INITIALIZERS:   # tables: a catalog's weights may have grown columns for new words
        np.testing.assert_array_equal(again.table(name).matrix, built.table(name).matrix)
