"""Does the model of people read as the blind panels' readers did? Its forecast of every reading in
reports/panels against the reading.

For each item a reader answered (lab/benchmarks/panel.py), the captain's reader (the model of
people, its lapse included) forecasts the chance that the first `count` picks are the cards the
hint's giver meant (`whole`) and the own cards turned over in `count` picks (`found`), the turn
ending at the first card not the team's; beside them, what the reader did. Grouped by who gave the
hint (the AI's captains of every build, a strong human spymaster, or none: the AI's best hint for a
count it did not give) and its count; the AI's hints by the forecast, in bins. Then the sharpness
that makes the readers' picks likeliest, pick by pick: the factor on the model's logits (1: the
model reads as they did). The readers saw the hints blind, on boards the model was never fitted on;
the model was fitted on the Duet record alone.

    python -m lab.benchmarks.panel_calibration --sources ../shared/datasets [--embedded]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy.optimize import minimize_scalar

from common import BOARD_WORDS_PATH, load_words
from lab.benchmarks.panel import EXPLORE, HUMAN, Item, read_answers, read_sheets
from models.chances import softmax
from models.expected import read
from models.reader import Reader, sharpnesses

PANELS = Path(__file__).resolve().parents[2] / "reports" / "panels"
# The chance that the first `count` picks are the cards meant, the own cards expected in them;
# whether a reader's were, the own cards they turned over.
Forecast = tuple[float, float, bool, int]


@dataclass(frozen=True)
class Reading:
    """One reader's answer to one item: the cards they would turn over, in order."""

    item: Item
    picks: tuple[str, ...]


def one_sheet(folder: Path) -> list[list[Item]]:
    """A folder of one sheet (items.txt, answers.txt), its keys a list of items."""
    rows = json.loads((folder / "keys.json").read_text())
    fields = set(Item.__dataclass_fields__)
    return [[Item.of({"turn": 0, **{k: v for k, v in row.items() if k in fields}}) for row in rows]]


def panel_readings(root: Path = PANELS) -> Iterator[Reading]:
    """Every answered item of every panel under `root` (sheets with no answers are skipped)."""
    for keys in sorted(root.rglob("keys.json")):
        folder = keys.parent
        if (folder / "answers.txt").exists():
            sheets, answers = one_sheet(folder), [folder / "answers.txt"]
        else:
            sheets = read_sheets(folder)
            answers = [folder / f"answers-{k}.txt" for k in range(1, len(sheets) + 1)]
        for sheet, path in zip(sheets, answers, strict=True):
            said = read_answers(path.read_text().splitlines()) if path.exists() else {}
            for number, item in enumerate(sheet):
                if number in said:
                    yield Reading(item, tuple(w for w in said[number] if w in item.colors))


def forecast(reader: Reader, reading: Reading) -> Forecast:
    """(the reader's chance that the first `count` picks are the cards meant, its expected own
    cards in `count` picks; whether the reader's were, how many own cards they turned over)."""
    item, k = reading.item, reading.item.count
    face_down = list(item.face_down)
    meant = np.array([w in item.targets for w in face_down])
    own = np.array([item.colors[w] == item.team for w in face_down])
    logits = np.asarray(reader.logits([item.hint], face_down), dtype=np.float64)
    nothing = np.zeros(len(face_down))
    whole = found = 0.0
    for share, sharpness in sharpnesses(reader):
        whole += share * read(sharpness * logits, meant, nothing, k)[2][0, k - 1]
        found += share * read(sharpness * logits, own, nothing, k)[0][0].sum()
    turned = 0
    for word in reading.picks[:k]:
        if item.colors[word] != item.team:
            break
        turned += 1
    return whole, found, set(item.targets) <= set(reading.picks[:k]), turned


def giver(item: Item) -> str:
    """Who gave the hint: a person, or the AI's captains, or none (the AI's best hint for a count it
    did not give, `panel games --explore`)."""
    return {HUMAN: "a strong human spymaster", EXPLORE: "the AI, a count it did not give"}.get(
        item.kind, "the AI's captains")


