"""Codenames Duet: the double key, the turn rules, the timer, assassins on each side, the AI
partner, an AI + AI game to the end and the benchmark."""

from __future__ import annotations

import argparse
import io
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

import duet
from common import board_words
from duet import (
    AGENT,
    BYSTANDER,
    DUET_ASSASSIN,
    TIMER_TOKENS,
    TOTAL_AGENTS,
    AIPartner,
    DuetBoard,
    DuetGame,
    DuetOver,
    DuetView,
    HumanPartner,
    Side,
    Touched,
    deal_keys,
)
from duet.view import LEGEND
from engine import Passed, RuleError
from lab.evaluation.duet_benchmark import benchmark, play_ai_game
from model import Hint, HintChoice, hint_problem
from prompts import QuitGame
from renderer import Renderer

A, B = Side.A, Side.B
ROOT = Path(__file__).resolve().parent.parent


# --- the double key -------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(50))
def test_keys_have_the_overlap_of_the_real_game(seed):
    keys = deal_keys(np.random.default_rng(seed))
    pairs = Counter(zip(keys[A], keys[B], strict=True))
    assert len(keys[A]) == len(keys[B]) == 25
    for side in Side:
        assert Counter(keys[side]) == {AGENT: 9, DUET_ASSASSIN: 3, BYSTANDER: 13}
    agents = {i for side in Side for i, role in enumerate(keys[side]) if role is AGENT}
    assert len(agents) == TOTAL_AGENTS == 15
    assert pairs[AGENT, AGENT] == 3                                  # agents on both sides
    assert pairs[AGENT, DUET_ASSASSIN] == pairs[DUET_ASSASSIN, AGENT] == 1   # one's agent, other's assassin
    assert pairs[DUET_ASSASSIN, DUET_ASSASSIN] == 1                  # the shared assassin
    # So each side's three assassins are: the shared one, one of the partner's agents, one bystander.
    for side in Side:
        under = Counter(keys[side.other][i] for i, r in enumerate(keys[side]) if r is DUET_ASSASSIN)
        assert under == {DUET_ASSASSIN: 1, AGENT: 1, BYSTANDER: 1}
    assert pairs[BYSTANDER, BYSTANDER] == 7


def test_keys_are_shuffled_and_reproducible():
    first = [deal_keys(np.random.default_rng(s))[A] for s in range(30)]
    assert deal_keys(np.random.default_rng(3)) == deal_keys(np.random.default_rng(3))
    assert len({tuple(k) for k in first}) == 30
    # Every position is an agent on side A in some deal.
    assert all(any(k[i] is AGENT for k in first) for i in range(25))


# --- the rules, with scripted players --------------------------------------------------------------


WORDS = ["apple", "bread", "chair", "dance", "eagle", "flute", "grape", "horse", "igloo", "jelly",
         "kite", "lemon", "mango", "night", "olive", "piano", "queen", "robin", "sugar", "table",
         "uncle", "violin", "water", "yacht", "zebra"]


def fixed_board() -> DuetBoard:
    return DuetBoard(list(WORDS), deal_keys(np.random.default_rng(7)))


def cards(board: DuetBoard, a: duet.Role, b: duet.Role) -> list[str]:
    """The words whose roles are a on side A and b on side B."""
    return [w for i, w in enumerate(board.words) if board.keys[A][i] is a and board.keys[B][i] is b]


class Scripted:
    """A partner that gives the clues and touches the cards it is told, turn by turn."""

    def __init__(self, clues=(), touches=()):
        self.clues, self.touches = list(clues), [list(t) for t in touches]

    def give_hint(self, game):
        return HintChoice.bare(self.clues.pop(0) if self.clues else Hint("astronomy", 1))

    def guess(self, game, hint, guessed):
        turn = self.touches[0]
        if not turn:
            self.touches.pop(0)
            return None
        word = turn.pop(0)
        if not turn:
            self.touches.pop(0)
        return word


