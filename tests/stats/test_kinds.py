"""Units that repeat, resampled as kinds: one multinomial in place of n unit draws.

`bootstrap._kinds` finds a large stratum's distinct unit rows; the engine then draws the
kinds' tallies as ``Multinomial(n; shares)``, the exact distribution of the tallies of
``n`` uniform unit draws. Checked three ways: the documented draws recomputed by hand,
the replicates' spread and pairing against closed forms (both paths), and which strata
take the shortcut.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from leaderboard.stats import bootstrap
from leaderboard.stats.bootstrap import BLOCK, KINDS_MIN_UNITS, stratified_replicates
from tests.stats.simulate import beta_mean, covers, false_alarm, item_level_runs, rate

SEED = 2026  # test_calibration.py's


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


@pytest.mark.slow
def test_kinds__coverage_and_false_alarms_of_the_whole_report(
    record_property: Callable[[str, object], None],
) -> None:
    """tests/stats/test_calibration.py's binary-item simulations at 400 items, a size
    the kinds take (one task: a stratum of 400 units, at most 4 kinds): the same
    targets, coverage >= 93% and false alarms <= 3.5% (nominal 2.5%)."""
    n_items = 400
    sample = (np.random.default_rng(0).random((n_items, 2)) < 0.6).astype(float)
    assert bootstrap._kinds(sample, np.ones_like(sample)) is not None  # the kinds path

    def cover(rng: np.random.Generator) -> bool:
        difficulty = beta_mean(rng, np.full(n_items, 0.6), 2.0)
        scores = (rng.random((1, n_items)) < difficulty).astype(float)
        return covers(item_level_runs(scores, ("m",)), 0.6, int(rng.integers(2**31)))

    def alarm(rng: np.random.Generator) -> bool:
        difficulty = beta_mean(rng, np.full(n_items, 0.6), 2.0)
        scores = (rng.random((2, n_items)) < difficulty).astype(float)
        return false_alarm(
            item_level_runs(scores, ("base", "cand")), int(rng.integers(2**31))
        )

    coverage, c_se = rate(cover, 1000, SEED)
    alarms, a_se = rate(alarm, 2000, SEED)
    record_property("kinds coverage 400 binary items", f"{coverage:.3f} +- {c_se:.3f}")
    record_property("kinds false alarms 400 binary items", f"{alarms:.4f} +- {a_se:.4f}")
    print(f"coverage {coverage:.3f} +- {c_se:.3f}, false alarms {alarms:.4f} +- {a_se:.4f}")
    assert coverage >= 0.93
    assert alarms <= 0.035
