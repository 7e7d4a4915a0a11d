"""Captain and agent strategies on hand-made matrices whose best answer is known."""

from dataclasses import replace

import numpy as np
import pytest
from helpers import FakeTerminal

from board import ASSASSIN, BLUE, NEUTRAL, RED, Board
from engine import AutoTeam, Game
from model import (
    AGENTS,
    AI,
    CAPTAINS,
    WIDEN_DENSE,
    WIDEN_SPARSE,
    Agent,
    ExpectedCaptain,
    GreedyAgent,
    Hint,
    HintChoice,
    Sight,
    Situation,
    ThresholdAgent,
    Weights,
    pick_chances,
)
from players import Composition, make_team

# A small table: red owns five cards, two themes; the assassin SHARK sits near the sea theme.
WORDS = ["whale", "ship", "beach", "apple", "pear", "piano", "cloud", "shark"]
KEY = [RED, RED, RED, RED, RED, BLUE, NEUTRAL, ASSASSIN]
HINTS = ("ocean", "fruit", "music", "weather", "noise")
MATRIX = np.array([
    #  whale ship beach apple pear piano cloud shark
    [0.90, 0.85, 0.80, 0.05, 0.05, 0.05, 0.10, 0.79],   # ocean: three own, but the assassin is close
    [0.05, 0.05, 0.05, 0.90, 0.88, 0.05, 0.05, 0.05],   # fruit: two own, nothing else near
    [0.05, 0.10, 0.05, 0.05, 0.05, 0.95, 0.05, 0.05],   # music: the opponent's card
    [0.10, 0.10, 0.20, 0.05, 0.05, 0.05, 0.90, 0.10],   # weather: the neutral card
    [0.10, 0.10, 0.10, 0.10, 0.10, 0.10, 0.10, 0.10],   # noise: points nowhere
], dtype=np.float32)


def weights(matrix=MATRIX, hints=HINTS, words=WORDS, extender=None) -> Weights:
    return Weights("hand-made", tuple(hints), tuple(words), matrix.copy(), extender)


def board(revealed=None) -> Board:
    return Board.from_key(WORDS, KEY, revealed)


def captain(name: str, w: Weights):
    """A captain that does not know its agent (the expected one checks its hints against `w`)."""
    return AI(w, name).captain()


@pytest.mark.parametrize("name", sorted(CAPTAINS))
def test_a_safe_hint_for_two_beats_three_beside_the_assassin(name):
    choice = captain(name, weights()).give_hint(board(), RED)
    assert choice.hint == Hint("fruit", 2)
    assert set(choice.targets) == {"apple", "pear"}


@pytest.mark.parametrize("name", sorted(CAPTAINS))
def test_without_the_assassin_nearby_the_captain_links_three(name):
    matrix = MATRIX.copy()
    matrix[0, 7] = 0.05                       # SHARK no longer answers to "ocean"
    played = captain(name, weights(matrix))
    choice = played.give_hint(board(), RED)
    if played.max_count < 3:   # the captain that plans for a person asks for two cards at most
        assert choice.hint == Hint("ocean", 2) and set(choice.targets) < {"whale", "ship", "beach"}
        return
    assert choice.hint == Hint("ocean", 3)
    assert set(choice.targets) == {"whale", "ship", "beach"}


@pytest.mark.parametrize("name", sorted(CAPTAINS))
def test_captains_never_repeat_a_hint(name):
    choice = captain(name, weights()).give_hint(board(), RED, given=["fruit"])
    assert choice.hint.word != "fruit"


@pytest.mark.parametrize("name", sorted(CAPTAINS))
def test_captains_play_for_the_blue_team_too(name):
    # For blue, PIANO is its own card and "music" the only hint that points at it alone.
    choice = captain(name, weights()).give_hint(board(), BLUE)
    assert choice.hint == Hint("music", 1)


