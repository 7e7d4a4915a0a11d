"""Words fit for the table: no captain, strategy or level gives an offensive, vulgar or distressing
hint; a person still may."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import dealt_board

from board import RED, Board
from common import board_words, hint_words, lemmas
from engine import Game, Team
from lab.evaluation.games import TEST_OFFSET
from model import AI, CAPTAINS, LEVELS, Weights, hint_filter, hint_problem
from models.table import fit_for_table, profanity_words, unfit_words
from players import AIAgent, AICaptain


def unfit(word: str) -> bool:
    """The list's own verdict, without `fit_for_table`: the word or a lemma of it is listed."""
    return bool(lemmas(word) & unfit_words())


def test_the_list_is_better_profanitys_with_everyday_words_let_through_and_the_missed_ones_added():
    assert {"shit", "incest", "anus", "whore"} <= profanity_words()
    assert {"pot", "organ", "pawn", "screw"} <= profanity_words()         # flagged for a slang sense
    assert not unfit_words() & {"pot", "organ", "pawn", "screw", "weed"}  # ...let through
    assert {"saliva", "wretched", "suicide", "cocaine"} <= unfit_words() - profanity_words()
    for word in ("incest", "anus", "saliva", "wretched", "farts", "killing", "suicides"):
        assert not fit_for_table(word), word
    for word in ("ocean", "pot", "organ", "class", "assassin", "breast", "death", "bomb"):
        assert fit_for_table(word), word


# The captain's hints on held-out boards that issue 45 found unfit, and what the criteria at the top
# of data/table_unfit_en.txt say of other words: a sample of each, everyday words beside them.
GIVEN_ON_HELD_OUT_BOARDS = ("racist", "terror", "insane", "crazy", "violent", "indigenous")
UNFIT_BY_CRITERION = {
    "hate and identity": ("racism", "racists", "sexist", "bigot", "ethnic", "tribe", "tribal",
                          "aboriginal", "immigrant", "refugee", "homeless"),
    "slurs about minds and bodies": ("lunatic", "maniac", "madman", "dumb", "insanity", "moron",
                                     "cripple", "autism"),
    "violence and terror": ("terrorism", "violence", "massacre", "atrocity", "bombing", "gunman",
                            "strangle", "assassination", "torture", "killing"),
    "crime and abuse": ("abuse", "kidnap", "kidnapping", "hostage", "harassment", "stalker"),
    "drugs": ("cocaine", "heroin", "marijuana", "overdose", "stoner", "dope"),
    "death and gore": ("gore", "suicide", "miscarriage"),
    "illness": ("cancer", "dementia"),
    "sex and bodily fluids": ("pervert", "hookup", "saliva", "incest"),
}
FIT_BY_CRITERION = {
    "everyday words": ("bank", "ocean", "class", "fire", "crack", "coke", "drug", "pot", "organ", "race"),
    "weapons, war and the fights of stories": ("gun", "knife", "sword", "bomb", "missile", "war", "battle",
                                               "shot", "shooting", "stab", "assassin", "army"),
    "crimes of detective stories": ("theft", "robbery", "prison", "poison", "mafia", "fraud", "thief"),
    "death as a fact of stories": ("death", "dead", "grave", "coffin", "corpse", "skull", "ghost", "funeral"),
    "drinks and medicine": ("rum", "vodka", "beer", "wine", "tobacco", "medicine", "pill"),
    "not names of people by who they are": ("native", "church", "pope", "catholic", "prejudice",
                                            "discrimination", "black", "white"),
    "not slurs": ("mad", "nuts", "silly", "fool", "lame", "blind", "deaf", "mental", "breast", "spit"),
    "illness that is not a family's fear": ("plague", "flu", "fever"),
}


def test_the_words_the_captain_gave_on_held_out_boards_and_their_like_are_refused():
    for word in GIVEN_ON_HELD_OUT_BOARDS:
        assert word in hint_words() and not fit_for_table(word), word
        assert not profanity_words() & lemmas(word), word     # better-profanity alone missed them
    for criterion, words in UNFIT_BY_CRITERION.items():
        assert not [w for w in words if fit_for_table(w)], criterion


def test_everyday_words_stay_fit_as_the_criteria_say():
    for criterion, words in FIT_BY_CRITERION.items():
        assert [w for w in words if fit_for_table(w)] == list(words), criterion
    vocabulary = hint_words()
    assert sum(fit_for_table(h) for h in vocabulary) > 0.97 * len(vocabulary)   # still rich


