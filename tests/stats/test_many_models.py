"""Many models, fourth round (issue 31): each fast path against what it replaced.

Every path here claims the same bits as the computation it replaced; each test runs
both on the same numbers and compares them bit for bit, with the fast path forced to
do what makes it differ (several blocks, several chunks, partial models).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from leaderboard import EvalRun
from leaderboard.stats import bootstrap, build, quantiles
from leaderboard.stats.bootstrap import centred_gram, difference_sd, replicate_sd
from leaderboard.stats.design import FloatArray, build_design
from leaderboard.stats.estimates import EstimatePlan
from leaderboard.stats.family import (
    DRAWS,
    _normals,
    norm_sf,
    pairwise_level,
    pairwise_level_cov,
)
from leaderboard.stats.quantiles import (
    abs_diff_row_max,
    abs_diff_row_max_from,
    difference_rows,
    flat_positions,
    sample_quantiles,
)


def _bits(x: FloatArray) -> np.ndarray:
    return np.ascontiguousarray(x, dtype=np.float64).view(np.int64)


def _replicates(models: int, rows: int = 2_000, seed: int = 0) -> FloatArray:
    """Correlated replicates of unequal spread, stored by columns like the engine's."""
    rng = np.random.default_rng(seed)
    common = rng.normal(size=(rows, 1))
    x = 0.5 + 0.02 * (
        common + rng.normal(size=(rows, models)) * rng.uniform(0.3, 2, models)
    )
    return np.asfortranarray(x)


@pytest.mark.parametrize("order", ["F", "C"])
@pytest.mark.parametrize("shape", [(1_000, 7), (2_000, 33), (300, 1)])
def test_replicate_sd__a_few_columns_at_a_time_numpy_s_bits(
    monkeypatch: pytest.MonkeyPatch, order: str, shape: tuple[int, int]
) -> None:
    """Columns stored contiguously are read a few at a time (here 2 or 3: the last
    chunk shorter); strided columns are read at once, as numpy adds them row by row."""
    x = np.asarray(np.random.default_rng(1).normal(0.4, 0.1, shape), order=order)
    monkeypatch.setattr(bootstrap, "SD_ELEMENTS", 2 * shape[0] + 1)
    want = x.std(axis=0, ddof=1)
    assert (_bits(replicate_sd(x)) == _bits(want)).all()


def test_centred_gram__numpy_cov_and_difference_sd_from_one_product() -> None:
    reps = _replicates(40)
    cols = np.arange(40)
    gram = centred_gram(reps, cols)
    assert (
        _bits(gram * np.true_divide(1, reps.shape[0] - 1))
        == _bits(np.cov(reps, rowvar=False))
    ).all()
    ia, ib = np.triu_indices(40, k=1)
    alone = difference_sd(reps, ia, ib)
    shared = difference_sd(reps, ia, ib, gram=(cols, gram))
    for a, b in zip(alone, shared, strict=True):
        assert (_bits(a) == _bits(b)).all()
    # a product of other columns is not read: the pairs' own is made again
    other = difference_sd(reps, ia, ib, gram=(cols[:-1], gram[:-1, :-1]))
    assert (_bits(other[0]) == _bits(alone[0])).all()


def _pairwise_level_before(
    x: FloatArray, pairs: list[tuple[int, int]], alpha: float
) -> float:
    """pairwise_level as it was: numpy.cov, every normal held, the plain row maximum."""
    cov = np.cov(x, rowvar=False)
    ia = np.array([a for a, _ in pairs])
    ib = np.array([b for _, b in pairs])
    var = cov[ia, ia] + cov[ib, ib] - 2.0 * cov[ia, ib]
    use = var > 1e-24
    ia, ib, sd = ia[use], ib[use], np.sqrt(var[use])
    vals, vecs = np.linalg.eigh(cov)
    root = vecs * np.sqrt(np.clip(vals, 0.0, None))
    normals = _normals(7, root.shape[1])
    z = np.empty((DRAWS, root.shape[0]))
    for r0 in range(0, DRAWS, 2048):
        z[r0 : r0 + 2048] = normals[r0 : r0 + 2048] @ root.T
    big = abs_diff_row_max(z, ia, ib, sd)
    c = float(sample_quantiles(big[:, None], [1.0 - alpha])[0, 0])
    m = len(pairs)
    return min(alpha, max(alpha / m, 2.0 * norm_sf(c)))


