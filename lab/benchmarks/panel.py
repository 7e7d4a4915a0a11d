"""Blind panels: people read the captains' hints as an agent sees them, and are scored after.

    python -m lab.benchmarks.panel games --sources ../shared/datasets --captain game --out game.json
    python -m lab.benchmarks.panel boards --seeds 10 --out DIR      # a spymaster's view of each board
    python -m lab.benchmarks.panel clues DIR/clues.txt --out human.json   # their first clues
    python -m lab.benchmarks.panel sheets game.json cumsum.json human.json --readers 6 --out PANEL
    # each reader reads one PANEL/sheet-K.txt alone and writes PANEL/answers-K.txt
    python -m lab.benchmarks.panel score PANEL [--label "every dataset"]

`games` plays whole races on fresh boards (from seed 50000 by default): the captain's team starts
against the auto team, and the game goes on by the picks of a model of people the captain never
reads (the human-model tier's mpnet-people: its best card, as in the tier, or `--sample`).
Every hint of every turn is an item, with the cards face down when it was given. The same boards
serve every captain (`--captain`: the game's, or the reference `cumsum`); the captain of an older
build is played by running this file from a checkout of that build. `boards` and `clues` take a
strong spymaster's first clue of each board as items too.

`sheets` shuffles the items of every captain together and deals them to the readers: an item is
the hint, its count and the face-down cards in alphabetical order, never a colour, a target or a
captain. A reader writes, for each item, the cards they would turn over in order (fewer than the
count to stop). `score` plays each answer by the rules: the turn ends at the first card not the
team's; an item counts its own cards turned over, whether every card the captain meant was among
them, and whether the assassin was.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from board import ASSASSIN, Color, deal
from common import BOARD_WORDS_PATH, load_words
from lab.evaluation.stats import wilson
from model import ExpectedCaptain

SEED_OFFSET = 50_000   # boards no tuning reads
HUMAN = "human"


@dataclass(frozen=True)
class Item:
    """One hint on its board with the board's key: who gave it (`kind`) and what they meant."""

    kind: str                      # the captain: "game", "cumsum", a build's name, "human"
    seed: int
    turn: int                      # the hint's place among its team's hints in the game (0: first)
    hint: str
    count: int
    face_down: tuple[str, ...]
    colors: Mapping[str, str]      # each face-down card's colour's name
    team: str                      # the name of the colour of the team the hint was for
    targets: tuple[str, ...]
    chance: float | None = None    # the captain's chance that its reader turns over `count` own cards

    @classmethod
    def of(cls, row: Mapping) -> Item:
        return cls(**{**row, "face_down": tuple(row["face_down"]), "targets": tuple(row["targets"])})


# --- whole games ----------------------------------------------------------------------------

def game_items(kind: str, seed: int, board, team: Color, history: Iterable) -> list[Item]:
    """The items of one game: each hint `team` gave, with the cards face down when it was given."""
    key = {card.word: card.color.name for card in board.cards}
    items, revealed = [], set()
    for turn in history:
        if turn.hint is not None and turn.side is team:
            face_down = tuple(w for w in board.words if w not in revealed)
            targets = () if turn.choice is None else tuple(turn.choice.targets)
            chance = getattr(turn.choice, "chance", None)
            items.append(Item(kind, seed, sum(i.seed == seed for i in items), turn.hint.word,
                              turn.hint.count or 0, face_down, {w: key[w] for w in face_down},
                              team.name, targets, chance))
        revealed.update(w for w, _ in turn.guesses)
    return items


EXPLORE = "explore"


class Exploring(ExpectedCaptain):
    """The game's captain, noting at each hint its best hint for each count past the one it gave
    (`alternatives`: hint, count, targets, face-down cards, colours): items to tune on."""

    def __init__(self, captain: ExpectedCaptain):
        self.__dict__.update(captain.__dict__)
        self.alternatives: list[tuple] = []

    def score(self, situation, board):
        self.seen = (situation, super().score(situation, board))
        return self.seen[1]

    def give_hint(self, board, team, given=()):
        choice = super().give_hint(board, team, given)
        situation, table = self.seen
        colors = {w: c.name for w, c in zip(situation.words, situation.colors, strict=True)}
        for k in range(1, table.shape[1] + 1):
            h = int(np.argmax(table[:, k - 1]))
            if k == choice.hint.count or not np.isfinite(table[h, k - 1]):
                continue
            order = np.argsort(-situation.weights[h])
            targets = [situation.words[i] for i in order if situation.colors[i] is team][:k]
            self.alternatives.append((self.weights.hints[h], k, tuple(targets), tuple(situation.words),
                                      colors))
        return choice


