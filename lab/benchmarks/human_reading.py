"""Which reading of a clue picks the cards people aimed at? The search behind the
people reader (docs/decisions/0025-reading-people.md).

Each variant scores the face-down words of every aligned turn of the human Duet
record (lab/evaluation/human_duet.py) for the person's clue; its first pick is the
best-scored word. Printed per variant, for the even games (the tuning half), the
odd games (held out from tuning) and all: first pick among the giver's targets,
first pick on one of the giver's assassins (`black`, never read by a variant).
All figures are validation figures.

    python -m lab.benchmarks.human_reading --sources ../shared/datasets [--variants NAME ...]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

import datasets
from lab.evaluation.human_duet import Turn, read_turns

Scorer = Callable[[Turn], np.ndarray]


def zscore(row: np.ndarray) -> np.ndarray:
    """A row centred and scaled over the board; a flat row (a silent source) is all zeros."""
    spread = row.std()
    return (row - row.mean()) / spread if spread > 0 else np.zeros_like(row)


class Encoder:
    """SBERT unit vectors of words under a set of phrasings, remembered."""

    def __init__(self, templates: Sequence[str]):
        self.templates, self.cache = tuple(templates), {}
        self.model = datasets.load_sbert()

    def __call__(self, words: Sequence[str]) -> np.ndarray:
        new = [w for w in dict.fromkeys(words) if w not in self.cache]
        if new:
            parts = [self.model.encode([t.format(w) for w in new], batch_size=256,
                                       normalize_embeddings=True, show_progress_bar=False)
                     for t in self.templates]
            total = np.sum(parts, axis=0)
            total /= np.linalg.norm(total, axis=1, keepdims=True)
            self.cache.update(zip(new, total.astype(np.float32), strict=True))
        return np.stack([self.cache[w] for w in words])


def cosine(encoder: Encoder) -> Scorer:
    """The clue's cosine with each face-down word."""
    return lambda t: encoder(list(t.remaining)) @ encoder([t.clue])[0]


def hubness(encoder: Encoder, hints: Sequence[str], k: int = 10) -> Callable[[Sequence[str]], np.ndarray]:
    """Each word's mean cosine with its k nearest hint words: how much every clue points at it."""
    vocabulary = encoder(list(hints))
    cache: dict[str, float] = {}

    def hub(words: Sequence[str]) -> np.ndarray:
        new = [w for w in words if w not in cache]
        if new:
            sims = encoder(new) @ vocabulary.T
            top = -np.partition(-sims, k, axis=1)[:, :k]
            cache.update(zip(new, top.mean(axis=1), strict=True))
        return np.array([cache[w] for w in words])
    return hub


def csls(encoder: Encoder, hub, alpha: float) -> Scorer:
    """Cosine less `alpha` × the word's hubness (CSLS's card-side term)."""
    return lambda t: cosine(encoder)(t) - alpha * hub(list(t.remaining))


def frequency_prior(base: Scorer, beta: float) -> Scorer:
    """A base score plus `beta` × the word's Zipf frequency / 8 (people pick common words)."""
    from wordfreq import zipf_frequency

    return lambda t: base(t) + beta * np.array([zipf_frequency(w, "en") / 8 for w in t.remaining])


def weights_row(weights) -> Scorer:
    """A project matrix's hint_row, backoff included: what its greedy agent reads."""
    return lambda t: weights.hint_row(t.clue, list(t.remaining))


def own_row(weights) -> Scorer:
    """A matrix's own row, no backoff (zeros where a sparse source is silent)."""
    return lambda t: weights.without_backoff().own_row(t.clue, list(t.remaining))


def fused(parts: Sequence[tuple[Scorer, float]]) -> Scorer:
    """A weighted sum of z-scored rows."""
    return lambda t: sum(w * zscore(np.asarray(s(t), dtype=float)) for s, w in parts)


