"""The bot protocol: `python main.py serve`, a long-running Codenames engine on stdin/stdout.

In the spirit of UCI for chess engines: one JSON object per line in, one JSON
object per line out, in order, until stdin closes. Nothing but replies ever
reaches stdout; the notices go to stderr. See docs/protocol.md.

Two requests do the work:

    {"op": "clue", "board": [25 words], "key": [25 colours], "revealed": [25 booleans], "team": "red"}
    → {"ok": true, "clue": "ocean", "count": 2, "targets": ["wave", "ship"]}

    {"op": "guess", "board": [25 words], "revealed": [25 booleans], "clue": "ocean", "count": 2}
    → {"ok": true, "guesses": ["wave", "ship"]}

Anything wrong with a request gets `{"ok": false, "error": "..."}` and the
engine goes on serving.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import traceback
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TextIO

import numpy as np

from board import ASSASSIN, BLUE, NEUTRAL, RED, SIZE, Board, Color, card_word_problem
from cli import Command, add_ai_arguments, load_ai
from common import normalise, progress, warn
from model import (
    AI,
    MAX_COUNT,
    Captain,
    Hint,
    HintChoice,
    NoLegalHint,
    Weights,
    agent_plays,
    hint_problem,
)

COLORS = {color.value: color for color in Color}
TEAM_NAMES = {RED.value: RED, BLUE.value: BLUE}
# Columns built on demand for unseen board words are dropped past this many (20 boards), so
# that a server meeting endless new boards keeps a small matrix: every new column copies the
# whole matrix (model.Weights.add_words), and so costs more the more extra words it holds (docs/protocol.md).
MAX_EXTRA_WORDS = 500
MAX_LINE = 1 << 20  # characters; a longer line is refused
MAX_LEGALITY_RETRIES = 20


class RequestError(Exception):
    """A request the engine cannot answer; the message goes back to the client."""


# --- reading requests ------------------------------------------------------------------


def board_words(request: dict[str, Any]) -> tuple[list[str], list[str]]:
    """The board's 25 words as sent (for replies) and normalised (for lookups)."""
    words = field(request, "board", list)
    if len(words) != SIZE:
        raise RequestError(f"'board' must list {SIZE} words, got {len(words)}")
    spelled, seen = [], {}
    for i, word in enumerate(words):
        if not isinstance(word, str) or not word.strip():
            raise RequestError(f"'board'[{i}] must be a non-empty string")
        key = " ".join(normalise(word).split())
        if problem := card_word_problem(key):      # as the companion checks a table
            raise RequestError(f"'board'[{i}]: {problem}")
        if key in seen:
            raise RequestError(f"duplicate word {word!r} on the board (positions {seen[key]} and {i})")
        seen[key] = i
        spelled.append(word)
    return spelled, list(seen)


def revealed_flags(request: dict[str, Any]) -> list[bool]:
    """The 25 revealed flags; a request without them has every card face down."""
    if "revealed" not in request:
        return [False] * SIZE
    flags = field(request, "revealed", list)
    if len(flags) != SIZE:
        raise RequestError(f"'revealed' must list {SIZE} booleans, got {len(flags)}")
    if not all(isinstance(flag, bool) for flag in flags):
        raise RequestError("'revealed' must hold only true or false")
    return flags


def key_colors(request: dict[str, Any]) -> list[Color]:
    """The 25 colours of the key, each a known colour, in any numbers.

    Only the team's own face-down cards are required (see `Engine.clue`): other
    frameworks deal other keys, e.g. the Codenames AI Competition's 8/7/9/1.
    """
    names = field(request, "key", list)
    if len(names) != SIZE:
        raise RequestError(f"'key' must list {SIZE} colours, got {len(names)}")
    colors = []
    for i, name in enumerate(names):
        if not isinstance(name, str) or name.lower() not in COLORS:
            raise RequestError(f"'key'[{i}] must be one of {', '.join(COLORS)}, not {describe(name)}")
        colors.append(COLORS[name.lower()])
    return colors


def given_clues(request: dict[str, Any]) -> list[str]:
    """Clues already given in this game (optional), which the captain will not repeat."""
    if "given" not in request:
        return []
    given = field(request, "given", list)
    if not all(isinstance(word, str) for word in given):
        raise RequestError("'given' must be a list of strings")
    return [normalise(word) for word in given]


def flag(request: dict[str, Any], name: str) -> bool:
    """An optional true/false field, false when absent."""
    return field(request, name, bool) if name in request else False


def clue_count(request: dict[str, Any]) -> int | None:
    """The clue's count: 0-9, or null / "unlimited" for no limit."""
    count = request.get("count")
    if count is None or count == "unlimited":
        return None
    if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_COUNT:
        raise RequestError(f"'count' must be an integer 0-{MAX_COUNT}, null or \"unlimited\", "
                           f"not {describe(count)}")
    return count


