"""The bench's report: benchmark.md (markdown), benchmark.json (to_json) and pairing.png (plot)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from common import ROOT, atomic_write_bytes
from lab.evaluation import foreign_tier, human_models
from lab.evaluation.games import LOSS_SCORE, TEST_OFFSET
from lab.evaluation.human_tier import markdown as human_markdown
from lab.evaluation.runner import Setup
from lab.evaluation.specs import PARTNER_TEXT, Spec
from lab.evaluation.stats import CI_SEED, METRICS, RESAMPLES, Estimate
from lab.evaluation.tables import cell, fmt, ms, table, value

REPORTS_DIR = ROOT / "reports"
FULL_TABLE_PAIRS = 60   # above this many pairs, the per-pair table drops its intervals


def seed_ranges(seeds: Sequence[int]) -> str:
    """Describe a seed list and say whether it lies in the test or the tuning range."""
    span = f"{min(seeds)}–{max(seeds)}" if seeds else "none"
    if seeds and min(seeds) >= TEST_OFFSET:
        return (f"seeds {span} ({len(seeds)} boards), the **test range** (≥ {TEST_OFFSET}); "
                f"parameters are tuned only on the tuning range, seeds 0–{TEST_OFFSET - 1} "
                "(lab/benchmarks/tune.py), so these boards are held out.")
    return (f"seeds {span} ({len(seeds)} boards) — **in the tuning range** (< {TEST_OFFSET}): "
            "these are not held-out numbers.")


def markdown(report: dict) -> str:
    """The human-readable report: its sections in order, each written from its part of `report`."""
    m = report
    lines = [*run_section(m), *human_models.markdown(m.get("human_models")),
             *foreign_tier.markdown(m.get("foreign")),
             *headline_section(m["single_team"]["headline"], "+".join(m["default_pair"])),
             *matrices_section(m["single_team"]["matrices"]), *styles_section(m["single_team"]["styles"]),
             *pairing_section(m["plot"]), *pairs_section(m["single_team"]["pairs"]),
             *two_team_section(m["two_team"]), *speed_section(m["speed"]), *duet_section(m.get("duet")),
             *(["", *human_markdown(m["human"], fmt)] if "human" in m else []), *READING]
    return "\n".join(lines)


def run_section(m: dict) -> list[str]:
    """The title, and how the run was made: command, machine, boards, matrices, models."""
    lines = [
        "# Benchmark: play strength and speed", "",
        f"Command: `{m['command']}`", "",
        f"Run on {m['machine']['when']} on this machine ({m['machine']['cpus']} CPUs, "
        f"{m['machine']['platform']}, Python {m['machine']['python']}), commit "
        f"`{m['machine']['commit']}`; wall time **{m['runtime_s']:.0f} s** with {m.get('jobs', 1)} "
        f"worker process{'es' if m.get('jobs', 1) > 1 else ''}.", "",
        f"Boards: {seed_ranges(m['seeds'])}", "",
        "Initializers: " + (", ".join(f"{k} (first load {v['first_load_s']:.2f} s, from cache "
                                      f"{v['cache_load_s']:.2f} s)"
                                      for k, v in m["load_times"].items()) or "none") + ".",
    ]
    if m["missing"]:
        lines += ["", "Not available in this run: " + "; ".join(
            f"{k} ({v})" for k, v in m["missing"].items()) + "."]
    lines += ["", f"Captains: {', '.join(m['captains'])}.", "",
              f"Agents: {', '.join(m['agents'])}.", "",
              f"Partner matrices of captains that check hints against several (`--partners "
              f"{m['partners']}`): {PARTNER_TEXT[m['partners']]}", ""]
    return lines


SHARED_SOURCE = ("Combined matrices are made of base ones, and every matrix but SBERT's backs off to "
                 "SBERT (counts and norms through fastText), so some cross-play pairs share a source "
                 "(e.g. combined and association)")


def headline_section(h: dict, pair: str) -> list[str]:
    """Same-family cross-play in one team's games: each group of pairs, and the targets."""
    lines = ["## Same-family cross-play, single team", "",
             "One team alone (9 own, 8 opponent, 7 neutral, 1 assassin), N+1 guessing; score = "
             f"hints to find all own cards, {LOSS_SCORE} on a loss. **Cross-play** pairs a captain "
             "and an agent that read different matrices; self-play (same matrix) is shown beside "
             "it and flatters every bot. 95% bootstrap intervals over boards in brackets.", ""]
    header = ["pairs", "n pairs", "games", "win rate", "assassin losses", "mean score",
              "hints on wins", "illegal hints"]
    names = {"cross_all": "**cross-play, all pairs**",
             "cross_disjoint": "cross-play, matrices sharing no source",
             "cross_default": f"**cross-play, default pair ({pair})**",
             "cross_disjoint_default": f"cross-play sharing no source, default pair ({pair})",
             "self_all": "self-play, all pairs",
             "self_default": f"self-play, default pair ({pair})"}
    rows = [[names[k], g["pairs"], g["games"], fmt(g["win_rate"], "rate"),
             fmt(g["assassin_rate"], "rate"), fmt(g["mean_score"], "mean"),
             fmt(g["turns_on_wins"], "mean"), g["illegal"]]
            for k, g in h.items() if g is not None]
    lines += table(header, rows) if rows else ["No pairs were played."]
    if h["cross_all"] is None:
        lines += ["", "No cross-play pairs in this run (one initializer only): the numbers above are "
                  "self-play and flatter the AI."]
    lines += ["", f"{SHARED_SOURCE}; the rows 'sharing no source' leave those out." if h["cross_disjoint"]
              else f"{SHARED_SOURCE}: here every cross-play pair shares one, so there is no row of pairs "
                   "sharing no source."]
    return [*lines, "", *targets(h), ""]


