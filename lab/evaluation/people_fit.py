"""Fit the model of people (models/people.py) to people playing Codenames Duet.

Each turn of the human Duet record (lab/evaluation/human_duet.py) gives choices: the
giver's targets, each chosen over the cards the clue was not meant for, and the
guesser's clicks, each chosen over the cards still face down. A conditional logit
(a softmax over the face-down cards) is fitted to them by maximum likelihood with
an L2 penalty on standardised features; the penalty is chosen by cross-validation
inside the training games, and every figure reported is cross-validated by game:
a turn is read by a model fitted without its game.

    python -m lab.evaluation.people_fit --sources ../shared/datasets

writes data/people.json (the coefficients, with a checksum of the record they were
fitted on) and prints the cross-validated figures of every variant.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from lab.evaluation.human_duet import CLUE_FILE, GUESS_FILE, Turn, folder, read_turns
from lab.evaluation.stop_law import stop_law
from models.chances import strayed
from models.likelihood import Choices, fit, monotone_bounds, negative_log_likelihood, scales
from models.people import KNOWN_PHRASES, NORMS, PEOPLE_PATH, Features, Fit, PeopleModel, matrices_needed
from models.person import expert_features
from models.weights import Weights

REPORT_PATH = Path(__file__).resolve().parents[2] / "reports" / "people_model.md"
L2_GRID = (0.3, 1.0, 3.0, 10.0, 30.0, 100.0)
FOLDS = 10
SIGNALS = {"targets": 1.0, "picks": 1.0}   # the givers' targets and the guessers' clicks, weighed alike
# A phrase or a compound with the clue is a person's first thought (FIRE → ENGINE): its weight is
# at least this, whatever the few phrase turns of the record say (the phrase probe, 0040, 0045).
# With the norms at hand, only a phrase a person knows (models/phrases.py: 0053).
FLOORS = {"phrases": 3.5, "known_phrases": 3.5}
PROBES = 1000   # 200 moved by 2.5 points from one draw of the word lists to the next

# The variants fitted, richest first: the first whose matrices are all at hand plays.
VARIANTS: dict[str, tuple[str, ...]] = {
    "every dataset": (
        "sbert", "sbert~z", "fasttext", "fasttext~z", "double_link", "double_link~z",
        "word_collocations", "sentence_collocations", "association", "association~z",
        "eat", "eat~z", "known_phrases", "zipf", "wordnet", "wordnet~z"),
    "norms": ("sbert", "sbert~z", "association", "association~z", "eat", "eat~z", "known_phrases",
              "zipf", "wordnet", "wordnet~z"),
    # SBERT bent at two knots (its 75th and 90th percentiles on the record's cards; 0051): steeper
    # for the strong links a person sees at once. With no norms, the phrases a person knows are
    # the phrases of two words and the compounds (0058).
    "embedded": ("sbert", "sbert~z", "known_phrases", "zipf", "sbert~over@0.3", "sbert~over@0.4",
                 "wordnet", "wordnet~z"),
    "sbert": ("sbert", "sbert~z", "zipf"),   # a matrix alone
}
# No context is a card's place among the others (the best, by how much): a reader who has turned
# one card over reads the rest anew, and a model read card by card must too (decision 0091).


def choice_events(turns: Sequence[Turn], signals: Mapping[str, float]) -> tuple[list, ...]:
    """(turn index, left mask, chosen, weight) of every event that `signals` (name → weight) asks for."""
    boards, lefts, chosen, weights = [], [], [], []
    width = max(len(t.remaining) for t in turns)
    for i, turn in enumerate(turns):
        index = {w: k for k, w in enumerate(turn.remaining)}
        face_down = np.zeros(width, dtype=bool)
        face_down[:len(turn.remaining)] = True
        if signals.get("targets"):
            targets = [index[t] for t in turn.targets if t in index]
            for t in targets:   # each target over the cards the clue was not meant for
                left = face_down.copy()
                left[[o for o in targets if o != t]] = False
                boards.append(i), lefts.append(left), chosen.append(t)
                weights.append(signals["targets"] / len(targets))
        if signals.get("picks"):
            left = face_down.copy()
            for word in turn.guesses:   # each click over the cards still face down
                boards.append(i), lefts.append(left.copy()), chosen.append(index[word])
                weights.append(signals["picks"] / len(turn.guesses))
                left[index[word]] = False
    return boards, lefts, chosen, weights


def turn_values(turns: Sequence[Turn], features: Callable) -> np.ndarray:
    """Feature values of every turn's face-down cards for its clue, padded: turns × cards × features."""
    width = max(len(t.remaining) for t in turns)
    out = None
    for i, turn in enumerate(turns):
        values = features([turn.clue], list(turn.remaining))[0]
        if out is None:
            out = np.zeros((len(turns), width, values.shape[1]), dtype=np.float64)
        out[i, :len(turn.remaining)] = values
    return out


