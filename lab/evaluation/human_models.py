"""Models of people built from data the captain does not read as its own voice: the guessers of
the bench's human-model tier.

Each is a conditional logit (lab/evaluation/people_fit.py) fitted to people's play in
the human Duet record, over a foreign word-vector cosine (lab/foreign/vectors.py: mpnet,
GloVe) in its board context and the card's word frequency: nothing the captain reads as its
own voice. The fit is monotone (a closer card is never less likely), so a captain that searches
10,000 hints finds no spot where the judge says the opposite of its features. A guesser samples
its picks from the model's chances, as people vary, and makes `count` guesses (one for
0 or unlimited): people rarely take the bonus guess.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from board import ASSASSIN, Board, Color, deal
from common import progress
from lab.evaluation import people_fit
from lab.evaluation.games import play_solo
from lab.evaluation.human_duet import available, folder, read_turns
from lab.evaluation.runner import run_all
from lab.evaluation.sight import Sight
from lab.evaluation.stats import count_table, pooled, summarize
from lab.evaluation.tables import fmt, heading, ran, table
from lab.foreign.agent import UNKNOWN_CARD, hint_vector, spelling_scores
from lab.foreign.vectors import SOURCES, Vectors, load
from model import AI, ExpectedCaptain, Hint, Weights, zipf
from models.chances import softmax
from models.people import card_frequency, in_context

# guesser name → the foreign vectors it reads
GUESSERS: dict[str, tuple[str]] = {"mpnet-people": ("mpnet",), "glove-people": ("glove",)}
# Who gives the tier's hints: the game's captain, or the captain built for the guesser (`oracle`).
GAME, ORACLE = "game", "oracle"
# How a card stands among the others for its guessers (models/people.py's first three contexts).
STRANGER_CONTEXTS = ("z", "top", "lead")


class StrangerFeatures:
    """(clues × cards × features) from foreign vectors, in board context, and the card's frequency."""

    def __init__(self, vectors: Vectors):
        self.vectors = vectors
        self.names = ("cos", *(f"cos~{c}" for c in STRANGER_CONTEXTS), "zipf")
        self.hints: dict[str, np.ndarray | None] = {}   # each clue's vector, once read

    def __call__(self, clues: Sequence[str], words: Sequence[str]) -> np.ndarray:
        cos = self.cosines(clues, words)
        parts = [cos, *(in_context(cos, c) for c in STRANGER_CONTEXTS),
                 np.broadcast_to(card_frequency(words), cos.shape)]
        return np.stack(parts, axis=-1).astype(np.float32)

    def cosines(self, clues: Sequence[str], words: Sequence[str]) -> np.ndarray:
        """clues × cards: how strongly each clue points to each card by these vectors, as
        lab/foreign/agent.py's `scores` reads one clue (a clue they do not know, by spelling)."""
        new = list(dict.fromkeys(c for c in clues if c not in self.hints))
        if new:   # one batch: a sentence model embeds thousands of words at once far faster
            rows, known = self.vectors.embed(new)
            self.hints.update((c, row if k else hint_vector(self.vectors, c))
                              for c, row, k in zip(new, rows, known, strict=True))
        cards, known = self.vectors.embed(list(words))
        vectors = [self.hints[c] for c in clues]
        out = np.empty((len(clues), len(words)), np.float32)
        if (read := np.array([v is not None for v in vectors], dtype=bool)).any():
            cos = np.stack([v for v in vectors if v is not None]) @ cards.T
            out[read] = np.where(known, cos, np.float32(UNKNOWN_CARD))
        for i in np.flatnonzero(~read):
            out[i] = spelling_scores(clues[i], words)
        return out


@dataclass
class FittedGuesser:
    """A model of a person guessing: the fitted logit's chances, sampled (or its best card)."""

    name: str
    features: StrangerFeatures
    coefficients: np.ndarray
    sample: bool = False

    def logits(self, clues: Sequence[str], words: Sequence[str]) -> np.ndarray:
        """clues × cards: each card's logit for each clue."""
        return self.features(clues, words) @ self.coefficients

    def guess(self, board: Board, hint: Hint, guessed: int, rng: np.random.Generator,
              team: Color | None = None) -> str | None:
        if guessed >= (hint.count or 1):
            return None
        words = board.unrevealed_words()
        logits = self.logits([hint.word], words)[0]
        if not self.sample:
            return words[int(np.argmax(logits))]
        return words[int(rng.choice(len(words), p=softmax(logits.astype(np.float64))))]


# A greedy guesser takes its likeliest card: read as its logits this many times as sharp.
GREEDY_SHARPNESS = 50.0


