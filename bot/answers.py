"""The bot: one AI, loaded once, answering the protocol's requests (a clue, guesses, a ping)."""

from __future__ import annotations

import json
import traceback
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from board import ASSASSIN, NEUTRAL, SIZE, Board, Color
from bot.partners import Partners, PlayerID, Table
from bot.requests import (
    MAX_LINE,
    TEAM_NAMES,
    RequestError,
    board_words,
    clue_count,
    describe,
    error,
    field,
    flag,
    given_clues,
    key_colors,
    player_id,
    revealed_flags,
    writable,
)
from common import normalise, progress, warn
from model import AI, Captain, Choice, Hint, HintChoice, NoLegalHint, Weights, agent_plays, hint_problem

# Columns built on demand for unseen board words are dropped past this many (20 boards), so
# that a server meeting endless new boards keeps a small matrix: every new column copies the
# whole matrix (model.Weights.add_words), and so costs more the more extra words it holds (docs/protocol.md).
MAX_EXTRA_WORDS = 500
MAX_LEGALITY_RETRIES = 20


class Bot:
    """Answers protocol requests with one AI, loaded once; `handle_line` never raises."""

    def __init__(self, ai: AI, seed: int = 0):
        self.ai = ai
        self.captain = ai.captain()
        self.lone_captain = ai.captain(alone=True)   # for a team playing with no opponent
        self.table = Table()   # the game the anonymous requests' boards belong to
        self.agent = ai.people_agent()   # a clue to guess comes from a person, or a bot like one
        self.partners = Partners(ai)     # the people a request names ("player"), as learnt
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
        """The captain's clue for a team on a board whose key it is told; for a `player`, the
        clue of a captain planning for that person, learnt from the cards they turned over for
        its last clue on this board."""
        player = player_id(request)
        spelled, words = board_words(request)
        key = key_colors(request)
        revealed = revealed_flags(request)
        team_name = field(request, "team", str).lower()
        if team_name not in TEAM_NAMES:
            raise RequestError(f"'team' must be \"red\" or \"blue\", not {describe(team_name)}")
        team = TEAM_NAMES[team_name]
        given = given_clues(request)
        alone = flag(request, "alone")
        board = Board.from_key(words, key, revealed)
        if any(card.revealed and card.color is ASSASSIN for card in board.cards):
            raise RequestError("the game is over: an assassin is revealed")
        if team not in key:
            raise RequestError(f"the key has no {team.value} cards: there is nothing to give a clue for")
        if board.remaining(team) == 0:
            raise RequestError(f"no {team.value} cards left face down: {team.value} has already won")
        self.prepare(words)
        spelling = dict(zip(words, spelled, strict=True))
        if player is None:
            if self.table.meet(board):   # a captain's memory (the cards it aimed at) is one game's
                self.captain, self.lone_captain = self.ai.captain(), self.ai.captain(alone=True)
            choice = self.legal_choice(self.lone_captain if alone else self.captain, board, team, given)
            said: dict[str, Any] = {}
        else:
            choice, read = self.partner_clue(player, board, team, given, alone)
            said = {"player": player}
            if read is not None:
                said["learnt"] = {"clue": read.clue, "picks": [spelling[w] for w in read.chosen]}
        return {"clue": choice.hint.word, "count": choice.hint.count,
                "targets": [spelling[w] for w in choice.targets], **said}

    def partner_clue(self, player: PlayerID, board: Board, team: Color, given: list[str],
                     alone: bool) -> tuple[HintChoice, Choice | None]:
        """The clue of the captain planning for `player`, and what was read of the player's picks
        for its last clue on this board (bot/partners.py), learnt before choosing."""
        partner = self.partners[player]
        partner.meet(board)
        read = partner.read(board, team)
        choice = self.legal_choice(partner.captain(alone), board, team, given)
        partner.gave(choice.hint, board, team, alone, choice.targets)
        return choice, read

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
        """The agent's guesses for a clue, in the order it would turn the cards over; for a
        `player`, read as that person means a clue, as learnt."""
        player = player_id(request)
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
        agent = self.agent if player is None else self.partners[player].agent
        guesses = {"guesses": [spelling[w] for w in agent_plays(agent, board, hint, rng)]}
        return guesses if player is None else {**guesses, "player": player}

    def prepare(self, words: Sequence[str]) -> None:
        """Make sure the weights have a column for every board word, within a bounded matrix."""
        weights = self.ai.weights
        new = [w for w in words if not weights.knows(w)]
        if new and len(weights.words) + len(new) > self.base_words + MAX_EXTRA_WORDS:
            forget_extra_words(weights, self.base_words)
        weights.add_words(words)

    def warm_up(self, words: Iterable[str]) -> None:
        """Do the slow first-time work now, so that the first requests are fast too."""
        weights, words = self.ai.weights, list(words)
        for word in progress(words, desc="serve: legality tables", unit="word", leave=False):
            weights.filter.banned(word)
        if weights.extender is not None:
            weights.extender.columns(["warm"])  # loads the embedding model
        self.partners.warm_up(words)


def forget_extra_words(weights: Weights, keep: int) -> None:
    """Drop the on-demand columns beyond the first `keep` words of the matrix."""
    weights.matrix = weights.matrix[:, :keep].copy(order="F")  # the matrix is kept column-major
    weights.words = weights.words[:keep]
    weights.word_index = {w: i for i, w in enumerate(weights.words)}
