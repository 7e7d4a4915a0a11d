"""Paths, console output, word lists and safe file writes: what every module shares.

Nothing here knows about the game. The public face of the support package, whose modules
hold one concept each; the rest of the project imports these names from here.
"""

from __future__ import annotations

from support import cluster
from support.console import holding, interactive, on_terminal, progress, ticking, warn
from support.files import (
    STALE_TEMPORARY,
    append_line,
    atomic_write_bytes,
    load_or_set_aside,
    pid_alive,
    set_aside,
    sha256_file,
    sweep_temporaries,
    temporary_beside,
    temporary_prefix,
)
from support.lexicon import CONTENT_TAGS, lemma_of, lemmas, lemmatizer, load_libraries, spellings, zipf
from support.paths import (
    BOARD_WORDS_PATH,
    CACHE_DIR,
    CLONE_COMMAND,
    COMMAND,
    COMPOUNDS_PATH,
    DATA_DIR,
    DEFAULT_SBERT_MODEL,
    GAMES_LOG_PATH,
    HINT_WORDS_PATH,
    INSTALLED,
    PACKAGE_DATA,
    PLAYERS_DIR,
    ROOT,
    SOURCES_DIR,
    shown,
)
from support.words import (
    board_words,
    hint_words,
    load_words,
    normalise,
    read_compounds,
    save_words,
    words_hash,
)

__all__ = [
    "BOARD_WORDS_PATH", "CACHE_DIR", "CLONE_COMMAND", "COMMAND", "COMPOUNDS_PATH", "CONTENT_TAGS", "DATA_DIR",
    "DEFAULT_SBERT_MODEL", "GAMES_LOG_PATH", "HINT_WORDS_PATH", "INSTALLED", "PACKAGE_DATA", "PLAYERS_DIR",
    "ROOT", "SOURCES_DIR", "STALE_TEMPORARY", "append_line", "atomic_write_bytes", "board_words", "cluster",
    "hint_words", "holding", "interactive", "lemma_of", "lemmas", "lemmatizer", "load_libraries",
    "load_or_set_aside", "load_words", "normalise", "on_terminal", "pid_alive", "progress", "read_compounds",
    "save_words", "set_aside", "sha256_file", "shown", "spellings", "sweep_temporaries", "temporary_beside",
    "temporary_prefix", "ticking", "warn", "words_hash", "zipf",
]