def test_explanation_names_the_most_dangerous_card_and_runners_up():
    choice = CAPTAINS["margin"](weights()).give_hint(board(), RED)
    assert choice.hint.word == "fruit"
    assert choice.danger[0] in {"piano", "cloud", "shark"} and choice.danger[1] == pytest.approx(0.05)
    assert [word for word, _, _ in choice.runners_up] == ["ocean"]   # the only other scoring hint


def test_expected_captain_is_bolder_when_behind():
    captain = ExpectedCaptain(weights())
    behind = Board.from_key(WORDS, KEY)
    assert captain.risk(behind, RED) < 1.0 or captain.risk(behind, BLUE) < 1.0
    # Red has 5 left and blue 1: blue is ahead, red must dare.
    assert captain.risk(behind, RED) < captain.risk(behind, BLUE)


def test_expected_captain_keeps_hints_that_work_for_every_partner():
    # A partner who reads "fruit" as pointing at the assassin vetoes it.
    partner_matrix = MATRIX.copy()
    partner_matrix[1, 7] = 0.95
    partner = weights(partner_matrix)
    alone = ExpectedCaptain(weights(), partners=[weights()]).give_hint(board(), RED)
    robust = ExpectedCaptain(weights(), partners=[weights(), partner]).give_hint(board(), RED)
    assert alone.hint.word == "fruit"
    assert robust.hint.word != "fruit"


def test_expected_captain_also_simulates_the_hints_its_partners_like_best():
    # Its own matrix barely links FRUIT to the pears and apples, and sees no assassin near
    # "ocean"; its partner reads "ocean" close to SHARK and "fruit" as the clear hint.
    own_matrix = MATRIX.copy()
    own_matrix[0, 7] = 0.05
    own_matrix[1, 3:5] = 0.3
    own, partner = weights(own_matrix), family("sbert")   # two families: two voices
    situation = Situation.of(own, board(), RED)
    fruit, ocean = HINTS.index("fruit"), HINTS.index("ocean")

    captain = ExpectedCaptain(own, partners=[own, partner], candidates=1)
    views = [own.board_matrix(situation.words), partner.board_matrix(situation.words)]
    assert captain.shortlist(situation, board()).tolist() == [ocean]
    assert captain.shortlist(situation, board(), views=views).tolist() == [fruit]

    def hint(widen_below: float) -> Hint:
        return ExpectedCaptain(own, partners=[own, partner], candidates=1,
                               widen_below=widen_below).give_hint(board(), RED).hint

    # "ocean" 2 is worth 1.92 cards (the partner may read SHARK before a second target): a
    # captain that wants 2 looks wider and finds "fruit" 2; one content with 1 keeps "ocean".
    assert hint(widen_below=2.0) == Hint("fruit", 2)
    assert hint(widen_below=1.0).word == "ocean"
    assert hint(widen_below=-np.inf).word == "ocean"


def agent_chances(row: np.ndarray, temperature: float = 0.02) -> np.ndarray:
    """Each card's chance to be a softmax agent's first pick, worked out by hand for the tests."""
    return np.exp(row / temperature) / np.exp(row / temperature).sum()


def test_the_captain_prices_a_rare_assassin_at_its_chance_not_at_its_count_in_the_samples():
    # "weather": CLOUD (neutral) first, SHARK 0.08 behind it, every own card far below. The
    # agent turns over SHARK first with a softmax chance of 1.8%, which 4 samples would show
    # as 0 or 1 in 4; the captain prices it exactly, and each count's value as a softmax does.
    matrix = MATRIX.copy()
    matrix[3] = [0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.90, 0.82]
    situation = Situation.of(weights(matrix), board(), RED)
    chances = agent_chances(matrix[3])
    weather = np.array([HINTS.index("weather")])
    for samples in (4, 20_000):
        captain = ExpectedCaptain(weights(matrix), partners=[weights(matrix), weights(matrix)],
                                  temperature=0.02, samples=samples)
        value, assassin, _ = captain.expected(situation, weights(matrix), weather, risk=1.0)
        assert assassin[0, 0] == pytest.approx(chances[7], rel=1e-3)     # 1 / (1 + e⁴)
        neutral_first = chances[6] * captain.settings.neutral_cost
        assert value[0, 0] == pytest.approx(chances[:5].sum() - neutral_first, abs=1e-3)
    # Where the samples do matter, when the turn ends, they converge on the same chances.
    value, assassin, _ = captain.expected(situation, weights(), np.array([HINTS.index("ocean")]), 1.0)
    ocean = agent_chances(MATRIX[0])
    assert assassin[0, 0] == pytest.approx(ocean[7], abs=0.01)


