"""The datasets at their publishers: what each file is, where it is served, how a copy is known
to be sound, and a download into the sources folder (`python main.py datasets download`).

The download is polite (one request at a time to each server, the servers side by side, a pause
between two requests to the same server, a User-Agent naming the project), resumable (a file
already there and sound is not fetched again; a missing or corrupt one is) and safe: a file is
written whole beside its final name and renamed into place, so a download cut off leaves only a
temporary (a dot-file, which no reader reads and the next write sweeps), never half a file that a
build would trust. It goes through
the proxy that the standard environment variables name (`https_proxy`, `http_proxy`, `no_proxy`:
urllib reads them).
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import http.client
import io
import os
import re
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import zipfile
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from common import PACKAGE_DATA, atomic_write_bytes, load_words, progress, warn
from initializers.readers import GUTENBERG_END, GUTENBERG_START, USF_PARTS

USER_AGENT = "codenames-ai/0.1.0 (the Codenames console game's datasets download; one file at a time)"
BASE_URL_VARIABLE = "CODENAMES_DATASETS_URL"   # one server for every publisher: the tests' local one
GUTENBERG_BOOKS_PATH = PACKAGE_DATA / "gutenberg_books.txt"
PAUSE = 2.0      # seconds between two requests to one server: Gutenberg's robot page waits 2 s (wget -w 2)
TIMEOUT = 60.0   # seconds without a byte before a request is given up
RETRIES = 1      # a file cut off, corrupt or timed out is asked for once more


class Unreachable(OSError):
    """A publisher that cannot be reached at all (offline, a refused connection, no such host)."""


class FetchError(Exception):
    """One file that could not be had whole and sound; the message names it and says why, and
    `status` is the server's HTTP status when it answered with an error."""

    def __init__(self, message: str, status: int | None = None):
        super().__init__(message)
        self.status = status

    @property
    def absent(self) -> bool:
        """Whether the server says it has no such file (404, 410): asking again will not help."""
        return self.status in (404, 410)


# --- what a sound copy looks like --------------------------------------------------------


def usf_content(data: bytes) -> str | None:
    """What is wrong with an Appendix A page (None when nothing): the header, the end of the page."""
    text = data.decode("latin-1")
    if "CUE, TARGET, NORMED?" not in text[:2000]:
        return "no Appendix A column header (CUE, TARGET, NORMED?, ...)"
    if not text.rstrip().upper().endswith("</HTML>"):
        return "cut off (the page does not end with </HTML>)"
    return None


