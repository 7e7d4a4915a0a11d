"""The corpus matrices built in the background: the game plays at once on what is quick, a build
killed midway loses nothing and the next start goes on, a second start starts no second build,
and the matrices join the next game."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from test_datasets import HINTS5, WORDS5, make_sources, write_vec

import datasets
from initializers import background
from initializers.catalog import Catalog
from initializers.settings import Settings


@pytest.fixture
def settings(tmp_path) -> Settings:
    make_sources(tmp_path / "sources")
    return Settings(tmp_path / "sources", tmp_path / "cache", hints=HINTS5, words=WORDS5,
                    fasttext_model=write_vec(tmp_path / "v.vec"), background=True)


def wait_for(done, seconds: float = 120.0) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def built(settings: Settings, name: str) -> Path:
    return Path(settings.cache_dir) / f"{name}.npy"


def test_the_game_plays_at_once_and_the_corpus_matrices_join_the_next_game(settings, capsys):
    weights, partners = datasets.load_with_partners(settings=settings)
    err = capsys.readouterr().err
    assert weights.name == "sbert" and {"association", "eat"} <= {p.name for p in partners}
    assert not {"combined", "fasttext", "word_collocations"} & {p.name for p in partners}
    assert ("6 matrices (word_collocations, sentence_collocations, fasttext, double_link, direct, combined) "
            "are being built in the background") in err
    assert "being built in the background (0 of 6 done" in err and "build.log" in err
    wait_for(lambda: built(settings, "combined").exists() and background.status(settings.cache_dir) is None)

    weights, partners = datasets.load_with_partners(settings=settings)
    assert weights.name == "combined" and "fasttext" in {p.name for p in partners}
    joined = "word_collocations, sentence_collocations, fasttext, double_link, direct, combined"
    assert f"joined the AI ({joined})" in capsys.readouterr().err
    datasets.load_with_partners(settings=settings)   # said once
    assert "joined" not in capsys.readouterr().err


def test_without_books_the_line_names_what_the_build_makes_and_the_finished_child_is_reaped(tmp_path, capsys):
    import shutil

    shutil.rmtree(make_sources(tmp_path / "sources") / "corpus")   # the norms alone: no books
    settings = Settings(tmp_path / "sources", tmp_path / "cache", hints=HINTS5, words=WORDS5, background=True)
    datasets.load_with_partners(settings=settings)
    err = capsys.readouterr().err
    line = next(line for line in err.splitlines() if "being built" in line)
    assert line.startswith("3 matrices (double_link, direct, combined) are being built in the background "
                           "(0 of 3 done")
    pid = int(err.split("process ")[1].split(";")[0])
    wait_for(lambda: background.status(settings.cache_dir) is None and built(settings, "combined").exists())
    wait_for(lambda: background._children[pid].returncode is not None)   # waited for, in a thread
    if Path("/proc").is_dir():   # a zombie keeps its /proc entry until its parent waits for it
        wait_for(lambda: not Path(f"/proc/{pid}").exists(), 10)
    assert (Path(settings.cache_dir) / background.JOINED).read_text().split() == ["double_link", "direct",
                                                                                "combined"]


def test_a_second_start_during_a_build_starts_no_other(settings, capsys):
    holder = subprocess.Popen(["sleep", "60"])   # stands for a build that runs
    try:
        Path(settings.cache_dir).mkdir(parents=True)
        (Path(settings.cache_dir) / background.STATUS).write_text(json.dumps(
            {"pid": holder.pid, "started": time.time(), "done": 2, "total": 6, "now": "fasttext"}))
        for _ in range(2):
            weights, _ = datasets.load_with_partners(settings=settings)
            assert weights.name == "sbert"
            assert f"(2 of 6 done, process {holder.pid}" in capsys.readouterr().err
        assert not (Path(settings.cache_dir) / background.SETTINGS).exists()   # no build was started
        assert not built(settings, "word_collocations").exists()
    finally:
        holder.kill()
        holder.wait()


def slow_fasttext(settings: Settings) -> None:
    """`background.build` in a process of its own whose fastText step never ends (to be killed)."""
    real = Catalog.table

    def table(self, name):
        if name == "fasttext":
            time.sleep(600)
        return real(self, name)
    Catalog.table = table
    background.build(settings)


@pytest.mark.slow   # two builds in processes of their own (15 s); the join, by default, runs one
def test_a_build_killed_midway_loses_nothing_and_the_next_start_goes_on(settings, capsys):
    datasets.load_with_partners(settings=settings)   # starts a build: let it end, then start over
    wait_for(lambda: background.status(settings.cache_dir) is None and built(settings, "combined").exists())
    for name in background.CORPUS_MADE:
        built(settings, name).unlink()
    (Path(settings.cache_dir) / background.JOINED).unlink()
    capsys.readouterr()

    worker = multiprocessing.get_context("fork").Process(target=slow_fasttext, args=(settings,))
    worker.start()
    status = Path(settings.cache_dir) / background.STATUS
    wait_for(lambda: status.exists() and json.loads(status.read_text()).get("now") == "fasttext")
    os.kill(worker.pid, signal.SIGKILL)   # mid-build: the collocations done, fastText under way
    worker.join(timeout=60)
    assert worker.exitcode == -signal.SIGKILL
    done_before = {name: built(settings, name).stat().st_mtime_ns
                   for name in ("word_collocations", "sentence_collocations")}
    assert not built(settings, "fasttext").exists() and status.exists()   # the dead build's status

    weights, _ = datasets.load_with_partners(settings=settings)   # the next start: a new build
    assert weights.name == "sbert" and "being built in the background" in capsys.readouterr().err
    wait_for(lambda: background.status(settings.cache_dir) is None and built(settings, "combined").exists())
    assert {name: built(settings, name).stat().st_mtime_ns for name in done_before} == done_before
    assert "build: done" in (Path(settings.cache_dir) / background.LOG).read_text()
    assert datasets.load_with_partners(settings=settings)[0].name == "combined"


def test_the_build_is_not_left_to_the_background_when_a_rebuild_is_asked(settings):
    from dataclasses import replace

    catalog = Catalog(replace(settings, rebuild=["word_collocations"]))
    assert catalog.deferred == frozenset()
    assert catalog.table("word_collocations").matrix.shape == (len(HINTS5), len(WORDS5))