@pytest.mark.parametrize("models", [4, 23])
def test_pairwise_level__blocks_of_draws_and_the_shared_product_give_the_same_level(
    models: int,
) -> None:
    reps = _replicates(models, seed=models)
    pairs = [(int(a), int(b)) for a, b in zip(*np.triu_indices(models, k=1), strict=True)]
    want = _pairwise_level_before(reps, pairs, 0.05)
    assert pairwise_level(reps, pairs, 0.05, seed=7) == want
    cov = centred_gram(reps, np.arange(models)) * np.true_divide(1, reps.shape[0] - 1)
    ia, ib = np.array(pairs).T
    assert pairwise_level_cov(cov, (ia, ib), 0.05, seed=7) == want
    assert 0.05 / len(pairs) < want < 0.05  # the max-T, not a bound


def test_abs_diff_row_max_from__rows_in_blocks_the_same_values() -> None:
    rng = np.random.default_rng(5)
    z = rng.normal(size=(3_000, 20)) * rng.uniform(0.2, 2, 20)
    ia, ib = np.triu_indices(20, k=1)
    sd = rng.uniform(0.5, 2, ia.size)
    k = math.floor(2_999 * 0.95)
    whole = abs_diff_row_max_from(z, ia, ib, sd, k)
    blocks = abs_diff_row_max_from([z[:1_000], z[1_000:1_001], z[1_001:]], ia, ib, sd, k)
    assert (_bits(blocks) == _bits(whole)).all()
    assert np.isfinite(whole).sum() > 3_000 - k  # the exact rows were computed


@pytest.mark.parametrize("order", ["ranking", "shuffled"])
def test_difference_rows__renumbered_rows_in_several_blocks(
    monkeypatch: pytest.MonkeyPatch, order: str
) -> None:
    """Runs of pairs whose second rows straddle the blocks of renumbered rows."""
    rng = np.random.default_rng(6)
    rows = rng.normal(size=(15, 50))
    ranking = rng.permutation(15)
    first, second = np.triu_indices(15, k=1)
    ia, ib = ranking[first], ranking[second]
    if order == "shuffled":
        pick = rng.permutation(ia.size)
        ia, ib = ia[pick], ib[pick]
    monkeypatch.setattr(quantiles, "BLOCK_BYTES", 4 * 50 * 8)  # 4 rows a block
    for chunk in (1, 7, 500):
        got = np.empty((ia.size, 50))
        for p0, d in difference_rows(rows, ia, ib, chunk):
            got[p0 : p0 + d.shape[0]] = d
        assert (_bits(got) == _bits(rows[ia] - rows[ib])).all()


def _runs(models: int, *, missing: bool, categories: int = 1) -> list[EvalRun]:
    rng = np.random.default_rng(models)
    out = []
    for m in range(models):
        for t in range(4):
            for i in range(12):
                if missing and m % 3 == 1 and (i + m) % 5 == 0:
                    continue  # every third model misses other items
                score = float(rng.random() < 0.6) if m % 4 else float(rng.random())
                out.append(
                    EvalRun(
                        f"m{m}", f"t{t}", score, item_id=i, category=f"c{t % categories}"
                    )
                )
    return out


@pytest.mark.parametrize("missing", [False, True])
def test_pair_estimates__the_estimates_and_registrations_of_every_pair(
    missing: bool,
) -> None:
    """The matrix of pair estimates, and the order estimates are registered in, as
    registering every pair (a, b) and (b, a) in turn."""
    d = build_design(_runs(9, missing=missing))
    before, after = EstimatePlan(d), EstimatePlan(d)
    overall = [before.add(m) for m in range(9)]
    assert [after.add(m) for m in range(9)] == overall
    want = {
        (a, b): (before.add(a, partner=b), before.add(b, partner=a))
        for a in range(9)
        for b in range(a + 1, 9)
    }
    got = build._pair_estimates(after, d, overall)
    for (a, b), (ka, kb) in want.items():
        assert (got[a, b], got[b, a]) == (ka, kb)
    assert before._out_col == after._out_col  # the registrations, in order
    assert (got != np.array(overall)[:, None]).any() == missing


