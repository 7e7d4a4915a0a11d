"""A game of Codenames with each player at their own terminal: `python main.py host` and `join`.

This module is the entry (the names in `__all__`); the work is done in the package network/, one
concept a module: wire (JSON lines, checked), views (what each seat may see), seats (seat names,
join codes), table (the seats, their connections and what the game asks them), server (the
listening socket), saved (the save after every move, and resuming it), host (the one authority),
screen and client (a seat at a player's terminal) and command (the CLI). See docs/network.md.
"""

from __future__ import annotations

from network.client import Client
from network.command import HOST, JOIN
from network.host import Host
from network.saved import Saved, Saver, load, restore
from network.seats import SEATS, WATCH, SeatName, new_code
from network.server import DEFAULT_PORT, Server
from network.table import SeatTerminal, Table
from network.views import board_message, event_message
from network.wire import MAX_LINE, WireError, decode, encode

COMMANDS = {"host": HOST, "join": JOIN}

__all__ = ["COMMANDS", "DEFAULT_PORT", "HOST", "JOIN", "MAX_LINE", "SEATS", "WATCH", "Client", "Host",
           "Saved", "Saver", "SeatName", "SeatTerminal", "Server", "Table", "WireError", "board_message",
           "decode", "encode", "event_message", "load", "new_code", "restore"]
