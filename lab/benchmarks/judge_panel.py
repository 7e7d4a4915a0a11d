"""A person reads the hints on which the tier's judges met the assassin: a blind panel.

    python -m lab.benchmarks.judge_panel items --sources ../shared/datasets --out DIR
    # read DIR/items.txt alone; write DIR/answers.txt, a line an item: its number, your picks
    python -m lab.benchmarks.judge_panel score DIR

The human-model tier's guessers (lab/evaluation/human_models.py) play the game's captain, one
team alone and greedy, as in reports/people_tiers.md, on boards of no reported range (seeds from
40000). Every hint on which a guesser turned over the assassin is an item; as many others, drawn
from the same games, are controls. The items are shuffled and written as an agent sees them: the
hint, its count and the face-down cards in alphabetical order, never a colour; the key stays in
DIR/keys.json. A person names their picks in order (fewer than the count to stop), and `score`
says, for each kind, how often the person met the assassin and took a card meant first: whether
the judges' losses are ones a person would suffer. Decision 0086.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from board import ASSASSIN, deal
from common import BOARD_WORDS_PATH, load_words

MET, CONTROL = "met the assassin", "control"


@dataclass(frozen=True)
class Item:
    """One hint as the captain gave it, with the board's key and what the judge did with it."""

    judge: str
    seed: int
    hint: str
    count: int
    face_down: tuple[str, ...]
    colors: Mapping[str, str]      # each face-down card's colour's name
    team: str                      # the name of the colour of the team the hint was for
    targets: tuple[str, ...]
    met_assassin: bool

    @property
    def kind(self) -> str:
        return MET if self.met_assassin else CONTROL


def blind(items: Iterable[Item], rng: random.Random) -> list[Item]:
    """Every distinct hint a judge met the assassin on, and as many of the others, shuffled; a
    hint both judges were given on one board is one item. The same items in any order give the
    same panel."""
    met: dict[tuple, Item] = {}
    others: dict[tuple, Item] = {}
    for item in items:
        key = (item.seed, item.hint, tuple(sorted(item.face_down)))
        (met if item.met_assassin else others).setdefault(key, item)
    controls = [others[key] for key in sorted(others) if key not in met]
    chosen = [met[key] for key in sorted(met)]
    chosen += rng.sample(controls, min(len(met), len(controls)))
    rng.shuffle(chosen)
    return chosen


def item_line(number: int, item: Item) -> str:
    """The item as an agent sees it: number, hint, count, face-down cards (no colours)."""
    cards = " ".join(sorted(word.upper() for word in item.face_down))
    return f"{number:3d}  {item.hint.upper()} {item.count}   {cards}"


def read_answers(lines: Iterable[str]) -> dict[int, list[str]]:
    """{item number: the picks in order} from lines "NUMBER PICK PICK ..."; blank lines skipped."""
    answers = {}
    for line in lines:
        if fields := line.split():
            answers[int(fields[0])] = [w.lower() for w in fields[1:]]
    return answers


def turn(item: Item, picks: Sequence[str]) -> tuple[int, bool, bool]:
    """(own cards found, whether the assassin was met, whether the first pick was a card meant):
    the picks in order, the turn ending at the first card not the team's."""
    if strays := [w.upper() for w in picks if w not in item.colors]:
        raise ValueError(f"{', '.join(strays)}: not face down for {item.hint.upper()}")
    meant = bool(picks) and picks[0] in item.targets
    for found, word in enumerate(picks):
        if item.colors[word] != item.team:
            return found, item.colors[word] == ASSASSIN.name, meant
    return len(picks), False, meant


def tally(items: Sequence[Item], answers: Mapping[int, Sequence[str]]) -> dict[str, dict[str, int]]:
    """Per kind: items, the person's assassin meetings, first picks meant, own cards found."""
    if missing := sorted(set(range(len(items))) - set(answers)):
        raise ValueError(f"no answer for items {missing}")
    counts: dict[str, dict[str, int]] = {}
    for number, item in enumerate(items):
        found, assassin, meant = turn(item, answers[number])
        c = counts.setdefault(item.kind, dict(items=0, assassin=0, meant=0, own=0))
        c["items"] += 1
        c["assassin"] += assassin
        c["meant"] += meant
        c["own"] += found
    return counts


