"""Read the human Codenames Duet record ("Cultural Codes", SALT-NLP) into aligned turns.

The record lives in `<sources>/human_duet/` as the source repository ships it
(see ../shared/datasets/human_duet/README.md): one CSV per task, row *i* of
`clue_generation_task/val.csv` (the giver's key and targets, and the clue) and
row *i* of `generate_guess_task/val.csv` (the face-down words, the clue, and the
guesser's clicks) being the same turn. Nothing from the record is copied here:
this module only reads the files the user has.
"""

from __future__ import annotations

import ast
import csv
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

FOLDER = "human_duet"
CLUE_FILE = Path("clue_generation_task") / "val.csv"
GUESS_FILE = Path("generate_guess_task") / "val.csv"
TARGET_FILE = Path("target_selection_task") / "val.csv"   # the giver's key; not needed for a turn
FIELD = re.compile(r"(\w+):\s*(\[[^\]]*\]|[^,\[\]]*)")
GIVER = re.compile(r"GIVER:\s*\[([^\]]*)\]")


@dataclass(frozen=True)
class Turn:
    """One clue and what the guesser clicked, as the giver and the guesser saw it."""

    game: int                      # runs of rows on one board, numbered from 0 in file order
    row: int                       # the row of both task files
    remaining: tuple[str, ...]     # face-down words the guesser saw
    black: tuple[str, ...]         # the giver's assassins
    tan: tuple[str, ...]           # the giver's bystanders
    clue: str
    targets: tuple[str, ...]       # the cards the giver aimed at
    guesses: tuple[str, ...]       # the guesser's clicks, in order (may be empty)
    giver: str = ""                # the giver's answers to the survey ("" when the row has none)


class HumanDataMissing(FileNotFoundError):
    """The sources folder has no human Duet record (the tier is then skipped)."""


def folder(sources: Path | str) -> Path:
    """Where the record is under a sources folder."""
    return Path(sources) / FOLDER


def available(sources: Path | str) -> bool:
    """Whether the two files that make a turn are present."""
    root = folder(sources)
    return (root / CLUE_FILE).is_file() and (root / GUESS_FILE).is_file()


def parse_fields(text: str) -> dict[str, object]:
    """`"black: ['a', 'b'], hint: word"` → {"black": ("a", "b"), "hint": "word"}."""
    fields: dict[str, object] = {}
    for key, raw in FIELD.findall(text):
        raw = raw.strip()
        if raw.startswith("["):
            fields[key] = tuple(str(w).strip().lower() for w in ast.literal_eval(raw))
        else:
            fields[key] = raw.lower()
    return fields


def picks(output: str) -> tuple[str, ...]:
    """The guesser's clicks: `"force, strike"` → ("force", "strike"); "" → ()."""
    return tuple(w.strip().lower() for w in output.split(",") if w.strip())


def giver_of(text: str) -> str:
    """The giver's answers to the survey that a row's `all_text` prepends to the board
    (`"GIVER: [marriage: married, ..., agreeableness: 2.5], GUESSER: [...], black: ..."`), or "".
    The record names no player: a giver is told apart by their answers, the same on every turn."""
    found = GIVER.search(text)
    return found.group(1).strip() if found else ""


def read_rows(path: Path) -> list[tuple[dict[str, object], str]]:
    """(parsed base_text with the row's `giver`, output) for every row of one task file."""
    with open(path, encoding="utf-8", newline="") as handle:
        return [({**parse_fields(r["base_text"]), "giver": giver_of(r.get("all_text") or "")},
                 r["output"] or "") for r in csv.DictReader(handle)]


def resubmitted(clues: Sequence[tuple[dict, str]], guesses: Sequence[tuple[dict, str]], i: int) -> bool:
    """Row i is a turn with no pick that was submitted again as row i+1 (same board, key,
    targets and clue): the record's duplicate, dropped."""
    if guesses[i][1].strip() or i + 1 >= len(clues):
        return False
    return (unordered(clues[i][0]) == unordered(clues[i + 1][0])
            and clues[i][1].strip().lower() == clues[i + 1][1].strip().lower()
            and unordered(guesses[i][0]) == unordered(guesses[i + 1][0]))


def unordered(fields: dict[str, object]) -> dict[str, object]:
    """A row's fields with lists as sets (a resubmission may list its targets in another order)."""
    return {k: frozenset(v) if isinstance(v, tuple) else v for k, v in fields.items()}


def same_game(before: dict, after: dict) -> bool:
    """Two consecutive turns are on one board: `remaining` only shrinks, `black` stays."""
    return (set(after["remaining"]) <= set(before["remaining"])
            and set(after["black"]) == set(before["black"]))


def read_turns(sources: Path | str) -> Iterator[Turn]:
    """The aligned turns of the record under `sources` (453 on the validation split)."""
    if not available(sources):
        raise HumanDataMissing(f"no human Duet record in {folder(sources)}")
    root = folder(sources)
    clues, guesses = read_rows(root / CLUE_FILE), read_rows(root / GUESS_FILE)
    if len(clues) != len(guesses):
        raise ValueError(f"{CLUE_FILE} has {len(clues)} rows, {GUESS_FILE} {len(guesses)}: "
                         "they must be the same turns")
    game, previous = -1, None
    for i, ((giver, clue), (seen, output)) in enumerate(zip(clues, guesses, strict=True)):
        if resubmitted(clues, guesses, i):
            continue
        if seen.get("hint", clue.strip().lower()) != clue.strip().lower():
            raise ValueError(f"row {i}: the clue {clue!r} is not the guesser's hint {seen.get('hint')!r}")
        state = {"remaining": seen["remaining"], "black": giver["black"]}
        if previous is None or not same_game(previous, state):
            game += 1
        previous = state
        yield Turn(game, i, seen["remaining"], giver["black"], giver.get("tan", ()),
                   clue.strip().lower(), giver["targets"], picks(output), giver["giver"])
