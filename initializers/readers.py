"""Readers: the datasets as they are distributed (USF norms, the EAT Pajek network, plain-text books)."""

from __future__ import annotations

import gzip
import html
import re
import zipfile
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import NamedTuple

import numpy as np

from common import progress, warn
from initializers.sources import SourceError

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


def read_usf(paths: Iterable[Path], problem: Callable[[str], None] = warn) -> Iterator[Association]:
    """Cue-target pairs of the USF norms, Appendix A: FSG and MSG of each row.

    The files are ISO-8859-1 text wrapped in <HTML><BODY><PRE>; fields are
    separated by ", ". The header line is recognised by its content (its #G
    field is not a number), so the real cue "CUE" is read like any other. What is wrong
    with the files (a missing part, unreadable rows) goes to `problem`, one line each.
    """
    paths = list(paths)
    if missing := usf_parts_missing(paths):
        problem(f"usf: Appendix A is incomplete, no file for cues {', '.join(missing)} "
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
            problem(f"usf: {Path(path).name}: {len(bad)} unreadable row(s) skipped (line {bad[0]}: "
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


def read_corpus(paths: Sequence[Path], problem: Callable[[str], None] = warn) -> Iterator[str]:
    """The body text of each corpus file, with a progress bar; an unreadable file is skipped
    with a line to `problem` that names it."""
    for path in progress(paths, desc="corpus: reading books", unit="file", leave=False):
        try:
            yield strip_gutenberg(read_text(path))
        except (SourceError, OSError) as error:
            problem(f"corpus: skipped {error}")
