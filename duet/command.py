"""`python main.py duet`: a game of Codenames Duet at the console, you and an AI partner or two AIs."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

import numpy as np

from board import game_rngs
from cli import Command, add_ai_arguments, load_ai, parse_seed
from common import BOARD_WORDS_PATH, board_words, load_words, warn
from common import COMMAND as PROGRAM
from duet.game import DuetGame
from duet.partners import AIPartner, HumanPartner
from duet.rules import RULES, TIMER_TOKENS, DuetBoard, Side
from duet.view import LEGEND, YOU, DuetTerminal, DuetView
from engine import RuleError
from model import AI
from prompts import QuitGame
from renderer import Renderer

PLAYERS = ("human:ai", "ai:ai")

EPILOG = f"""examples:
  {PROGRAM} duet                            you and the AI as partners
  {PROGRAM} duet --players ai:ai --seed 3   watch the AI play with itself"""


SUMMARY = "Codenames Duet: you and an AI partner against the timer"


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
    game = set_up(args, board, ai, renderer, play_rng)
    return play(game, renderer)


def set_up(args: argparse.Namespace, board: DuetBoard, ai: AI, renderer: Renderer,
           rng: np.random.Generator) -> DuetGame:
    """The partners at the table (a person as A with --players human:ai) and the game they play,
    told by a view; the legend for a person, else the whole key, is shown first."""
    human = args.players == "human:ai"
    labels = {Side.A: YOU, Side.B: "the AI"} if human else {Side.A: "AI A", Side.B: "AI B"}
    view = DuetView(renderer, labels)
    players: dict[Side, AIPartner | HumanPartner] = {Side.A: AIPartner(ai), Side.B: AIPartner(ai)}
    if human:
        players[Side.A] = HumanPartner(DuetTerminal(renderer), view, Side.A)
        renderer.write(LEGEND)
    else:
        renderer.write(view.board(board, None))
    game = DuetGame(board, players, rng=rng, tokens=args.tokens, seed=args.seed)
    game.listeners.append(view.on_event)
    return game


def play(game: DuetGame, renderer: Renderer) -> int:
    """Play the game to its end, or until the person leaves; the exit code."""
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


COMMAND = Command("duet", SUMMARY, RULES, add_arguments, run, EPILOG)