def pajek_zip_content(data: bytes) -> str | None:
    """What is wrong with a zipped Pajek network: not a sound zip, or no network in it."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            if (bad := archive.testzip()) is not None:
                return f"{bad} in the zip is corrupt"
            if not any(name.lower().endswith(".net") for name in archive.namelist()):
                return "the zip holds no Pajek network (.net)"
    except (zipfile.BadZipFile, EOFError, OSError, zlib.error) as error:
        return f"not a readable zip ({error})"
    return None


def book_content(ebook: int) -> Callable[[bytes], str | None]:
    """The check of a Project Gutenberg book: its header names EBook #`ebook`, and a body of
    text lies between the START and END markers (a book cut off has no END marker)."""
    number = re.compile(rf"#\s*{ebook}\b")

    def check(data: bytes) -> str | None:
        text = data.decode("utf-8", errors="replace")
        start = GUTENBERG_START.search(text)
        if start is None:
            return "no Project Gutenberg header (*** START OF THE PROJECT GUTENBERG EBOOK ...)"
        if not number.search(text[:start.start()]):
            return f"the header does not name EBook #{ebook}"
        end = GUTENBERG_END.search(text, start.end())
        if end is None:
            return "cut off (no *** END OF THE PROJECT GUTENBERG EBOOK marker)"
        if not text[start.end():end.start()].strip():
            return "no text between the header and the licence"
        return None
    return check


def csv_content(data: bytes) -> str | None:
    """What is wrong with a CSV table: not UTF-8, or no header and rows."""
    try:
        lines = data.decode("utf-8").splitlines()
    except UnicodeDecodeError:
        return "not UTF-8 text"
    return None if len(lines) > 1 and "," in lines[0] else "no CSV header and rows"


# --- the datasets ------------------------------------------------------------------------


@dataclass(frozen=True)
class Remote:
    """One file of a dataset: where its publisher serves it, where it goes in the sources folder,
    and how a copy is known to be sound: its SHA-256 where the publisher's file is stable (as
    served), else a check of its content."""

    url: str
    path: str                                  # in the sources folder, '/'-separated
    content: Callable[[bytes], str | None]     # None when the bytes look sound, else what is wrong
    sha256: str | None = None
    also: tuple[str, ...] = ()                 # other names it may already have there

    def sound(self, data: bytes, trust_content: bool = False) -> str | None:
        """What is wrong with these bytes as this file (None when nothing). With `trust_content`,
        a checksum other than the recorded one is accepted when the content checks out."""
        problem = self.content(data)
        if self.sha256 is not None and hashlib.sha256(data).hexdigest() != self.sha256 and (
                problem is not None or not trust_content):
            return "its SHA-256 is not the recorded one (corrupt, or changed at the publisher)"
        return problem


@dataclass(frozen=True)
class Dataset:
    """A dataset the AI can use: what it is, what it adds, its terms, and its files."""

    name: str               # also its folder in the sources folder
    what: str
    adds: str
    size: str
    licence: str
    publisher: str
    checksums: str          # where the recorded SHA-256 values come from
    files: tuple[Remote, ...] = field(repr=False)
    default: bool = True    # fetched by a plain `download` (not the evaluation-only record)


USF_PAGE = "http://w3.usf.edu/FreeAssociation/AppendixA/Cue_Target_Pairs.{part}"
# SHA-256 of the eight pages, from ../shared/datasets/README.md: of the byte-identical copies in
# the mirror github.com/DreamingRaven/Word-Association (ProgramResources/A Appendix/, commit
# b641fac, 2016), not of w3.usf.edu's own pages, which could not be reached from here. A page
# whose checksum differs but whose content checks out is kept with --trust-content.
USF_SHA256 = {
    "A-B": "8054e6d4f804b35ddc0c21ae76455ab07d3b8b0d2378dbe1242f0f20d1ea0655",
    "C": "443c30bd97b339ddc743e29dc922397716e4486295f089468d50726de3df5de0",
    "D-F": "fbeced5dcc487b673f618296c1d48efdd52a260e384f97a9757dc430dccc338c",
    "G-K": "7a956a7db5a61ad55dcb28c3f576f1174a3c9d253617f09a2c24021e73a5d9c3",
    "L-O": "3aabf55bc66b9bf510d04655effd261fa2420a6431677853169044b99f3135b1",
    "P-R": "2253c07c1c23e8e6d6c3f48a24007c7e63833e907f2292816879b4af08849dcd",
    "S": "6602d847dc99693ef598279c8da73649f11db491da2ec9db3c206d376bda232e",
    "T-Z": "39d492c5cb63cb2347987c58a9a328619870f649d97796a34b25bf214a191264",
}
# The Pajek collection at the commit ../shared/datasets was copied from: a file there never changes.
EAT_ZIP = ("https://raw.githubusercontent.com/bavla/Nets/7ec138b740b86f4455687eabfc51ba949b5346cf/"
           "data/Pajek/dic/EAT/EATnew.zip")
EAT_SHA256 = "218d0fab43571fd4280de6a67075c2e17001520b3a4ec782e1b79997d28e9fdb"
GUTENBERG_BOOK = "https://www.gutenberg.org/cache/epub/{n}/pg{n}.txt"
DUET_CSV = "https://raw.githubusercontent.com/SALT-NLP/codenames/9bf4550e681f7a42ac406439b00b0c717f59f13c/data/{task}/val.csv"
DUET_SHA256 = {
    "clue_generation_task": "0c6ec372914a5dc6a5836154c5d167db851137343ec0b3d6b1e82d1fb575aecb",
    "generate_guess_task": "13572d274f615e2b0717b53eeb58a0817d9ec7acc4aa791f4d559e73810caf8e",
    "target_selection_task": "58cec4046d2d5aa6f24ebb3f17fe62c63bc8747e0e0096254232deaca8cbcd70",
    "correct_guess_task": "a5bcf752d81b9ff10c033d112a85b32b9cee6426eaff57fa3ab95f5d13106b9f",
}


def gutenberg_books(path: Path | None = None) -> list[int]:
    """The EBook numbers of the corpus (data/gutenberg_books.txt)."""
    return [int(line.split()[0]) for line in load_words(path or GUTENBERG_BOOKS_PATH)]


def book(ebook: int) -> Remote:
    """A Project Gutenberg book: its plain-text UTF-8 file, kept gzipped (the reader reads .txt.gz)."""
    return Remote(GUTENBERG_BOOK.format(n=ebook), f"corpus/gutenberg/pg{ebook}.txt.gz", book_content(ebook),
                  also=(f"corpus/gutenberg/pg{ebook}.txt",))


@functools.cache
def downloadable() -> dict[str, Dataset]:
    """Every dataset the download knows, by name, in the order it fetches them."""
    return {d.name: d for d in (_usf(), _eat(), _corpus(), _human_duet())}


def _usf() -> Dataset:
    return Dataset(
        "usf",
        what="University of South Florida free association norms (Nelson, McEvoy & Schreiber, 1998), "
             "Appendix A: 72,176 cue-target pairs over 5,018 cues",
        adds="the association matrix (what people say a word makes them think of), its part of the "
             "combined matrix and of the double link; half of the people reader",
        size="10.3 MB, 8 pages",
        licence="no licence stated; the USF pages say 'Copyright Nelson, McEvoy & Schreiber'. Cite "
                "Nelson, McEvoy & Schreiber (2004), Behavior Research Methods 36",
        publisher="http://w3.usf.edu/FreeAssociation/ (Appendix A)",
        checksums="a mirror's byte-identical copies (github.com/DreamingRaven/Word-Association, b641fac)",
        files=tuple(Remote(USF_PAGE.format(part=part), f"usf/{part}.txt", usf_content, USF_SHA256[part],
                           also=(f"usf/Cue_Target_Pairs.{part}",)) for part in USF_PARTS))


def _eat() -> Dataset:
    return Dataset(
        "eat",
        what="Edinburgh Associative Thesaurus (Kiss et al., 1973) as a Pajek network: 325,593 "
             "stimulus-response arcs",
        adds="the eat matrix (British students' associations), its part of the combined matrix; the "
             "other half of the people reader",
        size="1.1 MB, 1 zip",
        licence="no licence stated in the files; the Pajek collection's index puts its data sets under "
                "CC BY-NC-SA 2.5 unless stated otherwise. Cite Kiss et al. (1973)",
        publisher="the Pajek data sets, github.com/bavla/Nets",
        checksums="the publisher's own file, at the pinned commit",
        files=(Remote(EAT_ZIP, "eat/EATnew.zip", pajek_zip_content, EAT_SHA256),))


def _corpus() -> Dataset:
    books = tuple(book(n) for n in gutenberg_books())
    return Dataset(
        "corpus",
        what=f"{len(books)} English books from Project Gutenberg, 15 M words",
        adds="word and sentence collocations and fastText vectors trained on the books: three parts of "
             "the combined matrix, and words no list knows",
        size="about 94 MB served, 35 MB on disk (gzip)",
        licence="public domain in the USA; each book carries the Project Gutenberg License",
        publisher="https://www.gutenberg.org",
        checksums="none: Gutenberg's files change (headers, corrections); each is checked for its "
                  "header, its EBook number and a whole text",
        files=books)


def _human_duet() -> Dataset:
    return Dataset(
        "human_duet",
        what="people playing Codenames Duet (Shaikh et al., 2023), validation split: clues, targets "
             "and guesses",
        adds="nothing to the game: the bench's human tier measures the AI against it",
        size="5.6 MB, 4 CSV files",
        licence="no licence stated: for evaluation only; commit nothing made from it",
        publisher="github.com/SALT-NLP/codenames",
        checksums="the publisher's own files, at the pinned commit",
        files=tuple(Remote(DUET_CSV.format(task=task), f"human_duet/{task}/val.csv", csv_content, sha)
                    for task, sha in DUET_SHA256.items()),
        default=False)


# --- fetching ----------------------------------------------------------------------------


def opener() -> urllib.request.OpenerDirector:
    """urllib's opener, whose ProxyHandler takes the proxies from the environment."""
    return urllib.request.build_opener(urllib.request.ProxyHandler())