def choices(turns: Sequence[Turn], values: np.ndarray, signals: Mapping[str, float]) -> Choices:
    boards, lefts, chosen, weights = choice_events(turns, signals)
    left = np.array(lefts, dtype=bool).reshape(-1, values.shape[1])
    return Choices(values, np.array(boards, dtype=int), left, np.array(chosen, dtype=int),
                   np.array(weights, dtype=float))


def lower_bounds(names: Sequence[str], floors: Mapping[str, float] | None = None) -> np.ndarray:
    """Each feature's least coefficient (per unit): zero for every feature that measures a link
    between a clue and a card, so that a stronger link never makes a card less likely (a
    monotone model); `floors` (default `FLOORS`) where people's knowledge says more; none for the
    card's own frequency."""
    return monotone_bounds(names, dict(FLOORS if floors is None else floors))


def folds_of(turns: Sequence[Turn], k: int, seed: int = 0) -> np.ndarray:
    """Each turn's fold, drawn by game so that a game's turns are never split."""
    games = np.array(sorted({t.game for t in turns}))
    fold = np.random.default_rng(seed).permutation(len(games)) % k
    of_game = dict(zip(games.tolist(), fold.tolist(), strict=True))
    return np.array([of_game[t.game] for t in turns])


def fit_penalised(turns: Sequence[Turn], values: np.ndarray, signals: Mapping[str, float],
                  train: np.ndarray, grid: Sequence[float] = L2_GRID, k: int = 5,
                  lower: np.ndarray | None = None) -> tuple[np.ndarray, float]:
    """Coefficients fitted on the `train` turns (a boolean mask), with the L2 penalty chosen by
    a k-fold cross-validation by game inside them; per unit of the raw features, each at least
    its `lower` bound (per unit of the raw feature; `lower_bounds`)."""
    scale = scales(values[train])
    data = choices(turns, values / scale, signals)
    lower = None if lower is None else lower * scale
    inner = folds_of([t for t, keep in zip(turns, train, strict=True) if keep], k, seed=1)
    fold = np.full(len(turns), -1)
    fold[train] = inner
    held = {"picks": 1.0}    # the penalty is judged on what a guesser does
    check = choices(turns, values / scale, held)
    losses = []
    for l2 in grid:
        loss = 0.0
        for f in range(k):
            fitting = data.subset(np.flatnonzero(train[data.board] & (fold[data.board] != f)))
            beta = fit(fitting, l2, lower)
            scored = check.subset(np.flatnonzero(fold[check.board] == f))
            loss += negative_log_likelihood(beta, scored, 0.0)[0]
        losses.append(loss)
    l2 = grid[int(np.argmin(losses))]
    beta = fit(data.subset(np.flatnonzero(train[data.board])), l2, lower)
    return beta / scale, l2


def fold_fits(turns: Sequence[Turn], values: np.ndarray, signals: Mapping[str, float],
              k: int = FOLDS, lower: np.ndarray | None = None, seed: int = 0
              ) -> tuple[np.ndarray, list[np.ndarray], list[float]]:
    """Each turn's fold (by game, the draw `seed`), each fold's coefficients fitted without it,
    and the penalty each fold chose."""
    fold = folds_of(turns, k, seed)
    fitted = [fit_penalised(turns, values, signals, fold != f, lower=lower) for f in range(k)]
    return fold, [beta for beta, _ in fitted], [l2 for _, l2 in fitted]


