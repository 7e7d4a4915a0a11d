"""The rules of Codenames as the engine enforces them: dealing, turn ends, counts, winning."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import BLUE_WORDS, KEY, RED_WORDS, WORDS, ScriptedAgent, ScriptedCaptain, fixed_board

from board import ASSASSIN, BLUE, NEUTRAL, RED, Board, Color, Outcome, deal_key, parse_color
from engine import (
    AutoTeam,
    Game,
    GameOver,
    Guessed,
    HintGiven,
    Passed,
    RuleError,
    Team,
    TurnEnded,
    TurnStarted,
)
from model import Hint, HintChoice
from players import AICaptain


def game_with(red_hints, red_words, blue_hints=(), blue_words=(), board=None):
    """A game on the fixed board whose teams follow scripts; events are recorded in game.events."""
    red = Team(RED, ScriptedCaptain(*red_hints), ScriptedAgent(*red_words))
    blue = Team(BLUE, ScriptedCaptain(*blue_hints), ScriptedAgent(*blue_words))
    game = Game(board or fixed_board(), {RED: red, BLUE: blue}, seed=0)
    game.events = []
    game.listeners.append(game.events.append)
    return game


def revealed(game: Game) -> list[str]:
    return [c.word for c in game.board.cards if c.revealed]


# --- dealing -------------------------------------------------------------------------


def test_random_board_deals_9_8_7_1_and_the_starter_has_nine():
    for seed in range(20):
        board = Board.random(WORDS + [f"word{i}" for i in range(30)], np.random.default_rng(seed))
        key = board.key
        assert len(board.cards) == 25 and len(set(board.words)) == 25
        assert key.count(board.starting_team) == 9
        assert key.count(board.starting_team.other) == 8
        assert key.count(NEUTRAL) == 7 and key.count(ASSASSIN) == 1


def test_both_teams_start_sometimes_and_the_seed_reproduces_the_board():
    words = WORDS + [f"word{i}" for i in range(30)]
    starters = {Board.random(words, np.random.default_rng(s)).starting_team for s in range(20)}
    assert starters == {RED, BLUE}
    a, b = (Board.random(words, np.random.default_rng(7)) for _ in range(2))
    assert a.words == b.words and a.key == b.key
    assert Board.random(words, np.random.default_rng(8)).words != a.words


def test_too_few_words_or_duplicate_words_are_refused():
    with pytest.raises(ValueError, match="at least 25"):
        Board.random(WORDS[:24], np.random.default_rng(0))
    with pytest.raises(ValueError, match="distinct"):
        Board.from_key(["apple"] * 25, KEY)


def test_deal_key_and_parse_color():
    assert deal_key(BLUE).count(BLUE) == 9 and deal_key(BLUE).count(RED) == 8
    assert parse_color(" R ") is RED and parse_color("Assassin") is ASSASSIN
    with pytest.raises(ValueError, match="unknown colour"):
        parse_color("green")


def test_reveal_outcomes_from_the_guessing_team_view():
    board = fixed_board()
    assert board.reveal("apple", RED) is Outcome.OWN
    assert board.reveal("jacket", RED) is Outcome.OPPONENT
    assert board.reveal("saddle", BLUE) is Outcome.NEUTRAL
    assert board.reveal("candle", BLUE) is Outcome.ASSASSIN
    assert board.remaining(RED) == 8 and board.remaining(BLUE) == 7
    with pytest.raises(ValueError, match="already revealed"):
        board.reveal("apple", BLUE)


def test_hint_max_guesses_is_count_plus_one_and_no_cap_for_zero_or_unlimited():
    assert Hint("ocean", 1).max_guesses == 2
    assert Hint("ocean", 9).max_guesses == 10
    assert Hint("ocean", 0).max_guesses is None
    assert Hint("ocean", None).max_guesses is None


# --- what ends a turn ----------------------------------------------------------------


def test_own_card_keeps_the_turn_and_neutral_ends_it():
    game = game_with([Hint("fruit", 3)], ["apple", "saddle", "bridge"])
    game.play_turn()
    assert revealed(game) == ["apple", "saddle"]
    assert game.team is BLUE and not game.over
    assert game.history[0].guesses == [("apple", Outcome.OWN), ("saddle", Outcome.NEUTRAL)]


def test_opponent_card_ends_the_turn_and_counts_for_them():
    game = game_with([Hint("fruit", 3)], ["lemon", "apple"])
    game.play_turn()
    assert revealed(game) == ["lemon"]
    assert game.board.remaining(BLUE) == 7 and game.board.remaining(RED) == 9
    assert game.team is BLUE
    assert game.events[-2:] == [Guessed(RED, "lemon", BLUE, Outcome.OPPONENT),
                                TurnEnded(RED, Hint("fruit", 3))]


def test_an_ai_captain_tells_its_model_what_its_agent_turned_over():
    class Model:
        """A captain model that gives set hints and records what it is told."""

        def __init__(self, *hints: Hint):
            self.hints, self.observed = list(hints), []

        def give_hint(self, board, team, given):
            return HintChoice(self.hints.pop(0), (), (), None)

        def observe(self, hint, face_down, guesses):
            self.observed.append((hint, len(face_down), guesses))

    model = Model(Hint("fruit", 2), Hint("tools", 1))
    game = game_with([], ["apple", "lemon", "hammer", "button"], [Hint("kitchen", 1)], ["kettle", "saddle"])
    game.teams[RED] = Team(RED, AICaptain(model), game.teams[RED].agent)
    game.play_turn()
    game.play_turn()
    assert model.observed == []
    game.play_turn()   # red again: first told what its agent did with "fruit", before blue played
    assert model.observed == [("fruit", 25, ["apple", "lemon"])]


def test_each_turn_ends_with_what_an_ai_captain_meant_and_the_log_keeps_it():
    # Issue 40: the guesser could not learn which cards the AI captain had in mind.
    class Meaning:
        def give_hint(self, board, team, given):
            return HintChoice(Hint("fruit", 2), ("apple", "lemon"), (0.9, 0.8), ("candle", 0.3))

        def observe(self, hint, face_down, guesses):
            pass

    game = game_with([], ["apple", "candle"], [Hint("kitchen", 1)], ["kettle", "saddle"])
    game.teams[RED] = Team(RED, AICaptain(Meaning()), game.teams[RED].agent)
    game.play_turn()
    ended, over = game.events[-2:]
    assert ended == TurnEnded(RED, Hint("fruit", 2), game.history[0].choice, final=True)
    assert ended.choice.targets == ("apple", "lemon")
    assert over == GameOver(BLUE, game.reason)              # the turn's end is told before the game's
    assert game.record()["turns"][0]["targets"] == ["apple", "lemon"]


def test_assassin_loses_at_once():
    game = game_with([Hint("wax", 2)], ["apple", "candle", "bridge"])
    game.play_turn()
    assert game.over and game.winner is BLUE
    assert "assassin" in game.reason
    assert revealed(game) == ["apple", "candle"]
    assert game.events[-1] == GameOver(BLUE, game.reason)
    assert game.record()["assassin"] is True


def test_guesses_run_out_at_count_plus_one():
    agent_words = ["apple", "bridge", "castle", "dragon"]
    game = game_with([Hint("thing", 1)], agent_words)
    game.play_turn()
    assert revealed(game) == ["apple", "bridge"]          # 1 + 1 guesses, all own cards
    assert game.teams[RED].agent.asked == [0, 1]           # never asked a third time
    assert game.team is BLUE and not any(isinstance(e, Passed) for e in game.events)


@pytest.mark.parametrize("count", [2, 3, 5])
def test_n_plus_one_for_several_counts(count):
    game = game_with([Hint("thing", count)], RED_WORDS)
    game.play_turn()
    assert len(revealed(game)) == count + 1


@pytest.mark.parametrize("count", [0, None])
def test_zero_and_unlimited_have_no_cap(count):
    game = game_with([Hint("thing", count)], RED_WORDS[:7] + [None])
    game.play_turn()
    assert revealed(game) == RED_WORDS[:7]
    assert isinstance(game.events[-2], Passed) and game.team is BLUE


def test_voluntary_pass_after_one_guess():
    game = game_with([Hint("thing", 3)], ["apple", None])
    game.play_turn()
    assert revealed(game) == ["apple"]
    assert game.events[-2] == Passed(RED) and game.team is BLUE
    assert [type(e) for e in game.events] == [TurnStarted, HintGiven, Guessed, Passed, TurnEnded]


def test_pass_before_any_guess_is_refused_by_the_engine():
    game = game_with([Hint("thing", 2)], [None])
    with pytest.raises(RuleError, match="at least one guess"):
        game.play_turn()
    assert revealed(game) == []


def test_guessing_a_card_that_is_not_face_down_is_a_rule_error():
    game = game_with([Hint("thing", 2)], ["apple"], board=fixed_board({"apple"}))
    with pytest.raises(RuleError, match="not a face-down card"):
        game.play_turn()
    game = game_with([Hint("thing", 2)], ["unicorn"])
    with pytest.raises(RuleError, match="not a face-down card"):
        game.play_turn()


def test_an_illegal_hint_from_a_captain_is_a_rule_error():
    game = game_with([Hint("apples", 2)], ["apple"])
    with pytest.raises(RuleError, match="illegal hint"):
        game.play_turn()


def test_guesses_are_matched_without_regard_to_case():
    game = game_with([Hint("thing", 1)], ["  APPLE ", None])
    game.play_turn()
    assert revealed(game) == ["apple"]


# --- winning -------------------------------------------------------------------------


def test_revealing_your_last_card_wins():
    board = fixed_board(set(RED_WORDS[:-1]))
    game = game_with([Hint("thing", 1)], ["island", "lemon"], board=board)
    game.play_turn()
    assert game.over and game.winner is RED and revealed(game)[-1] == "island"
    assert game.teams[RED].agent.asked == [0]           # the game ends mid-turn


def test_a_win_by_the_opponents_guess():
    # Blue has one card left; red turns it over: blue wins, on red's turn.
    board = fixed_board(set(BLUE_WORDS[:-1]))
    game = game_with([Hint("thing", 2)], ["rocket"], board=board)
    assert game.team is RED
    winner = game.play()
    assert winner is BLUE and game.winner is BLUE
    assert "blue found all their agents" in game.reason
    assert game.events[-1] == GameOver(BLUE, game.reason)


def test_play_alternates_teams_until_someone_wins():
    red_words = ["apple", "bridge", "saddle", "castle", "dragon", None, "engine", "forest", "guitar",
                 "hammer", "island"]
    blue_words = ["jacket", "tunnel", "kettle", "violin"]
    game = game_with([Hint("one", 2), Hint("two", 2), Hint("three", 0)], red_words,
                     [Hint("four", 1), Hint("five", 1)], blue_words)
    assert game.play() is RED
    assert [t.side for t in game.history] == [RED, BLUE, RED, BLUE, RED]
    record = game.record()
    assert record["winner"] == "red" and record["assassin"] is False
    assert record["turns"][0] == {"team": "red", "hint": ["one", 2], "targets": None,   # a person's hint
                                  "guesses": [["apple", "own"], ["bridge", "own"], ["saddle", "neutral"]]}
    assert record["turns"][-1]["hint"] == ["three", 0]


# --- the auto team -------------------------------------------------------------------


def test_auto_team_reveals_exactly_one_own_card_per_turn():
    board = fixed_board()
    game = Game(board, {RED: AutoTeam(RED), BLUE: AutoTeam(BLUE)}, seed=3)
    turns = 0
    while not game.over:
        team = game.team
        before = {c.word for c in board.unrevealed()}
        game.play_turn()
        turns += 1
        gone = before - {c.word for c in board.unrevealed()}
        assert len(gone) == 1 and board.card(gone.pop()).color is team
    # Red starts with 9, blue has 8: blue's 8th turn comes when red has found 8.
    assert game.winner is BLUE and turns == 8 + 8
    assert board.remaining(RED) == 1 and board.remaining(NEUTRAL) == 7


def test_auto_team_against_a_team_that_hits_the_assassin():
    game = Game(fixed_board(), {RED: Team(RED, ScriptedCaptain(Hint("wax", 1)), ScriptedAgent("candle")),
                                BLUE: AutoTeam(BLUE)}, seed=0)
    assert game.play() is BLUE
    assert game.board.remaining(BLUE) == 8


def test_auto_team_choice_follows_the_seed():
    def first_reveal(seed: int) -> str:
        game = Game(fixed_board(), {RED: AutoTeam(RED), BLUE: AutoTeam(BLUE)}, seed=seed)
        game.play_turn()
        return game.history[0].guesses[0][0]
    assert first_reveal(5) == first_reveal(5)
    assert len({first_reveal(s) for s in range(20)}) > 1


def test_color_helpers():
    assert RED.other is BLUE and BLUE.other is RED
    with pytest.raises(ValueError):
        _ = NEUTRAL.other
    assert [c.letter for c in Color] == ["R", "B", "N", "A"]
