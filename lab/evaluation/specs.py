"""What plays in the bench: a strategy on an initializer (Spec), and the captain or agent
model built from it, with the partner matrices a captain may check its hints against."""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import dataclass

from model import AI, CAPTAINS, GREEDY, Agent, Captain, ExpectedCaptain, MatrixReader


@dataclass(frozen=True)
class Spec:
    """A captain or agent configuration: a registered strategy, its parameters, a matrix."""

    strategy: str
    initializer: str
    params: tuple[tuple[str, object], ...] = ()

    @property
    def style(self) -> str:
        """The strategy with its parameters, e.g. `cumsum` or `cumsum(gap=3)`."""
        if not self.params:
            return self.strategy
        return f"{self.strategy}({','.join(f'{k}={v}' for k, v in self.params)})"

    @property
    def label(self) -> str:
        return f"{self.style}/{self.initializer}"


def parse_strategy(text: str) -> tuple[str, tuple[tuple[str, object], ...]]:
    """`"cumsum"` or `"cumsum:gap=3,floor=0.1"` → (name, params); values are Python literals."""
    name, _, rest = text.partition(":")
    params = []
    for item in filter(None, rest.split(",")):
        key, eq, value = item.partition("=")
        if not eq or not key.strip().isidentifier():
            raise ValueError(f"bad parameter {item!r} in {text!r}: write name=value")
        params.append((key.strip(), parse_value(value.strip())))
    return name.strip(), tuple(params)


def parse_value(text: str) -> object:
    """A parameter value: a number, True/False/None, or else the text itself."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def captain_of(spec: Spec, weights: dict, plans_for: Sequence | None = None,
               alone: bool = False) -> Captain:
    """A fresh captain for one game (models may keep state within a game), built by the game's
    factory (`AI.captain`), every other loaded matrix a partner. With `plans_for` (the partner
    policy's matrices, the captain's own first), a captain that plans for a reader plans for an
    agent it does not know as the first of them read as a softmax, or, with none, for its twin,
    which takes its strongest card, rather than for a person; `alone` for single-team mode."""
    ai = AI(weights[spec.initializer], captain_strategy=spec.strategy, partners=others(spec, weights),
            captain_options=dict(spec.params))
    strategy = CAPTAINS[spec.strategy]
    if plans_for is None or not issubclass(strategy, ExpectedCaptain):
        return ai.captain(alone=alone)
    reader = MatrixReader(plans_for[0]) if plans_for else MatrixReader(ai.weights, GREEDY)
    return strategy(ai.weights, reader, alone, **dict(spec.params))


def agent_of(spec: Spec, weights: dict) -> Agent:
    """A fresh agent for one game, built by the game's factory (`AI.agent`), every other loaded
    matrix a partner."""
    return AI(weights[spec.initializer], agent_strategy=spec.strategy, partners=others(spec, weights),
              agent_options=dict(spec.params)).agent()


def others(spec: Spec, weights: dict) -> list:
    """Every loaded matrix but the spec's own."""
    return [w for name, w in weights.items() if name != spec.initializer]


PARTNER_POLICIES = ("held-out", "disjoint", "all", "own")
PARTNER_TEXT = {
    "held-out": "in cross-play, its own and every other loaded matrix except those its agent reads "
                "(the agent's, and those it backs off to: fastText, SBERT), none of them backing "
                "off to one of those, so cross-play measures a partner the captain has never "
                "seen; in self-play none, for its agent is its twin, whose reading it knows (as in "
                "the game's AI teams).",
    "disjoint": "as held-out, and no combination made from a matrix its agent reads either "
                "(with SBERT in the recipe, every agent reads it as its backoff, so no combination "
                "is a partner): cross-play against a partner whose sources the captain never reads.",
    "all": "every loaded matrix, the agent's included (as in a game where all are available); "
           "this flatters cross-play.",
    "own": "its own matrix only.",
}


def partners_for(captain: Spec, agent: Spec, weights: dict, policy: str) -> list:
    """The matrices a captain may check its hints against, the captain's own first.

    held-out: in cross-play, every loaded matrix but those the agent reads
    (its own and its chain of backoffs), and none, the captain's own included,
    backing off to one of them, so that cross-play measures an unknown partner; in
    self-play none, for the agent is the captain's twin, as in a game's AI team;
    disjoint: as held-out, and no matrix made from one that the agent reads
    either (a combination that holds it); all: every loaded matrix; own: the
    captain's matrix only.
    """
    from datasets import NOT_PLAYED, leaves

    own = weights[captain.initializer]
    if policy == "own":
        return [own]
    # A matrix no agent plays on (the model of people's phrases) is no partner to plan for.
    others = [w for name, w in weights.items() if name != captain.initializer and name not in NOT_PLAYED]
    if policy == "all":
        return [own, *others]
    if captain.initializer == agent.initializer:
        return []
    read = weights[agent.initializer].reads()
    sources = frozenset().union(*map(leaves, read))

    def known(name: str) -> bool:
        """Whether the agent reads this matrix (disjoint: anything it is made from)."""
        return bool(leaves(name) & sources) if policy == "disjoint" else name in read

    def alone(w):
        # A backoff is read through its own backoff too: it goes if any of them is known.
        return w if w.backoff is None or not any(map(known, w.backoff.reads())) else w.without_backoff()

    return [alone(own), *(alone(w) for w in others if not known(w.name))]


def base_sources(weights: dict) -> dict[str, frozenset[str]]:
    """Each initializer's base initializers (`datasets.leaves`), and those of the matrix it backs
    off to."""
    from datasets import leaves

    return {name: frozenset().union(*map(leaves, w.reads())) for name, w in weights.items()}
