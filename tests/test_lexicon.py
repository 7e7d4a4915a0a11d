"""The lexicon of the shipped word lists: the libraries' answers, computed once and read back."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import support.lexicon as lexicon
from common import board_words, hint_words

ROOT = Path(__file__).resolve().parent.parent
WORDS = ["colours", "grey", "gray", "ran", "dogs", "ocean", "theatre", "pink panther", "zebra"]


@pytest.fixture
def small(tmp_path, monkeypatch):
    """The lexicon of WORDS, kept in tmp_path; every cache of the module emptied before and after."""
    def clear():
        for function in (lexicon.shipped, lexicon.lemmas, lexicon.lemma_of, lexicon.spellings):
            function.cache_clear()
    monkeypatch.setattr(lexicon, "lexicon_path", lambda: tmp_path / "lexicon.json")
    monkeypatch.setattr(lexicon, "shipped_words", lambda: list(WORDS))
    clear()
    yield tmp_path / "lexicon.json"
    clear()


def test_the_lexicon_says_what_the_libraries_say(small):
    read_back = lexicon.Lexicon.from_json(lexicon.Lexicon.asked(WORDS).to_json("k"))
    for word in WORDS:
        assert read_back.lemmas[word] == lexicon.asked_lemmas(word)
        assert read_back.lemma_of[word] == lexicon.asked_lemma_of(word)
        assert read_back.spellings[word] == lexicon.asked_spellings(lexicon.asked_lemmas(word))
        assert read_back.zipf[word] == lexicon.asked_zipf(word)   # exactly: the floats round-trip
    assert {"colour", "color"} <= read_back.spellings["colours"] and "gray" in read_back.spellings["grey"]
    assert read_back.lemma_of["ran"] == "run" and read_back.zipf["ocean"] > 4


def test_written_once_read_back_and_asked_again_when_its_key_changes(small, monkeypatch):
    assert lexicon.lemmas("dogs") == {"dogs", "dog"} and small.is_file()
    data = json.loads(small.read_text())
    data["zipf"][WORDS.index("ocean")] = 1.25   # a planted answer: read back, not asked again
    small.write_text(json.dumps(data))
    lexicon.shipped.cache_clear()
    assert lexicon.zipf(["Ocean", "unheardofword"]).tolist() == [1.25, 0.0]
    monkeypatch.setattr(lexicon, "LIBRARIES", (*lexicon.LIBRARIES, "numpy"))   # another library's answers
    lexicon.shipped.cache_clear()
    assert lexicon.zipf(["ocean"])[0] > 4 and json.loads(small.read_text())["key"] != data["key"]


def test_an_unreadable_file_is_asked_again_and_a_word_outside_the_lists_is_asked(small):
    small.write_bytes(b"\x00 not json")
    assert lexicon.spellings("theatre") >= {"theatre", "theater"}
    assert json.loads(small.read_text())["words"] == WORDS
    assert lexicon.lemmas("cats") == {"cats", "cat"}   # not in WORDS: lemminflect answers


def test_the_shipped_lists_are_in_the_lexicon():
    words = lexicon.shipped_words()
    assert set(hint_words()) | set(board_words()) == set(words)
    assert np.array_equal(lexicon.zipf(hint_words()[:50]), [lexicon.asked_zipf(w) for w in hint_words()[:50]])


def test_a_start_reads_the_lexicon_without_loading_the_libraries():
    """The hint filter over the shipped vocabulary, a board's people features (Zipf) and the
    legality of a board's words: answered from the lexicon, with no lemminflect, breame or wordfreq."""
    script = ("import sys, common, model, board; f = model.hint_filter(common.hint_words());"
              "f.legal(board.Board.random(common.board_words(), __import__('numpy').random.default_rng(1)));"
              "common.zipf(common.board_words()); common.lemma_of(common.board_words()[0]);"
              "print(sorted(m for m in ('lemminflect', 'breame', 'wordfreq') if m in sys.modules))")
    runs = [subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True,
                           timeout=300) for _ in range(2)]   # the first may write the lexicon
    assert runs[1].returncode == 0, runs[1].stderr
    assert runs[1].stdout.strip() == "[]"
