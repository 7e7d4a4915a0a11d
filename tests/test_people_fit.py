"""Fitting the model of people: the fitting recovers known weights, penalties are chosen inside
the folds, folds never split a game, and the committed coefficients match the record."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import datasets
from lab.evaluation import people_fit
from lab.evaluation.human_duet import Turn, available
from models.people import PEOPLE_PATH, Fit, load_fits
from models.weights import Weights

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "datasets"


def synthetic_record(beta: np.ndarray, turns: int = 400, cards: int = 20, seed: int = 0
                     ) -> tuple[list[Turn], np.ndarray]:
    """Turns whose clicks and targets are drawn from a conditional logit with coefficients `beta`,
    on invented words, with their feature values."""
    rng = np.random.default_rng(seed)
    values = rng.normal(size=(turns, cards, len(beta)))
    record = []
    for i in range(turns):
        words = tuple(f"w{i}x{k}" for k in range(cards))
        logits = values[i] @ beta
        order = rng.gumbel(size=cards) + logits          # a Plackett-Luce draw, best first
        ranked = [words[k] for k in np.argsort(-order)]
        record.append(Turn(game=i // 4, row=i, remaining=words, black=(), tan=(), clue="clue",
                           targets=tuple(ranked[:1]), guesses=tuple(ranked[:2])))
    return record, values


def test_the_fitting_recovers_known_weights() -> None:
    beta = np.array([2.0, -1.0, 0.5])
    turns, values = synthetic_record(beta)
    data = people_fit.choices(turns, values, {"picks": 1.0})
    fitted = people_fit.fit(data, l2=0.0)
    assert np.allclose(fitted, beta, atol=0.25), fitted


def test_the_gradient_is_the_likelihoods_own() -> None:
    turns, values = synthetic_record(np.array([1.0, 0.3]), turns=30)
    data = people_fit.choices(turns, values, {"picks": 1.0, "targets": 0.5})
    beta, step = np.array([0.4, -0.2]), 1e-6
    _, gradient = people_fit.negative_log_likelihood(beta, data, l2=0.1)
    for f in range(2):
        nudge = np.eye(2)[f] * step
        numeric = (people_fit.negative_log_likelihood(beta + nudge, data, 0.1)[0]
                   - people_fit.negative_log_likelihood(beta - nudge, data, 0.1)[0]) / (2 * step)
        assert numeric == pytest.approx(gradient[f], rel=1e-4)


def test_a_click_is_chosen_among_the_cards_still_face_down_and_a_target_over_the_others() -> None:
    turn = Turn(0, 0, ("a", "b", "c", "d"), (), (), "clue", targets=("b", "c"), guesses=("c", "a"))
    boards, lefts, chosen, weights = people_fit.choice_events([turn], {"targets": 1.0, "picks": 1.0})
    assert chosen == [1, 2, 2, 0]
    assert [list(left) for left in lefts] == [[True, True, False, True], [True, False, True, True],
                                               [True, True, True, True], [True, True, False, True]]
    assert sum(weights) == pytest.approx(2.0)


def test_folds_never_split_a_game() -> None:
    turns, _ = synthetic_record(np.array([1.0]), turns=80)
    fold = people_fit.folds_of(turns, k=5)
    for game in {t.game for t in turns}:
        assert len({f for f, t in zip(fold, turns, strict=True) if t.game == game}) == 1
    assert set(fold) == set(range(5))


def test_cross_validated_logits_come_from_models_fitted_without_the_turn() -> None:
    beta = np.array([3.0, 0.0])
    turns, values = synthetic_record(beta, turns=120)
    logits, penalties = people_fit.cross_validated_logits(turns, values, {"picks": 1.0}, k=4)
    assert np.isfinite(logits).all() and len(penalties) == 4
    assert set(penalties) <= set(people_fit.L2_GRID)
    found = people_fit.first_pick_rates(turns, logits)["target"]
    best = people_fit.first_pick_rates(turns, values @ beta)["target"]   # knowing the weights
    assert best > 0.3 and found >= best - 0.05


def test_the_committed_coefficients_are_a_fit_of_every_variant() -> None:
    fits = load_fits()
    assert [f.name for f in fits] == list(people_fit.VARIANTS)
    for fit in fits:
        assert fit.features == people_fit.VARIANTS[fit.name]
        assert len(fit.coefficients) == len(fit.features) and all(np.isfinite(fit.coefficients))
    assert fits[-2].readings == set(datasets.EMBEDDED)   # the embedded default needs no dataset
    assert fits[-1].readings == {"sbert"}              # nor does a matrix alone
    assert Fit.from_json(fits[0].to_json()) == fits[0]


@pytest.mark.skipif(not available(SHARED), reason="no human Duet record beside the repository")
def test_the_committed_coefficients_were_fitted_on_this_record() -> None:
    committed = json.loads(PEOPLE_PATH.read_text(encoding="utf-8"))["record_sha256"]
    assert committed == people_fit.record_checksum(SHARED)


def test_a_monotone_fit_never_gives_a_link_negative_weight_though_the_record_says_so() -> None:
    # A planted record in which a stronger second link makes a card *less* likely: the free fit
    # finds that; the monotone one holds the link at zero and lets the frequency stay negative.
    beta = np.array([2.0, -1.0, -0.8])
    turns, values = synthetic_record(beta)
    data = people_fit.choices(turns, values, {"picks": 1.0})
    free = people_fit.fit(data, l2=0.0)
    monotone = people_fit.fit(data, l2=0.0, lower=people_fit.lower_bounds(["sbert", "eat", "zipf"]))
    assert free[1] < -0.5
    assert monotone[1] == pytest.approx(0.0, abs=1e-6) and monotone[0] > 1.0
    assert monotone[2] < -0.3   # the card's own frequency may lower its chance
    assert people_fit.lower_bounds(["sbert~z", "eat", "zipf"]).tolist() == [0.0, 0.0, -np.inf]
    assert people_fit.lower_bounds(["phrases"], {"phrases": 4.0}).tolist() == [4.0]


def test_a_bent_or_ranked_link_is_bounded_like_the_link_itself() -> None:
    # A hinge past a knot, a cap at one and a rank are links too: their least coefficient is zero,
    # whatever the planted record says, so the fitted model stays monotone in every link.
    names = ["sbert", "sbert~over@0.4", "sbert~cap@0.3", "sbert~rank", "zipf"]
    assert people_fit.lower_bounds(names).tolist() == [0.0, 0.0, 0.0, 0.0, -np.inf]
    beta = np.array([2.0, -1.5, 0.5, -1.0, -0.8])
    turns, values = synthetic_record(beta)
    data = people_fit.choices(turns, values, {"picks": 1.0})
    monotone = people_fit.fit(data, l2=0.0, lower=people_fit.lower_bounds(names))
    assert people_fit.fit(data, l2=0.0)[[1, 3]].max() < -0.5            # the free fit finds them
    assert (monotone[:4] >= -1e-9).all() and monotone[[1, 3]].max() == pytest.approx(0.0, abs=1e-6)
    assert monotone[4] < -0.3


def test_calibration_bins_every_face_down_card_against_how_often_it_was_clicked_first() -> None:
    turns, values = synthetic_record(np.array([1.5]), turns=200)
    held = people_fit.calibration(turns, values @ np.array([1.5]))
    assert held["clicks"] == 200 and held["log_likelihood"] > held["uniform"]
    cards = sum(n for _, _, n, _, _ in held["bins"])
    assert cards == 200 * 20
    for _, _, n, predicted, observed in held["bins"]:   # the true model is calibrated
        if n > 300:
            assert abs(predicted - observed) < 0.05


def test_the_committed_model_gives_no_link_a_negative_weight() -> None:
    for fit in load_fits():
        for name, coefficient in zip(fit.features, fit.coefficients, strict=True):
            assert coefficient >= 0 or name == "zipf", (fit.name, name, coefficient)


def test_a_variant_is_fitted_on_the_matrices_it_plays_with_not_on_others_at_hand() -> None:
    hints, words = ("fire",), ("engine", "truck")
    matrix = np.ones((1, 2), np.float32)
    at_hand = {name: Weights(name, hints, words, matrix)
               for name in ("sbert", "phrases", "wordnet", "association", "eat", "fasttext")}
    # The embedded variant plays where no norms are: its phrases a person knows are then read
    # without them, and so it is fitted without them.
    assert set(people_fit.played_with(at_hand, people_fit.VARIANTS["embedded"])) == set(datasets.EMBEDDED)
    assert set(people_fit.played_with(at_hand, people_fit.VARIANTS["norms"])) == {
        "sbert", "phrases", "wordnet", "association", "eat"}
