"""build_report and the lesson API: validation, layout and the report's semantics."""

from __future__ import annotations

import numpy as np
import pytest

from leaderboard import (
    EvalRun,
    InputError,
    UsageError,
    aggregate,
    bootstrap_mean_ci,
    bootstrap_pairwise_diff,
    build_report,
    pairwise_diffs,
)
from tests.conftest import make_runs


def _runs(table: dict[str, list[float]], **kw: object) -> list[EvalRun]:
    return [
        EvalRun(m, f"t{t}", s, **kw)  # type: ignore[arg-type]
        for m, scores in table.items()
        for t, s in enumerate(scores)
    ]


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"confidence": 1.0}, "`confidence`"),
        ({"confidence": 0}, "`confidence`"),
        ({"resamples": 10}, "`resamples` must be at least 100"),
        ({"resamples": 1000.5}, "`resamples` must be an integer"),
        ({"seed": -1}, "`seed`"),
        ({"margin": -0.1}, "`margin`"),
        ({"margin": float("nan")}, "`margin`"),
        ({"baseline": "nope"}, "`baseline` 'nope' is not in the data; models: model-0"),
        ({"baseline": "model-0", "candidates": ["x"]}, "candidate 'x' is not in the data"),
        ({"baseline": "model-0", "candidates": ["model-0"]}, "is the baseline"),
        ({"candidates": ["model-1"]}, "need a `baseline`"),
    ],
)
def test_build_report__rejects_bad_settings(kwargs: dict[str, object], match: str) -> None:
    with pytest.raises(UsageError, match=match):
        build_report(make_runs(3, 5), **kwargs)  # type: ignore[arg-type]


def test_build_report__rejects_duplicates_naming_the_record() -> None:
    runs = [*make_runs(2, 3), EvalRun("model-1", "task-02", 0.5)]
    with pytest.raises(InputError, match=r"record 7.*second record.*'model-1'.*task-02"):
        build_report(runs)


def test_build_report__rejects_mixed_item_and_task_level() -> None:
    runs = [EvalRun("a", "t", 1.0, item_id=1), EvalRun("a", "u", 0.5)]
    with pytest.raises(InputError, match=r"record 2.*item_id"):
        build_report(runs)


def test_build_report__rejects_inconsistent_task_weight_and_item_cluster() -> None:
    with pytest.raises(InputError, match="field `weight`"):
        build_report([EvalRun("a", "t", 1.0, weight=2), EvalRun("b", "t", 1.0)])
    runs = [
        EvalRun("a", "t", 1.0, item_id=1, cluster="x"),
        EvalRun("b", "t", 0.0, item_id=1),
    ]
    with pytest.raises(InputError, match="field `cluster`"):
        build_report(runs)


def test_build_report__rejects_no_records() -> None:
    with pytest.raises(InputError, match="no records"):
        build_report([])


def test_leaderboard__means_weights_ranks_and_win_rate() -> None:
    runs = _runs({"a": [1.0, 0.0, 0.5], "b": [1.0, 0.2, 0.2], "c": [0.0, 0.1, 0.0]})
    rows = build_report(runs, resamples=200).leaderboard
    assert [r.model_id for r in rows] == ["a", "b", "c"]
    assert [r.rank for r in rows] == [1, 2, 3]
    assert rows[0].mean_score == pytest.approx(0.5)
    # a ties b on t0 (a full win for both), wins t2; b wins t0 and t1
    assert rows[0].win_rate == pytest.approx(2 / 3)
    assert rows[1].win_rate == pytest.approx(2 / 3)
    assert rows[2].win_rate == 0.0
    for r in rows:
        assert r.rank_lo <= r.rank <= r.rank_hi
        assert r.mean_ci_lo <= r.mean_score <= r.mean_ci_hi


def test_leaderboard__task_weights() -> None:
    runs = [EvalRun("a", "t0", 1.0, weight=3.0), EvalRun("a", "t1", 0.0)]
    assert build_report(runs, resamples=100).leaderboard[0].mean_score == pytest.approx(
        0.75
    )