def matrices_section(mats: dict) -> list[str]:
    """Each initializer's matrix as the captain's, as the agent's and in self-play."""
    lines = ["## Matrices side by side (single team)", "",
             f"Each initializer's matrix in cross-play, as the captain's and as the agent's "
             f"({mats['strategies']}), and in self-play.", ""]
    rows = [[r["initializer"]] + [cell(r[g], metric) for g in ("captain_cross", "agent_cross", "self")
                                  for metric in ("win_rate", "mean_score")] for r in mats["rows"]]
    return lines + table(["matrix", "as captain: win", "score", "as agent: win", "score", "self: win",
                          "score"], rows)


def styles_section(styles: list[dict]) -> list[str]:
    """Each captain style with each agent style, pooled over initializers."""
    lines = ["", "## Strategies side by side (single team)", "",
             "Each captain style with each agent style, pooled over initializers.", ""]
    rows = []
    for s in styles:
        cross, same = s["cross"], s["self"]
        rows.append([s["captain"], s["agent"], cell(cross, "win_rate"), cell(cross, "assassin_rate"),
                     cell(cross, "mean_score"), cell(cross, "precision"), cell(same, "win_rate"),
                     cell(same, "mean_score")])
    return lines + table(["captain", "agent", "cross win", "cross assassin", "cross score",
                          "cross precision", "self win", "self score"], rows)


def pairing_section(plot: str) -> list[str]:
    return ["", "## Pairing matrix", "", f"![pairing matrix]({plot})", "",
            "Rows are captains, columns agents; the boxed cells are self-play.", ""]


def pairs_section(pairs: list[dict]) -> list[str]:
    """Every pair's metrics; past FULL_TABLE_PAIRS pairs, values without their intervals."""
    lines = ["## Every pair (single team)", ""]
    metric_kinds = {name: kind for name, _, _, kind, _ in METRICS}
    if len(pairs) <= FULL_TABLE_PAIRS:
        header = ["captain", "agent", "play"] + [label for *_, label in METRICS] + ["illegal", "failures"]
        rows = [[p["captain"], p["agent"], "cross" if p["cross"] else "self"]
                + [fmt(p[name], metric_kinds[name]) for name, *_ in METRICS]
                + [p["illegal"], p["failures"]] for p in pairs]
    else:
        lines += [f"{len(pairs)} pairs: values only; every interval is in the JSON report.", ""]
        shown = ("win_rate", "assassin_rate", "mean_score", "cards_per_hint", "precision", "count_asked")
        header = ["captain", "agent", "play"] + [label for name, *_, label in METRICS if name in shown] \
            + ["illegal", "failures"]
        rows = [[p["captain"], p["agent"], "cross" if p["cross"] else "self"]
                + [value(p[name], metric_kinds[name]) for name in shown]
                + [p["illegal"], p["failures"]] for p in pairs]
    return lines + table(header, rows)


