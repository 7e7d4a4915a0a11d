"""What every command shares on the command line: the flags that choose the AI, and the AI
they build. main.py, bench, serve, the companion and Duet all import it; it imports none of them."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import NoReturn

from common import COMMAND, DEFAULT_SBERT_MODEL, SOURCES_DIR, cluster, shown, warn
from model import AGENTS, AI, CAPTAINS, DEFAULT_AGENT, DEFAULT_CAPTAIN, ExpectedCaptain
from players import Composition


def parse_seed(text: str) -> int:
    """A seed for numpy, as an argparse type: a whole number, 0 or more."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"a seed is a whole number, 0 or more, not {text!r}")
    return value


def sources_folder(text: str) -> Path:
    """`--sources DIR` as an argparse type: a folder that exists. A wrong one ends the command with
    one line naming it and exit status 2; unsaid, the AI would play on SBERT alone. (The default,
    data/sources/, is not checked: argparse converts only what was typed, and none there is fine.)"""
    path = Path(text)
    if not path.is_dir():
        wrong("--sources", text, "is a file, not a folder" if path.exists() else "does not exist")
    return path


def team_flag(text: str) -> Composition:
    """A --red or --blue flag's team, read once."""
    try:
        return Composition.parse(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def initializer_flag(text: str, flag: str = "--initializer", steps: bool = False) -> str:
    """`--initializer NAME` as an argparse type: a matrix the catalog knows, by its cache's name."""
    from datasets import INITIALIZERS, canonical

    try:
        return canonical(text, steps)
    except ValueError:
        wrong(flag, text, f"is no matrix the AI knows: choose one of {', '.join(INITIALIZERS)}")


def rebuild_flag(text: str) -> str:
    """A name after `--rebuild`: an initializer's, or "corpus" (the lemmatised corpus)."""
    return initializer_flag(text, "--rebuild", steps=True)


def fasttext_file(text: str) -> Path:
    """`--fasttext-model FILE` as an argparse type: a file that exists."""
    path = Path(text)
    if not path.is_file():
        wrong("--fasttext-model", text, "is a folder, not a .bin or .vec file" if path.exists()
              else "does not exist")
    return path


def sbert_model_flag(text: str) -> str:
    """`--sbert-model NAME_OR_PATH` as an argparse type: the shipped model, a model's folder, or a
    model already in the Hugging Face cache (the game downloads none)."""
    if text == DEFAULT_SBERT_MODEL or Path(text).is_dir():
        return text
    if Path(text).exists():
        wrong("--sbert-model", text, "is a file: a sentence-transformers model is a folder")
    from huggingface_hub import try_to_load_from_cache

    if any(isinstance(try_to_load_from_cache(repo, "config.json"), str)
           for repo in (text, f"sentence-transformers/{text}")):
        return text
    wrong("--sbert-model", text, "is neither a model's folder nor a model in the Hugging Face cache "
          "(the game downloads none)")


def folder_flag(flag: str) -> Callable[[str], Path]:
    """A folder the command writes into as an argparse type: one that is there, or can be made."""
    def folder(text: str) -> Path:
        path = Path(text)
        if path.exists() and not path.is_dir():
            wrong(flag, text, "is a file, not a folder")
        return path
    return folder


folder_to_fill = folder_flag("--sources")   # a download's: a folder, or a path where one can be made


def file_to_write(flag: str) -> Callable[[str], Path]:
    """A file the command appends to, as an argparse type: not a folder, its folder not a file."""
    def file(text: str) -> Path:
        path = Path(text)
        if path.is_dir():
            wrong(flag, text, "is a folder, not a file")
        if (above := next((p for p in path.parents if p.exists()), None)) is not None and not above.is_dir():
            wrong(flag, text, f"cannot be written: {above} is a file")
        return path
    return file


def wrong(flag: str, value: str, what: str) -> NoReturn:
    """End the command: one line on stderr naming the flag, its value and what is wrong, exit 2
    (argparse's own status for a bad argument, without its usage lines)."""
    warn(f"{COMMAND}: {flag} {value} {what}")
    raise SystemExit(2)


def add_ai_arguments(p: argparse.ArgumentParser) -> None:
    """The flags that choose and build the AI."""
    ai = p.add_argument_group("AI")
    ai.add_argument("--sources", type=sources_folder, default=SOURCES_DIR, metavar="DIR",
                    help=f"folder of datasets for the initializers (default {shown(SOURCES_DIR)})")
    ai.add_argument("--initializer", type=initializer_flag, default=None, metavar="NAME",
                    help="weight matrix to play with (default: the best available)")
    ai.add_argument("--sbert-model", type=sbert_model_flag, default=None, metavar="NAME_OR_PATH",
                    help="sentence-transformers model (default all-MiniLM-L6-v2, offline)")
    ai.add_argument("--fasttext-model", type=fasttext_file, default=None, metavar="FILE",
                    help="pretrained fastText vectors (.bin or .vec) instead of training on the corpus")
    ai.add_argument("--rebuild", nargs="*", type=rebuild_flag, metavar="NAME",
                    help="rebuild these cached matrices (all when no name is given)")
    cluster.add_scheduler_argument(ai, "the collocation counting of a rebuild")
    ai.add_argument("--captain", default=None, metavar="STRATEGY", choices=sorted(CAPTAINS),
                    help=f"AI captain strategy: {', '.join(sorted(CAPTAINS))}")
    ai.add_argument("--agent", default=None, metavar="STRATEGY", choices=sorted(AGENTS),
                    help=f"AI agent strategy: {', '.join(sorted(AGENTS))}")


def load_ai(args: argparse.Namespace, board_words: Sequence[str] = ()) -> AI:
    """The AI players' weights and strategies, as the flags choose them: with the expected
    captain, the other matrices too, which the model of people reads."""
    import datasets

    scheduler = cluster.scheduler_address(getattr(args, "scheduler", None))
    # The corpus matrices, when not cached, are built in the background while the AI plays on the
    # others; unless a rebuild, or counting on a cluster, was asked for: that runs here, waited for.
    settings = datasets.Settings(sources=args.sources, sbert_model=args.sbert_model, rebuild=args.rebuild,
                                 fasttext_model=getattr(args, "fasttext_model", None), scheduler=scheduler,
                                 background=args.rebuild is None and scheduler is None)
    captain = args.captain or DEFAULT_CAPTAIN

    def load(name: str | None, settings: datasets.Settings) -> tuple:
        if captain == ExpectedCaptain.name:   # the one strategy that checks partners
            return datasets.load_with_partners(name, settings)
        return datasets.load_weights(name, settings), []

    try:
        weights, others = load(args.initializer, settings)
    except datasets.MissingSource as missing:   # asked by name, but its source is not there
        warn(f"{missing}; playing with the best available initializer instead")
        weights, others = load(None, replace(settings, rebuild=None))
    weights.add_words(board_words)
    return AI(weights, captain, args.agent or DEFAULT_AGENT, others)


class OneLineParser(argparse.ArgumentParser):
    """A parser whose error is one line naming the flag, exit status 2 (argparse's own prints its
    usage, many lines for the game's flags, before the one that matters)."""

    def error(self, message: str) -> NoReturn:
        warn(f"{self.prog}: {message} ({self.prog} --help lists the flags)")
        raise SystemExit(2)


@dataclass(frozen=True)
class Command:
    """A subcommand of `python main.py` (bench, serve, companion, duet): its name, its help, its
    flags and what runs it. main.py's parser takes it in when it is used (`CommandParser`);
    `main(argv)` runs it alone.

    `run(args, **options)` gets the parsed flags, with the command's own arguments in `args.argv`.
    """

    name: str
    summary: str
    description: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[..., int]
    epilog: str | None = None

    def texts(self) -> dict:
        return {"description": self.description, "epilog": self.epilog,
                "formatter_class": argparse.RawDescriptionHelpFormatter}

    def parser(self) -> argparse.ArgumentParser:
        """The parser of `python main.py NAME` on its own."""
        p = OneLineParser(prog=f"{COMMAND} {self.name}", **self.texts())
        self.add_arguments(p)
        return p

    def main(self, argv: Sequence[str], **options) -> int:
        """`python main.py NAME ARGV`: parse the flags and run; returns a process exit code."""
        args = self.parser().parse_args(list(argv))
        args.argv = list(argv)
        return self.run(args, **options)


class CommandParser(OneLineParser):
    """The parser of a subcommand of main.py that takes in its Command, its module imported, only
    when it is used: when its arguments are parsed or its help is shown. A game and `--help`
    start without the other commands' modules (the lab among them)."""

    def __init__(self, *args, command: Callable[[], Command] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self._command = command

    def _take_in(self) -> None:
        if self._command is not None:
            command, self._command = self._command(), None
            for name, value in command.texts().items():
                setattr(self, name, value)
            command.add_arguments(self)
            self.set_defaults(run=command.run)

    def parse_known_args(self, args=None, namespace=None):
        self._take_in()
        return super().parse_known_args(args, namespace)

    def format_usage(self) -> str:
        self._take_in()
        return super().format_usage()

    def format_help(self) -> str:
        self._take_in()
        return super().format_help()
