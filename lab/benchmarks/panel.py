"""Blind panels: a person reads the game's hints as an agent sees them, and is scored after.

    python -m lab.benchmarks.panel judges --sources ../shared/datasets --out DIR [--embedded]
    python -m lab.benchmarks.panel pairs --sources ../shared/datasets --out DIR
    # read DIR/items.txt alone; write DIR/answers.txt, a line an item: its number, your picks
    python -m lab.benchmarks.panel score DIR

The game's captain plays one team alone with the human-model tier's guessers
(lab/evaluation/human_models.py, greedy, as in reports/people_tiers.md), on boards of no reported
range (seeds from 40000). Each panel sets one kind of hint against as many controls:

- `judges`: every hint on which a guesser turned over the assassin ("met the assassin"), and
  others from the same games ("control"): are the judges' losses ones a person would suffer?
  (decision 0086)
- `pairs`, with mpnet-people: at each hint, the best hint for two worth more than the one given
  that passes every clause of the sight's rule but meaning's ranking ("kept out by meaning"), and
  hints for two the captain gave ("given"): does that clause keep out hints a person sees?
  (decision 0089)

The items are shuffled and written as an agent sees them: the hint, its count and the face-down
cards in alphabetical order, never a colour; the key stays in DIR/keys.json. A person names their
picks in order (fewer than the count to stop), and `score` says, for each kind, how often they
met the assassin, took a card meant first, and took every card meant.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from board import ASSASSIN, Outcome, deal
from common import BOARD_WORDS_PATH, load_words
from lab.evaluation.stats import wilson
from models.expected import ExpectedCaptain
from models.sight import Sight
from models.situation import Situation

MET, CONTROL = "met the assassin", "control"
KEPT_OUT, GIVEN = "kept out by meaning", "given"


@dataclass(frozen=True)
class Item:
    """One hint on its board, with the board's key: the hint given or passed over, and its kind."""

    source: str                    # the guesser the game was played with
    seed: int
    hint: str
    count: int
    face_down: tuple[str, ...]
    colors: Mapping[str, str]      # each face-down card's colour's name
    team: str                      # the name of the colour of the team the hint was for
    targets: tuple[str, ...]
    kind: str


def blind(items: Iterable[Item], kind: str, rng: random.Random) -> list[Item]:
    """Every distinct item of `kind`, and as many of the others, shuffled; one hint on one board
    with the same cards face down is one item. The same items in any order give the same panel."""
    chosen: dict[tuple, Item] = {}
    others: dict[tuple, Item] = {}
    for item in items:
        key = (item.seed, item.hint, tuple(sorted(item.face_down)))
        (chosen if item.kind == kind else others).setdefault(key, item)
    controls = [others[key] for key in sorted(others) if key not in chosen]
    panel = [chosen[key] for key in sorted(chosen)]
    panel += rng.sample(controls, min(len(panel), len(controls)))
    rng.shuffle(panel)
    return panel


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
    """Per kind: items, the person's assassin meetings, first picks meant, items whose every card
    meant was turned over (`whole`), own cards found."""
    if missing := sorted(set(range(len(items))) - set(answers)):
        raise ValueError(f"no answer for items {missing}")
    counts: dict[str, dict[str, int]] = {}
    for number, item in enumerate(items):
        picks = answers[number]
        found, assassin, meant = turn(item, picks)
        c = counts.setdefault(item.kind, dict(items=0, assassin=0, meant=0, whole=0, own=0))
        c["items"] += 1
        c["assassin"] += assassin
        c["meant"] += meant
        c["whole"] += set(item.targets) <= set(picks[:found])
        c["own"] += found
    return counts


