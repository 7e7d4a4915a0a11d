"""The catalog's voice: its one-line notices, and the problems found in the sources of a build."""

from __future__ import annotations

from collections.abc import Callable


class Notices:
    """Where the catalog's lines go (`say`: rebuilds, what is left out, problems in the sources).

    `problems` holds what the readers found wrong in the sources of the current build: its cache
    records them and repeats them, once, when it is loaded.
    """

    def __init__(self, say: Callable[[str], None]):
        self.say = say
        self.problems: list[str] = []
        self._said: set[str] = set()

    def once(self, line: str) -> None:
        """A line, once per catalog."""
        if line not in self._said:
            self._said.add(line)
            self.say(line)

    def problem(self, message: str) -> None:
        """Say what is wrong with a source (one line); the cache built from it repeats it on load."""
        self.problems.append(message)
        self.say(message)