def field(request: dict[str, Any], name: str, kind: type) -> Any:
    """A required field of the given JSON type."""
    if name not in request:
        raise RequestError(f"missing field {name!r}")
    value = request[name]
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise RequestError(f"{name!r} must be a {JSON_TYPES[kind]}, not {describe(value)}")
    return value


JSON_TYPES = {list: "list", str: "string", int: "integer", bool: "boolean", dict: "object"}


def describe(value: Any, width: int = 40) -> str:
    """A short, safe description of a client's value for an error message."""
    if isinstance(value, str):
        return repr(value if len(value) <= width else value[:width] + "...")
    if value is None or isinstance(value, bool | int | float):
        return json.dumps(value)[:width]
    return "a list" if isinstance(value, list) else "an object"


def writable(value: Any) -> bool:
    """Whether a value can go back into a JSON reply (deep nesting cannot)."""
    try:
        json.dumps(value)
    except (RecursionError, ValueError, TypeError):
        return False
    return True


# --- the engine ---------------------------------------------------------------------------


class Engine:
    """Answers protocol requests with one AI, loaded once; `handle_line` never raises."""

    def __init__(self, ai: AI, seed: int = 0):
        self.ai = ai
        self.captain = ai.captain()
        self.lone_captain = ai.captain(alone=True)   # for a team playing with no opponent
        self.agent = ai.people_agent()   # a clue to guess comes from a person, or a bot like one
        self.seed = seed
        self.base_words = len(ai.weights.words)
        self.ops: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
            "clue": self.clue, "guess": self.guess, "ping": lambda request: {}}

    def handle_line(self, line: str) -> dict[str, Any]:
        """The reply to one line of input, errors included."""
        if len(line) > MAX_LINE:
            return error(f"request longer than {MAX_LINE} characters")
        try:
            request = json.loads(line.strip())
        except RecursionError:
            return error("malformed JSON: nested too deeply")
        except ValueError as problem:
            return error(f"malformed JSON: {problem}")
        return self.handle(request)

    def handle(self, request: Any) -> dict[str, Any]:
        """The reply to one decoded request; the request's "id", if any, is echoed."""
        if not isinstance(request, dict):
            return error("a request is a JSON object, e.g. {\"op\": \"clue\", ...}")
        echo = {"id": request["id"]} if "id" in request else {}
        if echo and not writable(echo):
            return error("'id' cannot be echoed: nested too deeply")
        op = request.get("op")
        if not isinstance(op, str) or op not in self.ops:
            return {**error(f"unknown op {describe(op)}: use {', '.join(repr(o) for o in self.ops)}"),
                    **echo}
        try:
            return {"ok": True, **self.ops[op](request), **echo}
        except RequestError as problem:
            return {**error(str(problem)), **echo}
        except Exception as problem:  # a bug must not take the server down
            warn(traceback.format_exc())
            return {**error(f"internal error: {type(problem).__name__}: {problem}"), **echo}

    def clue(self, request: dict[str, Any]) -> dict[str, Any]:
        """The captain's clue for a team on a board whose key it is told."""
        spelled, words = board_words(request)
        key = key_colors(request)
        revealed = revealed_flags(request)
        team_name = field(request, "team", str).lower()
        if team_name not in TEAM_NAMES:
            raise RequestError(f"'team' must be \"red\" or \"blue\", not {describe(team_name)}")
        team = TEAM_NAMES[team_name]
        given = given_clues(request)
        captain = self.lone_captain if flag(request, "alone") else self.captain
        board = Board.from_key(words, key, revealed)
        if any(card.revealed and card.color is ASSASSIN for card in board.cards):
            raise RequestError("the game is over: an assassin is revealed")
        if team not in key:
            raise RequestError(f"the key has no {team.value} cards: there is nothing to give a clue for")
        if board.remaining(team) == 0:
            raise RequestError(f"no {team.value} cards left face down: {team.value} has already won")
        self.prepare(words)
        choice = self.legal_choice(captain, board, team, given)
        spelling = dict(zip(words, spelled, strict=True))
        return {"clue": choice.hint.word, "count": choice.hint.count,
                "targets": [spelling[w] for w in choice.targets]}

    @staticmethod
    def legal_choice(captain: Captain, board: Board, team: Color, given: list[str]) -> HintChoice:
        """The captain's choice, checked once more against the rules themselves."""
        avoid = list(given)
        for _ in range(MAX_LEGALITY_RETRIES):
            try:
                choice = captain.give_hint(board, team, avoid)
            except NoLegalHint as problem:
                raise RequestError(f"no legal clue: {problem}") from None
            if hint_problem(choice.hint.word, board) is None:
                return choice
            warn(f"serve: the captain chose an illegal clue {choice.hint.word!r}; choosing again")
            avoid.append(choice.hint.word)
        raise RequestError("no legal clue found")

    def guess(self, request: dict[str, Any]) -> dict[str, Any]:
        """The agent's guesses for a clue, in the order it would turn the cards over."""
        spelled, words = board_words(request)
        revealed = revealed_flags(request)
        clue = " ".join(normalise(field(request, "clue", str)).split())
        if not clue:
            raise RequestError("'clue' must be a word")
        hint = Hint(clue, clue_count(request))
        if all(revealed):
            raise RequestError("no face-down cards left to guess")
        # The agent never reads the key: every card is dealt as a bystander.
        board = Board.from_key(words, [NEUTRAL] * SIZE, revealed)
        self.prepare(words)
        rng = np.random.default_rng(self.seed)  # the same request always gets the same answer
        spelling = dict(zip(words, spelled, strict=True))
        return {"guesses": [spelling[w] for w in agent_plays(self.agent, board, hint, rng)]}

    def prepare(self, words: Sequence[str]) -> None:
        """Make sure the weights have a column for every board word, within a bounded matrix."""
        weights = self.ai.weights
        new = [w for w in words if not weights.knows(w)]
        if new and len(weights.words) + len(new) > self.base_words + MAX_EXTRA_WORDS:
            forget_extra_words(weights, self.base_words)
        weights.add_words(words)

    def warm_up(self, words: Iterable[str]) -> None:
        """Do the slow first-time work now, so that the first requests are fast too."""
        weights = self.ai.weights
        for word in progress(list(words), desc="serve: legality tables", unit="word", leave=False):
            weights.filter.banned(word)
        if weights.extender is not None:
            weights.extender.columns(["warm"])  # loads the embedding model


