"""Faults: broken caches, rebuilds killed halfway, bad sources, read-only data and a full disk.

A cache is trusted only when its JSON sidecar is there and the matrix's
checksum matches it (initializers.cache.save_matrix / load_matrix). These tests break it
in every way they can think of and check that the game notices, says so, and
goes on.

Tests run as root here, where `chmod` does not stop writes. A read-only
folder is then simulated in two ways that do stop root: a cache folder
*under a regular file* (every write fails with NotADirectoryError) and
`tempfile.mkstemp` failing with EACCES, which is exactly what a read-only
folder does to save_matrix. As any other user the real chmod test runs too.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
import zlib
from pathlib import Path

import numpy as np
import pytest
from helpers import interruptible

import common
import datasets
import initializers.cache
import initializers.sbert
import initializers.store
import support.files
from board import TEAMS, Board
from engine import Game, Team
from initializers.cache import StaleCache, load_matrix, save_matrix, sidecar
from model import AI
from players import AIAgent, AICaptain

ROOT = Path(__file__).resolve().parent.parent
META = {"initializer": "test", "inputs": "abc"}
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


# --- a broken cache file is detected ---------------------------------------------------------------------


def corrupt(path: Path, how: str) -> None:
    """Break a saved matrix (or its sidecar) in one of many ways."""
    data = path.read_bytes()
    meta = sidecar(path)
    match how:
        case "truncated":
            path.write_bytes(data[:len(data) // 2])
        case "truncated to the header":
            path.write_bytes(data[:128])
        case "empty":
            path.write_bytes(b"")
        case "one byte flipped":
            i = len(data) - 7
            path.write_bytes(data[:i] + bytes([data[i] ^ 0x55]) + data[i + 1:])
        case "garbage appended":
            path.write_bytes(data + b"\x00garbage")
        case "replaced by text":
            path.write_text("not a matrix")
        case "matrix deleted":
            path.unlink()
        case "sidecar deleted":
            meta.unlink()
        case "sidecar truncated":
            meta.write_bytes(meta.read_bytes()[:20])
        case "sidecar not json":
            meta.write_bytes(b"\xff\xfe{{{")
        case "sidecar a list":
            meta.write_text("[1, 2, 3]")
        case "sidecar checksum changed":
            m = json.loads(meta.read_text())
            meta.write_text(json.dumps({**m, "sha256": "0" * 64}))
        case "sidecar from other inputs":
            m = json.loads(meta.read_text())
            meta.write_text(json.dumps({**m, "inputs": "xyz"}))
        case "sidecar shape changed":
            m = json.loads(meta.read_text())
            meta.write_text(json.dumps({**m, "shape": [1, 1]}))
        case "a directory instead":
            path.unlink()
            path.mkdir()
        case _:
            raise ValueError(how)


CORRUPTIONS = ["truncated", "truncated to the header", "empty", "one byte flipped", "garbage appended",
               "replaced by text", "matrix deleted", "sidecar deleted", "sidecar truncated",
               "sidecar not json", "sidecar a list", "sidecar checksum changed",
               "sidecar from other inputs", "sidecar shape changed", "a directory instead"]


@pytest.mark.parametrize("how", CORRUPTIONS)
def test_a_broken_cache_is_never_loaded(tmp_path, how):
    path = tmp_path / "m.npy"
    matrix = np.random.default_rng(0).random((300, 40), dtype=np.float32)
    save_matrix(path, matrix, META)
    assert np.array_equal(load_matrix(path, META), matrix)
    corrupt(path, how)
    with pytest.raises(StaleCache) as reason:
        load_matrix(path, META)
    assert str(reason.value)                     # a reason to show the user


class FakeEncoder:
    """Stands in for the SBERT model: deterministic unit vectors, and it counts its calls."""

    def __init__(self):
        self.calls = 0

    def __call__(self, words, model):
        self.calls += 1
        rng = np.random.default_rng(len(words))
        vectors = rng.normal(size=(len(words), 16)).astype(np.float32)
        return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


@pytest.fixture
def encoder(monkeypatch) -> FakeEncoder:
    fake = FakeEncoder()
    monkeypatch.setattr(initializers.sbert, "encode_with_progress", fake)
    return fake


HINTS = tuple(common.hint_words()[:300])
WORDS = tuple(common.board_words()[:60])


@pytest.mark.parametrize("how", ["truncated", "one byte flipped", "sidecar not json", "sidecar deleted",
                                 "matrix deleted", "empty", "sidecar checksum changed"])
def test_a_corrupt_sbert_cache_is_rebuilt_with_a_message(tmp_path, encoder, capsys, how):
    first = datasets.sbert_weights(HINTS, WORDS, cache_dir=tmp_path)
    datasets.sbert_weights(HINTS, WORDS, cache_dir=tmp_path)
    assert encoder.calls == 1                    # the second load came from the cache
    capsys.readouterr()

    corrupt(tmp_path / "sbert.npy", how)
    rebuilt = datasets.sbert_weights(HINTS, WORDS, cache_dir=tmp_path)
    assert encoder.calls == 2
    assert np.array_equal(rebuilt.matrix, first.matrix)
    assert "sbert: rebuilding the cache: " in capsys.readouterr().err   # every rebuild says why

    datasets.sbert_weights(HINTS, WORDS, cache_dir=tmp_path)
    assert encoder.calls == 2                    # and the rebuilt cache is good again


@pytest.mark.slow
def test_a_corrupt_cache_is_rebuilt_by_the_real_sbert_model(tmp_path, capsys):
    words = ("apple", "river", "piano", "castle", "doctor")
    first = datasets.sbert_weights(HINTS[:50], words, cache_dir=tmp_path)
    corrupt(tmp_path / "sbert.npy", "truncated")
    rebuilt = datasets.sbert_weights(HINTS[:50], words, cache_dir=tmp_path)
    assert "checksum mismatch" in capsys.readouterr().err
    assert np.allclose(rebuilt.matrix, first.matrix, atol=1e-5)


# --- a rebuild killed halfway ---------------------------------------------------------------------------

WRITER = textwrap.dedent("""
    import sys
    from pathlib import Path
    import numpy as np
    from initializers.cache import save_matrix
    big = np.full((8192, 4096), 2.0, dtype=np.float32)      # 128 MiB: the write takes a while
    print("writing", flush=True)
    save_matrix(Path(sys.argv[1]), big, {"initializer": "test", "inputs": "abc"})
    print("done", flush=True)