def game_of(board, a=None, b=None, first=A, tokens=TIMER_TOKENS) -> tuple[DuetGame, list]:
    game = DuetGame(board, {A: a or Scripted(), B: b or Scripted()}, first=first, tokens=tokens, seed=0)
    events: list = []
    game.listeners.append(events.append)
    return game, events


def test_an_agent_is_found_for_both_and_the_guesser_goes_on_until_a_bystander():
    board = fixed_board()
    a_agents = cards(board, AGENT, BYSTANDER)
    miss = cards(board, BYSTANDER, AGENT)[0]       # a bystander for A, but one of B's agents
    # A clues; B guesses against A's key: two agents, then the bystander ends the turn.
    game, events = game_of(board, b=Scripted(touches=[[a_agents[0], a_agents[1], miss]]))
    game.play_turn()
    touched = [(e.word, e.role) for e in events if isinstance(e, Touched)]
    assert touched == [(a_agents[0], AGENT), (a_agents[1], AGENT), (miss, BYSTANDER)]
    assert board.agents_found() == 2 and game.tokens == TIMER_TOKENS - 1 and not game.over
    # The bystander is marked for A's clues only: still open when B clues, and there an agent.
    assert miss not in board.open_for(A) and miss in board.open_for(B)
    assert game.cluer is B
    game.players[A] = Scripted(touches=[[miss, None]])
    game.play_turn()
    assert board.found[board.words.index(miss)] and board.agents_found() == 3
    assert game.tokens == TIMER_TOKENS - 2


def test_the_guesser_may_stop_after_one_guess_but_not_before():
    board = fixed_board()
    agent = cards(board, AGENT, AGENT)[0]
    game, events = game_of(board, b=Scripted(touches=[[agent, None]]))
    game.play_turn()
    assert board.agents_found() == 1 and any(isinstance(e, Passed) for e in events)
    game, _ = game_of(fixed_board(), a=Scripted(touches=[[None]]), first=B)
    with pytest.raises(RuleError, match="at least one guess"):
        game.play_turn()


@pytest.mark.parametrize("cluer", [A, B])
def test_an_assassin_on_the_clue_givers_side_loses(cluer):
    board = fixed_board()
    own_assassin = cards(board, DUET_ASSASSIN, BYSTANDER) if cluer is A else cards(board, BYSTANDER,
                                                                                      DUET_ASSASSIN)
    guesser = Scripted(touches=[own_assassin])
    game, events = game_of(board, **({"b": guesser} if cluer is A else {"a": guesser}), first=cluer)
    game.play_turn()
    assert game.over and game.won is False and "assassin" in game.reason
    assert isinstance(events[-1], DuetOver) and events[-1].won is False


def test_the_shared_assassin_loses_from_either_side_and_the_other_sides_assassin_can_be_an_agent():
    for cluer in Side:
        board = fixed_board()
        shared = cards(board, DUET_ASSASSIN, DUET_ASSASSIN)
        guesser = Scripted(touches=[shared])
        game, _ = game_of(board, **({"b": guesser} if cluer is A else {"a": guesser}), first=cluer)
        game.play_turn()
        assert game.won is False
    # B's assassin that is one of A's agents is found safely on A's clue.
    board = fixed_board()
    safe = cards(board, AGENT, DUET_ASSASSIN)[0]
    game, _ = game_of(board, b=Scripted(touches=[[safe, None]]))
    game.play_turn()
    assert not game.over and board.found[board.words.index(safe)]
    # Found, it is covered: nobody may touch it again, so B's assassin there is harmless.
    assert safe not in board.open_for(A) and safe not in board.open_for(B)


def test_each_turn_spends_a_token_and_time_running_out_loses():
    board = fixed_board()
    misses_a = cards(board, BYSTANDER, BYSTANDER)
    game, events = game_of(board, a=Scripted(touches=[[w] for w in misses_a]),
                           b=Scripted(touches=[[w] for w in misses_a]), tokens=4)
    game.play()
    assert game.won is False and game.tokens == 0 and game.turns_used == 4
    assert "time ran out" in game.reason and "0 of 15" in game.reason
    assert [e.tokens for e in events if isinstance(e, duet.DuetTurnStarted)] == [4, 3, 2, 1]


