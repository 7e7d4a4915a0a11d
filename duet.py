"""Codenames Duet: the two-player cooperative variant, `python main.py duet`.

Two partners share one 5×5 board and each sees one side of a double key:
9 agents, 3 assassins and 13 bystanders on each side. The sides overlap as on
the real key cards (15 agents in all):

                    side B:  agent  assassin  bystander   all
    side A: agent              3       1          5        9
            assassin           1       1          1        3
            bystander          5       1          7       13
            all                9       3         13       25

Each turn one partner gives a clue for the agents on their own side and the
other guesses, judged by the clue giver's side: an agent is found (it counts
for both sides) and the guesser may go on, for as long as they like; a
bystander ends the turn and is marked as a bystander *for the clue giver
only*, since it may still be one of the guesser's own agents; an assassin
loses the game. Every turn spends one of the 9 timer tokens. Partners take
turns giving clues, except that a partner whose agents are all found gives no
more clues (and a turn ends as soon as the clue giver's last agent is found).
All 15 agents found wins; an assassin, or the last timer token spent with
agents still hidden, loses. (The board game's optional sudden-death round,
guessing without clues once time is out, is not played: out of time is a
loss.)

The engine (`DuetGame`) never prints; it reports events to its listeners, and
`DuetView` draws them. The AI partner reuses the Codenames captain and agent
models of model.py on ordinary `board.Board`s seen from one side of the key.
"""

from __future__ import annotations

import argparse
import enum
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, TextIO

import numpy as np
from colorama import Back, Fore, Style

from board import ASSASSIN, COLUMNS, NEUTRAL, RED, SIZE, Board, Card, game_rngs
from cli import add_ai_arguments, command_parser, load_ai
from common import BOARD_WORDS_PATH, board_words, load_words, normalise, parse_seed, progress, warn
from model import AI, Hint, HintChoice, NoLegalHint, agent_guess, hint_problem
from players import QuitGame, RuleError, Terminal, ask_card, ask_hint
from renderer import ConsoleTerminal, Renderer, explanation

TIMER_TOKENS = 9
AGENTS_PER_SIDE, ASSASSINS_PER_SIDE = 9, 3
MAX_LEGALITY_RETRIES = 50


class Role(enum.Enum):
    """What a card is on one side of the Duet key."""

    AGENT = "agent"
    BYSTANDER = "bystander"
    ASSASSIN = "assassin"

    @property
    def letter(self) -> str:
        return {"agent": "G", "bystander": "-", "assassin": "A"}[self.value]


AGENT, BYSTANDER, DUET_ASSASSIN = Role.AGENT, Role.BYSTANDER, Role.ASSASSIN


class Side(enum.Enum):
    """One of the two partners, and the side of the key card they see."""

    A = "A"
    B = "B"

    @property
    def other(self) -> Side:
        return Side.B if self is Side.A else Side.A


# How many cards have each (side A, side B) pair of roles on a real Duet key card.
KEY_PAIRS: dict[tuple[Role, Role], int] = {
    (AGENT, AGENT): 3, (AGENT, DUET_ASSASSIN): 1, (AGENT, BYSTANDER): 5,
    (DUET_ASSASSIN, AGENT): 1, (DUET_ASSASSIN, DUET_ASSASSIN): 1, (DUET_ASSASSIN, BYSTANDER): 1,
    (BYSTANDER, AGENT): 5, (BYSTANDER, DUET_ASSASSIN): 1, (BYSTANDER, BYSTANDER): 7,
}
TOTAL_AGENTS = sum(n for (a, b), n in KEY_PAIRS.items() if AGENT in (a, b))   # 15


def deal_keys(rng: np.random.Generator) -> dict[Side, list[Role]]:
    """A random double key card: both sides' roles for the 25 positions."""
    pairs = [pair for pair, n in KEY_PAIRS.items() for _ in range(n)]
    order = rng.permutation(len(pairs))
    return {Side.A: [pairs[i][0] for i in order], Side.B: [pairs[i][1] for i in order]}


