"""Models of people built from data the captain does not read as its own voice: the guessers of
the bench's human-model tier.

Each is a conditional logit (evaluation/people_fit.py) fitted to people's play in
the human Duet record, over a foreign word-vector cosine (foreign/vectors.py: mpnet,
GloVe) in its board context and the card's word frequency; the GloVe one also hears
the association norms, which are measurements of people. A guesser samples its
picks from the model's chances, as people vary, and makes `count` guesses (one for
0 or unlimited): people rarely take the bonus guess.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from board import Board, Color, deal
from common import progress
from evaluation import people_fit
from evaluation.games import play_solo
from evaluation.human_duet import available, folder, read_turns
from evaluation.runner import run_all
from evaluation.stats import count_table, pooled, summarize
from evaluation.tables import fmt, heading, ran, table
from foreign.agent import scores
from foreign.vectors import SOURCES, Vectors, load
from model import AI, Hint, Weights, zipf
from models.chances import softmax
from models.people import CONTEXTS, ROOTED, card_frequency, in_context

# guesser name → (foreign vectors, whether it hears the norms)
GUESSERS: dict[str, tuple[str, bool]] = {"mpnet-people": ("mpnet", False),
                                         "glove-people": ("glove", True)}
NORMS = ("association", "eat")


class StrangerFeatures:
    """(clues × cards × features) from foreign vectors, the card's frequency, and the norms if given."""

    def __init__(self, vectors: Vectors, norms: Mapping[str, Weights] | None = None):
        self.vectors = vectors
        self.norms = {n: w.without_backoff() for n, w in (norms or {}).items()}
        self.names = ("cos", *(f"cos~{c}" for c in CONTEXTS), "zipf", *self.norms)

    def __call__(self, clues: Sequence[str], words: Sequence[str]) -> np.ndarray:
        cos = np.stack([scores(self.vectors, clue, list(words)) for clue in clues])
        parts = [cos, *(in_context(cos, c) for c in CONTEXTS),
                 np.broadcast_to(card_frequency(words), cos.shape)]
        for name, norm in self.norms.items():
            rows = np.asarray(norm.own_rows(list(clues), list(words)), dtype=np.float32)
            parts.append(np.sqrt(np.maximum(rows, 0.0)) if name in ROOTED else rows)
        return np.stack(parts, axis=-1).astype(np.float32)


@dataclass
class FittedGuesser:
    """A model of a person guessing: the fitted logit's chances, sampled (or its best card)."""

    name: str
    features: StrangerFeatures
    coefficients: np.ndarray
    sample: bool = False

    def guess(self, board: Board, hint: Hint, guessed: int, rng: np.random.Generator,
              team: Color | None = None) -> str | None:
        if guessed >= (hint.count or 1):
            return None
        words = board.unrevealed_words()
        logits = self.features([hint.word], words)[0] @ self.coefficients
        if not self.sample:
            return words[int(np.argmax(logits))]
        return words[int(rng.choice(len(words), p=softmax(logits.astype(np.float64))))]


def stranger_features(name: str, norms: Mapping[str, Weights]) -> StrangerFeatures:
    vectors_name, hears_norms = GUESSERS[name]
    heard = {n: norms[n] for n in NORMS if n in norms} if hears_norms else {}
    return StrangerFeatures(load(vectors_name), heard)


def fit_guesser(name: str, sources: Path, norms: Mapping[str, Weights], sample: bool = False
                ) -> FittedGuesser:
    """A guesser fitted on the whole record (the penalty chosen by cross-validation by game)."""
    turns = list(read_turns(sources))
    features = stranger_features(name, norms)
    values = people_fit.turn_values(turns, features)
    beta, _ = people_fit.fit_penalised(turns, values, people_fit.SIGNALS, np.ones(len(turns), dtype=bool))
    return FittedGuesser(name, features, beta.astype(np.float32), sample)


def agreement(name: str, sources: Path, norms: Mapping[str, Weights]) -> dict[str, float]:
    """How often the guesser's best card is a target, and an assassin, on the record,
    cross-validated by game: each turn read by the model fitted without its game."""
    turns = list(read_turns(sources))
    values = people_fit.turn_values(turns, stranger_features(name, norms))
    logits, _ = people_fit.cross_validated_logits(turns, values, people_fit.SIGNALS)
    return people_fit.first_pick_rates(turns, logits)


# --- the bench's human-model tier ------------------------------------------------------------

RULE = ("One team alone (9 own, 8 opponent, 7 neutral, 1 assassin), count+1 guesses allowed; the "
        "guesser turns over the face-down card its fitted model ranks first, `count` times (one "
        "for 0 or unlimited), and stops; score = hints to find all own cards, 25 on a loss.")


def game_ai(setup, names: Sequence[str] | None = None) -> AI:
    """The game's AI on the loaded matrices (or those `names` them: the embedded default's, say):
    the default matrix, every other one a partner."""
    from evaluation.foreign_tier import default_initializer

    loaded = {n: w for n, w in setup.weights.items() if names is None or n in names}
    own = default_initializer(loaded)
    return AI(loaded[own], partners=[w for n, w in loaded.items() if n != own])