def located(url: str, base_url: str | None) -> str:
    """The URL to ask: the publisher's, or the same path on `base_url` (one server for all)."""
    if not base_url:
        return url
    parts = urllib.parse.urlsplit(url)
    return base_url.rstrip("/") + parts.path + (f"?{parts.query}" if parts.query else "")


def fetch(url: str, timeout: float = TIMEOUT, via: urllib.request.OpenerDirector | None = None) -> bytes:
    """The bytes at `url`, whole: FetchError when it answers with an error, is cut off or times
    out; Unreachable when it cannot be reached at all."""
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
    try:
        response = (via or opener()).open(request, timeout=timeout)
    except urllib.error.HTTPError as error:
        raise FetchError(f"{url}: HTTP {error.code} {error.reason}", error.code) from None
    except urllib.error.URLError as error:     # refused, no such host, no route: nothing answers
        raise Unreachable(f"cannot reach {url}: {_reason(error.reason)}") from None
    except (OSError, http.client.HTTPException) as error:   # a timeout or a reset before the headers
        raise FetchError(f"{url}: {_reason(error)}") from None
    with response:
        try:
            data = response.read()
        except http.client.IncompleteRead as error:
            raise FetchError(f"{url}: cut off after {len(error.partial):,} bytes") from None
        except (OSError, http.client.HTTPException) as error:
            raise FetchError(f"{url}: {_reason(error)}") from None
    length = response.headers.get("Content-Length")
    if length is not None and length.isdigit() and len(data) != int(length):
        raise FetchError(f"{url}: cut off after {len(data):,} of {int(length):,} bytes")
    return data


