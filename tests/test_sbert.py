"""The SBERT initializer on a tiny vocabulary, and the cumsum captain and the agent on matrices
whose answer is known (hand-made, then SBERT-made)."""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from helpers import ASSASSIN_WORD, BLUE_WORDS, KEY, NEUTRAL_WORDS, RED_WORDS, WORDS

import initializers.sbert
from board import ASSASSIN, BLUE, NEUTRAL, RED, Board
from common import board_words, hint_words, sha256_file
from engine import AutoTeam, Game, Team
from initializers.cache import load_matrix, save_matrix, sidecar
from initializers.tables import DoubleLinkTable
from model import Agent, CumsumCaptain, Hint, NoLegalHint, Weights, agent_plays, hint_problem
from players import AICaptain

TINY_HINTS = ["sea", "music", "money", "fire", "king"]
TINY_WORDS = ["ocean", "piano", "bank", "flame", "crown", "whale"]


@pytest.fixture(scope="module")
def sbert_loaded():
    """Load the SBERT model once for the module (the first load takes seconds)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(initializers.sbert, "load_sbert", functools.cache(initializers.sbert.load_sbert))
        initializers.sbert.load_sbert()
        yield


@pytest.fixture
def count_encodes(monkeypatch, sbert_loaded):
    """Count the full encodes the initializer makes (cache builds)."""
    calls: list[int] = []
    real = initializers.sbert.encode_with_progress

    def counted(words, model):
        calls.append(len(words))
        return real(words, model)
    monkeypatch.setattr(initializers.sbert, "encode_with_progress", counted)
    return calls


def tiny(tmp_path, hints=TINY_HINTS, words=TINY_WORDS, **options) -> Weights:
    return initializers.sbert.sbert_weights(hints, words, cache_dir=tmp_path, **options)


# --- the initializer --------------------------------------------------------------------


def test_sbert_weights_shape_scale_and_meaning(tmp_path, count_encodes):
    w = tiny(tmp_path)
    assert w.name == "sbert" and w.matrix.shape == (5, 6)
    assert w.hints == tuple(TINY_HINTS) and w.words == tuple(TINY_WORDS)
    assert w.matrix.max() == pytest.approx(1.0) and w.matrix.min() >= 0.0
    row = dict(zip(TINY_WORDS, w.hint_row("sea", TINY_WORDS), strict=True))
    assert row["ocean"] > row["piano"] and row["whale"] > row["bank"]
    for hint, word in [("music", "piano"), ("money", "bank"), ("fire", "flame"), ("king", "crown")]:
        column = w.hint_row(hint, TINY_WORDS)
        assert TINY_WORDS[int(column.argmax())] == word, hint
    assert count_encodes == [11]
    assert (tmp_path / "sbert.npy").exists() and (tmp_path / "sbert.json").exists()


def test_cache_is_reused_without_encoding(tmp_path, count_encodes, monkeypatch):
    first = tiny(tmp_path)

    def no_encoding(words, model):
        raise AssertionError("the cache should have been loaded, not rebuilt")
    monkeypatch.setattr(initializers.sbert, "encode_with_progress", no_encoding)
    second = tiny(tmp_path)
    np.testing.assert_array_equal(first.matrix, second.matrix)


def test_cache_is_rebuilt_when_the_words_change(tmp_path, count_encodes):
    tiny(tmp_path)
    tiny(tmp_path)
    assert count_encodes == [11]
    changed = tiny(tmp_path, words=TINY_WORDS[:-1] + ["violin"])
    assert count_encodes == [11, 11] and changed.words[-1] == "violin"
    tiny(tmp_path, hints=TINY_HINTS[:-1])
    assert count_encodes == [11, 11, 10]
    tiny(tmp_path, hints=TINY_HINTS[:-1], rebuild=True)
    assert count_encodes == [11, 11, 10, 10]


def test_cache_is_rebuilt_when_the_phrasings_change(tmp_path, count_encodes, monkeypatch):
    tiny(tmp_path)
    monkeypatch.setattr(initializers.sbert, "SBERT_TEMPLATES", ("{}",))
    bare = tiny(tmp_path)
    assert count_encodes == [11, 11]
    # one bare phrasing is the model's own embedding of the word
    model = initializers.sbert.load_sbert()
    sea, ocean = model.encode(["sea", "ocean"], normalize_embeddings=True)
    assert bare.hint_row("sea", ["ocean"])[0] * bare.extender.scale == pytest.approx(sea @ ocean, abs=1e-4)


def test_corrupt_cache_is_rebuilt_with_a_notice(tmp_path, count_encodes, capsys):
    tiny(tmp_path)
    path = tmp_path / "sbert.npy"
    path.write_bytes(path.read_bytes()[:-20])
    w = tiny(tmp_path)
    assert count_encodes == [11, 11] and w.matrix.shape == (5, 6)
    assert "rebuilding the cache: checksum mismatch" in capsys.readouterr().err


def test_new_board_words_and_new_hints_are_one_encode_away(tmp_path, count_encodes):
    w = tiny(tmp_path)
    w.add_words(["dolphin"])                           # a column built on demand
    full = tiny(tmp_path / "full", words=TINY_WORDS + ["dolphin"])
    np.testing.assert_allclose(w.board_matrix(["dolphin"]) * w.extender.scale,
                               full.board_matrix(["dolphin"]) * full.extender.scale, atol=1e-4)
    assert count_encodes == [11, 12]                   # the column did not rebuild the cache
    row = w.hint_row("marine", TINY_WORDS)             # a hint outside the vocabulary
    assert row.shape == (6,) and row[0] > row[1]       # OCEAN above PIANO


class EncodingEveryWord(initializers.sbert.SbertTable):
    """SBERT's table as it was before 0044: every word encoded, the hints too."""

    def encode(self, words):
        return self.embeddings.encode(words)


