"""The trend at a glance: each model's mean over the kept runs, as a chart GitHub draws.

GitHub renders a fenced ``mermaid`` block in a comment or a job summary as a chart
(client-side, with mermaid.js); a reader without it sees the block's text, and the
table beside it. One ``xychart-beta`` line per model (the chart has no legend, so
never two models in one chart), at most `TREND_MODELS` models:

- the x-axis is the kept runs, oldest first, each labelled by its commit (7 hex
  digits); xychart-beta has no per-point annotation, so a marked run's label is its
  mark instead: ``base`` the run a pull request is gated against, ``step`` a step
  change (`leaderboard.stats.steps`, named with its commit under the chart), and the
  last point ``PR`` (this pull request's run) or ``new`` (the push just stored); the
  table beside the chart names every run's commit;
- the y-axis is the mean score, its range the lowest and highest interval end shown;
  the chart draws the means only, the table has the intervals.

Everything from the history is untrusted: model ids pass `mermaid_text` in the chart
and `md_text` in the table; commits are the index's 40-hex shas (checked when read).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from leaderboard.render.escape import (
    code_fence,
    html_text,
    md_text,
    mermaid_text,
    truncate,
)
from leaderboard.render.numbers import ci, count, num
from leaderboard.report import Report
from leaderboard.stats.steps import STEP_WINDOW, step_changes

__all__ = ["TREND_MODELS", "TREND_RUNS", "Point", "Series", "pr_trend", "trend_block"]

TREND_MODELS = 3  # models charted
#: Kept runs charted (the latest): with one more point (this pull request's run), 13
#: x-axis labels fit a 900 px comment column and a phone's without touching
#: (tests/render/test_render_trend_layout.py measures them).
TREND_RUNS = 12
_MARKS = {"base": "base", "step": "step", "pr": "PR", "new": "new"}


@dataclass(frozen=True)
class Point:
    """One run of a model's series: its commit (or None for this run), mean, interval."""

    commit: str | None
    mean: float
    lo: float
    hi: float
    marks: tuple[str, ...] = ()  # of "base", "step", "pr", "new"


@dataclass(frozen=True)
class Series:
    """One model's runs, oldest first; `model` as the kept runs name it (untrusted)."""

    model: str
    points: list[Point]


def _commit_md(commit: str) -> str:
    """``abc1234`` in a code span for a hex sha; anything else escaped as text."""
    if all(c in "0123456789abcdef" for c in commit[:7]) and len(commit) >= 7:
        return f"`{commit[:7]}`"
    return md_text(truncate(commit, 40))


def _label(p: Point) -> str:
    """The x-axis label: the commit's 7 hex digits, or its marks in their place.

    A label wider than its slot overlaps its neighbours (measured in Chromium: 13
    runs in a 900 px column leave about 46 px a run, a phone half that), so a marked
    run shows its mark alone; the table beside the chart names its commit.
    """
    if p.marks:
        return " ".join(_MARKS[m] for m in p.marks)
    return "_" if p.commit is None else mermaid_text(p.commit[:7], 7)


def _axis(points: Sequence[Point]) -> tuple[float, float]:
    """The y-axis: the lowest and highest interval end, to 0.01, within [0, 1]."""
    lo = max(0.0, math.floor(min(min(p.lo, p.mean) for p in points) * 100) / 100)
    hi = min(1.0, math.ceil(max(max(p.hi, p.mean) for p in points) * 100) / 100)
    if hi - lo < 0.02:
        lo, hi = max(0.0, lo - 0.01), min(1.0, lo + 0.02)
    return lo, hi


def mermaid_chart(s: Series) -> str:
    """The fenced ``mermaid`` block of one model's line."""
    lo, hi = _axis(s.points)
    labels = ", ".join(f'"{_label(p)}"' for p in s.points)
    values = ", ".join(f"{p.mean:.4f}" for p in s.points)
    body = "\n".join(
        [
            "xychart-beta",
            f'    title "{mermaid_text(s.model, 60)}: mean score per run"',
            f"    x-axis [{labels}]",
            f'    y-axis "mean score" {lo:.2f} --> {hi:.2f}',
            f"    line [{values}]",
        ]
    )
    return code_fence(body, "mermaid")


def with_steps(s: Series) -> Series:
    """`s` with ``step`` marked on its kept runs that are step changes (the last
    point, this run, is not part of the kept history unless it was just stored)."""
    kept = [i for i, p in enumerate(s.points) if "pr" not in p.marks]
    steps = step_changes([(s.points[i].mean, s.points[i].lo, s.points[i].hi) for i in kept])
    marked = {kept[i] for i in steps}
    return Series(
        s.model,
        [
            Point(p.commit, p.mean, p.lo, p.hi, (*p.marks, "step")) if i in marked else p
            for i, p in enumerate(s.points)
        ],
    )


