"""Blind panels of the captains' hints for careful readers (lab/benchmarks/panel.py)."""

import random

import pytest

from board import deal
from common import BOARD_WORDS_PATH, load_words
from lab.benchmarks.panel import (
    Item,
    clue_items,
    deal_sheets,
    headline,
    item_line,
    key_view,
    read_answers,
    tally,
    turn,
)

COLORS = {"sheep": "RED", "wool": "RED", "lamb": "RED", "cook": "ASSASSIN", "oven": "NEUTRAL", "ship": "BLUE"}


def item(hint="farm", count=1, seed=1, kind="game", targets=("sheep",), turn_=0, face_down=tuple(COLORS)):
    return Item(kind, seed, turn_, hint, count, face_down, {w: COLORS[w] for w in face_down}, "RED", targets)


def test_a_turn_ends_at_the_first_card_not_the_teams():
    two = item(count=2, targets=("sheep", "wool"))
    assert turn(two, ["sheep", "wool"]) == (2, False, True)
    assert turn(two, ["wool", "sheep"]) == (2, False, True)     # in any order
    assert turn(two, ["sheep", "cook", "wool"]) == (1, True, False)
    assert turn(two, ["oven", "sheep"]) == (0, False, False)
    assert turn(two, ["sheep", "lamb"]) == (2, False, False)    # own cards, not every one meant
    assert turn(two, ["sheep"]) == (1, False, False)            # stopped short
    assert turn(item(), ["sheep", "wool", "lamb"]) == (2, False, True)   # count + 1 picks at most


def test_a_pick_not_face_down_is_refused():
    with pytest.raises(ValueError, match="GOAT"):
        turn(item(), ["goat"])


def test_an_item_shows_no_colour_nor_what_was_meant():
    line = item_line(4, item())
    assert line.split() == ["4", "FARM", "1", "COOK", "LAMB", "OVEN", "SHEEP", "SHIP", "WOOL"]
    assert not any(word in line for word in ("RED", "BLUE", "ASSASSIN", "NEUTRAL", "game"))


def test_every_item_is_dealt_once_and_a_boards_hints_to_different_readers():
    items = [item(hint=f"h{s}{kind}", seed=s, kind=kind) for s in range(6) for kind in ("a", "b", "c")]
    sheets = deal_sheets(items, 3, random.Random(7))
    assert sorted(i.hint for sheet in sheets for i in sheet) == sorted(i.hint for i in items)
    for sheet in sheets:
        assert len({i.seed for i in sheet}) == len(sheet)    # no board twice on one sheet
        assert len({i.kind for i in sheet}) > 1              # captains mixed
    assert deal_sheets(items, 3, random.Random(7)) == sheets


def test_the_tally_counts_each_captain_and_asks_for_every_answer():
    roast = item(hint="roast", kind="human", count=2, targets=("sheep", "lamb"))
    flock = item(hint="flock", count=2, targets=("sheep", "wool"), turn_=3)
    sheets = [[item(), roast], [flock, item(hint="stew", kind="human")]]
    answers = [read_answers(["0 SHEEP", "1 lamb, sheep"]), read_answers(["0 wool oven", "junk", "1 cook"])]
    counts = tally(sheets, answers)
    game, human = counts["game"], counts["human"]
    assert (game.hints, game.own, game.whole, game.assassin, game.first, game.first_own) == (2, 2, 1, 0, 1, 1)
    assert (human.hints, human.own, human.whole, human.assassin) == (2, 2, 1, 1)
    assert headline("every dataset", game, 2) == ("Blind panel (every dataset): own cards a hint 1.00; every "
                                                  "claimed card found 50%; assassin 0% (2 hints, 2 readers)")
    with pytest.raises(ValueError, match=r"sheet 2: no answer for items \[1\]"):
        tally(sheets, [answers[0], read_answers(["0 wool"])])


def test_a_spymasters_clues_are_items_on_the_boards_shown():
    words = load_words(BOARD_WORDS_PATH)
    board, _ = deal(60000, words)
    mine = [c.word for c in board.cards if c.color is board.starting_team]
    assert f"your cards: {' '.join(sorted(w.upper() for w in mine))}" in key_view(60000, words)
    [clue] = clue_items([f"60000 SPARKLE 2 {mine[0].upper()} {mine[1].upper()}", "a note"], words)
    assert (clue.kind, clue.hint, clue.count, clue.targets) == ("human", "sparkle", 2, tuple(mine[:2]))
    other = next(c.word for c in board.cards if c.color is not board.starting_team)
    with pytest.raises(ValueError, match=other):
        clue_items([f"60000 SPARKLE 1 {other}"], words)
