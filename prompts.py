"""Console prompts: what a person types at the game's prompts, read, cleaned and answered.

The loops here ask until the answer is usable: a legal hint, a face-down card, a pass after a
guess. Commands (help, board, pass, quit) are answered on the way; 'quit' raises QuitGame. They
talk to the person through a `Terminal` (renderer.ConsoleTerminal on the console).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Protocol

from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from board import Board, Color
from common import normalise
from engine import Turn
from model import Hint, hint_problem, parse_hint

MAX_INPUT = 200  # characters of a typed line that are read; the rest is noise


class QuitGame(Exception):
    """The user asked to leave the game."""


class Terminal(Protocol):
    """What a human player needs of the console."""

    def ask(self, prompt: str) -> str: ...   # may raise EOFError or KeyboardInterrupt
    def tell(self, message: str) -> None: ...
    def show(self, board: Board, team: Color, turns: Sequence[Turn], captain: bool) -> None: ...
    def help(self, message: str) -> None: ...   # the prompt's help, with the rules and the legend


HELP_CAPTAIN = ("Give a hint as one word and a count, e.g. 'ocean 2' (0-9 or 'unlimited').\n"
                "Commands: board (show the board), help, quit.")
HELP_AGENT = ("Type a word from the board to turn it over.\n"
              "Commands: pass (end the turn, after one guess), board, help, quit. When a card is\n"
              "called PASS, typing pass asks which you mean; /pass always passes.")
EMPTY_HINT = "Type a {} and a count, e.g. 'ocean 2', or 'help'."
EMPTY_CAPTAIN = EMPTY_HINT.format("hint")
EMPTY_AGENT = "Type a word from the board, 'pass' or 'help'."

# What people type for each command; a leading slash ('/pass') makes any of them a command.
COMMANDS = {"help": "help", "?": "help", "rules": "help", "board": "board", "pass": "pass",
            "stop": "pass", "end": "pass", "quit": "quit", "exit": "quit", "q": "quit"}
# What each command does, where a card's word is a command too ("/board to see the board").
DOES = {"help": "read the help", "board": "see the board", "pass": "pass", "quit": "quit the game"}


def ask_hint(terminal: Terminal, prompt: str, board: Board, help_text: str,
             show: Callable[[], None], noun: str = "hint") -> Hint:
    """Ask until the person gives a hint that is legal on `board`; commands are answered."""
    while True:
        line = read_command(terminal, prompt)
        match command(line):
            case "help":
                terminal.help(help_text)
            case "board":
                show()
            case None if not line:
                terminal.tell(EMPTY_HINT.format(noun))
            case None:
                try:
                    hint = parse_hint(line)
                except ValueError as error:
                    terminal.tell(str(error))
                    continue
                if problem := hint_problem(hint.word, board):
                    terminal.tell(f"That {noun} is not allowed: {problem}.")
                    continue
                return hint
            case other:
                terminal.tell(unknown_command(line, other))


def ask_card(terminal: Terminal, prompt: str, open_words: list[str], words: Collection[str],
             guessed: int, help_text: str, show: Callable[[], None],
             closed: str = "is already turned over") -> str | None:
    """Ask until the person names an open card (returned) or passes after a guess (None).

    A face-down card called like a command (PASS, BOARD) is never turned over unasked: the
    person says which they meant (`card_or_command`); '/pass' is always the command.
    """
    while True:
        line = read_command(terminal, prompt, open_words)
        if line in open_words and COMMANDS.get(line) and not card_or_command(terminal, line):
            line = "/" + line
        match command(line, open_words):
            case "help":
                terminal.help(help_text)
            case "board":
                show()
            case "pass" if guessed:
                return None
            case "pass":
                terminal.tell("Make at least one guess before you pass.")
            case None if not line:
                terminal.tell(EMPTY_AGENT)
            case None if line in open_words:
                return line
            case None if line in words:
                terminal.tell(f"{line.upper()} {closed}.")
            case None:
                terminal.tell(did_you_mean(line, open_words))
            case "quit":
                raise QuitGame
            case other:
                terminal.tell(unknown_command(line, other))


def card_or_command(terminal: Terminal, word: str) -> bool:
    """Ask whether `word`, a face-down card's word and a command, meant the card (True)."""
    name = COMMANDS[word]
    while True:
        answer = read_line(terminal, f"{word.upper()} is a card on the board: type card to turn it "
                                     f"over, or /{name} to {DOES[name]}> ")
        if answer in (name, f"/{name}"):
            return False
        if answer in ("card", word):
            return True
        terminal.tell(f"Type 'card' to turn over {word.upper()}, or '/{name}'.")


def clean(raw: str) -> str:
    """A typed line as it is read: printable, lower case, single-spaced."""
    line = normalise("".join(ch if ch.isprintable() else " " for ch in raw))
    return " ".join(line.split())


def read_line(terminal: Terminal, prompt: str) -> str:
    """One line of input, cleaned: printable, lower case, single-spaced.

    A line longer than MAX_INPUT is refused with a message, and the prompt comes again.
    """
    while True:
        raw = terminal.ask(prompt)
        if len(raw) <= MAX_INPUT:
            return clean(raw)
        terminal.tell(f"That line is too long ({len(raw):,} characters; at most {MAX_INPUT}).")


def read_command(terminal: Terminal, prompt: str, cards: Collection[str] = ()) -> str:
    """One cleaned line of input (see `read_line`); 'quit' raises QuitGame.

    `cards` are the words that a bare command word does not shadow (see `command`).
    """
    line = read_line(terminal, prompt)
    if command(line, cards) == "quit":
        raise QuitGame
    return line


def command(line: str, cards: Collection[str] = ()) -> str | None:
    """The command a cleaned line names ('help', 'board', 'pass', 'quit'; 'unknown'), or None.

    '/pass' is always a command; a bare 'pass' is one unless a card in `cards` is called PASS,
    since a card's word must always turn the card over.
    """
    if line.startswith("/"):
        return COMMANDS.get(line[1:].strip(), "unknown")
    if line in cards:
        return None
    return COMMANDS.get(line)


def unknown_command(line: str, name: str) -> str:
    """The answer to a command typed at a prompt where it means nothing."""
    if name == "unknown":
        return f"{line!r} is not a command. Type 'help' for the commands."
    return f"'{name}' does nothing here. Type 'help' for the commands."


def did_you_mean(word: str, choices: list[str]) -> str:
    """A helpful answer to a word that is not a face-down card."""
    match = process.extractOne(word, choices, scorer=Levenshtein.normalized_distance)
    if match and match[1] <= 0.5:
        return f"{word!r} is not on the board. Did you mean {match[0].upper()}?"
    return f"{word!r} is not a face-down card on the board. Type 'board' to see it."