def play_games(kind: str, sources: Path, seeds: range, embedded: bool, sample: bool = False,
               explore: bool = False) -> list[Item]:
    """Every hint of the captain `kind` in a race against the auto team on each seed's board, the
    game going on by a model of people on vectors the captain never reads (its best card, or its
    picks sampled)."""
    from engine import AutoTeam, Game, Team
    from lab.evaluation import human_models
    from players import AIAgent, AICaptain

    words = load_words(BOARD_WORDS_PATH)
    if hasattr(human_models, "build_ai"):
        ai, _ = human_models.build_ai(sources, words, embedded)
    else:   # an older build's lab, where it lived beside the captain's variants
        from lab.benchmarks.captain_ablation import build_ai
        ai, _ = build_ai(sources, words, embedded)
    def make():
        if kind == "cumsum":   # the reference design, on the default matrix
            from model import CumsumCaptain
            return CumsumCaptain(ai.weights)
        return Exploring(ai.captain()) if explore else ai.captain()
    guesser = human_models.fit_guesser("mpnet-people", sources, sample=sample)
    items = []
    for seed in seeds:
        board, rng = deal(seed, words)
        team = board.starting_team
        captain = make()
        teams = {team: Team(team, AICaptain(captain), AIAgent(guesser)), team.other: AutoTeam(team.other)}
        game = Game(board, teams, rng=rng, seed=seed)
        game.play()
        found = game_items(kind, seed, board, team, game.history)
        items += found
        for n, (hint, count, targets, shown, colors) in enumerate(getattr(captain, "alternatives", ())):
            items.append(Item(EXPLORE, seed, 100 + n, hint, count, shown, colors, team.name, targets))
        print(f"{kind} {seed}: {'won' if game.winner is team else 'lost'} in {len(found)} hints: "
              + ", ".join(f"{i.hint.upper()} {i.count}" for i in found), file=sys.stderr, flush=True)
    return items


# --- a spymaster's first clues ----------------------------------------------------------------

def key_view(seed: int, words: Sequence[str]) -> str:
    """A board as its starting team's captain sees it before the first hint."""
    board, _ = deal(seed, words)
    team = board.starting_team
    groups = {name: sorted(c.word.upper() for c in board.cards if c.color.name == name)
              for name in (team.name, team.other.name, "NEUTRAL", "ASSASSIN")}
    return (f"board {seed}: you give hints for {team.name}\n"
            f"  your cards: {' '.join(groups[team.name])}\n"
            f"  the other team's: {' '.join(groups[team.other.name])}\n"
            f"  bystanders: {' '.join(groups['NEUTRAL'])}\n"
            f"  assassin: {' '.join(groups['ASSASSIN'])}\n")


CLUE = re.compile(r"^\s*(\d+)\s+([A-Za-z]+)\s+(\d)\s+(.*)$")


def clue_items(lines: Iterable[str], words: Sequence[str]) -> list[Item]:
    """Items from a spymaster's lines "SEED HINT COUNT TARGET ...", one clue a board."""
    items = []
    for line in lines:
        if not (match := CLUE.match(line)):
            continue
        seed, hint, count, targets = int(match[1]), match[2].lower(), int(match[3]), match[4].lower().split()
        board, _ = deal(seed, words)
        key = {card.word: card.color.name for card in board.cards}
        if strays := [t for t in targets if key.get(t) != board.starting_team.name]:
            raise ValueError(f"board {seed}: {', '.join(strays)} not the team's cards")
        items.append(Item(HUMAN, seed, 0, hint, count, tuple(board.words), key,
                          board.starting_team.name, tuple(targets)))
    return items


# --- the sheets and the score -----------------------------------------------------------------

def item_line(number: int, item: Item) -> str:
    """The item as an agent sees it: number, hint, count, face-down cards (no colours)."""
    cards = " ".join(sorted(word.upper() for word in item.face_down))
    return f"{number:3d}  {item.hint.upper()} {item.count}   {cards}"