@pytest.mark.parametrize("missing", [False, True])
def test_mean_intervals__repeats_and_order_change_no_interval(missing: bool) -> None:
    """Means read in place (consecutive estimates) or copied (any other order), each
    once, give every shown mean the interval of the plain computation; binary models
    are told apart as numpy.isin does."""
    d = build_design(_runs(8, missing=missing, categories=2))
    plan = EstimatePlan(d)
    overall = [plan.add(m) for m in range(8)]
    cats = [(plan.add(m, category=c), m) for m in range(8) for c in d.categories]
    rep = plan.run(resamples=400, seed=3)
    n = [int(d.present[:, m].sum()) for m in range(8)]
    means = [(k, m, n[m]) for m, k in enumerate(overall)] + [
        (k, m, int((d.present[:, m] & (d.item_category == d.categories[0])).sum()))
        for k, m in cats[::2]
    ]
    lo, hi = build._mean_intervals(d, rep, 0.05, means)
    shuffled = means[::-1] + means[:3]  # a copy of the replicates, and repeats
    lo2, hi2 = build._mean_intervals(d, rep, 0.05, shuffled)
    shown = [k for k, _, _ in means]
    assert (_bits(lo[shown]) == _bits(lo2[shown])).all()
    assert (_bits(hi[shown]) == _bits(hi2[shown])).all()
    assert np.isfinite(lo[shown]).all()
    binary = [
        bool(np.isin(d.scores[d.present[:, m], m], (0.0, 1.0)).all()) for m in range(8)
    ]
    assert binary == [m % 4 != 0 for m in range(8)]
    # each mean alone, as before: its own column copied, the same interval
    for k, m, items in means[:3]:
        one_lo, one_hi = build._mean_intervals(d, rep, 0.05, [(k, m, items)])
        assert _bits(one_lo[k : k + 1])[0] == _bits(lo[k : k + 1])[0]
        assert _bits(one_hi[k : k + 1])[0] == _bits(hi[k : k + 1])[0]


def test_sample_quantiles__no_nan_check_skipped_the_same_bits() -> None:
    x = _replicates(30, rows=5_000)
    levels = [0.025, 0.975, 1e-6, 1 - 1e-6]
    centre, spread = x.mean(axis=0), x.std(axis=0)
    want = np.quantile(x, levels, axis=0)
    got = sample_quantiles(x, levels, centre=centre, spread=spread, no_nan=True)
    assert (_bits(got) == _bits(want)).all()


@pytest.mark.parametrize("share", [0.0, 0.001, 0.03, 0.5, 1.0])
@pytest.mark.parametrize("size", [1, 7, 8, 9, 320_003])
def test_flat_positions__numpy_flatnonzero(share: float, size: int) -> None:
    mask = np.random.default_rng(size).random(size) < share
    for shape in ((size,), (1, size)):
        got = flat_positions(mask.reshape(shape))
        assert got.dtype == np.intp
        assert np.array_equal(got, np.flatnonzero(mask))


def test_flat_positions__leans_on_numpy_reading_any_nonzero_byte_as_true() -> None:
    # flat_positions views packed bytes (0x81, 0x40, ...) as booleans: numpy's
    # flatnonzero must take every nonzero byte as True, not only 0x01. A numpy that
    # assumed booleans are 0 or 1 would lose positions silently; this fails first.
    packed = np.array([0x00, 0x81, 0x40, 0x00, 0xFF, 0x02], dtype=np.uint8)
    assert np.flatnonzero(packed.view(np.bool_)).tolist() == [1, 2, 4, 5]
    mask = np.zeros(48, dtype=bool)
    mask[[8, 15, 17, 32, 39, 46]] = True  # the high and low bit of several bytes
    assert flat_positions(mask).tolist() == [8, 15, 17, 32, 39, 46]
