"""The lemmatised corpus, and the counts built from sources: collocations and association strengths."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from common import lemma_of, progress
from initializers.readers import Association
from initializers.vocabulary import corpus_function_words

if TYPE_CHECKING:   # scipy.sparse loads where a sparse matrix is made: a game on SBERT alone needs none
    from scipy import sparse

# --- the lemmatised corpus ----------------------------------------------------------------

# A word (with inner apostrophes), a sentence end, or a blank line (a paragraph end).
TOKEN = re.compile(r"[a-z]+(?:'[a-z]+)*|[.!?]|\n[^\S\n]*\n")
SENTENCE_END = -1   # its code in Corpus.tokens
_DROPPED = -2       # function words: removed from the token stream


@dataclass
class Corpus:
    """A corpus as lemma ids, function words removed, SENTENCE_END between sentences."""

    lexicon: tuple[str, ...]   # lemma of each id
    tokens: np.ndarray         # int32 lemma ids and SENTENCE_END
    index: dict[str, int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.index = {w: i for i, w in enumerate(self.lexicon)}

    def frequencies(self) -> np.ndarray:
        return np.bincount(self.tokens[self.tokens >= 0], minlength=len(self.lexicon))


class _Ids(dict):
    """Gives each new key the next id, so that mapping tokens to ids is one C-level `map`."""

    def __missing__(self, key: str) -> int:
        value = self[key] = len(self)
        return value


def lemmatise(texts: Iterable[str]) -> Corpus:
    """Tokenise, lemmatise and encode texts. Lemmatisation runs once per distinct word type,
    not per token; the tokens are then mapped to lemma ids with one numpy gather."""
    types = _Ids()
    parts = []
    for text in texts:
        words = TOKEN.findall(text.lower().replace("\u2019", "'"))
        parts.append(np.fromiter(map(types.__getitem__, words), dtype=np.int32, count=len(words)))
    lexicon = _Ids()
    function_words = corpus_function_words()
    type_to_lemma = np.empty(len(types), dtype=np.int32)
    for word, i in progress(types.items(), desc="corpus: lemmatising word types", unit="type",
                            total=len(types), leave=False):
        type_to_lemma[i] = _lemma_code(word, function_words, lexicon)
    tokens = type_to_lemma[np.concatenate(parts)] if parts else np.empty(0, np.int32)
    tokens = tokens[tokens != _DROPPED]
    return Corpus(tuple(lexicon), np.ascontiguousarray(tokens, dtype=np.int32))


def _lemma_code(word: str, function_words: frozenset[str], lexicon: _Ids) -> int:
    if not word[0].isalpha():
        return SENTENCE_END
    if word.endswith("'s"):
        word = word[:-2]  # the sea's waves: a possessive is its noun
    if word in function_words or "'" in word or len(word) < 2:
        return _DROPPED
    return lexicon[lemma_of(word)]


# --- collocations ------------------------------------------------------------------------

MIN_COUNT = 5  # collocation counts below this are noise


def lexicon_hint_rows(corpus: Corpus, hints: Sequence[str]) -> np.ndarray:
    """For each lemma id, the row of the hint it is, or -1."""
    rows = np.full(len(corpus.lexicon), -1, dtype=np.int64)
    for i, hint in enumerate(hints):
        if (j := corpus.index.get(hint)) is not None:
            rows[j] = i
    return rows


def neighbour_counts(corpus: Corpus, hints: Sequence[str]) -> sparse.csr_matrix:
    """hints × lexicon: how often each hint and each lemma are neighbours in the corpus."""
    return neighbour_block(corpus.tokens, lexicon_hint_rows(corpus, hints), len(hints))


def neighbour_block(tokens: np.ndarray, rows_of: np.ndarray, n_hints: int) -> sparse.csr_matrix:
    """`neighbour_counts` over a stretch of tokens, given each lemma id's hint row (`lexicon_hint_rows`)."""
    from scipy import sparse

    left, right = tokens[:-1], tokens[1:]
    pair = (left >= 0) & (right >= 0) & (left != right)
    left, right = left[pair].astype(np.int64), right[pair].astype(np.int64)
    rows, cols = [], []
    for a, b in ((left, right), (right, left)):
        r = rows_of[a]
        rows.append(r[r >= 0])
        cols.append(b[r >= 0])
    rows, cols = np.concatenate(rows), np.concatenate(cols)
    return sparse.coo_matrix((np.ones(len(rows), dtype=np.float32), (rows, cols)),
                             shape=(n_hints, len(rows_of))).tocsr()


def sentence_counts(corpus: Corpus, hints: Sequence[str]) -> sparse.csr_matrix:
    """hints × lexicon: in how many sentences each hint and each other lemma both occur."""
    return sentence_block(corpus.tokens, lexicon_hint_rows(corpus, hints), len(hints),
                          desc="sentence_collocations: counting")