def _reason(error: object) -> str:
    if isinstance(error, TimeoutError):
        return "timed out"
    return str(error) or type(error).__name__


# --- the sources folder ------------------------------------------------------------------


def read_copy(path: Path) -> bytes:
    """A copy's bytes as served (a gzipped one unzipped)."""
    data = path.read_bytes()
    return gzip.decompress(data) if path.name.endswith(".gz") else data


EBOOK_NUMBER = re.compile(r"\b(?:e-?book|e-?text)\s*#\s*(\d+)", re.I)   # [EBook #98], [Etext #4363]
BOOK_URL = re.compile(r"/pg(\d+)\.txt$")
HEADER = 16_384   # bytes of a book read for its EBook number: the header comes before the text


def problem_of(remote: Remote, path: Path) -> str | None:
    """What is wrong with the file at `path` as `remote` (None when nothing)."""
    try:
        return remote.sound(read_copy(path))
    except (OSError, EOFError, zlib.error) as error:
        return f"unreadable ({error})"


def ebook_number(path: Path) -> int | None:
    """The EBook number a Project Gutenberg file's header names ("[EBook #98]"), or None."""
    try:
        with (gzip.open(path) if path.name.endswith(".gz") else open(path, "rb")) as f:
            head = f.read(HEADER).decode("utf-8", errors="replace")
    except (OSError, EOFError, zlib.error):
        return None
    start = GUTENBERG_START.search(head)
    found = EBOOK_NUMBER.search(head[:start.start()] if start else head)
    return int(found.group(1)) if found else None