def test_leaderboard__item_level_means_average_samples_first() -> None:
    runs = [
        EvalRun("a", "t", 1.0, item_id=1, sample=0),
        EvalRun("a", "t", 1.0, item_id=1, sample=1),
        EvalRun("a", "t", 1.0, item_id=1, sample=2),
        EvalRun("a", "t", 0.0, item_id=2),
        EvalRun("a", "u", 0.5, item_id=1),
    ]
    report = build_report(runs, resamples=100)
    # task t = mean(1, 0) = 0.5 (not 3/4: samples are averaged first); task u = 0.5
    assert report.leaderboard[0].mean_score == pytest.approx(0.5)
    assert report.data.samples_per_item_max == 3
    assert report.settings.unit == "item"


def test_incomplete_model__flagged_and_compared_on_shared_units() -> None:
    runs = _runs({"a": [0.9, 0.8, 0.7, 0.2], "b": [0.8, 0.7, 0.6, 0.9]})
    runs = [r for r in runs if not (r.model_id == "b" and r.task_id == "t3")]
    report = build_report(runs, resamples=500)
    row_b = next(r for r in report.leaderboard if r.model_id == "b")
    assert not row_b.complete
    assert row_b.missing_tasks == ["t3"]
    assert row_b.tasks_completed == 3
    assert row_b.mean_score == pytest.approx(0.7)
    (pair,) = report.pairwise
    assert (pair.model_a, pair.model_b) == ("b", "a")  # b ranks first on its own tasks
    assert pair.diff_mean == pytest.approx(-0.1)  # on t0..t2 only
    assert pair.shared_tasks == 3
    assert any("b misses 1 of 4 tasks" in w for w in report.warnings)


def test_gate__max_t_family_and_verdict_agree_with_interval() -> None:
    runs = make_runs(4, 40, categories=3, seed=3)
    report = build_report(
        runs, baseline="model-3", resamples=2000, gate_categories=True, margin=0.01
    )
    gate = report.gate
    assert gate.family_size == 3 * 4
    assert gate.adjustment == "max-t"
    each = {c.confidence for c in gate.comparisons}
    assert len(each) == 1  # one level for the whole family
    # correlated comparisons (categories within the overall mean, one baseline):
    # less strict than Bonferroni, never less strict than one interval on its own
    assert 0.95 < each.pop() < 1 - 0.05 / 12
    for c in gate.comparisons:
        assert c.regressed == (c.ci_hi < -0.01)
        mdr = c.min_detectable_regression
        if c.scope == "overall":  # 40 tasks: the t-interval, a drop it detects
            assert mdr is not None
            assert mdr > 0.01
        else:  # about 13 tasks a category: the betting interval (issue 28), which
            # may detect no drop within the score range at all
            assert mdr is None or mdr > 0.01
    assert gate.regressed  # model-0 is 0.15 below model-3 on 40 tasks
    assert gate.regressed == any(c.regressed for c in gate.comparisons)


def test_gate__no_baseline_no_gate() -> None:
    gate = build_report(make_runs(2, 5), resamples=100).gate
    assert gate.baseline is None
    assert not gate.regressed
    assert gate.comparisons == []


@pytest.mark.parametrize(
    "runs",
    [
        [EvalRun("a", "t", 0.4)],
        [EvalRun("a", "t", 0.4), EvalRun("b", "t", 0.4)],
        _runs({"a": [0.5] * 6, "b": [0.5] * 6}),
        [EvalRun("a", "t", 1.0, item_id=1), EvalRun("a", "u", 0.0, item_id=1)],
    ],
    ids=["one model one task", "two models one task", "all equal", "one item per task"],
)
def test_degenerate_inputs__no_zero_width_intervals(runs: list[EvalRun]) -> None:
    # These used to give [x, x]: an interval claiming the mean is exactly known from
    # one task, or from scores that happen to agree (issue 11, point 3).
    report = build_report(runs, baseline=None, resamples=100)
    for row in report.leaderboard:
        assert row.mean_ci_lo <= row.mean_score <= row.mean_ci_hi
        assert row.mean_ci_hi - row.mean_ci_lo > 0.3
        if report.data.tasks == 1:
            assert (row.mean_ci_lo, row.mean_ci_hi) == (0.0, 1.0)  # nothing to go on
    for pair in report.pairwise:
        assert not pair.significant


