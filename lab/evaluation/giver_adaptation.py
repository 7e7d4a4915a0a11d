"""Does the agent that reads a person's hints read them better once it has learnt the giver?
Measured on the human Duet record.

The record names no player, but every turn carries its giver's answers to the survey, the same
on each of their turns (`Turn.giver`): that is what tells one giver from another. For each giver,
the population model of people (the "every dataset" variant, monotone, its penalty chosen inside
as lab/evaluation/people_fit.py fits it) is refitted without any of their turns, so that the
prior has never seen them. Their turns are then read in record order, each by

- the fixed model: that prior, as the agent reads everyone today;
- the updated model: a `Person` on that prior, which has observed the giver's earlier turns as
  TARGETS choices (their clue, and the cards they meant over the cards the clue was not meant
  for), with each learner of models/person.py: `Bayes` at a few strengths, and `Experts` (the
  prior's experts refitted without the giver too). A `Person` reads by what it learnt only while
  that foresees the giver better than the prior; its learnt coefficients are read ungated too.

Two more readings bound it: the prior updated on all the giver's turns in their other games (the
most the learner could know without the game read, whatever the record's order), and in sample.
A turn scores a hit when the model's first pick, the likeliest face-down card, is one of the
giver's targets; and the targets' log-likelihood (each over the cards the clue was not meant
for) says how well the model foresaw them. Intervals come from a paired bootstrap over givers.

    python -m lab.evaluation.giver_adaptation --sources ../shared/datasets

writes reports/giver_adaptation.md.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path

import numpy as np

from lab.evaluation.human_duet import Turn, read_turns
from lab.evaluation.people_fit import (
    SIGNALS,
    VARIANTS,
    fit_experts,
    fit_penalised,
    lower_bounds,
    readings_at_hand,
    turn_values,
)
from lab.evaluation.stats import Estimate, bootstrap_ratio
from models.likelihood import negative_log_likelihood
from models.people import Features, Fit, PeopleModel
from models.person import TARGETS, Bayes, Choice, Experts, Person, choice_data
from models.weights import Weights

REPORT_PATH = Path(__file__).resolve().parents[2] / "reports" / "giver_adaptation.md"
VARIANT = "every dataset"
STRENGTHS = (1.0, 3.0, 10.0)
LEAST_EARLIER = (1, 3)     # turns read after at least this many of the giver's own
RESAMPLES = 10_000


def by_giver(turns: Sequence[Turn]) -> dict[str, list[int]]:
    """Each giver's turns (indices into `turns`), in record order; turns with no giver are left out."""
    groups: dict[str, list[int]] = {}
    for i, turn in enumerate(turns):
        if turn.giver:
            groups.setdefault(turn.giver, []).append(i)
    return groups


def leave_giver_out(turns: Sequence[Turn], values: np.ndarray, groups: Mapping[str, Sequence[int]],
                    names: Sequence[str], signals: Mapping[str, float] = SIGNALS) -> dict[str, Fit]:
    """Each giver's prior: the population model (its coefficients, the penalty chosen, and its
    experts, models/person.py) fitted on every turn but theirs."""
    lower = lower_bounds(names)
    fitted = {}
    for giver, rows in groups.items():
        train = np.ones(len(turns), dtype=bool)
        train[list(rows)] = False
        beta, l2 = fit_penalised(turns, values, signals, train, lower=lower)
        experts = fit_experts(turns, values, names, signals, lower, train)
        fitted[giver] = Fit(VARIANT, tuple(names), tuple(map(float, beta)), l2, experts=experts)
    return fitted


def learners_of(strengths: Sequence[float]) -> dict[str, Callable[[], Bayes | Experts]]:
    """The learners compared, by name: the Bayes learner at each strength, and the experts."""
    return {**{f"Bayes {s:g}": partial(Bayes, s) for s in strengths}, "experts": Experts}


def targets_choice(turn: Turn) -> Choice:
    """What a giver's turn says of how they give: the cards they meant, for their clue."""
    return Choice(turn.clue, turn.remaining, tuple(t for t in turn.targets if t in turn.remaining),
                  TARGETS)


def score(turn: Turn, values: np.ndarray, coefficients: np.ndarray) -> tuple[bool, float]:
    """Whether the first pick (the likeliest card) is one of the targets, and the targets'
    log-likelihood a target; `values` are the turn's face-down cards × features."""
    cards = values[:len(turn.remaining)]
    first = turn.remaining[int(np.argmax(cards @ coefficients))]
    choice = targets_choice(turn)
    data = choice_data([cards], [choice])
    return first in turn.targets, -negative_log_likelihood(coefficients, data, 0.0)[0] / len(choice.chosen)