def sentence_block(tokens: np.ndarray, rows_of: np.ndarray, n_hints: int,
                   desc: str | None = None) -> sparse.csr_matrix:
    """`sentence_counts` over a stretch of tokens, given each lemma id's hint row (`lexicon_hint_rows`);
    a progress bar over hints when `desc` is given."""
    from scipy import sparse

    n_lexicon = len(rows_of)
    sentence = np.cumsum(tokens == SENTENCE_END)
    word = tokens >= 0
    incidence = sparse.coo_matrix(
        (np.ones(int(word.sum()), dtype=np.float32), (sentence[word], tokens[word])),
        shape=(int(sentence[-1]) + 1 if len(sentence) else 0, n_lexicon)).tocsc()
    incidence.sum_duplicates()
    incidence.data[:] = 1.0  # a lemma twice in a sentence is one occurrence
    present = np.flatnonzero(rows_of >= 0)                  # lemma ids that are hints
    by_sentence = incidence.tocsr()
    blocks = []
    starts = range(0, len(present), 1000)
    for start in progress(starts, desc=desc, unit="k hints", leave=False) if desc else starts:
        chunk = present[start:start + 1000]
        counts = (incidence[:, chunk].T.tocsr() @ by_sentence).tocoo()
        keep = counts.col != chunk[counts.row]              # a lemma with itself is no pair
        rows = rows_of[chunk[counts.row[keep]]]
        blocks.append(sparse.coo_matrix((counts.data[keep], (rows, counts.col[keep])),
                                        shape=(n_hints, n_lexicon)).tocsr())
    return sum(blocks[1:], blocks[0]) if blocks else sparse.csr_matrix((n_hints, n_lexicon), dtype=np.float32)


def partitions(tokens: np.ndarray, size: int) -> list[tuple[int, int]]:
    """[start, end) ranges that cover `tokens` in order, about `size` tokens each, every one
    but the last ending just after a SENTENCE_END.

    Counting each range alone and summing gives exactly the counts of the whole, for
    both counts: a neighbour pair is two adjacent word tokens, and the two tokens on
    either side of a cut are a SENTENCE_END and what follows it, never a pair; and a
    sentence lies wholly inside one range, so each sentence is counted once, whole.
    A stretch with no sentence end longer than `size` stays in one range.
    """
    ends = np.flatnonzero(tokens == SENTENCE_END) + 1      # where a range may end
    bounds, start = [], 0
    while start < len(tokens):
        end = _cut(ends, start, start + max(size, 1), len(tokens))
        bounds.append((start, end))
        start = end
    return bounds


def _cut(ends: np.ndarray, start: int, target: int, length: int) -> int:
    """The last allowed end in (start, target], else the first past start, else the corpus end."""
    before = np.searchsorted(ends, target, side="right")
    if before and ends[before - 1] > start:
        return int(ends[before - 1])
    after = np.searchsorted(ends, start, side="right")
    return int(ends[after]) if after < len(ends) else length


def collocation_weights(counts: sparse.spmatrix, min_count: int = MIN_COUNT) -> sparse.csc_matrix:
    """Post-processing of collocation counts: drop counts below `min_count`, divide each
    column by its maximum, take log(1 + x), and rescale so that each column's maximum is 1."""
    from scipy import sparse

    weights = sparse.csc_matrix(counts, dtype=np.float32, copy=True)
    weights.data[weights.data < min_count] = 0
    weights.eliminate_zeros()
    if not weights.nnz:
        return weights
    column_max = weights.max(axis=0).toarray().ravel()
    column_of = np.repeat(np.arange(weights.shape[1]), np.diff(weights.indptr))
    weights.data = (np.log1p(weights.data / column_max[column_of]) / math.log(2)).astype(np.float32)
    return weights


# --- association norms ------------------------------------------------------------------------


def association_matrix(pairs: Iterable[Association]) -> tuple[tuple[str, ...], sparse.csr_matrix]:
    """A symmetric word × word matrix: forward + mediated strength, both directions.

    weight(a, b) = FSG(a→b) + MSG(a→b) + FSG(b→a) + MSG(b→a), over the pairs
    that the norms define; word forms are folded onto their lemma and summed.
    """
    from scipy import sparse

    words = _Ids()
    rows, cols, values = [], [], []
    for pair in progress(pairs, desc="association: reading pairs", unit=" pairs", leave=False):
        a, b = words[lemma_of(pair.cue)], words[lemma_of(pair.response)]
        if a != b:
            rows.append(a)
            cols.append(b)
            values.append(pair.forward + (pair.mediated or 0.0))
    n = len(words)
    strength = sparse.coo_matrix((np.array(values, dtype=np.float32), (rows, cols)), shape=(n, n)).tocsr()
    return tuple(words), (strength + strength.T).tocsr()