def forget_extra_words(weights: Weights, keep: int) -> None:
    """Drop the on-demand columns beyond the first `keep` words of the matrix."""
    weights.matrix = weights.matrix[:, :keep].copy(order="F")  # the matrix is kept column-major
    weights.words = weights.words[:keep]
    weights.word_index = {w: i for i, w in enumerate(weights.words)}


def error(message: str) -> dict[str, Any]:
    return {"ok": False, "error": message}


def serve(engine: Engine, lines: Iterable[str], out: TextIO) -> int:
    """Answer every line until the input ends; returns the number of requests answered."""
    answered = 0
    for line in lines:
        if not line.strip():
            continue
        try:
            text = json.dumps(engine.handle_line(line))
        except Exception as problem:  # the last resort: whatever happens, one reply per line
            warn(traceback.format_exc())
            text = json.dumps(error(f"internal error: {type(problem).__name__}"))
        out.write(text + "\n")
        out.flush()
        answered += 1
    return answered


# --- the command ------------------------------------------------------------------------------


DESCRIPTION = """Serve the Codenames AI to other programs: JSON lines on stdin and stdout.

Requests, one JSON object a line:
  {"op": "clue", "board": [25 words], "key": [25 colours], "revealed": [25 booleans], "team": "red"}
  {"op": "guess", "board": [25 words], "revealed": [25 booleans], "clue": "word", "count": 2}
Replies, one a line, in order: {"ok": true, ...} or {"ok": false, "error": "..."}.
The process serves until stdin closes. Full description: docs/protocol.md."""


SUMMARY = "the AI for other programs: JSON lines on stdin and stdout"


def add_arguments(p: argparse.ArgumentParser) -> None:
    """serve's flags: the AI's, a seed and torch threads."""
    add_ai_arguments(p)
    p.add_argument("--seed", type=int, default=0, help="seed of the agent's sampling (default 0)")
    p.add_argument("--threads", type=int, default=1, metavar="N",
                   help="torch threads for embedding unseen words (default 1: a request embeds at "
                        "most 25 words, and more threads only contend on a busy machine)")


def claim_stdout() -> TextIO:
    """The protocol's own handle on stdout; everything else printed goes to stderr.

    File descriptor 1 itself is pointed at stderr, so that no library (tqdm,
    transformers, a C extension) can ever write a stray line into the replies.
    """
    sys.stdout.flush()
    replies = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8", newline="\n")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    sys.stdout = sys.stderr
    return replies


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
    engine = Engine(ai, seed=args.seed)
    engine.warm_up(known_words())
    if "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(args.threads)
    warn(f"serve: ready ({ai.weights.name} weights, captain {ai.captain_strategy}, "
         f"agent {ai.agent_strategy}); one JSON request a line on stdin")
    sys.stdin.reconfigure(errors="replace")  # a stray byte is a malformed request, not a crash
    try:
        answered = serve(engine, sys.stdin, replies)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    warn(f"serve: stdin closed after {answered} requests; bye")
    return 0


COMMAND = Command("serve", SUMMARY, DESCRIPTION, add_arguments, run)
