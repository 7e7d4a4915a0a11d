"""The renderer: exact plain-text output, colour only on a terminal without NO_COLOR."""

from __future__ import annotations

import io

import pytest
from helpers import ScriptedAgent, ScriptedCaptain

from board import ASSASSIN, BLUE, NEUTRAL, RED, Board
from engine import Game, HintGiven, Team, Turn
from model import Hint, HintChoice
from players import AICaptain
from renderer import Renderer, use_color

WORDS = ["ocean", "piano", "bank", "fire", "day", "crane", "bat", "iron", "star", "nail"]
KEY = [RED, RED, BLUE, BLUE, NEUTRAL, NEUTRAL, RED, BLUE, NEUTRAL, ASSASSIN]


def small_board(revealed=("ocean", "bank", "day")) -> Board:
    return Board.from_key(WORDS, KEY, [w in revealed for w in WORDS])


def plain() -> tuple[Renderer, io.StringIO]:
    out = io.StringIO()
    return Renderer(out, color=False), out


class FakeTTY(io.StringIO):
    def isatty(self) -> bool:
        return True


# --- the grid -------------------------------------------------------------------------


def test_captain_view_marks_every_card():
    renderer, _ = plain()
    assert renderer.board(small_board(), captain=True) == (
        "[R] OCEAN (R) PIANO [B] BANK  (B) FIRE  [N] DAY  \n"
        "(N) CRANE (R) BAT   (B) IRON  (N) STAR  (A) NAIL ")


def test_agent_view_shows_only_revealed_colours():
    renderer, _ = plain()
    assert renderer.board(small_board(), captain=False) == (
        "[R] OCEAN ( ) PIANO [B] BANK  ( ) FIRE  [N] DAY  \n"
        "( ) CRANE ( ) BAT   ( ) IRON  ( ) STAR  ( ) NAIL ")


def test_full_board_is_an_aligned_five_by_five_grid():
    words = [f"{'w' * (1 + i % 7)}{chr(97 + i)}" for i in range(25)]
    board = Board.from_key(words, [RED] * 9 + [BLUE] * 8 + [NEUTRAL] * 7 + [ASSASSIN])
    renderer, _ = plain()
    for captain in (True, False):
        lines = renderer.board(board, captain).split("\n")
        assert len(lines) == 5
        assert len({len(line) for line in lines}) == 1          # every row equally wide
        starts = [[i for i, ch in enumerate(line) if ch in "[("] for line in lines]
        assert all(len(s) == 5 for s in starts) and len({tuple(s) for s in starts}) == 1


# --- colour or not --------------------------------------------------------------------