def test_the_double_link_reads_the_hints_from_their_cached_vectors(tmp_path, sbert_loaded, monkeypatch):
    """The double link reads every hint's column of its inner table: SBERT's come from the hints'
    cached vectors (encoding the 10,000 hints again took 1-2 minutes), with the same matrix."""
    table = initializers.sbert.sbert_table(TINY_HINTS, TINY_WORDS, cache_dir=tmp_path)
    before = EncodingEveryWord(table.embeddings, table.matrix, table.board)
    links = [DoubleLinkTable("link", TINY_HINTS, inner).finish([*TINY_WORDS, "dolphin"])
             for inner in (before, table)]
    np.testing.assert_allclose(links[1].matrix, links[0].matrix, atol=1e-6)
    np.testing.assert_allclose(links[1].hint_block().toarray(), links[0].hint_block().toarray(), atol=1e-6)
    encoded = []
    monkeypatch.setattr(table.embeddings, "encode", lambda words: encoded.append(list(words)) or [])
    table.columns(TINY_HINTS)
    assert encoded == []                               # no hint encoded again


# --- the shipped embeddings -------------------------------------------------------------


def ship_tiny(folder: Path, vectors: np.ndarray, **made_with) -> Path:
    """Shipped embeddings of TINY_HINTS + TINY_WORDS, as `ship_vectors` writes the real ones
    (`made_with`: the model's identity they record; none here, so they are checked by encoding)."""
    path = folder / "shipped.npy"
    meta = initializers.sbert._shipped_meta(TINY_HINTS, TINY_WORDS, initializers.sbert.DEFAULT_SBERT_MODEL)
    save_matrix(path, vectors, {**meta, **made_with})
    return path


