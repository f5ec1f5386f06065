"""leaderboard: a leaderboard with honest error bars, and the GitHub Action around it.

The public API (CONTRACT.md section 2)::

    runs = load_runs(["results/*.jsonl"])
    report = build_report(runs, baseline="main", confidence=0.95)
    print(report.model_dump_json(indent=2))

and the seed lesson's functions: `aggregate`, `pairwise_diffs`, `bootstrap_mean_ci`,
`bootstrap_pairwise_diff`, `render_markdown`, `render_json`.
"""

from __future__ import annotations

from leaderboard._version import __version__
from leaderboard.errors import InputError, LeaderboardError, UsageError
from leaderboard.inputs import EvalRun, load_runs
from leaderboard.render import render_json, render_markdown
from leaderboard.report import BaselineRun, LeaderboardRow, PairwiseDiff, Report
from leaderboard.stats import (
    aggregate,
    bootstrap_mean_ci,
    bootstrap_pairwise_diff,
    build_report,
    pairwise_diffs,
)

__all__ = [
    "BaselineRun",
    "EvalRun",
    "InputError",
    "LeaderboardError",
    "LeaderboardRow",
    "PairwiseDiff",
    "Report",
    "UsageError",
    "__version__",
    "aggregate",
    "bootstrap_mean_ci",
    "bootstrap_pairwise_diff",
    "build_report",
    "load_runs",
    "pairwise_diffs",
    "render_json",
    "render_markdown",
]