def test_a_person_may_still_give_an_unfit_hint():
    board = dealt_board(1)
    assert hint_problem("saliva", board) is None
    assert hint_problem("shit", board) is None


def test_no_legal_hint_on_the_bench_boards_is_unfit():
    """What any captain gives on a board is drawn from its legal mask: with no unfit word in the
    mask on 400 bench boards (10,000 cards), no hint drawn from them can be unfit."""
    hints = hint_words()
    listed = np.array([unfit(h) for h in hints])
    assert listed.sum() > 100                              # the vocabulary holds such words
    assert listed[[hints.index(w) for w in GIVEN_ON_HELD_OUT_BOARDS]].all()
    words = board_words()
    legal_unfit = set()
    for seed in range(TEST_OFFSET, TEST_OFFSET + 400):
        mask = hint_filter(hints).legal(dealt_board(seed))
        legal_unfit |= {hints[i] for i in np.flatnonzero(mask & listed)}
    assert not legal_unfit, sorted(legal_unfit)[:20]
    assert len(words) > 400


def tempting(board_seed: int) -> tuple[Weights, object]:
    """Weights over the real hint vocabulary in which every unfit hint points at the red cards
    alone, strongly, and every other hint weakly and at random: the best hints are the unfit ones."""
    board = dealt_board(board_seed)
    hints = hint_words()
    rng = np.random.default_rng(board_seed)
    matrix = rng.uniform(0.0, 0.4, size=(len(hints), len(board.words))).astype(np.float32)
    red = np.array([c.color is RED for c in board.cards])
    bad = np.array([unfit(h) for h in hints])
    matrix[np.ix_(bad, red)] = rng.uniform(0.85, 0.95, size=(bad.sum(), red.sum()))
    matrix[np.ix_(bad, ~red)] = 0.0
    return Weights("tempting", hints, tuple(board.words), matrix), board


@pytest.mark.parametrize("strategy", sorted(CAPTAINS))
def test_no_captain_at_any_level_gives_an_unfit_hint_even_when_it_is_the_best(strategy):
    for seed in range(TEST_OFFSET, TEST_OFFSET + 3):
        weights, board = tempting(seed)
        ai = AI(weights, captain_strategy=strategy)
        captains = [ai.captain(), ai.captain(twin=True), ai.captain(alone=True),
                    *(ai.captain(twin=True, level=level) for level in LEVELS.values())]
        for captain in captains:
            given = []
            for _ in range(3):       # and the next best, and the next
                choice = captain.give_hint(board, RED, given)
                assert not unfit(choice.hint.word), (strategy, choice.hint)
                given.append(choice.hint.word)


def test_a_whole_game_of_ai_hints_holds_no_unfit_word():
    weights, board = tempting(TEST_OFFSET + 7)
    ai = AI(weights)
    teams = {color: Team(color, AICaptain(ai.captain(twin=True)), AIAgent(ai.agent()))
             for color in (RED, RED.other)}
    game = Game(board, teams, seed=0)
    game.play()
    hints = [turn.hint.word for turn in game.history if turn.hint is not None]
    assert hints and not [h for h in hints if unfit(h)]


@pytest.mark.slow
def test_ten_thousand_real_hints_on_the_bench_boards_hold_no_unfit_word():
    """The AI as it plays (SBERT, the game's captain for a person, the default captain for its twin
    and the reference one): 10,000 hints drawn on bench boards, each board played down by the
    captain's own targets, hint after hint; none is unfit, none is one issue 45 found."""
    import datasets

    weights = datasets.load_weights("sbert", words=board_words())
    ai = AI(weights)
    drawn: list[str] = []
    seed = TEST_OFFSET
    reference = AI(weights, captain_strategy="cumsum")
    while len(drawn) < 10_000:
        board = dealt_board(seed)
        for captain in (ai.captain(), ai.captain(twin=True), reference.captain()):
            team, given = board.starting_team, []
            play = Board.from_key(board.words, board.key)
            while play.remaining(team) and len(given) < 12:
                choice = captain.give_hint(play, team, given)
                given.append(choice.hint.word)
                for word in choice.targets:
                    play.reveal(word, team)
            drawn += given
        seed += 1
    assert not [h for h in drawn if unfit(h)] and not set(drawn) & set(GIVEN_ON_HELD_OUT_BOARDS)