def test_a_captain_alone_pays_only_for_the_cards_that_lose():
    # Alone (single-team mode) no one races the team and a miss ends the turn as a hit would:
    # the neutral CLOUD that "weather" points at costs nothing, nor does the score make the
    # captain dare more or less.
    w, behind = weights(), board()          # red has five cards left, blue only PIANO
    alone, racing = ExpectedCaptain(w, alone=True), ExpectedCaptain(w)
    assert alone.risk(behind, RED) == 1.0 and racing.risk(behind, RED) != 1.0
    situation = Situation.of(w, behind, RED)
    weather = np.array([HINTS.index("weather")])
    chances = agent_chances(MATRIX[3])
    value, _, _ = alone.expected(situation, w, weather, risk=1.0)
    assert value[0, 0] == pytest.approx(chances[:5].sum(), abs=1e-3)
    assert racing.expected(situation, w, weather, risk=1.0)[0][0, 0] < value[0, 0] - 0.2


@pytest.mark.parametrize("alone", [True, False])
def test_the_opponents_last_card_loses_like_the_assassin(alone):
    # Blue has only PIANO left: turning it over wins the game for blue, alone or not.
    w = weights()
    captain, music = ExpectedCaptain(w, alone=alone), np.array([HINTS.index("music")])
    value, losing, _ = captain.expected(Situation.of(w, board(), RED), w, music, risk=1.0)
    assert losing[0, 0] > 0.99
    # It is priced once, as a loss, not also as a miss on an opponent's card.
    assert value[0, 0] == pytest.approx(0.0, abs=0.01)
    # Red has five cards left: for blue, only the assassin loses.
    assert list(captain.losing(Situation.of(w, board(), BLUE))) == [c is ASSASSIN for c in KEY]


def test_in_the_endgame_the_assassin_costs_more():
    # "ocean" reads SHARK right behind its own cards. With three own cards left (WHALE, SHIP,
    # BEACH) the assassin costs `assassin_cost`; with two (BEACH found), `endgame_assassin_cost`,
    # for a team alone: racing, care costs turns that the opponent uses.
    w, ocean = weights(), HINTS.index("ocean")

    def price_in_the_table(b: Board) -> float:
        """The assassin's price that "ocean" for one card pays in the captain's table."""
        situation = Situation.of(w, b, RED)
        plain = ExpectedCaptain(w, partners=[w, w], alone=True, endgame_assassin_cost=8.0)
        dearer = ExpectedCaptain(w, partners=[w, w], alone=True)
        _, fatal, _ = plain.expected(situation, w, np.array([ocean]), risk=1.0)
        cut = plain.score(situation, b)[ocean, 0] - dearer.score(situation, b)[ocean, 0]
        return 8.0 + cut / fatal[0, 0]

    b = board()
    for word in ("apple", "pear"):
        b.reveal(word, RED)
    assert price_in_the_table(b) == pytest.approx(8.0)
    b.reveal("beach", RED)
    assert price_in_the_table(b) == pytest.approx(12.0)
    racing = ExpectedCaptain(w, partners=[w, w])
    assert racing.assassin_price(Situation.of(w, b, RED)) == 8.0


def test_a_captain_whose_matrix_knows_every_hint_widens_later():
    dense = weights()
    silent_matrix = MATRIX.copy()
    silent_matrix[HINTS.index("noise")] = 0.0              # a norm that never heard "noise"
    sparse = weights(silent_matrix)
    assert dense.knows_every_hint and not sparse.knows_every_hint
    partner = weights()
    assert ExpectedCaptain(dense, partners=[dense, partner]).widen_below == WIDEN_DENSE
    assert ExpectedCaptain(sparse, partners=[sparse, partner]).widen_below == WIDEN_SPARSE
    assert WIDEN_DENSE < WIDEN_SPARSE
    assert ExpectedCaptain(dense, partners=[dense, partner], widen_below=0.5).widen_below == 0.5


