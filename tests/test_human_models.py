"""The human-model tier's guessers as a captain can read them: their cosines over many clues at
once, and the captain built for one (its oracle)."""

from __future__ import annotations

import numpy as np

from board import Outcome, deal
from common import board_words, hint_words
from lab.evaluation.games import play_solo
from lab.evaluation.human_models import GREEDY_SHARPNESS, FittedGuesser, StrangerFeatures, oracle
from lab.foreign.agent import scores
from lab.foreign.vectors import Vectors, unit
from model import AI, Weights, zipf


class Partial(Vectors):
    """Random unit vectors, the same for a word every time, for every word but those with a `q`:
    a stand-in for GloVe, which does not know every word."""

    def embed(self, words):
        rows = [np.random.default_rng([5, *map(ord, w)]).normal(size=12) for w in words]
        known = np.array(["q" not in w for w in words], dtype=bool)
        return unit(np.array(rows).reshape(-1, 12)) * known[:, None], known


def test_the_cosines_of_many_clues_are_each_clues_scores():
    features = StrangerFeatures(Partial())
    clues = ["river", "quilt", "ice-queen", "squid", "river"]   # known, unknown, by parts, unknown
    words = ["bank", "quack", "snow", "fish", "queen", "water"]
    cos = features.cosines(clues, words)
    for clue, row in zip(clues, cos, strict=True):
        np.testing.assert_allclose(row, scores(features.vectors, clue, words), rtol=1e-6)
    np.testing.assert_allclose(features.cosines(clues[::-1], words), cos[::-1], rtol=1e-6)   # kept


def test_the_oracle_plans_for_the_guessers_own_model():
    ai, guesser, words = random_ai_and_guesser()
    hints = ai.weights.hints
    captain = oracle(ai, guesser)
    np.testing.assert_allclose(captain.reader.logits(hints[:5], words[:25]),   # greedy: read sharply
                               GREEDY_SHARPNESS * guesser.logits(hints[:5], words[:25]), rtol=1e-5)
    for seed in range(3):
        board, rng = deal(seed, words)
        first = play_solo(board, board.starting_team, oracle(ai, guesser), guesser, rng, seed).hints[0]
        # It knows what its guesser takes: every card of its first hint is the team's.
        assert first.outcomes and set(first.outcomes) == {Outcome.OWN}, first
    sampling = oracle(ai, FittedGuesser("partial", guesser.features, guesser.coefficients, sample=True))
    np.testing.assert_allclose(sampling.reader.logits(hints[:5], words[:25]),   # at its own softmax
                               guesser.logits(hints[:5], words[:25]), rtol=1e-5)


def random_ai_and_guesser() -> tuple[AI, FittedGuesser, list[str]]:
    hints = [h for h, z in zip(hint_words(), zipf(hint_words()), strict=True) if z >= 4][:800]
    words = board_words()[:50]
    matrix = np.random.default_rng(1).random((len(hints), len(words))).astype(np.float32) ** 3
    ai = AI(Weights("random", tuple(hints), tuple(words), matrix))
    guesser = FittedGuesser("partial", StrangerFeatures(Partial()),
                            np.array([6.0, 0.5, 0.0, 0.0, 0.0], dtype=np.float32))
    return ai, guesser, words
