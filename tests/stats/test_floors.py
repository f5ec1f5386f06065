"""`leaderboard.stats.floors`: Wilson's score interval and the floor it puts under a mean.

References: Wilson (1927); the closed form at p = 1 (``n / (n + c^2)``); statsmodels'
``proportion_confint(method="wilson")``; the effective sample size ``p (1 - p) / SE^2``
of Korn & Graubard (1998).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from statsmodels.stats.proportion import proportion_confint

from leaderboard.stats.floors import wilson, wilson_floor
from leaderboard.stats.quantiles import norm_ppf, t_ppf

Z95 = 1.959963984540054


def _a(*x: float) -> np.ndarray:
    return np.array(x, dtype=np.float64)


def floor(
    lo: float,
    hi: float,
    *,
    estimate: float,
    se: float,
    n_obs: float,
    df: float,
    applies: bool = True,
    alpha: float = 0.05,
) -> tuple[float, float]:
    out_lo, out_hi = wilson_floor(
        _a(lo),
        _a(hi),
        estimate=_a(estimate),
        se=_a(se),
        n_obs=_a(n_obs),
        df=_a(df),
        alpha=alpha,
        applies=np.array([applies]),
    )
    return float(out_lo[0]), float(out_hi[0])


def test_wilson__16_of_20__the_textbook_numbers_and_statsmodels() -> None:
    lo, hi = wilson(_a(0.8), _a(20.0), _a(Z95))
    # by hand: centre (16 + z^2/2) / (20 + z^2), half z sqrt(16 x 4/20 + z^2/4) / (20 + z^2)
    z2 = Z95 * Z95
    centre = (16 + z2 / 2) / (20 + z2)
    half = Z95 * math.sqrt(16 * 0.2 + z2 / 4) / (20 + z2)
    assert float(lo[0]) == pytest.approx(centre - half, abs=1e-12)
    assert float(hi[0]) == pytest.approx(centre + half, abs=1e-12)
    assert float(lo[0]) == pytest.approx(0.58398, abs=1e-5)
    assert float(hi[0]) == pytest.approx(0.91934, abs=1e-5)
    ref = proportion_confint(16, 20, alpha=0.05, method="wilson")
    assert (float(lo[0]), float(hi[0])) == pytest.approx(ref, abs=1e-10)


@pytest.mark.parametrize(("k", "n"), [(0, 10), (1, 7), (5, 10), (49, 50), (30, 30)])
def test_wilson__matches_statsmodels_at_the_normal_quantile(k: int, n: int) -> None:
    lo, hi = wilson(_a(k / n), _a(float(n)), _a(Z95))
    ref = proportion_confint(k, n, alpha=0.05, method="wilson")
    assert (float(lo[0]), float(hi[0])) == pytest.approx(ref, abs=1e-10)


def test_wilson_floor__20_of_20_correct_no_spread__floored_at_n_over_n_plus_t2() -> None:
    # binary 20/20: the bootstrap says [1, 1]; at p = 1 Wilson's lower end is
    # n / (n + c^2), here with Student's t at 19 degrees of freedom
    lo, hi = floor(1.0, 1.0, estimate=1.0, se=0.0, n_obs=20, df=19)
    t = t_ppf(0.975, 19.0)
    assert t == pytest.approx(2.093024, abs=1e-6)
    assert lo == pytest.approx(20 / (20 + t * t), abs=1e-12)
    assert lo == pytest.approx(0.82032, abs=1e-5)
    assert hi == 1.0


def test_wilson_floor__constant_scores__the_widest_spread_scores_in_0_1_allow() -> None:
    # 0.6 on every one of 25 tasks: SE 0; the floor is Wilson's at n = 25 (the cap)
    lo, hi = floor(0.6, 0.6, estimate=0.6, se=0.0, n_obs=25, df=24)
    w_lo, w_hi = wilson(_a(0.6), _a(25.0), _a(t_ppf(0.975, 24.0)))
    assert (lo, hi) == pytest.approx((float(w_lo[0]), float(w_hi[0])), abs=1e-12)
    assert lo < 0.6 < hi


def test_wilson_floor__effective_sample_size_from_the_standard_error() -> None:
    # p = 0.5, SE 0.05: n_eff = 0.25 / 0.0025 = 100 (fewer than the 400 items:
    # clustered), so Wilson at n = 100, not 400
    lo, hi = floor(0.49, 0.51, estimate=0.5, se=0.05, n_obs=400, df=30)
    crit = t_ppf(0.975, 30.0)
    c2 = crit * crit
    half = crit * math.sqrt(100 * 0.25 + c2 / 4) / (100 + c2)
    assert (lo, hi) == pytest.approx((0.5 - half, 0.5 + half), abs=1e-12)


def test_wilson_floor__effective_sample_size_capped_at_the_observations() -> None:
    # SE 0.001 would mean n_eff 250,000; 40 observations are all there are
    lo, hi = floor(0.499, 0.501, estimate=0.5, se=0.001, n_obs=40, df=39)
    w_lo, w_hi = wilson(_a(0.5), _a(40.0), _a(t_ppf(0.975, 39.0)))
    assert (lo, hi) == pytest.approx((float(w_lo[0]), float(w_hi[0])), abs=1e-12)


def test_wilson_floor__a_wider_interval_is_kept_as_it_is() -> None:
    assert floor(0.2, 0.95, estimate=0.6, se=0.2, n_obs=10, df=9) == (0.2, 0.95)


@pytest.mark.parametrize(
    ("applies", "n_obs", "df"),
    [(False, 20, 19), (True, 0, 19), (True, 20, 0.5)],
    ids=["not-binary", "no-observations", "df-below-1"],
)
def test_wilson_floor__left_as_given_where_it_does_not_apply(
    applies: bool, n_obs: float, df: float
) -> None:
    assert floor(1.0, 1.0, estimate=1.0, se=0.0, n_obs=n_obs, df=df, applies=applies) == (
        1.0,
        1.0,
    )


def test_wilson_floor__columns_independent_in_one_call() -> None:
    lo, hi = wilson_floor(
        _a(1.0, 0.3),
        _a(1.0, 0.7),
        estimate=_a(1.0, 0.5),
        se=_a(0.0, 0.1),
        n_obs=_a(20.0, 20.0),
        df=_a(19.0, 19.0),
        alpha=0.05,
        applies=np.array([True, False]),
    )
    t = t_ppf(0.975, 19.0)
    assert lo.tolist() == pytest.approx([20 / (20 + t * t), 0.3])
    assert hi.tolist() == [1.0, 0.7]


# -- properties ------------------------------------------------------------------------
@settings(max_examples=150, deadline=None)
@given(
    p=st.floats(0.0, 1.0),
    n=st.floats(1.0, 1e6),
    crit=st.floats(0.0, 10.0),
)
def test_wilson__contains_p_hat_and_lies_in_0_1(p: float, n: float, crit: float) -> None:
    lo, hi = wilson(_a(p), _a(n), _a(crit))
    assert 0.0 <= float(lo[0]) <= float(hi[0]) <= 1.0
    assert float(lo[0]) <= p + 1e-12
    assert p - 1e-12 <= float(hi[0])


@settings(max_examples=150, deadline=None)
@given(
    estimate=st.floats(0.0, 1.0),
    below=st.floats(0.0, 0.5),
    above=st.floats(0.0, 0.5),
    # from 1e-12: an SE whose square underflows (below 1e-154) is not one a bootstrap
    # of scores in [0, 1] gives, and warns on division
    se=st.one_of(st.just(0.0), st.floats(1e-12, 0.5)),
    n_obs=st.integers(0, 10_000),
    df=st.floats(0.0, 500.0),
    applies=st.booleans(),
    confidence=st.sampled_from([0.8, 0.9, 0.95, 0.99, 0.998]),
)
def test_wilson_floor__never_narrows_an_interval(
    *,
    estimate: float,
    below: float,
    above: float,
    se: float,
    n_obs: int,
    df: float,
    applies: bool,
    confidence: float,
) -> None:
    lo, hi = max(estimate - below, 0.0), min(estimate + above, 1.0)
    out_lo, out_hi = floor(
        lo,
        hi,
        estimate=estimate,
        se=se,
        n_obs=n_obs,
        df=df,
        applies=applies,
        alpha=1.0 - confidence,
    )
    assert out_lo <= lo
    assert out_hi >= hi
    assert 0.0 <= out_lo <= out_hi <= 1.0


def test_z95_is_the_normal_quantile() -> None:
    assert norm_ppf(0.975) == pytest.approx(Z95, abs=1e-12)
