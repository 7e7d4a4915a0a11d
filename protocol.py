"""The bot protocol: `python main.py serve`, a long-running Codenames engine on stdin/stdout.

In the spirit of UCI for chess engines: one JSON object per line in, one JSON
object per line out, in order, until stdin closes. Nothing but replies ever
reaches stdout; the notices go to stderr. See docs/protocol.md.

Two requests do the work:

    {"op": "clue", "board": [25 words], "key": [25 colours], "revealed": [25 booleans], "team": "red"}
    → {"ok": true, "clue": "ocean", "count": 2, "targets": ["wave", "ship"]}

    {"op": "guess", "board": [25 words], "revealed": [25 booleans], "clue": "ocean", "count": 2}
    → {"ok": true, "guesses": ["wave", "ship"]}

Either may name its `"player"` (a string or an integer): the bot keeps a model of that person,
plans its clues for them and reads theirs with it, and learns their picks from the next board
(bot/partners.py).

Anything wrong with a request gets `{"ok": false, "error": "..."}` and the
bot goes on serving.
"""

from __future__ import annotations

import argparse
import os
import sys

from bot.answers import MAX_EXTRA_WORDS, Bot, forget_extra_words
from bot.loop import claim_stdout, serve
from bot.requests import RequestError, board_words
from cli import Command, add_ai_arguments, load_ai
from common import COMMAND as PROGRAM
from common import warn

__all__ = ["COMMAND", "MAX_EXTRA_WORDS", "Bot", "RequestError", "board_words", "claim_stdout",
           "forget_extra_words", "serve"]


DESCRIPTION = """Serve the Codenames AI to other programs: JSON lines on stdin and stdout.

Requests, one JSON object a line:
  {"op": "clue", "board": [25 words], "key": [25 colours], "revealed": [25 booleans], "team": "red"}
  {"op": "guess", "board": [25 words], "revealed": [25 booleans], "clue": "word", "count": 2}
Either may add "player": ID (a string or an integer): the AI learns that person as they play,
reading what they turned over from the next board of the same game.
Replies, one a line, in order: {"ok": true, ...} or {"ok": false, "error": "..."}.
The process serves until stdin closes. Full description: """ + f"{PROGRAM} help protocol."


SUMMARY = "the AI for other programs: JSON lines on stdin and stdout"


def add_arguments(p: argparse.ArgumentParser) -> None:
    """serve's flags: the AI's, a seed and torch threads."""
    add_ai_arguments(p)
    p.add_argument("--seed", type=int, default=0, help="seed of the agent's sampling (default 0)")
    p.add_argument("--threads", type=int, default=1, metavar="N",
                   help="torch threads for embedding unseen words (default 1: a request embeds at "
                        "most 25 words, and more threads only contend on a busy machine)")


def run(args: argparse.Namespace) -> int:
    """Serve requests until stdin closes; returns a process exit code."""
    if args.threads < 1:
        warn("serve: --threads must be at least 1")
        return 2
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    # Read by torch when it is first imported (by the embedding model, at warm-up).
    os.environ["OMP_NUM_THREADS"] = os.environ["MKL_NUM_THREADS"] = str(args.threads)
    replies = claim_stdout()
    from common import board_words as known_words

    warn("serve: loading the AI ...")
    try:
        ai = load_ai(args, list(known_words()))
    except (OSError, ValueError, RuntimeError) as problem:
        warn(f"serve: cannot load the AI: {problem}")
        return 2
    bot = Bot(ai, seed=args.seed)
    bot.warm_up(known_words())
    if "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(args.threads)
    warn(f"serve: ready ({ai.weights.name} weights, captain {ai.captain_strategy}, "
         f"agent {ai.agent_strategy}); one JSON request a line on stdin")
    sys.stdin.reconfigure(errors="replace")  # a stray byte is a malformed request, not a crash
    try:
        answered = serve(bot, sys.stdin, replies)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    warn(f"serve: stdin closed after {answered} requests; bye")
    return 0


COMMAND = Command("serve", SUMMARY, DESCRIPTION, add_arguments, run)