def test_all_fifteen_found_wins_even_on_the_last_token_and_a_cluer_with_none_left_stops_cluing():
    board = fixed_board()
    a_keys = cards(board, AGENT, AGENT) + cards(board, AGENT, BYSTANDER) + cards(board, AGENT,
                                                                                 DUET_ASSASSIN)
    b_only = cards(board, BYSTANDER, AGENT) + cards(board, DUET_ASSASSIN, AGENT)
    # Turn 1, A clues: B finds all 9 of A's agents; the turn ends by itself when A has none left.
    # Turn 2 would be A's again only if B had none left; B clues, A finds B's other 6 on the last token.
    game, events = game_of(board, a=Scripted(touches=[b_only]), b=Scripted(touches=[a_keys]), tokens=2)
    game.play_turn()
    assert board.agents_left(A) == 0 and game.tokens == 1 and game.cluer is B
    game.play_turn()
    assert game.won is True and board.agents_found() == 15 and "15 agents found in 2 turns" in game.reason
    # A partner with no agents left never clues: B clues twice in a row.
    board = fixed_board()
    game, events = game_of(board, b=Scripted(touches=[a_keys]),
                           a=Scripted(touches=[[b_only[0], None], [b_only[1], None]]), tokens=5)
    for _ in range(3):
        game.play_turn()
    cluers = [e.side for e in events if isinstance(e, duet.DuetTurnStarted)]
    assert cluers == [A, B, B]


def test_an_illegal_clue_or_a_closed_card_is_a_rule_error():
    board = fixed_board()
    game, _ = game_of(board, a=Scripted(clues=[Hint(WORDS[0], 1)]))
    with pytest.raises(RuleError, match="illegal clue"):
        game.play_turn()
    board = fixed_board()
    miss = cards(board, BYSTANDER, BYSTANDER)[0]
    game, _ = game_of(board, b=Scripted(touches=[[miss], [miss]]), a=Scripted(touches=[[miss]]))
    game.play_turn()
    game.play_turn()                              # B's clue: the card is still open for B
    game.cluer = A
    with pytest.raises(RuleError, match="not open"):
        game.play_turn()                          # A's clue again: B knows it is a bystander


# --- the AI partner and whole games, on the real SBERT weights ----------------------------------------


@pytest.fixture(scope="module")
def ai():
    from cli import add_ai_arguments, load_ai

    p = argparse.ArgumentParser()
    add_ai_arguments(p)
    return load_ai(p.parse_args(["--initializer", "sbert", "--captain", "cumsum"]), list(board_words()))


def test_an_ai_vs_ai_game_runs_to_the_end_by_the_rules(ai):
    game = play_ai_game(5, ai)
    assert game.over
    record = game.record()
    found = record["agents_found"]
    assert record["turns_used"] == len(record["turns"]) <= TIMER_TOKENS
    assert (game.won and found == 15) or (not game.won and ("assassin" in game.reason
                                                            or "time ran out" in game.reason))
    # Replay the record on a fresh board: every clue legal when given, every touch open and judged
    # by the clue giver's key, bystanders end turns, the turn order alternates.
    board = DuetBoard(record["board"], {s: [duet.Role(r) for r in record["keys"][s.value]] for s in Side})
    for number, turn in enumerate(record["turns"]):
        cluer = Side(turn["cluer"])
        assert hint_problem(turn["clue"][0], board.table_board()) is None
        assert turn["touched"], "every turn touches a card"
        for i, (word, role) in enumerate(turn["touched"]):
            assert word in board.open_for(cluer)
            assert board.reveal(word, cluer).value == role
            assert role == "agent" or i == len(turn["touched"]) - 1
        if number and board.agents_left(cluer.other):
            assert cluer is not Side(record["turns"][number - 1]["cluer"])
    assert board.agents_found() == found