def test_a_surprise_weakens_a_partner_without_silencing_it():
    captain = ExpectedCaptain(weights(), partners=[weights(), weights()], slip=0.1)
    for _ in range(3):
        captain.observe("fruit", WORDS, ["cloud"])    # no reading puts CLOUD first
    assert np.allclose(captain.belief(), 0.5)
    one = ExpectedCaptain(weights(), partners=[weights()])
    one.observe("fruit", WORDS, ["cloud"])
    assert one.belief().tolist() == [1.0]


def test_pick_chances_follow_a_softmax_without_putting_back():
    logits = np.log(np.array([[1.0, 1.0, 2.0], [1.0, 3.0, 1.0]]))
    assert np.allclose(pick_chances(logits, [2, 0]), [[2 / 4, 1 / 5], [1 / 2, 1 / 4]])


def test_the_captain_learns_how_noisy_its_agent_is():
    def after(guesses):
        captain = ExpectedCaptain(weights(), partners=[weights(), weights()], temperature=0.02)
        for _ in range(2):
            captain.observe("ocean", WORDS, guesses)
        return captain.temperature

    assert after(["whale", "ship", "beach"]) == 0.02      # as every reading ranks them
    assert after(["beach", "ship"]) == 0.08               # twice out of order: 4 times as noisy
    # One doubling must earn its cost: a hint nobody reads proves nothing.
    assert after(["cloud"]) == 0.02
    twin = ExpectedCaptain(weights(), twin_temperature=0.001)
    twin.observe("ocean", WORDS, ["beach", "ship"])
    assert twin.temperature == 0.001                      # its twin's noise is known


def test_a_twin_captain_knows_its_agent_puts_beach_before_the_assassin():
    # BEACH (0.80) edges out SHARK (0.79) for "ocean": too close for an agent the captain does
    # not know, certain for its twin, which reads the captain's own matrix greedily.
    ai = AI(weights(), "expected", "greedy")
    assert ai.captain().give_hint(board(), RED).hint == Hint("fruit", 2)
    twin = ai.captain(twin=True).give_hint(board(), RED)
    assert twin.hint == Hint("ocean", 3)
    assert play(ai.agent(), twin.hint, board()) == ["whale", "ship", "beach"]


# --- agents ---------------------------------------------------------------------------


def play(agent: Agent, hint: Hint, b: Board, team=RED, seed=0) -> list[str]:
    """Let an agent guess for one hint, revealing as it goes, as the game would."""
    rng, guesses = np.random.default_rng(seed), []
    while hint.max_guesses is None or len(guesses) < hint.max_guesses:
        word = agent.guess(b, hint, len(guesses), rng, team=team)
        if word is None:
            break
        guesses.append(word)
        if b.reveal(word, team).value != "own":
            break
    return guesses


def test_greedy_agent_takes_the_best_cards_and_stops_at_count():
    assert play(GreedyAgent(weights()), Hint("fruit", 2), board()) == ["apple", "pear"]


def test_greedy_agent_stops_at_a_miss():
    assert play(GreedyAgent(weights()), Hint("music", 2), board()) == ["piano"]


def test_agent_spends_the_bonus_guess_on_an_earlier_hint():
    matrix = MATRIX.copy()
    matrix[0] = [0.90, 0.85, 0.20, 0.05, 0.05, 0.05, 0.10, 0.10]   # "ocean": WHALE and SHIP only
    agent, b = GreedyAgent(weights(matrix)), board()
    assert play(agent, Hint("ocean", 2), b) == ["whale", "ship"]
    b.card("ship").revealed = False              # as if the turn had ended after WHALE
    agent.remembered[-1].guesses = ["whale"]
    assert play(agent, Hint("fruit", 2), b) == ["apple", "pear", "ship"]


