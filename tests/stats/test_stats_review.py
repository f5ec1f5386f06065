"""Regression tests from the review of the statistical core."""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import pytest

from leaderboard import (
    EvalRun,
    UsageError,
    aggregate,
    bootstrap_mean_ci,
    bootstrap_pairwise_diff,
    build_report,
    pairwise_diffs,
)
from leaderboard.stats.bootstrap import (
    Replicates,
    percentile_intervals,
    rank_bounds,
    stratified_replicates,
)
from leaderboard.stats.design import FloatArray


def test_repeated_samples__record_order_changes_no_bit() -> None:
    # Three or more samples of an item: their float sum depends on the order of the
    # terms unless the engine fixes it; the contract says order changes no number.
    rng = np.random.default_rng(2)
    runs = [
        EvalRun(m, f"t{t}", float(rng.random()), item_id=i, sample=s)
        for m in ("a", "b")
        for t in range(3)
        for i in range(5)
        for s in range(7)
    ]
    first = build_report(runs, resamples=100).model_dump(mode="json")
    for k in range(5):
        shuffled = list(runs)
        random.Random(k).shuffle(shuffled)
        assert build_report(shuffled, resamples=100).model_dump(mode="json") == first


def test_one_shared_task__no_significance_and_no_regression() -> None:
    # One task: no variance can be estimated, so a difference is not evidence; the
    # zero-width interval used to call it significant and trip the gate (exit 1).
    runs = [EvalRun("cand", "t", 0.4), EvalRun("base", "t", 0.5)]
    report = build_report(runs, baseline="base", resamples=100)
    (pair,) = report.pairwise
    assert (pair.ci_lo, pair.ci_hi) == (-1.0, 1.0)
    assert not pair.significant
    (comp,) = report.gate.comparisons
    assert comp.diff_mean == pytest.approx(-0.1)
    assert (comp.ci_lo, comp.ci_hi) == (-1.0, 1.0)
    assert not comp.regressed
    assert not report.gate.regressed
    assert comp.status == report.gate.status == "undetermined"  # never a pass
    assert comp.min_detectable_regression is None  # cannot be estimated
    assert comp.note is not None
    assert "item_id" in comp.note


def test_gate_categories_of_one_task__no_category_trips_the_gate() -> None:
    rng = np.random.default_rng(3)
    runs = [
        EvalRun(m, f"t{i}", float(rng.random()), category=f"c{i}")
        for m in ("a", "b")
        for i in range(4)
    ]
    report = build_report(runs, baseline="a", gate_categories=True, resamples=300)
    cats = [c for c in report.gate.comparisons if c.scope.startswith("category:")]
    assert len(cats) == 4
    assert min(c.diff_mean for c in cats) < 0  # a drop that a zero-width interval flags
    for c in cats:
        assert (c.ci_lo, c.ci_hi) == (-1.0, 1.0)
        assert not c.regressed
    assert report.gate.regressed == any(c.regressed for c in report.gate.comparisons)


def test_category_with_several_tasks__interval_still_estimated() -> None:
    runs = [
        EvalRun(m, f"t{i}", s, category="x")
        for m, scores in (("a", [0.1, 0.2, 0.3, 0.2]), ("b", [0.9, 0.8, 0.9, 1.0]))
        for i, s in enumerate(scores)
    ]
    (pair,) = build_report(runs, resamples=500).pairwise
    assert pair.significant
    assert -1.0 < pair.ci_lo < pair.ci_hi < 1.0


@pytest.mark.parametrize("item_level", [False, True])
def test_huge_task_weights__finite_and_exact_ratios(item_level: bool) -> None:
    # Weights are any finite number > 0; sums of weights near 1.8e308 overflowed to inf
    # and turned means and intervals into NaN.
    weights = [1e308, 1e308, 5e307, 1e-300]
    rng = np.random.default_rng(5)
    scores = rng.random((2, 4, 3))
    runs = [
        EvalRun(
            m,
            f"t{t}",
            float(scores[k, t, i]),
            weight=weights[t],
            item_id=i if item_level else None,
        )
        for k, m in enumerate(("a", "b"))
        for t in range(4)
        for i in range(3 if item_level else 1)
    ]
    report = build_report(runs, resamples=200)
    rel = np.array([1.0, 1.0, 0.5, 0.0])  # the weights' ratios
    for row in report.leaderboard:
        task_means = scores[("a", "b").index(row.model_id), :, : 3 if item_level else 1]
        expected = float((rel * task_means.mean(axis=1)).sum() / rel.sum())
        assert row.mean_score == pytest.approx(expected, rel=1e-12)
        assert np.isfinite([row.mean_ci_lo, row.mean_ci_hi]).all()
        assert 0.0 <= row.mean_ci_lo <= row.mean_score <= row.mean_ci_hi <= 1.0
        assert row.units == (12 if item_level else 4)  # the tiny-weight task counts
    for pair in report.pairwise:
        assert np.isfinite([pair.ci_lo, pair.ci_hi]).all()