class PassedOver(ExpectedCaptain):
    """The captain, noting at each hint the best hint for two that meaning's ranking alone kept
    out and that was worth more than the hint given (each hint and targets once a game)."""

    def __init__(self, base: ExpectedCaptain, source: str, seed: int):
        self.__dict__.update(base.__dict__)
        self.source, self.seed = source, seed
        self.found: list[Item] = []
        self.failing: dict[int, tuple[tuple[str, ...], list[str]]] = {}
        self.noted: set[tuple] = set()

    def counts_seen(self, situation: Situation, chosen: np.ndarray, sight: Sight) -> np.ndarray:
        seen = super().counts_seen(situation, chosen, sight)
        if seen.shape[1] >= 2:
            order = self.order(situation, chosen)
            clauses = sight.clauses(situation.words, chosen, order, situation.own, self.losing(situation))
            own = np.flatnonzero(situation.own)
            for i, h in enumerate(chosen):
                failing = tuple(name for name, holds in clauses.items() if not holds[i, 1])
                self.failing[int(h)] = (failing, [situation.words[j] for j in own[order[i, :2]]])
        self.viewed = situation
        return seen

    def agreed(self, table: np.ndarray) -> np.ndarray:
        if table.shape[1] >= 2 and self.failing:
            k = np.arange(1, table.shape[1] + 1)
            given = np.where(self.seen & (k <= self.reached[:, None]), table, -np.inf).max()
            kept = [h for h, (failing, _) in self.failing.items()
                    if failing == ("meaning:others",) and self.reached[h] >= 2 and table[h, 1] > given]
            if kept:
                self.note(max(kept, key=lambda h: table[h, 1]))
        self.failing = {}
        return super().agreed(table)

    def note(self, h: int) -> None:
        s, targets = self.viewed, self.failing[h][1]
        hint = self.weights.hints[h]
        if (key := (hint, *sorted(targets))) in self.noted:
            return
        self.noted.add(key)
        self.found.append(Item(self.source, self.seed, hint, 2, tuple(s.words),
                               {w: c.name for w, c in zip(s.words, s.colors, strict=True)}, s.team.name,
                               tuple(targets), KEPT_OUT))


def play(sources: Path, seeds: range, embedded: bool, pairs: bool) -> list[Item]:
    """Every hint of the game's captain with each tier guesser (mpnet-people alone for `pairs`),
    on each seed's board, and for `pairs` the hints for two that meaning alone kept out."""
    from lab.benchmarks.captain_ablation import build_ai, captain
    from lab.evaluation import human_models
    from lab.evaluation.games import play_solo

    words = load_words(BOARD_WORDS_PATH)
    ai, _ = build_ai(sources, words, embedded)
    items = []
    for source in ["mpnet-people"] if pairs else list(human_models.GUESSERS):
        guesser = human_models.fit_guesser(source, sources)
        for seed in seeds:
            board, rng = deal(seed, words)
            key = {card.word: card.color.name for card in board.cards}
            playing = captain(ai, {}, None)
            if pairs:
                playing = PassedOver(playing, source, seed)
            game = play_solo(board, board.starting_team, playing, guesser, rng, seed)
            for h in game.hints:
                kind = GIVEN if pairs else MET if Outcome.ASSASSIN in h.outcomes else CONTROL
                if not pairs or h.count == 2:
                    items.append(Item(source, seed, h.word, h.count or 0, tuple(h.face_down),
                                      {w: key[w] for w in h.face_down}, board.starting_team.name,
                                      tuple(h.targets), kind))
            items += playing.found if pairs else []
            print(f"{source} {seed}: {'won' if game.won else 'lost'} in {len(game.hints)} hints",
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
    def rate(k: int, n: int) -> str:
        low, high = wilson(k, n)
        return f"{k} of {n} ({100 * k / n:.0f}% [{100 * low:.0f}–{100 * high:.0f}])"

    rows = ["| hints | items | the person met the assassin | first pick a card meant | "
            "every card meant taken | own cards a hint |", "|---|---|---|---|---|---|"]
    for kind in sorted(counts, key=lambda kind: kind in (CONTROL, GIVEN)):
        c, n = counts[kind], counts[kind]["items"]
        rows.append(f"| {kind} | {n} | {rate(c['assassin'], n)} | {rate(c['meant'], n)} | "
                    f"{rate(c['whole'], n)} | {c['own'] / n:.2f} |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    verbs = parser.add_subparsers(dest="verb", required=True)
    for verb, what in (("judges", "the hints a tier judge met the assassin on, and controls"),
                       ("pairs", "the hints for two meaning alone kept out, and hints for two given")):
        make = verbs.add_parser(verb, help=f"play the games and write the blind items: {what}")
        make.add_argument("--sources", type=Path, required=True)
        make.add_argument("--seeds", type=int, default=100)
        make.add_argument("--seed-offset", type=int, default=40000)
        make.add_argument("--embedded", action="store_true", help="the AI on SBERT and phrases alone")
        make.add_argument("--out", type=Path, required=True)
        make.add_argument("--shuffle-seed", type=int, default=7)
    score = verbs.add_parser("score", help="score DIR/answers.txt against DIR/keys.json")
    score.add_argument("folder", type=Path)
    args = parser.parse_args(argv)
    if args.verb != "score":
        seeds = range(args.seed_offset, args.seed_offset + args.seeds)
        pairs = args.verb == "pairs"
        found = play(args.sources, seeds, args.embedded, pairs)
        items = blind(found, KEPT_OUT if pairs else MET, random.Random(args.shuffle_seed))
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
