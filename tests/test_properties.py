"""Property-based tests: on random boards, positions, compositions and move sequences the rules hold.

Every game is watched by `soak.Auditor`, an independent restatement of the
rules (see lab/benchmarks/soak.py). The default suite runs few examples per
property; `python -m pytest -m slow tests/test_properties.py` runs the same
properties on many more.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from board import ASSASSIN, BLUE, NEUTRAL, RED, SIZE, TEAMS, Board, Color, Outcome
from common import board_words, hint_words
from engine import AutoTeam, Game, GameOver, Guessed, HintGiven, RuleError, Team
from lab.benchmarks.soak import Auditor
from model import (
    AGENTS,
    AI,
    CAPTAINS,
    MAX_COUNT,
    Hint,
    HintChoice,
    hint_problem,
    spoken,
)
from models.hints import spelled_alike
from models.table import fit_for_table
from players import AIAgent, AICaptain

FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
LONG = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FEW = settings(FAST, max_examples=8)   # for a check whose reference is slow: ~1,500 hints an example


def fast_and_long(*strategies, fast_settings: settings = FAST, **named):
    """A property run with FAST settings (or `fast_settings`), and a `_long` twin, marked slow,
    with LONG settings."""
    def decorate(check):
        fast = fast_settings(given(*strategies, **named)(check))
        long = pytest.mark.slow(LONG(given(*strategies, **named)(check)))
        sys.modules[check.__module__].__dict__[f"{check.__name__}_long"] = long
        return fast
    return decorate


# --- a fast AI: a random matrix over the real hint vocabulary ------------------------------------


class RandomExtender:
    """Deterministic pseudo-random weights for words and hints the matrix lacks (like SBERT would)."""

    def __init__(self, hints):
        self.hints = tuple(hints)

    @staticmethod
    def _weights(key: str, n: int) -> np.ndarray:
        seed = int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "little")
        return (np.random.default_rng(seed).random(n) ** 6).astype(np.float32)

    def columns(self, words):
        return np.stack([self._weights(w, len(self.hints)) for w in words], axis=1)

    def row(self, hint, words):
        return np.array([self._weights(f"{hint}\t{w}", 1)[0] for w in words], dtype=np.float32)


@functools.cache
def random_weights():
    """Weights over the real hint vocabulary and board words; most links weak, a few strong."""
    from model import Weights

    hints, words = hint_words(), board_words()
    matrix = (np.random.default_rng(7).random((len(hints), len(words)), dtype=np.float32) ** 6)
    return Weights("random", hints, words, matrix, extender=RandomExtender(hints))


@functools.cache
def word_pool() -> tuple[str, ...]:
    """Card words: the board list plus common hint-vocabulary words, so boards hold words
    whose forms and near-spellings are hints (the hard cases of legality)."""
    return tuple(dict.fromkeys(board_words() + hint_words()[:600]))


# --- strategies ---------------------------------------------------------------------------------

seeds = st.integers(0, 2**32 - 1)
counts = st.one_of(st.none(), st.integers(0, MAX_COUNT))
captain_names = st.sampled_from(sorted(CAPTAINS))
agent_names = st.sampled_from(sorted(AGENTS))


def deal(seed: int, pool: tuple[str, ...] | None = None) -> Board:
    return Board.random(pool or word_pool(), np.random.default_rng(seed))


@st.composite
def positions(draw) -> tuple[Board, Color]:
    """A board part-way through a game that is not over, and the team to play."""
    board = deal(draw(seeds))
    picks = draw(st.lists(st.integers(0, SIZE - 1), unique=True, max_size=SIZE))
    for i in picks:
        card = board.cards[i]
        if card.color is ASSASSIN or (card.color.is_team and board.remaining(card.color) == 1):
            continue
        board.reveal(card.word, RED)
    return board, draw(st.sampled_from(TEAMS))


# --- scripted players: random legal moves, drawn by hypothesis -----------------------------------

HINT_POOL = ("ocean", "music", "animal", "history", "science", "kitchen", "travel", "money", "weather",
             "battle", "garden", "doctor", "planet", "holiday", "engine", "painting", "winter",
             "football", "jewel", "castle", "forest", "theatre", "village", "desert")


class RandomCaptain:
    """Any legal hint from a pool, with any count: 0-9 or unlimited."""

    def __init__(self, data):
        self.data = data

    def give_hint(self, game: Game) -> HintChoice:
        legal = [w for w in HINT_POOL if hint_problem(w, game.board) is None]
        return HintChoice.bare(Hint(self.data.draw(st.sampled_from(legal)), self.data.draw(counts)))


class RandomAgent:
    """Random face-down cards (optionally its own or the opponent's first); passes at random.

    It logs every answer it gives, by turn, so that a test can compare what
    the engine asked with what the rules say it should have asked.
    """

    def __init__(self, data, policy: str):
        self.data, self.policy = data, policy
        self.answers: dict[int, list[str | None]] = {}

    def guess(self, game: Game, hint: Hint, guessed: int) -> str | None:
        if guessed and self.policy != "never-pass" and self.data.draw(st.booleans()):
            word = None
        else:
            cards = game.board.unrevealed()
            prefer = {"own": game.team, "opponent": game.team.other}.get(self.policy)
            choice = [c.word for c in cards if c.color is prefer] or [c.word for c in cards]
            word = self.data.draw(st.sampled_from(choice))
        self.answers.setdefault(len(game.history), []).append(word)
        return word


SIDES = ("random", "ai", "ai-captain", "ai-agent", "auto")
POLICIES = ("random", "own", "opponent", "never-pass")


def make_team(data, color: Color, side: str) -> Team | AutoTeam:
    if side == "auto":
        return AutoTeam(color)
    ai = AI(random_weights(), data.draw(captain_names), data.draw(agent_names))
    captain = AICaptain(ai.captain()) if side in ("ai", "ai-captain") else RandomCaptain(data)
    agent = (AIAgent(ai.agent()) if side in ("ai", "ai-agent")
             else RandomAgent(data, data.draw(st.sampled_from(POLICIES))))
    return Team(color, captain, agent, label=side)


# --- whole games -----------------------------------------------------------------------------------


@fast_and_long(seeds, st.sampled_from(SIDES), st.sampled_from(SIDES), st.data())
def test_random_games_keep_every_rule(seed, red, blue, data):
    board = deal(seed)
    teams = {RED: make_team(data, RED, red), BLUE: make_team(data, BLUE, blue)}
    game = Game(board, teams, rng=np.random.default_rng(seed), seed=seed)
    auditor = Auditor(game)
    events = []
    game.listeners.append(events.append)
    winner = game.play()

    assert auditor.finish() == []
    assert winner is game.winner and sum(isinstance(e, GameOver) for e in events) == 1
    assert isinstance(events[-1], GameOver)
    assert len(game.history) <= SIZE                         # every turn turns over a card
    guessed = [e.word for e in events if isinstance(e, Guessed)]
    assert len(guessed) == len(set(guessed)) == sum(c.revealed for c in board.cards)
    for color in Color:                                      # remaining = dealt - revealed
        dealt = sum(c.color is color for c in board.cards)
        assert board.remaining(color) == dealt - sum(board.card(w).color is color for w in guessed)
    last_word, last_outcome = game.history[-1].guesses[-1]
    if last_outcome is Outcome.ASSASSIN:
        assert winner is game.history[-1].side.other
    else:
        assert board.remaining(winner) == 0 and board.remaining(winner.other) > 0
        assert board.card(last_word).color is winner         # whoever turned it over
    for event in events:                                      # every hint, AI or not, is legal
        if isinstance(event, HintGiven):
            assert event.hint.count is None or 0 <= event.hint.count <= MAX_COUNT
    # The engine asked each scripted agent exactly as often as the rules allow: its answers are
    # the turn's guesses, plus the pass (None) that ended the turn early.
    for number, turn in enumerate(game.history, 1):
        agent = getattr(teams[turn.side], "agent", None)
        if isinstance(agent, RandomAgent):
            answers = agent.answers.get(number, [])
            guesses = [w for w, _ in turn.guesses]
            assert answers in (guesses, [*guesses, None])
            if answers[-1] is None:             # a pass only ever follows an own card
                assert turn.guesses[-1][1] is Outcome.OWN
            cap = None if not turn.hint.count else turn.hint.count + 1
            if cap is not None:
                assert len(guesses) <= cap
            if agent.policy == "never-pass" and number < len(game.history):
                # It never stops by itself, so only a miss or the cap ends its turn.
                assert turn.guesses[-1][1] is not Outcome.OWN or len(guesses) == cap


@fast_and_long(seeds, st.sampled_from(TEAMS), st.data())
def test_the_team_whose_last_card_the_opponent_reveals_wins(seed, team, data):
    board = deal(seed)
    own = [c.word for c in board.cards if c.color is team]
    for word in own[1:]:                      # all but one of `team`'s cards are already found
        board.reveal(word, team)
    last = own[0]

    class Reveals:
        def guess(self, game, hint, guessed):
            return last

    teams = {team: Team(team, RandomCaptain(data), RandomAgent(data, "random")),
             team.other: Team(team.other, RandomCaptain(data), Reveals())}
    game = Game(board, teams, rng=np.random.default_rng(seed))
    game.team = team.other                    # the opponent is to play
    auditor = Auditor(game)
    assert game.play() is team
    assert game.history[-1].side is team.other and game.history[-1].guesses == [(last, Outcome.OPPONENT)]
    assert auditor.finish() == []


@fast_and_long(seeds, st.sampled_from(TEAMS))
def test_turning_over_the_assassin_hands_the_win_to_the_other_team(seed, team):
    board = deal(seed)
    assassin = next(c.word for c in board.cards if c.color is ASSASSIN)

    class Suicidal:
        def guess(self, game, hint, guessed):
            return assassin

    class Hints:
        def give_hint(self, game):
            return HintChoice.bare(Hint(next(w for w in HINT_POOL if hint_problem(w, game.board) is None), 2))

    game = Game(board, {team: Team(team, Hints(), Suicidal()),
                        team.other: Team(team.other, Hints(), Suicidal())})
    game.team = team
    auditor = Auditor(game)
    assert game.play() is team.other and len(game.history) == 1
    assert auditor.finish() == []


# --- the board alone --------------------------------------------------------------------------------


@fast_and_long(seeds, st.lists(st.tuples(st.integers(0, SIZE - 1), st.sampled_from(TEAMS)), max_size=60))
def test_any_sequence_of_reveals_keeps_the_counts(seed, moves):
    board = deal(seed)
    dealt = {color: sum(c.color is color for c in board.cards) for color in Color}
    revealed: set[str] = set()
    first_winner = None
    for i, team in moves:
        word = board.cards[i].word
        if word in revealed:
            with pytest.raises(ValueError):
                board.reveal(word, team)      # a card is revealed at most once ...
        else:
            outcome = board.reveal(word, team)
            revealed.add(word)
            color = board.cards[i].color
            assert outcome is (Outcome.OWN if color is team else Outcome.ASSASSIN if color is ASSASSIN
                               else Outcome.NEUTRAL if color is NEUTRAL else Outcome.OPPONENT)
        for color in Color:                   # ... and the counts follow the revealed cards
            assert board.remaining(color) == dealt[color] - sum(
                board.card(w).color is color for w in revealed)
        if first_winner is None and board.winner() is not None:
            first_winner = board.winner()
        if first_winner is not None:
            assert board.remaining(first_winner) == 0
    assert sum(c.revealed for c in board.cards) == len(revealed)


# --- the AI on any position ----------------------------------------------------------------------------


@fast_and_long(positions(), captain_names,
               st.lists(st.sampled_from(hint_words()[:3000]), max_size=6))
def test_every_ai_hint_is_legal(position, name, given):
    board, team = position
    choice = CAPTAINS[name](random_weights()).give_hint(board, team, given)
    assert hint_problem(choice.hint.word, board) is None
    assert choice.hint.word not in given
    assert choice.hint.count is None or 0 <= choice.hint.count <= MAX_COUNT
    assert set(choice.targets) <= set(board.unrevealed_words())


@fast_and_long(positions(), agent_names,
               st.one_of(st.sampled_from(hint_words()), st.text(min_size=1, max_size=12)),
               counts, st.integers(0, 10), seeds)
def test_every_ai_guess_is_a_face_down_board_word(position, name, hint_word, count, guessed, seed):
    board, team = position
    agent = AGENTS[name](random_weights())
    rng = np.random.default_rng(seed)
    # An earlier hint in memory, so that the bonus guess is exercised too.
    agent.guess(board, Hint(random_weights().hints[seed % 1000], 2), 0, rng, team=team)
    word = agent.guess(board, Hint(hint_word, count), guessed, rng, team=team)
    if word is None:
        assert guessed > 0                    # an agent always makes a first guess
    else:
        assert word in board.unrevealed_words()


@fast_and_long(positions(), st.lists(st.sampled_from(hint_words()), max_size=4), seeds, fast_settings=FEW)
def test_the_vectorised_hint_filter_agrees_with_hint_problem(position, given, seed):
    board, _ = position
    weights = random_weights()
    legal = weights.filter.legal(board, given)
    rng = np.random.default_rng(seed)
    # A random sample, plus every hint that shares three letters with a card: the hard cases.
    near = {i for i, h in enumerate(weights.hints)
            if any(h[:3] == w[:3] or h[-3:] == w[-3:] for w in board.words)}
    sample = sorted(near | set(rng.choice(len(weights.hints), 150, replace=False).tolist())
                    | {weights.filter.index[g] for g in given})
    for i in sample:
        hint = weights.hints[i]
        # The rules, and the AI's own three: fit for the table, common enough for a person, not
        # spelled like a face-down card.
        spelled_like = any(spelled_alike(hint, w)
                           for w in board.unrevealed_words())
        allowed = (hint_problem(hint, board) is None and hint not in given
                   and fit_for_table(hint) and spoken([hint])[0] and not spelled_like)
        assert legal[i] == allowed, (hint, hint_problem(hint, board))


# --- the auditor itself must catch a broken engine ------------------------------------------------------


class EndlessTurns(Game):
    """A broken engine: a miss does not end the turn."""

    def reveal(self, turn, word):
        super().reveal(turn, word)
        return True


class NoAssassin(Game):
    """A broken engine: the assassin is just another card."""

    def reveal(self, turn, word):
        outcome = self.board.reveal(word, self.team)
        turn.guesses.append((word, outcome))
        self.emit(Guessed(self.team, word, self.board.card(word).color, outcome))
        if (winner := self.board.winner()) is not None:
            self._end(winner, "found all")
        return outcome is Outcome.OWN


class OneGuessOnly(Game):
    """A broken engine: the turn ends after one guess whatever it was."""

    def may_guess(self, hint, guessed):
        return guessed < 1


def sweeper_game(engine: type[Game], seed: int) -> Game:
    board = deal(seed, board_words())
    teams = {c: Team(c, AICaptain(AI(random_weights(), "cumsum", "greedy").captain()), Sweeper())
             for c in TEAMS}
    return engine(board, teams, rng=np.random.default_rng(seed))


class Sweeper:
    """Turns over face-down cards in board order, never passing: every turn goes until it must end."""

    def guess(self, game, hint, guessed):
        return game.board.unrevealed_words()[0]


@pytest.mark.parametrize("engine", [EndlessTurns, NoAssassin, OneGuessOnly])
def test_the_auditor_catches_a_broken_engine(engine):
    """Each broken engine is flagged within a few seeds: the checks above can fail."""
    for seed in range(20):
        game = sweeper_game(engine, seed)
        auditor = Auditor(game)
        with contextlib.suppress(RuleError, ValueError, IndexError):
            game.play()
        if auditor.finish():
            return
    pytest.fail(f"the auditor did not notice {engine.__name__}")


def test_the_auditor_accepts_the_real_engine_with_the_same_players():
    for seed in range(8):
        game = sweeper_game(Game, seed)
        auditor = Auditor(game)
        game.play()
        assert auditor.finish() == []


# --- the real default weights, for the long run only -------------------------------------------------


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seeds, captain_names, agent_names, captain_names, agent_names)
def test_ai_games_on_the_real_default_weights_keep_every_rule(seed, red_captain, red_agent,
                                                              blue_captain, blue_agent):
    weights = _default_weights()
    board = Board.random(board_words(), np.random.default_rng(seed))
    teams = {RED: Team(RED, AICaptain(AI(weights, red_captain, red_agent).captain()),
                       AIAgent(AI(weights, red_captain, red_agent).agent())),
             BLUE: Team(BLUE, AICaptain(AI(weights, blue_captain, blue_agent).captain()),
                        AIAgent(AI(weights, blue_captain, blue_agent).agent()))}
    game = Game(board, teams, rng=np.random.default_rng(seed))
    auditor = Auditor(game)
    game.play()
    assert auditor.finish() == []


@functools.cache
def _default_weights():
    import datasets

    return datasets.load_weights("sbert", words=board_words())