# What the updated model has observed of the giver: their turns before the one read (as the `Person`
# reads them: the learnt coefficients only while they foresee the giver better than the prior; and
# the learnt ones always), their turns in their other games, every turn of theirs (the one read too:
# in sample, the fit's own check).
EARLIER, UNGATED = "earlier turns", "earlier turns, ungated"
ELSEWHERE, IN_SAMPLE = "other games", "every turn (in sample)"


@dataclass
class Reading:
    """One turn read by the fixed model and by models updated on the giver (`learnt`, by the
    evidence observed and the learner): whether the first pick was a target, and the targets'
    log-likelihood a target."""

    giver: str
    game: int
    earlier: int                                   # the giver's turns read before this one
    fixed: tuple[bool, float]
    learnt: dict[tuple[str, str], tuple[bool, float]] = field(default_factory=dict)


def follow(turns: Sequence[Turn], values: np.ndarray, rows: Sequence[int], prior: PeopleModel,
           learners: Mapping[str, Callable[[], Bayes | Experts]]) -> list[Reading]:
    """One giver's turns (`rows`, in record order) read by the fixed `prior` and by a `Person` on
    it with each learner, observing each turn only after reading it."""
    people = {name: Person(prior, make()) for name, make in learners.items()}
    fixed = prior.coefficients.astype(float)
    readings = []
    for earlier, i in enumerate(rows):
        turn = turns[i]
        reading = Reading(turn.giver, turn.game, earlier, score(turn, values[i], fixed))
        for name, person in people.items():
            # `values @ coefficients` is `person.model.logits`: the features once, not once a learner
            reading.learnt[EARLIER, name] = score(turn, values[i], person.model.coefficients.astype(float))
            reading.learnt[UNGATED, name] = score(turn, values[i], np.asarray(person.learnt, float))
            person.observe(targets_choice(turn))
        readings.append(reading)
    return readings


def learn_elsewhere(turns: Sequence[Turn], values: np.ndarray, rows: Sequence[int],
                    readings: Sequence[Reading], prior: PeopleModel,
                    learners: Mapping[str, Callable[[], Bayes | Experts]]) -> None:
    """Read each of one giver's games by the prior updated on all their turns in their other games,
    before and after it (what `Person.learn` makes of them): the most the learner could know of the
    giver without the game itself (a giver of one game has nothing elsewhere); and, in sample, by
    the prior updated on every turn of theirs."""
    base = prior.coefficients.astype(float)

    def learnt(seen: Sequence[int], make: Callable[[], Bayes | Experts]) -> np.ndarray:
        data = choice_data([values[i][:len(turns[i].remaining)] for i in seen],
                           [targets_choice(turns[i]) for i in seen])
        return make()(prior, base, data)

    for name, make in learners.items():
        beta = learnt(rows, make)
        for i, reading in zip(rows, readings, strict=True):
            reading.learnt[IN_SAMPLE, name] = score(turns[i], values[i], beta)
        for game in dict.fromkeys(turns[i].game for i in rows):
            seen = [i for i in rows if turns[i].game != game]
            if seen:
                beta = learnt(seen, make)
                for i, reading in zip(rows, readings, strict=True):
                    if turns[i].game == game:
                        reading.learnt[ELSEWHERE, name] = score(turns[i], values[i], beta)


def answers_apart(a: str, b: str) -> int | None:
    """In how many survey answers two givers differ (None when they answered different questions)."""
    mine, theirs = a.split(", "), b.split(", ")
    return sum(x != y for x, y in zip(mine, theirs, strict=True)) if len(mine) == len(theirs) else None


def merge_givers(turns: Sequence[Turn], most: int) -> list[Turn]:
    """The turns with givers whose answers differ in at most `most` of them taken as one (named
    by the first met in record order): one person who answered a question differently."""
    names: dict[str, str] = {}
    for turn in turns:
        if turn.giver and turn.giver not in names:
            near = (n for n in dict.fromkeys(names.values())
                    if (apart := answers_apart(n, turn.giver)) is not None and apart <= most)
            names[turn.giver] = next(near, turn.giver)
    return [replace(t, giver=names.get(t.giver, t.giver)) for t in turns]