def test_a_first_build_fills_the_cache_from_the_shipped_embeddings(tmp_path, count_encodes, monkeypatch):
    encoded = tiny(tmp_path / "encoded")
    vectors = np.load(tmp_path / "encoded" / "sbert.npy")
    monkeypatch.setattr(initializers.sbert, "SHIPPED_PATH", ship_tiny(tmp_path, vectors))
    shipped = tiny(tmp_path / "fresh")
    assert count_encodes == [11]           # the first only: the second was filled from the shipped file
    np.testing.assert_array_equal(shipped.matrix, encoded.matrix)
    assert load_matrix(tmp_path / "fresh" / "sbert.npy", {"initializer": "sbert"}).dtype == np.float32
    tiny(tmp_path / "rebuilt", rebuild=True)   # --rebuild sbert encodes, whatever is shipped
    assert count_encodes == [11, 11]


def test_shipped_embeddings_the_installed_model_does_not_reproduce_are_not_used(tmp_path, count_encodes,
                                                                              monkeypatch, capsys):
    tiny(tmp_path / "encoded")
    vectors = np.load(tmp_path / "encoded" / "sbert.npy")
    monkeypatch.setattr(initializers.sbert, "SHIPPED_PATH", ship_tiny(tmp_path, vectors[::-1]))
    w = tiny(tmp_path / "fresh")
    assert count_encodes == [11, 11] and w.matrix.shape == (5, 6)
    assert "do not match the installed model" in capsys.readouterr().err


def test_shipped_embeddings_of_the_same_model_file_and_libraries_are_taken_without_torch(
        tmp_path, count_encodes, monkeypatch):
    tiny(tmp_path / "encoded")
    vectors = np.load(tmp_path / "encoded" / "sbert.npy")
    identity = initializers.sbert._model_identity()
    monkeypatch.setattr(initializers.sbert, "SHIPPED_PATH", ship_tiny(tmp_path, vectors, made_with=identity))

    def no_model(model=None):
        raise AssertionError("the model was loaded")
    monkeypatch.setattr(initializers.sbert, "load_sbert", no_model)
    assert identity["model.safetensors"] and tiny(tmp_path / "fresh").matrix.shape == (5, 6)
    other = {**identity, "transformers": "0.0.1"}   # another library version: encoded again to check
    monkeypatch.setattr(initializers.sbert, "SHIPPED_PATH", ship_tiny(tmp_path, vectors, made_with=other))
    with pytest.raises(AssertionError, match="the model was loaded"):
        tiny(tmp_path / "checked")
    assert count_encodes == [11]


def test_shipped_embeddings_for_other_words_are_quietly_passed_by(tmp_path, count_encodes, monkeypatch,
                                                                capsys):
    tiny(tmp_path / "encoded")
    monkeypatch.setattr(initializers.sbert, "SHIPPED_PATH",
                        ship_tiny(tmp_path, np.load(tmp_path / "encoded" / "sbert.npy")))
    tiny(tmp_path / "other", words=TINY_WORDS[:-1])
    assert count_encodes == [11, 10] and capsys.readouterr().err == ""


def test_the_shipped_embeddings_are_those_of_the_committed_word_lists():
    """Changing a word list, the phrasings or the model means running `python -m initializers.sbert`."""
    meta = json.loads(sidecar(initializers.sbert.SHIPPED_PATH).read_text())
    sbert = initializers.sbert
    expected = sbert._shipped_meta(hint_words(), board_words(), sbert.DEFAULT_SBERT_MODEL)
    assert {k: meta.get(k) for k in expected} == expected
    assert meta["dtype"] == "float32" and meta["shape"] == [len(hint_words()) + len(board_words()), 384]
    assert meta["sha256"] == sha256_file(initializers.sbert.SHIPPED_PATH)


def test_the_shipped_embeddings_are_what_the_installed_model_encodes(sbert_loaded):
    hints, words = hint_words(), board_words()
    shipped = initializers.sbert.shipped_vectors(hints, words)
    assert shipped is not None
    everything = [*hints, *words]
    sample = np.random.default_rng(0).choice(len(everything), 24, replace=False)
    fresh = initializers.sbert.sbert_encode(initializers.sbert.load_sbert(), [everything[i] for i in sample])
    np.testing.assert_allclose(shipped[sample], fresh, atol=1e-5)