def play(sources: Path, seeds: range, embedded: bool) -> list[Item]:
    """Every hint of the game's captain with each tier guesser, on each seed's board."""
    from lab.benchmarks.captain_ablation import build_ai, captain
    from lab.evaluation import human_models
    from lab.evaluation.games import play_solo

    words = load_words(BOARD_WORDS_PATH)
    ai, _ = build_ai(sources, words, embedded)
    items = []
    for judge in human_models.GUESSERS:
        guesser = human_models.fit_guesser(judge, sources)
        for seed in seeds:
            board, rng = deal(seed, words)
            key = {card.word: card.color.name for card in board.cards}
            game = play_solo(board, board.starting_team, captain(ai, {}, None), guesser, rng, seed)
            items += [Item(judge, seed, h.word, h.count or 0, tuple(h.face_down),
                           {w: key[w] for w in h.face_down}, board.starting_team.name,
                           tuple(h.targets), any(o.name == "ASSASSIN" for o in h.outcomes))
                      for h in game.hints]
            print(f"{judge} {seed}: {'won' if game.won else 'lost'} in {len(game.hints)} hints",
                  file=sys.stderr, flush=True)
    return items


def write_items(folder: Path, items: Sequence[Item]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "items.txt").write_text("".join(item_line(i, item) + "\n" for i, item in enumerate(items)))
    (folder / "keys.json").write_text(json.dumps([asdict(item) for item in items]))


def read_items(folder: Path) -> list[Item]:
    return [Item(**{**row, "face_down": tuple(row["face_down"]), "targets": tuple(row["targets"])})
            for row in json.loads((folder / "keys.json").read_text())]


def report(counts: Mapping[str, Mapping[str, int]]) -> str:
    """A table per kind, with Wilson 95% intervals."""
    from scipy.stats import binomtest

    def rate(k: int, n: int) -> str:
        ci = binomtest(k, n).proportion_ci(method="wilson")
        return f"{k} of {n} ({100 * k / n:.0f}% [{100 * ci.low:.0f}–{100 * ci.high:.0f}])"

    rows = ["| hints | items | the person met the assassin | first pick a card meant | own cards a hint |",
            "|---|---|---|---|---|"]
    for kind in (MET, CONTROL):
        if c := counts.get(kind):
            n = c["items"]
            rows.append(f"| {kind} | {n} | {rate(c['assassin'], n)} | {rate(c['meant'], n)} | "
                        f"{c['own'] / n:.2f} |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    verbs = parser.add_subparsers(dest="verb", required=True)
    make = verbs.add_parser("items", help="play the games and write the blind items")
    make.add_argument("--sources", type=Path, required=True)
    make.add_argument("--seeds", type=int, default=100)
    make.add_argument("--seed-offset", type=int, default=40000)
    make.add_argument("--embedded", action="store_true", help="the AI on SBERT and phrases alone")
    make.add_argument("--out", type=Path, required=True)
    make.add_argument("--shuffle-seed", type=int, default=7)
    score = verbs.add_parser("score", help="score DIR/answers.txt against DIR/keys.json")
    score.add_argument("folder", type=Path)
    args = parser.parse_args(argv)
    if args.verb == "items":
        seeds = range(args.seed_offset, args.seed_offset + args.seeds)
        items = blind(play(args.sources, seeds, args.embedded), random.Random(args.shuffle_seed))
        write_items(args.out, items)
        print(f"{len(items)} items in {args.out / 'items.txt'}; answer in {args.out / 'answers.txt'}")
        return 0
    items = read_items(args.folder)
    answers = read_answers((args.folder / "answers.txt").read_text().splitlines())
    print(report(tally(items, answers)))
    for number, item in enumerate(items):
        if turn(item, answers[number])[1]:
            print(f"- {item.hint.upper()} {item.count} ({item.kind}; meant "
                  f"{', '.join(t.upper() for t in item.targets)}): the person took "
                  f"{' '.join(w.upper() for w in answers[number])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