def read_givers(turns: Sequence[Turn], readings: Mapping[str, Weights],
                names: Sequence[str] = VARIANTS[VARIANT], strengths: Sequence[float] = STRENGTHS,
                signals: Mapping[str, float] = SIGNALS, values: np.ndarray | None = None,
                say=print) -> tuple[list[Reading], dict[str, float]]:
    """Every turn of every giver with two turns or more, read fixed and updated by each learner
    (see the module's doc); and each giver's leave-giver-out penalty. `values`: the turns' feature
    values, if at hand."""
    if values is None:
        values = turn_values(turns, Features(names, readings))
    groups = {g: rows for g, rows in by_giver(turns).items() if len(rows) >= 2}
    start = time.perf_counter()
    priors = leave_giver_out(turns, values, groups, names, signals)
    say(f"{len(groups)} leave-giver-out fits, with their experts, in {time.perf_counter() - start:.0f} s")
    learners = learners_of(strengths)
    out = []
    for giver, rows in groups.items():
        prior = PeopleModel(priors[giver], readings)
        mine = follow(turns, values, rows, prior, learners)
        learn_elsewhere(turns, values, rows, mine, prior, learners)
        out += mine
    return out, {g: fit.l2 for g, fit in priors.items()}


@dataclass(frozen=True)
class Comparison:
    """Fixed against updated (on `evidence`, by `learner`) on the turns read after at least
    `least` of the giver's own."""

    evidence: str
    learner: str
    least: int
    turns: int
    givers: int
    fixed: Estimate            # first pick a target
    updated: Estimate
    gain: Estimate             # updated − fixed, paired
    fixed_ll: Estimate         # log-likelihood of a target
    updated_ll: Estimate
    gain_ll: Estimate


def compare(readings: Sequence[Reading], evidence: str, learner: str, least: int = 0,
            resamples: int = RESAMPLES) -> Comparison:
    """Pooled over turns; the intervals resample givers (each with all their turns), so that a
    giver's turns stay together and the fixed and updated figures stay paired."""
    key = evidence, learner
    kept = [r for r in readings if r.earlier >= least and key in r.learnt]
    givers = list(dict.fromkeys(r.giver for r in kept))

    def per_giver(value) -> np.ndarray:
        return np.array([sum(value(r) for r in kept if r.giver == g) for g in givers], float)

    count = per_giver(lambda r: 1)

    def estimate(value) -> Estimate:
        return bootstrap_ratio(per_giver(value), count, resamples=resamples)

    return Comparison(
        evidence, learner, least, len(kept), len(givers),
        estimate(lambda r: r.fixed[0]), estimate(lambda r: r.learnt[key][0]),
        estimate(lambda r: r.learnt[key][0] - r.fixed[0]),
        estimate(lambda r: r.fixed[1]), estimate(lambda r: r.learnt[key][1]),
        estimate(lambda r: r.learnt[key][1] - r.fixed[1]))


def percent(e: Estimate, signed: bool = False) -> str:
    sign = "+" if signed else ""
    return f"{100 * e.value:{sign}.1f}% [{100 * e.low:{sign}.1f}, {100 * e.high:{sign}.1f}]"


def plain(e: Estimate, signed: bool = False) -> str:
    sign = "+" if signed else ""
    return f"{e.value:{sign}.3f} [{e.low:{sign}.3f}, {e.high:{sign}.3f}]"


def near_twins(turns: Sequence[Turn], most: int) -> list[tuple[str, str, int]]:
    """Pairs of givers whose answers differ in at most `most` of them, with how many."""
    givers = list(by_giver(turns))
    out = []
    for k, a in enumerate(givers):
        for b in givers[k + 1:]:
            if (differ := answers_apart(a, b)) is not None and differ <= most:
                out.append((a, b, differ))
    return out


def verdicts(comparisons: Sequence[Comparison]) -> list[str]:
    """Where the interval of updated − fixed lies above zero, below it, for first picks and for
    the log-likelihood."""
    def where(found: Sequence[Comparison]) -> str:
        return "; ".join(f"{c.evidence} by {c.learner} after ≥ {c.least}" for c in found) or "none"

    def said(name: str, gain) -> str:
        better = [c for c in comparisons if gain(c).low > 0]
        worse = [c for c in comparisons if gain(c).high < 0]
        return (f"- {name}: better than the fixed model in {len(better)} of {len(comparisons)} "
                f"comparisons ({where(better)}), worse in {len(worse)} ({where(worse)}).")

    return [said("first pick a target", lambda c: c.gain),
            said("log-likelihood of a target", lambda c: c.gain_ll)]