def test_cumsum_captain_on_sbert_weights(tmp_path, sbert_loaded):
    words = ["ocean", "whale", "piano", "bank", "crown"]
    w = tiny(tmp_path, words=words)
    board = Board.from_key(words, [RED, RED, BLUE, NEUTRAL, ASSASSIN])
    choice = CumsumCaptain(w).give_hint(board, RED)
    assert choice.hint == Hint("sea", 2) and set(choice.targets) == {"ocean", "whale"}


# --- the captain and the agent on a hand-made matrix ------------------------------------

HINTS = ("alpha", "money", "charlie", "delta", "echo", "music")   # words common enough to give


def hand_made(rows: dict[str, dict[str, float]]) -> Weights:
    """Weights that are 0 except where `rows` says: {hint: {board word: weight}}."""
    matrix = np.zeros((len(HINTS), len(WORDS)), dtype=np.float32)
    for hint, cells in rows.items():
        for word, weight in cells.items():
            matrix[HINTS.index(hint), WORDS.index(word)] = weight
    return Weights("hand-made", HINTS, tuple(WORDS), matrix)


def fixed_board() -> Board:
    return Board.from_key(WORDS, KEY)


def test_the_hand_made_hints_are_legal_on_the_board():
    assert [hint_problem(h, fixed_board()) for h in HINTS] == [None] * len(HINTS)
    assert RED_WORDS[0] == "apple" and ASSASSIN_WORD == "candle"
    assert "forest" in RED_WORDS and "lemon" in BLUE_WORDS and "saddle" in NEUTRAL_WORDS


def test_cumsum_captain_finds_the_known_best_hint_and_count():
    w = hand_made({"alpha": {"apple": 0.9, "bridge": 0.85, "castle": 0.8},
                   "money": {"dragon": 0.6}})
    choice = CumsumCaptain(w).give_hint(fixed_board(), RED)
    assert choice.hint == Hint("alpha", 3)
    assert choice.targets == ("apple", "bridge", "castle")
    assert choice.target_weights == pytest.approx((0.9, 0.85, 0.8))
    assert choice.score == pytest.approx(3 + 2 * 0.8)          # three cards + gap to the rest


def test_a_hint_near_the_assassin_loses_to_a_safe_one():
    near = {"dragon": 0.9, "engine": 0.9}
    safe = {"delta": {"forest": 0.7, "guitar": 0.7}}
    risky = hand_made({"charlie": {**near, "candle": 0.85}, **safe})
    choice = CumsumCaptain(risky).give_hint(fixed_board(), RED)
    assert choice.hint == Hint("delta", 2) and set(choice.targets) == {"forest", "guitar"}
    # The same hint without the assassin beside it wins: the assassin made the difference.
    calm = hand_made({"charlie": near, **safe})
    assert CumsumCaptain(calm).give_hint(fixed_board(), RED).hint == Hint("charlie", 2)


def test_the_count_stops_before_the_assassin():
    w = hand_made({"echo": {"apple": 0.9, "bridge": 0.9, "candle": 0.85, "castle": 0.84}})
    choice = CumsumCaptain(w).give_hint(fixed_board(), RED)
    assert choice.hint == Hint("echo", 2) and set(choice.targets) == {"apple", "bridge"}
    assert choice.danger == ("candle", pytest.approx(0.85))


def test_the_captain_plays_for_blue_with_blue_cards():
    w = hand_made({"alpha": {"apple": 0.9, "bridge": 0.9}, "music": {"lemon": 0.8, "orange": 0.8}})
    assert CumsumCaptain(w).give_hint(fixed_board(), BLUE).hint == Hint("music", 2)


def test_the_ai_never_repeats_a_hint_it_gave():
    w = hand_made({"alpha": {"apple": 0.9, "bridge": 0.9}, "money": {"castle": 0.8},
                   "charlie": {"dragon": 0.7}})
    captain = AICaptain(CumsumCaptain(w))
    game = Game(fixed_board(), {RED: Team(RED, captain, None), BLUE: AutoTeam(BLUE)}, seed=0)
    hints = [captain.give_hint(game).hint.word for _ in range(3)]
    assert hints == ["alpha", "money", "charlie"]          # best first, each once
    assert captain.given == hints