""")
OLD = np.ones((50, 20), dtype=np.float32)


def kill_a_rebuild(path: Path, sig: int, delay: float) -> str:
    """Start a rebuild of `path` in a subprocess, send it `sig` after `delay` s; what became of it."""
    child = subprocess.Popen([sys.executable, "-c", WRITER, str(path)], cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, preexec_fn=interruptible)
    assert child.stdout.readline().strip() == "writing"
    time.sleep(delay)
    child.send_signal(sig)
    out, _ = child.communicate(timeout=60)
    return "finished" if "done" in out else "killed"


def loaded_state(path: Path) -> str:
    """'old', 'new' or 'none': what a reader gets; a partial matrix fails the test."""
    try:
        matrix = load_matrix(path, META)
    except StaleCache:
        return "none"
    if matrix.shape == OLD.shape and np.array_equal(matrix, OLD):
        return "old"
    assert matrix.shape == (8192, 4096) and bool((matrix == 2.0).all()), "a partial cache was loaded"
    return "new"


def check_killed_rebuilds(tmp_path: Path, sig: int, delays: list[float]) -> set[tuple[str, str]]:
    seen = set()
    for n, delay in enumerate(delays):
        path = tmp_path / f"run{n}" / "sbert.npy"
        save_matrix(path, OLD, META)
        fate = kill_a_rebuild(path, sig, delay)
        state = loaded_state(path)
        seen.add((fate, state))
        if fate == "killed":   # killed after its rename, a writer leaves the new matrix whole
            assert state in ("old", "none", "new")
        if sig == signal.SIGINT:                  # an interrupted save cleans up after itself
            assert not list(path.parent.glob("*.tmp"))
        save_matrix(path, OLD, META)              # and a later save works, leftovers or not
        assert loaded_state(path) == "old"
    return seen


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL], ids=["SIGINT", "SIGKILL"])
def test_a_rebuild_killed_halfway_leaves_the_old_cache_or_none(tmp_path, sig):
    # From 0.05 s on the child is inside np.save (a kill in the microseconds between mkstemp and
    # its try block would leak a temporary: see the stale-temporary test below).
    seen = check_killed_rebuilds(tmp_path, sig, [0.05, 0.15, 0.4])
    assert any(fate == "killed" for fate, _ in seen)   # the kill did land mid-rebuild


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL], ids=["SIGINT", "SIGKILL"])
def test_rebuilds_killed_at_many_moments(tmp_path, sig):
    seen = check_killed_rebuilds(tmp_path, sig, [0.05 + i * 0.05 for i in range(40)])
    assert ("killed", "old") in seen


def killed_mid_write(path: Path) -> list[Path]:
    """Kill rebuilds of `path` until one dies mid-write; the temporaries it left behind.

    On a quiet machine the write may beat a fixed delay: kill sooner until it lands mid-write.
    """
    left: list[Path] = []
    for delay in (0.2, 0.1, 0.05, 0.03, 0.02, 0.01, 0.005):
        save_matrix(path, OLD, META)
        if (kill_a_rebuild(path, signal.SIGKILL, delay) == "killed"
                and (left := list(path.parent.glob(f".{path.name}.*.tmp")))):
            break
    return left


def test_temporaries_left_by_a_killed_rebuild_are_swept_by_a_later_save(tmp_path):
    path = tmp_path / "sbert.npy"
    left = killed_mid_write(path)
    assert left                                   # SIGKILL leaves a temporary behind ...
    hours_ago = time.time() - 2 * common.STALE_TEMPORARY
    for temporary in left:
        os.utime(temporary, (hours_ago, hours_ago))
    fresh = tmp_path / ".sbert.npy.another-writer.tmp"
    fresh.write_bytes(b"in progress")             # ... and another process may be writing now
    save_matrix(path, OLD, META)
    assert list(tmp_path.glob("*.tmp")) == [fresh]
    assert loaded_state(path) == "old"


def finished_process() -> int:
    """The pid of a process that has ended: a writer killed long ago."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_temporary_is_swept_as_soon_as_its_writer_is_gone_and_never_while_it_lives(tmp_path):
    path = tmp_path / "sbert.npy"
    left = killed_mid_write(path)
    assert left                                   # SIGKILL leaves a fresh temporary behind
    training = tmp_path / f".fasttext-training.pid{finished_process()}.x1y2"
    training.mkdir()
    (training / "corpus.txt").write_text("a killed fastText training")
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        live = tmp_path / f".word_collocations.npy.pid{sleeper.pid}.abc123.tmp"
        live.write_bytes(b"being written")
        save_matrix(tmp_path / "other.npy", OLD, META)   # any save in the folder sweeps it
        assert not training.exists() and not [p for p in left if p.exists()]
        assert list(tmp_path.glob(".*.tmp")) == [live]   # a live writer's temporary is never touched
    finally:
        sleeper.kill()
        sleeper.wait()
    assert common.sweep_temporaries(tmp_path) == [live]  # and once it is gone, swept


