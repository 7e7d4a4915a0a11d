"""The game's AI levels (easy, normal, hard) measured: alone and against the reference team."""

from __future__ import annotations

from collections.abc import Sequence

from board import Color, Outcome, deal
from evaluation.games import play_duel, play_solo
from evaluation.stats import bootstrap_ratio, summarize_duels
from evaluation.tables import fmt, table


def run_levels(seeds: Sequence[int], words: Sequence[str], ai, levels: dict) -> list[dict]:
    """Each level's ai:ai team as a person meets it in the game: alone, how many hints it takes
    to find all its cards; against the reference team (the full AI, planning for an unknown
    agent), how often it wins. One row a level."""
    rows = []
    for name, level in levels.items():
        solo = []
        for seed in seeds:
            board, rng = deal(seed, words)
            captain, agent = ai.captain(twin=True, level=level), ai.agent(level=level)
            solo.append(play_solo(board, board.starting_team, captain, agent, rng, seed))
        duels = [play_duel(seed, words, (ai.captain(twin=True, level=level), ai.agent(level=level)),
                           (ai.captain(twin=False), ai.agent()), color)
                 for seed in seeds for color in (Color.RED, Color.BLUE)]
        rows.append({"level": name, "about": level.about,
                     "hints_to_win": bootstrap_ratio([g.score for g in solo if g.won]),
                     "solo_win_rate": bootstrap_ratio([float(g.won) for g in solo]),
                     "cards_per_hint": bootstrap_ratio([sum(o is Outcome.OWN for h in g.hints
                                                            for o in h.outcomes) for g in solo],
                                                       [len(g.hints) for g in solo]),
                     **{f"duel_{k}": v for k, v in summarize_duels(duels).items()}})
    return rows


def levels_markdown(rows: list[dict], command: str) -> str:
    """The levels' table, as the README and reports/levels.md show it."""
    lines = [f"# The game's AI levels\n\n`{command}`\n",
             "Alone: the hints a level's ai:ai team takes to find all its cards (on the games it wins), "
             "and its own cards per hint. Against the reference team (the full AI planning for an "
             "unknown agent), one game on each side of every board.\n"]
    lines += table(["level", "hints to win alone", "own cards per hint", "wins alone",
                    "wins against the reference", "assassin losses against it"],
                   [[r["level"], fmt(r["hints_to_win"], "mean"), fmt(r["cards_per_hint"], "mean"),
                     fmt(r["solo_win_rate"], "rate"), fmt(r["duel_win_rate"], "rate"),
                     fmt(r["duel_assassin_rate"], "rate")] for r in rows])
    return "\n".join(lines) + "\n"