def norms(sources: Path, backward: float) -> Scorer:
    """USF FSG + EAT strengths, forward (clue → card) plus `backward` × backward (card → clue)."""
    catalog = datasets.Catalog(datasets.Settings(sources, hints=(), words=()))
    strength: dict[tuple[str, str], float] = {}
    for pairs in (datasets.read_usf(catalog.files("usf")), datasets.read_eat(catalog.files("eat"))):
        for pair in pairs:
            key = (pair.cue.lower(), pair.response.lower())
            strength[key] = strength.get(key, 0.0) + pair.forward

    def score(t: Turn) -> np.ndarray:
        clue = t.clue
        return np.array([strength.get((clue, w), 0.0) + backward * strength.get((w, clue), 0.0)
                         for w in t.remaining])
    return score


def evaluate(turns: Sequence[Turn], score: Scorer) -> dict[str, tuple[float, float]]:
    """First pick a target and first pick an assassin, per half: {half: (target %, black %)}."""
    hits = np.zeros((len(turns), 2))
    for i, turn in enumerate(turns):
        first = turn.remaining[int(np.argmax(score(turn)))]
        hits[i] = first in turn.targets, first in turn.black
    games = np.array([t.game for t in turns])
    halves = {"even": games % 2 == 0, "odd": games % 2 == 1, "all": games >= 0}
    return {h: tuple(100 * hits[m].mean(axis=0)) for h, m in halves.items()}


def variants(sources: Path | None) -> dict[str, Scorer]:
    """Every reading measured, by name (those needing sources only with them)."""
    default = datasets.load_weights("sbert")
    hints = default.hints
    two = Encoder(datasets.SBERT_TEMPLATES)
    bare = Encoder(("{}",))
    four = Encoder((*datasets.SBERT_TEMPLATES, "{}", "something related to {}"))
    hub = hubness(two, hints)
    out: dict[str, Scorer] = {
        "sbert (default agent)": weights_row(default),
        "sbert bare word": cosine(bare),
        "sbert four phrasings": cosine(four),
        **{f"sbert csls a={a}": csls(two, hub, a) for a in (0.5, 1.0, 1.5)},
        **{f"sbert + freq b={b}": frequency_prior(cosine(two), b) for b in (0.05, 0.1, 0.2)},
    }
    if sources is not None:
        catalog = datasets.Catalog(datasets.Settings(sources))
        combined = catalog.weights("combined")
        assoc = norms(sources, backward=0.0)
        both = norms(sources, backward=1.0)
        out |= {
            "combined (default agent)": weights_row(combined),
            "norms forward": assoc,
            "norms forward+backward": both,
            "z sbert .75 + z association/eat .25": fused([
                (cosine(two), 0.75), (own_row(catalog.weights("association")), 0.125),
                (own_row(catalog.weights("eat")), 0.125)]),
            **{f"z sbert + {w} z norms fwd+bwd": fused([(cosine(two), 1.0), (both, w)])
               for w in (0.25, 0.5, 1.0)},
            **{f"z csls1 + {w} z norms fwd+bwd": fused([(csls(two, hub, 1.0), 1.0), (both, w)])
               for w in (0.25, 0.5, 1.0)},
            "z combined .5 + z sbert .5": fused([(weights_row(combined), 0.5), (cosine(two), 0.5)]),
        }
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sources", type=Path, required=True, help="the datasets folder (human_duet/ in it)")
    p.add_argument("--no-norms", action="store_true", help="only the variants that need no source")
    p.add_argument("--variants", nargs="*", help="only the variants whose name contains one of these")
    args = p.parse_args(argv)
    turns = list(read_turns(args.sources))
    print(f"{len(turns)} turns, {len({t.game for t in turns})} games; first pick a target / on an "
          "assassin, % (validation figures)")
    print(f"{'variant':44s} {'even (tuning)':>15s} {'odd':>15s} {'all':>15s}")
    for name, score in variants(None if args.no_norms else args.sources).items():
        if args.variants and not any(v in name for v in args.variants):
            continue
        result = evaluate(turns, score)
        print(f"{name:44s} " + " ".join(f"{t:6.1f} / {b:5.1f}  " for t, b in result.values()), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
