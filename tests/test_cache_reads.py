"""A start reads cached matrices cheaply: hashed only when a file may have changed, column-major
as the game holds them (an older row-major cache rewritten once, nothing rebuilt), memory-mapped."""

from __future__ import annotations

import json
import os
import shutil

import numpy as np
import pytest

import initializers.cache as cache
import initializers.store
from initializers.builders import Builders
from initializers.cache import StaleCache, column_major, load_matrix, save_matrix, sidecar

META = {"initializer": "test"}


@pytest.fixture
def hashed(monkeypatch) -> list:
    """The files `load_matrix` hashes, in order."""
    seen = []
    real = cache.sha256_file
    monkeypatch.setattr(cache, "sha256_file", lambda path: seen.append(path.name) or real(path))
    return seen


def saved(tmp_path, name="m.npy"):
    path = tmp_path / name
    matrix = np.random.default_rng(0).random((30, 4), dtype=np.float32)
    save_matrix(path, matrix, META, by_column=True)
    stat = sidecar(path).stat()   # the sidecar a tick after the matrix, as a build leaves them
    os.utime(sidecar(path), ns=(stat.st_atime_ns, stat.st_mtime_ns + 10_000_000))
    return path, matrix


def test_an_unchanged_file_is_trusted_without_hashing_and_read_column_major(tmp_path, hashed):
    path, matrix = saved(tmp_path)
    hashed.clear()
    loaded = load_matrix(path, META)
    assert np.array_equal(loaded, matrix) and loaded.flags["F_CONTIGUOUS"] and hashed == []


def test_a_copied_cache_is_hashed_once_then_trusted(tmp_path, hashed):
    path, matrix = saved(tmp_path)
    copy = tmp_path / "copy"
    copy.mkdir()
    for file in (path, sidecar(path)):
        shutil.copy(file, copy / file.name)   # new modification times
    hashed.clear()
    assert np.array_equal(load_matrix(copy / "m.npy", META), matrix) and hashed == ["m.npy"]
    stat = sidecar(copy / "m.npy").stat()
    os.utime(sidecar(copy / "m.npy"), ns=(stat.st_atime_ns, stat.st_mtime_ns + 10_000_000))
    load_matrix(copy / "m.npy", META)
    assert hashed == ["m.npy"]


def test_a_shipped_file_is_hashed_but_its_sidecar_never_rewritten(tmp_path, hashed):
    # The shipped SBERT embeddings' sidecar is tracked: a run that recorded a clone's stat in it
    # left the clone dirty (and an installed copy may not write there at all).
    path, matrix = saved(tmp_path)
    os.utime(path, ns=(0, 1_000_000_000))   # a fresh clone: another modification time
    before = sidecar(path).read_bytes()
    hashed.clear()
    assert np.array_equal(load_matrix(path, META, remember=False), matrix) and hashed == ["m.npy"]
    assert sidecar(path).read_bytes() == before
    load_matrix(path, META)                  # a cache of the player's own remembers it
    assert sidecar(path).read_bytes() != before


def test_a_file_written_again_with_its_size_is_hashed_and_refused(tmp_path, hashed):
    path, _ = saved(tmp_path)
    data = bytearray(path.read_bytes())
    data[-3] ^= 0x55
    path.write_bytes(bytes(data))
    with pytest.raises(StaleCache, match="checksum"):
        load_matrix(path, META)


def test_a_file_modified_in_its_sidecars_tick_is_hashed(tmp_path, hashed):
    """Racily clean, as git calls it: the size and time match, but a write in the same clock tick
    as the sidecar could hide behind them."""
    path, _ = saved(tmp_path)
    data = bytearray(path.read_bytes())
    data[-3] ^= 0x55
    recorded = json.loads(sidecar(path).read_text())["stat"]
    path.write_bytes(bytes(data))
    os.utime(path, ns=(recorded[1], recorded[1]))
    os.utime(sidecar(path), ns=(recorded[1], recorded[1]))
    with pytest.raises(StaleCache, match="checksum"):
        load_matrix(path, META)


def test_a_row_major_cache_from_an_older_build_is_rewritten_once_and_nothing_rebuilt(tmp_path, monkeypatch):
    from test_datasets import catalog, make_sources, write_vec

    make_sources(tmp_path / "sources")
    vec = write_vec(tmp_path / "v.vec")
    real = initializers.store.save_matrix
    monkeypatch.setattr(initializers.store, "save_matrix",   # as builds before this change wrote them
                        lambda path, matrix, meta, by_column=False: real(path, matrix, meta))
    built = {name: np.array(catalog(tmp_path, fasttext_model=vec).weights(name).matrix)
             for name in ("combined", "direct", "association")}
    monkeypatch.undo()
    assert not np.load(tmp_path / "cache" / "combined.npy", mmap_mode="r").flags["F_CONTIGUOUS"]

    rewritten = column_major(tmp_path / "cache")
    assert {"combined", "direct", "double_link", "association"} <= set(rewritten)
    assert column_major(tmp_path / "cache") == []   # once
    monkeypatch.setattr(Builders, "build", lambda *args: pytest.fail("a cache was rebuilt"))
    again = catalog(tmp_path, fasttext_model=vec)
    for name, matrix in built.items():
        loaded = again.weights(name).matrix
        assert np.array_equal(loaded, matrix) and loaded.flags["F_CONTIGUOUS"]
    assert isinstance(again.table("combined").matrix, np.memmap)   # mapped, not read whole


def test_sbert_similarities_are_read_back_while_their_embeddings_are_the_same(tmp_path):
    from initializers.sbert import scaled_similarity

    rng = np.random.default_rng(1)
    vectors = rng.standard_normal((12, 8)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    save_matrix(tmp_path / "sbert.npy", vectors, {"initializer": "sbert"})
    computed, scale = scaled_similarity(vectors[:9], vectors[9:], tmp_path / "sbert.npy")
    assert computed.flags["F_CONTIGUOUS"] and computed.max() == 1.0
    again, same = scaled_similarity(vectors[:9], vectors[9:], tmp_path / "sbert.npy")
    assert isinstance(again, np.memmap) and np.array_equal(again, computed) and same == scale
    save_matrix(tmp_path / "sbert.npy", vectors[::-1].copy(), {"initializer": "sbert"})   # re-encoded
    changed, _ = scaled_similarity(vectors[::-1][:9], vectors[::-1][9:], tmp_path / "sbert.npy")
    assert not isinstance(changed, np.memmap) and not np.array_equal(changed, computed)