def test_loading_sweeps_what_killed_writers_left(tmp_path, monkeypatch):
    monkeypatch.setattr(initializers.sbert, "load_sbert", lambda model=None: FakeSbert())
    sources, cache = make_sources(tmp_path / "sources"), tmp_path / "cache"
    load = lambda: datasets.load_weights("association", sources=sources, hints=SOURCE_HINTS,  # noqa: E731
                                         words=SOURCE_WORDS, cache_dir=cache)
    load()
    dead = cache / f".association.npy.pid{finished_process()}.abc123.tmp"
    dead.write_bytes(b"half a matrix")
    for save in ("save_matrix", "save_arrays", "atomic_write_bytes"):   # from the cache: no save ...
        for module in (initializers.store, initializers.cache, initializers.sbert):
            monkeypatch.setattr(module, save, None, raising=False)
    load()
    assert not dead.exists()                                  # ... and yet it is swept


@pytest.mark.parametrize("lost", ["association.json", "association.npy"])
def test_a_catalog_cache_missing_a_file_is_rebuilt_with_the_reason(tmp_path, capsys, monkeypatch, lost):
    monkeypatch.setattr(initializers.sbert, "load_sbert", lambda model=None: FakeSbert())
    sources, cache = make_sources(tmp_path / "sources"), tmp_path / "cache"
    load = lambda: datasets.load_weights("association", sources=sources, hints=SOURCE_HINTS,  # noqa: E731
                                         words=SOURCE_WORDS, cache_dir=cache)
    first = load()
    (cache / lost).unlink()
    capsys.readouterr()
    again = load()
    assert f"association: rebuilding the cache: {lost} is missing" in capsys.readouterr().err
    assert np.array_equal(again.matrix, first.matrix)