def test_the_ai_partner_never_repeats_a_clue_and_clues_legally(ai):
    games = [play_ai_game(seed, ai) for seed in (1, 2)]
    for game in games:
        for side in Side:
            clues = [t.hint.word for t in game.history if t.side is side]
            assert len(clues) == len(set(clues))


def test_the_ai_checks_legality_against_words_marked_for_its_side_only(ai):
    # A card marked a bystander for A is still on the table: A's clue may not be that word's form.
    board = DuetBoard.random(list(board_words()), np.random.default_rng(11))
    game = DuetGame(board, {A: AIPartner(ai), B: AIPartner(ai)}, first=A, seed=0)
    for i in range(25):
        if board.keys[A][i] is BYSTANDER:
            board.missed[A][i] = True
    hint = game.players[A].give_hint(game).hint
    assert hint_problem(hint.word, board.table_board()) is None


def test_the_benchmark_reports_rates_and_each_seed(ai):
    result = benchmark([0, 1, 2], ai)
    again = benchmark([0, 1, 2], ai)
    assert result == again, "the benchmark must be reproducible"
    assert result["games"] == 3 and len(result["per_seed"]) == 3
    assert [g["seed"] for g in result["per_seed"]] == [0, 1, 2]
    wins = sum(g["won"] for g in result["per_seed"])
    assert result["wins"] == wins and result["success_rate"] == round(wins / 3, 3)
    assert result["mean_agents_found"] == round(np.mean([g["agents_found"] for g in result["per_seed"]]), 3)
    assert result["mean_turns_used"] == round(np.mean([g["turns_used"] for g in result["per_seed"]]), 3)
    assert result["losses_assassin"] + result["losses_time"] + wins == 3
    for g in result["per_seed"]:
        assert 1 <= g["turns_used"] <= TIMER_TOKENS and 0 <= g["agents_found"] <= 15
        assert g["won"] == (g["agents_found"] == 15)


# --- the console ----------------------------------------------------------------------------------------


class Typed:
    def __init__(self, lines):
        self.lines, self.told = list(lines), []

    def ask(self, prompt):
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)

    def tell(self, message):
        self.told.append(message)

    def help(self, message):
        self.told.append(message)


def test_a_human_partner_is_refused_illegal_clues_and_closed_cards(ai):
    board = fixed_board()
    view = DuetView(Renderer(io.StringIO(), color=False), {A: "you", B: "the AI"})
    typed = Typed(["help", f"{WORDS[0]} 2", "sea", "ocean 2"])
    human = HumanPartner(typed, view, A)
    game = DuetGame(board, {A: human, B: AIPartner(ai)}, first=A, seed=0)
    assert human.give_hint(game).hint == Hint("ocean", 2)
    told = "\n".join(typed.told)
    assert "That clue is not allowed" in told and "one word and a count" in told
    assert re.search(r"\((G|A|-)[ x]\) APPLE", told), "the human sees their own key"

    miss = next(w for w in cards(board, BYSTANDER, BYSTANDER) if w != "chair")
    board.missed[B][board.words.index(miss)] = True
    game.cluer = B
    typed = Typed(["stop", miss, "chiar", "chair"])
    human = HumanPartner(typed, view, A)
    assert human.guess(game, Hint("seat", 1), 0) == "chair"
    told = "\n".join(typed.told)
    assert "Make at least one guess" in told and "known to be a bystander" in told
    assert "Did you mean CHAIR?" in told
    with pytest.raises(QuitGame):
        HumanPartner(Typed(["quit"]), view, A).guess(game, Hint("seat", 1), 1)


