"""A seat's screen at a player's terminal: what the host sends, drawn as the console game draws it
(its renderer and its terminal), in the view of the seat."""

from __future__ import annotations

from typing import Any, TextIO

from board import Color
from engine import TurnEnded
from network.seats import WATCH
from network.views import CAPTAIN_VIEW, event_from, seat_board, turn_from
from renderer import ConsoleTerminal, Renderer

SEAT_STATUS = {"you": "you", "here": "here", "away": "not here", "ai": "the AI", "auto": "auto"}


class Screen:
    """Draws the host's messages on a stream; the renderer is made for the seat at its welcome."""

    def __init__(self, stream: TextIO | None = None, color: bool | None = None):
        self.stream, self.color = stream, color
        self.terminal = ConsoleTerminal(Renderer(stream, color))
        self.captain = False

    @property
    def renderer(self) -> Renderer:
        return self.terminal.renderer

    def write(self, text: str) -> None:
        self.renderer.write(text)

    def prompt(self, text: str) -> None:
        """A prompt drawn again, the line typed for it still to come."""
        self.renderer.stream.write(text)
        self.renderer.stream.flush()

    def draw(self, message: dict[str, Any]) -> None:
        """Draw one message from the host (an ask is the prompt's: `Client`)."""
        match message["type"]:
            case "welcome":
                self.welcome(message)
            case "board":
                self.terminal.show(seat_board(message["board"]), Color(message["team"]),
                                   [turn_from(t) for t in message["turns"]], message["view"] == CAPTAIN_VIEW)
            case "event":
                self.event(message)
            case "tell" | "notice":
                self.write(message["text"])
            case "help":
                self.terminal.help(message["text"])
            case "error":
                self.write(f"(the host: {message['error']})")
            case "refused":
                self.write(f"The host refused: {message['reason']}.")
            case "end":
                self.write(message["reason"])

    def welcome(self, message: dict[str, Any]) -> None:
        """Who the player is at the table: a renderer for the seat's view, and who sits where."""
        self.captain = message["view"] == CAPTAIN_VIEW
        renderer = Renderer(self.stream, self.color, explain=message["explain"], secret=not self.captain)
        self.terminal = ConsoleTerminal(renderer)
        seat = message["seat"]
        if seat == WATCH:
            self.write(f"\nGame {message['game']}: you are watching, as the agents see the board.")
        else:
            key = " (you see the key)" if self.captain else ""
            self.write(f"\nGame {message['game']}: you are the {seat.replace(':', ' ')}{key}. "
                       "Type help at any prompt.")
        self.write(renderer.legend())
        seats = ", ".join(f"{s.replace(':', ' ')} {SEAT_STATUS.get(status, status)}"
                          for s, status in message["seats"].items())
        self.write(f"At the table: {seats}.")

    def event(self, message: dict[str, Any]) -> None:
        """An event of the game, drawn by the renderer as at the console."""
        event, withheld = event_from(message)
        if isinstance(event, TurnEnded) and withheld:   # what the AI meant, cards face down left out
            if not event.final and event.choice is not None:
                self.renderer.meant(event.choice, event.board, withheld)
        else:
            self.renderer.on_event(event)
