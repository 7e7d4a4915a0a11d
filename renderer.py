"""Console drawing: the 5×5 grid, the turn's status line and the game's events.

The renderer draws what it is given and decides nothing. Colour comes from
colorama; with NO_COLOR set or a stdout that is not a terminal, cards carry
plain markers instead: `[R] word` for a revealed card, `(R) word` for a
face-down card in the captain's view, `( ) word` in the agent's view.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from collections.abc import Collection, Sequence
from typing import TextIO

from colorama import Back, Fore, Style, just_fix_windows_console

from board import COLUMNS, Board, Color
from engine import Event, GameOver, Guessed, HintGiven, Passed, Turn, TurnEnded, TurnStarted
from model import HintChoice

FOREGROUND = {Color.RED: Fore.RED, Color.BLUE: Fore.BLUE, Color.NEUTRAL: Fore.YELLOW,
              Color.ASSASSIN: Fore.LIGHTBLACK_EX}
BACKGROUND = {Color.RED: Back.RED + Fore.WHITE, Color.BLUE: Back.BLUE + Fore.WHITE,
              Color.NEUTRAL: Back.YELLOW + Fore.BLACK, Color.ASSASSIN: Back.BLACK + Fore.WHITE}


def found_for(turns: Sequence[Turn]) -> list[tuple[Turn, list[tuple[str, bool]]]]:
    """Each hint given, with the cards turned over for it, each with whether it was found later:
    a team's own card goes under the turn it was found in, unless an earlier hint of that team's
    AI captain meant it (and the hint of its own turn did not): under that one then, so that a
    person sees which hints still have cards to find."""
    hinted = [t for t in turns if t.hint is not None]
    found: dict[int, list[tuple[str, bool]]] = {id(t): [] for t in hinted}
    for k, turn in enumerate(hinted):
        for word, color in turn.guesses:
            meant = [t for t in hinted[:k + 1]
                     if t.side == turn.side and t.choice is not None and word in t.choice.targets]
            home = meant[-1] if color == turn.side and meant else turn
            found[id(home)].append((word, home is not turn))
    return [(t, found[id(t)]) for t in hinted]


ANSI = re.compile(r"\x1b\[[0-9;]*m")


def wrapped(head: str, items: Sequence[str], width: int, between: str = " | ") -> str:
    """`items` after `head`, joined by `between`, the lines broken between two items to stay within
    `width` columns (an item longer than a line keeps a line of its own), indented under the first."""
    lines, line = [], head
    for item in items:
        if line != head and len(ANSI.sub("", line + between + item)) > width:
            lines.append(line)
            line = " " * len(head) + item
        else:
            line += (between if line != head else "") + item
    return "\n".join([*lines, line])


def use_color(stream: TextIO) -> bool:
    """Colour only on a terminal, and never when NO_COLOR is set (no-color.org)."""
    return "NO_COLOR" not in os.environ and hasattr(stream, "isatty") and stream.isatty()


class Renderer:
    """Draws boards and game events on a text stream."""

    def __init__(self, stream: TextIO | None = None, color: bool | None = None,
                 explain: bool = False, secret: bool = False):
        self.stream = stream or sys.stdout
        self.color = use_color(self.stream) if color is None else color
        self.explain = explain
        self.secret = secret   # a person guesses: what the AI meant waits for the turn's end
        self.width = shutil.get_terminal_size().columns   # the hints so far wrap within it
        if self.color:
            just_fix_windows_console()

    def write(self, text: str = "") -> None:
        print(text, file=self.stream, flush=True)

    def clear(self) -> None:
        """Wipe the screen and its scrollback, so that the key cannot be scrolled back to."""
        if hasattr(self.stream, "isatty") and self.stream.isatty():
            self.stream.write("\033[2J\033[3J\033[H")
            self.stream.flush()
        else:
            self.write("\n" + "-" * 30 + " (screen cleared) " + "-" * 30)

    def legend(self) -> str:
        """What the colours (or the plain markers) of the cards mean."""
        if not self.color:
            return ("Cards: R red agent, B blue agent, N bystander, A assassin. [R]: turned over;\n"
                    "(R): face down, as the captain sees it; ( ): face down, as the agents see it.")
        samples = ", ".join(f"{FOREGROUND[c]}{Style.BRIGHT}{name}{Style.RESET_ALL}" for c, name in (
            (Color.RED, "red agent"), (Color.BLUE, "blue agent"), (Color.NEUTRAL, "bystander"),
            (Color.ASSASSIN, "assassin")))
        return (f"Cards: {samples}. A card that is turned over gets a coloured background;\n"
                "agents see face-down cards without colour.")

    # --- the board ------------------------------------------------------------

    def board(self, board: Board, captain: bool) -> str:
        """The grid as text: the captain sees every colour, the agent only revealed cards."""
        width = max(len(w) for w in board.words)
        cells = [self.cell(c.word, c.color, c.revealed, captain, width) for c in board.cards]
        rows = [" ".join(cells[i:i + COLUMNS]) for i in range(0, len(cells), COLUMNS)]
        return "\n".join(rows)

    def cell(self, word: str, color: Color, revealed: bool, captain: bool, width: int) -> str:
        text = word.upper().ljust(width)
        if not self.color:
            marker = f"[{color.letter}]" if revealed else f"({color.letter})" if captain else "( )"
            return f"{marker} {text}"
        if revealed:
            return f"{BACKGROUND[color]} {text} {Style.RESET_ALL}"
        if captain:
            return f"{FOREGROUND[color]}{Style.BRIGHT} {text} {Style.RESET_ALL}"
        return f" {text} "

    def team(self, color: Color) -> str:
        name = color.value.upper()
        return f"{FOREGROUND[color]}{Style.BRIGHT}{name}{Style.RESET_ALL}" if self.color else name

    def status(self, board: Board, team: Color, turns: Sequence[Turn]) -> str:
        """Whose turn, cards left per team and the hints so far (`turns`)."""
        left = ", ".join(f"{self.team(t)} {board.remaining(t)}" for t in (Color.RED, Color.BLUE))
        lines = [f"Turn: {self.team(team)}   cards left: {left}"]
        hints = [f"{self.team(t.side)} {t.hint}: "
                 + (", ".join(w.upper() + " (later)" * later for w, later in cards) or "-")
                 for t, cards in found_for(turns)]
        if hints:
            lines.append(wrapped("Hints so far: ", hints, self.width))
        return "\n".join(lines)

    def show(self, board: Board, team: Color, turns: Sequence[Turn], captain: bool) -> None:
        """The board in the captain's or the agents' view, and the status line under it."""
        view = "captain's view" if captain else "agents' view"
        self.write(f"\n{self.board(board, captain)}\n({view})\n{self.status(board, team, turns)}")

    # --- events ---------------------------------------------------------------

    def on_event(self, event: Event) -> None:
        """Draw one game event as it happens, from what the event carries.

        While a person guesses (`secret`), nothing the AI meant is shown before the turn is over,
        and a card still face down is counted, not named, until the game is over.
        """
        match event:
            case TurnStarted(side=team):
                self.write(f"\n--- {self.team(team)} to play ---")
            case HintGiven(side=team, hint=hint, choice=choice, board=board):
                left = "unlimited guesses" if hint.max_guesses is None else f"{hint.max_guesses} guesses"
                self.write(f"{self.team(team)} captain: {hint}   ({left})")
                if self.explain and not self.secret and choice is not None:
                    self.write(explanation(choice, board))
            case Guessed(side=team, word=word, color=color, outcome=outcome):
                self.write(f"{self.team(team)} turns over {self.cell(word, color, True, True, 0).strip()}"
                           f" - {OUTCOME_TEXT[outcome.value]}")
            case Passed(side=team):
                self.write(f"{self.team(team)} passes.")
            case TurnEnded(choice=choice, final=False, board=board) if choice is not None:
                self.meant(choice, board)
            case GameOver(winner=winner, reason=reason, board=board, turns=turns):
                self.write(f"\n{self.board(board, captain=True)}\n")
                self.write(f"*** {self.team(winner)} wins: {reason}. ***")
                if recap := self.recap(turns):
                    self.write(recap)

    def meant(self, choice: HintChoice, board: Board, withheld: Collection[str] | None = None) -> None:
        """After a turn, what the AI captain meant (with --explain and a person guessing, why),
        the cards still face down counted, not named, while a person guesses (or those `withheld`:
        a remote agent's screen is never told which they are, network/)."""
        if withheld is None:
            withheld = set(board.unrevealed_words()) if self.secret else set()
        if self.secret or not self.explain:
            self.write(f"The captain meant: {named(choice.targets, withheld)}.")
        if self.explain and self.secret:
            self.write(explanation(choice, board, withheld, meaning=False))

    def recap(self, turns: Sequence[Turn]) -> str:
        """Each hint of the game, what its captain meant (an AI's) and what was turned over."""
        lines = []
        for turn in (t for t in turns if t.hint is not None):
            meant = f"meant {named(turn.choice.targets)}; " if turn.choice is not None else ""
            found = ", ".join(word.upper() for word, _ in turn.guesses) or "nothing"
            lines.append(f"  {self.team(turn.side)} {turn.hint}: {meant}turned over {found}")
        return "\n".join(["\nThe hints, and what they meant:", *lines]) if lines else ""


COLOR_TEXT = {Color.ASSASSIN: "the assassin", Color.NEUTRAL: "a bystander",
              Color.RED: "a red agent", Color.BLUE: "a blue agent"}


def named(words: Sequence[str], withheld: Collection[str] = ()) -> str:
    """Card words in capitals; those `withheld` (face down while a person guesses) only counted."""
    shown = [word.upper() for word in words if word not in withheld]
    hidden = len(words) - len(shown)
    if hidden:
        cards = "card" if hidden == 1 else "cards"
        shown.append(f"{hidden} {cards} still face down (named at the end of the game)")
    return ", ".join(shown) or "nothing"


def explanation(choice: HintChoice, board: Board | None = None, withheld: Collection[str] = (),
                meaning: bool = True) -> str:
    """Why the AI chose its hint, in plain words: the cards it means, how sure it is, the most
    dangerous other card and why, and the hints it thought of besides. Cards `withheld` are
    counted, not named."""
    lines = [f"It means {named(choice.targets, withheld)}."] if meaning else []
    lines.append(sureness(choice))
    if choice.danger is not None and choice.targets:
        word, weight = choice.danger
        least, weakest = min(zip(choice.target_weights, choice.targets, strict=True))
        if word in withheld:
            what = "a card still face down"
        elif board is not None:
            what = f"{word.upper()}, {COLOR_TEXT[board.card(word).color]}"
        else:
            what = word.upper()
        target = "the weakest card it means" if weakest in withheld else weakest.upper()
        lines.append(f"Most dangerous: {what}: the hint points to it {closeness(weight, least)} "
                     f"to {target}.")
    if choice.runners_up:
        lines.append("It also thought of " + ", ".join(f"{word.upper()} for {count}"
                                                     for word, count, _ in choice.runners_up) + ".")
    return "\n".join(f"    {line}" for line in lines)


def sureness(choice: HintChoice) -> str:
    """How sure the captain is that its hint reads as it means: how often it expects a person to
    turn over every card it means, or else how near the most dangerous card comes."""
    if choice.chance is not None and choice.targets:
        them = "the card" if len(choice.targets) == 1 else f"all {len(choice.targets)} cards"
        return f"It expects a person to find {them} it means {round(10 * choice.chance)} times in 10."
    if choice.danger is None or not choice.targets:
        return "Sure: only its own cards are left."
    ratio = choice.danger[1] / max(min(choice.target_weights), 1e-9)
    return ("Sure: no other card comes close." if ratio < 0.8 else
            "Fairly sure: another card comes close." if ratio < 1 else
            "Unsure: another card weighs as much as one it means.")


def closeness(weight: float, target: float) -> str:
    """How strongly a hint points to a card, against a target it points to with `target`."""
    ratio = weight / max(target, 1e-9)
    return ("far less than" if ratio < 0.5 else "less than" if ratio < 0.8 else
            "almost as much as" if ratio < 1 else "as much as or more than")


RULES = """\
Codenames in brief
  25 cards: 9 agents of the team that starts, 8 of the other team, 7 bystanders, 1 assassin.
  Each turn a team's captain, who sees the key, gives a hint: one word and a count,
  e.g. OCEAN 2 for two cards. The hint may not be a face-down card's word, part of
  one, a form of one, or another spelling of one (COLOUR for COLOR).
  The team's agents then turn over cards one at a time, up to count + 1 (no limit
  for 0 or unlimited), and may stop after the first. Their own agent: go on. A
  bystander or the other team's agent ends the turn. The assassin loses the game.
  A team wins when all its agents are turned over, by either team."""

OUTCOME_TEXT = {"own": "their own agent", "opponent": "the other team's agent",
                "neutral": "a bystander", "assassin": "the ASSASSIN"}


class ConsoleTerminal:
    """The console as human players see it: `input()` to ask, the renderer to tell and show.

    In a `hot_seat` game people share the screen: before the agents see the board, a screen
    that showed the key is cleared and the game waits for them; before a captain sees the key,
    the agents are asked to look away.
    """

    def __init__(self, renderer: Renderer, hot_seat: bool = False):
        self.renderer, self.hot_seat = renderer, hot_seat
        self.key_on_screen = False

    def ask(self, prompt: str) -> str:
        return input(prompt)

    def tell(self, message: str) -> None:
        self.renderer.write(message)

    def help(self, message: str) -> None:
        self.renderer.write(f"{message}\n\n{RULES}\n\n{self.renderer.legend()}")

    def show(self, board: Board, team: Color, turns: Sequence[Turn], captain: bool) -> None:
        if self.hot_seat and captain and not self.key_on_screen:
            self.ask(f"{team.value.upper()} captain's turn: agents, look away. "
                     "Captain, press Enter to see the key. ")
        elif self.hot_seat and not captain and self.key_on_screen:
            self.renderer.clear()
            self.ask(f"Pass the screen to the {team.value.upper()} agents, then press Enter. ")
        self.key_on_screen = captain
        self.renderer.show(board, team, turns, captain)
