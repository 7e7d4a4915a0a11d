"""Learning a giver (lab/evaluation/giver_adaptation.py) on a small planted record of invented
words: turns grouped by giver, and a giver who always means the card with the strongest 'eat'
link read better once the agent has observed them than by a prior fitted without them."""

from __future__ import annotations

import numpy as np

from lab.evaluation import giver_adaptation
from lab.evaluation.giver_adaptation import EARLIER, ELSEWHERE, IN_SAMPLE, UNGATED
from lab.evaluation.human_duet import Turn
from models.weights import Weights

HINTS = tuple(f"clue{k}" for k in range(60))
CARDS = tuple(f"card{k}" for k in range(40))
NAMES = ("sbert", "eat")


def readings(seed: int = 0) -> dict[str, Weights]:
    rng = np.random.default_rng(seed)
    sbert = rng.uniform(0.0, 0.6, size=(len(HINTS), len(CARDS))).astype(np.float32)
    eat = (rng.uniform(size=sbert.shape) ** 3 * 0.2).astype(np.float32)
    return {"sbert": Weights("sbert", HINTS, CARDS, sbert), "eat": Weights("eat", HINTS, CARDS, eat)}


def planted_record(found: dict[str, Weights], seed: int = 1) -> list[Turn]:
    """Giver "meaning" means a card drawn by closeness in SBERT (a softmax), giver "norms" always the
    card with the strongest 'eat' link, on boards where the closest card is another; their turns
    interleaved, a game a turn."""
    rng = np.random.default_rng(seed)
    sbert, eat = found["sbert"].matrix, found["eat"].matrix
    turns: list[Turn] = []
    plan = ["meaning", "meaning", "norms"] * 20
    while len(turns) < len(plan):
        giver = plan[len(turns)]
        h, cards = int(rng.integers(len(HINTS))), rng.choice(len(CARDS), 8, replace=False)
        first_said = cards[np.argmax(eat[h, cards])]
        if cards[np.argmax(sbert[h, cards])] == first_said:
            continue
        chances = np.exp(10 * sbert[h, cards])
        meant = rng.choice(cards, p=chances / chances.sum()) if giver == "meaning" else first_said
        turns.append(Turn(len(turns), len(turns), tuple(CARDS[c] for c in cards), (), (), HINTS[h],
                          (CARDS[meant],), (CARDS[meant],), giver))
    return turns


def test_turns_are_grouped_by_giver_in_record_order_and_unnamed_turns_left_out() -> None:
    turns = [Turn(0, k, ("a", "b"), (), (), "clue", ("a",), (), giver)
             for k, giver in enumerate(["ann", "bob", "", "ann", "bob", "ann"])]
    assert giver_adaptation.by_giver(turns) == {"ann": [0, 3, 5], "bob": [1, 4]}


def test_givers_whose_answers_differ_in_few_are_taken_as_one() -> None:
    answers = ["age: 24, native: true, political: liberal", "age: 24, native: false, political: liberal",
               "age: 57, native: false, political: conservative"]
    turns = [Turn(0, k, ("a",), (), (), "clue", ("a",), (), answers[k]) for k in range(3)]
    merged = giver_adaptation.merge_givers(turns, most=1)
    assert [t.giver for t in merged] == [answers[0], answers[0], answers[2]]
    assert giver_adaptation.near_twins(turns, most=1) == [(answers[0], answers[1], 1)]


def test_a_turn_scores_a_hit_when_the_likeliest_card_is_a_target() -> None:
    turn = Turn(0, 0, ("a", "b", "c"), (), (), "clue", ("b",), (), "ann")
    values = np.array([[1.0], [3.0], [0.0]])
    hit, log_likelihood = giver_adaptation.score(turn, values, np.array([1.0]))
    assert hit and np.isclose(log_likelihood, 3.0 - np.log(np.exp(1) + np.exp(3) + 1))
    assert not giver_adaptation.score(turn, values, np.array([-1.0]))[0]


def test_learning_a_giver_who_follows_the_norms_raises_their_first_picks() -> None:
    found = readings()
    turns = planted_record(found)
    out, penalties = giver_adaptation.read_givers(turns, found, NAMES, strengths=(1.0, 10.0),
                                                  say=lambda _: None)
    assert set(penalties) == {"meaning", "norms"}
    norms = [r for r in out if r.giver == "norms"]
    assert [r.earlier for r in norms] == list(range(20))
    # The prior never saw this giver: fitted on the other's turns, it reads meaning and misses.
    assert np.mean([r.fixed[0] for r in norms]) < 0.1
    later = [r for r in norms if r.earlier >= 5]
    assert np.mean([r.learnt[EARLIER, "Bayes 1"][0] for r in later]) > 0.7
    assert np.mean([r.learnt[EARLIER, "Bayes 10"][0] for r in later]) > 0.3    # a stronger prior moves slower
    for learner in ("Bayes 1", "Bayes 10"):
        assert np.mean([r.learnt[EARLIER, learner][1] - r.fixed[1] for r in later]) > 0
        # every other turn of theirs observed (a game a turn): at least as good as the earlier ones alone
        assert (np.mean([r.learnt[ELSEWHERE, learner][0] for r in norms])
                >= np.mean([r.learnt[EARLIER, learner][0] for r in norms]))
    assert all(r.learnt[EARLIER, "Bayes 1"] == r.fixed for r in out if r.earlier == 0)   # none observed yet
    assert np.mean([r.learnt[UNGATED, "Bayes 1"][0] for r in later]) > 0.7
    # the experts are fitted without the giver too: on the other giver alone, none reads by 'eat'
    assert all((IN_SAMPLE, "experts") in r.learnt for r in out)
    gain = giver_adaptation.compare(out, EARLIER, "Bayes 1", least=3, resamples=200)
    assert gain.givers == 2 and gain.turns == len(out) - 6 and gain.gain.value > 0.3
