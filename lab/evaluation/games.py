"""The bench's games on the game's engine: one team alone on a board (single-team mode, as in the
Codenames AI Competition) and two teams (two-team mode)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from board import Board, Color, Outcome, deal
from engine import AutoTeam, Game, RuleError, Team
from players import AIAgent, AICaptain

LOSS_SCORE = 25        # the competition's score for a lost game
TEST_OFFSET = 10_000   # seeds from here on are the test range; tuning uses seeds below


@dataclass
class HintRecord:
    """One hint of a single-team game and what its guesses turned over."""

    word: str
    count: int | None
    illegal: str | None = None
    outcomes: list[Outcome] = field(default_factory=list)
    targets: tuple[str, ...] = ()     # what the captain meant (an AI captain's reasons)
    face_down: tuple[str, ...] = ()   # the cards face down when it was given
    lures: tuple[str, ...] = ()       # the colours of the other cards it made a phrase with (a judge's)
    seen: bool | None = None          # whether every way of reading it sees every target (a judge's)

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
              seed: int = 0, listeners: Sequence = ()) -> SoloResult:
    """One team alone against the board until it wins or loses, with N+1 guessing: the engine's
    single-team mode, lenient, so that an illegal hint is counted (the benchmark requires none)
    and played as given; a model that cannot go on ends the game as a failure. `listeners` hear
    the game's events (players.Learning, as in a person's game)."""
    players = AICaptain(captain), AIAgent(agent)
    game = Game(board, {team: Team(team, *players)}, rng=rng, seed=seed, lenient=True)
    game.listeners.extend(listeners)
    result = SoloResult(seed)
    try:
        game.play()
    except RuleError as error:
        result.failure = str(error)
    revealed: set[str] = set()
    for turn in game.history:
        if turn.hint is not None:
            result.hints.append(HintRecord(
                turn.hint.word, turn.hint.count, turn.problem, [o for _, o in turn.guesses],
                () if turn.choice is None else turn.choice.targets,
                tuple(w for w in board.words if w not in revealed)))
        revealed.update(w for w, _ in turn.guesses)
    result.won = game.winner is team
    result.hint_seconds, result.guess_seconds = players[0].seconds, players[1].seconds
    return result


@dataclass(frozen=True)
class DuelResult:
    """One two-team game between a tested team and the reference team."""

    seed: int
    color: Color        # the tested team's colour
    won: bool
    starting: bool      # the tested team moved first (it had 9 cards)
    assassin: bool      # the tested team turned over the assassin
    error: str | None = None
    reference_assassin: bool = False   # the reference team did


def play_duel(seed: int, words: Sequence[str], tested: tuple, reference: tuple | None,
              color: Color) -> DuelResult:
    """A two-team game on the engine's `Game`; `tested`/`reference` are (captain, agent) models, a
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
    assassin = {side: any(o is Outcome.ASSASSIN for t in game.history if t.side is side
                          for _, o in t.guesses) for side in (color, other)}
    return DuelResult(seed, color, winner is color, board.starting_team is color, assassin[color], error,
                      assassin[other])
