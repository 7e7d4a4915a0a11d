"""The game's AI levels (easy, normal, hard) measured against a model of people.

A level is set by how often a person's side beats it, not by how it fares against the AI. The
person's seat is played by models of people, in real two-team games (`players.Game`):

- `ai:human`, the person guesses: the game's captain (planning for a person, as it does for you,
  at the level's count for your side) with a guesser fitted to people's play
  (lab/evaluation/human_models.py, `PERSON_GUESSER`), its picks sampled from its chances, not its best card;
- `human:ai`, the person gives the hints: no model of people's clues is fitted, so the game's
  captain planning for a person stands in for the person, and the AI's people agent reads, as
  it reads a person's clues in the game.

That side plays each level's `ai:ai` team and the auto team (one of its own cards a turn), one
game on each side of every board. The levels aim at `TARGETS` (docs/decisions/0093).
"""

from __future__ import annotations

from collections.abc import Sequence

from board import Color, Outcome, deal
from common import progress
from lab.evaluation.games import play_duel, play_solo
from lab.evaluation.stats import bootstrap_ratio, summarize_duels
from lab.evaluation.tables import fmt, table

# The fitted guesser closest to people on their own clues (a giver's target first on 61.8% of
# turns; the GloVe one, no longer hearing the norms, 40%): decision 0040.
PERSON_GUESSER = "mpnet-people"
SEATS = {"ai:human": "you guess", "human:ai": "you give the hints"}
AUTO = "auto"
TARGETS = {"easy": 0.80, "normal": 0.55, "hard": 0.30, AUTO: 0.85}   # the person's side's win rate


def person_side(ai, seat: str, guesser, level=None) -> tuple:
    """(captain, agent) models playing a person's team at a `level` (main.make_team): `guesser` is
    the person guessing (`ai:human`) the hints of your AI captain; for `human:ai` the AI's captain
    planning for a person, whole, stands in for them."""
    if seat == "ai:human":
        return ai.captain(level=level, for_you=True), guesser
    if seat == "human:ai":
        return ai.captain(), ai.people_agent()
    raise ValueError(f"unknown seat {seat!r}: choose one of {', '.join(SEATS)}")


def opponent(ai, level) -> tuple | None:
    """A level's `ai:ai` team as the game makes it (players.make_team), or None for the auto team."""
    if level is None:
        return None
    return ai.captain(twin=True, level=level), ai.agent(level=level)


def solo(seeds: Sequence[int], words: Sequence[str], ai, level) -> dict:
    """A level's `ai:ai` team alone on each board: how many hints it takes to find its cards."""
    games = []
    for seed in seeds:
        board, rng = deal(seed, words)
        games.append(play_solo(board, board.starting_team, *opponent(ai, level), rng, seed))
    return {"hints_to_win": bootstrap_ratio([g.score for g in games if g.won]),
            "solo_win_rate": bootstrap_ratio([float(g.won) for g in games]),
            "cards_per_hint": bootstrap_ratio([sum(o is Outcome.OWN for h in g.hints for o in h.outcomes)
                                               for g in games], [len(g.hints) for g in games])}


def run_levels(seeds: Sequence[int], words: Sequence[str], ai, levels: dict, guesser,
               seats: Sequence[str] = tuple(SEATS)) -> list[dict]:
    """One row for each level and for the auto team: the person's side's win rates in each
    seat (one game on each side of every board), and the level's pace alone."""
    opponents = {**levels, AUTO: None}
    rows = []
    with progress(total=len(opponents) * len(seats) * 2 * len(seeds), desc="bench: levels",
                  unit="game", mininterval=1.0, dynamic_ncols=True) as bar:
        for name, level in opponents.items():
            row = {"opponent": name, "target": TARGETS.get(name),
                   "about": "turns over one of its own cards a turn" if level is None else level.theirs,
                   "yours": "plays whole" if level is None else level.yours,
                   **({} if level is None else solo(seeds, words, ai, level))}
            for seat in seats:
                duels = []
                for seed in seeds:
                    for color in (Color.RED, Color.BLUE):
                        duels.append(play_duel(seed, words, person_side(ai, seat, guesser, level),
                                               opponent(ai, level), color))
                        bar.update()
                row[seat] = summarize_duels(duels)
            rows.append(row)
    return rows


def levels_markdown(rows: list[dict], command: str) -> str:
    """The levels' table, as the README and reports/levels.md show it."""
    seats = [s for s in SEATS if s in rows[0]]
    lines = [f"# The game's AI levels, against a model of people\n\n`{command}`\n",
             "The person's side wins (95% bootstrap intervals over boards), one game on each side of "
             "every board, in real two-team games: as guesser (`ai:human`) a guesser fitted to people's "
             f"play ({PERSON_GUESSER}, its picks sampled from its chances) with the game's captain; as "
             "captain (`human:ai`) the game's captain planning for a person stands in for the person "
             "(no model of people's clues is fitted), with the AI's people agent reading. Alone: the "
             "hints a level's `ai:ai` team takes to find all its cards (on the games it wins), and how "
             "often it wins with no opponent (a loss: the assassin).\n"]
    lines += table(["opponent", "what it does", "your AI captain", "hints to win alone", "wins alone",
                    *(f"{SEATS[s]} (`{s}`): your side wins" for s in seats), "target"],
                   [[r["opponent"], r["about"], r["yours"],
                     fmt(r.get("hints_to_win"), "mean"), fmt(r.get("solo_win_rate"), "rate"),
                     *(fmt(r[s]["win_rate"], "rate") for s in seats),
                     f"{100 * r['target']:.0f}%" + (" or more" if r["opponent"] == AUTO else "")]
                    for r in rows])
    lines += ["", "By who moves first, and the games lost to the assassin, by the person's side and by "
              "the opponent:", ""]
    lines += table(["opponent", "seat", "games", "wins moving first", "wins moving second",
                    "your side's assassin losses", "the opponent's", "rule errors"],
                   [[r["opponent"], f"`{s}`", r[s]["games"], fmt(r[s]["win_rate_first"], "rate"),
                     fmt(r[s]["win_rate_second"], "rate"), fmt(r[s]["assassin_rate"], "rate"),
                     fmt(r[s]["reference_assassin_rate"], "rate"), r[s]["errors"]]
                    for r in rows for s in seats])
    return "\n".join(lines) + "\n"