def deal_sheets(items: Sequence[Item], readers: int, rng: random.Random) -> list[list[Item]]:
    """The items shuffled and dealt to `readers` sheets, kinds mixed on every sheet, the hints on
    one board with the same cards face down each on a sheet of its own while sheets last (a
    reader who met one would read the next in its light)."""
    boards: dict[tuple, list[Item]] = {}
    for item in items:
        boards.setdefault((item.seed, tuple(sorted(item.face_down))), []).append(item)
    groups = list(boards.values())
    rng.shuffle(groups)
    sheets: list[list[Item]] = [[] for _ in range(readers)]
    for group in groups:
        rng.shuffle(group)
        order = sorted(range(readers), key=lambda k: (len(sheets[k]), rng.random()))
        for item, k in zip(group, order * (len(group) // readers + 1), strict=False):
            sheets[k].append(item)
    for sheet in sheets:
        rng.shuffle(sheet)
    return sheets


def read_answers(lines: Iterable[str]) -> dict[int, list[str]]:
    """{item number: the picks in order} from lines "NUMBER PICK PICK ..."; other lines skipped."""
    answers = {}
    for line in lines:
        fields = line.replace(",", " ").split()
        if fields and fields[0].isdigit():
            answers[int(fields[0])] = [w.lower() for w in fields[1:]]
    return answers


def turn(item: Item, picks: Sequence[str]) -> tuple[int, bool, bool]:
    """(own cards found, whether the assassin was met, whether every card meant was found): the
    picks in order, the turn ending at the first card not the team's."""
    if strays := [w.upper() for w in picks if w not in item.colors]:
        raise ValueError(f"{', '.join(strays)}: not face down for {item.hint.upper()}")
    found = 0
    for word in picks[:item.count + 1 if item.count else None]:
        if item.colors[word] != item.team:
            return found, item.colors[word] == ASSASSIN.name, set(item.targets) <= set(picks[:found])
        found += 1
    return found, False, set(item.targets) <= set(picks[:found])


@dataclass
class Tally:
    """One kind's items read: how many, own cards found, whole (every card meant), assassins."""

    hints: int = 0
    own: int = 0
    whole: int = 0
    assassin: int = 0
    first: int = 0          # hints given at a game's first turn
    first_own: int = 0

    def add(self, item: Item, found: int, assassin: bool, whole: bool) -> None:
        self.hints += 1
        self.own += found
        self.whole += whole
        self.assassin += assassin
        if item.turn == 0:
            self.first += 1
            self.first_own += found


def tally(sheets: Sequence[Sequence[Item]], answers: Sequence[Mapping[int, Sequence[str]]]
          ) -> dict[str, Tally]:
    """Each kind's tally over every sheet's answers (every item must be answered)."""
    counts: dict[str, Tally] = {}
    for k, (sheet, said) in enumerate(zip(sheets, answers, strict=True)):
        if missing := sorted(set(range(len(sheet))) - set(said)):
            raise ValueError(f"sheet {k + 1}: no answer for items {missing}")
        for number, item in enumerate(sheet):
            counts.setdefault(item.kind, Tally()).add(item, *turn(item, said[number]))
    return counts


def rate(k: int, n: int) -> str:
    low, high = wilson(k, n)
    return f"{100 * k / n:.0f}% [{100 * low:.0f}–{100 * high:.0f}]"


def report(counts: Mapping[str, Tally], readers: int) -> str:
    """A table, a row a kind, with Wilson 95% intervals."""
    rows = ["| captain | hints | own cards a hint | first hints: own cards a hint | every claimed card "
            "found | the reader met the assassin |", "|---|---|---|---|---|---|"]
    for kind, c in sorted(counts.items()):
        first = f"{c.first_own / c.first:.2f} ({c.first})" if c.first else "—"
        rows.append(f"| {kind} | {c.hints} | {c.own / c.hints:.2f} | {first} | {rate(c.whole, c.hints)} | "
                    f"{rate(c.assassin, c.hints)} |")
    return "\n".join(rows) + f"\n\n{readers} readers, each a fresh one, every kind mixed on each sheet."


def headline(label: str, c: Tally, readers: int) -> str:
    """The line reports/panel.md keeps for the game's captain."""
    return (f"Blind panel ({label}): own cards a hint {c.own / c.hints:.2f}; every claimed card found "
            f"{100 * c.whole / c.hints:.0f}%; assassin {100 * c.assassin / c.hints:.0f}% "
            f"({c.hints} hints, {readers} readers)")


def write_sheets(folder: Path, sheets: Sequence[Sequence[Item]]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for k, sheet in enumerate(sheets, 1):
        lines = (item_line(i, item) + "\n" for i, item in enumerate(sheet))
        (folder / f"sheet-{k}.txt").write_text("".join(lines))
    (folder / "keys.json").write_text(json.dumps([[asdict(item) for item in sheet] for sheet in sheets]))


def read_sheets(folder: Path) -> list[list[Item]]:
    return [[Item.of(row) for row in sheet] for sheet in json.loads((folder / "keys.json").read_text())]


def read_items(paths: Iterable[Path]) -> list[Item]:
    return [Item.of(row) for path in paths for row in json.loads(path.read_text())]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    verbs = parser.add_subparsers(dest="verb", required=True)
    games = verbs.add_parser("games", help="play whole races and write every hint as an item")
    games.add_argument("--sources", type=Path, required=True)
    games.add_argument("--captain", default="game", help="game (this build's) or cumsum")
    games.add_argument("--name", help="the kind the items carry (default: the captain)")
    games.add_argument("--embedded", action="store_true", help="the AI on SBERT and WordNet alone")
    games.add_argument("--sample", action="store_true", help="the game's guesser samples its picks")
    games.add_argument("--explore", action="store_true",
                       help="also the captain's best hint for every other count at each hint (to tune on)")
    for verb in (games, verbs.add_parser("boards", help="a spymaster's view of each board")):
        verb.add_argument("--seeds", type=int, default=10)
        verb.add_argument("--seed-offset", type=int, default=SEED_OFFSET)
        verb.add_argument("--out", type=Path, required=True)
    clues = verbs.add_parser("clues", help="a spymaster's first clues as items")
    clues.add_argument("clues", type=Path)
    clues.add_argument("--out", type=Path, required=True)
    sheets = verbs.add_parser("sheets", help="shuffle every captain's items into readers' sheets")
    sheets.add_argument("items", type=Path, nargs="+")
    sheets.add_argument("--readers", type=int, required=True)
    sheets.add_argument("--out", type=Path, required=True)
    sheets.add_argument("--shuffle-seed", type=int, default=7)
    score = verbs.add_parser("score", help="score PANEL/answers-K.txt against PANEL/keys.json")
    score.add_argument("folder", type=Path)
    score.add_argument("--label", help="the headline's label (every dataset, embedded)")
    score.add_argument("--kind", default="game", help="the kind the headline is for")
    args = parser.parse_args(argv)
    words = load_words(BOARD_WORDS_PATH)
    if args.verb == "games":
        seeds = range(args.seed_offset, args.seed_offset + args.seeds)
        items = play_games(args.captain, args.sources, seeds, args.embedded, args.sample, args.explore)
        items = [i if i.kind == EXPLORE else Item(**{**asdict(i), "kind": args.name or args.captain})
                 for i in items]
        args.out.write_text(json.dumps([asdict(i) for i in items]))
        print(f"{len(items)} hints in {args.out}")
    elif args.verb == "boards":
        args.out.mkdir(parents=True, exist_ok=True)
        seeds = range(args.seed_offset, args.seed_offset + args.seeds)
        (args.out / "boards.txt").write_text("\n".join(key_view(s, words) for s in seeds))
        print(f"{len(seeds)} boards in {args.out / 'boards.txt'}")
    elif args.verb == "clues":
        items = clue_items(args.clues.read_text().splitlines(), words)
        args.out.write_text(json.dumps([asdict(i) for i in items]))
        print(f"{len(items)} clues in {args.out}")
    elif args.verb == "sheets":
        dealt = deal_sheets(read_items(args.items), args.readers, random.Random(args.shuffle_seed))
        write_sheets(args.out, dealt)
        print(f"{sum(map(len, dealt))} items on {len(dealt)} sheets in {args.out}")
    else:
        dealt = read_sheets(args.folder)
        answers = [read_answers((args.folder / f"answers-{k}.txt").read_text().splitlines())
                   for k in range(1, len(dealt) + 1)]
        counts = tally(dealt, answers)
        print(report(counts, len(dealt)))
        if args.label and args.kind in counts:
            print("\n" + headline(args.label, counts[args.kind], len(dealt)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