class Interrupted(BaseException):
    """A kill, simulated at one precise step of save_matrix."""


STEPS = ["writing the matrix", "checksumming", "removing the old sidecar", "replacing the matrix",
         "writing the sidecar", "replacing the sidecar"]


@pytest.mark.parametrize("step", STEPS)
def test_a_kill_between_any_two_steps_of_a_save_leaves_the_old_cache_or_none(tmp_path, monkeypatch, step):
    """The windows between the steps of a save are too short to hit with a signal: stop at each."""
    path = tmp_path / "sbert.npy"
    save_matrix(path, OLD, META)
    new = np.full((30, 30), 2.0, dtype=np.float32)

    def stop(*args, **kwargs):
        raise Interrupted

    replaces = []

    def replace(source, target):
        replaces.append(target)
        if (step == "replacing the matrix" and len(replaces) == 1
                or step == "replacing the sidecar" and len(replaces) == 2):
            raise Interrupted
        return os.replace(source, target)

    match step:
        case "writing the matrix":
            monkeypatch.setattr(initializers.cache.np, "save", stop)
        case "checksumming":
            monkeypatch.setattr(initializers.cache, "sha256_file", stop)
        case "removing the old sidecar":
            real_unlink = Path.unlink
            monkeypatch.setattr(Path, "unlink", lambda self, missing_ok=False: (
                stop() if self == sidecar(path) else real_unlink(self, missing_ok=missing_ok)))
        case "writing the sidecar":
            monkeypatch.setattr(initializers.cache, "atomic_write_bytes", stop)
        case _:
            monkeypatch.setattr(initializers.cache.os, "replace", replace)
    with pytest.raises(Interrupted):
        save_matrix(path, new, META)
    monkeypatch.undo()
    try:
        matrix = load_matrix(path, META)
    except StaleCache:
        matrix = None
    assert matrix is None or np.array_equal(matrix, OLD)
    assert not list(tmp_path.glob("*.tmp"))


# --- a sources folder with a missing or malformed file ---------------------------------------------------

USF_FILES = ("A-B.txt", "C.txt", "D-F.txt", "G-K.txt", "L-O.txt", "P-R.txt", "S.txt", "T-Z.txt")
USF_HEADER = ("CUE, TARGET, NORMED?, #G, #P, FSG, BSG, MSG, OSG, #M, MMIAS, #O, OMIAS, QSS, QFR, QCON, "
              "QH, QPS, QMC, QPR, QRSG, QUC, TSS, TFR, TCON, TH, TPS, TMC, TPR, TRSG, TUC")


def usf_row(cue: str, target: str, fsg: str = ".300") -> str:
    """A 31-field row as the USF norms' Appendix A writes it."""
    return (f"{cue}, {target}, YES, 148, 28, {fsg}, .014, .0100, 0.0000, 0, 2, 0.0, 0, 21, 0, \u00a5, "
            f"W, N, 1.16, .05, .001, 1, 13, 111, 6.29, , N, 1.00, .23, .049, 1")


def eat_zip() -> bytes:
    import io
    import zipfile

    net = ('*Vertices 3\r\n1 "OCEAN"\r\n2 "SEA"\r\n3 "WATER"\r\n*Arcs\r\n1 2 6\r\n1 3 3\r\n2 1 5\r\n')
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("EATnew.net", net * 1)
    return buffer.getvalue()


