"""The companion's command loop: the table set up, then clues, rankings and marks on demand."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from board import ASSASSIN, COLUMNS, SIZE, TEAMS, Board, Color
from common import COMMAND as PROGRAM
from common import normalise, warn
from model import AI, Hint, NoLegalHint, agent_plays, hint_problem, parse_hint
from prompts import did_you_mean, read_command
from renderer import Renderer, explanation
from tabletop.parsing import key_problem, parse_key_row, parse_words, words_problem
from tabletop.saved import Session

RANK_SHOWN = 10  # cards listed by `rank`


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
