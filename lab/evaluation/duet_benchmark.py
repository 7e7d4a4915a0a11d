"""The Duet benchmark (`python main.py bench --duet`): AI partners on fixed seeds, played unattended."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from board import game_rngs
from common import board_words, progress
from duet.game import DuetGame
from duet.partners import AIPartner
from duet.rules import TIMER_TOKENS, DuetBoard, Side
from model import AI


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
