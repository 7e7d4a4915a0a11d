"""Duet on the console: the board from one side of the key (or both), the status line, the
events told as they happen, and the help of a Duet prompt."""

from __future__ import annotations

from colorama import Back, Fore, Style

from board import COLUMNS
from duet.game import DuetOver, DuetTurnStarted, Touched
from duet.rules import AGENT, BYSTANDER, DUET_ASSASSIN, RULES, TIMER_TOKENS, TOTAL_AGENTS, DuetBoard, Side
from engine import Event, HintGiven, Passed
from renderer import ConsoleTerminal, Renderer, explanation

ROLE_STYLE = {AGENT: Fore.GREEN + Style.BRIGHT, BYSTANDER: "",
              DUET_ASSASSIN: Fore.LIGHTBLACK_EX + Style.BRIGHT}
LEGEND = ("G: your agent, for your partner to find   A: your assassin   -: bystander\n"
          "o: your bystander, which your partner already tried on your clue\n"
          "x: known bystander for your partner (no use guessing it on their clues)   [**]: found")
TRIED = "o"   # in a side's own view: a bystander of its key that the partner touched on its clue


YOU = "you"   # the label of the side a person plays


class DuetTerminal(ConsoleTerminal):
    """The console of a Duet partner: its help tells Duet's rules and key, not Codenames'."""

    def help(self, message: str) -> None:
        self.tell(f"{message}\n\n{RULES}\n\n{LEGEND}")


class DuetView:
    """Draws a Duet board from one side (or both, for spectators) and narrates the events.

    A side labelled YOU is a person, addressed as "you" ("you touch"); with no person at the
    table the end names both sides ("AI A and AI B win").
    """

    def __init__(self, renderer: Renderer, labels: dict[Side, str]):
        self.renderer, self.labels = renderer, labels

    def does(self, side: Side, verb: str) -> str:
        """'you give' or 'the AI gives': the side's label with the verb agreeing."""
        label = self.labels[side]
        if label == YOU:
            return f"{label} {verb}"
        return f"{label} {verb}{'es' if verb.endswith(('ch', 'sh', 's', 'x')) else 's'}"

    def players(self) -> str:
        """Who wins or loses: 'You' when a person plays, else both sides by name."""
        if YOU in self.labels.values():
            return "You"
        return " and ".join(self.labels[s] for s in Side)

    def board(self, board: DuetBoard, side: Side | None) -> str:
        """The grid; `side` sees its own key, None (a spectator) sees both: (GA) = A agent, B assassin."""
        width = max(len(w) for w in board.words)
        cells = []
        for i, word in enumerate(board.words):
            text = word.upper().ljust(width)
            if board.found[i]:
                cells.append(f"{Back.GREEN}{Fore.BLACK}[**] {text}{Style.RESET_ALL}"
                             if self.renderer.color else f"[**] {text}")
                continue
            roles = {s: board.keys[s][i] for s in Side}
            if side is None:
                marks = "".join("x" if board.missed[s][i] else roles[s].letter for s in Side)
                role = AGENT if AGENT in roles.values() else roles[Side.A]
            else:
                role = roles[side]
                mine = TRIED if board.missed[side][i] else role.letter
                marks = mine + ("x" if board.missed[side.other][i] else " ")
            cell = f"({marks}) {text}"
            style = Style.DIM if side is not None and board.missed[side][i] else ROLE_STYLE[role]
            cells.append(f"{style}{cell}{Style.RESET_ALL}" if self.renderer.color else cell)
        return "\n".join(" ".join(cells[i:i + COLUMNS]) for i in range(0, len(cells), COLUMNS))

    def show(self, board: DuetBoard, tokens: int, side: Side | None) -> str:
        """The grid and the status line, with `tokens` timer tokens left."""
        return f"{self.board(board, side)}\n{self.status(board, tokens)}"

    def status(self, board: DuetBoard, tokens: int) -> str:
        left = ", ".join(f"{self.labels[s]} {board.agents_left(s)}" for s in Side)
        return (f"Timer: {tokens} of {TIMER_TOKENS} tokens left   agents found: "
                f"{board.agents_found()}/{TOTAL_AGENTS}   agents left on each key: {left}")

    def on_event(self, event: Event) -> None:
        """Tell one game event as it happens, from what the event carries."""
        write = self.renderer.write
        match event:
            case DuetTurnStarted(side=cluer, tokens=tokens, number=number):
                write(f"\n--- turn {number}: {self.does(cluer, 'give')} the clue "
                      f"({tokens} timer tokens left) ---")
            case HintGiven(side=cluer, hint=hint, choice=choice, board=board):
                write(f"{self.labels[cluer]}: {hint}")
                if self.renderer.explain and choice is not None:
                    write(explanation(choice, board))
            case Touched(side=guesser, word=word, role=role):
                write(_capitalised(f"{self.does(guesser, 'touch')} {word.upper()} - {TOUCH_TEXT[role]}"))
            case Passed(side=guesser):
                write(_capitalised(f"{self.does(guesser, 'stop')}."))
            case DuetOver(won=won, reason=reason, tokens=tokens, board=board):
                write(f"\n{self.show(board, tokens, None)}\n")
                write(f"*** {self.players()} {'win' if won else 'lose'}: {reason}. ***")


def _capitalised(line: str) -> str:
    return line[:1].upper() + line[1:]


TOUCH_TEXT = {AGENT: "an agent!", BYSTANDER: "a bystander; the turn ends.",
              DUET_ASSASSIN: "an ASSASSIN!"}