def two_team_section(two_team: dict | None) -> list[str]:
    """Each team against the reference team, on both sides of every board."""
    lines = ["", "## Two-team mode", ""]
    if not two_team:
        return [*lines, "Not run."]
    ref = two_team["reference"]
    lines += [f"Each team (captain and agent on one matrix) plays the reference team "
              f"{ref[0]} + {ref[1]} on every board twice, once on each side. "
              "A team that breaks a rule loses that game (errors column).", ""]
    rows = [[t["team"], t["games"], fmt(t["win_rate"], "rate"), fmt(t["win_rate_first"], "rate"),
             fmt(t["win_rate_second"], "rate"), fmt(t["assassin_rate"], "rate"), t["errors"]]
            for t in two_team["teams"]]
    return lines + table(["team", "games", "win rate", "moving first", "moving second",
                          "assassin", "errors"], rows)


def speed_section(speed: dict) -> list[str]:
    """Each model's latency per call in the single-team games."""
    lines = ["", "## Speed", "",
             "Wall-clock latency of each call in the single-team games (median and 95th "
             "percentile, ms), on this shared machine.", ""]
    rows = [[k, call, ms(v["median_ms"]), ms(v["p95_ms"]), v["calls"]]
            for call in ("hint", "guess") for k, v in speed[call].items()]
    return lines + table(["model", "call", "median ms", "p95 ms", "calls"], rows)


def duet_section(duet: dict | None) -> list[str]:
    """The Duet benchmark's measures, when it ran."""
    if duet is None:
        return []
    lines = ["", "## Duet", ""]
    if "error" in duet:
        return [*lines, duet["error"]]
    lines += [f"The Duet benchmark (`lab.evaluation.duet_benchmark`) for {duet.get('pair')}, "
              "on the same seeds; intervals over its games.", ""]
    rows = [[k, json.dumps(v)] for k, v in duet.items()
            if k not in ("pair", "per_seed", "intervals")]
    rows += [[f"{k} (mean, 95% CI)", fmt(e, "mean")]
             for k, e in duet.get("intervals", {}).items()]
    return lines + table(["measure", "value"], rows)


READING = ["", "## How to read this", "",
           "- Win rate, assassin losses, mean score: per game. Hints on wins: mean number of hints "
           "in the games won. Own cards per hint: own cards found / hints given. Guess precision: "
           "the share of guesses that were own cards. Count asked / achieved: the mean hint count "
           "and the mean number of own cards found on that hint, up to its count (N+1 guessing "
           "may find one more: that shows in cards per hint). Hints fulfilled: the share of "
           "hints whose count was reached.",
           f"- Intervals: percentile bootstrap, {RESAMPLES} resamples, rng seed {CI_SEED}; "
           "aggregates resample boards (all pairs of a board together). At 0% or 100% the "
           "interval collapses to a point: with 0 events in n games the true rate is still "
           "plausibly up to about 3/n.",
           "- Illegal hints are checked with `model.hint_problem` and must be 0. Failures are "
           "games where a model could not go on (no legal hint, or an invalid guess); they "
           "count as losses.",
           "- Each seed's board and the agents' sampling rng are those of "
           "`python main.py --seed SEED`; every pair plays the same boards.", ""]


TARGETS = (("cross_default", "win_rate", ">=", 0.90, "cross-play win rate ≥ 90%"),
           ("cross_default", "assassin_rate", "<=", 0.05, "cross-play assassin losses ≤ 5%"),
           ("cross_default", "mean_score", "<=", 8.0, "cross-play mean score ≤ 8.0"),
           ("self_default", "mean_score", "<=", 4.5, "self-play mean score of the default pair ≤ 4.5"))


