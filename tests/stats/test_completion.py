"""The completion comparison (CONTRACT.md section 13): the exact paired test and its block.

Closed-form references for the binomial tail and the Clopper-Pearson ends (sums of
binomial terms with `math.comb`, scipy's beta quantiles), property tests of the test's
exactness and of the interval agreeing with the decision, a seeded simulation of the
acceptance cells (issue 28), and the comparison in the report the gate makes.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from leaderboard import EvalRun, build_report
from leaderboard.stats.completion import (
    Discordant,
    attempts,
    binomial_upper_tail,
    clopper_pearson,
    completion_comparisons,
    discordant,
)


def _tail(k: int, n: int) -> float:
    """P(X >= k), X ~ Binomial(n, 1/2), summed exactly in rationals."""
    total = sum(Fraction(math.comb(n, i), 2**n) for i in range(max(k, 0), n + 1))
    return float(total)


@pytest.mark.parametrize(
    ("k", "n"), [(0, 0), (0, 5), (1, 1), (3, 3), (5, 10), (9, 10), (45, 56), (80, 100)]
)
def test_binomial_upper_tail__equals_the_sum_of_binomial_terms(k: int, n: int) -> None:
    assert binomial_upper_tail(k, n) == pytest.approx(_tail(k, n), rel=1e-9, abs=1e-300)


def test_binomial_upper_tail__matches_scipys_exact_binomial_test() -> None:
    # the yyloong pair read the other way round: 45 discordant units against, 11 for
    ours = binomial_upper_tail(45, 56)
    ref = stats.binomtest(45, 56, 0.5, alternative="greater").pvalue
    assert ours == pytest.approx(ref, rel=1e-9)
    assert ours == pytest.approx(2.7e-6, rel=0.05)


@pytest.mark.parametrize(
    ("k", "n", "alpha"), [(0, 10, 0.025), (3, 10, 0.025), (10, 10, 0.025), (45, 56, 0.0125)]
)
def test_clopper_pearson__ends_are_beta_quantiles(k: int, n: int, alpha: float) -> None:
    lo, hi = clopper_pearson(k, n, alpha)
    ref_lo = 0.0 if k == 0 else stats.beta.ppf(alpha, k, n - k + 1)
    ref_hi = 1.0 if k == n else stats.beta.ppf(1 - alpha, k + 1, n - k)
    assert lo == pytest.approx(ref_lo, abs=1e-9)
    assert hi == pytest.approx(ref_hi, abs=1e-9)


@settings(max_examples=300, deadline=None)
@given(
    b=st.integers(0, 60),
    c=st.integers(0, 60),
    concordant=st.integers(0, 200),
    alpha=st.sampled_from([0.025, 0.0125, 0.005, 0.05]),
)
def test_interval__upper_end_below_zero_exactly_when_the_test_rejects(
    b: int, c: int, concordant: int, alpha: float
) -> None:
    n = b + c + concordant
    if n == 0:
        return
    d = Discordant(n, c + concordant, b + concordant, b, c, 1)
    lo, hi = d.interval(alpha)
    assert -1.0 <= lo <= d.candidate_scored / n - d.baseline_scored / n + 1e-12
    assert d.candidate_scored / n - d.baseline_scored / n <= hi + 1e-12 <= 1.0 + 1e-12
    rejects = b + c > 0 and d.p_value <= alpha
    if abs(d.p_value - alpha) > 1e-9:  # away from the boundary itself
        assert rejects == (hi < 0)


@settings(max_examples=60, deadline=None)
@given(nd=st.integers(1, 400), alpha=st.sampled_from([0.025, 0.0125, 0.005]))
def test_exactness__false_regressions_never_exceed_alpha(nd: int, alpha: float) -> None:
    # Under no change b ~ Binomial(nd, 1/2): the chance the test rejects, summed exactly.
    size = sum(
        math.comb(nd, k) / 2**nd
        for k in range(nd + 1)
        if binomial_upper_tail(k, nd) <= alpha
    )
    assert size <= alpha + 1e-12


def test_discordant__counts_only_units_both_attempted() -> None:
    cand = {("t", "1"): True, ("t", "2"): False, ("t", "3"): False, ("t", "9"): True}
    base = {("t", "1"): True, ("t", "2"): True, ("t", "3"): False, ("u", "4"): False}
    d = discordant(cand, base)
    assert (d.attempted, d.candidate_scored, d.baseline_scored) == (3, 1, 2)
    assert (d.baseline_only, d.candidate_only, d.tasks) == (1, 0, 1)
    assert discordant(cand, base, frozenset({"t"})).attempted == 0


def _table(
    rng: np.random.Generator, n: int, p_base: float, p_cand: float
) -> dict[str, dict[tuple[str, object], bool]]:
    """Each unit errors independently in each run with its run's rate."""
    base = rng.random(n) >= p_base
    cand = rng.random(n) >= p_cand
    return {
        "m": {("t", i): bool(s) for i, s in enumerate(cand)},
        "m @ main": {("t", i): bool(s) for i, s in enumerate(base)},
    }