def step_lines(series: Sequence[Series]) -> list[str]:
    """One sentence per step change, naming the model and the commit."""
    out = []
    for s in series:
        for i, p in enumerate(s.points):
            if "step" not in p.marks or p.commit is None:
                continue
            before = s.points[max(0, i - STEP_WINDOW) : i]
            was = sum(b.mean for b in before) / len(before)
            out.append(
                f"Step change: **{md_text(truncate(s.model, 80))}** at "
                f"{_commit_md(p.commit)}, "
                f"{num(was)} → {num(p.mean)}: its interval {ci(p.lo, p.hi)} lies outside "
                f"every interval of the {count(len(before))} kept runs before it"
            )
    return out


def _table(series: Sequence[Series]) -> list[str]:
    """Runs as rows, models as columns: the numbers for readers without mermaid."""
    order: list[str | None] = []
    marks: dict[str | None, set[str]] = {}
    for s in series:
        for p in s.points:
            if p.commit not in marks:
                order.append(p.commit)
                marks[p.commit] = set()
            marks[p.commit] |= set(p.marks)
    head = "| Run | " + " | ".join(md_text(truncate(s.model, 60)) for s in series) + " |"
    rule = "|:---|" + "---:|" * len(series)
    lines = [head, rule]
    cells = {s.model: {p.commit: p for p in s.points} for s in series}
    for commit in order:
        name = "this run" if commit is None else _commit_md(commit)
        tags = [_MARKS[m] for m in ("base", "step", "pr", "new") if m in marks[commit]]
        if tags:
            name += " (" + ", ".join(tags) + ")"
        row = [name]
        for s in series:
            cell = cells[s.model].get(commit)
            row.append("" if cell is None else f"{num(cell.mean)} {ci(cell.lo, cell.hi)}")
        lines.append("| " + " | ".join(row) + " |")
    return lines


def trend_block(series: Sequence[Series], *, what: str) -> tuple[str, list[str]]:
    """Charts, their reading, the table and the step changes, in markdown, and the
    commits of the step changes (7 characters, HTML-escaped for ``<summary>``).

    Empty when no series has two runs. `what` says what the last point is (escaped
    markdown, e.g. "`PR` this pull request's run").
    """
    shown = [with_steps(s) for s in series if len(s.points) > 1][:TREND_MODELS]
    shown = [Series(s.model, s.points[-(TREND_RUNS + 1) :]) for s in shown]
    if not shown:
        return "", []
    parts = [mermaid_chart(s) for s in shown]
    parts.append(
        "<sub>Each line: one model's mean score per run, oldest first, by commit on the "
        f"x-axis; `base` marks the run gated against, `step` a step change, {what}. "
        "The chart draws means only; the table has each run's interval.</sub>\n"
    )
    parts.append("\n".join(_table(shown)) + "\n")
    steps = step_lines(shown)
    if steps:
        parts.append("\n".join(f"- {line}." for line in steps) + "\n")
    commits = sorted(
        {
            html_text(p.commit[:7])
            for s in shown
            for p in s.points
            if "step" in p.marks and p.commit
        }
    )
    return "\n".join(parts), commits


def _stored_id(candidate: str, baseline: str, label: str) -> str:
    suffix = f" @ {label}"
    return baseline[: -len(suffix)] if baseline.endswith(suffix) else candidate


def pr_trend(report: Report) -> str | None:
    """The pull request's trend block: each gated model's kept runs, then this run.

    None unless the baseline is a kept run and the history holds two or more runs of
    a gated model up to the baseline's.
    """
    run = report.gate.baseline_run
    if run is None or run.source != "history" or len(run.trend) < 2:
        return None
    means = {r.model_id: r for r in report.leaderboard}
    series = []
    order = {"regressed": 0, "undetermined": 1, "no_regression": 2}
    comps = sorted(
        (
            c
            for c in report.gate.comparisons
            if c.scope == "overall" and c.measure == "score"
        ),
        key=lambda c: (order.get(c.status, 3), c.ci_lo),
    )
    for c in comps:
        stored = _stored_id(c.candidate, c.baseline, run.label)
        points = [
            Point(
                p.commit,
                v.mean,
                v.lo,
                v.hi,
                ("base",) if p.commit == run.commit else (),
            )
            for p in run.trend
            if (v := p.models.get(stored)) is not None
        ]
        row = means.get(c.candidate)
        if row is None or len(points) < 2:
            continue
        points.append(Point(None, row.mean_score, row.mean_ci_lo, row.mean_ci_hi, ("pr",)))
        series.append(Series(c.candidate, points))
    block, steps = trend_block(series, what="`PR` this pull request's run")
    if not block:
        return None
    named = f"; a step change at {', '.join(steps)}" if steps else ""
    return (
        f"<details><summary>Trend: the last {count(len(run.trend))} kept runs of "
        f"{html_text(truncate(run.branch or 'the base branch', 60))} and this run"
        f"{named}</summary>\n\n{block}\n</details>"
    )
