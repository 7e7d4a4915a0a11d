"""`python main.py datasets`: download the datasets that make the AI stronger, and say what is there.

`download` fetches them from their publishers into the sources folder (initializers/fetch.py
knows the files, their checks and how to fetch them politely); `status` lists what is present;
`mirror DIR` writes them at the publishers' paths, for a club or a class to serve to its own.
The game offers the download once, before the first interactive game without any dataset
(`offer`), and remembers a "no".
"""

from __future__ import annotations

import argparse
import os
import textwrap
import urllib.parse
from collections.abc import Callable, Sequence
from pathlib import Path

from cli import Command, folder_to_fill, sources_folder
from common import COMMAND as PROGRAM
from common import DATA_DIR, SOURCES_DIR, interactive, sha256_file, shown, warn

# fetch.py's own command line reads it directly: through datasets.py every start of the game would
# load the catalog and scipy.sparse for this command's help text.
from initializers.fetch import (
    BASE_URL_VARIABLE,
    PAUSE,
    TIMEOUT,
    Dataset,
    Download,
    Shelf,
    Unreachable,
    download,
    downloadable,
    mirror,
)
from initializers.recipe import BUILD_TIME, FIRST_BUILD_MINUTES
from initializers.sources import SOURCES, download_command

DECLINED_PATH = DATA_DIR / "datasets_declined"   # a "no" to the game's offer (git-ignored)

SUMMARY = "download the datasets that make the AI stronger; say what is there"


def describe() -> str:
    """What each dataset is, what it adds, its size, terms and publisher: the --help text."""
    lines = [*textwrap.wrap("Download the datasets that make the AI stronger from their publishers, into "
                            f"the sources folder (default {shown(SOURCES_DIR)}), or say what is there. "
                            "Without them the AI plays on SBERT and WordNet alone. The datasets:", 88), ""]
    for d in downloadable().values():
        optional = "" if d.default else " (evaluation only: fetched when named)"
        lines += textwrap.wrap(f"{d.name}{optional}: {d.what}.", 88, subsequent_indent="  ")
        for label, text in (("adds", d.adds), ("size", d.size), ("terms", d.licence),
                            ("from", d.publisher), ("checked", d.checksums)):
            lines += textwrap.wrap(f"{label}: {text}", 88, initial_indent="  ", subsequent_indent="    ")
        lines.append("")
    return "\n".join(lines).rstrip()


DESCRIPTION = describe()

EPILOG = f"""examples:
  {PROGRAM} datasets download           USF, EAT and the books (into {shown(SOURCES_DIR)})
  {PROGRAM} datasets download usf eat   only these
  {PROGRAM} datasets status --files     what is there, file by file, with checksums
  {PROGRAM} datasets mirror DIR         a folder to serve as a mirror (python -m http.server)

The download goes one file at a time, with a pause between two requests to the same server
({PAUSE:g} s), through the proxy that https_proxy / http_proxy name. Run it again to fetch what is
missing or corrupt; what is there and sound is kept. The URLs follow the publishers' paths as
known when this was written; they could not be tried from the machines it was made on.
Where each dataset comes from and how to put it in by hand: {PROGRAM} help datasets"""


def parser() -> argparse.ArgumentParser:
    """`python main.py datasets`'s own parser."""
    return COMMAND.parser()


def add_arguments(p: argparse.ArgumentParser) -> None:
    """`download [NAME ...]` and `status`, and where the sources folder is."""
    actions = p.add_subparsers(dest="action", title="actions", metavar="ACTION")
    get = actions.add_parser("download", help="fetch what is missing or corrupt",
                             description="Fetch the named datasets (default: " + ", ".join(
                                 n for n, d in downloadable().items() if d.default) + ") from their "
                             "publishers; what is there and sound is kept.")
    get.add_argument("names", nargs="*", metavar="NAME", type=dataset_name,
                     help=f"datasets to fetch: {', '.join(downloadable())}")
    get.add_argument("--pause", type=float, default=PAUSE, metavar="SECONDS",
                     help=f"pause between two requests to one server (default {PAUSE:g})")
    get.add_argument("--timeout", type=float, default=TIMEOUT, metavar="SECONDS",
                     help=f"give up a request after this long without data (default {TIMEOUT:g})")
    get.add_argument("--base-url", default=None, metavar="URL",
                     help=f"ask this server for every file, at the publishers' paths (a mirror, the "
                          f"tests' local server); also ${BASE_URL_VARIABLE}")
    get.add_argument("--trust-content", action="store_true",
                     help="keep a file whose SHA-256 is not the recorded one when its content checks out")
    status = actions.add_parser("status", help="what is present: files, size, checksums, what each adds")
    status.add_argument("--files", action="store_true", help="list every file with its SHA-256")
    copy = actions.add_parser("mirror", help="write a folder that serves the datasets as a mirror",
                              description="Write the datasets in the sources folder into DIR at their "
                              "publishers' URL paths, as the publishers serve them, for a club or a class "
                              "to download once and serve: python -m http.server --directory DIR; then "
                              "datasets download --base-url http://HOST:8000 --pause 0.")
    copy.add_argument("folder", type=folder_to_fill, metavar="DIR", help="the folder to write (the mirror)")
    copy.add_argument("names", nargs="*", metavar="NAME", type=dataset_name,
                      help=f"datasets to copy (default: those a download fetches): "
                           f"{', '.join(downloadable())}")
    for action, folder in ((get, folder_to_fill), (status, sources_folder), (copy, sources_folder)):
        action.add_argument("--sources", type=folder, default=SOURCES_DIR, metavar="DIR",
                            help=f"the sources folder (default {shown(SOURCES_DIR)})")


