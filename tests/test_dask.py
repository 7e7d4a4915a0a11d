"""Dask distributed (support/cluster.py): counting the corpus by partitions gives today's counts exactly,
on an in-process cluster as in this process; the slow test checks it on the shared corpus."""

from __future__ import annotations

import dataclasses
import gzip
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from initializers.catalog import Catalog
from initializers.corpus import (
    SENTENCE_END,
    Corpus,
    lemmatise,
    neighbour_counts,
    partitions,
    sentence_counts,
)
from initializers.partitioned import partitioned_counts
from initializers.settings import Settings
from support import cluster

HINTS = ("sea", "ocean", "boat", "wave", "ship", "storm")
TEXT = ("The ship sailed the ocean. Waves on the sea and the ocean!\n\nA boat on the sea sea. "
        "Storm storm ship wave boat ocean sea. ") * 7


def same(a, b) -> bool:
    """Two sparse count matrices with one shape, one dtype and the same entries."""
    return a.shape == b.shape and a.dtype == b.dtype and (a != b).nnz == 0


def random_corpus(codes: list[int], lexicon: int = 8) -> Corpus:
    """A corpus of lemma ids 0..lexicon-1 and SENTENCE_END (-1)."""
    return Corpus(tuple(f"w{i}" for i in range(lexicon)), np.array(codes, dtype=np.int32))


CODES = st.lists(st.integers(min_value=-1, max_value=7), max_size=120)


@settings(max_examples=60, deadline=None)
@given(codes=CODES, size=st.integers(min_value=1, max_value=40))
def test_partitions_cover_the_corpus_and_cut_only_after_a_sentence_end(codes, size):
    tokens = np.array(codes, dtype=np.int32)
    bounds = partitions(tokens, size)
    starts, ends = [a for a, _ in bounds], [b for _, b in bounds]
    assert starts == [0, *ends[:-1]][:len(bounds)]
    assert (ends[-1] if bounds else 0) == len(tokens)
    assert all(a < b for a, b in bounds)
    assert all(tokens[b - 1] == SENTENCE_END for _, b in bounds[:-1])


@settings(max_examples=60, deadline=None)
@given(codes=CODES, size=st.integers(min_value=1, max_value=40))
def test_counts_by_partitions_equal_the_counts_of_the_whole(codes, size):
    corpus, hints = random_corpus(codes), ("w1", "w2", "w5", "none")
    assert same(partitioned_counts(corpus, hints, "neighbour", size=size), neighbour_counts(corpus, hints))
    assert same(partitioned_counts(corpus, hints, "sentence", size=size), sentence_counts(corpus, hints))


@pytest.fixture(scope="module")
def in_process():
    """A Dask client on a cluster of two worker threads in this process."""
    with cluster.client(workers=2, processes=False) as connection:
        yield connection


def test_a_tiny_count_on_an_in_process_cluster_equals_the_local_count(in_process):
    corpus = lemmatise([TEXT])
    for kind, count in (("neighbour", neighbour_counts), ("sentence", sentence_counts)):
        local = count(corpus, HINTS)
        assert local.nnz
        for size in (5, 40, 10_000):
            assert same(partitioned_counts(corpus, HINTS, kind, in_process, size=size), local), (kind, size)


def write_corpus(root: Path) -> Path:
    (root / "corpus").mkdir(parents=True)
    (root / "corpus" / "book.txt.gz").write_bytes(gzip.compress(TEXT.encode()))
    return root


def test_a_rebuild_sent_to_a_scheduler_caches_the_same_matrices(tmp_path, in_process):
    sources = write_corpus(tmp_path / "sources")
    names = ("word_collocations", "sentence_collocations")
    here = Catalog(Settings(sources, tmp_path / "here", hints=HINTS, words=("ocean", "ship")))
    there = Catalog(Settings(sources, tmp_path / "there", hints=HINTS, words=("ocean", "ship"),
                             scheduler=in_process.scheduler.address, rebuild=names))
    for name in names:
        np.testing.assert_array_equal(there.table(name).matrix, here.table(name).matrix)
        npy = f"{name}.npy"
        assert (tmp_path / "there" / npy).read_bytes() == (tmp_path / "here" / npy).read_bytes()


def test_without_dask_a_rebuild_counts_here_after_one_line(tmp_path, monkeypatch):
    def missing():
        raise cluster.ClusterUnavailable(cluster.MISSING)
    monkeypatch.setattr(cluster, "_distributed", missing)
    said = []
    catalog = Catalog(Settings(write_corpus(tmp_path / "sources"), tmp_path / "cache", hints=HINTS,
                               words=("ocean", "ship"), scheduler="tcp://127.0.0.1:8786"), say=said.append)
    assert catalog.table("word_collocations").matrix.any()
    assert [line for line in said if "dask" in line] == [f"{cluster.MISSING}; counting in this process"]


