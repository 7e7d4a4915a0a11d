"""Human players: commands, typos and bad input, first through a fake terminal, then through
the real program with scripted stdin (human-vs-auto games played to the end)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import (
    KEY,
    WORDS,
    FakeTerminal,
    assert_clean,
    dealt_board,
    interruptible,
    legal_hints,
    own_cards,
    run,
)

from board import BLUE, NEUTRAL, RED, Board
from engine import AutoTeam, Game, Team
from model import Hint
from players import HumanAgent, HumanCaptain
from prompts import EMPTY_AGENT, EMPTY_CAPTAIN, MAX_INPUT, QuitGame, command, did_you_mean

ROOT = Path(__file__).resolve().parent.parent


def human_game(terminal: FakeTerminal, revealed: set[str] = frozenset()) -> Game:
    board = Board.from_key(WORDS, KEY, [w in revealed for w in WORDS])
    team = Team(RED, HumanCaptain(terminal), HumanAgent(terminal))
    return Game(board, {RED: team, BLUE: AutoTeam(BLUE)}, seed=0)


# --- the human captain ------------------------------------------------------------------


def test_captain_refuses_bad_hints_with_reasons_then_accepts_a_good_one():
    terminal = FakeTerminal("", "   ", "help", "board", "ocean", "ocean 12", "ocean -1", "ocean two",
                            "apple 2", "apples 1", "forests 1", "sea-side 2", "ox 1", "café 1", "x" * 5000,
                            "\x00\x1b[2J", "Ocean 2")
    game = human_game(terminal)
    assert game.teams[RED].captain.give_hint(game).hint == Hint("ocean", 2)
    told = terminal.told
    assert told[0:2] == [EMPTY_CAPTAIN, EMPTY_CAPTAIN]                         # "" and "   "
    assert "Give a hint as one word and a count" in told[2]                    # help
    assert "one word and a count" in told[3]                                   # "ocean"
    assert told[4:7] == ["the count must be 0-9 or 'unlimited', not '12'",
                         "the count must be 0-9 or 'unlimited', not '-1'",
                         "the count must be 0-9 or 'unlimited', not 'two'"]
    assert told[7] == "That hint is not allowed: 'apple' is a word on the board."
    assert told[8] == "That hint is not allowed: 'apples' contains the board word 'apple'."
    assert told[9] == "That hint is not allowed: 'forests' contains the board word 'forest'."
    plain = "a hint is one word of the plain letters a-z (no accents, digits, hyphens or apostrophes)"
    assert plain in told[10] and "at least 3 letters" in told[11]
    assert told[12] == f"That hint is not allowed: {plain}."                  # café
    assert told[13] == "That line is too long (5,000 characters; at most 200)."
    assert "one word and a count" in told[14]                                  # escape codes: "[2j"
    assert len(told) == 15
    assert len(terminal.prompts) == 17                                         # one prompt per line
    assert terminal.shown == [True, True]                                      # start + 'board'


def test_captain_may_give_unlimited_and_zero():
    for text, count in [("ocean unlimited", None), ("ocean 0", 0), ("OCEAN Inf", None)]:
        game = human_game(FakeTerminal(text))
        assert game.teams[RED].captain.give_hint(game).hint == Hint("ocean", count)


def test_quit_and_eof_leave_the_captain_prompt():
    game = human_game(FakeTerminal("help", "QUIT"))
    with pytest.raises(QuitGame):
        game.teams[RED].captain.give_hint(game)
    game = human_game(FakeTerminal("help"))
    with pytest.raises(EOFError):
        game.teams[RED].captain.give_hint(game)


# --- the human agent --------------------------------------------------------------------


def test_agent_commands_typos_and_bad_input():
    terminal = FakeTerminal("", "pass", "help", "board", "99", "brige", "APPLE ", "日本語", "y" * 10_000,
                            "\udcff\udcfe", "\t", "/frobnicate", "/pass", "bridge")
    game = human_game(terminal, revealed={"apple"})
    assert game.teams[RED].agent.guess(game, Hint("ocean", 2), 0) == "bridge"
    told = terminal.told
    assert told[0] == EMPTY_AGENT
    assert told[1] == "Make at least one guess before you pass."
    assert told[2].startswith("Type a word from the board to turn it over.")
    assert told[3] == "'99' is not a face-down card on the board. Type 'board' to see it."
    assert told[4] == "'brige' is not on the board. Did you mean BRIDGE?"
    assert told[5] == "APPLE is already turned over."
    assert told[6] == "'日本語' is not a face-down card on the board. Type 'board' to see it."
    assert told[7] == f"That line is too long (10,000 characters; at most {MAX_INPUT})."
    assert told[8:10] == [EMPTY_AGENT, EMPTY_AGENT]              # unprintable, then a tab
    assert told[10] == "'/frobnicate' is not a command. Type 'help' for the commands."
    assert told[11] == "Make at least one guess before you pass."
    assert len(told) == 12
    assert terminal.prompts == ["red agent, guess (3 left)> "] * 14
    assert terminal.shown == [False, False]                     # the agents' view, at start and on 'board'


def test_a_card_called_like_a_command_is_turned_over_only_when_the_person_says_so():
    # Issue 40: with a card PASS face down, 'pass' turned the card over: a person who had not read
    # the help lost a card. Now the game asks which was meant; '/pass' is always the command.
    words = ["pass", "board", *WORDS[2:]]
    board = Board.from_key(words, KEY, [False] * len(words))
    terminal = FakeTerminal("pass", "maybe", "/pass", "/pass", "pass", "card",
                            "board", "/board", "board", "card", "board", "board", "pass")
    game = Game(board, {RED: Team(RED, HumanCaptain(terminal), HumanAgent(terminal)),
                        BLUE: AutoTeam(BLUE)}, seed=0)
    agent = game.teams[RED].agent
    # Before any guess: 'pass' asks; '/pass' then is the command, refused before a first guess.
    assert agent.guess(game, Hint("ocean", 2), 0) == "pass"      # ...and 'card' turns PASS over
    question = "PASS is a card on the board: type card to turn it over, or /pass to pass> "
    assert terminal.prompts[1] == question
    assert terminal.told == ["Type 'card' to turn over PASS, or '/pass'.",
                             "Make at least one guess before you pass.",
                             "Make at least one guess before you pass."]
    board.reveal("pass", RED)
    assert agent.guess(game, Hint("ocean", 2), 1) == "board"      # '/board' shows; 'board' asks
    assert "BOARD is a card on the board: type card to turn it over, or /board to see the board> " \
        in terminal.prompts
    board.reveal("board", RED)
    assert agent.guess(game, Hint("ocean", 2), 2) is None          # both turned over: plain commands
    assert terminal.shown == [False, False, False, False]          # start, '/board', 2 x 'board'
    assert command("pass", ["pass"]) is None and command("/pass", ["pass"]) == "pass"
    assert command("pass") == "pass" and command("/quit", ["quit"]) == "quit"


def test_a_card_called_pass_and_the_pass_command_after_a_guess():
    words = ["pass", *WORDS[1:]]
    board = Board.from_key(words, KEY, [False] * len(words))
    terminal = FakeTerminal("pass", "pass")
    game = Game(board, {RED: Team(RED, HumanCaptain(terminal), HumanAgent(terminal)),
                        BLUE: AutoTeam(BLUE)}, seed=0)
    assert game.teams[RED].agent.guess(game, Hint("ocean", 2), 1) is None   # 'pass' twice: passes
    assert not board.card("pass").revealed


def test_quit_is_asked_about_when_a_card_is_called_quit():
    words = ["quit", *WORDS[1:]]
    board = Board.from_key(words, KEY, [False] * len(words))
    terminal = FakeTerminal("quit", "card", "quit", "quit")
    game = Game(board, {RED: Team(RED, HumanCaptain(terminal), HumanAgent(terminal)),
                        BLUE: AutoTeam(BLUE)}, seed=0)
    assert game.teams[RED].agent.guess(game, Hint("ocean", 1), 0) == "quit"
    with pytest.raises(QuitGame):
        game.teams[RED].agent.guess(game, Hint("ocean", 1), 1)


def test_agent_typo_gets_did_you_mean_and_a_case_blind_match_is_taken():
    terminal = FakeTerminal("brigde", "castel", "  Bridge  ")
    game = human_game(terminal)
    assert game.teams[RED].agent.guess(game, Hint("ocean", 2), 0) == "bridge"
    assert terminal.told == ["'brigde' is not on the board. Did you mean BRIDGE?",
                             "'castel' is not on the board. Did you mean CASTLE?"]


def test_agent_may_pass_after_one_guess_and_the_prompt_shows_guesses_left():
    terminal = FakeTerminal("stop")
    game = human_game(terminal)
    assert game.teams[RED].agent.guess(game, Hint("ocean", 2), 1) is None
    assert terminal.prompts == ["red agent, guess (2 left)> "]
    terminal = FakeTerminal("end")
    game = human_game(terminal)
    assert game.teams[RED].agent.guess(game, Hint("ocean", None), 3) is None
    assert terminal.prompts == ["red agent, guess (no limit)> "]


def test_did_you_mean_only_for_near_words():
    assert did_you_mean("pianno", ["piano", "ocean"]) == "'pianno' is not on the board. Did you mean PIANO?"
    assert "Did you mean" not in did_you_mean("xylophone", ["piano", "ocean"])


def test_a_human_turn_in_the_engine():
    terminal = FakeTerminal("zebra 1", "apple", "bridge", "castle")
    game = human_game(terminal)
    game.play_turn()
    assert [w for w, _ in game.history[0].guesses] == ["apple", "bridge"]   # count+1, then the turn ends
    assert game.team is BLUE and terminal.lines == ["castle"]


# --- the real program, driven through stdin ---------------------------------------------


@pytest.mark.parametrize("seed", [3, 8])
def test_human_vs_auto_game_through_stdin_reaches_the_end(seed):
    board = dealt_board(seed)
    red = own_cards(board, RED)
    first, second, third = legal_hints(board, 3)
    typo = red[0][:-1] + red[0][-1] * 2                   # e.g. "ocean" -> "oceann"
    script = [
        # turn 1: the agents look away (Enter), bad input at the captain's prompt, then a hint
        # for 1 (2 guesses)
        "", "", "   ", "help", "board", "ocean 12", "ocean", "x" * 5000, "café 2", "日本 1",
        f"{red[0]} 2", f"{red[0]}s 1", f"{first} 1",
        # the screen is cleared and passed to the agents (Enter); bad input, a refused pass, a
        # typo, then two own cards (count+1 ends the turn)
        "", "", "pass", "help", "board", "99", "💥", "z" * 3000, typo, red[0].upper(), red[1],
        # turn 2: a hint for 2, one card, then a voluntary pass
        "", f"{second} 2", "", red[0], red[2], "pass",
        # turn 3: unlimited, all the rest
        "", f"{third} unlimited", "", *red[3:],
    ]
    out, err = assert_clean(run(["--red", "human:human", "--blue", "auto", "--seed", str(seed),
                                 "--no-log"], "\n".join(script) + "\n"))
    assert "*** RED wins: red found all their agents. ***" in out
    assert all(word.upper() in out for word in board.words)            # the dealt board is the shown one
    assert "Give a hint as one word and a count" in out                   # help
    assert "the count must be 0-9 or 'unlimited', not '12'" in out
    assert "give one word and a count" in out
    assert "a hint is one word of the plain letters a-z" in out
    assert "That line is too long (5,000 characters; at most 200)." in out
    assert f"That hint is not allowed: '{red[0]}' is a word on the board." in out
    assert f"That hint is not allowed: '{red[0]}s' contains the board word '{red[0]}'." in out
    assert "Make at least one guess before you pass." in out
    assert "Type a word from the board to turn it over." in out
    assert "'99' is not a face-down card on the board." in out
    assert f"Did you mean {red[0].upper()}?" in out
    assert f"{red[0].upper()} is already turned over." in out
    assert f"RED captain: {first.upper()} 1   (2 guesses)" in out
    assert "RED passes." in out
    assert "(captain's view)" in out and "(agents' view)" in out
    # Hot seat: each hand-over clears the screen and waits; the agents never see the key.
    assert out.count("RED captain's turn: agents, look away.") == 3
    assert out.count("(screen cleared)") == 3 and out.count("Pass the screen to the RED agents") == 3
    for agents_screen in out.split("(screen cleared)")[1:]:
        assert "(captain's view)" not in agents_screen.split("agents, look away")[0]
    assert out.count("red captain, your hint> ") == 3 + 11                # 11 refused lines re-prompted
    assert err.strip() == ""


def test_eof_mid_game_leaves_with_one_line():
    board = dealt_board(5)
    hint = legal_hints(board, 1)[0]
    result = run(["--red", "human:human", "--blue", "auto", "--seed", "5", "--no-log"],
                 f"\n{hint} 2\n\n{own_cards(board, RED)[0]}\n")   # Enter at each hand-over
    out, err = assert_clean(result)
    assert out.rstrip().endswith("red agent, guess (2 left)> \nGoodbye.")
    assert err == ""


def test_quit_abandons_the_game(hints_for_the_ai):
    out, _ = hints_for_the_ai
    assert out.rstrip().endswith("Game abandoned.")


def test_eof_at_the_very_start_and_bytes_that_are_not_utf8():
    out, err = assert_clean(run(["--red", "human:human", "--blue", "auto", "--seed", "2", "--no-log"], b""))
    assert out.rstrip().endswith("Goodbye.")
    out, err = assert_clean(run(["--red", "human:human", "--blue", "auto", "--seed", "2", "--no-log"],
                                b"\n\xff\xfe\xfd 3\n\xc3\n"))
    assert out.count("red captain, your hint> ") == 3 and out.rstrip().endswith("Goodbye.")


def test_ctrl_c_at_a_prompt_leaves_cleanly():
    env = {**os.environ, "NO_COLOR": "1"}
    process = subprocess.Popen([sys.executable, str(ROOT / "main.py"), "--red", "human:human",
                                "--blue", "auto", "--seed", "4", "--no-log"], cwd=ROOT, env=env,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               preexec_fn=interruptible)
    deadline, seen = time.monotonic() + 60, b""
    while b"Enter to see the key. " not in seen and time.monotonic() < deadline:
        seen += os.read(process.stdout.fileno(), 4096)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert b"Traceback" not in err
    assert (seen + out).decode().rstrip().endswith("Goodbye.")
    assert process.returncode == 130


def test_a_person_guessing_hears_what_the_ai_meant_only_after_the_turn(tmp_path):
    # Issue 40: after a turn the guesser could not learn what the captain meant, --explain was
    # refused while a person guessed, and the log kept no targets. Before the guesses nothing of
    # it shows (it would give the answers away); after the turn, what it meant, the cards still
    # face down counted, not named; the log keeps the targets.
    board = dealt_board(5)
    bystander = next(c.word for c in board.cards if c.color is NEUTRAL)
    log = tmp_path / "games.jsonl"
    out, err = assert_clean(run(["--red", "ai:human", "--blue", "auto", "--seed", "5", "--log", str(log),
                                 "--explain"], f"{bystander}\nquit\n"))
    before, after = out.split("red agent, guess", 1)
    assert "RED captain: " in before
    assert not any(text in before for text in ("It means", "Most dangerous", "meant", "sure"))
    record = json.loads(log.read_text())
    targets = next(t["targets"] for t in record["turns"] if t["team"] == "red")
    assert targets and all(board.card(w).color is RED for w in targets)
    # The bystander was no target: every card the captain meant is still face down, so unnamed.
    cards = "card" if len(targets) == 1 else "cards"
    assert (f"The captain meant: {len(targets)} {cards} still face down (named at the end of the "
            "game).\n") in after
    assert not any(w.upper() in after.split("The captain meant")[1].split("\n")[0] for w in targets)
    assert "It expects a person to find" in after and "Most dangerous: " in after
    assert "--explain" not in err


def test_a_human_captain_sees_the_board_once_per_turn(hints_for_the_ai):
    out, _ = hints_for_the_ai
    before_prompt = out.split("red captain, your hint> ")[0]
    word = dealt_board(6).words[0].upper()
    assert before_prompt.count(word) == 1 and "(captain's view)" in before_prompt


def test_a_human_captain_loads_the_rules_before_the_key_is_shown(monkeypatch):
    # Issue 40: in hot seat the first hint's check loaded the lemma lists (about 1.6 s) with the
    # key still on screen, before the screen was cleared for the agents.
    import support.lexicon

    order: list[str] = []
    real = support.lexicon.asked_lemmas   # a word outside the shipped lists (a person's hint) asks it
    monkeypatch.setattr(support.lexicon, "asked_lemmas", lambda word: order.append("rules") or real(word))

    class Watched(FakeTerminal):
        def show(self, board, team, turns, captain):
            order.append("key" if captain else "agents' view")

    game = human_game(Watched("zebra 1"))
    game.teams[RED].captain.give_hint(game)
    assert order.index("rules") < order.index("key")
