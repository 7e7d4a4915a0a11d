"""What every command shares on the command line: the flags that choose the AI, and the AI
they build. main.py, bench, serve, the companion and Duet all import it; it imports none of them."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from pathlib import Path

from cluster import add_scheduler_argument, scheduler_address
from common import SOURCES_DIR, warn
from model import AGENTS, AI, CAPTAINS, DEFAULT_AGENT, DEFAULT_CAPTAIN, ExpectedCaptain


def add_ai_arguments(p: argparse.ArgumentParser) -> None:
    """The flags that choose and build the AI."""
    ai = p.add_argument_group("AI")
    ai.add_argument("--sources", type=Path, default=SOURCES_DIR, metavar="DIR",
                    help="folder of datasets for the initializers (default data/sources/)")
    ai.add_argument("--initializer", default=None, metavar="NAME",
                    help="weight matrix to play with (default: the best available)")
    ai.add_argument("--sbert-model", default=None, metavar="NAME_OR_PATH",
                    help="sentence-transformers model (default all-MiniLM-L6-v2, offline)")
    ai.add_argument("--fasttext-model", type=Path, default=None, metavar="FILE",
                    help="pretrained fastText vectors (.bin or .vec) instead of training on the corpus")
    ai.add_argument("--rebuild", nargs="*", metavar="NAME",
                    help="rebuild these cached matrices (all when no name is given)")
    add_scheduler_argument(ai, "the collocation counting of a rebuild")
    ai.add_argument("--captain", default=None, metavar="STRATEGY", choices=sorted(CAPTAINS),
                    help=f"AI captain strategy: {', '.join(sorted(CAPTAINS))}")
    ai.add_argument("--agent", default=None, metavar="STRATEGY", choices=sorted(AGENTS),
                    help=f"AI agent strategy: {', '.join(sorted(AGENTS))}")


def load_ai(args: argparse.Namespace, board_words: Sequence[str] = (), partners: bool = True) -> AI:
    """The AI players' weights and strategies, as the flags choose them.

    `partners=False` when every AI captain plans for its own twin agent and no person's hint is
    read: the other matrices, which the model of people reads, are then not loaded.
    """
    import datasets

    options = {"sources": args.sources, "sbert_model": args.sbert_model, "rebuild": args.rebuild,
               "fasttext_model": getattr(args, "fasttext_model", None),
               "scheduler": scheduler_address(getattr(args, "scheduler", None))}
    captain = args.captain or DEFAULT_CAPTAIN

    def load(name: str | None, **options) -> tuple:
        if partners and captain == ExpectedCaptain.name:   # the one strategy that checks partners
            return datasets.load_with_partners(name, **options)
        return datasets.load_weights(name, **options), []

    try:
        weights, others = load(args.initializer, **options)
    except datasets.MissingSource as missing:   # asked by name, but its source is not there
        warn(f"{missing}; playing with the best available initializer instead")
        weights, others = load(None, **{**options, "rebuild": None})
    weights.add_words(board_words)
    return AI(weights, captain, args.agent or DEFAULT_AGENT, others)


def command_parser(name: str, description: str, epilog: str | None,
                   add_arguments: Callable[[argparse.ArgumentParser], None]) -> argparse.ArgumentParser:
    """The parser of `python main.py NAME` on its own (main.py builds the same as a subcommand)."""
    p = argparse.ArgumentParser(prog=f"python main.py {name}", description=description, epilog=epilog,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(p)
    return p