@dataclass
class Foreseen:
    """A fitted guesser as a reader a captain plans for (models/reader.py): its logits for any
    clues, and for every hint of the game's vocabulary (`hints`), sharpened when it takes its
    likeliest card; it never strays from them."""

    guesser: FittedGuesser
    hints: Sequence[str]
    name: str = "oracle"
    lapse: float = 0.0
    flat: float = 1.0

    def logits(self, clues: Sequence[str], words: Sequence[str]) -> np.ndarray:
        sharpness = 1.0 if self.guesser.sample else GREEDY_SHARPNESS
        return self.guesser.logits(clues, words) * np.float32(sharpness)

    def board_logits(self, words: Sequence[str]) -> np.ndarray:
        return self.logits(self.hints, words)


def oracle(ai: AI, guesser: FittedGuesser, alone: bool = True) -> ExpectedCaptain:
    """The captain built for this guesser: the game's captain planning for the guesser's own fitted
    model instead of the model of people. No game's captain knows its partner so; it bounds what
    knowing them is worth."""
    return ExpectedCaptain(ai.weights, Foreseen(guesser, ai.weights.hints), alone)


def stranger_features(name: str) -> StrangerFeatures:
    return StrangerFeatures(load(GUESSERS[name][0]))


def fit_guesser(name: str, sources: Path, sample: bool = False) -> FittedGuesser:
    """A guesser fitted on the whole record, monotone (the penalty chosen by cross-validation by game)."""
    turns = list(read_turns(sources))
    features = stranger_features(name)
    values = people_fit.turn_values(turns, features)
    beta, _ = people_fit.fit_penalised(turns, values, people_fit.SIGNALS, np.ones(len(turns), dtype=bool),
                                       lower=people_fit.lower_bounds(features.names))
    return FittedGuesser(name, features, beta.astype(np.float32), sample)


def agreement(name: str, sources: Path) -> dict[str, float]:
    """How often the guesser's best card is a target, and an assassin, on the record,
    cross-validated by game: each turn read by the model fitted without its game."""
    turns = list(read_turns(sources))
    features = stranger_features(name)
    values = people_fit.turn_values(turns, features)
    logits, _ = people_fit.cross_validated_logits(turns, values, people_fit.SIGNALS,
                                                  lower=people_fit.lower_bounds(features.names))
    return people_fit.first_pick_rates(turns, logits)


# --- the bench's human-model tier ------------------------------------------------------------

RULE = ("One team alone (9 own, 8 opponent, 7 neutral, 1 assassin), count+1 guesses allowed; the "
        "guesser turns over the face-down card its fitted model ranks first, `count` times (one "
        "for 0 or unlimited), and stops; score = hints to find all own cards, 25 on a loss.")


def build_ai(sources: Path, words: Sequence[str], embedded: bool) -> tuple[AI, dict]:
    """The game's AI on the matrices at hand (SBERT and WordNet alone when `embedded`), and every
    matrix loaded, for the judge."""
    import datasets
    from lab.evaluation.loading import load_all

    weights, _, _ = load_all(list(datasets.INITIALIZERS), sources, None, required=False, words=words)
    return game_ai(weights, datasets.EMBEDDED if embedded else None), weights


def game_ai(weights: Mapping[str, Weights], names: Sequence[str] | None = None) -> AI:
    """The game's AI on the loaded matrices (or those `names` them: the embedded default's, say):
    the default matrix, every other one a partner."""
    from lab.evaluation.foreign_tier import default_initializer

    loaded = {n: w for n, w in weights.items() if names is None or n in names}
    own = default_initializer(loaded)
    return AI(loaded[own], partners=[w for n, w in loaded.items() if n != own])


def tier_games(setup, item: tuple, tick: Callable[[], None] = lambda: None) -> list:
    """The game's captain, planning for a person (or the guesser's `oracle`), with one fitted
    guesser on every seed's board; each hint judged by every matrix loaded (`judge`)."""
    name, coefficients, ai_names, captain = item
    guesser = FittedGuesser(name, stranger_features(name), np.array(coefficients, np.float32))
    ai, games, sight = game_ai(setup.weights, ai_names), [], Sight(setup.weights)
    for seed in setup.seeds:
        board, rng = deal(seed, setup.words)
        hints = oracle(ai, guesser) if captain == ORACLE else ai.captain(alone=True)
        game = play_solo(board, board.starting_team, hints, guesser, rng, seed)
        judge(game, board, sight)
        games.append(game)
        tick()
    return games


def judge(game, board: Board, sight: Sight) -> None:
    """Mark each hint of a game with the lures it left (the colours of the cards, not its targets,
    that make a phrase or compound with it) and whether every family's reading sees its targets."""
    colour = {card.word: card.color.name for card in board.cards}
    for hint in game.hints:
        if not hint.targets:
            continue
        hint.lures = tuple(colour[w] for w in sight.lures(hint.word, hint.face_down, hint.targets))
        hint.seen = all(sight.sees(hint.word, hint.face_down, hint.targets).values())