class Shelf:
    """What a sources folder holds of the datasets, found as `datasets status` and the game find
    it: each file under the name the download gives it (or another it may have), else by any
    name in its dataset's folder, by its SHA-256 (a file its publisher serves unchanged) or, a
    book, by the EBook number its header names. So a folder filled by hand (the books named by
    their titles) serves a mirror as well as a downloaded one. Each folder is looked through
    once, when first asked about."""

    def __init__(self, sources: Path):
        self.sources = Path(sources)
        self._others: dict[str, dict[str | int, Path]] = {}
        self._lock = threading.Lock()   # a download asks from a thread for each server

    def copy_of(self, remote: Remote) -> tuple[Path | None, str | None]:
        """The copy of `remote` in the sources folder and what is wrong with it: (path, None)
        sound, (path, why) unsound, (None, None) none there."""
        found = None
        for name in (remote.path, *remote.also):
            path = self.sources / name
            if path.is_file():
                if (problem := problem_of(remote, path)) is None:
                    return path, None
                found = found or (path, problem)
        if found is None and (path := self._elsewhere(remote)) is not None:
            found = (path, problem_of(remote, path))
        return found or (None, None)

    def _elsewhere(self, remote: Remote) -> Path | None:
        """A file of `remote`'s folder named otherwise that is it: by its SHA-256, or its EBook number."""
        folder = remote.path.split("/", 1)[0]
        with self._lock:
            if folder not in self._others:
                self._others[folder] = self._look_through(folder)
        number = BOOK_URL.search(remote.url)
        return self._others[folder].get(int(number.group(1)) if number else remote.sha256)

    def _look_through(self, folder: str) -> dict[str | int, Path]:
        """The files of a dataset's folder under no name the download gives: by SHA-256 (when its
        files have one recorded) or by EBook number (the corpus)."""
        remotes = [r for d in downloadable().values() for r in d.files if r.path.startswith(f"{folder}/")]
        named = {self.sources / name for r in remotes for name in (r.path, *r.also)}
        hashed = any(r.sha256 for r in remotes)
        found: dict[str | int, Path] = {}
        for path in sorted((self.sources / folder).rglob("*")) if (self.sources / folder).is_dir() else ():
            if not path.is_file() or path.name.startswith(".") or path in named:
                continue
            try:
                key = hashlib.sha256(read_copy(path)).hexdigest() if hashed else ebook_number(path)
            except (OSError, EOFError, zlib.error):
                continue
            if key is not None:
                found.setdefault(key, path)
        return found


def save(path: Path, data: bytes) -> None:
    """Write a copy whole or not at all (gzipped when its name says so, the same bytes every time)."""
    atomic_write_bytes(path, gzip.compress(data, mtime=0) if path.name.endswith(".gz") else data)


def mirror_path(remote: Remote) -> str:
    """Where a mirror serves a file: its publisher's URL path, which a download through `--base-url`
    asks for (`located`): cache/epub/46/pg46.txt, FreeAssociation/AppendixA/Cue_Target_Pairs.A-B."""
    return urllib.parse.urlsplit(remote.url).path.lstrip("/")


def mirror(names: Sequence[str], sources: Path, folder: Path) -> tuple[list[str], list[str]]:
    """Write each file of the named datasets that is sound in `sources` under `folder`, at its
    publisher's URL path and as its publisher serves it (a book as plain text): a folder that any
    static web server (`python -m http.server`) serves as a mirror for `download(base_url=...)`.
    The files are found by any name (`Shelf`): a folder filled by hand serves as well.
    Returns the paths written under `folder`, and the files missing or unsound in `sources`."""
    written, missing, shelf = [], [], Shelf(sources)
    for name in names:
        for remote in downloadable()[name].files:
            path, problem = shelf.copy_of(remote)
            if path is None or problem is not None:
                missing.append(remote.path)
                continue
            target = folder / mirror_path(remote)
            atomic_write_bytes(target, read_copy(path))
            written.append(target.relative_to(folder).as_posix())
    return written, missing