def test_no_legal_hint_is_reported():
    board = Board.from_key(["alphas"] + WORDS[1:], KEY)   # the only hint, "alpha", is illegal here
    weights = Weights("hand-made", ("alpha",), tuple(board.words), np.full((1, 25), 0.9, np.float32))
    with pytest.raises(NoLegalHint):
        CumsumCaptain(weights).give_hint(board, RED)


def agent_guesses(agent: Agent, hint: Hint, board: Board, seed: int = 0) -> list[str]:
    """The cards an agent would turn over for a hint (model.agent_plays), with a seeded rng."""
    return agent_plays(agent, board, hint, np.random.default_rng(seed))


STRONG = {"alpha": {"apple": 0.9, "bridge": 0.8, "castle": 0.7, "dragon": 0.6, "lemon": 0.2}}


def test_agent_stops_after_count():
    agent = Agent(hand_made(STRONG), chance=1.0, memory=False)
    assert agent_guesses(agent, Hint("alpha", 2), fixed_board()) == ["apple", "bridge"]
    assert agent_guesses(agent, Hint("alpha", 1), fixed_board()) == ["apple"]


def test_agent_with_unlimited_or_zero_goes_on_while_cards_are_strong():
    agent = Agent(hand_made(STRONG), chance=1.0, memory=False, threshold=0.3)
    for count in (None, 0):
        assert agent_guesses(agent, Hint("alpha", count), fixed_board()) == [
            "apple", "bridge", "castle", "dragon"]         # LEMON (0.2) is under the threshold


def test_agent_always_makes_a_first_guess():
    agent = Agent(hand_made({}), chance=1.0, memory=False)
    assert agent.guess(fixed_board(), Hint("alpha", None), 0, np.random.default_rng(0)) is not None


def test_chance_one_is_greedy_and_chance_zero_samples():
    w = hand_made({"alpha": {"apple": 0.9, "bridge": 0.88, "lemon": 0.87}})
    greedy = Agent(w, chance=1.0, memory=False)
    picks = {greedy.guess(fixed_board(), Hint("alpha", 1), 0, np.random.default_rng(s)) for s in range(40)}
    assert picks == {"apple"}
    sampler = Agent(w, chance=0.0, temperature=0.05, memory=False)
    picks = [sampler.guess(fixed_board(), Hint("alpha", 1), 0, np.random.default_rng(s)) for s in range(200)]
    assert set(picks) == {"apple", "bridge", "lemon"}       # near-equal weights share the draws
    assert picks.count("apple") > picks.count("lemon")      # the softmax still favours the best


def test_agent_reads_a_hint_outside_the_vocabulary_as_no_signal():
    agent = Agent(hand_made(STRONG), chance=1.0, memory=False)
    column = agent.weights.hint_row("zulu", fixed_board().unrevealed_words())
    assert column.shape == (25,) and not column.any()


QUIET_BUILD = """
import sys
from pathlib import Path
import datasets
weights = datasets.sbert_weights(["sea", "music"], ["ocean", "piano"], cache_dir=Path(sys.argv[1]))
datasets.warm_up(weights)
weights.add_words(["zeppelin"])
print(weights.hint_row("sea", ["ocean", "zeppelin"]).shape)
"""


@pytest.mark.slow   # a first SBERT build in a process of its own; in-process: test_datasets, test_game_cli
def test_no_bar_or_notice_from_the_libraries_or_ours_when_stderr_is_no_terminal(tmp_path):
    """A first build, a warm-up and a new word with stderr on a pipe: transformers' "Loading
    weights", sentence-transformers' "Batches" and our "sbert: encoding words" all stay silent."""
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, "-c", QUIET_BUILD, str(tmp_path)], cwd=root,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "(2,)"
    assert done.stderr == ""