def test_agent_keeps_the_bonus_guess_when_no_card_stands_out():
    agent, b = GreedyAgent(weights()), board()
    play(agent, Hint("ocean", 3), b)
    for word in ("ship", "beach", "shark"):      # SHIP 0.85 barely leads BEACH 0.80
        b.card(word).revealed = False
    agent.remembered[-1].guesses = ["whale"]
    assert play(agent, Hint("fruit", 2), b) == ["apple", "pear"]


def test_agent_without_memory_stops_at_count():
    agent = GreedyAgent(weights(), memory=False)
    play(agent, Hint("ocean", 1), board())
    assert play(agent, Hint("fruit", 2), board()) == ["apple", "pear"]


def test_threshold_agent_stops_on_a_weak_card_after_the_first():
    agent = ThresholdAgent(weights(), floor=0.5)
    assert play(agent, Hint("noise", None), board()) == ["whale"]     # forced first guess only
    assert play(agent, Hint("ocean", None), board()) == ["whale", "ship", "beach", "shark"]


def test_threshold_agent_stops_when_the_lead_is_too_small():
    agent = ThresholdAgent(weights(), min_lead=0.05)
    # After WHALE and SHIP, BEACH (0.80) barely leads SHARK (0.79): stop.
    assert play(agent, Hint("ocean", 3), board()) == ["whale", "ship"]


def test_unlimited_hint_has_no_cap_but_stops_below_threshold():
    agent = GreedyAgent(weights(), threshold=0.5)
    assert play(agent, Hint("fruit", 0), board()) == ["apple", "pear"]


def test_softmax_agent_samples_in_proportion_to_weights():
    agent = Agent(weights(), chance=0.0, temperature=0.05)
    rng, b = np.random.default_rng(0), board()
    picks = [agent.guess(b, Hint("ocean", 1), 0, rng) for _ in range(2000)]
    share = {w: picks.count(w) / len(picks) for w in set(picks)}
    column = MATRIX[0]
    p = np.exp((column - column.max()) / 0.05)
    p /= p.sum()
    for i, word in enumerate(WORDS):
        assert share.get(word, 0.0) == pytest.approx(p[i], abs=0.03)


@pytest.mark.parametrize("name", sorted(AGENTS))
def test_every_agent_guesses_an_unrevealed_card(name):
    b = board([True, False, False, False, False, False, False, False])
    word = AGENTS[name](weights()).guess(b, Hint("ocean", 2), 0, np.random.default_rng(0))
    assert word in b.unrevealed_words()


# --- any board word, any hint -----------------------------------------------------------


class LetterExtender:
    """A deterministic stand-in for an embedding: words sharing a first letter are close."""

    def columns(self, words):
        return np.array([[1.0 if h[0] == w[0] else 0.1 for w in words] for h in HINTS], np.float32)

    def row(self, hint, words):
        return np.array([1.0 if hint[0] == w[0] else 0.1 for w in words], np.float32)


def test_unseen_board_words_get_columns_on_demand():
    w = weights(extender=LetterExtender())
    columns = w.board_matrix(["mouse", "frog"])
    assert w.knows("mouse") and w.knows("frog")
    assert columns[HINTS.index("music"), 0] == 1.0 and columns[HINTS.index("fruit"), 1] == 1.0


def test_an_out_of_vocabulary_hint_is_read_through_the_extender():
    w = weights(extender=LetterExtender())
    row = w.hint_row("seaside", ["shark", "apple"])
    assert row.tolist() == pytest.approx([1.0, 0.1])


def test_no_word_raises_without_any_source():
    w = weights()
    assert w.hint_row("zzzz", WORDS).tolist() == [0.0] * len(WORDS)
    assert w.board_matrix(["unheardof"]).shape == (len(HINTS), 1)


def sparse_with_backoff() -> Weights:
    """A sparse matrix that knows only 'ocean' → whale, backed off to the hand-made table."""
    sparse = np.zeros_like(MATRIX)
    sparse[HINTS.index("ocean"), WORDS.index("whale")] = 0.5
    return Weights("sparse", HINTS, tuple(WORDS), sparse, backoff=weights())


