"""The seed lesson's functions (CONTRACT.md section 2): shortcuts to `build_report`.

`aggregate` and `pairwise_diffs` are views of `build_report`; `bootstrap_mean_ci` and
`bootstrap_pairwise_diff` run the same engine on one plain sample. Their settings keep
the lesson's names (``b``, ``alpha``) in messages too.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from leaderboard.errors import UsageError
from leaderboard.inputs import EvalRun
from leaderboard.report import LeaderboardRow, PairwiseDiff
from leaderboard.stats.bootstrap import percentile_intervals, stratified_replicates
from leaderboard.stats.build import MIN_RESAMPLES, build_report, check_settings
from leaderboard.stats.design import FloatArray


def _check_b_and_alpha(b: int, alpha: float) -> None:
    """Validate ``b`` and ``alpha`` under the names these functions give them."""
    if (
        isinstance(alpha, bool)
        or not isinstance(alpha, (int, float))
        or not (0.0 < alpha < 1.0)
    ):
        raise UsageError(f"`alpha` must lie strictly between 0 and 1, got {alpha!r}")
    if isinstance(b, bool) or not isinstance(b, (int, np.integer)) or b < MIN_RESAMPLES:
        raise UsageError(f"`b` must be an integer >= {MIN_RESAMPLES}, got {b!r}")


def aggregate(
    runs: Iterable[EvalRun], b: int = 500, alpha: float = 0.05, seed: int = 0
) -> list[LeaderboardRow]:
    """The leaderboard rows, best first (the seed lesson's API; see `build_report`)."""
    _check_b_and_alpha(b, alpha)
    return build_report(runs, confidence=1.0 - alpha, resamples=b, seed=seed).leaderboard


def pairwise_diffs(
    runs: Iterable[EvalRun], b: int = 500, alpha: float = 0.05, seed: int = 0
) -> list[PairwiseDiff]:
    """Every pair, ``model_a`` ranked above ``model_b`` (the seed lesson's API)."""
    _check_b_and_alpha(b, alpha)
    return build_report(runs, confidence=1.0 - alpha, resamples=b, seed=seed).pairwise


def _one_sample(
    values: FloatArray, b: int, alpha: float, seed: int
) -> tuple[float, float, float]:
    _check_b_and_alpha(b, alpha)
    check_settings(1.0 - alpha, b, seed, 0.0)
    n = values.shape[0]
    if n == 0:
        raise UsageError("`scores` must hold at least one value")
    if not np.isfinite(values).all():
        raise UsageError("`scores` must be finite numbers")
    rep = stratified_replicates(
        values[:, None],
        np.ones((n, 1)),
        np.array([0, n], dtype=np.intp),
        np.zeros(1, dtype=np.intp),
        np.ones((1, 1)),
        resamples=b,
        seed=seed,
    )
    lo, hi = percentile_intervals(rep.estimate, rep.replicates, rep.df, alpha)
    return float(rep.estimate[0]), float(lo[0]), float(hi[0])


def bootstrap_mean_ci(
    scores: Sequence[float] | FloatArray, b: int = 1000, alpha: float = 0.05, seed: int = 0
) -> tuple[float, float]:
    """Interval for the mean of ``scores`` (rescaled, t-scaled percentile bootstrap)."""
    _, lo, hi = _one_sample(
        np.asarray(scores, dtype=np.float64).reshape(-1), b, alpha, seed
    )
    return lo, hi


def bootstrap_pairwise_diff(
    paired_a: Sequence[float] | FloatArray,
    paired_b: Sequence[float] | FloatArray,
    b: int = 1000,
    alpha: float = 0.05,
    seed: int = 0,
) -> tuple[float, float, float]:
    """``(mean(a - b), lo, hi)`` for paired scores, resampling the pairs."""
    a = np.asarray(paired_a, dtype=np.float64).reshape(-1)
    bb = np.asarray(paired_b, dtype=np.float64).reshape(-1)
    if a.shape != bb.shape:
        raise UsageError(
            "`paired_a` and `paired_b` must have the same length, "
            f"got {a.size} and {bb.size}"
        )
    return _one_sample(a - bb, b, alpha, seed)
