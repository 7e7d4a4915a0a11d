"""Companion mode: reading the table, the command loop, save and resume; one real session
through a subprocess's stdin."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import companion
from board import ASSASSIN, BLUE, NEUTRAL, RED
from common import board_words
from companion import Session, key_problem, parse_key_row, parse_words, read_key_file, read_words_file
from model import AI, Weights

ROOT = Path(__file__).resolve().parent.parent

# A table whose answer is known: red owns the four sea cards, "ocean" points at them alone.
SEA = ["whale", "ship", "beach", "wave"]
WORDS = SEA + ["apple", "pear", "piano", "cloud", "shark", "lamp", "tree", "horse", "knife",
               "ghost", "castle", "rocket", "button", "candle", "mirror", "pillow", "ladder",
               "violin", "bucket", "tiger", "garden"]
KEY_ROWS = ["RRRRR", "RRRRB", "BBBBB", "BBNNN", "NNNNA"]   # 9 red, 8 blue, 7 neutral, 1 assassin
HINTS = ("ocean", "fruit", "music", "forest")


def hand_made_ai(words=None) -> AI:
    matrix = np.full((len(HINTS), len(WORDS)), 0.05, dtype=np.float32)
    matrix[0, :4] = [0.9, 0.8, 0.7, 0.6]       # ocean → the sea cards
    matrix[0, 8] = 0.3                          # ... and a little the shark (red)
    matrix[1, 4:6] = [0.9, 0.85]                # fruit → apple, pear (red)
    matrix[2, [6, 21]] = [0.9, 0.8]             # music → piano (red), violin (neutral)
    return AI(Weights("hand-made", HINTS, tuple(WORDS), matrix), "cumsum", "greedy")


# --- reading the table ----------------------------------------------------------------------------


def test_words_are_split_on_spaces_or_on_commas_for_two_word_cards():
    assert parse_words("Whale SHIP  beach") == ["whale", "ship", "beach"]
    assert parse_words("ice cream, Ship,  new   york ") == ["ice cream", "ship", "new york"]
    assert parse_words("   ") == []


def test_key_rows_take_five_letters_in_any_case_with_spaces():
    assert parse_key_row("r b n a R") == [RED, BLUE, NEUTRAL, ASSASSIN, RED]
    assert parse_key_row("RBNAR") == parse_key_row("r,b,n,a,r")
    for bad in ("RBNA", "RBNARR", "RBNAX", "", "12345"):
        with pytest.raises(ValueError, match="a key row is 5 letters"):
            parse_key_row(bad)


def test_a_key_card_must_count_9_8_7_1_either_way():
    key = [c for row in KEY_ROWS for c in parse_key_row(row)]
    assert key_problem(key) is None
    swapped = [BLUE if c is RED else RED if c is BLUE else c for c in key]
    assert key_problem(swapped) is None
    no_assassin = [NEUTRAL if c is ASSASSIN else c for c in key]
    assert "1 assassin" in key_problem(no_assassin) and "0 assassin" in key_problem(no_assassin)
    ten_red = [RED if c is BLUE else c for c in key[:10]] + key[10:]
    assert key_problem(ten_red) is not None
    assert key_problem(key[:20]) is not None


@pytest.mark.parametrize("word", ["\U0001f40d", "r2d2", "ocean!", "a_b", "-ice", "ice-", "1st", "\u2603"])
def test_a_card_word_is_letters_only(tmp_path, monkeypatch, word):
    problem = companion.words_problem(["whale", word])
    assert problem is not None and "is not a card word: a card is letters only" in problem
    path = tmp_path / "words.txt"
    path.write_text("\n".join(WORDS[:24] + [word]), encoding="utf-8")
    with pytest.raises(ValueError, match="not a card word"):
        read_words_file(path)
    with pytest.raises(ValueError, match="not a card word"):
        Session.from_json({**Session(WORDS[:24] + [word]).to_json()})
    code, out = run(monkeypatch, ["--state", str(tmp_path / "state.json")],
                    " ".join(WORDS[:4] + [word]) + "\n" + " ".join(WORDS[:5]) + "\n")
    assert "is not a card word" in out and "that line is not taken" in out
    assert saved(tmp_path / "state.json")["words"] == WORDS[:5]


@pytest.mark.parametrize("word", ["ice cream", "jack-in-the-box", "o'clock", "o\u2019clock", "caf\u00e9"])
def test_cards_of_several_words_hyphens_apostrophes_and_accents_are_words(word):
    assert companion.words_problem(["whale", word]) is None


def test_words_and_key_files(tmp_path):
    words = tmp_path / "words.txt"
    words.write_text("# the table\n" + "\n".join(" ".join(WORDS[i:i + 5]) for i in range(0, 25, 5)))
    assert read_words_file(words) == WORDS
    words.write_text("\n".join(WORDS[:24]))
    with pytest.raises(ValueError, match="25 words, not 24"):
        read_words_file(words)
    words.write_text("\n".join(WORDS[:24] + ["WHALE"]))
    with pytest.raises(ValueError, match="WHALE is on the table twice"):
        read_words_file(words)
    key = tmp_path / "key.txt"
    key.write_text("\n".join(KEY_ROWS) + "\n\n")
    assert read_key_file(key)[9] is BLUE
    key.write_text("\n".join(KEY_ROWS[:4]))
    with pytest.raises(ValueError, match="5 rows"):
        read_key_file(key)


def test_a_session_survives_its_json_form_and_bad_files_are_refused():
    session = Session(list(WORDS), [c for row in KEY_ROWS for c in parse_key_row(row)])
    session.revealed[3] = True
    session.given["red"].append("ocean")
    again = Session.from_json(json.loads(json.dumps(session.to_json())))
    assert again == session
    for broken in ([], {"version": 99}, {**session.to_json(), "revealed": [1] * 25},
                   {**session.to_json(), "key": ["red"] * 25}, {**session.to_json(), "words": WORDS + ["x"]}):
        with pytest.raises(ValueError):
            Session.from_json(broken)


# --- a session, in process, on the hand-made AI ------------------------------------------------------


def run(monkeypatch, argv: list[str], typed: str) -> tuple[int, str]:
    """Run the companion on typed input; the exit code and everything it wrote."""
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    monkeypatch.setattr(sys, "stdout", out)   # input() writes its prompts here
    code = companion.COMMAND.main(argv, stream=out, load_ai=lambda words: hand_made_ai())
    return code, out.getvalue()


def saved(path: Path) -> dict:
    return json.loads(path.read_text())


def test_typing_the_table_with_mistakes_then_playing_then_resuming(tmp_path, monkeypatch):
    state = tmp_path / "companion.json"
    typed = "\n".join([
        " ".join(WORDS[:5]).upper(),
        " ".join(WORDS[5:10]),
        "whale tiger",                         # WHALE again: refused
        " ".join(WORDS[10:20]),
        " ".join(WORDS[20:25]) + " extra",     # 26 words: refused
        " ".join(WORDS[20:25]),
        "RRRRX",                               # not a key letter
        *KEY_ROWS[:4], "NNNNN",                # no assassin: the key is asked again
        *KEY_ROWS,
        "clue red",
        "rank ocean 2",
        "reveal whale, PEAR",
        "reveal wahle",
        "fly away",
        "",
    ])
    code, out = run(monkeypatch, ["--state", str(state)], typed)
    assert code == 0
    assert "WHALE is on the table twice" in out
    assert "a table has 25 words, not 26" in out
    assert "a key row is 5 letters" in out
    assert "That key cannot be right" in out and "0 assassin" in out
    assert "RED clue: OCEAN 4" in out
    assert "It means WHALE, SHIP, BEACH, WAVE." in out
    assert "Most dangerous: " in out
    assert "1. WHALE" in out and "The AI agent would turn over: WHALE, SHIP" in out
    assert "WHALE: turned over, red" in out and "PEAR: turned over, red" in out
    assert "Did you mean WHALE?" in out
    assert "Unknown command 'fly'" in out
    assert "Traceback" not in out
    data = saved(state)
    assert data["words"] == WORDS and data["given"]["red"] == ["ocean"]
    assert [w for w, r in zip(WORDS, data["revealed"], strict=True) if r] == ["whale", "pear"]

    # A new start resumes: the marks are there, and the AI does not repeat its clue.
    code, out = run(monkeypatch, ["--state", str(state)], "board\nclue red\nunreveal whale\nquit\n")
    assert code == 0
    assert "Resuming the session" in out and "2 cards turned over" in out
    assert "[R] WHALE" in out and "[R] PEAR" in out
    assert "RED clue: OCEAN" not in out
    assert "WHALE: face down again" in out
    assert saved(state)["revealed"][0] is False


def test_the_state_is_saved_after_every_step_even_mid_setup(tmp_path, monkeypatch):
    state = tmp_path / "companion.json"
    code, out = run(monkeypatch, ["--state", str(state)], " ".join(WORDS[:10]) + "\n")
    assert code == 0 and saved(state)["words"] == WORDS[:10] and saved(state)["key"] is None
    code, out = run(monkeypatch, ["--state", str(state)], " ".join(WORDS[10:]) + "\n" + KEY_ROWS[0] + "\n")
    assert saved(state)["words"] == WORDS and saved(state)["key"] is None
    assert "words 11-15>" in out
    code, out = run(monkeypatch, ["--state", str(state)], "\n".join(KEY_ROWS) + "\nreveal shark\n")
    data = saved(state)
    assert data["key"][:5] == ["red"] * 5 and data["revealed"][8] is True
    assert "SHARK: turned over, red" in out


def test_the_end_of_the_game_is_told(tmp_path, monkeypatch):
    state = tmp_path / "s.json"
    typed = "\n".join([" ".join(WORDS), *KEY_ROWS, "reveal garden", "clue blue", ""])
    code, out = run(monkeypatch, ["--state", str(state)], typed)
    assert "GARDEN: turned over, assassin" in out
    assert out.count("The game is over: the assassin is turned over") == 2


def test_files_on_the_command_line_and_new(tmp_path, monkeypatch):
    words, key, state = tmp_path / "w.txt", tmp_path / "k.txt", tmp_path / "s.json"
    words.write_text("\n".join(WORDS))
    key.write_text("\n".join(KEY_ROWS))
    code, out = run(monkeypatch, ["--state", str(state), "--words", str(words), "--key", str(key)],
                    "reveal ship\n")
    assert code == 0 and saved(state)["revealed"][1] is True
    # Files with a saved session need --new, said cleanly.
    code, out = run(monkeypatch, ["--state", str(state), "--words", str(words)], "")
    assert code == 2
    code, out = run(monkeypatch, ["--state", str(state), "--words", str(words), "--key", str(key),
                                  "--new"], "")
    assert code == 0 and saved(state)["revealed"] == [False] * 25
    bad = tmp_path / "bad.txt"
    bad.write_text("one two three")
    code, out = run(monkeypatch, ["--state", str(tmp_path / "t.json"), "--words", str(bad)], "")
    assert code == 2


def test_a_corrupt_state_file_is_set_aside(tmp_path, monkeypatch):
    state = tmp_path / "companion.json"
    state.write_text("{ not json")
    code, out = run(monkeypatch, ["--state", str(state)], " ".join(WORDS[:5]) + "\n")
    assert code == 0
    assert (tmp_path / "companion.bad.json").read_text() == "{ not json"
    assert saved(state)["words"] == WORDS[:5]


# --- a real session through stdin --------------------------------------------------------------------


def test_a_companion_session_through_a_real_process(tmp_path):
    # Words from the board list: their weights are cached, so the AI loads in a second or two.
    words = list(board_words()[:25])
    state = tmp_path / "companion.json"
    typed = "\n".join([" ".join(words[i:i + 5]) for i in range(0, 25, 5)] + KEY_ROWS + [
        "help", "clue red", "clue blue", "\udcff\udcfe", f"rank {'ocean'} 2", f"reveal {words[0]}",
        f"mark {words[24]}", "clue red", "quit", ""])
    flags = ["--state", str(state), "--initializer", "sbert", "--captain", "cumsum"]
    done = subprocess.run([sys.executable, "main.py", "companion", *flags], cwd=ROOT,
                          input=typed.encode("utf-8", "surrogateescape"),   # with bytes that are not UTF-8
                          capture_output=True, timeout=300)
    done.stdout, done.stderr = done.stdout.decode(), done.stderr.decode()
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr + done.stdout
    out = done.stdout
    assert "clue red | clue blue" in out                      # help
    assert "RED clue:" in out and "BLUE clue:" in out and out.count("    It means ") == 2
    assert "The AI agent would turn over:" in out
    assert f"{words[0].upper()}: turned over, red" in out
    assert f"{words[24].upper()}: turned over, assassin" in out
    assert "The game is over: the assassin is turned over" in out
    data = saved(state)
    assert data["revealed"][0] and data["revealed"][24] and sum(data["revealed"]) == 2

    resumed = subprocess.run([sys.executable, "main.py", "companion", *flags], cwd=ROOT, input="board\n",
                             capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0 and "Resuming the session" in resumed.stdout
    assert f"[R] {words[0].upper()}" in resumed.stdout and f"[A] {words[24].upper()}" in resumed.stdout


def test_an_ai_that_cannot_load_is_told_and_the_session_goes_on(tmp_path, monkeypatch):
    def broken(words):
        raise ValueError("unknown initializer 'bogus'")

    out = io.StringIO()
    typed = "\n".join([" ".join(WORDS), *KEY_ROWS, "clue red", "rank ocean", "reveal ship", ""])
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    monkeypatch.setattr(sys, "stdout", out)
    code = companion.COMMAND.main(["--state", str(tmp_path / "s.json")], stream=out, load_ai=broken)
    assert code == 0
    assert out.getvalue().count("The AI cannot be loaded: unknown initializer 'bogus'") == 2
    assert "SHIP: turned over, red" in out.getvalue()