def _regressed_share(n: int, p_base: float, p_cand: float, sims: int, seed: int) -> float:
    rng = np.random.default_rng(seed)
    hits = 0
    for _ in range(sims):
        (comp,) = completion_comparisons(
            [("m", "m @ main")],
            _table(rng, n, p_base, p_cand),
            confidence=0.95,
            unit_kind="item",
        )
        hits += comp.regressed
    return hits / sims


@pytest.mark.slow
@pytest.mark.parametrize("n", [100, 1000])
def test_acceptance__no_change_with_5pct_errors_regresses_at_most_3_5pct(n: int) -> None:
    # 1,000 simulations; the exact test's own bound is 2.5%, noise (SE ~0.5%) aside
    share = _regressed_share(n, 0.05, 0.05, sims=1000, seed=28 + n)
    assert share <= 0.035


@pytest.mark.slow
def test_acceptance__an_extra_5pct_errors_at_1000_items_regresses_at_least_80pct() -> None:
    share = _regressed_share(1000, 0.05, 0.10, sims=1000, seed=2028)
    assert share >= 0.80


def _records(model: str, outcomes: dict[int, float | None]) -> list[EvalRun]:
    return [
        EvalRun(model, "t", math.nan, item_id=str(i), error="timeout")
        if s is None
        else EvalRun(model, "t", s, item_id=str(i))
        for i, s in outcomes.items()
    ]


def test_report__completion_is_a_comparison_of_the_gate_and_decides_the_verdict() -> None:
    # 200 items, every one scored 1 in both runs, except 30 the candidate errored on
    base = _records("m", dict.fromkeys(range(200), 1.0))
    cand = _records("m", {i: (None if i < 30 else 1.0) for i in range(200)})
    report = build_report(cand, baseline_runs=base, resamples=300)
    score, done = report.gate.comparisons
    assert (score.measure, done.measure) == ("score", "completion")
    assert score.shared_units == 170  # the score compares units scored in both
    assert done.shared_units == 200
    assert (done.candidate_mean, done.baseline_mean) == (170 / 200, 1.0)
    assert done.diff_mean == pytest.approx(-0.15)
    assert done.regressed
    assert done.ci_hi < 0
    assert done.confidence == pytest.approx(0.95)
    assert report.gate.completion_family_size == 1
    assert report.gate.bound == pytest.approx(0.05)  # score block + completion block
    v = report.verdict
    assert (v.state, v.measure) == ("regressed", "completion")
    assert (v.estimate, v.ci_hi) == (done.diff_mean, done.ci_hi)


def test_report__no_errored_unit_no_completion_comparison() -> None:
    base = _records("m", {i: float(i % 2) for i in range(50)})
    cand = _records("m", {i: float(i % 3 == 0) for i in range(50)})
    report = build_report(cand, baseline_runs=base, resamples=200)
    assert [c.measure for c in report.gate.comparisons] == ["score"]
    assert report.gate.completion_family_size == 0
    assert report.gate.bound == pytest.approx(0.025)


def test_report__units_one_run_attempted_stay_out_and_are_stated() -> None:
    base = _records("m", dict.fromkeys(range(40), 1.0))
    cand = _records("m", {i: (None if i in (11, 12) else 1.0) for i in range(10, 60)})
    report = build_report(cand, baseline_runs=base, resamples=200)
    (done,) = [c for c in report.gate.comparisons if c.measure == "completion"]
    assert done.shared_units == 30  # items 10..39 only
    assert done.candidate_mean == pytest.approx(28 / 30)
    assert not done.regressed  # 2 discordant units: p = 1/4
    assert any("compared on the" in w for w in report.warnings)


def test_report__errored_units_of_a_model_pair_within_one_run() -> None:
    runs = _records("a", dict.fromkeys(range(100), 1.0)) + _records(
        "b", {i: (None if i < 20 else 1.0) for i in range(100)}
    )
    report = build_report(runs, baseline="a", resamples=200)
    (done,) = [c for c in report.gate.comparisons if c.measure == "completion"]
    assert (done.candidate, done.baseline) == ("b", "a")
    assert done.regressed
    assert attempts(runs, [], {"a"}) == {"a": {("t", str(i)): True for i in range(100)}}