def test_identical_models__same_rank_interval_whatever_their_names() -> None:
    # A candidate that changes nothing scores exactly like the baseline; tied replicates
    # used to give every tied model its best rank, so "a" showed rank 1 [1, 1] and "c"
    # rank 3 [1, 3] for the same data.
    rng = np.random.default_rng(6)
    scores = rng.random(8)
    runs = [EvalRun(m, f"t{i}", float(s)) for m in "abc" for i, s in enumerate(scores)]
    runs += [EvalRun("low", f"t{i}", float(s) * 0.1) for i, s in enumerate(scores)]
    rows = build_report(runs, resamples=200).leaderboard
    tied = [(r.rank_lo, r.rank_hi) for r in rows if r.model_id != "low"]
    assert tied == [(1, 3)] * 3
    (low,) = (r for r in rows if r.model_id == "low")
    assert (low.rank_lo, low.rank, low.rank_hi) == (4, 4, 4)


def test_rank_bounds__significant_pairs_set_the_ranges() -> None:
    # better[i, j]: j is significantly better than i. 0 beats 2 and 3; 1 beats 3.
    better = np.zeros((4, 4), dtype=bool)
    better[2, 0] = better[3, 0] = better[3, 1] = True
    lo, hi = rank_bounds(better)
    assert lo.tolist() == [1, 1, 2, 3]
    assert hi.tolist() == [2, 3, 4, 4]


def test_rank_bounds__intransitive_ties_still_overlap() -> None:
    # a beats c1 and c2, both beat b, yet a ~ b: b's best rank (3) lay beyond a's
    # worst (2), disjoint ranges for a pair the table cannot tell apart.
    better = np.zeros((4, 4), dtype=bool)  # order: a, b, c1, c2
    better[2, 0] = better[3, 0] = better[1, 2] = better[1, 3] = True
    lo, hi = rank_bounds(better)
    assert lo.tolist() == [1, 2, 2, 2]
    assert hi.tolist() == [2, 4, 3, 3]


def _engine(groups: list[FloatArray], seed: int, resamples: int = 1000) -> Replicates:
    num = np.concatenate(groups)[:, None]
    starts = np.array([0, *np.cumsum([g.size for g in groups])], dtype=np.intp)
    weight = np.full((len(groups), 1), 1.0 / len(groups))
    return stratified_replicates(
        num,
        np.ones_like(num),
        starts,
        np.zeros(1, dtype=np.intp),
        weight,
        resamples=resamples,
        seed=seed,
    )


def test_satterthwaite_df__matches_the_hand_formula() -> None:
    rng = np.random.default_rng(8)
    groups = [rng.normal(0, 1, 4), rng.normal(0, 1, 200), rng.normal(0, 3, 10)]
    rep = _engine(groups, seed=0, resamples=100)
    v = np.array([g.var(ddof=1) / g.size / 9 for g in groups])  # (1/3)^2 var/n
    nu = np.array([g.size - 1 for g in groups])
    hand = v.sum() ** 2 / (v**2 / nu).sum()
    assert rep.design_df[0] == 211
    assert hand < 20  # far below the design df: the small strata dominate
    assert hand * 0.9 <= rep.df[0] <= hand  # rounded down to two significant digits


def test_satterthwaite_df__one_stratum_keeps_n_minus_1() -> None:
    rep = _engine([np.linspace(0, 1, 12)], seed=0, resamples=100)
    assert rep.df[0] == rep.design_df[0] == 11


def test_unequal_task_sizes__coverage_near_nominal() -> None:
    # One task of 4 items beside one of 200, equally weighted: the design df (202)
    # made the interval a z-interval and covered 87% (1,000 runs); the effective df
    # (about 3) cover 95.6%.
    rng = np.random.default_rng(0)
    hits = 0
    runs = 400
    for r in range(runs):
        rep = _engine([rng.normal(0, 1, 4), rng.normal(0, 1, 200)], seed=r)
        lo, hi = percentile_intervals(rep.estimate, rep.replicates, rep.df, 0.05)
        hits += bool(lo[0] <= 0.0 <= hi[0])
    assert hits / runs >= 0.925


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: bootstrap_mean_ci([0.1, 0.2], alpha=0), "`alpha`"),
        (lambda: bootstrap_pairwise_diff([0.1], [0.2], alpha=1.5), "`alpha`"),
        (lambda: bootstrap_mean_ci([0.1, 0.2], b=10), "`b`"),
        (lambda: aggregate([EvalRun("a", "t", 0.5)], alpha=1.5), "`alpha`"),
        (lambda: pairwise_diffs([EvalRun("a", "t", 0.5)], b=2.5), "`b`"),  # type: ignore[arg-type]
    ],
)
def test_lesson_api__errors_name_b_and_alpha(call: Callable[[], object], name: str) -> None:
    # The lesson's parameters are b and alpha; the messages named `resamples` and
    # `confidence` (with confidence = 1 - alpha, a value the caller never gave).
    with pytest.raises(UsageError, match=name):
        call()
