"""The game's levels: a level changes how the opponent plays and, at easy, how your own AI captain
does, never the words either may use; the levels' measurement against a model of people plays real
games."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import ROOT, dealt_board

import main
import session
from board import ASSASSIN, NEUTRAL, RED, Board
from common import board_words, hint_words
from lab import bench
from lab.evaluation.games import TEST_OFFSET
from lab.evaluation.human_models import FittedGuesser, StrangerFeatures
from lab.evaluation.levels import AUTO, SEATS, TARGETS, levels_markdown, run_levels
from lab.foreign.vectors import Vectors, unit
from model import AI, LEVELS, Hint, Weights, zipf
from players import Composition, make_team
from renderer import ConsoleTerminal, Renderer


def banded(board_seed: int) -> tuple[Weights, object, np.ndarray]:
    """Weights over the real hint vocabulary in which the rare hints (Zipf below 4, which the AI
    never gives) point at the red cards alone most strongly, the hints just above the floor
    (Zipf 4 to 4.3) next, every other hint weakly: any level that moved the floor either way
    would give a hint outside the band."""
    board = dealt_board(board_seed)
    hints = hint_words()
    frequency = zipf(hints)
    rare, band = (frequency > 0) & (frequency < 4), (frequency >= 4) & (frequency < 4.3)
    rng = np.random.default_rng(board_seed)
    matrix = rng.uniform(0.0, 0.3, size=(len(hints), len(board.words))).astype(np.float32)
    red = np.array([c.color is RED for c in board.cards])
    for chosen, low in ((rare, 0.9), (band, 0.75)):
        matrix[np.ix_(chosen, red)] = rng.uniform(low, low + 0.05, size=(chosen.sum(), red.sum()))
        matrix[np.ix_(chosen, ~red)] = 0.0
    return Weights("banded", hints, tuple(board.words), matrix), board, band


def test_every_level_gives_its_hints_from_the_same_words():
    weights, board, band = banded(TEST_OFFSET + 3)
    allowed = {h for h, b in zip(weights.hints, band, strict=True) if b}
    ai = AI(weights)
    for level in LEVELS.values():
        captain, given = ai.captain(twin=True, level=level), []
        for _ in range(3):
            choice = captain.give_hint(board, RED, given)
            assert choice.hint.word in allowed, (level.name, choice.hint)
            given.append(choice.hint.word)


def ranked(board: Board, team, first) -> tuple[AI, list[str]]:
    """An AI whose one hint, OCEAN, weighs the face-down cards from 1 down to 0: first one card of
    each colour in `first`, in that order, then the rest; and that order."""
    order = board.unrevealed_words()
    for i, colour in enumerate(first):
        order.insert(i, order.pop(order.index(next(
            w for w in order[i:] if board.card(w).color is colour))))
    weights = Weights("sharp", ("ocean",), tuple(order),
                      np.linspace(1.0, 0.0, len(order), dtype=np.float32)[None, :])
    return AI(weights), order


def picks(ai: AI, level, board: Board, team, n: int = 400) -> list[str]:
    rng = np.random.default_rng(0)
    return [ai.agent(level).guess(board, Hint("ocean", 1), 0, rng, team=team) for _ in range(n)]


def test_an_easier_level_misreads_more_often():
    board = dealt_board(TEST_OFFSET)
    team = board.starting_team
    ai, order = ranked(board, team, [team])
    shares = [np.mean([p == order[0] for p in picks(ai, LEVELS[name], board, team)])
              for name in ("easy", "normal", "hard")]
    assert shares[0] < shares[1] < shares[2] < 1.0, shares
    for share, name in zip(shares, ("easy", "normal", "hard"), strict=True):
        assert abs((1 - share) - LEVELS[name].misread) < 0.06, (name, share)


def test_a_misread_falls_on_the_card_the_hint_brings_to_mind_most_never_the_assassin():
    # The assassin is the hint's second card, a bystander its third: a person who misreads OCEAN
    # takes the assassin, the level's agent the bystander. A PUSH 1 for BUTTON once took SCHOOL,
    # the assassin, and handed a person a win they did not earn.
    board = dealt_board(TEST_OFFSET)
    team = board.starting_team
    ai, order = ranked(board, team, [team, ASSASSIN, NEUTRAL])
    for level in LEVELS.values():
        assert set(picks(ai, level, board, team)) == {order[0], order[2]}, level.name
    for card in board.cards:
        if card.color is NEUTRAL:   # bystanders gone: it misreads onto the other team's card
            board.reveal(card.word, team.other)
    ai, order = ranked(board, team, [team, ASSASSIN, team.other])
    assert board.card(order[2]).color is team.other
    assert set(picks(ai, LEVELS["easy"], board, team)) == {order[0], order[2]}


def your_hints(ai: AI, level: str, boards: range, hints_a_board: int = 4) -> list[tuple]:
    """The hints the AI captain of a person's team (players.make_team's `ai:human`) gives at `level`,
    each board played down by its targets: (hint, the model of people's chances of the face-down
    cards, the target's index among them)."""
    given = []
    for seed in boards:
        board = dealt_board(seed)
        ai.weights.add_words(board.words)
        team = make_team(board.starting_team, Composition.parse("ai:human"), ai,
                         ConsoleTerminal(Renderer()), level)
        play, said = Board.from_key(board.words, board.key), []
        for _ in range(hints_a_board):
            choice = team.captain.model.give_hint(play, team.color, said)
            words = play.unrevealed_words()
            reader = ai.people_agent()
            chances = reader.chances(reader.weights.hint_row(choice.hint.word, words))
            given.append((choice.hint, chances, words.index(choice.targets[0])))
            said.append(choice.hint.word)
            for word in choice.targets:
                play.reveal(word, team.color)
    return given


@pytest.fixture(scope="module")
def embedded_ai() -> AI:
    """The AI as a fresh clone plays it: SBERT alone, the model of people on it."""
    import datasets

    return AI(datasets.load_weights("sbert", words=board_words()))


def test_at_easy_your_own_ai_captain_gives_one_clear_card_at_a_time(embedded_ai):
    boards = range(TEST_OFFSET, TEST_OFFSET + 6)
    easy = your_hints(embedded_ai, "easy", boards)
    assert len(easy) == 24 and {hint.count for hint, _, _ in easy} == {1}, [h for h, _, _ in easy]
    for hint, chances, target in easy:   # the card people pick first, likelier than all others together
        assert chances.argmax() == target and chances[target] > 0.5, (hint, chances.max(), chances[target])
    # At normal your captain plays whole: on these boards and as many more it asks for more cards at times.
    more = range(TEST_OFFSET, TEST_OFFSET + 12)
    assert max(hint.count for hint, _, _ in your_hints(embedded_ai, "normal", more)) >= 2


def test_the_level_help_says_what_each_level_changes_for_your_side_and_for_the_opponent(monkeypatch, capsys):
    lines = [level.help() for level in LEVELS.values()]
    for level, line in zip(LEVELS.values(), lines, strict=True):
        assert line == f"{level.name}: your AI captain {level.yours}; the opponent {level.theirs}"
    assert LEVELS["easy"].yours != LEVELS["normal"].yours       # easy changes your side too
    assert len({level.theirs for level in LEVELS.values()}) == len(LEVELS)
    flat = " ".join(main.parser().format_help().split())       # --help
    assert all(line in flat for line in lines), flat
    replies = iter(["help", "easy"])                           # the prompt's help
    monkeypatch.setattr(session, "ask_line", lambda question: next(replies))
    assert session.ask_level() == "easy"
    out = capsys.readouterr().out
    assert all(line in out for line in lines), out
    readme = (ROOT / "README.md").read_text()                  # the README's Levels table
    for level in LEVELS.values():
        row = next(line for line in readme.splitlines() if line.startswith(f"| {level.name} |"))
        assert level.yours in row and level.theirs in row, row


class Hashed(Vectors):
    """Random unit vectors, the same for a word every time: a stand-in for GloVe."""

    def embed(self, words):
        rows = [np.random.default_rng([7, *map(ord, w)]).normal(size=16) for w in words]
        return unit(np.array(rows).reshape(-1, 16)), np.ones(len(words), dtype=bool)


@pytest.fixture
def small_ai():
    """The AI on a random matrix over 1,500 spoken hints and 60 card words, and a sampling
    guesser with made-up coefficients on hashed vectors (the bench fits one to people)."""
    hints = [h for h, z in zip(hint_words(), zipf(hint_words()), strict=True) if z >= 4][:1500]
    words = board_words()[:60]
    matrix = np.random.default_rng(3).random((len(hints), len(words))) ** 3
    features = StrangerFeatures(Hashed())
    coefficients = np.array([4.0, 0.5, 0.0, 0.0, 0.1], dtype=np.float32)
    assert len(coefficients) == len(features.names)
    ai = AI(Weights("small", tuple(hints), tuple(words), matrix.astype(np.float32)))
    return ai, words, FittedGuesser("hashed", features, coefficients, sample=True)


def test_the_levels_measurement_plays_each_level_and_the_auto_team_in_both_seats(small_ai):
    ai, words, guesser = small_ai
    rows = run_levels([TEST_OFFSET, TEST_OFFSET + 1], words, ai, LEVELS, guesser)
    assert [r["opponent"] for r in rows] == [*LEVELS, AUTO]
    for row in rows:
        assert row["target"] == TARGETS[row["opponent"]]
        for seat in SEATS:
            assert row[seat]["games"] == 4 and row[seat]["errors"] == 0      # a game each side, 2 boards
            assert 0.0 <= row[seat]["win_rate"].value <= 1.0
            assert row[seat]["win_rate"].low <= row[seat]["win_rate"].value <= row[seat]["win_rate"].high
    assert ("hints_to_win" in rows[0]) and ("hints_to_win" not in rows[-1])
    text = levels_markdown(rows, "python main.py bench --levels --seeds 2")
    assert "`python main.py bench --levels --seeds 2`" in text
    assert "| auto | turns over one of its own cards a turn |" in text and "85% or more" in text
    assert "the opponent's |" in text     # its assassin losses beside the person's side's


def test_the_levels_need_the_human_record(tmp_path, capsys):
    assert bench.COMMAND.main(["--levels", "--seeds", "1", "--sources", str(tmp_path)]) == 2
    assert "needs the human Duet record" in capsys.readouterr().err
