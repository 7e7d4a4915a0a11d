"""Players' profiles: what the AI has learnt of each person who plays alongside it, kept between
sessions in data/players/NAME.json (installed: the user's data folder), and `python main.py player`,
which lists, shows and forgets them. Local only: nothing here is ever sent anywhere.

A profile keeps the choices a person made (models/person.py); the coefficients learnt from them are
kept beside them only as a cache: on other matrices, or with other choices, the AI learns the
person again from the choices, so a profile outlives a change of datasets. A file that is not a
profile this game reads (corrupt, another program's, a newer version's) gets one line, is moved
aside to NAME.json.corrupt, and the player starts afresh.
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cli import Command, add_ai_arguments, folder_flag
from common import COMMAND as PROGRAM
from common import PLAYERS_DIR, SOURCES_DIR, atomic_write_bytes, set_aside, shown, warn
from model import AI, KEPT, NOTHING_YET, Choice, PeopleModel, Person

FORMAT, VERSION = "codenames-player", 1
GUEST = "guest"    # learnt within the session only, kept nowhere
NOBODY = "none"    # not learnt at all
LAST = "last"      # the file in the players' folder naming who played last: who plays, unless told
DECLINED = "declined"   # beside it: a first-time player said no to keeping what the AI learnt
NAME = re.compile(r"[^\W_][\w-]{0,31}")   # a letter or digit, then letters, digits, - and _: 32 at most
NAME_RULE = "letters, digits, - and _, starting with a letter or digit, at most 32"


def player_name(text: str) -> str:
    """A player's name, in lower case (names are case-insensitive, as the file names are);
    ValueError says what a name may be. `guest` and `none` are not names."""
    name = text.strip().lower()
    if not NAME.fullmatch(name):
        raise ValueError(f"{text.strip()!r} is not a player's name: use {NAME_RULE}")
    if name in (GUEST, NOBODY):
        raise ValueError(f"{name!r} means no profile: choose another name")
    return name


def is_name(text: str) -> bool:
    """Whether `text` is a player's name as the files are named (in lower case)."""
    try:
        return player_name(text) == text
    except ValueError:
        return False


