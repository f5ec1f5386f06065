"""With many replicates the bootstrap agrees with closed-form references.

Tolerances: with B = 20,000 replicates the Monte Carlo error of a standard deviation is
about 1/sqrt(2B) = 0.5% and of a 2.5% percentile about 1.5% of the SE; the bootstrap
distribution of a mean of n units also departs from the normal by O(1/sqrt(n)) in each
tail, which cancels to first order in the interval's width. Hence: SEs within 3%, widths
within 5%, endpoints within 10% of the half-width.
"""

from __future__ import annotations

import numpy as np
import pytest
import statsmodels.api as sm
from scipy import stats

from leaderboard import EvalRun, build_report
from leaderboard.stats.bootstrap import replicate_sd
from leaderboard.stats.design import build_design
from leaderboard.stats.estimates import EstimatePlan

pytestmark = pytest.mark.slow

B = 20_000


def _model_se(runs: list[EvalRun], model: int = 0) -> float:
    plan = EstimatePlan(build_design(runs))
    k = plan.add(model)
    return float(replicate_sd(plan.run(resamples=B, seed=1).replicates[:, [k]])[0])


@pytest.mark.parametrize("n", [8, 30])
def test_task_level_interval_matches_t_interval(n: int) -> None:
    x = np.random.default_rng(n).beta(20, 20, n)
    runs = [EvalRun("m", f"t{i}", float(v)) for i, v in enumerate(x)]
    row = build_report(runs, resamples=B).leaderboard[0]
    lo, hi = stats.t.interval(0.95, n - 1, loc=x.mean(), scale=stats.sem(x))
    half = (hi - lo) / 2
    assert row.mean_score == pytest.approx(x.mean())
    assert row.mean_ci_hi - row.mean_ci_lo == pytest.approx(hi - lo, rel=0.05)
    assert row.mean_ci_lo == pytest.approx(lo, abs=0.1 * half)
    assert row.mean_ci_hi == pytest.approx(hi, abs=0.1 * half)


def test_task_level_se_is_the_unbiased_standard_error() -> None:
    """Rao-Wu rescaling: the replicate SD is s/sqrt(n), not sqrt((n-1)/n) s/sqrt(n)."""
    x = np.random.default_rng(5).random(10)
    se = _model_se([EvalRun("m", f"t{i}", float(v)) for i, v in enumerate(x)])
    assert se == pytest.approx(stats.sem(x), rel=0.03)
    assert abs(se - stats.sem(x)) < abs(se - stats.sem(x) * np.sqrt(0.9))


def test_paired_difference_se_matches_paired_clt() -> None:
    rng = np.random.default_rng(2)
    n = 200
    p = rng.beta(2, 2, n)
    a = (rng.random(n) < p).astype(float)
    b = (rng.random(n) < p).astype(float)
    runs = [EvalRun("a", "t", float(v), item_id=i) for i, v in enumerate(a)]
    runs += [EvalRun("b", "t", float(v), item_id=i) for i, v in enumerate(b)]
    plan = EstimatePlan(build_design(runs))
    ka, kb = plan.add(0, partner=1), plan.add(1, partner=0)
    reps = plan.run(resamples=B, seed=1).replicates
    se = float(replicate_sd(reps[:, [ka]] - reps[:, [kb]])[0])
    (c,) = build_report(runs, baseline="b", resamples=B).gate.comparisons
    assert c.diff_mean == pytest.approx(a.mean() - b.mean())
    assert se == pytest.approx(np.std(a - b, ddof=1) / np.sqrt(n), rel=0.03)


def test_clustered_se_matches_statsmodels_cluster_robust() -> None:
    rng = np.random.default_rng(3)
    sizes = rng.integers(2, 12, 30)
    groups = np.repeat(np.arange(sizes.size), sizes)
    p = 1 / (1 + np.exp(-(rng.normal(0, 1.2, sizes.size)[groups])))
    y = (rng.random(groups.size) < p).astype(float)
    runs = [
        EvalRun("m", "t", float(v), item_id=i, cluster=int(g))
        for i, (v, g) in enumerate(zip(y, groups, strict=True))
    ]
    fit = sm.OLS(y, np.ones_like(y)).fit(cov_type="cluster", cov_kwds={"groups": groups})
    ours = _model_se(runs)
    assert ours == pytest.approx(float(fit.bse[0]), rel=0.05)
    # and the items-as-independent SE is much smaller: clusters matter here
    naive = _model_se([EvalRun("m", "t", float(v), item_id=i) for i, v in enumerate(y)])
    assert naive < 0.75 * ours
