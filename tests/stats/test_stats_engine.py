"""The engine against a plain re-computation from the same resample counts."""

from __future__ import annotations

import numpy as np
import pytest

from leaderboard.stats.bootstrap import BLOCK, stratified_replicates


def _counts(block: int, stratum: int, seed: int, rows: int, n: int) -> np.ndarray:
    """The documented draws, counted by hand: block ``block`` of stratum ``stratum``
    draws ``rows x n`` unit indices (int32) from ``SeedSequence(seed, spawn_key=(block,
    stratum))``; a replicate's count of a unit is how often that unit was drawn."""
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(block, stratum)))
    idx = rng.integers(0, n, size=(rows, n), dtype=np.int32)
    counts = np.zeros((rows, n))
    for r in range(rows):
        for i in idx[r]:
            counts[r, i] += 1
    return counts


def _reference(
    num: np.ndarray,
    den: np.ndarray,
    starts: np.ndarray,
    column: np.ndarray,
    weight: np.ndarray,
    *,
    resamples: int,
    seed: int,
) -> tuple[np.ndarray, np.ndarray]:
    """Loop over replicates, strata and estimates: ratio, rescale, weight."""
    n_out = column.size
    est = np.zeros(n_out)
    out = np.zeros((resamples, n_out))
    for h in range(starts.size - 1):
        s, e = starts[h], starts[h + 1]
        counts = np.vstack(
            [
                _counts(b, h, seed, min(BLOCK, resamples - b * BLOCK), e - s)
                for b in range(-(-resamples // BLOCK))
            ]
        )
        for j in range(n_out):
            k = column[j]
            nu, de = num[s:e, k], den[s:e, k]
            if weight[h, j] == 0 or de.sum() == 0:
                continue
            est_h = nu.sum() / de.sum()
            est[j] += weight[h, j] * est_h
            n = (de > 0).sum()
            if n < 2:
                continue
            for r in range(resamples):
                d = counts[r] @ de
                ratio = counts[r] @ nu / d if d > 0 else est_h
                out[r, j] += weight[h, j] * np.sqrt(n / (n - 1)) * (ratio - est_h)
    return est, est + out


@pytest.mark.parametrize("complete", [True, False], ids=["linear path", "ratio path"])
def test_engine_matches_reference(complete: bool) -> None:
    rng = np.random.default_rng(8)
    starts = np.array([0, 5, 12, 13, 20])
    n_units, n_cols = 20, 3
    num = rng.random((n_units, n_cols))
    den = np.ones((n_units, n_cols))
    if not complete:
        den[rng.random((n_units, n_cols)) < 0.3] = 0.0
        den[:, 2] *= rng.integers(1, 4, n_units)  # clusters of different sizes
        num *= den
    column = np.array([0, 1, 2, 0])
    weight = rng.random((4, 4))
    weight[1, 3] = 0.0
    weight /= weight.sum(axis=0)
    got = stratified_replicates(
        num, den, starts, column, weight, resamples=BLOCK + 40, seed=5
    )
    est, reps = _reference(num, den, starts, column, weight, resamples=BLOCK + 40, seed=5)
    np.testing.assert_allclose(got.estimate, est, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(got.replicates, reps, rtol=1e-10, atol=1e-12)
