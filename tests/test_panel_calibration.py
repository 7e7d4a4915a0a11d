"""The model of people against the blind panels' readers (lab/benchmarks/panel_calibration.py)."""

import json
from dataclasses import asdict

import numpy as np
import pytest

from lab.benchmarks.panel import Item, write_sheets
from lab.benchmarks.panel_calibration import (
    Reading,
    by_forecast,
    by_giver,
    forecast,
    panel_readings,
    sharpness,
)

COLORS = {"sheep": "RED", "wool": "RED", "lamb": "RED", "cook": "ASSASSIN", "oven": "NEUTRAL", "ship": "BLUE"}


class Fixed:
    """A reader with the same logits for every hint: 4 for sheep, 2 for wool, 0 for the rest."""

    name, lapse, flat = "fixed", 0.0, 1.0
    LOGITS = {"sheep": 4.0, "wool": 2.0}

    def logits(self, hints, words):
        return np.array([[self.LOGITS.get(w, 0.0) for w in words] for _ in hints])


def item(count=2, targets=("sheep", "wool"), kind="game"):
    return Item(kind, 1, 0, "farm", count, tuple(COLORS), COLORS, "RED", targets)


def test_a_forecast_is_the_readers_chances_pick_by_pick():
    whole, found, read_whole, turned = forecast(Fixed(), Reading(item(), ("sheep", "oven")))
    p_sheep = np.exp(4) / (np.exp(4) + np.exp(2) + 4)
    p_wool = np.exp(2) / (np.exp(2) + 4)
    assert whole == pytest.approx(p_sheep * p_wool + np.exp(2) / (np.exp(4) + np.exp(2) + 4)
                                  * np.exp(4) / (np.exp(4) + 4))
    assert found > whole     # lamb is an own card too
    assert (read_whole, turned) == (False, 1)   # the turn ended at OVEN
    assert forecast(Fixed(), Reading(item(), ("wool", "sheep")))[2:] == (True, 2)


def test_the_table_groups_by_giver_and_count():
    readings = [Reading(item(kind=kind), ("sheep", "wool")) for kind in ("game", "human") for _ in range(5)]
    table = by_giver([(r, forecast(Fixed(), r)) for r in readings])
    assert "| a strong human spymaster | 2 | 5 |" in table
    assert "| the AI's captains | 2 | 5 |" in table
    rows = table.splitlines()[2:]
    assert len(rows) == 2 and all("| 1.00 |" in row and row.endswith("| 2.00 |") for row in rows)


def test_readers_who_take_the_models_best_card_read_sharper_than_it():
    readings = [Reading(item(), ("sheep", "wool"))] * 20
    (first, n, factor, at_one, at_best), second = sharpness(Fixed(), readings, picks=2)[:2]
    assert (first, n) == (1, 20) and factor > 1 and at_best > at_one
    assert second[0] == 2 and second[2] > 1


def test_every_answered_item_of_every_panel_is_read(tmp_path):
    write_sheets(tmp_path / "two", [[item(), item(count=1, targets=("sheep",))], [item()]])
    (tmp_path / "two" / "answers-1.txt").write_text("0 SHEEP WOOL\n1 SHEEP\n")   # sheet 2 unread
    one = tmp_path / "one"
    one.mkdir()
    (one / "keys.json").write_text(json.dumps([{**asdict(item()), "source": "a guesser"}]))
    (one / "answers.txt").write_text("0 WOOL GOAT\n")    # a card not face down is dropped
    found = list(panel_readings(tmp_path))
    assert [r.picks for r in found] == [("wool",), ("sheep", "wool"), ("sheep",)]


def test_the_ai_hints_are_binned_by_their_forecast():
    readings = [Reading(item(), ("sheep", "wool"))] * 5 + [Reading(item(kind="human"), ("oven",))] * 5
    rows = by_forecast([(r, forecast(Fixed(), r)) for r in readings]).splitlines()[2:]
    assert rows == ["| 2 | 0.6-0.8 | 5 | 0.64 | 1.00 | 1.68 | 2.00 |"]    # the person's clues left out