def player_flag(text: str) -> str:
    """`--player` as an argparse type: a name, `guest` or `none`."""
    if text.strip().lower() in (GUEST, NOBODY):
        return text.strip().lower()
    try:
        return player_name(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


# --- the store ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Profiles:
    """The players' profiles in one folder (default data/players/), a file each."""

    folder: Path = PLAYERS_DIR

    def path(self, name: str) -> Path:
        return self.folder / f"{name}.json"

    def exists(self, name: str) -> bool:
        return self.path(name).is_file()

    def load(self, name: str) -> list[Choice]:
        """The choices kept for `name` (the latest KEPT); none without a profile, or with a file
        that is not one (it gets a line on stderr and is moved aside, so that nothing is lost)."""
        return self.read(name)[0]

    def person(self, name: str, people: PeopleModel) -> Person:
        """`name` as the AI has learnt them, on the model of `people`: from their choices, with what
        was learnt from them when they were saved (a cache: `Person.resume` checks it against
        the choices and the features, and learns again when it does not match)."""
        choices, learnt, _ = self.read(name)
        return Person(people, choices=choices, learnt=learnt)

    def read(self, name: str) -> tuple[list[Choice], Mapping | None, Path | None]:
        """The choices kept for `name`, the learnt cache, and the sources folder its games read
        (None when not said), the file read once (`load`)."""
        path = self.path(name)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            learnt = data.get("learnt") if isinstance(data, Mapping) else None
            sources = data.get("sources") if isinstance(data, Mapping) else None
            return read_profile(data)[-KEPT:], learnt, Path(sources) if isinstance(sources, str) else None
        except FileNotFoundError:
            return [], None, None
        except (OSError, ValueError, RecursionError) as error:
            aside = set_aside(path, lambda k: f"{path.name}.corrupt" + (f".{k}" if k > 1 else ""))
            kept = f"the file is kept as {aside.name}" if aside else "the file could not be moved aside"
            warn(f"{path} is not a player's profile this game can read ({error}): {name} starts "
                 f"afresh; {kept}")
            return [], None, None

    def save(self, name: str, person: Person, sources: Path | None = None) -> None:
        """Keep what the AI has learnt of `name`, and the sources folder the game read (what the
        learnt reading is read through): written whole or not at all (OSError when it cannot
        be). A choice a line, so that a person can read the file."""
        where = {"sources": str(Path(sources).resolve())} if sources is not None else {}
        data = {"format": FORMAT, "version": VERSION, "name": name, **where, **person.to_json()}
        atomic_write_bytes(self.path(name), readable_json(data).encode("utf-8"))

    def forget(self, name: str) -> list[Path]:
        """Delete `name`'s profile and the files of theirs set aside; the files deleted."""
        gone = []
        for path in [self.path(name), *sorted(self.folder.glob(f"{name}.json.corrupt*"))]:
            if path.is_file():
                path.unlink()
                gone.append(path)
        if self.last() == name:
            (self.folder / LAST).unlink(missing_ok=True)
        return gone

    def names(self) -> list[str]:
        """The players with a profile, by name (a file named otherwise is no one's)."""
        return sorted(p.stem for p in self.folder.glob("*.json") if is_name(p.stem))

    def last(self) -> str | None:
        """Who played last (with a name), if anyone."""
        try:
            return player_name((self.folder / LAST).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None

    def declined(self) -> bool:
        """Whether a player said no to keeping what the AI learnt (so the question comes once)."""
        return (self.folder / DECLINED).is_file()

    def decline(self) -> None:
        """Remember a no to keeping what the AI learnt; a folder that cannot be written only costs
        the question once more."""
        try:
            atomic_write_bytes(self.folder / DECLINED, b"Delete this file to be asked again, or play with "
                               b"--player NAME.\n")
        except OSError as error:
            warn(f"could not remember the answer in {self.folder / DECLINED}: {error}")

    def remember_last(self, name: str) -> None:
        """Remember who played last, the name the prompt offers next time; a folder that cannot
        be written only costs that."""
        try:
            atomic_write_bytes(self.folder / LAST, f"{name}\n".encode())
        except OSError as error:
            warn(f"could not remember the player's name in {self.folder / LAST}: {error}")


def readable_json(data: Mapping) -> str:
    """JSON with a key a line, and each item of a list on a line of its own."""
    def value(v: Any) -> str:
        if isinstance(v, list) and v:
            return "[\n" + ",\n".join(f"  {json.dumps(x)}" for x in v) + "\n ]"
        return json.dumps(v)

    return "{\n" + ",\n".join(f" {json.dumps(k)}: {value(v)}" for k, v in data.items()) + "\n}\n"


def read_file(path: Path) -> list[Choice]:
    """The choices of a profile's file; OSError, or ValueError saying why it is not one."""
    return read_profile(json.loads(path.read_text(encoding="utf-8")))


def read_profile(data: Any) -> list[Choice]:
    """The choices of a profile's JSON; ValueError says why it is not one this game reads."""
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise ValueError("not a player's profile")
    if data.get("version") != VERSION:
        raise ValueError(f"version {data.get('version')!r}; this game reads version {VERSION}")
    choices = data.get("choices")
    if not isinstance(choices, list):
        raise ValueError("its choices are not a list")
    return [read_choice(entry, k) for k, entry in enumerate(choices)]


def read_choice(entry: Any, index: int) -> Choice:
    """One saved choice (`Choice.from_json`), its errors naming it."""
    try:
        return Choice.from_json(entry)
    except ValueError as error:
        raise ValueError(f"choice {index + 1}: {error}") from None


# --- the player of a session ----------------------------------------------------------------


@dataclass
class Player:
    """The person the AI plays alongside in a session, as it learns them: kept under `name` in
    `profiles`, or a guest's (`profiles` None), learnt for the session only."""

    name: str
    person: Person
    profiles: Profiles | None = None
    sources: Path | None = None   # the datasets the AI reads them through

    @classmethod
    def meet(cls, name: str, ai: AI, profiles: Profiles, say: Callable[[str], None] = print,
             sources: Path | None = None) -> Player:
        """The player called `name` (or GUEST), learnt from their profile, the AI reading the
        datasets in `sources`; one line says who the AI plays with and what it knows of them."""
        if name == GUEST:
            say("Playing as a guest: the AI learns how you play for this session only.")
            return cls(name, Person(ai.people), sources=sources)
        person = profiles.person(name, ai.people)
        if person.choices:
            say(f"Welcome back, {name}: the AI has learnt from {len(person.choices)} of your choices.")
        else:
            say(f"Welcome, {name}: the AI learns how you play as you go, and keeps it in "
                f"{profiles.path(name)} (on this computer only).")
        return cls(name, person, profiles, sources)

    def kept_as(self, name: str, profiles: Profiles, ai: AI) -> Player:
        """A guest kept under `name` from now on: what the AI learnt this session, after what a
        profile of that name already holds."""
        earlier = profiles.load(name)
        person = Person(ai.people, choices=[*earlier, *self.person.choices]) if earlier else self.person
        return Player(name, person, profiles, self.sources)

    def read_by(self, ai: AI) -> Player:
        """The same player for another AI (its model of people on other matrices): learnt again from
        their choices."""
        return Player(self.name, Person(ai.people, choices=self.person.choices), self.profiles, self.sources)

    def save(self) -> None:
        """Keep what the AI has learnt (a guest's: nothing); a file that cannot be written gets a
        line, and the game goes on."""
        if self.profiles is None:
            return
        try:
            self.profiles.save(self.name, self.person, self.sources)
        except OSError as error:
            warn(f"could not keep what the AI learnt of {self.name} in {self.profiles.path(self.name)}: "
                 f"{error}")


# --- python main.py player ------------------------------------------------------------------


SUMMARY = "what the AI has learnt of each player: list, show, forget"

DESCRIPTION = f"""What the AI has learnt of each person who plays alongside it, kept in
{shown(PLAYERS_DIR)}NAME.json and never sent anywhere. The game asks once, after a first game in
a terminal, whether to keep it under a name (or take --player NAME); a guest is learnt for the
session only."""

EPILOG = f"""examples:
  {PROGRAM} player list            who has a profile
  {PROGRAM} player show alice      what the AI has learnt of alice, in plain words
  {PROGRAM} player forget alice    delete it: the AI reads alice as people on average again"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    """`list`, `show NAME` (with the AI's flags: it reads the choices as the game would) and `forget NAME`."""
    actions = p.add_subparsers(dest="action", title="actions", metavar="ACTION")
    listing = actions.add_parser("list", help="the players with a profile")
    show = actions.add_parser("show", help="what the AI has learnt of a player, in plain words")
    forget = actions.add_parser("forget", help="delete a player's profile")
    for action in (show, forget):
        action.add_argument("name", type=player_flag, metavar="NAME", help="the player's name")
    add_ai_arguments(show)
    show.set_defaults(sources=None)   # unsaid: the folder the player's games read (`show`)
    for action in (listing, show, forget):
        add_profiles_argument(action)


def add_profiles_argument(p: argparse._ActionsContainer) -> None:
    """`--profiles DIR`: where the profiles are (the tests' own folder)."""
    p.add_argument("--profiles", type=folder_flag("--profiles"), default=PLAYERS_DIR, metavar="DIR",
                   help=f"the folder of players' profiles (default {shown(PLAYERS_DIR)})")


def run(args: argparse.Namespace, load_ai: Callable[[argparse.Namespace], AI] | None = None,
        out: Callable[[str], None] = print) -> int:
    """Run `player ACTION`; `load_ai(args)` may be given (tests), else the flags build the AI."""
    action = getattr(args, "action", None)
    profiles = Profiles(getattr(args, "profiles", PLAYERS_DIR))
    if action == "show":
        def ai(sources: Path) -> AI:
            return (load_ai or default_ai)(argparse.Namespace(**{**vars(args), "sources": sources}))
        return show(args.name, profiles, ai, out, args.sources)
    if action == "forget":
        return forget(args.name, profiles, out)
    return listing(profiles, out)


def default_ai(args: argparse.Namespace) -> AI:
    from cli import load_ai

    return load_ai(args)


def missing(action: str, name: str, profiles: Profiles) -> int:
    warn(f"{PROGRAM} player {action}: no player named {name!r} in {profiles.folder}/ "
         f"({PROGRAM} player list names them)")
    return 1


def show(name: str, profiles: Profiles, ai: Callable[[Path], AI], out: Callable[[str], None] = print,
         sources: Path | None = None) -> int:
    """What the AI has learnt of `name`, in plain words, read through the datasets their games read
    (or those in `sources`): the AI (`ai(folder)`) is built only when there is something to read.
    Exit status 1 when they have no profile."""
    if name in (GUEST, NOBODY) or not profiles.exists(name):
        return missing("show", name, profiles)
    choices, learnt, kept = profiles.read(name)
    where = sources or (kept if kept is not None and kept.is_dir() else SOURCES_DIR)
    gone = f" (their games read {shown(kept)}, which is not there now)" if sources is None and kept and \
        not kept.is_dir() else ""
    out(f"{name} ({profiles.path(name)}), read through the datasets in {shown(where)}{gone}:")
    lines = Person(ai(where).people, choices=choices, learnt=learnt).describe() if choices else [NOTHING_YET]
    for line in lines:
        out(f"  {line}")
    return 0


def forget(name: str, profiles: Profiles, out: Callable[[str], None] = print) -> int:
    """Delete `name`'s profile, and say so; exit status 1 when there was none."""
    if name in (GUEST, NOBODY) or not (gone := profiles.forget(name)):
        return missing("forget", name, profiles)
    out(f"Forgot {name}: deleted {', '.join(map(str, gone))}. The AI reads {name} as people on "
        "average again.")
    return 0


def listing(profiles: Profiles, out: Callable[[str], None] = print) -> int:
    """The players with a profile, how many choices each, and who played last."""
    names = profiles.names()
    if not names:
        out(f"No player has a profile in {profiles.folder}/ yet: the game asks for a name when you "
            "play alongside the AI.")
        return 0
    out(f"Players in {profiles.folder}/:")
    last = profiles.last()
    width = max(map(len, names))
    for name in names:
        out(f"  {name:<{width}}  {describe_file(profiles.path(name))}" + ("  (played last)" * (name == last)))
    return 0


def describe_file(path: Path) -> str:
    """How many choices a profile holds, or why it cannot be read (listing moves nothing aside)."""
    try:
        choices = read_file(path)
    except (OSError, ValueError, RecursionError) as error:
        return f"cannot be read ({error})"
    return f"{len(choices)} choice{'s' * (len(choices) != 1)}"


def main(argv: Sequence[str]) -> int:
    """`python main.py player ARGV`."""
    return COMMAND.main(argv)


COMMAND = Command("player", SUMMARY, DESCRIPTION, add_arguments, run, EPILOG)
