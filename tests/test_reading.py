"""The people reader: SBERT's row plus √ of the association norms, found inside a matrix."""

from __future__ import annotations

import numpy as np

import model
from model import Weights
from reading import PeopleAgent, PeopleReading, norms_of, people_agent, reader_of

HINTS, WORDS = ("sea", "sky"), ("wave", "cloud", "fish")


class Norms:
    """A stand-in for a sparse norms table: raw strengths between a hint and words."""

    name = "association"

    def __init__(self, strengths: dict[tuple[str, str], float]):
        self.strengths = strengths

    def raw_row(self, hint, words):
        return np.array([self.strengths.get((hint, w), 0.0) for w in words], dtype=np.float32)


class Holder:
    """A stand-in for a combination's extender: a table whose parts hold the norms."""

    def __init__(self, norms):
        self.table = type("Combined", (), {"parts": [(norms, 1.0)], "name": "combined"})()


def matrices(strengths):
    sbert = Weights("sbert", HINTS, WORDS, np.array([[0.5, 0.4, 0.45], [0.1, 0.9, 0.0]], np.float32))
    combined = Weights("combined", HINTS, WORDS, np.zeros((2, 3), np.float32),
                       extender=Holder(Norms(strengths)), backoff=sbert)
    return sbert, combined


def test_the_norms_and_sbert_are_found_through_the_matrix() -> None:
    sbert, combined = matrices({})
    assert reader_of(combined) is sbert and [t.name for t in norms_of(combined)] == ["association"]
    assert norms_of(sbert) == []


def test_the_norms_add_their_square_root_to_sbert() -> None:
    _, combined = matrices({("sea", "fish"): 0.04})
    row = PeopleReading(combined).hint_row("sea", list(WORDS))
    assert np.allclose(row, [0.5, 0.4, 0.45 + 0.2])


def test_without_norms_it_reads_as_sbert_does_and_is_registered() -> None:
    sbert, _ = matrices({})
    assert np.allclose(PeopleReading(sbert).hint_row("sky", list(WORDS)), sbert.hint_row("sky", list(WORDS)))
    assert model.AGENTS["people"] is PeopleAgent
    ai = model.AI(sbert, captain_strategy="margin")
    assert isinstance(people_agent(ai), PeopleAgent)
    assert type(ai.agent()) is model.GreedyAgent
    assert type(people_agent(model.AI(sbert, "margin", "softmax"))) is model.Agent


def test_the_people_agent_is_registered_without_importing_reading():
    # It was registered as a side effect of importing reading.py, so `--agent people` and the
    # bench's registry depended on what happened to be imported first.
    import subprocess
    import sys
    from pathlib import Path

    code = "import model, sys; sys.exit(0 if 'people' in model.AGENTS else 1)"
    assert subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).resolve().parent.parent,
                          ).returncode == 0