@dataclass
class Download:
    """What a download did: files fetched, found sound already, fetched again (found unsound),
    failed (one line each), and absent: the URLs a server said it has no file at (HTTP 404)."""

    fetched: list[str] = field(default_factory=list)
    present: list[str] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    absent: list[str] = field(default_factory=list)


def download(names: Sequence[str], sources: Path, base_url: str | None = None, pause: float | None = None,
             timeout: float = TIMEOUT, retries: int = RETRIES, trust_content: bool = False,
             books: Sequence[int] | None = None, say: Callable[[str], None] = warn) -> Download:
    """Fetch the files of the named datasets that are missing or unsound in `sources`.

    Every file is asked of its publisher, or at the same path of `base_url` (default: the
    environment's $CODENAMES_DATASETS_URL, if set). The servers are asked side by side, each one
    request at a time, `pause` seconds (default `PAUSE`) between two to it. A file that fails
    (an HTTP error, cut off, corrupt, timed out) is asked for `retries` more times, then named
    in one line to `say` and left out: what was there stays. A publisher that cannot be reached
    raises Unreachable, leaving every file as it was; the other servers stop after the file they
    are fetching. `books` narrows the corpus to these EBook numbers. On a terminal a bar shows
    the progress; elsewhere (a log, a pipe) a line says it every 10%.
    """
    wanted = [(name, remote) for name in names for remote in downloadable()[name].files
              if name != "corpus" or books is None]
    wanted += [("corpus", book(n)) for n in (books if "corpus" in names and books is not None else ())]
    base_url = base_url or os.environ.get(BASE_URL_VARIABLE) or None
    pause = PAUSE if pause is None else pause
    session = functools.partial(_Session, base_url, pause, timeout, retries, trust_content)
    outcomes = _fetch_side_by_side(wanted, sources, base_url, session, say)
    done = Download()
    for i in sorted(outcomes):
        outcome, what = outcomes[i]
        getattr(done, outcome).append(what)
    return done


def _fetch_side_by_side(wanted: list[tuple[str, Remote]], sources: Path, base_url: str | None,
                        session_for: Callable[[Callable[[str], None]], _Session],
                        say: Callable[[str], None]) -> dict[int, tuple[str, str]]:
    """Bring each wanted file (dataset, remote) into `sources`, the servers side by side, each over
    a session of its own (`session_for` a line teller), with a bar or a line every 10%. Returns
    each file's place in `wanted` → (what was done, its path or the error)."""
    servers: dict[str, list[tuple[int, str, Remote]]] = {}
    shelf = Shelf(sources)
    for i, (name, remote) in enumerate(wanted):
        host = urllib.parse.urlsplit(located(remote.url, base_url)).netloc
        servers.setdefault(host, []).append((i, name, remote))
    outcomes: dict[int, tuple[str, str]] = {}
    with progress(total=len(wanted), desc="datasets", unit="file") as bar:
        lock, stop = threading.Lock(), threading.Event()
        tenths = _Tenths(len(wanted), say if bar.disable else None)

        def tell(line: str) -> None:
            with lock:
                if bar.disable:
                    say(line)
                else:
                    bar.write(line, file=sys.stderr)

        def fetch_from(files: list[tuple[int, str, Remote]]) -> None:
            session = session_for(tell)
            for i, name, remote in files:
                if stop.is_set():
                    return
                outcomes[i] = _bring(remote, shelf, session, tell)
                with lock:
                    bar.set_postfix_str(name, refresh=False)
                    bar.update(1)
                    tenths.done(1)

        _side_by_side([functools.partial(fetch_from, files) for files in servers.values()], stop)
    return outcomes


