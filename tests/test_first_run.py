"""The first ten minutes (issue 69): a first run in a terminal asks at most three questions before
the first hint, Enter at each starting the usual game; no question at all when no person plays;
the AI's notices wait for the answers, one short line without datasets."""

from __future__ import annotations

import threading

from helpers import Console

from common import holding, warn

HINT = r"(RED|BLUE) captain: [A-Z]+ (\d|unlimited)"
QUESTION = r"\]> "   # every question at the start ends with its default in brackets


def test_a_first_run_asks_three_questions_before_the_first_hint(tmp_path):
    (tmp_path / "sources").mkdir()   # no dataset in it
    first = ["--sources", str(tmp_path / "sources"), "--profiles", str(tmp_path / "players"),
             "--log", str(tmp_path / "games.jsonl"), "--seed", "4"]
    console = Console(first)
    try:
        questions = []
        while console.expect(QUESTION, HINT)[0] == 0:
            questions.append(console.seen[:console.at].splitlines()[-1])
            console.type("")   # Enter: the usual game
        assert [q.split(" (")[0] for q in questions] == ["red team", "blue team", "AI level"]
        before = console.seen[:console.at]
        assert "Your name" not in before and "Download" not in before and "Keep it" not in before
        assert before.count("No datasets: the AI plays on SBERT and WordNet alone") == 1
        console.expect(r"red agent, guess \(\d left\)> ")   # the person guesses for red: ai:human
        console.type("quit")
        console.expect("Game abandoned.")
    finally:
        console.close()


def test_no_question_at_all_in_a_terminal_when_no_person_plays(tmp_path):
    console = Console(["--red", "ai:ai", "--blue", "ai:ai", "--seed", "1", "--sources", str(tmp_path),
                       "--profiles", str(tmp_path / "players"), "--no-log"])
    try:
        seen = console.to_the_end()
        assert console.process.wait(timeout=120) == 0 and " wins: " in seen
        assert "> " not in seen   # no prompt of any kind: not the download, not play again
    finally:
        console.close()


def test_notices_wait_while_a_question_is_on_the_screen(capsys):
    with holding():
        worker = threading.Thread(target=warn, args=("the AI is loading",))
        worker.start()
        worker.join()
        assert capsys.readouterr().err == ""
        print("red team> ")
    assert capsys.readouterr() == ("red team> \n", "the AI is loading\n")
    warn("after")
    assert capsys.readouterr().err == "after\n"
