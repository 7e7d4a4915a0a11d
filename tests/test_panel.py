"""Blind panels of the game's hints for a person to read (lab/benchmarks/panel.py)."""

import random

import pytest

from lab.benchmarks.panel import (
    CONTROL,
    GIVEN,
    KEPT_OUT,
    MET,
    Item,
    blind,
    item_line,
    read_answers,
    tally,
    turn,
)

COLORS = {"sheep": "RED", "wool": "RED", "cook": "ASSASSIN", "oven": "NEUTRAL", "ship": "BLUE"}


def item(hint="lamb", count=1, seed=1, kind=CONTROL, source="glove-people", targets=("sheep",)):
    return Item(source, seed, hint, count, tuple(COLORS), dict(COLORS), "RED", targets, kind)


def test_a_turn_ends_at_the_first_card_not_the_teams():
    two = item(count=2, targets=("sheep", "wool"))
    assert turn(two, ["sheep", "wool"]) == (2, False, True)
    assert turn(two, ["sheep", "cook", "wool"]) == (1, True, True)
    assert turn(two, ["oven", "sheep"]) == (0, False, False)
    assert turn(item(), ["wool"]) == (1, False, False)   # an own card, but not the one meant
    assert turn(two, []) == (0, False, False)


def test_a_pick_not_face_down_is_refused():
    with pytest.raises(ValueError, match="GOAT"):
        turn(item(), ["goat"])


def test_the_panel_holds_every_item_of_its_kind_and_as_many_others():
    met = [item(hint=f"met{i}", seed=i, kind=MET) for i in range(3)]
    others = [item(hint=f"other{i}", seed=i) for i in range(10)]
    again = item(hint="met0", seed=0, kind=MET, source="mpnet-people")   # both judges, one board
    panel = blind([*met, again, *others], MET, random.Random(7))
    assert sorted(i.hint for i in panel if i.kind == MET) == ["met0", "met1", "met2"]
    assert len([i for i in panel if i.kind == CONTROL]) == 3


def test_the_panel_is_the_same_whatever_order_the_games_came_in():
    games = [item(hint=f"h{i}", seed=i, kind=KEPT_OUT if i % 4 == 0 else GIVEN) for i in range(20)]
    first = blind(games, KEPT_OUT, random.Random(7))
    assert blind(list(reversed(games)), KEPT_OUT, random.Random(7)) == first


def test_an_item_shows_no_colour():
    line = item_line(4, item())
    assert line.split() == ["4", "LAMB", "1", "COOK", "OVEN", "SHEEP", "SHIP", "WOOL"]
    assert not any(colour in line for colour in ("RED", "BLUE", "ASSASSIN", "NEUTRAL"))


def test_the_tally_counts_each_kind_and_asks_for_every_answer():
    items = [item(kind=MET), item(hint="mutton"), item(hint="roast", kind=MET),
             item(hint="flock", count=2, targets=("sheep", "wool"))]
    answers = read_answers(["0 sheep", "", "1 ship", "2 cook sheep", "3 wool sheep"])
    assert tally(items, answers) == {
        MET: dict(items=2, assassin=1, meant=1, whole=1, own=1),
        CONTROL: dict(items=2, assassin=0, meant=1, whole=1, own=2)}
    with pytest.raises(ValueError, match=r"\[2, 3\]"):
        tally(items, read_answers(["0 sheep", "1 ship"]))