def tier_games(setup, item: tuple, tick: Callable[[], None] = lambda: None) -> list:
    """The game's captain, planning for a person, with one fitted guesser on every seed's board."""
    name, coefficients, ai_names = item
    guesser = FittedGuesser(name, stranger_features(name, setup.weights), np.array(coefficients, np.float32))
    ai, games = game_ai(setup, ai_names), []
    for seed in setup.seeds:
        board, rng = deal(seed, setup.words)
        games.append(play_solo(board, board.starting_team, ai.captain(alone=True), guesser, rng, seed))
        tick()
    return games


def run(setup, sources: Path, jobs=1, ai_names: Sequence[str] | None = None) -> dict:
    """Fit the guessers, measure their agreement with people, play the tier; or why it was skipped.
    `ai_names`: the matrices the game's AI may read (default: all loaded; the guessers hear all)."""
    if not available(sources):
        return {"skipped": f"no human Duet record in {folder(sources)}"}
    names = [n for n in GUESSERS if SOURCES[GUESSERS[n][0]].installed()]
    if not names:
        return {"skipped": "no foreign vectors installed (pip install -r requirements-dev.txt)"}
    items, agreements = [], {}
    for name in names:
        guesser = fit_guesser(name, sources, setup.weights)
        items.append((name, tuple(float(b) for b in guesser.coefficients),
                      None if ai_names is None else tuple(ai_names)))
        agreements[name] = agreement(name, sources, setup.weights)
    with progress(total=len(items) * len(setup.seeds), desc="bench: human-model tier", unit="game",
                  mininterval=1.0, dynamic_ncols=True) as bar:
        games = run_all(setup, tier_games, items, bar, jobs)
    rows = [{"guesser": name, "agreement": agreements[name], **summarize(count_table(games[item])),
             **vocabulary(games[item])} for name, item in zip(names, items, strict=True)]
    pooled_games = [g for item in items for g in games[item]]
    return {"rule": RULE, "captain": "the game's (AI.captain: it plans for a person)",
            "guessers": rows, "pooled": {**summarize(pooled([count_table(games[i]) for i in items])),
                                         **vocabulary(pooled_games)}}


def vocabulary(games: Sequence) -> dict[str, float]:
    """The hints given in these games: their median Zipf frequency, the share at 4 or more."""
    frequencies = zipf([h.word for g in games for h in g.hints])
    if not len(frequencies):
        return {"hint_zipf_median": float("nan"), "hints_zipf_4": float("nan")}
    return {"hint_zipf_median": float(np.median(frequencies)),
            "hints_zipf_4": float(np.mean(frequencies >= 4))}


def markdown(section: dict | None) -> list[str]:
    """The tier's part of the report."""
    lines = heading("Headline: human-model tier, single team", section)
    if not ran(section):
        return lines
    lines += ["Guessers fitted to people's play in the human Duet record (evaluation/human_models.py: "
              "a conditional logit over a foreign cosine, mpnet or GloVe, in its board context and the "
              "card's frequency; the GloVe one also hears the USF and EAT norms), playing with "
              f"{section['captain']}. {RULE} 95% bootstrap intervals over boards. Agreement with "
              "people: the guesser's best card on the record's turns, cross-validated by game "
              "(people 84.5%).", ""]
    header = ["guesser", "first pick a target (people's turns)", "on an assassin", "games", "win rate",
              "assassin losses", "mean score", "hints on wins", "hints' median Zipf", "hints at Zipf 4+"]

    def row(name: str, g: dict, agreement: dict | None) -> list:
        said = ["—", "—"] if agreement is None else [f"{100 * agreement['target']:.1f}%",
                                                      f"{100 * agreement['assassin']:.1f}%"]
        return [name, *said, g["games"], fmt(g["win_rate"], "rate"), fmt(g["assassin_rate"], "rate"),
                fmt(g["mean_score"], "mean"), fmt(g["turns_on_wins"], "mean"),
                f"{g['hint_zipf_median']:.2f}", f"{100 * g['hints_zipf_4']:.0f}%"]

    rows = [row("**all guessers**", section["pooled"], None)]
    rows += [row(g["guesser"], g, g["agreement"]) for g in section["guessers"]]
    return lines + table(header, rows) + [""]


def headline(section: dict | None) -> str | None:
    """One line for the terminal."""
    if not section or "pooled" not in section:
        return None
    p = section["pooled"]
    guessers = ", ".join(g["guesser"] for g in section["guessers"])
    return (f"human-model tier (the game's captain with {guessers}): "
            f"win rate {fmt(p['win_rate'], 'rate')}, assassin {fmt(p['assassin_rate'], 'rate')}, "
            f"mean score {fmt(p['mean_score'], 'mean')}, hints' median Zipf {p['hint_zipf_median']:.2f}")