def test_a_silent_matrix_reads_the_hint_through_its_backoff():
    w = sparse_with_backoff()
    assert w.hint_row("fruit", WORDS).tolist() == pytest.approx(MATRIX[HINTS.index("fruit")].tolist())
    assert not w.own_row("fruit", WORDS).any()          # the captain's own view stays silent
    assert play(GreedyAgent(w), Hint("fruit", 2), board()) == ["apple", "pear"]


def test_backoff_orders_only_the_cards_the_matrix_weighs_alike():
    w = sparse_with_backoff()
    row = w.hint_row("ocean", WORDS)
    assert int(row.argmax()) == WORDS.index("whale")    # the matrix's own link stays first
    # then the cards it weighs 0, in the order of its backoff
    rest = [WORDS[i] for i in np.argsort(-row)[1:4]]
    assert rest == ["ship", "beach", "shark"]
    assert row.max() == pytest.approx(0.5, abs=1e-3)
    assert w.reads() == {"sparse", "hand-made"} and w.without_backoff().reads() == {"sparse"}


def test_hint_rows_read_many_hints_as_hint_row_reads_one():
    w = Weights("sparse", HINTS, tuple(WORDS), np.zeros_like(MATRIX),
                extender=LetterExtender(), backoff=weights(extender=LetterExtender()))
    hints = ["fruit", "seaside", "ocean"]                     # "seaside": outside the vocabulary
    rows = w.hint_rows(hints, WORDS)
    assert rows.shape == (3, len(WORDS))
    for hint, row in zip(hints, rows, strict=True):
        np.testing.assert_allclose(row, w.hint_row(hint, WORDS))
    np.testing.assert_allclose(rows[0], MATRIX[HINTS.index("fruit")])   # silent: the backoff's


def test_ai_rejects_unknown_strategies_with_the_choices():
    with pytest.raises(ValueError, match="cumsum"):
        AI(weights(), captain_strategy="psychic")


@pytest.mark.parametrize("text", ["ocean ²", "ocean ٣", "ocean 10", "ocean -1", "ocean two"])
def test_a_bad_count_gets_the_count_message(text):
    from model import parse_hint

    with pytest.raises(ValueError, match="count must be 0-9"):
        parse_hint(text)


def test_matrices_over_one_vocabulary_share_their_legality_filter():
    assert weights().filter is weights(MATRIX * 0.5).filter


def test_silhouette_follows_its_definition():
    # Rousseeuw's silhouette, point by point: a = mean distance within its cluster, b = the
    # least mean distance to another cluster; a point alone in its cluster scores 0.
    from scipy.spatial.distance import cosine

    from model import silhouette

    points = np.array([[1, 0, 0.2], [1, 0.1, 0], [0, 1, 0.1], [0.1, 1, 0.3], [0.5, 0.5, 1]])
    labels = np.array([1, 1, 2, 2, 3])

    def by_hand(i: int) -> float:
        if (labels == labels[i]).sum() == 1:
            return 0.0
        mean = {c: np.mean([cosine(points[i], points[j]) for j in range(5)
                            if labels[j] == c and j != i]) for c in set(labels)}
        a, b = mean[labels[i]], min(v for c, v in mean.items() if c != labels[i])
        return (b - a) / max(a, b)

    assert silhouette(points, labels) == pytest.approx(np.mean([by_hand(i) for i in range(5)]))


def test_an_ai_captain_plans_for_its_own_ai_agent_not_for_a_person():
    ai = AI(weights(), "expected", "greedy")
    game = Game(board(), {RED: make_team(RED, Composition.parse("ai:ai"), ai, FakeTerminal()),
                          BLUE: AutoTeam(BLUE)}, seed=0)
    # Its twin surely puts BEACH before the assassin; a person may not, so that team hears FRUIT.
    assert game.teams[RED].captain.give_hint(game).hint == Hint("ocean", 3)
    game.teams[RED] = make_team(RED, Composition.parse("ai:human"), ai, FakeTerminal())
    assert game.teams[RED].captain.give_hint(game).hint == Hint("fruit", 2)