def test_no_color_is_honoured_on_a_terminal(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_color(FakeTTY())
    assert not Renderer(FakeTTY()).color
    monkeypatch.delenv("NO_COLOR")
    assert use_color(FakeTTY())
    renderer = Renderer(FakeTTY())
    assert renderer.color
    text = renderer.board(small_board(), captain=True)
    assert "\x1b[" in text and "[R]" not in text and "(R)" not in text


def test_a_pipe_gets_plain_markers(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    renderer = Renderer(io.StringIO())                     # not a terminal
    assert not renderer.color
    assert "\x1b[" not in renderer.board(small_board(), captain=True)


def test_colour_agent_view_hides_face_down_colours(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    renderer = Renderer(FakeTTY())
    agent_rows = renderer.board(small_board(), captain=False).split("\n")
    captain_rows = renderer.board(small_board(), captain=True).split("\n")
    # PIANO is face down: plain text for the agents, coloured for the captain.
    assert " PIANO " in agent_rows[0] and "\x1b[31m\x1b[1m PIANO" in captain_rows[0]


# --- status, history and events -------------------------------------------------------


def scripted_game(renderer: Renderer, red_words=("ocean", "bank"), blue_words=("iron", None)) -> Game:
    teams = {RED: Team(RED, ScriptedCaptain(Hint("water", 2)), ScriptedAgent(*red_words)),
             BLUE: Team(BLUE, ScriptedCaptain(Hint("metal", None)), ScriptedAgent(*blue_words))}
    game = Game(small_board(revealed=()), teams, seed=0)
    game.listeners.append(renderer.on_event)
    return game


def test_status_line_and_hint_history():
    renderer, _ = plain()
    game = scripted_game(renderer)
    assert renderer.status(game.board, game.team, game.history) == "Turn: RED   cards left: RED 3, BLUE 3"
    game.play_turn()
    game.play_turn()
    assert renderer.status(game.board, game.team, game.history) == (
        "Turn: RED   cards left: RED 2, BLUE 1\n"
        "Hints so far: RED WATER 2: OCEAN, BANK | BLUE METAL unlimited: IRON")


def test_a_card_found_later_is_listed_under_the_ai_hint_that_meant_it():
    # Issue 69: JUNGLE, meant by TROPICAL and found on OCEAN's turn, was listed under OCEAN.
    renderer, _ = plain()
    renderer.width = 200
    tropical = HintChoice(Hint("tropical", 3), ("jungle", "palm", "monkey"), (1, 1, 1), None)
    ocean = HintChoice(Hint("ocean", 2), ("dolphin", "wave"), (1, 1), None)
    turns = [Turn(RED, tropical.hint, [("monkey", RED), ("palm", RED)], tropical),
             Turn(BLUE, None, [("iron", BLUE)]),   # an auto team's turn: no hint
             Turn(RED, ocean.hint, [("dolphin", RED), ("jungle", RED), ("day", NEUTRAL)], ocean),
             Turn(BLUE, Hint("metal", 1), [("jungle", RED)])]   # not BLUE's card, nor its hint's
    history = renderer.status(small_board(), RED, turns).splitlines()[1]
    assert history == ("Hints so far: RED TROPICAL 3: MONKEY, PALM, JUNGLE (later) | RED OCEAN 2: DOLPHIN, "
                       "DAY | BLUE METAL 1: JUNGLE")


def test_the_hints_so_far_wrap_between_hints_within_the_width():
    renderer, _ = plain()
    renderer.width = 60
    turns = [Turn(RED if k % 2 == 0 else BLUE, Hint(word, 2), [("ocean", RED)])
             for k, word in enumerate(["water", "metal", "forest", "music", "planet", "winter", "desert"])]
    lines = renderer.status(small_board(), RED, turns).splitlines()[1:]
    assert len(lines) > 1 and all(len(line) <= 60 for line in lines)
    assert lines[0].startswith("Hints so far: RED WATER 2: OCEAN | BLUE METAL 2: OCEAN")
    assert all(line.startswith(" " * 14) and not line.startswith(" " * 15) for line in lines[1:])
    assert " | ".join(line.strip() for line in lines).removeprefix("Hints so far: ").count(" | ") == 6


def test_events_and_view_as_a_transcript():
    renderer, out = plain()
    game = scripted_game(renderer)
    game.play_turn()
    game.play_turn()
    renderer.show(game.board, game.team, game.history, captain=False)
    assert out.getvalue() == (
        "\n--- RED to play ---\n"
        "RED captain: WATER 2   (3 guesses)\n"
        "RED turns over [R] OCEAN - their own agent\n"
        "RED turns over [B] BANK - the other team's agent\n"
        "\n--- BLUE to play ---\n"
        "BLUE captain: METAL unlimited   (unlimited guesses)\n"
        "BLUE turns over [B] IRON - their own agent\n"
        "BLUE passes.\n"
        "\n"
        "[R] OCEAN ( ) PIANO [B] BANK  ( ) FIRE  ( ) DAY  \n"
        "( ) CRANE ( ) BAT   [B] IRON  ( ) STAR  ( ) NAIL \n"
        "(agents' view)\n"
        "Turn: RED   cards left: RED 2, BLUE 1\n"
        "Hints so far: RED WATER 2: OCEAN, BANK | BLUE METAL unlimited: IRON\n")


def test_game_over_shows_the_whole_key_and_the_winner():
    renderer, out = plain()
    game = scripted_game(renderer, red_words=("ocean", "nail"))
    game.play_turn()
    assert game.winner is BLUE
    assert out.getvalue().endswith(
        "RED turns over [A] NAIL - the ASSASSIN\n"
        "\n"
        "[R] OCEAN (R) PIANO (B) BANK  (B) FIRE  (N) DAY  \n"
        "(N) CRANE (R) BAT   (B) IRON  (N) STAR  [A] NAIL \n"
        "\n"
        "*** BLUE wins: red turned over the assassin. ***\n"
        "\n"
        "The hints, and what they meant:\n"
        "  RED WATER 2: turned over OCEAN, NAIL\n")


@pytest.mark.parametrize("explain", [False, True])
def test_explain_shows_the_ai_reasons(explain):
    out = io.StringIO()
    renderer = Renderer(out, color=False, explain=explain)
    choice = HintChoice(Hint("water", 2), ("ocean", "piano"), (0.91, 0.5), ("bank", 0.33),
                        (("sea", 1, 1.25),), 2.0)
    game = scripted_game(renderer)
    renderer.on_event(HintGiven(RED, choice.hint, choice, game.board))
    text = out.getvalue()
    assert text.startswith("RED captain: WATER 2   (3 guesses)\n")
    reasons = ("    It means OCEAN, PIANO.\n"
               "    Sure: no other card comes close.\n"
               "    Most dangerous: BANK, a blue agent: the hint points to it less than to PIANO.\n"
               "    It also thought of SEA for 1.\n")
    if explain:
        assert text.endswith(reasons)
    else:
        assert text.count("\n") == 1


class Meaning:
    """An AI captain's model that gives one hint and says what it meant."""

    def __init__(self, choice: HintChoice):
        self.choice = choice

    def give_hint(self, board, team, given):
        return self.choice

    def observe(self, hint, face_down, guesses):
        pass


MEANT = HintChoice(Hint("water", 2), ("ocean", "piano"), (0.91, 0.5), ("bank", 0.33), (("sea", 1, 1.25),))


def ai_game(renderer: Renderer, red_words=("ocean", "bank")) -> Game:
    game = scripted_game(renderer, red_words=red_words)
    game.teams[RED] = Team(RED, AICaptain(Meaning(MEANT)), game.teams[RED].agent)
    return game


@pytest.mark.parametrize("explain", [False, True])
def test_a_person_guessing_learns_what_the_captain_meant_after_the_turn_never_before(explain):
    # Issue 40: the AI never said what it meant. While a person guesses, what it meant waits for
    # the end of the turn, and a card still face down is counted, not named, until the game ends.
    out = io.StringIO()
    renderer = Renderer(out, color=False, explain=explain, secret=True)
    game = ai_game(renderer)
    game.play_turn()
    text = out.getvalue()
    before, after = text.split("RED turns over [B] BANK - the other team's agent\n")
    assert "PIANO" not in text and "means" not in before and "meant" not in before
    meant = "The captain meant: OCEAN, 1 card still face down (named at the end of the game).\n"
    assert after.startswith(meant)
    if explain:
        assert after[len(meant):] == (
            "    Sure: no other card comes close.\n"
            "    Most dangerous: BANK, a blue agent: the hint points to it less than to the weakest "
            "card it means.\n"
            "    It also thought of SEA for 1.\n")
    else:
        assert after == meant


def test_a_spectator_hears_what_the_captain_meant_naming_every_card():
    renderer, out = plain()
    ai_game(renderer).play_turn()
    assert out.getvalue().endswith("The captain meant: OCEAN, PIANO.\n")


def test_the_game_ends_with_every_hint_and_what_it_meant():
    out = io.StringIO()
    renderer = Renderer(out, color=False, secret=True)
    game = ai_game(renderer, red_words=("ocean", "nail"))
    game.play_turn()
    text = out.getvalue()
    assert text.endswith("*** BLUE wins: red turned over the assassin. ***\n"
                         "\n"
                         "The hints, and what they meant:\n"
                         "  RED WATER 2: meant OCEAN, PIANO; turned over OCEAN, NAIL\n")
    assert "The captain meant" not in text          # the recap says it, once
