"""The command line: unattended AI games, the team prompt, other word lists, the game log."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest
from helpers import ROOT, assert_clean, dealt_board, run, typed

from common import load_words

WINNER = re.compile(r"\*\*\* (RED|BLUE) wins: (.+)\. \*\*\*")
FIRST_GRID_LINE = re.compile(r"^([\[(][RBNA ][\])] \S+ *){5}$", re.MULTILINE)


def test_ai_vs_ai_plays_to_a_winner_unattended():
    # Uses the SBERT cache in data/cache (built on first use, ~10 s or more on a cold machine).
    out, _ = assert_clean(run(["--red", "ai:ai", "--blue", "ai:ai", "--seed", "1", "--no-log"], b""),
                          code=0)
    assert len(WINNER.findall(out)) == 1
    assert FIRST_GRID_LINE.search(out)
    hints = re.findall(r"^(RED|BLUE) captain: (\S+) (\d|unlimited)", out, re.MULTILINE)
    assert hints, "the AI gave no hint"
    for team in ("RED", "BLUE"):
        words = [word for t, word, _ in hints if t == team]
        assert len(words) == len(set(words)), f"{team} repeated a hint: {words}"
    board = dealt_board(1)
    assert all(word.upper() in out for word in board.words)
    assert "Goodbye" not in out


@pytest.mark.slow
def test_ai_vs_ai_is_reproducible_with_a_seed():
    args = ["--red", "ai:ai", "--blue", "ai:ai", "--seed", "7", "--no-log"]
    first, _ = assert_clean(run(args, b""))
    second, _ = assert_clean(run(args, b""))
    assert first == second and WINNER.search(first)


def test_the_team_prompt_asks_each_team_and_repeats_after_nonsense(tmp_path):
    log = tmp_path / "games.jsonl"
    out, _ = assert_clean(run(["--seed", "2", "--log", str(log)], "nonsense\n  AUTO \nsolo\n"))
    assert out.count("red team (human:human / human:ai / ai:human / ai:ai / auto) [ai:human]> ") == 2
    assert out.count("blue team (") == 1
    assert "unknown team 'nonsense'" in out
    assert WINNER.search(out)
    record = json.loads(log.read_text().splitlines()[-1])
    assert record["teams"] == {"red": "auto", "blue": "auto"} and record["seed"] == 2
    assert record["winner"] in ("red", "blue") and len(record["board"]) == 25
    assert record["board"] == dealt_board(2).words
    assert all(len(turn["guesses"]) == 1 and turn["hint"] is None for turn in record["turns"])


def test_the_team_prompt_says_what_captain_agent_means_and_enter_starts_a_persons_game(tmp_path):
    # Three Enters: red is ai:human (the AI gives hints, the person guesses) against an ai:ai
    # team at the default level; a person plays, not a spectator (red starts on seed 4, so the
    # person's turn comes whatever the opponent does).
    log = tmp_path / "games.jsonl"
    out, _ = assert_clean(run(["--seed", "4", "--log", str(log)], "\n\n\n"))
    assert "ai:human means the AI\ngives the hints and you guess" in out
    assert "AI level (easy / normal / hard) [normal]> " in out
    assert "red agent, guess" in out and "(captain's view)" not in out
    record = json.loads(log.read_text())
    assert record["teams"] == {"red": "ai:human (normal)", "blue": "ai:ai (normal)"}
    assert record["reason"] == "abandoned: the input closed" and record["seed"] == 4


def test_short_names_at_the_prompt_and_help_shows_the_rules(tmp_path):
    log = tmp_path / "games.jsonl"
    out, _ = assert_clean(run(["--seed", "3", "--log", str(log)], "help\na:a\na\n"))
    assert "Codenames in brief" in out
    assert WINNER.search(out)
    record = json.loads(log.read_text())
    assert record["teams"] == {"red": "ai:ai (normal)", "blue": "ai:ai (normal)"}
    assert all(turn["hint"] is not None for turn in record["turns"])


def test_the_log_records_the_seed_used_and_starts_each_game_on_its_own_line(tmp_path):
    # Issue: a half line left in the log swallowed the next record; an unseeded game logged null.
    log = tmp_path / "games.jsonl"
    log.write_text('{"half": ')
    out, _ = assert_clean(run(["--red", "auto", "--blue", "auto", "--log", str(log)], b""))
    lines = log.read_text().splitlines()
    assert lines[0] == '{"half": ' and len(lines) == 2
    record = json.loads(lines[1])
    seed = record["seed"]
    assert isinstance(seed, int) and f"replay it with --seed {seed}" in out
    assert record["board"] == dealt_board(seed).words and record["reason"].endswith("found all their agents")


def test_play_again_deals_a_new_game_for_the_same_teams(tmp_path):
    log = tmp_path / "games.jsonl"
    board = dealt_board(5)
    red = [c.word for c in board.cards if c.color.value == "red"]
    # auto against a person guessing for an AI... here a person guesses for auto's rival: the red
    # human captain + human agent hot seat, every hint 'unlimited' so one turn can win.
    from test_human_input import legal_hints
    hint = legal_hints(board, 1)[0]
    script = ["", f"{hint} unlimited", "", *red, "y", "", "quit"]
    out, _ = assert_clean(run(["--red", "human:human", "--blue", "auto", "--seed", "5", "--log", str(log)],
                              "\n".join(script) + "\n"))
    assert "Play again? [Y/n]> " in out and "Game 6 (replay it with --seed 6)" in out
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert [r["seed"] for r in records] == [5, 6]
    assert records[1]["reason"] == "abandoned: a player quit"


def test_eof_at_the_team_prompt_is_a_clean_goodbye():
    out, err = assert_clean(run([], b""))
    assert out.rstrip().endswith("Goodbye.") and err == ""


@pytest.mark.parametrize("answers", ["quit\n", "auto\nQ\n", "EXIT\n"])
def test_quit_at_the_team_prompt_leaves(answers):
    out, err = assert_clean(run(["--no-log"], answers))
    assert out.rstrip().endswith("Goodbye.") and "unknown team" not in out and err == ""


def test_human_team_from_the_prompt_then_eof():
    out, _ = assert_clean(run(["--seed", "1", "--no-log"], "h:h\nauto\n"))
    assert "agents, look away" in out and out.rstrip().endswith("Goodbye.")


def test_bad_flags_are_refused_by_argparse_without_a_traceback():
    result = run(["--red", "robot"], b"")
    err = result.stderr.decode()
    assert result.returncode == 2 and "Traceback" not in err
    assert "unknown team 'robot'" in err
    result = run(["--seed", "abc"], b"")
    err = result.stderr.decode()
    assert result.returncode == 2 and "argument --seed" in err and "'abc'" in err
    assert "Traceback" not in err


def test_help_lists_the_flags():
    out, _ = assert_clean(run(["--help"], b""))
    for flag in ("--red", "--blue", "--seed", "--words", "--sources", "--initializer", "--sbert-model",
                 "--rebuild", "--captain", "--agent", "--explain", "--log", "--no-log"):
        assert flag in out


def test_a_missing_or_short_word_list_is_a_clear_error_that_names_it(tmp_path):
    result = run(["--red", "auto", "--blue", "auto", "--words", str(tmp_path / "none.txt"), "--no-log"], b"")
    assert result.returncode == 2 and result.stderr.decode().splitlines() == [
        f"python main.py: --words {tmp_path / 'none.txt'} cannot be read (No such file or directory)"]
    short = tmp_path / "short.txt"
    short.write_text("\n".join(f"word{i}" for i in range(10)))
    result = run(["--red", "auto", "--blue", "auto", "--words", str(short), "--no-log"], b"")
    assert result.returncode == 2 and result.stderr.decode().splitlines() == [
        f"python main.py: --words {short} holds 10 distinct words: a board needs 25"]


def test_every_flag_and_file_is_checked_before_the_first_question(tmp_path):
    # Issue 69: --initializer nonsense was refused only after the questions at the start.
    a_file = tmp_path / "a.txt"
    a_file.write_text("one\n")
    wrong = {"--initializer": ["nonsense"], "--rebuild": ["sbert", "nonsense"], "--words": [str(a_file)],
             "--fasttext-model": [str(tmp_path / "none.bin")], "--sbert-model": [str(a_file)],
             "--log": [str(tmp_path)], "--profiles": [str(a_file)], "--sources": [str(a_file)],
             "--red": ["robot"], "--level": ["extreme"], "--player": ["../x"], "--captain": ["nope"]}
    for flag, values in wrong.items():
        result = run([flag, *values], b"\n\n\n")   # Enter at every question, were one asked
        out, err = result.stdout.decode(), result.stderr.decode()
        assert result.returncode == 2 and out == "", (flag, out)
        assert len(err.splitlines()) == 1 and flag in err and "Traceback" not in err, (flag, err)


NOVEL_WORDS = ["volcano", "penguin", "trumpet", "saxophone", "glacier", "cactus", "lighthouse", "submarine",
               "tornado", "giraffe", "helicopter", "pyramid", "skeleton", "vampire", "wizard", "dinosaur",
               "astronaut", "kangaroo", "igloo", "lobster", "compass", "telescope", "avalanche", "harpoon",
               "parachute", "umbrella", "microscope", "caravan", "sombrero", "gondola"]


def novel_words_file(tmp_path) -> tuple[list[str], str]:
    """A word list none of whose words is in data/board_words_en.txt, in upper case with a comment."""
    own_list = set(load_words(ROOT / "data" / "board_words_en.txt"))
    novel = [w for w in NOVEL_WORDS if w not in own_list]
    assert len(novel) >= 25
    path = tmp_path / "words.txt"
    path.write_text("# my own cards\n" + "\n".join(w.upper() for w in novel) + "\n")
    return novel, str(path)


def test_words_file_deals_from_that_list(tmp_path):
    novel, path = novel_words_file(tmp_path)
    out, _ = assert_clean(run(["--red", "auto", "--blue", "auto", "--seed", "4", "--words", path,
                               "--no-log"], b""))
    assert WINNER.search(out)
    shown = set(re.findall(r"[\[(][RBNA][\])] (\S+)", out))
    assert len(shown) == 25 and {w.lower() for w in shown} <= set(novel)


@pytest.mark.slow
def test_words_file_outside_the_board_list_still_plays_with_the_ai(tmp_path):
    # Their columns are not in the cache: the AI builds them on demand (one SBERT encode).
    novel, path = novel_words_file(tmp_path)
    out, _ = assert_clean(run(["--red", "ai:ai", "--blue", "ai:ai", "--seed", "4", "--words", path,
                               "--no-log", "--explain"], b""), code=0)
    assert WINNER.search(out)
    shown = set(re.findall(r"[\[(][RBNA][\])] (\S+)", out))
    assert shown and {w.lower() for w in shown} <= set(novel)
    assert "    It means " in out and "Most dangerous: " in out   # --explain shows the AI's reasons


def test_a_person_giving_hints_waits_before_the_first_prompt_not_after_it(hints_for_the_ai):
    # Issue: the first hint outside the vocabulary stalled ~7 s mid-game behind a library's bar.
    board = dealt_board(6)
    out, err = hints_for_the_ai
    ready = out.index("Getting the AI agent ready to read any hint...")
    assert ready < out.index("red captain, your hint> ")
    assert "RED captain: QWERTYUIOP 1" in out
    # one line, no bars
    assert err.startswith("No datasets: the AI plays on SBERT and WordNet alone")
    assert len(err.splitlines()) == 1
    assert all(word.upper() in out for word in board.words)


def test_a_reader_that_stops_early_ends_the_game_without_a_traceback():
    # `python main.py ... | head -3`: the pipe closes mid-game.
    command = (f"{sys.executable} {ROOT / 'main.py'} --red auto --blue auto --seed 1 --no-log "
               "| head -3 >/dev/null")
    done = subprocess.run(["bash", "-o", "pipefail", "-c", command], capture_output=True, text=True,
                          timeout=120, cwd=ROOT, env={**os.environ, "NO_COLOR": "1"})
    assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr, done.stderr


# --- the set-up prompts: issue 40's small items ----------------------------------------------


def test_a_line_too_long_at_the_team_prompt_is_refused_not_echoed(monkeypatch, capsys):
    import session
    from board import RED
    from players import AUTO

    typed(monkeypatch, "x" * 5000, "auto")
    assert session.ask_composition(RED) == AUTO
    out = capsys.readouterr().out
    assert "That line is too long (5,000 characters; at most 200)." in out and "x" * 201 not in out


def test_a_rejected_team_is_echoed_as_it_was_typed(monkeypatch, capsys):
    import session
    from board import RED
    from players import Composition, Seat

    typed(monkeypatch, "human : robot", "ai : human")
    assert session.ask_composition(RED) == Composition(Seat.AI, Seat.HUMAN)   # spaces mean nothing
    assert "unknown team 'human : robot': choose one of" in capsys.readouterr().out


def test_an_unknown_level_is_called_unknown(monkeypatch, capsys):
    import session

    typed(monkeypatch, "extreme", "HARD")
    assert session.ask_level() == "hard"
    out = capsys.readouterr().out
    assert "unknown level 'extreme': choose one of easy, normal, hard" in out


@pytest.mark.parametrize("replies, again, asked", [(["maybe", "n"], False, 2), (["maybe", ""], True, 2),
                                                   (["maybe"], False, 2), (["YES"], True, 1)])
def test_play_again_asks_again_on_an_answer_that_is_not_yes_or_no(monkeypatch, capsys, replies, again,
                                                                  asked):
    import session

    typed(monkeypatch, *replies)          # the input closing counts as no
    assert session.again() is again
    out = capsys.readouterr().out
    assert out.count("Play again? [Y/n]> ") == asked
    assert ("Type y to play again, or n to stop." in out) is ("maybe" in replies)


def test_a_level_without_an_ai_captain_says_it_is_not_used():
    out, err = assert_clean(run(["--red", "auto", "--blue", "auto", "--level", "hard", "--seed", "1",
                                 "--no-log"], b""))
    assert err.strip() == ("--level hard is not used: it sets how AI captains and ai:ai teams play, "
                           "and no team has an AI captain")
    assert WINNER.search(out)


# --- a team is a Composition, read once -------------------------------------------------------


@pytest.mark.parametrize("typed, read", [("human:human", "human:human"), ("h:a", "human:ai"),
                                         (" AI : Human ", "ai:human"), ("ai", "ai:ai"), ("H", "human:human"),
                                         ("auto", "auto"), ("SOLO", "auto")])
def test_a_team_is_read_once_and_written_as_it_reads(typed, read):
    from players import COMPOSITIONS, Composition

    team = Composition.parse(typed)
    assert str(team) == read and Composition.parse(str(team)) == team and team in COMPOSITIONS


@pytest.mark.parametrize("typed", ["", "ai:", "human:ai:ai", "robot", "a:x"])
def test_a_team_that_is_not_one_says_the_choices(typed):
    from players import Composition

    with pytest.raises(ValueError, match="choose one of human:human, human:ai, ai:human, ai:ai, auto"):
        Composition.parse(typed)


def test_the_flags_hand_the_game_teams_and_the_log_writes_them_back(tmp_path):
    import main
    from players import AUTO, Composition, Seat

    args = main.parser().parse_args(["--red", "h:a", "--blue", "solo"])
    assert args.red == Composition(Seat.HUMAN, Seat.AI) and args.red.people and args.red.ai
    assert args.blue == AUTO and args.blue.auto and not args.blue.people
    log = tmp_path / "games.jsonl"
    assert_clean(run(["--red", "auto", "--blue", "auto", "--seed", "1", "--log", str(log)], b""))
    teams = json.loads(log.read_text())["teams"]
    assert {Composition.parse(label) for label in teams.values()} == {AUTO}


def test_who_plays_reads_the_flags_once_into_a_lineup(capsys):
    import main
    import session
    from board import BLUE, RED
    from players import Seat

    lineup = session.who_plays(main.parser().parse_args(["--red", "human:ai", "--blue", "ai:ai"]))
    assert lineup.level == "normal" and lineup.people and lineup.needs_ai
    assert lineup.captains(Seat.HUMAN) == {RED} and lineup.agents(Seat.AI) == {RED, BLUE}
    flags = ["--red", "auto", "--blue", "auto", "--level", "hard"]
    alone = session.who_plays(main.parser().parse_args(flags))
    assert alone.level is None and not alone.needs_ai and not alone.people
    assert "--level hard is not used" in capsys.readouterr().err


def test_at_easy_the_ai_captain_of_a_person_gives_one_card(tmp_path):
    # No ai:ai team: the level is for the person's own AI captain. Its first hint, then the input closes.
    log = tmp_path / "games.jsonl"
    _, err = assert_clean(run(["--red", "ai:human", "--blue", "auto", "--level", "easy", "--seed", "4",
                               "--log", str(log)], b""))
    record = json.loads(log.read_text())
    assert record["teams"] == {"red": "ai:human (easy)", "blue": "auto"} and "not used" not in err
    hints = [turn["hint"] for turn in record["turns"] if turn["team"] == "red"]
    assert len(hints) == 1 and hints[0][1] == 1, hints