def make_sources(root: Path, usf_files=USF_FILES, bad_usf: str | None = None, eat: bytes | None = None,
                 corpus: bytes | None = None) -> Path:
    """A tiny sources folder: USF files (one row each, `bad_usf` with an unreadable row), EAT, a corpus."""
    cues = ["OCEAN", "SHIP", "WAVE", "SEA", "BOAT", "WATER", "FISH", "SAND"]
    (root / "usf").mkdir(parents=True)
    for name, cue in zip(usf_files, cues, strict=False):
        rows = [usf_row(cue, "SEA")] + ([usf_row(cue, "BOAT", fsg="n/a")] if name == bad_usf else [])
        text = "\n".join(["<HTML>", "<BODY>", "<PRE>", USF_HEADER, *rows, "</pre>", "</BODY>", "</HTML>"])
        (root / "usf" / name).write_bytes(text.encode("latin-1"))
    (root / "eat").mkdir()
    (root / "eat" / "EATnew.zip").write_bytes(eat_zip() if eat is None else eat)
    if corpus is not None:
        (root / "corpus").mkdir()
        (root / "corpus" / "book.txt.gz").write_bytes(corpus)
    return root


SOURCE_HINTS = ("sea", "ocean", "boat", "wave", "water", "ship", "sand", "fish")
SOURCE_WORDS = ("ocean", "ship", "sea")


def attempt(capsys, name: str | None, sources: Path, cache: Path) -> tuple[object, str]:
    """Load an initializer; (weights or None, everything it said: the error and stderr)."""
    capsys.readouterr()
    try:
        weights = datasets.load_weights(name, sources=sources, hints=SOURCE_HINTS, words=SOURCE_WORDS,
                                        cache_dir=cache)
        said = ""
    except Exception as error:        # which exception is the loader's choice; its message is ours
        weights, said = None, f"{type(error).__name__}: {error}"
    return weights, said + "\n" + capsys.readouterr().err


DATASETS_BUG = "datasets.py (reported): {}"


def test_a_malformed_usf_file_is_named_and_the_other_initializers_still_build(tmp_path, capsys):
    sources = make_sources(tmp_path / "sources", bad_usf="C.txt")
    association, said = attempt(capsys, "association", sources, tmp_path / "cache")
    assert "C.txt" in said
    eat, _ = attempt(capsys, "eat", sources, tmp_path / "cache")
    assert eat is not None and eat.matrix.max() > 0
    default, said = attempt(capsys, None, sources, tmp_path / "cache")
    assert default is not None and "C.txt" in said


