"""Companion mode: the AI as a helper for a group playing Codenames at a real table.

`python main.py companion` asks for the 25 words on the table (typed, or from
a file) and the key card (5 rows of R/B/N/A), then answers commands: a clue
for red or blue with its reasons, how the board ranks for a clue, and cards
marked as revealed as the game goes on. The session is saved after every step
(data/companion.json by default) and resumed on the next start, so a closed
terminal loses nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import numpy as np

import cli
from board import (
    ASSASSIN,
    BLUE,
    COLUMNS,
    RED,
    SIZE,
    TEAMS,
    Board,
    Color,
    card_word_problem,
    counts,
    parse_color,
)
from cli import Command, add_ai_arguments
from common import COMMAND as PROGRAM
from common import DATA_DIR, atomic_write_bytes, normalise, warn
from model import AI, Hint, NoLegalHint, agent_plays, hint_problem, parse_hint
from prompts import QuitGame, did_you_mean, read_command
from renderer import ConsoleTerminal, Renderer, explanation

DEFAULT_STATE = DATA_DIR / "companion.json"
STATE_VERSION = 1
KEY_COUNTS = ({RED: 9, BLUE: 8, Color.NEUTRAL: 7, ASSASSIN: 1},
              {RED: 8, BLUE: 9, Color.NEUTRAL: 7, ASSASSIN: 1})
RANK_SHOWN = 10  # cards listed by `rank`


# --- reading the table ---------------------------------------------------------------------


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


# --- the session ------------------------------------------------------------------------------


@dataclass
class Session:
    """Everything the companion remembers: the table, the key, what is revealed, clues suggested."""

    words: list[str] = field(default_factory=list)
    key: list[Color] | None = None
    revealed: list[bool] = field(default_factory=lambda: [False] * SIZE)
    given: dict[str, list[str]] = field(default_factory=lambda: {t.value: [] for t in TEAMS})
    log: list[dict[str, Any]] = field(default_factory=list)

    @property
    def ready(self) -> bool:
        return len(self.words) == SIZE and self.key is not None

    def board(self) -> Board:
        return Board.from_key(self.words, self.key, self.revealed)

    def to_json(self) -> dict[str, Any]:
        return {"version": STATE_VERSION, "words": self.words,
                "key": None if self.key is None else [c.value for c in self.key],
                "revealed": self.revealed, "given": self.given, "log": self.log}

    @classmethod
    def from_json(cls, data: Any) -> Session:
        """A session from its saved form; ValueError says what is wrong with it."""
        if not isinstance(data, dict) or data.get("version") != STATE_VERSION:
            raise ValueError("not a companion session of this version")
        words, key, revealed = data.get("words"), data.get("key"), data.get("revealed")
        if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
            raise ValueError("bad 'words'")
        if problem := words_problem(words):
            raise ValueError(problem)
        if key is not None:
            if not isinstance(key, list) or len(words) != SIZE:
                raise ValueError("bad 'key'")
            key = [parse_color(c) for c in key]
            if problem := key_problem(key):
                raise ValueError(problem)
        if (not isinstance(revealed, list) or len(revealed) != SIZE
                or not all(isinstance(r, bool) for r in revealed)):
            raise ValueError("bad 'revealed'")
        given = data.get("given", {})
        given = {t.value: [str(w) for w in given.get(t.value, [])] for t in TEAMS} if isinstance(
            given, dict) else {t.value: [] for t in TEAMS}
        log = data.get("log", [])
        return cls(words, key, revealed, given, log if isinstance(log, list) else [])

    def save(self, path: Path) -> None:
        atomic_write_bytes(path, json.dumps(self.to_json(), indent=1).encode("utf-8"))


def load_session(path: Path) -> Session | None:
    """The saved session, None when there is none; a broken file is set aside, with a notice."""
    if not path.exists():
        return None
    try:
        return Session.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError) as error:
        aside = path.with_name(f"{path.stem}.bad{path.suffix}")
        warn(f"companion: cannot resume {path} ({error}); starting anew, the file is kept as {aside.name}")
        with contextlib.suppress(OSError):
            path.replace(aside)
        return None


# --- the companion --------------------------------------------------------------------------------


HELP = f"""Commands (words may be typed in any case):
  clue red | clue blue      the AI's clue for a team, with its reasons
  rank CLUE [COUNT]         how the face-down cards rank for a clue, and what the AI agent would pick
  reveal WORD [, WORD ...]  mark cards as turned over at the table (also: mark)
  unreveal WORD             undo a mark
  board                     the board with the key (captains' eyes only)
  key                       type the key card again
  help, quit                this text; leave (the session is saved, run again to resume)
Start over with: {PROGRAM} companion --new"""

COMMAND_WORDS = {"clue": "clue", "hint": "clue", "give": "clue", "rank": "rank", "reveal": "reveal",
                 "mark": "reveal", "unreveal": "unreveal", "unmark": "unreveal", "board": "board",
                 "show": "board", "key": "key", "help": "help", "?": "help"}


class NoAI(Exception):
    """The AI could not be loaded (the message says why); the session goes on without it."""


class Companion:
    """Runs one session: set the table up, then answer commands, saving after every step."""

    def __init__(self, session: Session, path: Path, terminal, renderer: Renderer, load_ai):
        self.session, self.path, self.terminal, self.renderer = session, path, terminal, renderer
        self._load_ai = load_ai
        self._ai: AI | None = None
        self._save_failed = False

    # --- plumbing ---------------------------------------------------------------------

    def save(self) -> None:
        try:
            self.session.save(self.path)
        except OSError as error:
            if not self._save_failed:
                warn(f"companion: cannot save the session to {self.path}: {error}")
            self._save_failed = True

    def tell(self, message: str) -> None:
        self.terminal.tell(message)

    @property
    def ai(self) -> AI:
        """The AI, loaded at its first use (marking cards needs none)."""
        if self._ai is None:
            warn("companion: loading the AI ...")
            try:
                self._ai = self._load_ai(self.session.words)
            except (OSError, ValueError, RuntimeError) as error:
                raise NoAI(str(error)) from None
        return self._ai

    # --- setting the table up --------------------------------------------------------------

    def set_up(self) -> None:
        """Ask for whatever of the table is still missing."""
        if len(self.session.words) < SIZE:
            self.ask_words()
        if self.session.key is None:
            self.ask_key()

    def ask_words(self) -> None:
        self.tell(f"Type the {SIZE} words on the table, row by row: five a line, separated by spaces "
                  "(or by commas, for cards of two words). 'clear' starts the words over.")
        words = self.session.words
        while len(words) < SIZE:
            line = read_command(self.terminal, f"words {len(words) + 1}-{min(len(words) + 5, SIZE)}> ")
            if line == "clear":
                words.clear()
                continue
            if line in ("help", "?"):
                self.tell("Type the card words as they lie on the table, left to right, top to bottom.")
                continue
            new = parse_words(line)
            if problem := words_problem(words + new):
                self.tell(f"{problem}: that line is not taken, type it again.")
                continue
            words += new
            self.save()

    def ask_key(self) -> None:
        self.tell("Now the key card, as 5 rows of 5 letters: R red, B blue, N neutral, A assassin "
                  "(e.g. 'RBNNA').")
        while True:
            key: list[Color] = []
            while len(key) < SIZE:
                line = read_command(self.terminal, f"key row {len(key) // COLUMNS + 1}> ")
                try:
                    key += parse_key_row(line)
                except ValueError as error:
                    self.tell(str(error))
            if problem := key_problem(key):
                self.tell(f"That key cannot be right: {problem}. Type the 5 rows again.")
                continue
            self.session.key = key
            self.session.log.append({"step": "key"})
            self.save()
            return

    # --- the command loop --------------------------------------------------------------------

    def run(self) -> None:
        """Set up, show the board, answer commands until quit or end of input."""
        self.set_up()
        self.show_board()
        self.tell("Type 'help' for the commands.")
        while True:
            line = read_command(self.terminal, "companion> ")
            if line:
                self.command(line)

    def command(self, line: str) -> None:
        """Answer one command line; every change is saved at once."""
        verb, _, rest = line.partition(" ")
        action = COMMAND_WORDS.get(verb)
        if action is None:
            self.tell(f"Unknown command {verb!r}. Type 'help' for the commands.")
        elif action == "help":
            self.tell(HELP)
        elif action == "board":
            self.show_board()
        elif action == "key":
            self.ask_key()
            self.show_board()
        elif action in ("clue", "rank"):
            try:
                (self.clue if action == "clue" else self.rank)(rest)
            except NoAI as error:
                self.tell(f"The AI cannot be loaded: {error}")
        else:
            self.mark(rest, revealed=action == "reveal")

    def show_board(self) -> None:
        board = self.session.board()
        left = ", ".join(f"{t.value} {board.remaining(t)}" for t in TEAMS)
        self.tell(f"\n{self.renderer.board(board, captain=True)}\n(captains' view)   cards left: {left}")

    def clue(self, rest: str) -> None:
        team = next((t for t in TEAMS for word in rest.split() if word in (t.value, t.value[0])), None)
        if team is None:
            self.tell("For which team? Type 'clue red' or 'clue blue'.")
            return
        board = self.session.board()
        if over := game_over(board):
            self.tell(f"The game is over: {over}.")
            return
        given = self.session.given[team.value]
        try:
            choice = self.ai.captain().give_hint(board, team, given)
        except NoLegalHint as error:
            self.tell(f"No clue found: {error}.")
            return
        given.append(choice.hint.word)
        self.session.log.append({"step": "clue", "team": team.value, "clue": choice.hint.word,
                                 "count": choice.hint.count, "targets": list(choice.targets)})
        self.save()
        self.tell(f"{self.renderer.team(team)} clue: {choice.hint}")
        self.tell(explanation(choice, board))

    def rank(self, rest: str) -> None:
        parts = rest.split()
        if not 1 <= len(parts) <= 2:
            self.tell("Type 'rank CLUE' or 'rank CLUE COUNT', e.g. 'rank ocean 2'.")
            return
        try:
            hint = parse_hint(rest) if len(parts) == 2 else Hint(normalise(parts[0]), None)
        except ValueError as error:
            self.tell(str(error))
            return
        board = self.session.board()
        if not board.unrevealed():
            self.tell("Every card is turned over.")
            return
        if problem := hint_problem(hint.word, board):
            self.tell(f"(Note: that clue is not legal on this board: {problem}.)")
        words = board.unrevealed_words()
        weights = self.ai.weights.hint_row(hint.word, words)
        picks = agent_plays(self.ai.people_agent(), board, hint, np.random.default_rng(0))
        order = np.argsort(-weights, kind="stable")[:RANK_SHOWN]
        self.tell(f"How the face-down cards rank for {hint} (* = the AI agent's picks, in order):")
        for place, i in enumerate(order, start=1):
            word = words[i]
            mark = f" *{picks.index(word) + 1}" if word in picks else ""
            self.tell(f"  {place:2}. {word.upper():<14} {weights[i]:.2f}{mark}")
        self.tell("The AI agent would turn over: " + (", ".join(w.upper() for w in picks) or "nothing"))
        self.session.log.append({"step": "rank", "clue": hint.word, "count": hint.count, "picks": picks})
        self.save()

    def mark(self, rest: str, revealed: bool) -> None:
        board = self.session.board()
        names = self.card_names(rest)
        if not names:
            self.tell(f"Which card? e.g. '{'reveal' if revealed else 'unreveal'} ocean'.")
            return
        for name in names:
            if name not in board:
                self.tell(did_you_mean(name, board.words))
                continue
            i = self.session.words.index(name)
            card = board.cards[i]
            if self.session.revealed[i] == revealed:
                self.tell(f"{name.upper()} is already {'turned over' if revealed else 'face down'}.")
                continue
            self.session.revealed[i] = card.revealed = revealed
            self.session.log.append({"step": "reveal" if revealed else "unreveal", "word": name})
            self.save()
            state = f"turned over, {card.color.value}" if revealed else "face down again"
            self.tell(f"{name.upper()}: {state}")
        left = ", ".join(f"{t.value} {board.remaining(t)}" for t in TEAMS)
        self.tell(f"Cards left: {left}")
        if over := game_over(board):
            self.tell(f"The game is over: {over}.")

    def card_names(self, rest: str) -> list[str]:
        """The cards named in a command: the whole text if it is a card, else its comma or space parts."""
        text = " ".join(rest.split())
        if text in self.session.words:
            return [text]
        return parse_words(text)


def game_over(board: Board) -> str | None:
    """Why the game is over, or None."""
    if board.remaining(ASSASSIN) == 0:
        return "the assassin is turned over"
    if (winner := board.winner()) is not None:
        return f"{winner.value} has found all its agents"
    return None


# --- the command ------------------------------------------------------------------------------------


DESCRIPTION = """The AI as a companion for a game of Codenames at a real table.

Type the 25 words on the table (or load them with --words) and the key card
as 5 rows of R/B/N/A letters; then ask for clues, rank the board for a clue,
and mark cards as they are turned over. The session is saved after every
step and resumed when you start again."""


SUMMARY = "a helper for a game at a real table: clues and rankings on demand"


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The companion's flags: the table's files, the saved session, the AI's."""
    p.add_argument("--words", type=Path, metavar="FILE", help="the 25 words on the table, from a file")
    p.add_argument("--key", type=Path, metavar="FILE", help="the key card, 5 rows of R/B/N/A, from a file")
    p.add_argument("--state", type=Path, default=DEFAULT_STATE, metavar="FILE",
                   help="where the session is saved and resumed from (default data/companion.json)")
    p.add_argument("--new", action="store_true", help="start a new session, forgetting the saved one")
    add_ai_arguments(p)


def run(args: argparse.Namespace, stream: TextIO | None = None, load_ai=None) -> int:
    """Run the companion; `load_ai(words) -> AI` may be given (tests), else the flags build it."""
    if hasattr(sys.stdin, "reconfigure"):
        sys.stdin.reconfigure(errors="replace")   # bytes that are not UTF-8 are a typo, not a crash
    renderer = Renderer(stream)
    session = None if args.new else load_session(args.state)
    if session is not None and (args.words or args.key):
        warn("companion: --words and --key start a new session: add --new to replace the saved one")
        return 2
    if session is None:
        session = Session()
        try:
            if args.words:
                session.words = read_words_file(args.words)
            if args.key:
                session.key = read_key_file(args.key)
        except (OSError, ValueError) as error:
            warn(f"companion: {error}")
            return 2
    else:
        turned = sum(session.revealed)
        renderer.write(f"Resuming the session saved in {args.state} ({turned} "
                       f"card{'' if turned == 1 else 's'} turned over); --new starts over.")
    if load_ai is None:
        def load_ai(words: list[str]) -> AI:
            return cli.load_ai(args, words)
    companion = Companion(session, args.state, ConsoleTerminal(renderer), renderer, load_ai)
    companion.save()
    try:
        companion.run()
    except (QuitGame, EOFError):
        companion.save()
        again = "" if args.state == DEFAULT_STATE else f" --state {args.state}"
        renderer.write(f"\nSession saved in {args.state}; run '{PROGRAM} companion{again}' to resume.")
        return 0
    except KeyboardInterrupt:
        companion.save()
        renderer.write("\nSession saved. Goodbye.")
        return 130
    except (OSError, ValueError, RuntimeError) as error:
        companion.save()
        warn(f"companion: {error}")
        return 1
    return 0


COMMAND = Command("companion", SUMMARY, DESCRIPTION, add_arguments, run)