def family(name: str, matrix=MATRIX) -> Weights:
    return Weights(name, HINTS, tuple(WORDS), matrix.copy())


def test_a_hint_one_reader_family_rejects_gets_a_smaller_count():
    # Three corpus matrices read "ocean" as three own cards, with SHARK far; SBERT reads
    # BEACH below SHARK. Heard as three voices against one, SBERT's doubt is outvoted; heard as
    # one family against another, it weighs half, and "ocean" is given for two.
    matrix = MATRIX.copy()
    matrix[0, 7] = 0.05
    matrix[1, 3:5] = 0.0                   # no other hint competes
    doubt = matrix.copy()
    doubt[0, 2], doubt[0, 7] = 0.05, 0.5   # beach: far below the assassin for SBERT
    corpus = [family(n, matrix) for n in ("word_collocations", "sentence_collocations", "fasttext")]
    partners = [*corpus, family("sbert", doubt)]

    def count(**options) -> int:
        return ExpectedCaptain(corpus[0], partners=partners, caution=0.2, alone=True,
                               assassin_cost=1.0,
                               **options).give_hint(board(), RED).hint.count

    assert count() == 2                    # with partners, families are heard


def test_the_choice_names_the_reader_families_that_agree():
    matrix = MATRIX.copy()
    matrix[1, 7] = 0.95                    # SBERT reads "fruit" as the shark
    partners = [family("fasttext"), family("sbert", matrix)]
    captain = ExpectedCaptain(partners[0], partners=partners)
    choice = captain.give_hint(board(), RED)
    verdicts = dict(captain.agreement(board(), replace(choice, hint=Hint("fruit", 2),
                                                       targets=("apple", "pear"))))
    assert verdicts == {"corpus": True, "sbert": False}
    assert choice.readers and all(isinstance(name, str) for name, _ in choice.readers)


def test_explain_says_in_plain_words_which_cards_how_sure_and_the_danger():
    # Issue 40: --explain read like internals ("readers agreeing: mixed", scores like counts).
    from renderer import explanation

    choice = HintChoice(Hint("ocean", 2), ("whale", "ship"), (0.9, 0.8), ("shark", 0.3),
                        runners_up=(("sea", 3, 3.0), ("water", 1, 1.0)),
                        readers=(("mixed", True), ("corpus", True), ("sbert", False)))
    assert explanation(choice, board()).splitlines() == [
        "    It means WHALE, SHIP.",
        "    Fairly sure: books and associations together, word use in books put these cards above "
        "every other card; SBERT's sentence meaning not.",
        "    Most dangerous: SHARK, the assassin: the hint points to it far less than to SHIP.",
        "    It also thought of SEA for 3, WATER for 1."]
    alone = replace(choice, readers=(), danger=("cloud", 0.75), runners_up=())
    assert explanation(alone, board()).splitlines()[1:] == [
        "    Fairly sure: another card comes close.",
        "    Most dangerous: CLOUD, a bystander: the hint points to it almost as much as to SHIP."]
    secret = explanation(choice, board(), withheld={"ship", "shark"}, meaning=False)
    assert "SHIP" not in secret and "SHARK" not in secret and "a card still face down" in secret
    one = replace(choice, readers=(("sbert", True),))
    assert ("Sure: the reader it checks (SBERT's sentence meaning) puts these cards above every other "
            "card.") in explanation(one)


def test_a_count_bonus_adds_to_each_card_past_the_first_only_with_the_sight_rule():
    # The bonus trusts what every reading sees (models/sight.py); with no rule, no bonus. FRUIT's
    # APPLE and PEAR are seen and clear; a third card (WHALE, 0.05 like the rest) is neither.
    w, b = weights(), board()
    situation = Situation.of(w, b, RED)
    sight = Sight([Weights("sbert", HINTS, tuple(WORDS), MATRIX.copy())], cards=WORDS)
    plain = ExpectedCaptain(w, sight=sight).score(situation, b)
    bolder = ExpectedCaptain(w, count_bonus=0.3, sight=sight).score(situation, b)
    blind = ExpectedCaptain(w, count_bonus=0.3).score(situation, b)
    fruit = HINTS.index("fruit")
    assert bolder[fruit] - plain[fruit] == pytest.approx([0.0, 0.3, 0.0, 0.0])
    assert blind[fruit] == pytest.approx(plain[fruit])