def table(comparisons: Sequence[Comparison]) -> list[str]:
    lines = ["| evidence | learner | turns read after | turns | givers | first pick a target, fixed | "
             "updated | updated − fixed | log-lik. of a target, fixed | updated | updated − fixed |",
             "|---|---:|---:|---:|---:|---|---|---|---|---|---|"]
    return lines + [f"| {c.evidence} | {c.learner} | ≥ {c.least} | {c.turns} | {c.givers} | "
                    f"{percent(c.fixed)} | {percent(c.updated)} | {percent(c.gain, True)} | "
                    f"{plain(c.fixed_ll)} | {plain(c.updated_ll)} | {plain(c.gain_ll, True)} |"
                    for c in comparisons]


def markdown(turns: Sequence[Turn], readings: Sequence[Reading], comparisons: Sequence[Comparison],
             merged: Sequence[Comparison], most: int, penalties: Mapping[str, float],
             learners: Sequence[str], command: str, seconds: float) -> str:
    """The report: what the record allows, then fixed against updated."""
    groups = by_giver(turns)
    order = sorted(groups, key=lambda g: -len(groups[g]))
    label = {g: f"G{k + 1}" for k, g in enumerate(order)}
    games = {g: len({turns[i].game for i in groups[g]}) for g in order}
    counts = [len(groups[g]) for g in order]
    twins = near_twins(turns, most)
    merged_givers = len(by_giver(merge_givers(turns, most)))
    lines = [
        "# Learning a giver: does the agent read a person's hints better after their earlier ones?", "",
        f"`{command}` ({seconds / 60:.1f} min on one process). Code: lab/evaluation/giver_adaptation.py.",
        "", "## What the record allows", "",
        f"The human Duet record (validation split) has {len(turns)} aligned turns and names no player. "
        "Every row's `all_text` prepends the giver's answers to the survey (22 answers: demographics, "
        "moral foundations, personality) and the guesser's; the giver's answers are complete on every "
        "row and the same on every turn of a game, so they tell givers apart. By them the record has "
        f"**{len(groups)} givers** over {len({t.game for t in turns})} games, each game one giver's. "
        f"Turns a giver: median {int(np.median(counts))}, from {min(counts)} to {max(counts)}; the five "
        f"most active give {sum(counts[:5])} of the {len(turns)} turns; {sum(c >= 10 for c in counts)} "
        f"givers have 10 or more, {sum(games[g] >= 2 for g in order)} play two games or more.", "",
        "| giver | turns | games | penalty of the leave-giver-out fit |", "|---|---:|---:|---:|"]
    lines += [f"| {label[g]} | {len(groups[g])} | {games[g]} | {penalties.get(g, float('nan')):g} |"
              for g in order]
    lines += ["", "The answers are the record's only name for a player: two people who answered alike "
              "would be one giver, and one person who answered a question differently in two sessions "
              f"two. {len(twins)} pairs of givers differ in {most} answers or fewer ("
              + ", ".join(f"{label[a]}–{label[b]}: {n}" for a, b, n in twins)
              + f"); taken as one person each, the record has {merged_givers} givers (the last table).",
              "", "## Fixed against updated", "",
              "Each giver's prior is the population model fitted without any of their turns "
              "(leave-giver-out, the same features, monotone bounds and penalty choice as data/people.json). "
              "A turn is a hit when the model's first pick, its likeliest face-down card, is one of the "
              "giver's targets; the log-likelihood is of each target over the cards the clue was not "
              "meant for, a target. The updated model is the prior updated on the giver's TARGETS "
              "choices by a learner of models/person.py: `Bayes(strength)` (the posterior mode; the "
              "prior a Gaussian of that precision in standardised units; every link monotone), or "
              "`Experts()` (the likeliest of the prior and its experts, models of people on one family "
              "of sources each, refitted without the giver too; the prior's share 0.5). What it has "
              "observed:", "",
              f"- **{EARLIER}**: a `Person` that observed the giver's turns before this one, in record "
              "order, as the agent would in play (it reads by what it learnt only while that foresaw "
              "the giver's choices better than the prior, each read before it was learnt from);",
              f"- **{UNGATED}**: the same `Person`'s learnt coefficients, used or not;",
              f"- **{ELSEWHERE}**: the prior updated on all the giver's turns in their other games, before "
              "and after (givers of two games or more): the most the learner could know of them "
              "without the game read;",
              f"- **{IN_SAMPLE}**: the prior updated on every turn of the giver, the one read included: "
              "not a measure of reading, but what the update makes of what it has seen.", "",
              "Figures pool turns; the 95% intervals come from a bootstrap over givers "
              f"({RESAMPLES:,} resamples, paired: a giver's turns, fixed and updated, resampled together).",
              "", *table(comparisons), "",
              "Where the 95% interval of updated − fixed lies wholly above or below zero (the in-sample "
              "rows left out: they read turns the model learnt from):", "",
              *verdicts([c for c in comparisons if c.evidence != IN_SAMPLE]), "",
              f"{len(learners)} learners are shown; picking the best of them on this record would be "
              "selection on the data that measures it, so none is claimed as tuned.", "",
              f"## Near-identical answers taken as one giver ({merged_givers} givers)", "",
              *table(merged), "",
              f"## Per giver ({EARLIER}: turns read after at least one of their own; first pick a target)",
              "",
              "| giver | turns | fixed | " + " | ".join(learners) + " |",
              "|---|---:|---:|" + "---:|" * len(learners)]
    for g in order:
        mine = [r for r in readings if r.giver == g and r.earlier >= 1]
        if mine:
            rates = [np.mean([r.learnt[EARLIER, name][0] for r in mine]) for name in learners]
            lines.append(f"| {label[g]} | {len(mine)} | {100 * np.mean([r.fixed[0] for r in mine]):.1f}% | "
                         + " | ".join(f"{100 * x:.1f}%" for x in rates) + " |")
    lines.append("")
    return "\n".join(lines)