def dataset_name(text: str) -> str:
    """A dataset's name, as an argparse type (a type, not `choices`: with nargs="*", argparse
    would check the empty list against the choices too, and list it among them)."""
    if text not in downloadable():
        raise argparse.ArgumentTypeError(f"no dataset {text!r}: choose from {', '.join(downloadable())}")
    return text


def main(argv: Sequence[str]) -> int:
    """`python main.py datasets ARGV`."""
    return COMMAND.main(argv)


def run(args: argparse.Namespace, **options) -> int:
    action = getattr(args, "action", None)
    if action in ("download", "mirror"):
        names = args.names or [n for n, d in downloadable().items() if d.default]
        if action == "mirror":
            return write_mirror(names, args.sources, args.folder)
        return fetch(names, args.sources, base_url=args.base_url, pause=args.pause, timeout=args.timeout,
                     trust_content=args.trust_content)
    return status(getattr(args, "sources", SOURCES_DIR), getattr(args, "files", False))


def fetch(names: Sequence[str], sources: Path, **options) -> int:
    """Download, then one line on what was done; the exit status (0 when every file is there)."""
    try:
        done = download(names, sources, **options)
    except Unreachable as error:
        warn(f"datasets: {error}. Check the network, or the proxy (https_proxy, http_proxy); nothing "
             "was removed, and the same command goes on where it stopped.")
        return 1
    except KeyboardInterrupt:
        warn("datasets: interrupted; what was fetched whole is kept, and the same command goes on.")
        return 130
    except OSError as error:   # the sources folder cannot be written
        warn(f"datasets: {error}")
        return 1
    total = len(done.fetched) + len(done.replaced) + len(done.present) + len(done.failed) + len(done.absent)
    parts = [f"{len(done.fetched)} fetched", f"{len(done.present)} already there"]
    parts += [f"{len(done.replaced)} fetched again (corrupt)"] * bool(done.replaced)
    parts += [f"{len(done.failed)} failed"] * bool(done.failed)
    parts += [f"{len(done.absent)} not found (HTTP 404)"] * bool(done.absent)
    warn(f"datasets: {total} files in {sources}/: {', '.join(parts)}.")
    if done.absent:
        for line in not_found(done, options.get("base_url") or os.environ.get(BASE_URL_VARIABLE), sources):
            warn(line)
    if done.failed:
        warn("datasets: run the same command again to fetch what failed.")
    if done.failed or done.absent:
        return 1
    if done.fetched or done.replaced:
        warn(f"datasets: the next game starts at once and builds the AI's matrices in the background "
             f"({BUILD_TIME}, once); they join the game after it.")
    return 0


def not_found(done: Download, base_url: str | None, sources: Path) -> list[str]:
    """Two lines on the files a server said it does not have: which, and what to do (asking again
    would not help)."""
    urls = done.absent
    names = ", ".join(urllib.parse.urlsplit(url).path.lstrip("/") for url in urls[:3])
    more = f" and {len(urls) - 3} more" if len(urls) > 3 else ""
    where = base_url.rstrip("/") if base_url else "their publishers"
    lines = [f"datasets: not at {where}: {names}{more}."]
    if base_url:
        lines.append(f"datasets: that mirror lacks them: write it again where it is served from with "
                     f"`{PROGRAM} datasets mirror DIR --sources FOLDER` from a folder that has them "
                     f"(`datasets status --sources FOLDER` says), or download without --base-url from "
                     f"the publishers.")
    else:
        lines.append(f"datasets: a publisher moved them: put them in {sources}/ by hand (where from: "
                     f"`{PROGRAM} datasets --help`; the formats: `{PROGRAM} help datasets`).")
    return lines