# --- the board -----------------------------------------------------------------------------


@dataclass
class DuetBoard:
    """25 words, the double key, the agents found and the bystanders marked for each side."""

    words: list[str]
    keys: dict[Side, list[Role]]
    found: list[bool] = field(default_factory=lambda: [False] * SIZE)
    # missed[side][i]: card i turned out a bystander on `side`'s key while `side` gave the clue.
    missed: dict[Side, list[bool]] = field(
        default_factory=lambda: {side: [False] * SIZE for side in Side})
    _index: dict[str, int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._index = {w: i for i, w in enumerate(self.words)}
        if len(self._index) != len(self.words):
            raise ValueError("board words must be distinct")
        if any(len(key) != len(self.words) for key in self.keys.values()):
            raise ValueError("each side's key must have one role per word")

    @classmethod
    def random(cls, words: Sequence[str], rng: np.random.Generator) -> DuetBoard:
        """Deal 25 distinct words and a double key."""
        words = list(dict.fromkeys(words))
        if len(words) < SIZE:
            raise ValueError(f"need at least {SIZE} distinct words, got {len(words)}")
        chosen = [words[i] for i in rng.choice(len(words), SIZE, replace=False)]
        return cls(chosen, deal_keys(rng))

    def __contains__(self, word: str) -> bool:
        return word in self._index

    def role(self, word: str, side: Side) -> Role:
        return self.keys[side][self._index[word]]

    def open_for(self, cluer: Side) -> list[str]:
        """The cards a guesser may still touch for `cluer`'s clue: not found, not known bystanders."""
        return [w for i, w in enumerate(self.words) if not self.found[i] and not self.missed[cluer][i]]

    def agents_left(self, side: Side) -> int:
        """How many of `side`'s agents are still to be found (by the partner, on `side`'s clues)."""
        return sum(1 for i, role in enumerate(self.keys[side]) if role is AGENT and not self.found[i])

    def agents_found(self) -> int:
        return sum(self.found)

    def reveal(self, word: str, cluer: Side) -> Role:
        """The guesser touches a card for `cluer`'s clue; the role on `cluer`'s key is the answer."""
        i = self._index[word]
        if self.found[i] or self.missed[cluer][i]:
            raise ValueError(f"{word} is not open for {cluer.value}'s clues")
        role = self.keys[cluer][i]
        if role is AGENT:
            self.found[i] = True
        elif role is BYSTANDER:
            self.missed[cluer][i] = True
        return role

    # --- the same cards as Codenames boards, for the models --------------------------------

    def captain_board(self, side: Side) -> Board:
        """`side`'s clue-giving view: its agents as RED, face down while still open to guesses."""
        colors = {AGENT: RED, BYSTANDER: NEUTRAL, DUET_ASSASSIN: ASSASSIN}
        cards = [Card(w, colors[role], self.found[i] or self.missed[side][i])
                 for i, (w, role) in enumerate(zip(self.words, self.keys[side], strict=True))]
        return Board(cards, RED)

    def guesser_board(self, cluer: Side) -> Board:
        """What the guesser of `cluer`'s clue reads: found agents RED and revealed, the rest unknown."""
        cards = [Card(w, RED if self.found[i] else NEUTRAL, self.found[i] or self.missed[cluer][i])
                 for i, w in enumerate(self.words)]
        return Board(cards, RED)

    def table_board(self) -> Board:
        """The words still in sight on the table (not covered by an agent), for clue legality."""
        return Board([Card(w, NEUTRAL, self.found[i]) for i, w in enumerate(self.words)], RED)


# --- events ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DuetTurnStarted:
    cluer: Side
    tokens: int          # timer tokens left, this turn's included


@dataclass(frozen=True)
class ClueGiven:
    cluer: Side
    hint: Hint
    choice: HintChoice | None = None


@dataclass(frozen=True)
class Touched:
    guesser: Side
    word: str
    role: Role           # on the clue giver's key


@dataclass(frozen=True)
class Stopped:
    guesser: Side


@dataclass(frozen=True)
class DuetOver:
    won: bool
    reason: str


DuetEvent = DuetTurnStarted | ClueGiven | Touched | Stopped | DuetOver


@dataclass
class DuetTurn:
    cluer: Side
    hint: Hint | None = None
    touched: list[tuple[str, Role]] = field(default_factory=list)


# --- players --------------------------------------------------------------------------------


class DuetPlayer(Protocol):
    def give_clue(self, game: DuetGame, side: Side) -> Hint: ...
    def guess(self, game: DuetGame, hint: Hint, guessed: int) -> str | None: ...


class AIPartner:
    """The AI as a Duet partner: the Codenames captain and agent, each on its side's view."""

    def __init__(self, ai: AI):
        self.captain = ai.captain()
        self.agent = ai.agent()
        self.given: list[str] = []
        self.last_choice: HintChoice | None = None

    def give_clue(self, game: DuetGame, side: Side) -> Hint:
        board, table = game.board.captain_board(side), game.board.table_board()
        avoid = list(self.given)
        # The captain checks legality against the cards open to this side's clues; a word
        # marked a bystander for this side is still on the table, so check again.
        for _ in range(MAX_LEGALITY_RETRIES):
            choice = self.captain.give_hint(board, RED, avoid)
            if hint_problem(choice.hint.word, table) is None:
                self.given.append(choice.hint.word)
                self.last_choice = choice
                return choice.hint
            avoid.append(choice.hint.word)
        raise NoLegalHint("no legal clue after many tries")

    def guess(self, game: DuetGame, hint: Hint, guessed: int) -> str | None:
        # team=RED keeps the agent's memory of earlier clues: found agents are RED on this board.
        return agent_guess(self.agent, game.board.guesser_board(game.cluer), hint, guessed, game.rng,
                           team=RED)


HELP_CLUE = ("Give a clue for your agents (G on your side): one word and a count, e.g. 'ocean 2'.\n"
             "Commands: board, help, quit.")
HELP_GUESS = ("Type a word from the board to touch it. You may go on while you find agents.\n"
              "Commands: pass or stop (end the turn, after one guess), board, help, quit.")


class HumanPartner:
    """A person at the console, playing one side of the key."""

    def __init__(self, terminal: Terminal, view: DuetView, side: Side):
        self.terminal, self.view, self.side = terminal, view, side

    def give_clue(self, game: DuetGame, side: Side) -> Hint:
        self.show(game)
        return ask_hint(self.terminal, "your clue> ", game.board.table_board(), HELP_CLUE,
                        lambda: self.show(game), noun="clue")

    def guess(self, game: DuetGame, hint: Hint, guessed: int) -> str | None:
        if guessed == 0:
            self.show(game)
        return ask_card(self.terminal, f"your guess for {hint} ({guessed} so far)> ",
                        game.board.open_for(game.cluer), game.board.words, guessed, HELP_GUESS,
                        lambda: self.show(game),
                        closed="is already found, or known to be a bystander for your partner")

    def show(self, game: DuetGame) -> None:
        self.terminal.tell(self.view.show(game, self.side))


# --- the game ------------------------------------------------------------------------------------


class DuetGame:
    """A cooperative game of Codenames Duet, run turn by turn to a win or a loss."""

    def __init__(self, board: DuetBoard, players: dict[Side, DuetPlayer],
                 rng: np.random.Generator | None = None, first: Side | None = None,
                 tokens: int = TIMER_TOKENS, seed: int | None = None):
        self.board, self.players = board, players
        self.rng = rng if rng is not None else np.random.default_rng(seed)
        self.seed = seed
        self.cluer = first if first is not None else (Side.A, Side.B)[int(self.rng.integers(2))]
        self.tokens = tokens
        self.history: list[DuetTurn] = []
        self.won: bool | None = None
        self.reason = ""
        self.listeners: list[Callable[[DuetEvent], None]] = []

    @property
    def over(self) -> bool:
        return self.won is not None

    def emit(self, event: DuetEvent) -> None:
        for listener in self.listeners:
            listener(event)

    def play(self) -> bool:
        """Play turns until the game is won or lost; returns whether it was won."""
        while not self.over:
            self.play_turn()
        return bool(self.won)

    def play_turn(self) -> None:
        """One clue and its guesses; then a timer token is spent and the partners swap roles."""
        if self.board.agents_left(self.cluer) == 0:
            self.cluer = self.cluer.other   # nothing left to clue for: the partner clues
        cluer, guesser = self.cluer, self.cluer.other
        turn = DuetTurn(cluer)
        self.history.append(turn)
        self.emit(DuetTurnStarted(cluer, self.tokens))
        try:
            hint = self.players[cluer].give_clue(self, cluer)
        except NoLegalHint as error:
            raise RuleError(f"{cluer.value} has no legal clue: {error}") from None
        if problem := hint_problem(hint.word, self.board.table_board()):
            raise RuleError(f"illegal clue {hint}: {problem}")
        turn.hint = hint
        self.emit(ClueGiven(cluer, hint, getattr(self.players[cluer], "last_choice", None)))
        guessed = 0
        # The turn goes on while the guesser finds agents and the clue giver still has some hidden.
        while not self.over and self.board.agents_left(cluer):
            word = self.players[guesser].guess(self, hint, guessed)
            if word is None:
                if guessed == 0:
                    raise RuleError("a guesser must touch at least one card")
                self.emit(Stopped(guesser))
                break
            role = self.touch(turn, guesser, normalise(word))
            guessed += 1
            if role is not AGENT:
                break
        if self.over:
            return
        self.tokens -= 1
        if self.board.agents_found() == TOTAL_AGENTS:
            self.end(True, f"all {TOTAL_AGENTS} agents found in {self.turns_used} turns")
        elif self.tokens == 0:
            self.end(False, f"time ran out with {self.board.agents_found()} of "
                            f"{TOTAL_AGENTS} agents found")
        self.cluer = cluer.other

    def touch(self, turn: DuetTurn, guesser: Side, word: str) -> Role:
        if word not in self.board or word not in self.board.open_for(turn.cluer):
            raise RuleError(f"{word!r} is not open to guesses")
        role = self.board.reveal(word, turn.cluer)
        turn.touched.append((word, role))
        self.emit(Touched(guesser, word, role))
        if role is DUET_ASSASSIN:
            self.end(False, f"an assassin was touched ({word.upper()})")
        return role

    def end(self, won: bool, reason: str) -> None:
        self.won, self.reason = won, reason
        self.emit(DuetOver(won, reason))

    @property
    def turns_used(self) -> int:
        return len(self.history)

    def record(self) -> dict:
        """The whole game as a JSON-ready dict."""
        return {
            "seed": self.seed,
            "board": self.board.words,
            "keys": {side.value: [r.value for r in self.board.keys[side]] for side in Side},
            "turns": [{"cluer": t.cluer.value,
                       "clue": None if t.hint is None else [t.hint.word, t.hint.count],
                       "touched": [[w, r.value] for w, r in t.touched]} for t in self.history],
            "won": self.won,
            "reason": self.reason,
            "agents_found": self.board.agents_found(),
            "turns_used": self.turns_used,
        }


# --- drawing ---------------------------------------------------------------------------------------


ROLE_STYLE = {AGENT: Fore.GREEN + Style.BRIGHT, BYSTANDER: "",
              DUET_ASSASSIN: Fore.LIGHTBLACK_EX + Style.BRIGHT}
LEGEND = ("G: your agent, for your partner to find   A: your assassin   -: bystander\n"
          "x: known bystander for your partner (no use guessing it on their clues)   [**]: found")


YOU = "you"   # the label of the side a person plays


class DuetTerminal(ConsoleTerminal):
    """The console of a Duet partner: its help tells Duet's rules and key, not Codenames'."""

    def help(self, message: str) -> None:
        self.tell(f"{message}\n\n{DESCRIPTION}\n\n{LEGEND}")


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
                marks = role.letter + ("x" if board.missed[side.other][i] else " ")
            cell = f"({marks}) {text}"
            cells.append(f"{ROLE_STYLE[role]}{cell}{Style.RESET_ALL}" if self.renderer.color else cell)
        return "\n".join(" ".join(cells[i:i + COLUMNS]) for i in range(0, len(cells), COLUMNS))

    def show(self, game: DuetGame, side: Side | None) -> str:
        """The grid and the status line."""
        return f"{self.board(game.board, side)}\n{self.status(game)}"

    def status(self, game: DuetGame) -> str:
        left = ", ".join(f"{self.labels[s]} {game.board.agents_left(s)}" for s in Side)
        return (f"Timer: {game.tokens} of {TIMER_TOKENS} tokens left   agents found: "
                f"{game.board.agents_found()}/{TOTAL_AGENTS}   agents left on each key: {left}")

    def on_event(self, event: DuetEvent, game: DuetGame) -> None:
        write = self.renderer.write
        match event:
            case DuetTurnStarted(cluer=cluer, tokens=tokens):
                write(f"\n--- turn {len(game.history)}: {self.does(cluer, 'give')} the clue "
                      f"({tokens} timer tokens left) ---")
            case ClueGiven(cluer=cluer, hint=hint, choice=choice):
                write(f"{self.labels[cluer]}: {hint}")
                if self.renderer.explain and choice is not None:
                    write(explanation(choice, game.board.captain_board(cluer)))
            case Touched(guesser=guesser, word=word, role=role):
                write(_capitalised(f"{self.does(guesser, 'touch')} {word.upper()} - {TOUCH_TEXT[role]}"))
            case Stopped(guesser=guesser):
                write(_capitalised(f"{self.does(guesser, 'stop')}."))
            case DuetOver(won=won, reason=reason):
                write(f"\n{self.show(game, None)}\n")
                write(f"*** {self.players()} {'win' if won else 'lose'}: {reason}. ***")


def _capitalised(line: str) -> str:
    return line[:1].upper() + line[1:]


TOUCH_TEXT = {AGENT: "an agent!", BYSTANDER: "a bystander; the turn ends.",
              DUET_ASSASSIN: "an ASSASSIN!"}


# --- the benchmark (run by `python main.py bench --duet`) --------------------------------------------


def _mean(values: Sequence[float]) -> float | None:
    return round(float(np.mean(values)), 3) if values else None


def play_ai_game(seed: int, ai: AI, partner: AI | None = None, words: Sequence[str] | None = None,
                 tokens: int = TIMER_TOKENS) -> DuetGame:
    """One unattended game on the board dealt by `seed`: `ai` plays side A, `partner` (default
    the same AI) side B."""
    partner = partner or ai
    board_rng, play_rng = game_rngs(seed)
    board = DuetBoard.random(list(words or board_words()), board_rng)
    for side_ai in (ai, partner):
        side_ai.weights.add_words(board.words)
    game = DuetGame(board, {Side.A: AIPartner(ai), Side.B: AIPartner(partner)}, rng=play_rng,
                    tokens=tokens, seed=seed)
    game.play()
    return game


def benchmark(seeds: Sequence[int], ai: AI, partner: AI | None = None,
              words: Sequence[str] | None = None) -> dict:
    """AI + AI Duet over fixed seeds: success rate, agents found, turns used, and each game.

    `partner` (default: `ai` itself) plays the other side; give it other weights for cross-play.
    """
    games = []
    for seed in progress(list(seeds), desc="duet", unit="game", leave=False):
        game = play_ai_game(seed, ai, partner, words)
        games.append({"seed": seed, "won": bool(game.won), "agents_found": game.board.agents_found(),
                      "turns_used": game.turns_used, "reason": game.reason})
    n = len(games)
    wins = [g for g in games if g["won"]]
    return {
        "games": n,
        "wins": len(wins),
        "success_rate": round(len(wins) / n, 3) if n else None,
        "mean_agents_found": _mean([g["agents_found"] for g in games]),
        "mean_turns_used": _mean([g["turns_used"] for g in games]),
        "mean_turns_to_win": _mean([g["turns_used"] for g in wins]),
        "losses_assassin": sum("assassin" in g["reason"] for g in games),
        "losses_time": sum("time ran out" in g["reason"] for g in games),
        "per_seed": games,
    }


# --- the command -----------------------------------------------------------------------------------


PLAYERS = ("human:ai", "ai:ai")

DESCRIPTION = """Codenames Duet: two partners, one board, a double key; find all 15 agents together.

Each side of the key has 9 agents, 3 assassins and 13 bystanders. Each turn
one partner clues and the other guesses; a bystander ends the turn, an
assassin loses the game, and every turn spends one of 9 timer tokens.
Out of time with agents still hidden is a loss (no sudden-death round)."""

EPILOG = """examples:
  python main.py duet                            you and the AI as partners
  python main.py duet --players ai:ai --seed 3   watch the AI play with itself"""


SUMMARY = "Codenames Duet: you and an AI partner against the timer"


def parser() -> argparse.ArgumentParser:
    """`python main.py duet`'s own parser."""
    return command_parser("duet", DESCRIPTION, EPILOG, add_arguments)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Duet's flags, and the AI's."""
    p.add_argument("--players", default="human:ai", type=str.lower, choices=PLAYERS,
                   help="human:ai (you with an AI partner, default) or ai:ai (unattended)")
    p.add_argument("--seed", type=parse_seed, help="make the board, key and AI sampling reproducible")
    p.add_argument("--tokens", type=int, default=TIMER_TOKENS, metavar="N",
                   help=f"timer tokens (default {TIMER_TOKENS}; the box has 2 more for an easier game)")
    p.add_argument("--words", type=Path, metavar="FILE",
                   help=f"card words (default {BOARD_WORDS_PATH.name})")
    p.add_argument("--explain", action="store_true", help="show why the AI chose each clue")
    add_ai_arguments(p)


def main(argv: list[str], stream: TextIO | None = None) -> int:
    """`python main.py duet ARGV`."""
    return run(parser().parse_args(argv), stream)


def run(args: argparse.Namespace, stream: TextIO | None = None) -> int:
    """Play a game of Duet; returns a process exit code."""
    if hasattr(sys.stdin, "reconfigure"):
        sys.stdin.reconfigure(errors="replace")   # bytes that are not UTF-8 are a typo, not a crash
    if not 1 <= args.tokens <= 99:
        warn("duet: --tokens must be between 1 and 99")
        return 2
    board_rng, play_rng = game_rngs(args.seed)
    try:
        words = load_words(args.words) if args.words else list(board_words())
        board = DuetBoard.random(words, board_rng)
    except (OSError, ValueError) as error:
        warn(f"duet: cannot deal a board: {error}")
        return 2
    try:
        ai = load_ai(args, board.words)
    except (OSError, ValueError, RuntimeError) as error:
        warn(f"duet: cannot load the AI: {error}")
        return 2
    renderer = Renderer(stream, explain=args.explain)
    human = args.players == "human:ai"
    labels = {Side.A: YOU, Side.B: "the AI"} if human else {Side.A: "AI A", Side.B: "AI B"}
    view = DuetView(renderer, labels)
    players: dict[Side, DuetPlayer] = {Side.A: AIPartner(ai), Side.B: AIPartner(ai)}
    if human:
        players[Side.A] = HumanPartner(DuetTerminal(renderer), view, Side.A)
        renderer.write(LEGEND)
    else:
        renderer.write(view.board(board, None))
    game = DuetGame(board, players, rng=play_rng, tokens=args.tokens, seed=args.seed)
    game.listeners.append(lambda event: view.on_event(event, game))
    try:
        game.play()
    except (QuitGame, EOFError):
        renderer.write("\nGame abandoned.")
        return 0
    except KeyboardInterrupt:
        renderer.write("\nGoodbye.")
        return 130
    except RuleError as error:
        warn(f"duet: internal error, the game cannot go on: {error}")
        return 1
    return 0