def test_between_hints_of_equal_value_the_commoner_word_wins():
    # FRUIT and SEA read the cards alike (FRUIT's row twice), so the plain captain values them
    # alike; the one that prices rarity takes the commoner (Zipf: sea 5.06, counted as 5; fruit 4.57).
    matrix = np.vstack([MATRIX[1], MATRIX[1], MATRIX[2:]])
    w, b = weights(matrix, hints=("fruit", "sea", "music", "weather", "noise")), board()
    situation = Situation.of(w, b, RED)
    plain = ExpectedCaptain(w).score(situation, b)
    assert plain[0] == pytest.approx(plain[1])
    pricing = ExpectedCaptain(w, commonness=0.05)
    gap = pricing.score(situation, b)[1] - pricing.score(situation, b)[0]
    assert gap == pytest.approx(0.05 * (5.0 - 4.57))
    assert pricing.give_hint(b, RED).hint.word == "sea"


def test_behind_in_a_race_the_captain_dares_a_second_card_only_evoked():
    # FRUIT 2: five card words off the board stand between APPLE and PEAR in meaning, so PEAR is
    # evoked but no first thought (`Rule.claimed`). Level, or alone, the captain asks for APPLE
    # alone; racing and behind (five cards left to the opponent's one), with `dare_behind`, for both.
    near = [f"near{i}" for i in range(5)]
    pool = (*WORDS, *near)
    reading = np.hstack([MATRIX, np.zeros((len(HINTS), len(near)), np.float32)])
    reading[HINTS.index("fruit"), len(WORDS):] = 0.89
    sight = Sight([Weights("sbert", HINTS, pool, reading)], cards=pool)

    def hint(alone: bool, dare: bool) -> Hint:
        w = weights()
        captain = ExpectedCaptain(w, [w], alone, sight=sight, dare_behind=dare)
        return captain.give_hint(board(), RED).hint

    assert hint(alone=False, dare=True) == Hint("fruit", 2)
    assert hint(alone=False, dare=False) == Hint("fruit", 1)
    assert hint(alone=True, dare=True) == Hint("fruit", 1)


@pytest.mark.parametrize("red, blue, behind", [(9, 8, False), (5, 4, False), (6, 4, True), (2, 1, True)])
def test_the_team_to_play_is_behind_two_cards_down_or_one_card_from_losing(red, blue, behind):
    # Playing now is worth a card: the starting team's 9 to 8 is level.
    key = [RED] * red + [BLUE] * blue
    racing = ExpectedCaptain(weights(), dare_behind=True)
    assert racing.behind(Board.from_key([f"w{i}" for i in range(len(key))], key), RED) is behind


def test_the_shortlist_holds_the_hints_best_for_two_cards():
    # WEATHER points at WHALE alone, more strongly than FRUIT at APPLE: by the quick score over
    # counts WEATHER is the one hint simulated (`candidates=1`), and the captain asks for one card.
    # With the best hint for two in the shortlist too (`pair_candidates`), FRUIT 2 is weighed and given.
    matrix = MATRIX.copy()
    matrix[HINTS.index("weather")] = 0.05
    matrix[HINTS.index("weather"), WORDS.index("whale")] = 1.0
    matrix[HINTS.index("fruit"), WORDS.index("pear")] = 0.8
    w = weights(matrix)

    def hint(pairs: int) -> Hint:
        return ExpectedCaptain(w, candidates=1, pair_candidates=pairs).give_hint(board(), RED).hint

    assert hint(pairs=0) == Hint("weather", 1)
    assert hint(pairs=1) == Hint("fruit", 2)