def write_mirror(names: Sequence[str], sources: Path, folder: Path) -> int:
    """`datasets mirror DIR`: the mirror, then how to serve it and download from it; exit status 1
    when a file was not there to copy."""
    try:
        written, missing = mirror(names, sources, folder)
    except OSError as error:
        warn(f"datasets: {error}")
        return 1
    warn(f"datasets: {len(written)} files written to {folder}/, at the publishers' paths.")
    if missing:
        files = f"{len(missing)} file{'s' * (len(missing) != 1)}"
        warn(f"datasets: {files} missing or corrupt in {sources}/ left out (e.g. {missing[0]}): "
             f"{download_command(sources, *names)} fetches them.")
    warn(f"Serve it with: python -m http.server 8000 --directory {folder}\n"
         f"and download from it with: {PROGRAM} datasets download --base-url http://HOST:8000 --pause 0")
    return 1 if missing else 0


def status(sources: Path, files: bool = False, out: Callable[[str], None] = print) -> int:
    """What is in the sources folder for each dataset: its files, size and checks, what it adds."""
    out(f"datasets in {sources}/:")
    shelf = Shelf(sources)
    for d in downloadable().values():
        copies = [(remote, *shelf.copy_of(remote)) for remote in d.files]
        present = [(path, problem) for _, path, problem in copies if path is not None]
        out(f"{d.name}: {_dataset_line(d, sources, present)}")
        out(f"  adds: {d.adds}")
        if files:
            for path, problem in present:
                state = "sound" if problem is None else problem
                out(f"    {path.relative_to(sources).as_posix()}  {path.stat().st_size:,} bytes  "
                    f"sha256 {sha256_file(path)}  {state}")
    return 0


def _dataset_line(d: Dataset, sources: Path, present: list[tuple[Path, str | None]]) -> str:
    """One dataset's line in `status`: how many of its files are there and sound (each with the
    problem found, or None), or the command that fetches it; and the other files the AI reads."""
    if not present:
        line = f"missing: {download_command(sources, d.name)}"
    else:
        sound = sum(problem is None for _, problem in present)
        size = sum(path.stat().st_size for path, _ in present)
        unit = "books" if d.name == "corpus" else "files"
        check = "SHA-256 as recorded" if all(r.sha256 for r in d.files) else "content checked"
        line = f"{len(present)} of {len(d.files)} {unit}, {size / 1e6:.1f} MB; {sound} sound ({check})"
        if sound < len(present):
            line += f", {len(present) - sound} corrupt: {download_command(sources, d.name)}"
    ours = {path for path, _ in present}
    others = [p for p in SOURCES[d.name].files(sources) if p not in ours] if d.name in SOURCES else []
    if others:
        line += f"; and {len(others)} other file{'s' * (len(others) != 1)} the AI reads"
    return line


# --- the game's offer --------------------------------------------------------------------


OFFER = """The AI played on SBERT and WordNet alone. With the datasets it plays better (people's word
associations from USF and EAT, and 359 books from Project Gutenberg: about 105 MB to download,
47 MB on disk; some 12 minutes, pausing between files as Gutenberg asks; then the next game starts
at once, with a {build}-minute build in the background, once). This is asked once.
Download them now? (later: {command} datasets download) [y/N]> """


def offer(sources: Path, declined: Path | None = None, ask: Callable[[str], str] | None = None) -> bool:
    """After a game in a terminal with no dataset in `sources`: ask once whether to download them;
    whether some came. A "no" is remembered in `declined` (default data/datasets_declined); a run
    that is not interactive is never asked."""
    declined, ask = declined or DECLINED_PATH, ask or input
    if not interactive() or declined.exists() or any(s.files(sources) for s in SOURCES.values()):
        return False
    try:
        answer = ask(OFFER.format(build=FIRST_BUILD_MINUTES, command=PROGRAM)).strip().lower()
    except EOFError:
        return False
    if answer in ("y", "yes"):
        fetch([n for n, d in downloadable().items() if d.default], sources)
        return any(s.files(sources) for s in SOURCES.values())
    try:
        declined.parent.mkdir(parents=True, exist_ok=True)
        declined.write_text("You said no to downloading the datasets before a game. Delete this file to "
                            f"be asked again, or run: {PROGRAM} datasets download\n")
    except OSError as error:
        warn(f"could not remember the answer in {declined}: {error}")
    return False


COMMAND = Command("datasets", "download the datasets, or say which are there", DESCRIPTION, add_arguments,
                  run, EPILOG)
