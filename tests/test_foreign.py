"""Foreign agents: they read hints with their own vectors, the AI reads none of them, the tier runs."""

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest

import datasets
import model
from board import ASSASSIN, BLUE, NEUTRAL, RED, Board
from lab import bench
from lab.evaluation import loading
from lab.evaluation.games import play_solo
from lab.foreign import isolation, vectors
from lab.foreign.agent import ForeignAgent, scores, spelling_scores
from lab.foreign.isolation import AIReads, NotForeign, ai_reads, check, clash
from lab.foreign.vectors import SOURCES, Provenance, Vectors, unit
from model import Hint, Weights

CARDS = ["apple", "piano", "doctor", "rocket", "bank", "horse", "castle", "winter", "engine",
         "garden", "candle", "mirror", "bridge", "pencil", "island", "tiger", "copper", "silk",
         "thunder", "chair", "coat", "violin", "glacier", "anchor", "desert"]
KEY = [RED] * 9 + [BLUE] * 8 + [NEUTRAL] * 7 + [ASSASSIN]
OBVIOUS = {"fruit": "apple", "hospital": "doctor", "money": "bank", "missile": "rocket",
           "snow": "winter", "saddle": "horse", "sand": "desert", "flower": "garden"}


def board() -> Board:
    return Board.from_key(CARDS, KEY)


class FakeVectors(Vectors):
    """Hand-made vectors: each known word a point on a few axes; others unknown."""

    name = "fake"
    AXES = {"apple": 0, "fruit": 0, "piano": 1, "music": 1, "ice": 2, "cream": 3, "bank": 4}

    def embed(self, words):
        rows = np.zeros((len(words), 8), dtype=np.float32)
        known = np.array([w in self.AXES for w in words])
        for i, w in enumerate(words):
            if w in self.AXES:
                rows[i, self.AXES[w]] = 1.0
                rows[i, 7] = 0.1
        return unit(rows), known


# --- the agents ------------------------------------------------------------------------------


# mpnet loads torch and a 420 MB model (extracted on a fresh clone): slow; CI's quick bench plays it.
@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n == "mpnet" else n
                                  for n in SOURCES])
def test_each_foreign_agent_picks_the_obviously_related_card(name):
    if not SOURCES[name].installed():
        pytest.skip(f"{name} is not installed: {SOURCES[name].install}")
    agent = ForeignAgent(vectors.load(name))
    for clue, target in OBVIOUS.items():
        assert agent.guess(board(), Hint(clue, 1), 0, np.random.default_rng(0)) == target, clue


def test_a_cautious_agent_stops_at_the_count_and_a_bold_one_takes_the_bonus():
    rng, hint = np.random.default_rng(0), Hint("fruit", 2)
    cautious, bold = ForeignAgent(FakeVectors()), ForeignAgent(FakeVectors(), bold=True)
    assert cautious.guess(board(), hint, 0, rng) == "apple"
    assert cautious.guess(board(), hint, 2, rng) is None
    assert bold.guess(board(), hint, 2, rng) is not None and bold.guess(board(), hint, 3, rng) is None
    for count in (0, None):   # no count: one guess
        assert cautious.limit(Hint("fruit", count)) == 1


def ranking(vectors, hint: str, words: list[str]) -> list[str]:
    """The words, best first by the foreign agent's scores (ties in board order)."""
    order = np.argsort(-scores(vectors, hint, words), kind="stable")
    return [words[i] for i in order]


def test_unknown_cards_rank_last_and_an_unknown_hint_falls_back_to_parts_then_spelling():
    words = ["zzcard", "piano", "apple", "bank"]
    assert ranking(FakeVectors(), "fruit", words)[0] == "apple"
    assert ranking(FakeVectors(), "fruit", words)[-1] == "zzcard"    # no vector: last
    assert ranking(FakeVectors(), "ice-cream", ["piano", "apple"]) == ["piano", "apple"]  # ties: order
    assert ranking(FakeVectors(), "music-qq", words)[0] == "piano"   # a known part
    assert ranking(FakeVectors(), "zzcards", words)[0] == "zzcard"   # spelling
    assert spelling_scores("cat", ["cat", "dog"]).tolist() == [1.0, 0.0]


def test_the_agent_plays_a_single_team_game_through_the_bench():
    class FruitCaptain:
        def give_hint(self, board, team, given=()):
            return model.HintChoice(Hint("fruit", 1), (), (), None)

        def observe(self, *args):
            pass

    result = play_solo(board(), RED, FruitCaptain(), ForeignAgent(FakeVectors()),
                             np.random.default_rng(0))
    assert result.failure is None and result.hints[0].outcomes[0].name == "OWN"


# --- isolation -----------------------------------------------------------------------------


def sbert_only() -> dict:
    return {"sbert": Weights("sbert", ("hint",), ("card",), np.ones((1, 1), np.float32))}


def test_the_ai_reads_no_foreign_source_and_two_are_left(shared_datasets):
    reads = ai_reads({**sbert_only(), "word_collocations": Weights(
        "word_collocations", ("hint",), ("card",), np.ones((1, 1), np.float32))}, shared_datasets)
    assert any(p.suffix == ".gz" for p in reads.paths)     # the corpus is among what it reads
    assert "all-MiniLM-L6-v2" in reads.models
    assert sorted(check(reads)) == sorted(SOURCES) and len(SOURCES) >= isolation.MIN_FOREIGN


