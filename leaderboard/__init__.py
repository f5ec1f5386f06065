"""leaderboard: a leaderboard with honest error bars, and the GitHub Action around it.

The public API (CONTRACT.md section 2)::

    runs = load_runs(["results/*.jsonl"])
    report = build_report(runs, baseline="main", confidence=0.95)
    print(report.model_dump_json(indent=2))

and the seed lesson's functions: `aggregate`, `pairwise_diffs`, `bootstrap_mean_ci`,
`bootstrap_pairwise_diff`, `render_markdown`, `render_json`.

Each name is imported from its stage when first asked for (PEP 562's module
``__getattr__``), so ``import leaderboard`` alone, and the command line (which imports
the stages it uses itself), load no stage they do not need.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from leaderboard._lazy import lazy_names
from leaderboard._version import __version__
from leaderboard.errors import InputError, LeaderboardError, UsageError

if TYPE_CHECKING:
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

#: each public name not defined above, and the stage it comes from
_STAGES = {
    "EvalRun": "leaderboard.inputs",
    "load_runs": "leaderboard.inputs",
    "render_json": "leaderboard.render",
    "render_markdown": "leaderboard.render",
    "BaselineRun": "leaderboard.report",
    "LeaderboardRow": "leaderboard.report",
    "PairwiseDiff": "leaderboard.report",
    "Report": "leaderboard.report",
    "aggregate": "leaderboard.stats",
    "bootstrap_mean_ci": "leaderboard.stats",
    "bootstrap_pairwise_diff": "leaderboard.stats",
    "build_report": "leaderboard.stats",
    "pairwise_diffs": "leaderboard.stats",
}


__getattr__, __dir__ = lazy_names(__name__, _STAGES, __all__)
