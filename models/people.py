"""The model of people: how a person reads a clue, fitted to people playing Codenames.

A conditional logit (a softmax over the face-down cards) whose features are what
the AI's matrices say of the clue and each card, the card's word frequency, and
the board context: how a card stands among the others for the clue (its z-score,
whether it is the best, by how much). Its coefficients are fitted by maximum
likelihood to people's play (lab/evaluation/people_fit.py) and committed in
data/people.json; nothing is fitted at play time.

The same model reads a person's clue for the AI agent, and is the partner the
captain plans for when its agent is a person.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from board import Board, Color
from common import PACKAGE_DATA
from models.agents import Agent
from models.chances import strayed
from models.hints import Hint, zipf
from models.likelihood import FREQUENCY  # the card word's wordfreq Zipf frequency, over 8
from models.phrases import PHRASE_LINK, compounds, known_phrases
from models.weights import Weights

PEOPLE_PATH = PACKAGE_DATA / "people.json"

# The matrices a feature may read, by initializer name. Norms are raw strengths of a few
# people out of a hundred: heavy-tailed, so they enter as square roots.
READINGS = ("sbert", "fasttext", "double_link", "word_collocations", "sentence_collocations",
            "association", "eat", "phrases", "known_phrases", "wordnet")
ROOTED = frozenset({"association", "eat"})
# A phrase is one link whatever its length, as the model was fitted (the phrases matrix's weaker
# link for two words of a longer phrase is the sight's: decision 0058).
ONE_LINK = frozenset({"phrases", "known_phrases"})
# A reading made from others: the phrases a person knows (models/phrases.py), from the phrases
# matrix and the norms at hand.
KNOWN_PHRASES, NORMS = "known_phrases", ("association", "eat")
# How a card stands among the face-down cards for a clue, under one reading (`in_context`).
CONTEXTS = ("z", "top", "lead", "rank", "over", "cap")
# The contexts that bend a reading's own scale at a knot, named with it: "sbert~over@0.4".
KNOTTED = frozenset({"over", "cap"})


@dataclass(frozen=True)
class Source:
    """A reading in plain words: the family of sources a person leans on when they read by it, its
    link between a clue and a card as a person would say it (`PeopleModel.links`), and how a person
    who reads by it alone reads (`Person.describe`; None: no one reads by it alone)."""

    family: str
    link: str
    reader: str | None = None


# The one table of the readings and their families.
SOURCES: dict[str, Source] = {
    "sbert": Source("meaning", "close in meaning", "closeness in meaning, as SBERT reads it"),
    "fasttext": Source("meaning", "used in the same places in books",
                       "closeness in meaning, as fastText reads it"),
    "wordnet": Source("meaning", "linked in a dictionary (a kind of, a part of, defined with)",
                      "what a dictionary says of the words"),
    "double_link": Source("books", "linked through a word both bring to mind",
                          "a word both the clue and the card bring to mind"),
    "word_collocations": Source("books", "said side by side", "words said side by side in books"),
    "sentence_collocations": Source("books", "found in the same sentences",
                                    "words found in the same sentences in books"),
    "association": Source("norms", "what people say first when they hear it (USF)",
                          "the first word a clue brings to mind, as the USF norms say"),
    "eat": Source("norms", "what people say first when they hear it (EAT)",
                  "the first word a clue brings to mind, as the EAT norms say"),
    "phrases": Source("phrases", "said together as one thing (WordNet)", "phrases and compound words"),
    "known_phrases": Source("phrases", "said together as one thing, a phrase people know"),
}
# Each family as a person says it.
FAMILIES = {"meaning": "closeness in meaning", "books": "words found together in books",
            "norms": "the first word a clue brings to mind", "phrases": "phrases and compound words"}


def parse_feature(name: str) -> tuple[str, str | None]:
    """`"sbert~z"` → ("sbert", "z"); `"sbert~over@0.4"` → ("sbert", "over@0.4"); `"sbert"` →
    ("sbert", None)."""
    reading, _, context = name.partition("~")
    if reading != FREQUENCY and reading not in READINGS:
        raise ValueError(f"unknown reading {reading!r} in feature {name!r}")
    kind, at, knot = context.partition("@")
    if context and (kind not in CONTEXTS or (kind in KNOTTED) != bool(at) or at and not is_number(knot)):
        raise ValueError(f"unknown board context {context!r} in feature {name!r}")
    return reading, context or None


def is_number(text: str) -> bool:
    """Whether `text` reads as a number (a knot on a reading's scale)."""
    try:
        float(text)
    except ValueError:
        return False
    return True


# Every context is a non-decreasing function of the card's own link (the others' held still), so
# that a non-negative coefficient keeps the model monotone in every link (`monotone_bounds`).

def z_score(rows: np.ndarray) -> np.ndarray:
    """How far the card's link stands above the mean of the face-down cards', in their spreads
    (non-decreasing in its own: a z-score's square is at most cards − 1)."""
    spread = rows.std(axis=1, keepdims=True)
    return np.where(spread > 0, (rows - rows.mean(axis=1, keepdims=True)) / np.where(spread > 0, spread, 1),
                    0.0).astype(np.float32)


def best(rows: np.ndarray) -> np.ndarray:
    """Whether the card's link is the strongest of the face-down cards' (silence is no best card)."""
    most = rows.max(axis=1, keepdims=True)
    return ((rows >= most) & (most > 0)).astype(np.float32)


def lead(rows: np.ndarray) -> np.ndarray:
    """For the strongest card, by how much its link beats the next; zero for the others."""
    ranked = np.sort(rows, axis=1)
    most = ranked[:, -1:]
    second = ranked[:, -2:-1] if rows.shape[1] > 1 else np.zeros_like(most)
    return np.where((rows >= most) & (most > 0), most - second, 0.0).astype(np.float32)


def card_ranks(reading: np.ndarray, count: int) -> np.ndarray:
    """Each of the first `count` columns' rank in its row of `reading` (hints × card words; 0: the
    strongest): how near the hint puts each board card among every card word."""
    return (reading[:, None, :] > reading[:, :count, None]).sum(axis=2)


def inverse_rank(rows: np.ndarray) -> np.ndarray:
    """1 / the card's rank among the face-down cards by its link (1 for the strongest, ties
    sharing the better rank); zero for a card the reading does not link at all."""
    return np.where(rows > 0, 1.0 / (1 + card_ranks(rows, rows.shape[1])), 0.0).astype(np.float32)


def over(rows: np.ndarray, knot: float) -> np.ndarray:
    """How far the link goes past `knot` (zero below it): a steeper slope for strong links."""
    return np.maximum(rows - np.float32(knot), 0.0).astype(np.float32)


def capped(rows: np.ndarray, knot: float) -> np.ndarray:
    """The link up to `knot` (flat above it): a steeper slope for weak links."""
    return np.minimum(rows, np.float32(knot)).astype(np.float32)


def in_context(rows: np.ndarray, context: str | None) -> np.ndarray:
    """A reading's rows (clues × cards) as one board context sees them (`CONTEXTS`)."""
    if context is None:
        return rows
    kind, _, knot = context.partition("@")
    if kind in KNOTTED:
        return (over if kind == "over" else capped)(rows, float(knot))
    return {"z": z_score, "top": best, "lead": lead, "rank": inverse_rank}[kind](rows)


def card_frequency(words: Sequence[str]) -> np.ndarray:
    """Each card word's Zipf frequency over 8 (about 0 to 1)."""
    return (zipf(words) / 8).astype(np.float32)


class Features:
    """Feature values (clues × cards × features) from the matrices at hand."""

    def __init__(self, names: Sequence[str], readings: Mapping[str, Weights]):
        self.names = tuple(names)
        self.parsed = [parse_feature(n) for n in self.names]
        self.at_hand = frozenset(readings)
        needed = self.matrices()
        if missing := needed - self.at_hand:
            raise KeyError(f"no matrix for {', '.join(sorted(missing))}")
        self.readings = {name: readings[name] for name in needed}

    def read(self, only: np.ndarray | None = None) -> set[str]:
        """The readings the features read (or those `only` names, by index)."""
        chosen = self.parsed if only is None else [self.parsed[k] for k in only]
        return {r for r, _ in chosen if r != FREQUENCY}

    def matrices(self, only: np.ndarray | None = None) -> set[str]:
        """The matrices the features read (or those `only` names): the phrases a person knows are
        made from the phrases matrix, and the norms when at hand."""
        read = self.read(only)
        if KNOWN_PHRASES in read:
            read = read - {KNOWN_PHRASES} | {"phrases"} | (set(NORMS) & self.at_hand)
        return read

    def __call__(self, clues: Sequence[str], words: Sequence[str],
                 only: np.ndarray | None = None) -> np.ndarray:
        """clues × cards × features (or the features `only` names, by index); only the matrices
        those read are read."""
        needed = self.matrices(only)
        rows = {name: w.own_rows(list(clues), list(words)) for name, w in self.readings.items()
                if name in needed}
        return self.assemble(self.with_known_phrases(rows, list(clues), words, only=only), words, only)

    def board(self, words: Sequence[str], only: np.ndarray | None = None) -> np.ndarray:
        """The values for every hint of the vocabulary (the readings share one): hints × cards ×
        features (or the features `only` names, by index)."""
        needed = self.matrices(only)
        rows = {name: w.board_matrix(list(words)) for name, w in self.readings.items()
                if name in needed}
        if KNOWN_PHRASES not in self.read(only):
            return self.assemble(rows, words, only)
        phrases = self.readings["phrases"]
        return self.assemble(self.with_known_phrases(rows, phrases.hints, words, phrases.hint_index,
                                                     only), words, only)

    def with_known_phrases(self, rows: dict[str, np.ndarray], hints: Sequence[str],
                           words: Sequence[str], index: Mapping[str, int] | None = None,
                           only: np.ndarray | None = None) -> dict[str, np.ndarray]:
        """`rows` with the phrases a person knows (`KNOWN_PHRASES`), when a feature (of those
        `only` names) reads them."""
        if KNOWN_PHRASES in self.read(only):
            said = [rows[n] for n in NORMS if n in rows]
            rows[KNOWN_PHRASES] = known_phrases(rows["phrases"], np.maximum.reduce(said) if said else None,
                                                compounds(hints, words, index))
        return rows

    def assemble(self, rows: Mapping[str, np.ndarray], words: Sequence[str],
                 only: np.ndarray | None = None) -> np.ndarray:
        """The values from each reading's own rows (not its backoff's: a silent source says nothing),
        of every feature or those `only` names."""
        rows = {name: np.sqrt(np.maximum(r, 0.0)) if name in ROOTED
                else (np.asarray(r) > PHRASE_LINK).astype(np.float32) if name in ONE_LINK
                else np.asarray(r, np.float32) for name, r in rows.items()}
        shape = next(iter(rows.values())).shape if rows else (1, len(words))
        chosen = range(len(self.names)) if only is None else only
        values = np.empty((*shape, len(chosen)), dtype=np.float32)
        for k, feature in enumerate(chosen):
            reading, context = self.parsed[feature]
            values[..., k] = (card_frequency(words)[None] if reading == FREQUENCY
                              else in_context(rows[reading], context))
        return values


def matrices_needed(features: Sequence[str]) -> frozenset[str]:
    """The matrices that features need: the phrases a person knows are made from the phrases
    matrix (and the norms, when at hand: a variant that plays without them is fitted without them)."""
    return frozenset("phrases" if r == KNOWN_PHRASES else r
                     for r, _ in map(parse_feature, features) if r != FREQUENCY)


@dataclass(frozen=True)
class Fit:
    """A fitted variant of the model: its features, their coefficients (per unit of each
    feature), and what it was fitted on."""

    name: str
    features: tuple[str, ...]
    coefficients: tuple[float, ...]
    l2: float = 0.0
    about: str = ""
    # Models of people on one family of sources each (by family), the same features: the readings
    # a person is weighed among (models/person.py, `Experts`).
    experts: Mapping[str, tuple[float, ...]] = field(default_factory=dict)
    # Where the logits are surest, people still go elsewhere now and then: `lapse` of their picks
    # follow `flat` times the logits (fitted on held-out clicks, `models.chances.strayed`).
    lapse: float = 0.0
    flat: float = 1.0
    # Where a guesser stops short of the count: sigmoid(a + b · log p), p the model's chance of
    # the card meant left (`models.likelihood.Stops`); None: their stops teach nothing.
    stop: tuple[float, float] | None = None

    @property
    def readings(self) -> frozenset[str]:
        """The matrices this variant needs."""
        return matrices_needed(self.features)

    def to_json(self) -> dict:
        return {"name": self.name, "features": list(self.features),
                "coefficients": [round(c, 6) for c in self.coefficients], "l2": self.l2,
                "about": self.about,
                "experts": {f: [round(c, 6) for c in beta] for f, beta in self.experts.items()},
                "lapse": round(self.lapse, 4), "flat": round(self.flat, 4),
                **({} if self.stop is None else {"stop": [round(v, 4) for v in self.stop]})}

    @classmethod
    def from_json(cls, data: Mapping) -> Fit:
        return cls(data["name"], tuple(data["features"]), tuple(map(float, data["coefficients"])),
                   float(data.get("l2", 0.0)), data.get("about", ""),
                   {f: tuple(map(float, beta)) for f, beta in data.get("experts", {}).items()},
                   float(data.get("lapse", 0.0)), float(data.get("flat", 1.0)),
                   None if data.get("stop") is None else (float(data["stop"][0]), float(data["stop"][1])))


def load_fits(path: Path = PEOPLE_PATH) -> list[Fit]:
    """The committed variants, richest first."""
    with open(path, encoding="utf-8") as handle:
        return [Fit.from_json(v) for v in json.load(handle)["variants"]]


def best_fit(readings: Mapping[str, Weights], fits: Sequence[Fit] | None = None) -> Fit:
    """The richest variant whose matrices are all at hand (the embedded one needs SBERT only)."""
    fits = load_fits() if fits is None else fits
    for fit in fits:
        if fit.readings <= set(readings):
            return fit
    raise LookupError("no variant of the model of people fits the matrices at hand "
                      f"({', '.join(sorted(readings)) or 'none'})")


class PeopleModel:
    """How a person reads a clue: logits over the face-down cards (a softmax of them is the
    chance that a person picks each card first); a reader (models/reader.py)."""

    name = "people"

    def __init__(self, fit: Fit, readings: Mapping[str, Weights]):
        self.fit = fit
        self.features = Features(fit.features, readings)
        self.coefficients = np.asarray(fit.coefficients, dtype=np.float32)
        # How often picks stray to the flatter reading: people's (`Fit.lapse`), or one person's
        # as the AI learns them (models/person.py sets both in place, as the coefficients).
        self.lapse, self.flat = fit.lapse, fit.flat

    @classmethod
    def of(cls, readings: Mapping[str, Weights] | Sequence[Weights], fits: Sequence[Fit] | None = None
           ) -> PeopleModel:
        """The richest committed variant that the matrices allow (the catalog has said which
        sources are missing, in one line each)."""
        if not isinstance(readings, Mapping):
            readings = {w.name: w for w in readings}
        fits = load_fits() if fits is None else fits
        if not any(fit.readings <= set(readings) for fit in fits) and readings:
            # A matrix no variant knows (a user's, a test's) is read as the embedded one reads SBERT.
            readings = {"sbert": next(iter(readings.values()))}
        return cls(best_fit(readings, fits), readings)

    def logits(self, clues: Sequence[str], words: Sequence[str]) -> np.ndarray:
        """clues × cards: each card's logit for each clue."""
        weighed = self.weighed
        return self.features(clues, words, weighed) @ self.coefficients[weighed]

    def board_logits(self, words: Sequence[str]) -> np.ndarray:
        """Every hint of the vocabulary × cards: the logits of `logits`, all at once."""
        weighed = self.weighed
        return self.features.board(words, weighed) @ self.coefficients[weighed]

    @property
    def weighed(self) -> np.ndarray:
        """The features the coefficients weigh (not zero), by index: the monotone fit leaves a
        third of them at zero, and a hint's first reading of the board assembles only these."""
        return np.flatnonzero(self.coefficients)

    def links(self, clue: str, words: Sequence[str], targets: Sequence[str]) -> dict[str, str]:
        """For each target, in plain words, the link that counts most for a person reading the
        clue: the reading whose own feature adds most to the target's logit."""
        values = self.features([clue], list(words))[0] * self.coefficients       # cards × features
        readings = [r for r, _ in self.features.parsed]
        said = {}
        for target in targets:
            row = values[list(words).index(target)]
            best: dict[str, float] = {}
            for reading, value in zip(readings, row, strict=True):
                if reading in SOURCES:
                    best[reading] = best.get(reading, 0.0) + float(value)
            strongest = max(best, key=best.get) if best else None
            said[target] = SOURCES[strongest].link if strongest and best[strongest] > 0 else "a guess"
        return said

    def chances(self, clue: str, words: Sequence[str]) -> np.ndarray:
        """The chance that a person picks each card first for the clue."""
        return self.strayed(self.logits([clue], words)[0])

    def strayed(self, logits: np.ndarray) -> np.ndarray:
        """Chances from the model's logits, with the picks people make where it is surest of
        another (`lapse`)."""
        return strayed(logits, self.lapse, self.flat)


# The captain simulates a reader as a softmax of its rows over its temperature: a reading's rows
# are the model's logits times this, so that the captain's usual temperature is the model's own.
PEOPLE_TEMPERATURE = 0.02


class PeopleReading:
    """A `Weights` as a person reads it: its rows (`hint_rows`, `own_rows`, `board_matrix`) are
    the model's logits times `PEOPLE_TEMPERATURE`; everything else is the matrix's own."""

    def __init__(self, weights: Weights, model: PeopleModel):
        self.weights, self.model = weights, model
        self.name = "people"

    def __getattr__(self, name: str):
        return getattr(self.weights, name)

    def hint_row(self, hint: str, words: Sequence[str]) -> np.ndarray:
        return self.hint_rows([hint], words)[0]

    def hint_rows(self, hints: Sequence[str], words: Sequence[str]) -> np.ndarray:
        return np.float32(PEOPLE_TEMPERATURE) * self.model.logits(hints, words)

    def own_rows(self, hints: Sequence[str], words: Sequence[str]) -> np.ndarray:
        return self.hint_rows(hints, words)

    def board_matrix(self, words: Sequence[str]) -> np.ndarray:
        return np.float32(PEOPLE_TEMPERATURE) * self.model.board_logits(words)

    backoff = None


# A careful person stops when the next card is less likely than this to be the one the clue
# meant, and takes a bonus card for an earlier clue only when it is at least this likely.
STOP_BELOW, BONUS_ABOVE = 0.0, 0.6


class PeopleAgent(Agent):
    """The agent that reads a clue as people do (`PeopleModel`): the likeliest card first,
    `count` guesses unless the next card falls below `stop_below` of the model's chance, and
    the bonus guess only for an earlier clue whose card stands out (`bonus_above`)."""

    name = "people"

    def __init__(self, weights: Weights, partners: Sequence[Weights] = (), *,
                 model: PeopleModel | None = None, stop_below: float = STOP_BELOW,
                 bonus_above: float = BONUS_ABOVE, **options):
        model = model or PeopleModel.of([weights, *partners])
        options = {"chance": 1.0, "temperature": PEOPLE_TEMPERATURE, **options}   # its own softmax
        super().__init__(PeopleReading(weights, model), partners, **options)
        self.model, self.stop_below, self.bonus_above = model, stop_below, bonus_above

    def stop(self, column: np.ndarray, hint: Hint) -> bool:
        return self.chances(column).max() < self.stop_below

    def chances(self, column: np.ndarray) -> np.ndarray:
        """The model's chances from a reading's column (its logits times PEOPLE_TEMPERATURE), as
        people stray (`Fit.lapse`): how often one person strays when guessing says nothing of the
        cards their own clue meant."""
        fit = self.model.fit
        return strayed(column.astype(np.float64) / PEOPLE_TEMPERATURE, fit.lapse, fit.flat)

    def bonus(self, board: Board, team: Color) -> str | None:
        for memory in self.remembered[:-1]:
            words = memory.candidates(board, team)
            if memory.outstanding(board, team) == 0 or not words:
                continue
            chances = self.chances(self.weights.hint_row(memory.hint.word, words))
            best = words[int(chances.argmax())]
            if chances.max() >= self.bonus_above and not board.card(best).revealed:
                return best
        return None