def test_the_ai_reading_phrases_reads_wordnet(tmp_path):
    from initializers.phrases import wordnet_folder

    phrases = Weights("phrases", ("hint",), ("card",), np.ones((1, 1), np.float32))
    wordnet = wordnet_folder().resolve()
    assert wordnet in ai_reads({**sbert_only(), "phrases": phrases}, tmp_path).paths
    assert wordnet not in ai_reads(sbert_only(), tmp_path).paths
    assert clash(Provenance("wordnet", (wordnet / "index.noun",)),
                 ai_reads({"phrases": phrases}, tmp_path)) is not None


def test_a_source_the_ai_reads_stops_being_foreign(tmp_path):
    reads = ai_reads(sbert_only(), tmp_path, sbert_model=str(vectors.mpnet_dir()))
    assert clash(SOURCES["mpnet"].provenance(), reads) is not None   # mpnet as the AI's SBERT
    with pytest.raises(NotForeign):
        check(reads)
    book = tmp_path / "corpus" / "book.txt"
    reads = AIReads(frozenset({book.parent.resolve()}), frozenset())
    assert clash(Provenance("m", (book,)), reads) is not None   # a file in its folder
    assert clash(Provenance("m", (tmp_path / "elsewhere.txt",)), reads) is None


def test_glove_in_the_corpus_folder_is_not_foreign(tmp_path):
    root = vectors.glove_root()
    if root is None:
        pytest.skip("GloVe is not installed")
    (tmp_path / "corpus").symlink_to(root, target_is_directory=True)
    reads = ai_reads({"word_collocations": Weights("word_collocations", ("h",), ("c",),
                                                   np.ones((1, 1), np.float32))}, tmp_path)
    assert "corpus" in "".join(map(str, reads.paths)) or root.resolve() in reads.paths
    assert clash(SOURCES["glove"].provenance(), reads) is not None


# --- the tier ------------------------------------------------------------------------------


@pytest.fixture
def fakes(monkeypatch):
    """Two foreign sources that need no package: hashed random vectors of every word."""

    class Hashed(Vectors):
        def __init__(self, seed):
            self.seed = seed

        def embed(self, words):
            rows = [np.random.default_rng([self.seed, *map(ord, w)]).normal(size=16) for w in words]
            return unit(np.array(rows).reshape(-1, 16)), np.ones(len(words), dtype=bool)

    for i, name in enumerate(("fakea", "fakeb")):
        monkeypatch.setitem(SOURCES, name, vectors.Source(
            name, "nothing", lambda: True, lambda name=name: Provenance(name),
            lambda i=i: Hashed(i)))
    return ["fakea", "fakeb"]


@pytest.fixture
def tiny(tmp_path, monkeypatch):
    """Two small random matrices over real words standing in for the initializers."""
    rng = np.random.default_rng(7)
    hints = [f"hint{chr(97 + i // 26)}{chr(97 + i % 26)}" for i in range(200)]
    base = rng.random((len(hints), len(CARDS) + 15)) ** 3
    words = CARDS + [f"card{chr(97 + i)}" for i in range(15)]
    made = {n: Weights(n, tuple(hints), tuple(words),
                       (base + 0.1 * np.random.default_rng(k).random(base.shape)).astype(np.float32))
            for k, n in enumerate(("tinya", "tinyb"))}
    monkeypatch.setattr(datasets, "INITIALIZERS", tuple(made))
    monkeypatch.setattr(loading, "load_initializer", lambda name, sources, sbert, cache=None: (
        made[name], {"first_load_s": 0.0, "cache_load_s": 0.0}))
    words_file = tmp_path / "words.txt"
    words_file.write_text("\n".join(words))
    return made, words_file


def run_bench(tiny, out: Path, *extra: str) -> tuple[dict, str]:
    made, words_file = tiny
    assert bench.COMMAND.main(["--quick", "--seeds", "2", "--initializers", *made, "--words", str(words_file),
                       "--captains", "expected", "cumsum", "--agents", "greedy", "--no-two-team",
                       "--out", str(out), *extra]) == 0
    return json.loads((out / "benchmark.json").read_text()), (out / "benchmark.md").read_text()


def test_the_tier_runs_on_two_boards_and_heads_the_report(tiny, fakes, tmp_path):
    report, md = run_bench(tiny, tmp_path / "out", "--foreign", *fakes)
    tier = report["foreign"]
    assert tier["agents"] == fakes and tier["default_captain"] == "expected/tinya"
    assert [(p["captain"], p["agent"]) for p in tier["pairs"]] == [
        ("expected/tinya", "fakea"), ("expected/tinya", "fakeb"),
        ("cumsum/tinya", "fakea"), ("cumsum/tinya", "fakeb")]
    assert all(p["games"] == 2 for p in tier["pairs"]) and tier["default"]["games"] == 4
    assert tier["default"]["win_rate"]["value"] == pytest.approx(
        np.mean([p["win_rate"]["value"] for p in tier["pairs"][:2]]))
    assert md.index("## Headline: foreign tier") < md.index("## Same-family cross-play")


def test_without_the_packages_the_tier_is_skipped_with_one_line(tiny, tmp_path, monkeypatch, capsys):
    for name, source in list(SOURCES.items()):
        monkeypatch.setitem(SOURCES, name, dataclasses.replace(source, installed=lambda: False))
    report, md = run_bench(tiny, tmp_path / "out")
    assert "pip install -r requirements-dev.txt" in report["foreign"]["skipped"]
    assert "foreign tier skipped" in capsys.readouterr().err
    assert "Not run: foreign tier skipped" in md
    _, md = run_bench(tiny, tmp_path / "none", "--no-foreign")
    assert "Not run (--no-foreign)." in md
