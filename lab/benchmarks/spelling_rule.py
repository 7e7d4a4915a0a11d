"""Which clues the spelling rule refuses: the old edit-distance rule against "another spelling".

    python -m lab.benchmarks.spelling_rule --sources ../shared/datasets

The old rule refused a hint within a relative Levenshtein distance of 0.5 of a face-down board
word (SOAP with STAMP); the rule now refuses only another spelling of the same word (COLOUR with
COLOR, from breame's British and American lists). Counted on two sets of pairs that the other
rules (the same word, one inside the other, a shared lemma) let through: the clues people gave
in the human Duet record, against the words face down when they gave them; and every hint of the
vocabulary against every card word. Only counts are printed, and a few pairs from the project's
own word lists: nothing from the record is kept.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from rapidfuzz.distance import Levenshtein

from common import SOURCES_DIR, board_words, hint_words, lemmas
from lab.evaluation.human_duet import read_turns
from model import CAPTAIN_MIN_DISTANCE, spellings


def other_rules(hint: str, word: str) -> bool:
    """Whether the rules besides spelling refuse the pair already."""
    return hint == word or hint in word or word in hint or bool(lemmas(hint) & lemmas(word))


def old_rule(hint: str, word: str) -> bool:
    return Levenshtein.normalized_distance(hint, word) < CAPTAIN_MIN_DISTANCE


def new_rule(hint: str, word: str) -> bool:
    return bool(spellings(hint) & spellings(word))


def refused(pairs: list[tuple[str, str]]) -> tuple[list, list]:
    pairs = [(h, w) for h, w in pairs if not other_rules(h, w)]
    return [p for p in pairs if old_rule(*p)], [p for p in pairs if new_rule(*p)]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sources", type=Path, default=SOURCES_DIR)
    args = p.parse_args()

    turns = [t for t in read_turns(args.sources) if t.clue.isalpha()]
    people = [(t.clue.lower(), w.lower()) for t in turns for w in t.remaining]
    old, new = refused(people)
    turns_old = sum(any(old_rule(t.clue.lower(), w.lower()) and not other_rules(t.clue.lower(), w.lower())
                        for w in t.remaining) for t in turns)
    print("| pairs | checked | refused by the edit distance | refused as another spelling |")
    print("|---|---|---|---|")
    print(f"| people's Duet clues × face-down words ({len(turns)} clues) | {len(people):,} | "
          f"{len(old)} ({turns_old} clues) | {len(new)} |")
    vocabulary = [(h, w) for w in board_words() for h in hint_words()]
    old, new = refused(vocabulary)
    print(f"| hint vocabulary × card words | {len(vocabulary):,} | {len(old):,} | {len(new)} |")
    print(f"\nrefused as another spelling in the vocabulary: "
          f"{', '.join(f'{h}/{w.upper()}' for h, w in new)}")
    print(f"a few the edit distance refused there: "
          f"{', '.join(f'{h}/{w.upper()}' for h, w in old[:: max(1, len(old) // 12)][:12])}")


if __name__ == "__main__":
    main()