def _bring(remote: Remote, shelf: Shelf, session: _Session, tell: Callable[[str], None]) -> tuple[str, str]:
    """Make the copy of `remote` on the shelf sound: (what was done, its path, the error, or the
    URL a server has no file at: those are told all at once, at the end)."""
    found, problem = shelf.copy_of(remote)
    if found is not None and problem is None:
        return "present", remote.path
    if problem is not None:
        tell(f"{found.relative_to(shelf.sources).as_posix()}: {problem}; fetching it again")
    error = session.fetch_into(found or shelf.sources / remote.path, remote)
    if error is None:
        return ("replaced" if problem else "fetched"), remote.path
    if error.absent:
        return "absent", located(remote.url, session.base_url)
    tell(str(error))
    return "failed", str(error)


def _side_by_side(jobs: Sequence[Callable[[], None]], stop: threading.Event) -> None:
    """Run `jobs` at once, each in a thread; the first error (Unreachable, a full disk) or an
    interrupt sets `stop`, and is raised once every job has stopped. The threads are daemons, so
    that a Ctrl-C is answered at once: an interrupted fetch leaves only a temporary file."""
    errors: list[BaseException] = []

    def run(job: Callable[[], None]) -> None:
        try:
            job()
        except BaseException as error:   # noqa: BLE001 - raised again in the calling thread
            errors.append(error)
            stop.set()

    threads = [threading.Thread(target=run, args=(job,), daemon=True) for job in jobs]
    for thread in threads:
        thread.start()
    try:
        for thread in threads:
            while thread.is_alive():
                thread.join(0.1)
    except KeyboardInterrupt:
        stop.set()
        raise
    if errors:
        raise errors[0]


@dataclass
class _Tenths:
    """Lines for a log: 'datasets: 37 of 368 files (10%)' each time another tenth is done."""

    total: int
    say: Callable[[str], None] | None
    count: int = 0

    def done(self, n: int) -> None:
        before, self.count = self.count, self.count + n
        if self.say is not None and self.total and before * 10 // self.total < self.count * 10 // self.total:
            self.say(f"datasets: {self.count} of {self.total} files ({100 * self.count // self.total}%)")


@dataclass
class _Session:
    """One download's requests: one at a time, through the environment's proxy, with a pause
    between two to the same server."""

    base_url: str | None
    pause: float
    timeout: float
    retries: int
    trust_content: bool
    tell: Callable[[str], None]
    via: urllib.request.OpenerDirector = field(default_factory=opener)
    last: dict[str, float] = field(default_factory=dict)   # server → when its last request ended

    def fetch_into(self, target: Path, remote: Remote) -> FetchError | None:
        """Fetch `remote` into `target` (1 + `retries` tries); None when done, else why not (a
        server that has no such file, `FetchError.absent`, is not asked again)."""
        url = located(remote.url, self.base_url)
        host = urllib.parse.urlsplit(url).netloc
        error = None
        for _ in range(1 + self.retries):
            if host in self.last:
                time.sleep(max(0.0, self.pause - (time.monotonic() - self.last[host])))
            try:
                data = fetch(url, self.timeout, self.via)
            except FetchError as failure:
                if failure.absent:
                    return failure
                error = str(failure)
                continue
            finally:
                self.last[host] = time.monotonic()
            if (problem := remote.sound(data, self.trust_content)) is not None:
                error = f"{url}: {problem}"
                continue
            if remote.sha256 is not None and hashlib.sha256(data).hexdigest() != remote.sha256:
                self.tell(f"{remote.path}: kept with a SHA-256 other than the recorded one "
                          "(--trust-content: its content checks out)")
            save(target, data)
            return None
        return FetchError(f"{remote.path} not fetched: {error}")