def cross_validated_logits(turns: Sequence[Turn], values: np.ndarray, signals: Mapping[str, float],
                           k: int = FOLDS, lower: np.ndarray | None = None, seed: int = 0
                           ) -> tuple[np.ndarray, list[float]]:
    """Every turn's logits (turns × cards, padded with -inf) from a model fitted without its
    game's fold (the draw `seed`); and the penalty each fold chose."""
    fold, betas, penalties = fold_fits(turns, values, signals, k, lower, seed)
    logits = np.full(values.shape[:2], -np.inf)
    for i, turn in enumerate(turns):
        n = len(turn.remaining)
        logits[i, :n] = values[i, :n] @ betas[fold[i]]
    return logits, penalties


def first_pick_rates(turns: Sequence[Turn], logits: np.ndarray) -> dict[str, float]:
    """The share of turns whose best card is a target, one of the giver's assassins, a bystander."""
    first = [t.remaining[int(np.argmax(row))] for t, row in zip(turns, logits, strict=True)]
    return {"target": float(np.mean([w in t.targets for w, t in zip(first, turns, strict=True)])),
            "assassin": float(np.mean([w in t.black for w, t in zip(first, turns, strict=True)]))}


RELIABILITY_BINS = (0.0, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


def first_clicks(turns: Sequence[Turn], logits: np.ndarray) -> list[tuple[int, np.ndarray, int]]:
    """(turn index, its logits over its face-down cards, the card clicked first) of every turn
    with a click."""
    return [(i, row[:len(t.remaining)], t.remaining.index(t.guesses[0]))
            for i, (t, row) in enumerate(zip(turns, logits, strict=True)) if t.guesses]


def fit_strays(turns: Sequence[Turn], logits: np.ndarray, train: np.ndarray | None = None
               ) -> tuple[float, float]:
    """The share of first clicks made on a flatter reading, and how flat (`Fit.lapse`,
    `Fit.flat`), that make held-out `logits` likeliest on the `train` turns (all when None):
    where the sharp model is 97% sure, people went elsewhere one time in six."""
    from scipy.optimize import minimize

    clicks = [(row, first) for i, row, first in first_clicks(turns, logits) if train is None or train[i]]

    def loss(p: np.ndarray) -> float:
        return -sum(np.log(strayed(row, p[0], p[1])[first]) for row, first in clicks)

    lapse, flat = minimize(loss, [0.1, 0.5], bounds=[(0.0, 0.5), (0.0, 1.0)]).x
    return float(lapse), float(flat)


def held_out_strays(turns: Sequence[Turn], logits: np.ndarray) -> np.ndarray:
    """Each turn's (lapse, flat), fitted without its game's fold: turns × 2."""
    fold = folds_of(turns, FOLDS)
    fitted = [fit_strays(turns, logits, fold != f) for f in range(FOLDS)]
    return np.array([fitted[f] for f in fold])


def calibration(turns: Sequence[Turn], logits: np.ndarray, strays: np.ndarray | None = None) -> dict:
    """How well held-out logits (and each turn's `strays`, its lapse and flatness, `Fit.lapse`;
    none when None) foresee a guesser's first click: its mean log-likelihood (and a uniform
    guess's), and a reliability table: for every face-down card of every turn, the model's
    chance that it is clicked first, in bins, against how often it was."""
    chances, clicked, log_likelihood, uniform = [], [], [], []
    for i, row, first in first_clicks(turns, logits):
        n = len(row)
        p = strayed(row, *strays[i]) if strays is not None else strayed(row)
        chances.append(p), clicked.append(np.arange(n) == first)
        log_likelihood.append(np.log(p[first])), uniform.append(-np.log(n))
    chance, hit = np.concatenate(chances), np.concatenate(clicked)
    which = np.clip(np.digitize(chance, RELIABILITY_BINS) - 1, 0, len(RELIABILITY_BINS) - 2)
    bins = [(RELIABILITY_BINS[b], RELIABILITY_BINS[b + 1], int((which == b).sum()),
             float(chance[which == b].mean()), float(hit[which == b].mean()))
            for b in range(len(RELIABILITY_BINS) - 1) if (which == b).any()]
    return {"log_likelihood": float(np.mean(log_likelihood)), "uniform": float(np.mean(uniform)),
            "clicks": len(log_likelihood), "bins": bins}


def phrase_probe(model: PeopleModel, phrases: Weights, norms: Sequence[Weights] | None = None,
                 size: int = PROBES, distractors: int = 7, seed: int = 0
                 ) -> tuple[float, list[tuple[str, str, str]]]:
    """How often the model's first pick, for a clue that makes a phrase or a compound with one
    card, is that card: `size` probes, each a clue from the hint list that the AI may give, its
    partner from the card list (WordNet: FIRE → ENGINE, HAMMER → HEAD) and `distractors` other
    cards that make none with it and on which the clue is legal. With `norms` (the norms at hand,
    perhaps none), only phrases a person knows are probed (models/phrases.py: those the norms link
    too, or with none, phrases of two words and compounds). Returns the share and the probes it
    missed (clue, partner, its first pick)."""
    from common import board_words

    rng = np.random.default_rng(seed)
    cards = [w.lower() for w in board_words()]
    links = phrases.board_matrix(cards) > 0.5                       # hints × cards
    probed = links
    if norms is not None:
        known = Features((KNOWN_PHRASES,), {"phrases": phrases, **{n.name: n for n in norms}})
        probed = known.board(cards)[..., 0] > 0.5
    legal = np.ones(links.shape, dtype=bool)
    legal[~(phrases.filter.well_formed & phrases.filter.fit)] = False   # hints the AI would give
    for c, card in enumerate(cards):
        legal[phrases.filter.banned(card), c] = False
    pairs = np.argwhere(probed & legal)
    pairs = pairs[rng.permutation(len(pairs))[:size]]
    hits, missed = 0, []
    for h, c in pairs:
        others = np.flatnonzero(~links[h] & legal[h])
        shown = [cards[c], *(cards[o] for o in rng.choice(others, distractors, replace=False))]
        clue = phrases.hints[h]
        first = shown[int(np.argmax(model.logits([clue], shown)[0]))]
        hits += first == cards[c]
        if first != cards[c]:
            missed.append((clue, cards[c], first))
    return hits / max(len(pairs), 1), missed


def probes(model: PeopleModel, readings: Mapping[str, Weights]
           ) -> dict[str, tuple[float, list[tuple[str, str, str]]]]:
    """The phrase probe on every phrase, and on the phrases a person knows by the norms at hand;
    none without the phrases matrix."""
    if "phrases" not in readings:
        return {}
    norms = [readings[n] for n in NORMS if n in readings]
    return {"every phrase": phrase_probe(model, readings["phrases"]),
            "phrases a person knows": phrase_probe(model, readings["phrases"], norms)}


def record_checksum(sources: Path) -> str:
    """SHA-256 over the two files a turn is read from, in order: what a fit was made on."""
    digest = hashlib.sha256()
    for name in (CLUE_FILE, GUESS_FILE):
        digest.update((folder(sources) / name).read_bytes())
    return digest.hexdigest()


def readings_at_hand(sources: Path) -> dict:
    """Every matrix the sources allow, by name (the embedded default's SBERT at least)."""
    import datasets

    weights, partners = datasets.load_with_partners("sbert", sources=sources)
    return {w.name: w for w in (weights, *partners)}


def played_with(readings: Mapping[str, Weights], names: Sequence[str]) -> dict[str, Weights]:
    """The matrices at hand that a variant of `names` plays with: its own and no others. The
    embedded variant plays where no norms are, so its phrases a person knows are fitted without
    them even when the sources hold them."""
    return {name: w for name, w in readings.items() if name in matrices_needed(names)}


def cross_validated_people(turns: Sequence[Turn], readings: Mapping[str, Weights],
                           signals: Mapping[str, float] = SIGNALS) -> Iterator[tuple[str, Callable]]:
    """(variant, the model of people that reads a turn: fitted without the turn's game) for
    every variant the matrices allow."""
    for name, names in VARIANTS.items():
        try:
            features = Features(names, played_with(readings, names))
        except KeyError:
            continue
        fold, betas, _ = fold_fits(turns, turn_values(turns, features), signals,
                                   lower=lower_bounds(names))
        models = [PeopleModel(Fit(name, tuple(names), tuple(beta)), features.readings) for beta in betas]
        of_row = {turn.row: models[f] for turn, f in zip(turns, fold, strict=True)}
        yield name, lambda turn, of_row=of_row: of_row[turn.row]


def fit_variants(sources: Path, signals: Mapping[str, float],
                 variants: Mapping[str, Sequence[str]] = VARIANTS,
                 say: Callable[[str], None] = print) -> tuple[dict, list[Fitted]]:
    """Fit every variant whose matrices the sources allow on the whole record; their
    cross-validated figures beside them. The content of data/people.json, and what the report
    says of each variant."""
    turns = list(read_turns(sources))
    readings = readings_at_hand(sources)
    out, report = [], []
    for name, names in variants.items():
        try:
            features = Features(names, played_with(readings, names))
        except KeyError as missing:
            say(f"{name}: skipped, {missing.args[0]}")
            continue
        values, lower = turn_values(turns, features), lower_bounds(names)
        logits, penalties = cross_validated_logits(turns, values, signals, lower=lower)
        lapse, flat = fit_strays(turns, logits)
        stop = stop_law(turns, logits)
        rates = first_pick_rates(turns, logits)
        held = calibration(turns, logits, held_out_strays(turns, logits))
        held["sharp"] = calibration(turns, logits)["log_likelihood"]
        beta, l2 = fit_penalised(turns, values, signals, np.ones(len(turns), dtype=bool),
                                 lower=lower)
        about = (f"cross-validated by game ({FOLDS} folds): first pick a target "
                 f"{100 * rates['target']:.1f}%, an assassin {100 * rates['assassin']:.1f}%; "
                 f"log-likelihood of a first click {held['log_likelihood']:.3f} "
                 f"(uniform {held['uniform']:.3f})")
        say(f"{name}: {about}; penalties chosen {penalties}")
        experts = fit_experts(turns, values, names, signals, lower)
        say(f"{name}: experts {', '.join(experts)}")
        fitted = Fit(name, tuple(names), tuple(float(b) for b in beta), l2, about, experts, lapse, flat,
                     stop)
        out.append(fitted.to_json())
        report.append(Fitted(fitted, rates, held, probes(PeopleModel(fitted, features.readings),
                                                         features.readings)))
    return {"source": "people playing Codenames Duet: SALT-NLP/codenames, data/, validation split "
                      "(Shaikh et al., 2023); coefficients only, fitted by lab/evaluation/people_fit.py",
            "signals": dict(signals), "record_sha256": record_checksum(sources), "variants": out,
            }, report


def fit_experts(turns: Sequence[Turn], values: np.ndarray, names: Sequence[str],
                signals: Mapping[str, float], lower: np.ndarray, train: np.ndarray | None = None
                ) -> dict[str, tuple[float, ...]]:
    """Each expert of a variant (models/person.py: a model of people on one family of sources)
    fitted on the `train` turns (a boolean mask; default the whole record), its coefficients over
    the variant's features (zero elsewhere)."""
    train = np.ones(len(turns), dtype=bool) if train is None else train
    out = {}
    for family, mask in expert_features(names).items():
        beta, _ = fit_penalised(turns, values[..., mask], signals, train, lower=lower[mask])
        full = np.zeros(len(names))
        full[mask] = beta
        out[family] = tuple(float(b) for b in full)
    return out


def add_experts(sources: Path, path: Path, signals: Mapping[str, float]) -> None:
    """Fit the experts of every variant in `path` and write them in, the rest as it was."""
    turns = list(read_turns(sources))
    readings = readings_at_hand(sources)
    model = json.loads(path.read_text(encoding="utf-8"))
    for variant in model["variants"]:
        names = variant["features"]
        values = turn_values(turns, Features(names, played_with(readings, names)))
        variant["experts"] = {f: [round(c, 6) for c in beta] for f, beta in
                              fit_experts(turns, values, names, signals, lower_bounds(names)).items()}
        print(f"{variant['name']}: experts {', '.join(variant['experts'])}", flush=True)
    path.write_text(json.dumps(model, indent=1) + "\n", encoding="utf-8")


@dataclass(frozen=True)
class Fitted:
    """A variant fitted on the whole record, with its held-out figures and its phrase probe."""

    fit: Fit
    rates: dict[str, float]
    calibration: dict
    probes: dict[str, tuple[float, list[tuple[str, str, str]]]]


def markdown(fitted: Sequence[Fitted], command: str) -> str:
    """The model of people's report: per variant, its held-out figures, reliability and probe."""
    lines = ["# The model of people", "",
             f"`{command}` (writes data/people.json and this page). Every figure is cross-validated "
             f"by game ({FOLDS} folds) on the human Duet record: a turn is read by a model fitted "
             "without its game. Every coefficient on a link is zero or above (a monotone fit).", ""]
    for f in fitted:
        held = f.calibration
        lines += [f"## {f.fit.name}", "",
                  f"- first pick a target {100 * f.rates['target']:.1f}%, an assassin "
                  f"{100 * f.rates['assassin']:.1f}% (people: 84.5% and 2.0%)",
                  f"- log-likelihood of a guesser's first click, held out: {held['log_likelihood']:.3f} "
                  f"a click over {held['clicks']} clicks (a uniform guess: {held['uniform']:.3f}; the "
                  f"logits' softmax alone: {held['sharp']:.3f}); {100 * f.fit.lapse:.0f}% of clicks read "
                  f"at {f.fit.flat:.2f} of the logits' sharpness (`Fit.lapse`)"]
        if f.fit.stop is not None:
            a, b = f.fit.stop
            lines.append(f"- where a guesser stops short of the count (`Fit.stop`, lab/evaluation/stops.py): "
                         f"sigmoid({a:.2f} {b:+.2f} log p), p the held-out chance of the card meant left")
        for probed, (share, missed) in f.probes.items():
            sample = ", ".join(f"{c.upper()}→{p.upper()} (took {m.upper()})" for c, p, m in missed[:8])
            lines.append(f"- phrase and compound probe, {probed}: the partner first in "
                         f"{100 * share:.1f}% of {PROBES} probes; missed, e.g.: {sample or 'none'}")
        lines += ["", "Reliability: every face-down card's chance of being clicked first, in bins, "
                  "against how often it was.", "",
                  "| predicted | cards | mean predicted | observed |", "|---|---|---|---|"]
        lines += [f"| {lo:.2f}–{hi:.2f} | {n} | {pred:.3f} | {seen:.3f} |"
                  for lo, hi, n, pred, seen in held["bins"]]
        lines += ["", "| feature | coefficient |", "|---|---|"]
        lines += [f"| {name} | {c:+.3f} |"
                  for name, c in zip(f.fit.features, f.fit.coefficients, strict=True)]
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m lab.evaluation.people_fit",
                                description=__doc__.splitlines()[0])
    p.add_argument("--sources", type=Path, required=True, help="the datasets folder (human_duet/ in it)")
    p.add_argument("--out", type=Path, default=PEOPLE_PATH, help="where to write (default data/people.json)")
    p.add_argument("--targets", type=float, default=SIGNALS["targets"], help="weight of the givers' targets")
    p.add_argument("--picks", type=float, default=SIGNALS["picks"], help="weight of the guessers' clicks")
    p.add_argument("--report", type=Path, default=REPORT_PATH,
                   help="the report (default reports/people_model.md)")
    p.add_argument("--experts-only", action="store_true",
                   help="fit only the experts of the variants in --out (models/person.py) and write them in")
    args = p.parse_args(argv)
    signals = {"targets": args.targets, "picks": args.picks}
    if args.experts_only:
        add_experts(args.sources, args.out, signals)
        return 0
    model, fitted = fit_variants(args.sources, signals)
    args.out.write_text(json.dumps(model, indent=1) + "\n", encoding="utf-8")
    page = markdown(fitted, "python -m lab.evaluation.people_fit --sources DIR")
    args.report.write_text(page, encoding="utf-8")
    print(f"wrote {args.out} and {args.report}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