def table(keys: Sequence[str], groups: Mapping[tuple, Sequence[Forecast]]) -> str:
    """A row for each group of five readings or more (its `keys`' values first): the model's
    forecast against the readers'."""
    rows = ["| " + " | ".join(keys) + " | readings | every card meant, forecast | read | own cards, "
            "forecast | read |", "|---" * (len(keys) + 5) + "|"]
    for key, found in sorted(groups.items()):
        if len(found) >= 5:
            whole, own, read_whole, read_own = np.array(found, dtype=np.float64).mean(axis=0)
            rows.append("| " + " | ".join(map(str, key)) + f" | {len(found)} | {whole:.2f} | "
                        f"{read_whole:.2f} | {own:.2f} | {read_own:.2f} |")
    return "\n".join(rows)


def by_giver(forecasts: Sequence[tuple[Reading, Forecast]]) -> str:
    """A row for each giver and count."""
    groups: dict[tuple, list[Forecast]] = {}
    for reading, found in forecasts:
        groups.setdefault((giver(reading.item), reading.item.count), []).append(found)
    return table(("hints of", "count"), groups)


BINS = (0.0, 0.2, 0.4, 0.6, 0.8, 0.9, 1.0)


def by_forecast(forecasts: Sequence[tuple[Reading, Forecast]]) -> str:
    """The AI's hints by count and by the forecast chance that every card meant is turned over, in
    `BINS`."""
    groups: dict[tuple, list[Forecast]] = {}
    for reading, found in forecasts:
        if reading.item.kind != HUMAN:
            b = min(int(np.digitize(found[0], BINS)) - 1, len(BINS) - 2)
            groups.setdefault((reading.item.count, f"{BINS[b]:.1f}-{BINS[b + 1]:.1f}"), []).append(found)
    return table(("count", "forecast"), groups)


def sharpness(reader: Reader, readings: Sequence[Reading], picks: int = 3
              ) -> list[tuple[int, int, float, float, float]]:
    """For each pick (1..`picks`, of items whose count reaches it): how many, the factor on the
    model's logits that makes the readers' picks likeliest, and the log-likelihood a pick at 1
    and at that factor."""
    events: list[list[tuple[np.ndarray, np.ndarray, int]]] = [[] for _ in range(picks)]
    for reading in readings:
        face_down = list(reading.item.face_down)
        logits = np.asarray(reader.logits([reading.item.hint], face_down)[0], dtype=np.float64)
        left = np.ones(len(face_down), dtype=bool)
        for j, word in enumerate(reading.picks[:min(picks, reading.item.count)]):
            events[j].append((logits, left.copy(), face_down.index(word)))
            left[face_down.index(word)] = False

    def loss(factor: float, found: list) -> float:
        return -float(np.mean([np.log(softmax(np.where(left, factor * row, -np.inf))[chosen])
                               for row, left, chosen in found]))
    out = []
    for j, found in enumerate(events, 1):
        if found:
            best = minimize_scalar(loss, bounds=(0.2, 5.0), args=(found,), method="bounded")
            out.append((j, len(found), float(best.x), -loss(1.0, found), -float(best.fun)))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sources", type=Path, required=True)
    parser.add_argument("--embedded", action="store_true", help="the AI on SBERT and WordNet alone")
    parser.add_argument("--panels", type=Path, default=PANELS)
    args = parser.parse_args(argv)
    from lab.evaluation.human_models import build_ai

    ai, _ = build_ai(args.sources, load_words(BOARD_WORDS_PATH), args.embedded)
    readings = list(panel_readings(args.panels))
    forecasts = [(reading, forecast(ai.people, reading)) for reading in readings]
    print(f"The model of people ({ai.people.fit.name}) against {len(readings)} blind readings:\n")
    print(by_giver(forecasts))
    print("\nThe AI's hints (a count it gave or not) by the forecast, in bins:\n")
    print(by_forecast(forecasts))
    print("\n| pick | readings | sharpness that fits the readers | log-likelihood a pick at 1 | at it |\n"
          "|---|---|---|---|---|")
    for j, n, factor, at_one, at_best in sharpness(ai.people, readings):
        print(f"| {j} | {n} | {factor:.2f} | {at_one:.3f} | {at_best:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