def test_a_truncated_eat_archive_is_named_and_association_still_builds(tmp_path, capsys):
    good = eat_zip()
    sources = make_sources(tmp_path / "sources", eat=good[:len(good) // 2])
    eat, said = attempt(capsys, "eat", sources, tmp_path / "cache")
    assert "EATnew.zip" in said
    association, _ = attempt(capsys, "association", sources, tmp_path / "cache")
    assert association is not None and association.matrix.max() > 0


def test_a_missing_usf_file_is_named(tmp_path, capsys):
    sources = make_sources(tmp_path / "sources", usf_files=[f for f in USF_FILES if f != "C.txt"])
    _, said = attempt(capsys, "association", sources, tmp_path / "cache")
    assert "C.txt" in said


def test_a_corrupt_corpus_file_is_named_and_association_still_builds(tmp_path, capsys):
    sources = make_sources(tmp_path / "sources", corpus=b"\x1f\x8b not really gzip")
    _, said = attempt(capsys, "word_collocations", sources, tmp_path / "cache")
    assert "book.txt.gz" in said
    association, said = attempt(capsys, "association", sources, tmp_path / "cache")
    assert association is not None and association.matrix.max() > 0
    assert association.backoff.name == "sbert" and "fasttext left out" in said   # not fastText


# --- a read-only data folder -------------------------------------------------------------------------


@contextlib.contextmanager
def read_only(folder: Path, monkeypatch):
    """Make `folder` unwritable for real (chmod), or, as root, the way a read-only folder fails."""
    folder.mkdir(parents=True, exist_ok=True)
    if not IS_ROOT:
        folder.chmod(0o555)
        try:
            yield
        finally:
            folder.chmod(0o755)
        return
    real = support.files.tempfile.mkstemp

    def refuse(*args, dir=None, **kwargs):
        if dir is not None and Path(dir).resolve() == folder.resolve():
            raise PermissionError(errno.EACCES, "Permission denied", str(folder))
        return real(*args, dir=dir, **kwargs)

    monkeypatch.setattr(support.files.tempfile, "mkstemp", refuse)
    yield


def play_one_game(weights, seed: int = 0) -> Game:
    board = Board.random(weights.words, np.random.default_rng(seed))
    ai = AI(weights, "cumsum", "greedy")
    game = Game(board, {c: Team(c, AICaptain(ai.captain()), AIAgent(ai.agent())) for c in TEAMS},
                rng=np.random.default_rng(seed))
    game.play()
    return game


class FakeSbert:
    """Stands in for the SBERT model itself: a fixed vector per text, whether cached or encoded anew."""

    def get_sentence_embedding_dimension(self) -> int:
        return 16

    def encode(self, texts, **options) -> np.ndarray:
        return np.array([np.random.default_rng(zlib.crc32(t.encode())).normal(size=16) for t in texts],
                        dtype=np.float32)


def test_a_fasttext_that_fails_to_train_is_left_out_with_one_line_and_the_game_plays(
        tmp_path, capsys, monkeypatch):
    import gzip

    import fasttext

    def fail(path, **options):
        raise RuntimeError("Encountered NaN.")

    monkeypatch.setattr(fasttext, "train_unsupervised", fail)
    monkeypatch.setattr(initializers.sbert, "load_sbert", lambda model=None: FakeSbert())
    rng = np.random.default_rng(0)
    text = ". ".join(" ".join(rng.choice(HINTS[:60] + WORDS, 12)) for _ in range(3000))
    (tmp_path / "sources" / "corpus").mkdir(parents=True)
    (tmp_path / "sources" / "corpus" / "book.txt.gz").write_bytes(gzip.compress(text.encode()))
    weights = datasets.load_weights(sources=tmp_path / "sources", hints=HINTS, words=WORDS,
                                    cache_dir=tmp_path / "cache")
    said = [line for line in capsys.readouterr().err.splitlines() if line.startswith("fasttext")]
    parts = json.loads(sidecar(tmp_path / "cache" / "direct.npy").read_text())["params"]["parts"]
    assert weights.name == "combined" and "word_collocations" in parts and "fasttext" not in parts
    assert len([line for line in said if "left out" in line]) == 1
    assert any("fasttext left out: fastText failed to train" in line and "Encountered NaN" in line
               for line in said)
    assert play_one_game(weights).over


def test_a_read_only_cache_folder_says_so_and_the_game_plays_from_memory(tmp_path, encoder, capsys,
                                                                         monkeypatch):
    cache = tmp_path / "data" / "cache"
    with read_only(cache, monkeypatch):
        weights = datasets.sbert_weights(HINTS, WORDS, cache_dir=cache)
    err = capsys.readouterr().err
    assert "could not write the cache" in err and "playing from memory" in err
    assert not list(cache.iterdir())
    assert play_one_game(weights).over


def test_a_cache_folder_under_a_file_says_so_and_the_game_plays_from_memory(tmp_path, encoder, capsys):
    blocker = tmp_path / "data"
    blocker.write_text("a file where a folder should be")
    weights = datasets.sbert_weights(HINTS, WORDS, cache_dir=blocker / "cache")
    err = capsys.readouterr().err
    assert "could not write the cache" in err and "playing from memory" in err
    assert play_one_game(weights).over


def test_a_read_only_cache_still_serves_what_it_holds(tmp_path, encoder, capsys, monkeypatch):
    cache = tmp_path / "cache"
    datasets.sbert_weights(HINTS, WORDS, cache_dir=cache)
    with read_only(cache, monkeypatch):
        datasets.sbert_weights(HINTS, WORDS, cache_dir=cache)
    assert encoder.calls == 1 and "could not" not in capsys.readouterr().err
    # A stale cache in a read-only folder: rebuilt in memory, with both messages.
    corrupt(cache / "sbert.npy", "sidecar checksum changed")
    with read_only(cache, monkeypatch):
        weights = datasets.sbert_weights(HINTS, WORDS, cache_dir=cache)
    err = capsys.readouterr().err
    assert encoder.calls == 2
    assert "rebuilding the cache" in err and "could not write the cache" in err
    assert play_one_game(weights).over


@pytest.mark.parametrize("name", ["sbert", "association", "eat"])
def test_every_initializer_plays_from_memory_when_its_cache_cannot_be_written(tmp_path, encoder, capsys,
                                                                             monkeypatch, name):
    sources = make_sources(tmp_path / "sources")
    cache = tmp_path / "data" / "cache"
    with read_only(cache, monkeypatch):
        weights = datasets.load_weights(name, sources=sources, hints=SOURCE_HINTS, words=SOURCE_WORDS,
                                        cache_dir=cache)
    err = capsys.readouterr().err
    assert f"{name}: could not write the cache" in err and "playing from memory" in err
    assert weights.matrix.shape == (len(SOURCE_HINTS), len(SOURCE_WORDS)) and weights.matrix.max() > 0
    assert not list(cache.iterdir())


# --- the game log ----------------------------------------------------------------------------------------


def run_game(log: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "main.py"), "--red", "auto", "--blue", "auto",
                           "--seed", "4", "--log", log], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "NO_COLOR": "1"}, cwd=ROOT)


