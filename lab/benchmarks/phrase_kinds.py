"""How often the norms link WordNet's phrases of two content words, by the phrase's kind.

    python -m lab.benchmarks.phrase_kinds --sources ../shared/datasets

A phrase links a hint and a card when its only two content words are a hint of the vocabulary and
a card word (either order). The embedded default, with no norms, counts every such phrase as one a
person knows (models/phrases.py); with the norms, only those the norms link too. Read here: whether
a kind of phrase ("note of hand", "bed and breakfast") is known less often than two words side by
side ("fire engine"), by the norms' measure. Decision 0081.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

import datasets
from common import BOARD_WORDS_PATH, load_words
from initializers.phrases import PAIR, phrase_pairs, read_phrases, wordnet_folder
from lab.evaluation.stats import wilson

NORMS = ("association", "eat")


def kind(phrase: Sequence[str]) -> str:
    """The phrase's kind: "side by side" (FIRE ENGINE), "X of Y" (NOTE OF HAND) or "other" (BED AND
    BREAKFAST)."""
    if len(phrase) == 2:
        return "side by side"
    return "X of Y" if len(phrase) == 3 and phrase[1] == "of" else "other"


def pairs(phrases: Iterable[tuple[str, ...]], hints: set[str], cards: set[str]
          ) -> Iterable[tuple[str, str, str]]:
    """(kind, hint, card) for each phrase whose only two content words (as the phrases matrix
    reads them: `PAIR`) are a hint and a card."""
    for phrase in phrases:
        for first, second, link in phrase_pairs([phrase]):
            for hint, card in ((first, second), (second, first)):
                if link == PAIR and hint in hints and card in cards:
                    yield kind(phrase), hint, card


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sources", type=Path, required=True)
    args = parser.parse_args(argv)
    catalog = datasets.Catalog(datasets.Settings(args.sources, None))
    if missing := [why for name in NORMS if (why := catalog.missing(name))]:
        raise SystemExit("\n".join(missing))
    norms = [catalog.weights(name).without_backoff() for name in NORMS]
    cards = {w.lower() for w in load_words(BOARD_WORDS_PATH)}
    counts: dict[str, list[int]] = {}
    for found, hint, card in pairs(read_phrases(wordnet_folder()), set(norms[0].hints), cards):
        linked = any(m.hint_row(hint, [card])[0] > 0 for m in norms)
        tally = counts.setdefault(found, [0, 0])
        tally[0], tally[1] = tally[0] + 1, tally[1] + linked
    print("| kind | hint–card pairs | the norms link | 95% interval |\n|---|---|---|---|")
    for found, (total, linked) in sorted(counts.items(), key=lambda item: -item[1][0]):
        low, high = wilson(linked, total)
        print(f"| {found} | {total} | {linked} ({100 * linked / total:.0f}%) "
              f"| {100 * low:.0f}–{100 * high:.0f}% |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
