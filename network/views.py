"""What each seat sees, on the wire and back: the one place that decides it.

A captain's connection gets the key; every other connection (an agent's, a watcher's) gets a card's
colour only once the card is turned over, and what an AI captain meant only after its turn, with
the cards still face down left out (null). When the game is over everyone sees the key, as at the
console and at a real table. The host makes these views (`board_message`, `event_message`); a
player's terminal turns them back into the board, turns and events the console's renderer draws.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from board import TEAMS, Board, Card, Color, Outcome
from engine import Event, GameOver, Guessed, HintGiven, Passed, Turn, TurnEnded, TurnStarted
from model import Hint, HintChoice

CAPTAIN_VIEW, AGENT_VIEW = "captain", "agents"


# --- the host: what a seat may see ------------------------------------------------------------


def card_view(card: Card, captain: bool) -> dict[str, Any]:
    """A card: its colour only when it is turned over, or for a captain."""
    view: dict[str, Any] = {"word": card.word, "revealed": card.revealed}
    if card.revealed or captain:
        view["color"] = card.color.value
    return view


def board_view(board: Board, captain: bool) -> dict[str, Any]:
    """The cards, and how many each team has left (as every player at a table can count)."""
    return {"cards": [card_view(card, captain) for card in board.cards],
            "left": {team.value: board.remaining(team) for team in TEAMS}}


def hint_view(hint: Hint | None) -> list | None:
    return None if hint is None else [hint.word, hint.count]


def choice_view(choice: HintChoice, hidden: Collection[str] = ()) -> dict[str, Any]:
    """What an AI captain meant by a hint, and why; the cards `hidden` are null."""
    def shown(word: str) -> str | None:
        return None if word in hidden else word

    return {"targets": [shown(w) for w in choice.targets], "weights": list(choice.target_weights),
            "danger": None if choice.danger is None else [shown(choice.danger[0]), choice.danger[1]],
            "runners_up": [list(r) for r in choice.runners_up],
            "chance": choice.chance}


def turn_view(turn: Turn, meant: bool = False) -> dict[str, Any]:
    """A turn for the status line (the hint, the cards turned over); `meant` adds what an AI
    captain meant, which only the game's end shows to everyone."""
    view: dict[str, Any] = {"team": turn.side.value, "hint": hint_view(turn.hint),
                            "guesses": [[word, outcome.value] for word, outcome in turn.guesses]}
    if meant and turn.choice is not None:
        view["meant"] = list(turn.choice.targets)
    return view


def board_message(board: Board, team: Color, turns: Sequence[Turn], captain: bool) -> dict[str, Any]:
    """The board in a captain's or the agents' view, with whose turn it is and the hints so far."""
    return {"type": "board", "view": CAPTAIN_VIEW if captain else AGENT_VIEW, "team": team.value,
            "board": board_view(board, captain), "turns": [turn_view(t) for t in turns]}


def event_message(event: Event, captain: bool) -> dict[str, Any]:
    """One of the engine's events as a captain's connection (or any other) may see it."""
    match event:
        case TurnStarted(side=team):
            return {"type": "event", "event": "turn_started", "team": team.value}
        case HintGiven(side=team, hint=hint, choice=choice, board=board):
            view = {"type": "event", "event": "hint", "team": team.value, "hint": hint_view(hint)}
            if captain and choice is not None:   # the others hear what it meant when the turn is over
                view |= {"choice": choice_view(choice), "board": board_view(board, captain)}
            return view
        case Guessed(side=team, word=word, color=color, outcome=outcome):
            return {"type": "event", "event": "guessed", "team": team.value, "word": word,
                    "color": color.value, "outcome": outcome.value}
        case Passed(side=team):
            return {"type": "event", "event": "passed", "team": team.value}
        case TurnEnded(side=team, hint=hint, choice=choice, final=final, board=board):
            view = {"type": "event", "event": "turn_ended", "team": team.value, "hint": hint_view(hint),
                    "final": final}
            if choice is not None:
                hidden = () if captain else set(board.unrevealed_words())
                view |= {"choice": choice_view(choice, hidden), "board": board_view(board, captain)}
            return view
        case GameOver(winner=winner, reason=reason, board=board, turns=turns):
            return {"type": "event", "event": "game_over", "winner": winner.value, "reason": reason,
                    "board": board_view(board, captain=True),
                    "turns": [turn_view(t, meant=True) for t in turns]}
    raise ValueError(f"no view of {type(event).__name__}")


