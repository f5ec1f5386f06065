"""The scipy-free t quantiles against scipy.stats.t; sample quantiles against numpy."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from leaderboard.stats import quantiles
from leaderboard.stats.quantiles import (
    abs_diff_row_max,
    abs_row_max,
    betainc,
    norm_ppf,
    sample_quantiles,
    t_cdf,
    t_ppf,
)


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


def _bits(x: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(x).view(np.int64)


@pytest.mark.parametrize("n", [2, 3, 10, 101, 1024, 10_000])
@pytest.mark.parametrize("kind", ["normal", "ties", "constant", "fortran"])
def test_sample_quantiles__numpy_quantile_bit_for_bit(n: int, kind: str) -> None:
    rng = np.random.default_rng(n)
    x = {
        "normal": lambda: rng.normal(size=(n, 4)),
        "ties": lambda: rng.integers(0, 5, (n, 4)) / 7.0,  # replicates of few values
        "constant": lambda: np.full((n, 4), 0.3),
        "fortran": lambda: np.asfortranarray(rng.normal(size=(n, 4))),
    }[kind]()
    for levels in ([0.025, 0.975], [0.0, 1.0, 0.5], [0.0013, 0.9987, 0.025, 0.975], [0.7]):
        got = sample_quantiles(x, levels)
        want = np.quantile(x, levels, axis=0)
        assert got.shape == want.shape
        assert (_bits(got) == _bits(want)).all(), (levels, got, want)


def test_sample_quantiles__overwrite_reorders_in_place_only_when_asked() -> None:
    x = np.random.default_rng(0).normal(size=(500, 3))
    before = x.copy()
    sample_quantiles(x, [0.05, 0.95])
    assert (x == before).all()
    got = sample_quantiles(x, [0.05, 0.95], overwrite=True)
    assert (_bits(got) == _bits(np.quantile(before, [0.05, 0.95], axis=0))).all()
    assert sorted(x[:, 0]) == sorted(before[:, 0])


def test_sample_quantiles__nan_and_negative_zero_go_to_numpy() -> None:
    # numpy puts NaN last; -0.0 ties with 0.0 and numpy's partition decides their
    # places, so both leave the fast path rather than risk a different bit
    x = np.zeros((100, 2))
    x[::3, 0] = -0.0
    x[7, 1] = np.nan
    got = sample_quantiles(x, [0.01, 0.5, 0.99])
    want = np.quantile(x, [0.01, 0.5, 0.99], axis=0)
    assert (_bits(got) == _bits(want)).all()


@pytest.mark.parametrize("shape", [(20_000, 2), (20_000, 20), (5_000, 61), (1, 3)])
def test_abs_row_max__numpy_bit_for_bit(shape: tuple[int, int]) -> None:
    z = np.random.default_rng(shape[1]).normal(size=shape)
    assert (_bits(abs_row_max(z)) == _bits(np.abs(z).max(axis=1))).all()


@pytest.mark.parametrize("pairs", ["triangle", "ranking", "against one", "shuffled"])
@pytest.mark.parametrize("chunk", [None, 2048 * 5, 1])
def test_abs_diff_row_max__numpy_bit_for_bit(
    chunk: int | None, pairs: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whole, in chunks of 5 pairs (a short last chunk), one pair at a time; for the
    pairs of a triangle, of a ranking (runs once renumbered), of candidates against one
    baseline and in no order (both gathered)."""
    if chunk is not None:
        monkeypatch.setattr(quantiles, "DIFF_ELEMENTS", chunk)
    rng = np.random.default_rng(5)
    z = rng.normal(size=(2048, 12))
    ia, ib = np.triu_indices(12, k=1)
    if pairs == "ranking":
        order = rng.permutation(12)
        ia, ib = order[ia], order[ib]
    elif pairs == "against one":
        ia, ib = np.delete(np.arange(12), 3), np.full(11, 3)
    elif pairs == "shuffled":
        shuffle = rng.permutation(ia.size)
        ia, ib = ia[shuffle], ib[shuffle]
    scale = rng.random(ia.size) + 0.1
    want = (np.abs(z[:, ia] - z[:, ib]) / scale).max(axis=1)
    assert (_bits(abs_diff_row_max(z, ia, ib, scale)) == _bits(want)).all()