def test_a_card_the_partner_tried_on_your_clue_is_marked_in_your_view():
    # Issue 69: your bystander that your partner touched looked unchanged from your side.
    board = fixed_board()
    view = DuetView(Renderer(io.StringIO(), color=False), {A: "you", B: "the AI"})
    tried, theirs = cards(board, BYSTANDER, BYSTANDER)[:2]
    before = view.board(board, A)
    assert board.reveal(tried, A) is BYSTANDER   # B touched it on A's clue: a bystander on A's key
    assert board.reveal(theirs, B) is BYSTANDER   # A touched it on B's clue
    mine = view.board(board, A)
    assert f"(- ) {tried.upper()}" in before and f"(o ) {tried.upper()}" in mine
    assert f"(-x) {theirs.upper()}" in mine and f"(o ) {theirs.upper()}" in view.board(board, B)
    assert "o: your bystander, which your partner already tried on your clue" in LEGEND


def narrated(labels: dict) -> str:
    """What the view says of one scripted turn each way (A clues, B touches and stops; then B
    clues and A touches) and of the end."""
    board = fixed_board()
    out = io.StringIO()
    view = DuetView(Renderer(out, color=False), labels)
    game, _ = game_of(board, a=Scripted(touches=[[cards(board, BYSTANDER, AGENT)[0], None]]),
                      b=Scripted(touches=[[cards(board, AGENT, BYSTANDER)[0], None]]))
    game.listeners.append(view.on_event)
    game.play_turn()
    game.play_turn()
    view.on_event(DuetOver(True, "all 15 agents found", game.tokens, game.board))
    return out.getvalue()


def test_a_person_is_addressed_as_you_and_the_verbs_agree():
    text = narrated({A: "you", B: "the AI"})
    assert "turn 1: you give the clue" in text and "turn 2: the AI gives the clue" in text
    assert "\nThe AI touches " in text and "\nThe AI stops." in text and "\nYou touch " in text
    assert not re.search(r"\byou (gives|touches|stops)\b", text, re.IGNORECASE)
    assert "*** You win: all 15 agents found. ***" in text


def test_without_a_person_the_ais_win_not_you():
    text = narrated({A: "AI A", B: "AI B"})
    assert "*** AI A and AI B win: all 15 agents found. ***" in text and "You" not in text
    assert "turn 1: AI A gives the clue" in text and "\nAI B touches " in text


@pytest.mark.parametrize("seed", ["-1", "1.5", "x"])
def test_the_duet_command_takes_the_games_seeds_only(capsys, seed):
    with pytest.raises(SystemExit) as leaving:
        duet.COMMAND.main(["--players", "ai:ai", "--seed", seed, "--initializer", "sbert"])
    assert leaving.value.code == 2
    assert "a seed is a whole number, 0 or more" in capsys.readouterr().err


def test_the_duet_command_plays_ai_vs_ai_unattended(monkeypatch):
    out = io.StringIO()
    code = duet.COMMAND.main(["--players", "ai:ai", "--seed", "3", "--initializer", "sbert",
                              "--captain", "cumsum"], stream=out)
    text = out.getvalue()
    assert code == 0
    assert re.search(r"\*\*\* AI A and AI B (win|lose): .+\. \*\*\*", text)
    assert "--- turn 1:" in text and "timer tokens left" in text
    assert re.search(r"^AI [AB]: \S+ \d", text, re.MULTILINE)


def test_the_duet_command_with_a_human_ends_cleanly_on_eof(monkeypatch):
    out = io.StringIO()
    monkeypatch.setattr("sys.stdin", io.StringIO("nonsense words here\n"))
    monkeypatch.setattr("sys.stdout", out)
    code = duet.COMMAND.main(["--seed", "4", "--initializer", "sbert", "--captain", "cumsum"], stream=out)
    assert code == 0 and "Game abandoned" in out.getvalue()
    assert "G: your agent" in out.getvalue()


def test_the_duet_command_takes_hostile_bytes_without_a_traceback():
    typed = b"\xff\xfe\n\x00\x1b[2J\n" + b"z" * 5000 + b"\nhelp\nboard\n"
    done = subprocess.run([sys.executable, "main.py", "duet", "--seed", "6", "--initializer", "sbert",
                           "--captain", "cumsum"], cwd=ROOT, input=typed, capture_output=True, timeout=300)
    assert done.returncode == 0 and b"Traceback" not in done.stderr
    assert b"Game abandoned." in done.stdout
