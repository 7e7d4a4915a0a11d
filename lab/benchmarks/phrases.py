"""Which everyday compounds and set phrases each sparse matrix links, hint → card.

    python -m lab.benchmarks.phrases                              # the phrases matrix (no dataset needed)
    python -m lab.benchmarks.phrases --sources ../shared/datasets # and the corpus and norms beside it

Each phrase's first word is the hint, its second the card ("magic carpet": MAGIC → CARPET, as a
person would clue it); a matrix knows the pair when the hint's own row (no backoff) gives the card
any weight. The list mixes open compounds, which a phrase list can hold, with closed ones
("rainbow" read as RAIN → BOW), which none of them does. docs/decisions/0033-phrases.md.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import datasets
from common import SOURCES_DIR

EVERYDAY = ("magic carpet", "fire truck", "bus pass", "manta ray", "hot dog", "ice cream", "fire engine",
            "post office", "polar bear", "teddy bear", "police car", "traffic light", "peanut butter",
            "fish tank", "washing machine", "birthday cake", "apple pie", "golf club", "credit card",
            "fairy tale", "piggy bank", "ghost story", "fruit fly", "time machine", "ice age",
            "swimming pool", "spider web", "sea horse", "honey moon", "rain bow", "sun flower",
            "space ship", "light house", "tooth brush", "snow man", "water fall")
MATRICES = ("phrases", "word_collocations", "sentence_collocations", "association", "eat")


def known(weights: datasets.Weights, pairs: list[tuple[str, str]]) -> list[bool]:
    """Whether the matrix's own row for each hint gives its card any weight."""
    own = weights.without_backoff()
    return [bool(own.hint_row(hint, [card])[0] > 0) for hint, card in pairs]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sources", type=Path, default=SOURCES_DIR,
                        help="the datasets folder (default: %(default)s)")
    parser.add_argument("--cache-dir", type=Path, default=None,
                        help="the matrices' cache (default: data/cache)")
    args = parser.parse_args(argv)
    pairs = [tuple(p.split()) for p in EVERYDAY]
    catalog = datasets.Catalog(datasets.Settings(args.sources, args.cache_dir))
    names = [n for n in MATRICES if catalog.missing(n) is None]
    found = {name: known(catalog.weights(name), pairs) for name in names}
    print(f"| hint → card | {' | '.join(names)} |")
    print(f"|---|{'---|' * len(names)}")
    for i, (hint, card) in enumerate(pairs):
        print(f"| {hint.upper()} → {card.upper()} | "
              + " | ".join("yes" if found[n][i] else "" for n in names) + " |")
    print(f"| **known** | {' | '.join(f'{sum(found[n])}/{len(pairs)}' for n in names)} |")
    either = [any(found[n][i] for n in names) for i in range(len(pairs))]
    left_out = [m for m in MATRICES if m not in names]
    print(f"\nAny of them: {sum(either)}/{len(pairs)}. Left out: {', '.join(left_out) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