def comparisons_of(readings: Sequence[Reading], learners: Sequence[str]) -> list[Comparison]:
    """Every comparison the report makes: earlier turns after 1 and 3, ungated after 1, other games,
    in sample."""
    return ([compare(readings, EARLIER, name, least) for least in LEAST_EARLIER for name in learners]
            + [compare(readings, UNGATED, name, LEAST_EARLIER[0]) for name in learners]
            + [compare(readings, evidence, name) for evidence in (ELSEWHERE, IN_SAMPLE)
               for name in learners])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m lab.evaluation.giver_adaptation",
                                description=__doc__.splitlines()[0])
    p.add_argument("--sources", type=Path, required=True, help="the datasets folder (human_duet/ in it)")
    p.add_argument("--strengths", type=float, nargs="+", default=list(STRENGTHS),
                   help="the Bayes learner's prior precisions (default 1 3 10)")
    p.add_argument("--merge", type=int, default=3,
                   help="also read givers whose answers differ in at most this many as one (default 3)")
    p.add_argument("--report", type=Path, default=REPORT_PATH,
                   help="the report (default reports/giver_adaptation.md)")
    args = p.parse_args(argv)
    start = time.perf_counter()
    turns = list(read_turns(args.sources))
    readings = readings_at_hand(args.sources)
    values = turn_values(turns, Features(VARIANTS[VARIANT], readings))
    learners = list(learners_of(args.strengths))
    exact, penalties = read_givers(turns, readings, strengths=args.strengths, values=values)
    comparisons = comparisons_of(exact, learners)
    merged = comparisons_of(read_givers(merge_givers(turns, args.merge), readings,
                                        strengths=args.strengths, values=values)[0], learners)
    for c in comparisons:
        print(f"{c.evidence}, {c.learner}, after ≥ {c.least} ({c.turns} turns, {c.givers} "
              f"givers): first pick a target fixed {percent(c.fixed)}, updated {percent(c.updated)}, "
              f"difference {percent(c.gain, True)}; log-likelihood a target {plain(c.fixed_ll)} → "
              f"{plain(c.updated_ll)} ({plain(c.gain_ll, True)})")
    command = " ".join(["python -m lab.evaluation.giver_adaptation --sources ../shared/datasets",
                        *(["--strengths", *map(str, args.strengths)]
                          if list(args.strengths) != list(STRENGTHS) else [])])
    page = markdown(turns, exact, comparisons, merged, args.merge, penalties, learners, command,
                    time.perf_counter() - start)
    args.report.write_text(page, encoding="utf-8")
    print(f"wrote {args.report}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