def sight_summary(games: Sequence) -> dict[str, float]:
    """Per 100 hints, the lures left with the assassin and with any other card; the share of
    hints every family's reading sees."""
    judged = [h for g in games for h in g.hints if h.seen is not None]
    if not judged:
        return {"lures_assassin": float("nan"), "lures_other": float("nan"), "seen": float("nan")}
    per_100 = 100 / len(judged)
    assassin = sum(c == ASSASSIN.name for h in judged for c in h.lures)
    return {"lures_assassin": per_100 * assassin,
            "lures_other": per_100 * (sum(len(h.lures) for h in judged) - assassin),
            "seen": float(np.mean([h.seen for h in judged]))}


def run(setup, sources: Path, jobs=1, ai_names: Sequence[str] | None = None) -> dict:
    """Fit the guessers, measure their agreement with people, play the tier; or why it was skipped.
    `ai_names`: the matrices the game's AI may read (default: all loaded; the guessers hear all)."""
    if not available(sources):
        return {"skipped": f"no human Duet record in {folder(sources)}"}
    names = [n for n in GUESSERS if SOURCES[GUESSERS[n][0]].installed()]
    if not names:
        return {"skipped": "no foreign vectors installed (pip install -r requirements-dev.txt)"}
    items, agreements = {}, {}
    for name in names:
        guesser = fit_guesser(name, sources)
        for captain in (GAME, ORACLE):
            items[name, captain] = (name, tuple(float(b) for b in guesser.coefficients),
                                    None if ai_names is None else tuple(ai_names), captain)
        agreements[name] = agreement(name, sources)
    with progress(total=len(items) * len(setup.seeds), desc="bench: human-model tier", unit="game",
                  mininterval=1.0, dynamic_ncols=True) as bar:
        games = run_all(setup, tier_games, list(items.values()), bar, jobs)

    def row(name: str, captain: str) -> dict:
        played = games[items[name, captain]]
        return {"guesser": name, "agreement": agreements[name], **summarize(count_table(played)),
                **vocabulary(played), **sight_summary(played)}

    game_items = [items[name, GAME] for name in names]
    pooled_games = [g for item in game_items for g in games[item]]
    return {"rule": RULE, "captain": "the game's (AI.captain: it plans for a person)",
            "guessers": [row(name, GAME) for name in names],
            "oracles": [row(name, ORACLE) for name in names],
            "pooled": {**summarize(pooled([count_table(games[i]) for i in game_items])),
                       **vocabulary(pooled_games), **sight_summary(pooled_games)}}


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
    lines += ["Guessers fitted to people's play in the human Duet record (lab/evaluation/human_models.py: "
              "a monotone conditional logit over a foreign cosine, mpnet or GloVe, in its board context "
              "and the card's frequency), playing with "
              f"{section['captain']}. {RULE} 95% bootstrap intervals over boards. Agreement with "
              "people: the guesser's best card on the record's turns, cross-validated by game "
              "(people 84.5%).", ""]
    header = ["guesser", "first pick a target (people's turns)", "on an assassin", "games", "win rate",
              "assassin losses", "mean score", "hints on wins", "hints' median Zipf", "hints at Zipf 4+",
              "lures /100 hints (assassin · other)", "every reading sees the targets"]

    def row(name: str, g: dict, agreement: dict | None) -> list:
        said = ["—", "—"] if agreement is None else [f"{100 * agreement['target']:.1f}%",
                                                      f"{100 * agreement['assassin']:.1f}%"]
        return [name, *said, g["games"], fmt(g["win_rate"], "rate"), fmt(g["assassin_rate"], "rate"),
                fmt(g["mean_score"], "mean"), fmt(g["turns_on_wins"], "mean"),
                f"{g['hint_zipf_median']:.2f}", f"{100 * g['hints_zipf_4']:.0f}%",
                f"{g.get('lures_assassin', float('nan')):.1f} · {g.get('lures_other', float('nan')):.1f}",
                f"{100 * g.get('seen', float('nan')):.0f}%"]

    rows = [row("**all guessers**", section["pooled"], None)]
    rows += [row(g["guesser"], g, g["agreement"]) for g in section["guessers"]]
    rows += [row(f"{g['guesser']}, its oracle", g, g["agreement"]) for g in section.get("oracles", ())]
    oracles = ("Each guesser's oracle is the captain built for it (`oracle`): the game's captain "
               "planning for that guesser's own fitted model, which no game's captain knows; it "
               "bounds what knowing the judge is worth.")
    return lines + table(header, rows) + ["", oracles, ""]


def headline(section: dict | None) -> str | None:
    """One line for the terminal."""
    if not section or "pooled" not in section:
        return None
    p = section["pooled"]
    guessers = ", ".join(g["guesser"] for g in section["guessers"])
    return (f"human-model tier (the game's captain with {guessers}): "
            f"win rate {fmt(p['win_rate'], 'rate')}, assassin {fmt(p['assassin_rate'], 'rate')}, "
            f"mean score {fmt(p['mean_score'], 'mean')}, hints' median Zipf {p['hint_zipf_median']:.2f}, "
            f"lures /100 hints {p['lures_assassin']:.1f} (assassin) {p['lures_other']:.1f} (other), "
            f"every reading sees {100 * p['seen']:.0f}%")
