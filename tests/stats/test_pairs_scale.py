"""The pairs' work at many models, against the computations it replaces (issue 31).

Each fast path is checked against the plain computation on the same numbers: bit for
bit where it is exact, within 1e-12 where only the order of sums changed.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest

from leaderboard.stats import bootstrap, satterthwaite
from leaderboard.stats.bootstrap import difference_sd, replicate_sd
from leaderboard.stats.design import FloatArray
from leaderboard.stats.quantiles import (
    abs_diff_row_max,
    abs_diff_row_max_from,
    difference_rows,
    distinct,
    sample_quantiles,
    tail_order_statistics,
)


def _bits(x: FloatArray) -> np.ndarray:
    return np.ascontiguousarray(x).view(np.int64)


SAMPLES: dict[str, Callable[[np.random.Generator, int, int], FloatArray]] = {
    "normal": lambda rng, k, n: rng.normal(0.3, 0.05, (k, n)),
    "few values": lambda rng, k, n: rng.integers(0, 5, (k, n)) / 7.0,
    "skewed": lambda rng, k, n: rng.exponential(size=(k, n)) ** 3,
    "heavy tails": lambda rng, k, n: rng.standard_t(2, (k, n)),
    "zeros of both signs": lambda rng, k, n: np.where(
        rng.random((k, n)) < 0.4, -0.0, np.round(rng.normal(size=(k, n)))
    ),
}
LEVELS = [0.025, 0.975, 0.05 / 19_900 / 2, 1 - 0.05 / 19_900 / 2]


@pytest.mark.parametrize("n", [64, 1_000, 10_000])
@pytest.mark.parametrize("kind", list(SAMPLES))
@pytest.mark.parametrize("guess", ["good", "off", "bad"])
def test_sample_quantiles__thresholds_numpy_bits(kind: str, n: int, guess: str) -> None:
    """The tails found by thresholds are numpy.quantile's, whatever the guess (a bad
    one only sends columns to the partitions)."""
    rng = np.random.default_rng(n + len(kind))
    x = SAMPLES[kind](rng, 24, n).T  # stored by columns, as the replicates are
    centre, spread = x.mean(axis=0), x.std(axis=0)
    if guess == "off":
        centre = centre + rng.normal(0, 1, centre.size) * spread
        spread = spread * rng.uniform(0.3, 3, spread.size)
    elif guess == "bad":
        centre, spread = centre + 50 * spread, spread / 100
    want = np.quantile(x, LEVELS, axis=0)
    got = sample_quantiles(x.copy(order="K"), LEVELS, centre=centre, spread=spread)
    assert (_bits(got) == _bits(want)).all()


def test_tail_order_statistics__finds_most_columns_with_a_good_guess() -> None:
    """It is the fast path in earnest, not a fallback to the partitions."""
    x = np.random.default_rng(1).normal(size=(64, 10_000)).T
    wanted = np.array([0, 1, 249, 250, 9_749, 9_750, 9_998, 9_999])
    out = np.empty((wanted.size, 64))
    found = tail_order_statistics(x, wanted, x.mean(axis=0), x.std(axis=0), out=out)
    assert found.all()
    assert (_bits(out) == _bits(np.sort(x, axis=0)[wanted])).all()


def test_sample_quantiles__nan_is_numpy_s() -> None:
    x = np.random.default_rng(2).normal(size=(500, 3))
    x[7, 1] = np.nan
    got = sample_quantiles(x, [0.025, 0.975], centre=np.zeros(3), spread=np.ones(3))
    want = np.quantile(x, [0.025, 0.975], axis=0)
    assert np.isnan(got[:, 1]).all()
    assert (_bits(got[:, [0, 2]]) == _bits(want[:, [0, 2]])).all()


@pytest.mark.parametrize("order", ["ranking", "shuffled", "against one"])
@pytest.mark.parametrize("chunk", [1, 7, 1_000])
def test_difference_rows__the_same_subtractions(order: str, chunk: int) -> None:
    rng = np.random.default_rng(3)
    rows = rng.normal(size=(15, 300))
    ia, ib = np.triu_indices(15, k=1)
    if order == "shuffled":
        pick = rng.permutation(ia.size)
        ia, ib = ia[pick], ib[pick]
    elif order == "against one":
        ia, ib = np.delete(np.arange(15), 4), np.full(14, 4)
    got = np.empty((ia.size, 300))
    for p0, d in difference_rows(rows, ia, ib, chunk):
        got[p0 : p0 + d.shape[0]] = d
    assert (_bits(got) == _bits(rows[ia] - rows[ib])).all()


@pytest.mark.parametrize("alpha", [0.05, 0.2, 0.5, 0.001])
@pytest.mark.parametrize("models", [3, 9, 60])
def test_abs_diff_row_max_from__the_same_quantile(alpha: float, models: int) -> None:
    """Branch and bound over groups of models: the max-T's quantile bit for bit, with
    correlated models of unequal spread and a pair left out."""
    rng = np.random.default_rng(models)
    a = rng.normal(size=(models, models)) * rng.uniform(0.1, 2, models)
    cov = a @ a.T + np.eye(models) * 0.1
    vals, vecs = np.linalg.eigh(cov)
    z = rng.normal(size=(4_000, models)) @ (vecs * np.sqrt(vals)).T
    ia, ib = np.triu_indices(models, k=1)
    ia, ib = ia[1:], ib[1:]  # a pair without spread is left out of the maximum
    sd = np.sqrt(cov[ia, ia] + cov[ib, ib] - 2 * cov[ia, ib])
    k = math.floor(3_999 * (1 - alpha))
    full = abs_diff_row_max(z, ia, ib, sd)
    fast = abs_diff_row_max_from(z, ia, ib, sd, k)
    for q in (1 - alpha, (k + 0.5) / 3_999):
        want = sample_quantiles(full[:, None], [q])
        assert (_bits(sample_quantiles(fast[:, None], [q])) == _bits(want)).all()
    reached = fast >= np.sort(full)[k]
    assert (_bits(fast[reached]) == _bits(full[reached])).all()


def test_difference_sd__numpy_s_within_rounding_and_cancelling_pairs_flagged() -> None:
    rng = np.random.default_rng(4)
    base = rng.normal(size=(5_000, 1))
    noisy = base + rng.normal(size=(5_000, 30)) * 0.5
    reps = np.hstack([noisy, base, base * (1 + 1e-6)])  # the last two: almost one
    ia, ib = np.triu_indices(32, k=1)
    sd, own = difference_sd(reps, ia, ib)
    want = replicate_sd(reps[:, ia] - reps[:, ib])
    assert np.abs(sd - want)[~own].max() <= 1e-12 * want.max()
    # only the pair of the two alike columns cancels: the caller computes it
    assert list(zip(ia[own], ib[own], strict=True)) == [(30, 31)]
    _, own_few = difference_sd(reps, ia[:10], ib[:10])
    assert own_few.all()  # fewer than SD_MIN_PAIRS: all from their differences
    assert bootstrap.SD_MIN_PAIRS > 10


def test_variances_df__sums_of_products_give_the_same_df(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The pairs' degrees of freedom from the strata's sums of products equal those
    summed over the units, on strata of unequal size and spread."""
    rng = np.random.default_rng(6)
    sizes = [40, 3, 17, 120, 2, 60]
    starts = np.concatenate([[0], np.cumsum(sizes)]).astype(np.intp)
    k = 30
    num = (rng.random((starts[-1], k)) < rng.uniform(0.2, 0.8, k)).astype(float)
    den = np.ones_like(num)
    weight = np.tile(np.array(sizes, dtype=float)[:, None] / sum(sizes), (1, k))
    var = satterthwaite.variances(num, den, starts, np.arange(k), weight)
    ia, ib = np.triu_indices(k, k=1)
    upper = np.full(ia.size, float(sum(s - 1 for s in sizes)))
    fast = var.df(ia, ib, upper=upper)
    monkeypatch.setattr(satterthwaite, "GRAM_MIN_PAIRS", 10**9)
    assert (_bits(fast) == _bits(var.df(ia, ib, upper=upper))).all()
    assert ia.size >= 256  # the sums-of-products path ran


def test_distinct__numpy_unique_of_integers() -> None:
    x = np.random.default_rng(7).integers(-5, 50, 1_000)
    assert (distinct(x) == np.unique(x)).all()
    assert distinct(x[:0]).size == 0
