"""The model of people: its features, the variant the matrices allow, its agent, and where the
game uses it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import model
from board import NEUTRAL, RED, Board
from model import Hint, Weights
from models.people import (
    PEOPLE_TEMPERATURE,
    Features,
    Fit,
    PeopleAgent,
    PeopleModel,
    PeopleReading,
    best_fit,
    card_frequency,
    in_context,
    load_fits,
    parse_feature,
)

HINTS, WORDS = ("sea", "sky"), ("wave", "cloud", "fish")
SBERT = np.array([[0.5, 0.4, 0.45], [0.1, 0.9, 0.0]], np.float32)
NORMS = np.array([[0.0, 0.0, 0.04], [0.0, 0.0, 0.0]], np.float32)


def readings(norms: bool = True) -> dict[str, Weights]:
    found = {"sbert": Weights("sbert", HINTS, WORDS, SBERT)}
    if norms:
        found["association"] = Weights("association", HINTS, WORDS, NORMS, backoff=found["sbert"])
    return found


FITS = [Fit("norms", ("sbert", "association"), (10.0, 50.0)), Fit("embedded", ("sbert",), (10.0,))]


def test_board_contexts_say_how_a_card_stands_among_the_others() -> None:
    rows = np.array([[0.5, 0.4, 0.1]], np.float32)
    assert in_context(rows, "top").tolist() == [[1, 0, 0]]
    assert np.allclose(in_context(rows, "lead"), [[0.1, 0, 0]])
    assert abs(in_context(rows, "z").mean()) < 1e-6 and np.allclose(in_context(rows, "z").std(), 1)
    assert in_context(np.zeros((1, 3), np.float32), "top").sum() == 0   # silence is no best card
    assert np.allclose(in_context(rows, "rank"), [[1, 1 / 2, 1 / 3]])
    assert np.allclose(in_context(rows, "over@0.3"), [[0.2, 0.1, 0]])
    assert np.allclose(in_context(rows, "cap@0.3"), [[0.3, 0.3, 0.1]])
    assert in_context(np.zeros((1, 3), np.float32), "rank").sum() == 0   # nor a ranked one
    assert parse_feature("sbert~over@0.4") == ("sbert", "over@0.4")
    for wrong in ("sbert~over", "sbert~rank@0.4", "sbert~over@high", "sbert~median"):
        with pytest.raises(ValueError):
            parse_feature(wrong)


@pytest.mark.parametrize("context", ["z", "top", "lead", "rank", "over@0.3", "cap@0.3"])
def test_no_context_lowers_a_card_when_its_own_link_grows(context: str) -> None:
    # The model is monotone only if every feature is non-decreasing in the card's own link (the
    # other cards' held still): then a non-negative coefficient never makes a closer card less likely.
    rng = np.random.default_rng(0)
    rows = rng.uniform(-0.1, 0.8, size=(200, 8)).astype(np.float32)
    rows[:50, 1] = rows[:50, 0]                                   # ties
    rows[50:60] = 0                                               # silence
    for raise_by in (0.01, 0.1, 0.5):
        raised = rows.copy()
        raised[:, 0] += raise_by
        before, after = in_context(rows, context)[:, 0], in_context(raised, context)[:, 0]
        assert (after >= before - 1e-5).all(), (context, raise_by)


def test_a_card_whose_links_grow_is_never_less_likely_under_a_monotone_fit() -> None:
    names = ("sbert", "sbert~z", "sbert~top", "sbert~lead", "sbert~rank", "sbert~over@0.45",
             "sbert~cap@0.3", "zipf")
    rng = np.random.default_rng(1)
    coefficients = rng.uniform(0, 3, size=len(names))
    coefficients[-1] = -1.0   # the card's own frequency may lower it
    fit = Fit("shapes", names, tuple(coefficients))

    def chances(sbert: np.ndarray) -> np.ndarray:
        people = PeopleModel(fit, {"sbert": Weights("sbert", HINTS[:1], WORDS, sbert)})
        return people.chances("sea", list(WORDS))

    for trial in range(30):
        sbert = rng.uniform(0, 0.8, size=(1, len(WORDS))).astype(np.float32)
        card = trial % len(WORDS)
        raised = sbert.copy()
        raised[0, card] += rng.uniform(0.01, 0.3)
        assert chances(raised)[card] > chances(sbert)[card] - 1e-6, trial


def test_features_read_each_matrix_alone_and_the_norms_as_square_roots() -> None:
    values = Features(("sbert", "association", "zipf"), readings())(["sea"], list(WORDS))
    assert np.allclose(values[0, :, 0], SBERT[0]) and np.allclose(values[0, :, 1], [0, 0, 0.2])
    assert values[0, 2, 2] > 0.4   # "fish" is a common word: Zipf over 8
    with pytest.raises(KeyError, match="association"):
        Features(("association",), readings(norms=False))


def test_known_phrases_are_the_phrases_the_norms_link_too_and_need_the_phrases_matrix() -> None:
    # SEA → FISH and SEA → CLOUD are both phrases; only SEA → FISH is said in the norms.
    phrases = np.array([[0.0, 1.0, 1.0], [0.0, 0.0, 0.0]], np.float32)
    found = {**readings(), "phrases": Weights("phrases", HINTS, WORDS, phrases)}
    features = Features(("phrases", "known_phrases"), found)
    assert features(["sea"], list(WORDS))[0].T.tolist() == [[0, 1, 1], [0, 0, 1]]
    assert np.array_equal(features.board(list(WORDS))[:1], features(["sea"], list(WORDS)))
    assert Fit("known", ("known_phrases", "zipf"), (3.5, -1.0)).readings == {"phrases"}
    with pytest.raises(KeyError, match="phrases"):
        Features(("known_phrases",), readings())


def test_the_richest_variant_the_matrices_allow_plays() -> None:
    assert best_fit(readings(), FITS).name == "norms"
    people = PeopleModel.of(readings(norms=False), FITS)
    assert people.fit.name == "embedded"
    assert np.allclose(people.logits(["sea"], list(WORDS)), 10 * SBERT[:1])
    assert np.allclose(PeopleModel.of(readings(), FITS).logits(["sea"], list(WORDS)),
                       [[5.0, 4.0, 4.5 + 10.0]])


def test_the_logits_assemble_only_the_features_the_model_weighs() -> None:
    fit = Fit("norms", ("sbert", "sbert~z", "association", "association~top", "zipf"),
              (10.0, 0.0, 50.0, 0.0, -1.0))
    people = PeopleModel(fit, readings())
    everything = people.features(HINTS, list(WORDS)) @ people.coefficients
    assert people.weighed.tolist() == [0, 2, 4]
    assert people.features(HINTS, list(WORDS), people.weighed).shape == (2, 3, 3)
    assert np.allclose(people.logits(HINTS, list(WORDS)), everything)
    assert np.allclose(people.board_logits(list(WORDS)), everything)
    people.coefficients = np.array([10.0, 1.0, 50.0, 0.0, -1.0], np.float32)   # a person's, learnt
    assert people.weighed.tolist() == [0, 1, 2, 4]
    assert np.allclose(people.logits(HINTS, list(WORDS)),
                       people.features(HINTS, list(WORDS)) @ people.coefficients)


class Unread(Weights):
    """A matrix that fails when read: the model of people must not read one it does not weigh."""

    def own_rows(self, hints, words):
        raise AssertionError(f"{self.name} read")

    board_matrix = own_rows


def test_a_matrix_the_model_does_not_weigh_is_never_read() -> None:
    found = {**readings(), "eat": Unread("eat", HINTS, WORDS, NORMS)}
    people = PeopleModel(Fit("norms", ("sbert", "eat", "eat~top", "zipf"), (10.0, 0.0, 0.0, -1.0)), found)
    assert np.allclose(people.logits(HINTS, list(WORDS)), 10 * SBERT - card_frequency(WORDS))
    assert np.allclose(people.board_logits(list(WORDS)), 10 * SBERT - card_frequency(WORDS))


def test_the_committed_model_has_an_embedded_variant_and_plays_on_sbert_alone() -> None:
    fits = load_fits()
    assert fits[-2].name == "embedded" and fits[-1].readings == {"sbert"}
    people = PeopleModel.of(readings(norms=False))
    assert people.fit is not None and people.chances("sea", list(WORDS)).sum() == pytest.approx(1)


def test_the_reading_is_the_models_logits_at_the_captains_temperature() -> None:
    people = PeopleModel.of(readings(), FITS)
    reading = PeopleReading(readings()["sbert"], people)
    assert np.allclose(reading.hint_rows(["sea"], list(WORDS)) / PEOPLE_TEMPERATURE,
                       people.logits(["sea"], list(WORDS)))
    assert reading.name == "people" and reading.hints == HINTS


def test_the_agent_takes_the_likeliest_card_and_stops_when_none_is_likely_enough() -> None:
    board = Board.from_key(list(WORDS), [RED, NEUTRAL, NEUTRAL])
    rng = np.random.default_rng(0)
    agent = PeopleAgent(readings()["sbert"], model=PeopleModel.of(readings(), FITS))
    assert agent.guess(board, Hint("sea", 2), 0, rng) == "fish"
    careful = PeopleAgent(readings()["sbert"], model=PeopleModel.of(readings(), FITS), stop_below=0.9)
    board.reveal("fish", RED)
    assert careful.guess(board, Hint("sea", 2), 1, rng) is None   # wave or cloud: a coin toss


def test_the_ai_reads_a_persons_clue_with_the_people_model_unless_told_otherwise() -> None:
    sbert = readings()["sbert"]
    assert model.AGENTS["people"] is PeopleAgent
    ai = model.AI(sbert, captain_strategy="margin")
    assert isinstance(ai.people_agent(), PeopleAgent)
    assert type(ai.agent()) is model.GreedyAgent
    assert type(model.AI(sbert, "margin", "softmax").people_agent()) is model.Agent
    # SBERT alone (no dataset, no partner: the catalog says so in one line, test_game_cli)
    assert ai.people.fit.name == "sbert"
    phrases, wordnet = (Weights(name, HINTS, WORDS, np.zeros((2, 3), np.float32))
                        for name in ("phrases", "wordnet"))
    assert model.AI(sbert, partners=[phrases]).people.fit.name == "sbert"   # WordNet's relations too
    assert model.AI(sbert, partners=[phrases, wordnet]).people.fit.name == "embedded"


def test_the_people_agent_is_registered_on_importing_model() -> None:
    code = "import model, sys; sys.exit(0 if 'people' in model.AGENTS else 1)"
    assert subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).resolve().parent.parent,
                          ).returncode == 0


def test_every_level_gives_hints_from_one_vocabulary_never_below_the_frequency_floor() -> None:
    # Issue 41: a person watches every AI team, so every level speaks a person's words.
    import datasets
    from board import deal
    from common import board_words
    from model import LEVELS, MIN_HINT_ZIPF, Situation, zipf

    sbert = datasets.load_weights("sbert", sources=Path("/nonexistent"))
    ai = model.AI(sbert)
    for seed in range(3):
        board, _ = deal(seed, board_words())
        captains = [ai.captain(twin=True, level=level) for level in LEVELS.values()]
        masks = {tuple(Situation.of(c.weights, board, board.starting_team).legal) for c in captains}
        assert len(masks) == 1   # one legal vocabulary, whatever the level
        for level in LEVELS.values():
            captain = ai.captain(twin=True, level=level)
            hint = captain.give_hint(board, board.starting_team).hint
            assert zipf([hint.word])[0] >= MIN_HINT_ZIPF, (level.name, hint)
        person = ai.captain().give_hint(board, board.starting_team).hint   # ai:human
        assert zipf([person.word])[0] >= MIN_HINT_ZIPF
    legal = sbert.filter.legal(deal(0, board_words())[0])
    assert zipf([h for h, ok in zip(sbert.hints, legal, strict=True) if ok]).min() >= MIN_HINT_ZIPF




def test_a_card_out_of_reach_stays_out_of_reach_however_flat_the_reading():
    from models.chances import flattened, strayed

    logits = np.array([[2.0, 1.0, -np.inf]], dtype=np.float32)
    with np.errstate(invalid="raise"):       # 0 × -inf would be nan
        assert flattened(logits, 0.0).tolist() == [[0.0, 0.0, -np.inf]]
        chances = strayed(logits, lapse=0.2, flat=0.0)
    assert chances[0, 2] == 0 and chances.sum() == pytest.approx(1) and chances.dtype == np.float32
    assert chances[0, 0] > chances[0, 1] > 0.5 * 0.2    # the flat share reads the two alike
