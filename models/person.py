"""A person the AI plays with, learnt as they play: the model of people, updated on their choices.

The model of people (models/people.py) reads a clue as people do on average; one person follows
phrases more, another meaning, another the first word that comes to mind. Every choice this
person makes is evidence of how they read: the cards they turned over for the AI's hint, in
order, each picked among the cards still face down; the cards they meant by their own hint,
each among the cards it was not meant for. A learner turns that evidence into this person's
coefficients, and the captain that plans for them and the agent that reads their hints use
them from the next turn on.

Two learners, measured against each other (reports/adaptation.md, decision 0042):
- `Bayes`: the posterior mode of the coefficients, the fitted ones the prior (a Gaussian in
  standardised units) and every link kept monotone, so that no evidence makes a stronger link
  less likely to be picked;
- `Experts`: a posterior over a few readings, each a model of people fitted on one family of
  sources alone (meaning, norms, phrases, books), and the fitted model itself; the person is
  read by the likeliest, as Archibald & Brosnahan's adaptive agent picks its expert (2024).

Beside the model of people, the person is weighed against raw readers: one per matrix the model
reads (SBERT, fastText, the norms, phrases, books' collocations; each backing off where it is
silent, as the game's matrices do), each foreseeing a pick as a softmax over the cards' ranks
in its row. When one foresees this person's picks clearly better than the model of people
(`SWITCH_MARGIN`), the captain plans for that reader (`Person.reader`), as the paper's agent
picks the expert that matches its teammate.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from models.chances import flattened, softmax, strayed
from models.likelihood import (
    FREQUENCY,
    Choices,
    Stops,
    fit,
    monotone_bounds,
    negative_log_likelihood,
    scales,
    stop_chances,
)
from models.people import FAMILIES, READINGS, SOURCES, PeopleModel, parse_feature
from models.weights import Weights

# An expert reads by one family (and the card's frequency): phrases first, meaning where none.
EXPERT_READINGS = {"meaning": {"sbert", "fasttext", "wordnet"}, "norms": {"association", "eat"},
                   "phrases": {"phrases", "known_phrases", "sbert"},
                   "books": {"double_link", "word_collocations", "sentence_collocations"}}
# A raw reader's chance of a pick: a softmax over the face-down cards' ranks in its row, at one of
# these temperatures (in ranks; the evidence is its mean over them), mixed with a lapse: a pick no
# reading foresees must not silence a reader for good.
RANK_TEMPERATURES = (0.25, 0.5, 1.0, 2.0, 4.0)
LAPSE = 0.05
# The captain plans for a raw reader once it foresees the person's picks this many nats better
# than the model of people (the better of the fitted and the learnt), over this many picks, and
# they follow its order closely (its likeliest temperature at most `SHARP` ranks): the captain
# plans for it as for its twin, who takes its first card.
SWITCH_MARGIN, SWITCH_PICKS, SHARP = 8.0, 10, 1.0
# The learnt coefficients are used once they have foreseen the person's choices this many nats
# better than the model of people (a Bayes factor of 20): a search over 10,000 hints finds any
# odd coefficient that a few choices barely support (0048).
TRUST_MARGIN = 3.0
# How often this person's picks stray to the flatter reading (`PeopleModel.lapse`): the posterior
# mode, people's own lapse the prior, worth this many picks, and never below it: a partner who
# strays more than people do gets hints whose cards are harder to miss, and one who strays less
# gets none bolder than a person would (decision 0064). The captain is made again when it moves
# this much.
LAPSE_PRIOR, LAPSE_STEP, MOST_LAPSE = 20.0, 0.05, 0.95
LAPSE_GRID = 256   # the lapses `Person.strays` weighs, from people's to `MOST_LAPSE`
STOP_CHANCES = 5   # `Person.describe` says how often a person stops short after this many chances
PICKS, TARGETS = "picks", "targets"
KEPT = 400   # the choices a person's file keeps, the latest: the model moves with the person
NOTHING_YET = "Nothing yet: the AI reads you as it reads people on average."
UNSURE = ("What it learnt does not yet foresee your choices clearly better than how people read on "
          "average: it reads you as it reads them, for now.")


def expert_features(names: Sequence[str]) -> dict[str, np.ndarray]:
    """Each expert's features among a model's (a mask), for the experts whose family is there.
    The phrases expert reads a phrase's raw link and SBERT's only: a phrase first, else meaning."""
    parsed = [parse_feature(name) for name in names]
    out = {}
    for family, readings in EXPERT_READINGS.items():
        if not any(reading in readings and SOURCES[reading].family == family for reading, _ in parsed):
            continue
        out[family] = np.array([reading == FREQUENCY or (reading in readings and (
            family != "phrases" or context is None)) for reading, context in parsed])
    return out


@dataclass(frozen=True)
class Choice:
    """One choice a person made: for `clue`, among `face_down`, the cards `chosen` in order.

    `kind` PICKS: they read the clue and turned these over one after another, each among the
    cards still face down; the clue `meant` these (its count is theirs), and they `stopped`
    themselves, a card it meant still face down. TARGETS: they gave the clue meaning these,
    each chosen over the cards it was not meant for."""

    clue: str
    face_down: tuple[str, ...]
    chosen: tuple[str, ...]
    kind: str = PICKS
    meant: tuple[str, ...] = ()
    stopped: bool = False

    def __post_init__(self) -> None:
        if self.kind not in (PICKS, TARGETS):
            raise ValueError(f"unknown kind of choice {self.kind!r}")
        if stray := [w for w in (*self.chosen, *self.meant) if w not in self.face_down]:
            raise ValueError(f"{', '.join(stray)} not among the cards face down")

    def events(self) -> list[tuple[np.ndarray, int]]:
        """(cards it chose among, card chosen) for each card chosen, by index in `face_down`."""
        index = {w: k for k, w in enumerate(self.face_down)}
        chosen = [index[w] for w in self.chosen]
        out, left = [], np.ones(len(self.face_down), dtype=bool)
        for k in chosen:
            if self.kind == TARGETS:   # over the cards the clue was not meant for
                left = np.ones(len(self.face_down), dtype=bool)
                left[[o for o in chosen if o != k]] = False
            out.append((left.copy(), k))
            if self.kind == PICKS:
                left[k] = False
        return out

    def stop_chances(self) -> list[tuple[np.ndarray, np.ndarray, bool]]:
        """(cards left, cards meant among them, whether they stopped) for each time they could have
        stopped short of the count: after each pick that another followed, or that they stopped at,
        with a card meant still face down and the count not reached."""
        if self.kind != PICKS or not self.meant:
            return []
        index = {w: k for k, w in enumerate(self.face_down)}
        left, meant = np.ones(len(self.face_down), dtype=bool), np.zeros(len(self.face_down), dtype=bool)
        meant[[index[w] for w in self.meant]] = True
        out = []
        for k, word in enumerate(self.chosen):
            left[index[word]] = False
            last = k + 1 == len(self.chosen)
            if k + 1 >= len(self.meant) or not (meant & left).any() or (last and not self.stopped):
                break
            out.append((left.copy(), meant & left, last))
        return out

    def to_json(self) -> dict:
        return {"clue": self.clue, "face_down": list(self.face_down), "chosen": list(self.chosen),
                "kind": self.kind, **({"meant": list(self.meant)} if self.meant else {}),
                **({"stopped": True} if self.stopped else {})}

    @classmethod
    def from_json(cls, data: Any) -> Choice:
        """A choice from its JSON; ValueError when a field is missing or of another type (a bare
        string would pass for a list of letters)."""
        words = isinstance(data, Mapping) and all(
            isinstance(data.get(key, []), list) and all(isinstance(w, str) for w in data.get(key, []))
            for key in ("face_down", "chosen", "meant")) and "face_down" in data and "chosen" in data
        if not (words and isinstance(data.get("clue"), str) and isinstance(data.get("kind", ""), str)
                and isinstance(data.get("stopped", False), bool)):
            raise ValueError("not a choice: a clue, the cards face down and those chosen")
        return cls(data["clue"], tuple(data["face_down"]), tuple(data["chosen"]), data.get("kind", PICKS),
                   tuple(data.get("meant", ())), data.get("stopped", False))


def choice_data(values: Sequence[np.ndarray], choices: Sequence[Choice],
                stop: tuple[float, float] | None = None) -> Choices:
    """The events of `choices` (each its own board, its values cards × features) for the likelihood,
    and where they could have stopped, read by the law `stop` (`Fit.stop`; none when None)."""
    width = max(len(c.face_down) for c in choices)
    padded = np.zeros((len(choices), width, values[0].shape[-1]))
    boards, lefts, chosen = [], [], []
    chances: list[tuple[int, np.ndarray, np.ndarray, bool]] = []
    for b, (value, choice) in enumerate(zip(values, choices, strict=True)):
        padded[b, :len(value)] = value
        for left, k in choice.events():
            boards.append(b), chosen.append(k)
            lefts.append(np.pad(left, (0, width - len(left))))
        if stop is not None:
            chances += [(b, np.pad(left, (0, width - len(left))), np.pad(meant, (0, width - len(meant))),
                         stopped) for left, meant, stopped in choice.stop_chances()]
    stops = None
    if chances:
        board, left, meant, stopped = zip(*chances, strict=True)
        stops = Stops(np.array(board, dtype=int), np.array(left), np.array(meant), np.array(stopped), stop)
    return Choices(padded, np.array(boards, dtype=int), np.array(lefts, dtype=bool).reshape(-1, width),
                   np.array(chosen, dtype=int), np.ones(len(chosen)), stops)


def rank_log_chances(rows: np.ndarray, choice: Choice) -> np.ndarray:
    """The log-chance of each pick of `choice` under each reader's row (readers × its face-down
    cards), at each of `RANK_TEMPERATURES`, summed over the picks: readers × temperatures. A card
    ranks by how many of the cards left the row weighs more (tied cards share a rank)."""
    total = np.zeros((len(rows), len(RANK_TEMPERATURES)))
    tau = np.array(RANK_TEMPERATURES)
    for left, k in choice.events():
        kept = rows[:, left]                                                 # readers × cards left
        ranks = (kept[:, None, :] > kept[:, :, None]).sum(axis=2)            # readers × cards left
        chances = softmax(-ranks[..., None] / tau, axis=1)                   # readers × cards × τ
        picked = chances[:, int(left[:k].sum())]                            # readers × τ
        total += np.log((1 - LAPSE) * picked + LAPSE / left.sum())
    return total


class Bayes:
    """The posterior mode of a person's coefficients: the fitted model the prior, a Gaussian of
    precision `strength` in each feature's standardised unit (its spread over the cards the
    person has seen), every link at least zero."""

    name = "bayes"

    def __init__(self, strength: float = 3.0):
        self.strength = strength

    def __call__(self, model: PeopleModel, prior: np.ndarray, data: Choices,
                 start: np.ndarray | None = None) -> np.ndarray:
        if not len(data.chosen):
            return prior
        scale = scales(data.values[data.board][data.left])
        standard = data.scaled(scale)
        # Bounds of zero or none are the same in any unit; the last fit is a good start.
        return fit(standard, self.strength, monotone_bounds(model.features.names), prior * scale,
                   None if start is None else start * scale) / scale


class Experts:
    """The likeliest of a few readings of a person: the fitted model and its experts (each a
    model of people on one family of sources), weighed by `prior` (the fitted model's share;
    the experts share the rest) and the evidence."""

    name = "experts"

    def __init__(self, prior: float = 0.5):
        self.prior = prior
        self.posterior: dict[str, float] = {}

    def __call__(self, model: PeopleModel, prior: np.ndarray, data: Choices,
                 start: np.ndarray | None = None) -> np.ndarray:
        readings = {"people": prior, **{f: np.asarray(c, float) for f, c in model.fit.experts.items()}}
        shares = np.array([self.prior] + [(1 - self.prior) / max(1, len(readings) - 1)] * (len(readings) - 1))
        evidence = np.array([-negative_log_likelihood(beta, data, 0.0)[0] if len(data.chosen) else 0.0
                             for beta in readings.values()])
        log_posterior = np.log(shares) + evidence
        posterior = np.exp(log_posterior - log_posterior.max())
        self.posterior = dict(zip(readings, (posterior / posterior.sum()).tolist(), strict=True))
        return list(readings.values())[int(np.argmax(log_posterior))]


LEARNERS = {learner.name: learner for learner in (Bayes, Experts)}
DEFAULT_LEARNER = "bayes"


class Person:
    """One person as the AI comes to know them: a model of people of their own (`model`, whose
    coefficients move as they play), and the choices it was learnt from.

    The learner's coefficients are used only once they foresee this person clearly better than
    the model of people does (`gain`, `TRUST_MARGIN`): each new choice is read by both before it
    is learnt from, and the log-likelihoods' difference adds up. A partner who reads as people do
    teaches nothing to believe, and is read as people are. `learnt` resumes a person saved by
    `to_json` without fitting again.

    Its raw readers (`readers`, the matrices the model reads) are weighed on its picks alongside:
    each pick is scored by every reader (`heard`) and by the fitted model (`prior_heard`), and
    the captain plans for the reader that foresees them clearly better (`reader`). That is
    recomputed from the choices, never saved."""

    def __init__(self, model: PeopleModel, learner: Bayes | Experts | None = None,
                 choices: Sequence[Choice] = (), learnt: Mapping | None = None):
        self.model = PeopleModel(model.fit, model.features.readings)   # never the shared one
        self.prior = self.model.coefficients.astype(float)
        self.learner = learner or LEARNERS[DEFAULT_LEARNER]()
        self.readers: dict[str, Weights] = {name: model.features.readings[name] for name in READINGS
                                            if name in model.features.readings}
        self.choices: list[Choice] = []
        self.values: list[np.ndarray] = []
        self.heard: list[np.ndarray] = []        # per choice: readers × temperatures, log-chances
        self.prior_heard: list[float] = []       # per choice: the fitted model's log-chance
        self.learnt, self.gain = self.prior, 0.0
        for choice in choices:
            self.remember(choice)
        if not self.resume(learnt):
            self.relearn()

    def observe(self, choice: Choice) -> None:
        """Learn from one more choice: the model reads this person with it from the next turn."""
        if not self.remember(choice):
            return
        self.gain += self.foresight(self.learnt, choice_data(self.values[-1:], self.choices[-1:],
                                                             self.model.fit.stop))
        self.learnt = self.learner(self.model, self.prior, self.data(), self.learnt)
        self.use()

    def remember(self, choice: Choice) -> bool:
        """Keep a choice (the latest `KEPT`); whether it says anything (a card was chosen)."""
        if not choice.chosen:
            return False
        self.choices.append(choice)
        self.values.append(self.model.features([choice.clue], list(choice.face_down))[0])
        self.hear(choice)
        del self.choices[:-KEPT], self.values[:-KEPT], self.heard[:-KEPT], self.prior_heard[:-KEPT]
        return True

    def hear(self, choice: Choice) -> None:
        """Score the latest choice by every raw reader and by the fitted model: its picks only
        (a person's own hint is read by the model of people alone)."""
        if choice.kind != PICKS or not self.readers:
            self.heard.append(np.zeros((len(self.readers), len(RANK_TEMPERATURES))))
            self.prior_heard.append(0.0)
            return
        words = list(choice.face_down)
        rows = np.stack([reader.hint_row(choice.clue, words) for reader in self.readers.values()])
        self.heard.append(rank_log_chances(rows.astype(float), choice))
        logits = self.values[-1] @ self.prior   # the fitted model's own chances, people's strays too
        fit = self.model.fit
        self.prior_heard.append(sum(
            float(np.log(strayed(logits[left], fit.lapse, fit.flat)[int(left[:k].sum())]))
            for left, k in choice.events()))

    def reader_evidence(self) -> dict[str, tuple[float, float]]:
        """Each raw reader's log-likelihood of this person's picks over the temperatures (their
        mean), and its likeliest temperature."""
        total = (np.sum(self.heard, axis=0) if self.heard
                 else np.zeros((len(self.readers), len(RANK_TEMPERATURES))))            # readers × τ
        peak = total.max(axis=1, keepdims=True)
        marginal = peak[:, 0] + np.log(np.exp(total - peak).mean(axis=1))
        sharpest = np.array(RANK_TEMPERATURES)[total.argmax(axis=1)]
        return {name: (float(m), float(t))
                for name, m, t in zip(self.readers, marginal, sharpest, strict=True)}

    def reader(self) -> Weights | None:
        """The raw reader the captain plans for: the one that foresees this person's picks best,
        when it does by `SWITCH_MARGIN` nats over the model of people (the fitted one, or the learnt
        one by the gain it showed), over `SWITCH_PICKS` picks or more, and the person follows its
        order closely (`SHARP`); else None."""
        picks = sum(len(c.chosen) for c in self.choices if c.kind == PICKS)
        if not self.readers or picks < SWITCH_PICKS:
            return None
        evidence = self.reader_evidence()
        best = max(evidence, key=lambda name: evidence[name][0])
        heard, temperature = evidence[best]
        people = sum(self.prior_heard) + max(self.gain, 0.0)
        return self.readers[best] if heard - people >= SWITCH_MARGIN and temperature <= SHARP else None

    def foresight(self, beta: np.ndarray, data: Choices) -> float:
        """How much better `beta` foresees the choices of `data` than the prior: the log-likelihood gained."""
        return (negative_log_likelihood(self.prior, data, 0.0)[0]
                - negative_log_likelihood(beta, data, 0.0)[0])

    def data(self) -> Choices:
        return choice_data(self.values, self.choices, self.model.fit.stop)

    def use(self) -> None:
        """Read the person by what was learnt once it foresees them clearly better than the prior,
        and as straying from it as their picks say (`strays`)."""
        self.model.coefficients = np.asarray(self.learnt if self.trusted else self.prior, np.float32)
        self.model.lapse = self.strays()

    def strays(self) -> float:
        """How often this person's picks stray to the flatter reading of the model they are read
        by: the posterior mode over their picks, people's lapse the prior (`LAPSE_PRIOR` picks'
        worth), never below it."""
        fitted, flat = self.model.fit.lapse, self.model.fit.flat
        rows, chosen = self.pick_logits()
        if not len(rows) or fitted <= 0:   # a model that never strays: the prior's mass is at zero
            return fitted
        picked = np.arange(len(rows)), chosen
        sharp, loose = softmax(rows, axis=1)[picked], softmax(flattened(rows, flat), axis=1)[picked]
        a, b = LAPSE_PRIOR * fitted, LAPSE_PRIOR * (1 - fitted)   # a Beta prior at people's lapse
        # Every lapse on a fine grid at once: no optimiser to import when a profile is taken up.
        lapses = np.linspace(fitted, MOST_LAPSE, LAPSE_GRID)
        posterior = (np.log((1 - lapses[:, None]) * sharp + lapses[:, None] * loose).sum(axis=1)
                     + (a - 1) * np.log(lapses) + (b - 1) * np.log(1 - lapses))
        return float(lapses[np.argmax(posterior)])

    def stopping(self) -> tuple[int, int, float] | None:
        """How often this person stopped short of a hint's count, a card it meant still face
        down: (times, chances, how many times people would, by the model of people), once they
        have had `STOP_CHANCES` chances; else None."""
        data = self.data() if self.choices else None
        if data is None or data.stops is None or len(data.stops.board) < STOP_CHANCES:
            return None
        expected = stop_chances(self.prior, data.values, data.stops).sum()
        return int(data.stops.stopped.sum()), len(data.stops.board), float(expected)

    def pick_logits(self) -> tuple[np.ndarray, np.ndarray]:
        """Every pick of this person's, read by their model now: the logits over the cards still
        face down (padded with -inf), picks × cards, and the card picked."""
        width = max((len(c.face_down) for c in self.choices), default=0)
        rows, chosen = [], []
        for choice, values in zip(self.choices, self.values, strict=True):
            if choice.kind != PICKS:
                continue
            logits = values @ self.model.coefficients
            for left, k in choice.events():
                rows.append(np.pad(np.where(left, logits, -np.inf), (0, width - len(left)),
                                   constant_values=-np.inf))
                chosen.append(k)
        return np.array(rows, dtype=float).reshape(len(rows), width), np.array(chosen, dtype=int)

    @property
    def trusted(self) -> bool:
        """Whether what was learnt has foreseen this person clearly better than the prior (`TRUST_MARGIN`)."""
        return self.gain > TRUST_MARGIN

    def relearn(self) -> None:
        """Learn from every choice at once; the gain, held out: two halves of the choices (alternate
        ones), each read by what the other half taught."""
        if not self.choices:
            self.learnt, self.gain = self.prior, 0.0
        else:
            data, half = self.data(), np.arange(len(self.choices)) % 2
            self.gain = 0.0
            for fold in (0, 1):
                taught, held = (half[data.board] != fold), (half[data.board] == fold)
                if taught.any() and held.any():
                    beta = self.learner(self.model, self.prior, data.subset(np.flatnonzero(taught)))
                    self.gain += self.foresight(beta, data.subset(np.flatnonzero(held)))
            self.learnt = self.learner(self.model, self.prior, data)
        self.use()

    def resume(self, learnt: Mapping | None) -> bool:
        """Take up what `to_json` saved, if it was learnt from these choices on these features."""
        try:
            if (learnt is None or learnt["features"] != list(self.model.features.names)
                    or learnt["choices"] != len(self.choices)
                    or len(learnt["coefficients"]) != len(self.prior)):
                return False
            self.learnt = np.array(learnt["coefficients"], dtype=float)
            self.gain = float(learnt["gain"])
        except (KeyError, TypeError, ValueError):
            return False
        if not np.isfinite(self.learnt).all() or not np.isfinite(self.gain):
            self.learnt, self.gain = self.prior, 0.0
            return False
        self.use()
        return True

    def weights(self) -> tuple[dict[str, float], dict[str, float]]:
        """Each family's standardised weight (its coefficients times its features' spread over the
        cards this person has seen), in the model of people and in this person's: (prior, learnt)."""
        flat = np.concatenate([v.reshape(-1, v.shape[-1]) for v in self.values])
        spread = flat.std(axis=0)
        family = [SOURCES[reading].family if reading in SOURCES else None
                  for reading, _ in map(parse_feature, self.model.features.names)]
        prior, learnt = {}, {}
        for name in dict.fromkeys(f for f in family if f):
            members = np.array([f == name for f in family])
            prior[name] = float(np.abs(self.prior[members] * spread[members]).sum())
            learnt[name] = float(np.abs(self.model.coefficients[members] * spread[members]).sum())
        return prior, learnt

    def leanings(self) -> dict[str, float]:
        """How much this person leans on each family of sources against people on average (1: as
        much; 2: twice as much): the family's share of the standardised weight, over its share in
        the model of people. A person who reads every clue more surely weighs every family more,
        and leans on none the more for it."""
        if not self.values:
            return {}
        prior, learnt = self.weights()
        total_prior, total_learnt = sum(prior.values()), sum(learnt.values())
        return {f: (learnt[f] / total_learnt) / (prior[f] / total_prior)
                for f in prior if prior[f] > 0 and total_learnt > 0}

    def describe(self) -> list[str]:
        """What the AI has learnt of this person, in plain words, a line each."""
        if not self.choices:
            return [NOTHING_YET]
        picks = sum(c.kind == PICKS for c in self.choices)
        lines = [f"Learnt from {picks} of your readings of its hints and {len(self.choices) - picks} "
                 "of your own hints."]
        if (reader := self.reader()) is not None:
            said = SOURCES[reader.name].reader if reader.name in SOURCES else reader.name
            lines.append(f"You read its hints by {said}: it plans its hints for that reading.")
        if (stopped := self.stopping()) is not None:
            taken, chances, expected = stopped
            lines.append(f"You stopped short of its count at {taken} of {chances} chances, where people "
                         f"would at about {expected:.0f}: it reads a card you left as one you did not see.")
        if self.model.lapse >= self.model.fit.lapse + LAPSE_STEP:
            lines.append(f"You go elsewhere than people would more often ({100 * self.model.lapse:.0f}% of "
                         f"your picks, against {100 * self.model.fit.lapse:.0f}%): it gives you hints "
                         "that are harder to miss.")
        if not self.trusted:
            return lines if reader is not None else [*lines, UNSURE]
        for family, ratio in sorted(self.leanings().items(), key=lambda item: -item[1]):
            how = ("more than most people" if ratio >= 1.25 else "less than most people" if ratio <= 0.8
                   else "about as much as most people")
            lines.append(f"You follow {FAMILIES[family]} {how} (x{ratio:.1f}).")
        return lines

    def to_json(self) -> dict:
        """The choices, and what was learnt from them (`resume`: a cache, never the evidence)."""
        return {"choices": [c.to_json() for c in self.choices],
                "learnt": {"features": list(self.model.features.names), "choices": len(self.choices),
                           "coefficients": [round(float(c), 6) for c in self.learnt],
                           "gain": round(self.gain, 6)}}

