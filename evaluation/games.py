"""The bench's games: one team alone on a board (single-team mode, as in the Codenames AI
Competition) and two teams on `players.Game` (two-team mode)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from board import Board, Color, Outcome, deal
from model import NoLegalHint, agent_guess, hint_problem
from players import AIAgent, AICaptain, AutoTeam, Game, RuleError, Team

LOSS_SCORE = 25        # the competition's score for a lost game
MAX_HINTS = 25         # a game still running after this many hints is lost
TEST_OFFSET = 10_000   # seeds from here on are the test range; tuning uses seeds below


@dataclass
class HintRecord:
    """One hint of a single-team game and what its guesses turned over."""

    word: str
    count: int | None
    illegal: str | None = None
    outcomes: list[Outcome] = field(default_factory=list)

    @property
    def achieved(self) -> int:
        return sum(o is Outcome.OWN for o in self.outcomes)

    @property
    def delivered(self) -> int:
        """Own cards found, up to the count asked (0 or unlimited: all found)."""
        return min(self.achieved, self.count) if self.count else self.achieved

    @property
    def fulfilled(self) -> bool:
        """All the cards asked for were found (for 0 or unlimited: at least one)."""
        return self.achieved >= max(self.count or 0, 1)


@dataclass
class SoloResult:
    """One single-team game: its hints, its end, its timings."""

    seed: int
    hints: list[HintRecord] = field(default_factory=list)
    won: bool = False
    failure: str | None = None   # a model that could not go on (no legal hint, bad guess)
    hint_seconds: list[float] = field(default_factory=list)
    guess_seconds: list[float] = field(default_factory=list)

    @property
    def assassin(self) -> bool:
        return any(o is Outcome.ASSASSIN for h in self.hints for o in h.outcomes)

    @property
    def score(self) -> int:
        return len(self.hints) if self.won else LOSS_SCORE

    def counts(self) -> dict[str, float]:
        """The numerators and denominators of every metric for this game."""
        outcomes = [o for h in self.hints for o in h.outcomes]
        own = sum(o is Outcome.OWN for o in outcomes)
        return {
            "one": 1, "won": int(self.won), "assassin": int(self.assassin), "score": self.score,
            "hints": len(self.hints), "win_hints": len(self.hints) if self.won else 0,
            "own_revealed": own, "guesses": len(outcomes), "own_guesses": own,
            "asked": sum(h.count or 0 for h in self.hints),
            "delivered": sum(h.delivered for h in self.hints),
            "fulfilled": sum(h.fulfilled for h in self.hints),
            "illegal": sum(h.illegal is not None for h in self.hints),
            "failures": int(self.failure is not None),
        }


def play_solo(board: Board, team: Color, captain, agent, rng: np.random.Generator,
              seed: int = 0) -> SoloResult:
    """One team alone against the board until it wins or loses, with N+1 guessing.

    Every hint is checked with `model.hint_problem`; an illegal hint is
    counted (the benchmark requires none) and played as given.
    """
    result, given = SoloResult(seed), []
    while len(result.hints) < MAX_HINTS and not _solo_over(board, team, result):
        start = time.perf_counter()
        try:
            choice = captain.give_hint(board, team, list(given))
        except NoLegalHint as error:
            result.failure = f"no legal hint: {error}"
            break
        result.hint_seconds.append(time.perf_counter() - start)
        hint = choice.hint
        given.append(hint.word)
        face_down, guesses = board.unrevealed_words(), []
        record = HintRecord(hint.word, hint.count, hint_problem(hint.word, board))
        result.hints.append(record)
        while hint.max_guesses is None or len(guesses) < hint.max_guesses:
            start = time.perf_counter()
            word = agent_guess(agent, board, hint, len(guesses), rng, team)
            result.guess_seconds.append(time.perf_counter() - start)
            if word is None:
                break
            if word not in board or board.card(word).revealed:
                result.failure = f"the agent chose {word!r}, not a face-down card"
                break
            outcome = board.reveal(word, team)
            record.outcomes.append(outcome)
            guesses.append(word)
            if outcome is not Outcome.OWN or _solo_over(board, team, result):
                break
        if result.failure:
            break
        captain.observe(hint.word, face_down, guesses)
    result.won = board.remaining(team) == 0 and not result.assassin
    return result


def _solo_over(board: Board, team: Color, result: SoloResult) -> bool:
    """The assassin, all own cards, or all opponent cards turned over."""
    return result.assassin or board.remaining(team) == 0 or board.remaining(team.other) == 0


@dataclass(frozen=True)
class DuelResult:
    """One two-team game between a tested team and the reference team."""

    seed: int
    color: Color        # the tested team's colour
    won: bool
    starting: bool      # the tested team moved first (it had 9 cards)
    assassin: bool      # the tested team turned over the assassin
    error: str | None = None


def play_duel(seed: int, words: Sequence[str], tested: tuple, reference: tuple | None,
              color: Color) -> DuelResult:
    """A two-team game on `players.Game`; `tested`/`reference` are (captain, agent) models, a
    `reference` of None the auto team (one of its own cards a turn)."""
    board, rng = deal(seed, words)
    other = color.other
    teams = {color: Team(color, AICaptain(tested[0]), AIAgent(tested[1]), "tested"),
             other: (AutoTeam(other, "reference") if reference is None else
                     Team(other, AICaptain(reference[0]), AIAgent(reference[1]), "reference"))}
    game = Game(board, teams, rng=rng, seed=seed)
    try:
        winner = game.play()
        error = None
    except RuleError as problem:  # the side to play broke a rule: it loses
        winner, error = game.team.other, f"{game.team.value}: {problem}"
    assassin = any(o is Outcome.ASSASSIN for t in game.history if t.team is color
                   for _, o in t.guesses)
    return DuelResult(seed, color, winner is color, board.starting_team is color, assassin, error)
