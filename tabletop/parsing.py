"""Reading a real table: its 25 card words and its key card, typed or from files."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from board import ASSASSIN, BLUE, COLUMNS, RED, SIZE, Color, card_word_problem, counts, parse_color
from common import normalise

KEY_COUNTS = ({RED: 9, BLUE: 8, Color.NEUTRAL: 7, ASSASSIN: 1},
              {RED: 8, BLUE: 9, Color.NEUTRAL: 7, ASSASSIN: 1})


def parse_words(line: str) -> list[str]:
    """Card words from one typed line: comma-separated if it has commas (for two-word cards),
    else space-separated."""
    parts = line.split(",") if "," in line else line.split()
    return [" ".join(normalise(part).split()) for part in parts if part.strip()]


def parse_key_row(line: str) -> list[Color]:
    """One row of the key card: 5 letters of R, B, N, A, spaces and commas ignored."""
    letters = re.sub(r"[\s,]", "", line)
    if len(letters) != COLUMNS or any(letter.lower() not in "rbna" for letter in letters):
        raise ValueError(f"a key row is {COLUMNS} letters R (red), B (blue), N (neutral) or "
                         f"A (assassin), e.g. 'RBNNA'; not {line.strip()!r}")
    return [parse_color(letter) for letter in letters]


def key_problem(key: Sequence[Color]) -> str | None:
    """Why a key cannot be a real key card, or None: it must have 9/8/7/1 or 8/9/7/1 cards."""
    found = counts(key)
    if len(key) != SIZE or found not in KEY_COUNTS:
        shown = ", ".join(f"{found[c]} {c.value}" for c in Color)
        return (f"a key card has 9 red, 8 blue (or 8 and 9), 7 neutral and 1 assassin; "
                f"this one has {shown}")
    return None


def read_words_file(path: Path) -> list[str]:
    """The 25 words of a table from a file: one word a line, or rows of words; `#` comments."""
    words: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        words += parse_words(line.split("#", 1)[0])
    if problem := words_problem(words, exact=True):
        raise ValueError(f"{path}: {problem}")
    return words


def read_key_file(path: Path) -> list[Color]:
    """A key card from a file: 5 rows of 5 letters R/B/N/A (blank lines and `#` comments skipped)."""
    rows = [line.split("#", 1)[0] for line in path.read_text(encoding="utf-8").splitlines()]
    rows = [row for row in rows if row.strip()]
    if len(rows) != COLUMNS:
        raise ValueError(f"{path}: a key card is {COLUMNS} rows of {COLUMNS} letters, got {len(rows)} rows")
    key = [color for row in rows for color in parse_key_row(row)]
    if problem := key_problem(key):
        raise ValueError(f"{path}: {problem}")
    return key


def words_problem(words: Sequence[str], exact: bool = False) -> str | None:
    """Why a list of card words cannot be (the start of) a table, or None."""
    if len(words) > SIZE or exact and len(words) != SIZE:
        return f"a table has {SIZE} words, not {len(words)}"
    seen: set[str] = set()
    for word in words:
        if problem := card_word_problem(word):
            return problem
        if word in seen:
            return f"{word.upper()} is on the table twice"
        seen.add(word)
    return None