@pytest.mark.parametrize("where", ["/dev/full", "read-only folder"])
def test_a_game_log_that_cannot_be_written_never_stops_the_game(tmp_path, where):
    if where == "read-only folder" and IS_ROOT:
        pytest.skip("root writes through chmod; the other cases cover it")
    log = {"/dev/full": Path("/dev/full"), "read-only folder": tmp_path / "ro" / "games.jsonl"}[where]
    if where == "read-only folder":
        log.parent.mkdir()
        log.parent.chmod(0o555)
    result = run_game(str(log))
    assert result.returncode == 0 and "Traceback" not in result.stderr
    assert "wins" in result.stdout
    assert f"could not write the game log {log}" in result.stderr


@pytest.mark.parametrize("where", ["a directory", "under a file"])
def test_a_log_flag_that_names_no_file_is_refused_before_the_game(tmp_path, where):
    # Issue 69: every flag and file is checked before the first question (before, the game was
    # played and its record lost); one that fails only as it is written is the case above.
    (tmp_path / "file").write_text("x")
    log = {"a directory": tmp_path, "under a file": tmp_path / "file" / "games.jsonl"}[where]
    result = run_game(str(log))
    assert result.returncode == 2 and result.stdout == "" and len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith(f"python main.py: --log {log} ")


def test_a_disk_that_fills_mid_append_leaves_the_log_as_it_was(tmp_path):
    """RLIMIT_FSIZE makes the append fail part-way, as a full disk does: no half line may stay."""
    import resource

    log = tmp_path / "games.jsonl"
    assert run_game(str(log)).returncode == 0
    size = log.stat().st_size
    limit = size + 100                          # room for 100 bytes of the next game only

    def small_disk():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    result = subprocess.run([sys.executable, str(ROOT / "main.py"), "--red", "auto", "--blue", "auto",
                             "--seed", "5", "--log", str(log)], capture_output=True, text=True,
                            timeout=120, preexec_fn=small_disk, cwd=ROOT)
    assert result.returncode == 0 and "wins" in result.stdout
    assert "could not write the game log" in result.stderr and "Traceback" not in result.stderr
    assert log.stat().st_size == size           # the cut-short line was taken back
    assert run_game(str(log)).returncode == 0
    assert [json.loads(line)["seed"] for line in log.read_text().splitlines()] == [4, 4]


def test_an_atomic_write_gets_the_mode_a_plain_write_gets(tmp_path):
    # mkstemp makes its temporaries 0600; renamed as they were, the reports and caches
    # were unreadable to anyone but their writer.
    import common

    plain = tmp_path / "plain.md"
    plain.write_bytes(b"x")
    atomic = tmp_path / "atomic.md"
    common.atomic_write_bytes(atomic, b"x")
    initializers.cache.save_matrix(tmp_path / "m.npy", np.zeros((2, 2), np.float32), {})
    expected = plain.stat().st_mode & 0o777
    assert atomic.stat().st_mode & 0o777 == expected
    assert (tmp_path / "m.npy").stat().st_mode & 0o777 == expected
