"""Estimates and markdown tables as the bench's reports show them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from lab.evaluation.stats import METRICS, Estimate


def fmt(estimate: Estimate | None, kind: str) -> str:
    """`93.0% [88.0–97.0]` for rates, `6.12 [5.80–6.45]` for means, `—` when undefined."""
    if estimate is None or not np.isfinite(estimate.value):
        return "—"
    if kind == "rate":
        return f"{estimate.value:.1%} [{estimate.low * 100:.1f}–{estimate.high * 100:.1f}]"
    return f"{estimate.value:.2f} [{estimate.low:.2f}–{estimate.high:.2f}]"


def value(estimate: Estimate, kind: str) -> str:
    """A measured value without its interval."""
    if not np.isfinite(estimate.value):
        return "—"
    return f"{estimate.value:.1%}" if kind == "rate" else f"{estimate.value:.2f}"


def cell(group: dict | None, metric: str) -> str:
    """One metric of a group of pairs, formatted; `—` when the group is empty."""
    kinds = {name: kind for name, _, _, kind, _ in METRICS}
    return fmt(group[metric] if group else None, kinds[metric])


def ms(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


def table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return lines + ["| " + " | ".join(str(x) for x in row) + " |" for row in rows]


def heading(title: str, section: dict | None, not_run: str = "Not run.") -> list[str]:
    """A report section's heading; when the section did not run, the line that says why."""
    lines = [f"## {title}", ""]
    if section is None:
        return lines + [not_run, ""]
    if "skipped" in section:
        return lines + [f"Not run: {section['skipped']}", ""]
    return lines


def ran(section: dict | None) -> bool:
    """Whether a report section ran (else its heading says why not)."""
    return section is not None and "skipped" not in section
