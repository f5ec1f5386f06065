"""The default branch's drift table: each model's mean over the kept runs.

A pull request's gate sees one step; a slow drift (each push a drop below what the gate
can detect) shows only across many runs. On a push to the default branch the job
summary lists, per model, the latest run's mean and interval, the mean and the range
of the means over the kept runs, a sparkline of them (oldest first), and the change
against the run stored `BACK` pushes earlier. That change is a difference of two
runs' means, shown with both runs' intervals; it is not a test (a pull request's gate
is the test).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from leaderboard.render.escape import md_text, truncate
from leaderboard.render.numbers import ci, num, signed
from leaderboard.render.trend import TREND_MODELS, Point, Series, trend_block

__all__ = ["BACK", "KeptRun", "render_drift"]

BACK = 10  # the change is against the run stored this many pushes back (or the oldest)
ROWS = 50  # models listed
_BARS = "▁▂▃▄▅▆▇█"


@dataclass(frozen=True)
class KeptRun:
    """One kept run, as the drift table needs it."""

    commit: str
    stored_at: str
    models: dict[str, tuple[float, float, float]]  # id -> (mean, lo, hi)


def _spark(values: Sequence[float]) -> str:
    lo, hi = min(values), max(values)
    if hi - lo < 1e-12:
        return _BARS[3] * len(values)
    return "".join(_BARS[round((v - lo) / (hi - lo) * (len(_BARS) - 1))] for v in values)


def render_drift(runs: Sequence[KeptRun], *, branch: str, history_branch: str) -> str:
    """Markdown for the job summary; empty when no run is kept.

    Parameters
    ----------
    runs : sequence of KeptRun
        The kept runs, oldest first; the last is the one just stored.
    branch : str
        The default branch (named in the heading).
    history_branch : str
        Where the runs are kept.
    """
    if not runs:
        return ""
    latest = runs[-1]
    back = runs[max(len(runs) - 1 - BACK, 0)] if len(runs) > 1 else None
    pushes = len(runs) - 1 - runs.index(back) if back is not None else 0
    lines = [
        f"### Kept runs of `{md_text(truncate(branch, 100))}`: {len(runs)} "
        f"(on `{md_text(truncate(history_branch, 100))}`)",
        "",
    ]
    head = "| Model | Latest | Interval | Mean of runs | Range | Runs, oldest first |"
    rule = "|:---|---:|:---:|---:|:---:|:---|"
    if back is not None:
        head += f" Change vs `{back.commit[:7]}` ({pushes} pushes back) |"
        rule += "---:|"
    lines += [head, rule]
    for model in sorted(latest.models)[:ROWS]:
        mean, lo, hi = latest.models[model]
        series = [r.models[model][0] for r in runs if model in r.models]
        row = (
            f"| {md_text(truncate(model, 120))} | {num(mean)} | {ci(lo, hi)} | "
            f"{num(sum(series) / len(series))} | {ci(min(series), max(series))} | "
            f"{_spark(series)} ({len(series)}) |"
        )
        if back is not None:
            was = back.models.get(model)
            row += f" {signed(mean - was[0]) if was else 'new'} |"
        lines.append(row)
    if len(latest.models) > ROWS:
        lines.append(f"\n… and {len(latest.models) - ROWS} more models (see index.json).")
    chart, _ = trend_block(
        [
            Series(
                model,
                [
                    Point(r.commit, *r.models[model], ("new",) if r is latest else ())
                    for r in runs
                    if model in r.models
                ],
            )
            for model in sorted(latest.models)[:TREND_MODELS]
        ],
        what="`new` the run just stored",
    )
    if chart:
        lines += ["", chart.rstrip("\n")]
    lines += [
        "",
        "<sub>Range: the lowest and highest mean over the kept runs. The change is a "
        "difference of two runs' means, not a test; a pull request's gate is the test."
        "</sub>",
        "",
    ]
    return "\n".join(lines)