def test_the_scheduler_flag_wins_over_the_environment(monkeypatch):
    monkeypatch.setenv(cluster.SCHEDULER_ENV, "tcp://elsewhere:8786")
    assert cluster.scheduler_address("tcp://here:8786") == "tcp://here:8786"
    assert cluster.scheduler_address(None) == "tcp://elsewhere:8786"
    monkeypatch.delenv(cluster.SCHEDULER_ENV)
    assert cluster.scheduler_address(None) is None


@pytest.mark.slow
def test_the_shared_corpus_counted_by_partitions_on_a_cluster_equals_todays(shared_datasets, in_process):
    from common import hint_words
    from initializers.readers import read_corpus
    from initializers.sources import SOURCES

    corpus = lemmatise(read_corpus(SOURCES["corpus"].files(shared_datasets), lambda problem: None))
    hints = hint_words()
    for kind, count in (("neighbour", neighbour_counts), ("sentence", sentence_counts)):
        assert same(partitioned_counts(corpus, hints, kind, in_process), count(corpus, hints)), kind


# --- the bench on Dask -----------------------------------------------------------------------------


def tiny_setup(seeds: list[int]):
    """Two small random matrices, two captains, two agents, and a reference team for duels."""
    import model
    from lab.evaluation.runner import Setup
    from lab.evaluation.specs import Spec
    from model import Weights

    rng = np.random.default_rng(3)
    letters = np.array(list("bcdfghjklmnpqrstvwxz"))
    hints = list(dict.fromkeys("".join(rng.choice(letters, 7)) for _ in range(300)))
    words = list(dict.fromkeys("".join(rng.choice(letters, 4)) for _ in range(40)))
    base = rng.random((len(hints), len(words))) ** 3
    made = {}
    for noise, name in enumerate(("tinya", "tinyb")):
        m = np.clip(base + 0.15 * np.random.default_rng(noise).random(base.shape), 0, None)
        made[name] = Weights(name, tuple(hints), tuple(words), (m / m.max()).astype(np.float32))
    captains, agents = list(model.CAPTAINS)[:2], list(model.AGENTS)[:2]
    setup = Setup(made, [Spec(c, i) for c in captains for i in made],
                  [Spec(a, i) for a in agents for i in made], seeds, words)
    setup.reference = (Spec(captains[0], "tinya"), Spec(agents[0], "tinya"))
    return setup


def played(results: dict) -> dict:
    """Each item's games without their timings."""
    def game(g):
        fields = dataclasses.asdict(g)
        return {k: v for k, v in fields.items() if not k.endswith("_seconds")}
    return {item: [game(g) for g in games] for item, games in results.items()}


def test_a_tiny_bench_on_an_in_process_cluster_plays_the_local_games(in_process):
    from lab.evaluation.executor import DaskExecutor
    from lab.evaluation.runner import run_duels, run_solo

    setup = tiny_setup([5, 6, 7])
    here = played(run_solo(setup)), played(run_duels(setup))
    on_dask = DaskExecutor(in_process)
    assert (played(run_solo(setup, jobs=on_dask)), played(run_duels(setup, jobs=on_dask))) == here
    assert list(run_solo(setup, jobs=on_dask)) == list(here[0])     # items in the local order
    one = dataclasses.replace(setup, captains=setup.captains[:1], agents=setup.agents[:1])   # runs of seeds
    assert played(run_solo(one, jobs=on_dask)) == played(run_solo(one))


def test_seed_runs_keep_every_seed_once_in_order():
    from lab.evaluation.executor import seed_runs

    for n in range(0, 9):
        for parts in range(1, 12):
            runs = seed_runs(list(range(n)), parts)
            assert [s for run in runs for s in run] == list(range(n))
            assert len(runs) == max(1, min(parts, n)) and max(map(len, runs)) - min(map(len, runs)) <= 1


def test_the_matrices_travel_once_per_worker_not_once_per_game(in_process):
    from lab.evaluation.executor import DaskExecutor
    from lab.evaluation.runner import run_duels, run_solo

    setup, on_dask = tiny_setup([1, 2]), DaskExecutor(in_process)
    scattered = []
    scatter = in_process.scatter
    in_process.scatter = lambda data, **options: scattered.append(options) or scatter(data, **options)
    try:
        run_solo(setup, jobs=on_dask)
        run_duels(setup, jobs=on_dask)
    finally:
        in_process.scatter = scatter
    assert scattered == [{"broadcast": True, "hash": False}]


def test_without_dask_the_bench_plays_here_after_one_line(monkeypatch, capsys):
    from lab.evaluation.executor import Executor, executor

    def missing():
        raise cluster.ClusterUnavailable(cluster.MISSING)
    monkeypatch.setattr(cluster, "_distributed", missing)
    with executor(jobs=2) as games:
        assert type(games) is Executor
    assert capsys.readouterr().err == f"bench: {cluster.MISSING}; playing in this process\n"
