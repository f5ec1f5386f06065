"""The scipy-free t quantiles against scipy.stats.t."""

from __future__ import annotations

import math

import pytest
from scipy import stats

from leaderboard.stats.quantiles import betainc, norm_ppf, t_cdf, t_ppf


@pytest.mark.parametrize("df", [0.5, 1, 1.5, 2, 3, 4, 5.5, 9, 30, 100, 1e4, 1e6])
@pytest.mark.parametrize("p", [1e-6, 0.0025, 0.025, 0.2, 0.5, 0.8, 0.975, 0.99, 0.9999])
def test_t_ppf__matches_scipy(p: float, df: float) -> None:
    expected = stats.t.ppf(p, df)
    assert t_ppf(p, df) == pytest.approx(expected, rel=1e-8, abs=1e-10)


@pytest.mark.parametrize("df", [1, 2.5, 4, 11, 300])
@pytest.mark.parametrize("t", [-30.0, -2.0, -0.1, 0.0, 0.3, 1.96, 8.0])
def test_t_cdf__matches_scipy(t: float, df: float) -> None:
    assert t_cdf(t, df) == pytest.approx(stats.t.cdf(t, df), rel=1e-9, abs=1e-12)


@pytest.mark.parametrize(("a", "b", "x"), [(0.5, 2, 0.3), (3, 0.5, 0.9), (20, 30, 0.4)])
def test_betainc__matches_scipy(a: float, b: float, x: float) -> None:
    from scipy.special import betainc as sp_betainc  # noqa: PLC0415

    assert betainc(a, b, x) == pytest.approx(sp_betainc(a, b, x), rel=1e-10)


def test_t_ppf__infinite_df_is_normal() -> None:
    assert t_ppf(0.975, math.inf) == pytest.approx(norm_ppf(0.975))


@pytest.mark.parametrize(("p", "df"), [(0.0, 3), (1.0, 3), (0.5, 0), (0.5, -1)])
def test_t_ppf__rejects_out_of_range(p: float, df: float) -> None:
    with pytest.raises(ValueError, match=r"`p`|`df`"):
        t_ppf(p, df)
