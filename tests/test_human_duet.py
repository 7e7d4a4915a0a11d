"""The human Duet reader on a small hand-made record (invented words), and on the real one."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from lab.evaluation.human_duet import (
    HumanDataMissing,
    available,
    giver_of,
    parse_fields,
    picks,
    read_turns,
)

HEADER = ["", "base_text", "leaning_only", "event_only", "demo_only", "personality_only",
          "all_text", "output"]


def giver(black, tan, targets) -> str:
    return f"black: {list(black)!r}, tan: {list(tan)!r}, targets: {list(targets)!r}"


def seen(remaining, hint) -> str:
    return f"remaining: {list(remaining)!r}, hint: {hint}"


def write(path: Path, rows: list[tuple[str, str]], prefixes: list[str] | None = None) -> None:
    """A task file; `prefixes` (the players' answers) go before each row's text in `all_text`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as handle:
        out = csv.writer(handle)
        out.writerow(HEADER)
        for i, (text, output) in enumerate(rows):
            all_text = prefixes[i] + text if prefixes else "x"
            out.writerow([i, text, "x", "x", "x", "x", all_text, output])


BOARD_A = ["zorp", "miv", "quell", "brask", "tunder", "felm"]
BOARD_B = ["glim", "parv", "snoot", "wex", "dralt"]


@pytest.fixture
def record(tmp_path: Path) -> Path:
    """Two boards: four turns on A (one a resubmitted no-pick row), then two on B."""
    clue_rows = [
        (giver(["felm"], ["brask"], ["zorp", "miv"]), "orbit"),
        (giver(["felm"], ["brask"], ["quell"]), "hush"),       # no pick, submitted again:
        (giver(["felm"], ["brask"], ["quell"]), "hush"),
        (giver(["felm"], ["brask"], ["tunder"]), "storm"),
        (giver(["wex"], ["dralt"], ["glim"]), "shine"),
        (giver(["wex"], ["dralt"], ["parv", "snoot"]), "nose"),
    ]
    guess_rows = [
        (seen(BOARD_A, "orbit"), "miv, zorp"),
        (seen(BOARD_A[2:], "hush"), ""),
        (seen(BOARD_A[2:], "hush"), "quell"),
        (seen(BOARD_A[3:], "storm"), "felm"),
        (seen(BOARD_B, "shine"), ""),                          # no pick, not resubmitted: kept
        (seen(BOARD_B[1:], "nose"), "snoot, parv, wex"),
    ]
    root = tmp_path / "human_duet"
    write(root / "clue_generation_task" / "val.csv", clue_rows)
    write(root / "generate_guess_task" / "val.csv", guess_rows)
    return tmp_path


def test_rows_align_and_the_resubmitted_no_pick_row_is_dropped(record: Path) -> None:
    turns = list(read_turns(record))
    assert [t.row for t in turns] == [0, 2, 3, 4, 5]
    first = turns[0]
    assert first.remaining == tuple(BOARD_A) and first.black == ("felm",) and first.tan == ("brask",)
    assert first.clue == "orbit" and first.targets == ("zorp", "miv")
    assert first.guesses == ("miv", "zorp")
    assert turns[1].guesses == ("quell",)
    assert turns[3].guesses == ()                      # a no-pick turn that was not resubmitted


def test_games_are_runs_of_shrinking_boards_with_the_same_assassins(record: Path) -> None:
    assert [t.game for t in read_turns(record)] == [0, 0, 0, 1, 1]


def test_a_new_black_set_starts_a_new_game_even_on_a_shrinking_board(tmp_path: Path) -> None:
    root = tmp_path / "human_duet"
    write(root / "clue_generation_task" / "val.csv",
          [(giver(["felm"], [], ["zorp"]), "orbit"), (giver(["brask"], [], ["miv"]), "hush")])
    write(root / "generate_guess_task" / "val.csv",
          [(seen(BOARD_A, "orbit"), "zorp"), (seen(BOARD_A[1:], "hush"), "miv")])
    assert [t.game for t in read_turns(tmp_path)] == [0, 1]


def test_a_turn_carries_its_givers_answers_to_the_survey(tmp_path: Path) -> None:
    root = tmp_path / "human_duet"
    clue_rows = [(giver(["felm"], [], ["zorp"]), "orbit"), (giver(["felm"], [], ["miv"]), "hush")]
    prefixes = ["GIVER: [age: 29, openness: 3.0], GUESSER: [None, age: 27], ",
                "GIVER: [age: 44, openness: 1.0], GUESSER: [None], "]
    write(root / "clue_generation_task" / "val.csv", clue_rows, prefixes)
    write(root / "generate_guess_task" / "val.csv",
          [(seen(BOARD_A, "orbit"), "zorp"), (seen(BOARD_A[1:], "hush"), "miv")], prefixes)
    assert [t.giver for t in read_turns(tmp_path)] == ["age: 29, openness: 3.0", "age: 44, openness: 1.0"]
    assert giver_of("black: ['felm'], targets: ['zorp']") == ""     # a row that names no giver


def test_a_resubmission_may_list_its_targets_in_another_order(tmp_path: Path) -> None:
    root = tmp_path / "human_duet"
    write(root / "clue_generation_task" / "val.csv",
          [(giver(["felm"], [], ["zorp", "miv"]), "orbit"), (giver(["felm"], [], ["miv", "zorp"]), "orbit")])
    write(root / "generate_guess_task" / "val.csv",
          [(seen(BOARD_A, "orbit"), ""), (seen(BOARD_A, "orbit"), "zorp")])
    assert [t.row for t in read_turns(tmp_path)] == [1]


def test_a_clue_that_differs_between_the_tasks_is_an_error(tmp_path: Path) -> None:
    root = tmp_path / "human_duet"
    write(root / "clue_generation_task" / "val.csv", [(giver(["felm"], [], ["zorp"]), "orbit")])
    write(root / "generate_guess_task" / "val.csv", [(seen(BOARD_A, "comet"), "zorp")])
    with pytest.raises(ValueError, match="not the guesser's hint"):
        list(read_turns(tmp_path))


def test_without_the_record_it_says_so(tmp_path: Path) -> None:
    assert not available(tmp_path)
    with pytest.raises(HumanDataMissing):
        list(read_turns(tmp_path))


def test_fields_and_picks_parse() -> None:
    fields = parse_fields("remaining: ['a b', 'c'], hint: Ocean")
    assert fields == {"remaining": ("a b", "c"), "hint": "ocean"}
    assert picks(" Force, strike ,") == ("force", "strike") and picks("") == ()


def test_the_real_record_gives_453_turns_and_people_read_845_percent(shared_datasets: Path) -> None:
    if not available(shared_datasets):
        pytest.skip("no human_duet record in the shared datasets")
    turns = list(read_turns(shared_datasets))
    assert len(turns) == 453
    first_in_targets = sum(bool(t.guesses) and t.guesses[0] in t.targets for t in turns)
    assert round(100 * first_in_targets / len(turns), 1) == 84.5
    givers = {t.giver for t in turns}
    assert len(givers) == 18 and "" not in givers
    assert all(len({t.giver for t in turns if t.game == g}) == 1 for g in {t.game for t in turns})


def test_the_tier_measures_an_agent_against_people_and_chance(record: Path) -> None:
    from lab.evaluation.human_tier import baselines, measure_agent, run

    class FirstWord:
        """Always the first face-down word in board order."""

        def guess(self, board, hint, guessed, rng, team=None):
            return board.unrevealed_words()[0]

    turns = list(read_turns(record))
    summary, _ = measure_agent(lambda turn: FirstWord(), turns)
    # first words: zorp (target), quell (target), brask (tan), glim (target), parv (target)
    assert summary["all"]["first_target"].value == 0.8 and summary["all"]["first_black"].value == 0.0
    # the person's first clicks: miv, quell, felm (black), -, snoot
    people = baselines(turns)["people"]["all"]
    assert people["first_target"].value == 0.6 and people["first_black"].value == 0.2
    assert summary["all"]["agree"].value == 0.25      # quell, of the four turns with a pick
    # every pick of the first k (k = the giver's targets), per turn: brask is a bystander
    assert summary["all"]["tan_picks"].value == pytest.approx(sum(
        len(set(t.tan) & set(t.remaining[:len(t.targets)])) for t in turns) / len(turns))
    assert run(record / "nowhere", [])["skipped"].startswith("no human Duet record")


def test_people_counts_reads_what_a_partner_found_of_each_clue() -> None:
    from lab.benchmarks.people_counts import found, report
    from lab.evaluation.human_duet import Turn

    def turn(game: int, targets: tuple, guesses: tuple) -> Turn:
        return Turn(game, 0, ("a", "b", "c", "d"), (), (), "clue", targets, guesses)

    turns = [turn(0, ("a",), ("a",)), turn(0, ("a", "b"), ("b", "c")), turn(1, ("c",), ("d",)),
             turn(1, ("c", "d"), ("d", "c", "a"))]
    hits, whole = found(turns)
    assert hits.tolist() == [1, 1, 0, 2] and whole.tolist() == [True, False, False, True]
    lines = report(turns)
    assert lines[2].startswith("| 1 | 2 (50%) | 0.50 ") and "| 50% " in lines[2]
    assert lines[4].startswith("| every turn | 4 (100%) | 1.00 ")
    assert lines[-1] == "\nCards claimed a clue: 1.50."
