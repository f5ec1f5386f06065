"""Units that repeat, resampled as kinds: one multinomial in place of n unit draws.

`bootstrap._kinds` finds a large stratum's distinct unit rows; the engine then draws the
kinds' tallies as ``Multinomial(n; shares)``, the exact distribution of the tallies of
``n`` uniform unit draws. Checked three ways: the documented draws recomputed by hand,
the replicates' spread and pairing against closed forms (both paths), and which strata
take the shortcut.
"""

from __future__ import annotations

import numpy as np
import pytest

from leaderboard.stats import bootstrap
from leaderboard.stats.bootstrap import BLOCK, KINDS_MIN_UNITS, stratified_replicates


def _binary(n: int, seed: int, p: tuple[float, float] = (0.7, 0.6)) -> np.ndarray:
    """Two models' binary scores on n items, correlated (a shared difficulty)."""
    rng = np.random.default_rng(seed)
    easy = rng.random(n)
    return np.column_stack([(easy < p[0]), (easy < p[1]) ^ (rng.random(n) < 0.1)]).astype(
        np.float64
    )


def _engine(num: np.ndarray, resamples: int, seed: int = 3) -> np.ndarray:
    den = np.ones_like(num)
    # estimates: model 0, model 1 and their two columns' difference read later
    out = stratified_replicates(
        num,
        den,
        np.array([0, num.shape[0]]),
        np.array([0, 1]),
        np.array([[1.0, 1.0]]),
        resamples=resamples,
        seed=seed,
    )
    return np.asarray(out.replicates)


def test_kinds__binary_stratum_of_two_models_has_at_most_four() -> None:
    num = _binary(KINDS_MIN_UNITS, 0)
    found = bootstrap._kinds(num, np.ones_like(num))
    assert found is not None
    kinds_num, kinds_den, share = found
    assert kinds_num.shape[0] <= 4
    assert (kinds_den == 1.0).all()
    assert share.sum() == pytest.approx(1.0, abs=1e-15)
    # every kind's share is its units' count over n
    for row, s in zip(kinds_num, share, strict=True):
        assert s * KINDS_MIN_UNITS == (num == row).all(axis=1).sum()


def test_kinds__small_or_varied_strata_draw_units() -> None:
    small = _binary(KINDS_MIN_UNITS - 1, 0)
    assert bootstrap._kinds(small, np.ones_like(small)) is None
    varied = np.random.default_rng(1).random((4096, 2))
    assert bootstrap._kinds(varied, np.ones_like(varied)) is None


def test_kinds__replicates_are_the_documented_multinomial_draws() -> None:
    n, resamples, seed = 2000, BLOCK + 100, 7
    num = _binary(n, 2)
    got = _engine(num, resamples, seed)
    kinds, tally = np.unique(num, axis=0, return_counts=True)
    est = num.mean(axis=0)
    want = []
    for block in range(-(-resamples // BLOCK)):
        rows = min(BLOCK, resamples - block * BLOCK)
        rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(block, 0)))
        counts = rng.multinomial(n, tally / n, size=rows)
        want.append(est + np.sqrt(n / (n - 1)) * (counts @ kinds / n - est))
    np.testing.assert_allclose(got, np.vstack(want), rtol=0, atol=1e-13)


@pytest.mark.parametrize("path", ["kinds", "units"])
def test_kinds__spread_and_pairing_match_the_closed_form(
    path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rescaled bootstrap variance of a mean of n units: s^2 / n with s^2 the sample
    variance (ddof=1), for each model and for their paired difference; 8,192
    replicates estimate a standard deviation within about 0.8% (1 / sqrt(2B))."""
    if path == "units":
        monkeypatch.setattr(bootstrap, "KINDS_MIN_UNITS", 10**9)
    n = 3000
    num = _binary(n, 4)
    reps = _engine(num, 8 * BLOCK)
    sd = reps.std(axis=0, ddof=1)
    want = num.std(axis=0, ddof=1) / np.sqrt(n)
    np.testing.assert_allclose(sd, want, rtol=0.04)
    diff_sd = (reps[:, 0] - reps[:, 1]).std(ddof=1)
    want_diff = (num[:, 0] - num[:, 1]).std(ddof=1) / np.sqrt(n)
    assert diff_sd == pytest.approx(want_diff, rel=0.04)
    # the pairing is kept: the difference varies far less than independent draws would
    assert diff_sd < 0.8 * np.hypot(*want)
