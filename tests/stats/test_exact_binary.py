"""Per-model intervals of binary means (issue 28): Clopper-Pearson, exact coverage.

References: scipy's beta quantiles (the textbook form of Clopper & Pearson 1934) and
the binomial distribution, summed exactly for the coverage.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from leaderboard import EvalRun, build_report
from leaderboard.stats.floors import clopper_pearson


def _scipy_cp(k: int, n: int, alpha: float = 0.05) -> tuple[float, float]:
    lo = 0.0 if k == 0 else float(stats.beta.ppf(alpha / 2, k, n - k + 1))
    hi = 1.0 if k == n else float(stats.beta.ppf(1 - alpha / 2, k + 1, n - k))
    return lo, hi


@pytest.mark.parametrize(("k", "n"), [(44, 48), (37, 40), (0, 20), (20, 20), (7, 500)])
def test_clopper_pearson__matches_scipy(k: int, n: int) -> None:
    assert clopper_pearson(float(k), float(n), 0.05) == pytest.approx(
        _scipy_cp(k, n), abs=1e-9
    )


@pytest.mark.parametrize("n", [20, 50, 137, 500])
def test_clopper_pearson__exact_coverage_at_least_nominal(n: int) -> None:
    ends = [clopper_pearson(float(k), float(n), 0.05) for k in range(n + 1)]
    for p in np.linspace(0.005, 0.995, 67):
        pmf = stats.binom.pmf(np.arange(n + 1), n, p)
        cover = sum(pmf[k] for k, (lo, hi) in enumerate(ends) if lo <= p <= hi)
        assert cover >= 0.95 - 1e-9, (n, p, cover)


def _report_interval(k: int, n: int, tasks: int = 1) -> tuple[float, float]:
    runs = [EvalRun("m", f"t{i % tasks}", float(i < k), item_id=i) for i in range(n)]
    row = build_report(runs, resamples=999, seed=3).leaderboard[0]
    assert row.mean_ci_lo is not None
    assert row.mean_ci_hi is not None
    return row.mean_ci_lo, row.mean_ci_hi


@pytest.mark.parametrize(("k", "n"), [(44, 48), (37, 40), (19, 20), (499, 500)])
def test_report__binary_mean_is_clopper_pearson_below_one(k: int, n: int) -> None:
    # before issue 28: 44 of 48 gave [0.799, 0.998], 37 of 40 reached 1.000
    lo, hi = _report_interval(k, n)
    assert (lo, hi) == pytest.approx(_scipy_cp(k, n), abs=1e-9)
    assert hi < 1.0


def test_report__every_item_passed__reaches_one() -> None:
    lo, hi = _report_interval(20, 20)
    assert hi == 1.0
    assert lo == pytest.approx(0.025 ** (1 / 20), abs=1e-9)


def test_report__several_tasks__effective_size_keeps_the_upper_end_below_one() -> None:
    # two tasks weighted alike with unequal items: not a plain proportion; Korn and
    # Graubard's effective sample size, still below 1 with a failed item
    runs = [EvalRun("m", "a", float(i != 0), item_id=i) for i in range(30)] + [
        EvalRun("m", "b", 1.0, item_id=i) for i in range(10)
    ]
    row = build_report(runs, resamples=999, seed=3).leaderboard[0]
    assert row.mean_ci_hi is not None
    assert row.mean_ci_lo is not None
    assert row.mean_ci_lo < row.mean_score < row.mean_ci_hi < 1.0