# --- a player's terminal: the views turned back into what the renderer draws --------------------


@dataclass
class SeatBoard:
    """The board as the host showed it to a seat: each card's word, its colour where the seat may
    see it (None on a face-down card in the agents' view) and how many cards each team has left;
    it answers what the renderer asks of a `Board`."""

    cards: list[Card]
    left: dict[Color, int]

    @property
    def words(self) -> list[str]:
        return [card.word for card in self.cards]

    def card(self, word: str) -> Card:
        return next(card for card in self.cards if card.word == word)

    def unrevealed_words(self) -> list[str]:
        return [card.word for card in self.cards if not card.revealed]

    def remaining(self, color: Color) -> int:
        return self.left[color]


def seat_board(view: dict[str, Any]) -> SeatBoard:
    cards = [Card(c["word"], Color(c["color"]) if "color" in c else None, c["revealed"])
             for c in view["cards"]]
    return SeatBoard(cards, {Color(team): n for team, n in view["left"].items()})


def hint_from(view: list | None) -> Hint | None:
    return None if view is None else Hint(view[0], view[1])


def choice_from(hint: Hint, view: dict[str, Any]) -> tuple[HintChoice, set[str]]:
    """The choice, and the stand-ins of the cards left out (counted, never named, by the renderer):
    '?1', '?2' ..., which no card's word can be."""
    stand_ins = {i: f"?{i}" for i, word in enumerate([*view["targets"], (view["danger"] or [""])[0]])
                 if word is None}
    targets = tuple(stand_ins.get(i, word) for i, word in enumerate(view["targets"]))
    danger = None
    if view["danger"] is not None:
        word, weight = view["danger"]
        danger = (stand_ins.get(len(targets), word), weight)
    choice = HintChoice(hint, targets, tuple(view["weights"]), danger,
                        tuple(tuple(r) for r in view["runners_up"]),
                        chance=view.get("chance"))
    return choice, set(stand_ins.values())


def turn_from(view: dict[str, Any]) -> Turn:
    hint = hint_from(view["hint"])
    choice = None if "meant" not in view else HintChoice(hint, tuple(view["meant"]), (), None)
    return Turn(Color(view["team"]), hint, [(w, Outcome(o)) for w, o in view["guesses"]], choice)


def event_from(message: dict[str, Any]) -> tuple[Event, set[str]]:
    """The engine's event a message tells, and the stand-ins of the cards it leaves out."""
    team = Color(message.get("team", message.get("winner")))
    board = seat_board(message["board"]) if "board" in message else None
    match message["event"]:
        case "turn_started":
            return TurnStarted(team), set()
        case "hint":
            hint = hint_from(message["hint"])
            choice, withheld = choice_from(hint, message["choice"]) if "choice" in message else (None, set())
            return HintGiven(team, hint, choice, board), withheld
        case "guessed":
            return Guessed(team, message["word"], Color(message["color"]), Outcome(message["outcome"])), set()
        case "passed":
            return Passed(team), set()
        case "turn_ended":
            hint = hint_from(message["hint"])
            choice, withheld = choice_from(hint, message["choice"]) if "choice" in message else (None, set())
            return TurnEnded(team, hint, choice, message["final"], board), withheld
        case "game_over":
            turns = tuple(turn_from(t) for t in message["turns"])
            return GameOver(team, message["reason"], board, turns), set()
    raise ValueError(f"unknown event {message['event']!r}")
