"""The `codenames` command of an installed copy, and `python -m codenames`.

Installed, the clone's folder is the package codenames, whose modules import one another by
their own names, as they do in a clone: their folder goes first on the path, for this process
only, and the game's command line runs. In a clone, `python main.py` is the way in.
"""

import sys
from pathlib import Path


def main() -> int:
    """Run the game's command line (main.py) from the installed package."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from main import main as command_line

    return command_line()


if __name__ == "__main__":
    sys.exit(main())