def targets(headline: dict) -> list[str]:
    """The issue's targets, each marked met or missed on the default pair's measured value."""
    lines = ["Targets (default pair):", ""]
    for group, metric, op, goal, text in TARGETS:
        g = headline.get(group)
        if g is None or not np.isfinite(g[metric].value):
            lines.append(f"- {text}: not measured in this run")
            continue
        value = g[metric].value
        met = value >= goal if op == ">=" else value <= goal
        shown = f"{value:.1%}" if goal < 1 else f"{value:.2f}"
        lines.append(f"- {text}: {shown} — {'met' if met else 'missed'}")
    return lines


def plot(report: dict, solo_pairs: Sequence[tuple[Spec, Spec]], path: Path) -> None:
    """Heat maps of win rate and mean score, captains × agents, self-play cells boxed."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    captains = list(dict.fromkeys(c for c, _ in solo_pairs))
    agents = list(dict.fromkeys(a for _, a in solo_pairs))
    by_pair = {(p["captain"], p["agent"]): p for p in report["single_team"]["pairs"]}
    shape = (len(captains), len(agents))
    win, score = np.full(shape, np.nan), np.full(shape, np.nan)
    for i, c in enumerate(captains):
        for j, a in enumerate(agents):
            if (p := by_pair.get((c.label, a.label))) is not None:
                win[i, j], score[i, j] = p["win_rate"].value, p["mean_score"].value
    width = max(6.0, 0.55 * len(agents) + 3)
    height = max(3.0, 0.4 * len(captains) + 2)
    fig, axes = plt.subplots(1, 2, figsize=(2 * width, height), constrained_layout=True)
    worst = float(np.nanmax(score)) if np.isfinite(score).any() else LOSS_SCORE
    panels = ((win, "win rate", "viridis", 0, 1, "{:.0%}"),
              (score, "mean score (lower is better)", "viridis_r", 1, min(LOSS_SCORE, max(10, worst)),
               "{:.1f}"))
    for ax, (values, title, cmap, vmin, vmax, text) in zip(axes, panels, strict=True):
        image = ax.imshow(values, cmap=cmap, vmin=vmin, vmax=vmax, aspect="auto")
        ax.set_title(f"single team, {title}")
        ax.set_xticks(range(len(agents)), [a.label for a in agents], rotation=60, ha="right",
                      fontsize=8)
        ax.set_yticks(range(len(captains)), [c.label for c in captains], fontsize=8)
        ax.set_xlabel("agent")
        ax.set_ylabel("captain")
        fig.colorbar(image, ax=ax, shrink=0.8)
        for i, c in enumerate(captains):
            for j, a in enumerate(agents):
                if c.initializer == a.initializer:
                    ax.add_patch(Rectangle((j - .5, i - .5), 1, 1, fill=False, lw=1.5, ec="red"))
                if shape[1] <= 16 and np.isfinite(values[i, j]):
                    red, green, blue, _ = image.cmap(image.norm(values[i, j]))
                    dark = 0.299 * red + 0.587 * green + 0.114 * blue < 0.5
                    ax.text(j, i, text.format(values[i, j]), ha="center", va="center", fontsize=6,
                            color="white" if dark else "black")
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def to_json(value):
    """Estimates and Specs made JSON-ready, recursively; floats rounded to 4 decimals."""
    if isinstance(value, Estimate):
        return to_json(value.as_dict())
    if isinstance(value, dict):
        return {k: to_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [to_json(v) for v in value]
    if isinstance(value, float):
        return round(value, 4) if np.isfinite(value) else None
    return value


def write(report: dict, setup: Setup, out: Path) -> None:
    """benchmark.md, benchmark.json and pairing.png in `out`."""
    solo_pairs = report.pop("_solo_pairs")
    out.mkdir(parents=True, exist_ok=True)
    plot(report, solo_pairs, out / "pairing.png")
    atomic_write_bytes(out / "benchmark.md", markdown(report).encode("utf-8"))
    atomic_write_bytes(out / "benchmark.json",
                       json.dumps(to_json(report), indent=1).encode("utf-8"))
