"""Stage 2, statistics: from records to a `leaderboard.report.Report`.

- `design`: records laid out as models, strata (tasks) and units (tasks or items);
- `estimates`: which weighted means the report needs, as columns;
- `bootstrap`: one shared set of stratified bootstrap replicates, and intervals;
- `satterthwaite`, `quantiles`: degrees of freedom and t quantiles (no scipy);
- `collapse`: tasks with a single unit, pooled with others of their kind;
- `floors`: Wilson's floor under binary or flat means;
- `gate`: candidate minus baseline with a family-wise error rate;
- `guardrails`: cost, latency, tokens and secondary metrics gated beside the score;
- `two_runs`: a second run as the baseline (renamed ids, ungated, what differs);
- `verdict`: the one verdict every surface tells, and an accepted regression;
- `request`: `Request`, what the statistics are asked for, checked once (the limits);
- `build`: `build_report` and `report_for`, the stage's entry;
- `shortcuts`: the seed lesson's plain functions (CONTRACT.md section 2) on top of
  `build_report`.
"""

from leaderboard.stats.build import METHOD, build_report, report_for
from leaderboard.stats.guardrails import (
    GUARDRAIL,
    Guardrail,
    check_guardrails,
    parse_guardrail,
)
from leaderboard.stats.request import (
    LIMITS,
    MAX_RESAMPLES,
    MAX_SEED,
    MIN_RESAMPLES,
    AnchorRun,
    Baseline,
    MissingBaseline,
    ModelBaseline,
    Request,
    RunBaseline,
)
from leaderboard.stats.shortcuts import (
    aggregate,
    bootstrap_mean_ci,
    bootstrap_pairwise_diff,
    pairwise_diffs,
)
from leaderboard.stats.two_runs import BASELINE_MAP, parse_baseline_map
from leaderboard.stats.verdict import accept, decide

__all__ = [
    "BASELINE_MAP",
    "GUARDRAIL",
    "LIMITS",
    "MAX_RESAMPLES",
    "MAX_SEED",
    "METHOD",
    "MIN_RESAMPLES",
    "AnchorRun",
    "Baseline",
    "Guardrail",
    "MissingBaseline",
    "ModelBaseline",
    "Request",
    "RunBaseline",
    "accept",
    "aggregate",
    "bootstrap_mean_ci",
    "bootstrap_pairwise_diff",
    "build_report",
    "check_guardrails",
    "decide",
    "pairwise_diffs",
    "parse_baseline_map",
    "parse_guardrail",
    "report_for",
]
