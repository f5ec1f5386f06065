"""Hypothesis properties of the report: bounds, symmetry, invariances, reproducibility."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leaderboard import EvalRun, build_report
from leaderboard.stats.bootstrap import BLOCK, stratified_replicates

scores = st.floats(0.0, 1.0, allow_nan=False)


@st.composite
def run_sets(draw: st.DrawFn) -> list[EvalRun]:
    n_models = draw(st.integers(1, 4))
    n_tasks = draw(st.integers(1, 6))
    items = draw(st.one_of(st.none(), st.integers(1, 4)))
    clusters = draw(st.booleans())
    samples = draw(st.integers(1, 2))
    weights = [draw(st.sampled_from([1.0, 0.5, 3.0])) for _ in range(n_tasks)]
    runs = []
    for m in range(n_models):
        for t in range(n_tasks):
            cat = f"c{t % 2}"
            if m > 0 and draw(st.integers(0, 9)) == 0:
                continue  # a model that misses a task
            if items is None:
                runs.append(
                    EvalRun(f"m{m}", f"t{t}", draw(scores), category=cat, weight=weights[t])
                )
                continue
            for i in range(items):
                for k in range(samples):
                    runs.append(
                        EvalRun(
                            f"m{m}",
                            f"t{t}",
                            float(draw(st.booleans())),
                            category=cat,
                            weight=weights[t],
                            item_id=i,
                            cluster=i % 2 if clusters else None,
                            sample=k if samples > 1 else None,
                        )
                    )
    return runs


SETTINGS = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@SETTINGS
@given(run_sets())
def test_intervals_contain_their_estimates(runs: list[EvalRun]) -> None:
    report = build_report(runs, resamples=200, baseline=runs[0].model_id)
    for row in report.leaderboard:
        assert 0.0 <= row.mean_ci_lo <= row.mean_score <= row.mean_ci_hi <= 1.0
        assert 1 <= row.rank_lo <= row.rank <= row.rank_hi <= len(report.leaderboard)
        for cat, value in row.categories.items():
            ci = row.category_intervals[cat]
            assert ci.lo <= value <= ci.hi
    for p in report.pairwise:
        assert p.ci_lo <= p.diff_mean <= p.ci_hi
        assert p.significant == (p.ci_lo > 0 or p.ci_hi < 0)
    for c in report.gate.comparisons:
        assert c.ci_lo <= c.diff_mean <= c.ci_hi


@SETTINGS
@given(run_sets(), st.randoms(use_true_random=False))
def test_record_order_and_splitting_change_no_number(
    runs: list[EvalRun], rnd: random.Random
) -> None:
    shuffled = list(runs)
    rnd.shuffle(shuffled)
    cut = rnd.randint(0, len(runs))
    split = [*shuffled[cut:], *shuffled[:cut]]  # "two files" given in the other order
    a = build_report(runs, resamples=150, seed=7)
    assert build_report(shuffled, resamples=150, seed=7) == a
    assert build_report(iter(split), resamples=150, seed=7) == a


@SETTINGS
@given(run_sets())
def test_diff_of_b_a_mirrors_diff_of_a_b(runs: list[EvalRun]) -> None:
    models = sorted({r.model_id for r in runs})
    if len(models) < 2:
        return
    a, b = models[0], models[1]
    ab = build_report(runs, baseline=b, candidates=[a], resamples=200, seed=3).gate
    ba = build_report(runs, baseline=a, candidates=[b], resamples=200, seed=3).gate
    (x,) = ab.comparisons
    (y,) = ba.comparisons
    assert x.diff_mean == pytest.approx(-y.diff_mean, abs=1e-12)
    assert x.ci_lo == pytest.approx(-y.ci_hi, abs=1e-9)
    assert x.ci_hi == pytest.approx(-y.ci_lo, abs=1e-9)


def test_seed_reproducibility_and_sensitivity() -> None:
    rng = np.random.default_rng(0)
    runs = [EvalRun(m, f"t{t}", float(rng.random())) for m in "abc" for t in range(9)]
    one = build_report(runs, resamples=300, seed=11)
    assert build_report(runs, resamples=300, seed=11) == one
    assert build_report(runs, resamples=300, seed=12) != one


def test_replicates_do_not_depend_on_how_many_are_asked_for() -> None:
    """Blocks are seeded by their index: the first B replicates are the same for any B."""
    rng = np.random.default_rng(1)
    num = rng.random((30, 2))
    den = np.ones((30, 2))
    args = (num, den, np.array([0, 12, 30]), np.array([0, 1]), np.full((2, 2), 0.5))
    small = stratified_replicates(*args, resamples=BLOCK + 5, seed=4)
    large = stratified_replicates(*args, resamples=3 * BLOCK, seed=4)
    np.testing.assert_array_equal(small.replicates, large.replicates[: BLOCK + 5])