def test_lesson_api__shapes_and_agreement_with_report() -> None:
    runs = make_runs(3, 8)
    rows = aggregate(runs, b=300, alpha=0.1, seed=1)
    report = build_report(runs, confidence=0.9, resamples=300, seed=1)
    assert rows == report.leaderboard
    assert pairwise_diffs(runs, b=300, alpha=0.1, seed=1) == report.pairwise
    lo, hi = bootstrap_mean_ci([0.1, 0.5, 0.9, 0.3, 0.7])
    assert lo < 0.5 < hi
    diff, lo, hi = bootstrap_pairwise_diff([1, 0, 1, 1], [0, 0, 1, 0])
    assert diff == pytest.approx(0.5)
    assert lo <= diff <= hi
    with pytest.raises(UsageError, match="same length"):
        bootstrap_pairwise_diff([1, 0], [1])
    with pytest.raises(UsageError, match="at least one"):
        bootstrap_mean_ci([])


def test_report__json_shape() -> None:
    data = build_report(make_runs(2, 4), baseline="model-0", resamples=100).model_dump(
        mode="json"
    )
    assert data["schema_version"] == 1
    assert data["settings"]["method"] == "rescaled t-scaled percentile bootstrap"
    assert data["generator"].startswith("leaderboard-action ")
    assert {"rank", "model_id", "mean_score", "mean_ci_lo", "mean_ci_hi"} <= set(
        data["leaderboard"][0]
    )
    assert np.isfinite([r["mean_score"] for r in data["leaderboard"]]).all()


def test_build_report__rejects_inconsistent_category_and_mixed_samples() -> None:
    with pytest.raises(InputError, match="field `category`"):
        build_report([EvalRun("a", "t", 1.0, category="x"), EvalRun("b", "t", 1.0)])
    runs = [
        EvalRun("a", "t", 1.0, item_id=1, sample=0),
        EvalRun("a", "t", 0.0, item_id=1),
    ]
    with pytest.raises(InputError, match="field `sample`"):
        build_report(runs)
    with pytest.raises(InputError, match="second record"):
        build_report([EvalRun("a", "t", 1.0, item_id=1), EvalRun("a", "t", 0.0, item_id=1)])


def test_categories__item_level_means_and_gate_scopes() -> None:
    rng = np.random.default_rng(4)
    runs = []
    expected: dict[tuple[str, str], list[float]] = {}
    for m in ("a", "b"):
        for t in range(6):
            cat = "math" if t < 2 else "code"
            scores = (rng.random(15) < 0.5 + 0.1 * t).astype(float)
            expected.setdefault((m, cat), []).append(float(scores.mean()))
            runs += [
                EvalRun(m, f"t{t}", float(s), category=cat, item_id=i)
                for i, s in enumerate(scores)
            ]
    report = build_report(runs, baseline="a", resamples=300, gate_categories=True)
    for row in report.leaderboard:
        assert set(row.categories) == {"code", "math"}
        for cat, value in row.categories.items():
            assert value == pytest.approx(np.mean(expected[(row.model_id, cat)]))
            ci = row.category_intervals[cat]
            assert ci.lo <= value <= ci.hi
    scopes = [c.scope for c in report.gate.comparisons]
    assert scopes == ["overall", "category:code", "category:math"]
    assert report.gate.family_size == 3
    math = report.gate.comparisons[2]
    assert math.shared_tasks == 2
    assert math.shared_units == 30
