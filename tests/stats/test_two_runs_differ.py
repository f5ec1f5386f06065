"""Two runs that differ: renamed models, changed metrics, epochs and item sets.

Records-format cases (CONTRACT.md section 7); the same cases on real Inspect logs are
in tests/cli/test_cli_differ_inspect.py.
"""

from __future__ import annotations

import pytest

from leaderboard import EvalRun, UsageError, build_report
from leaderboard.report import BaselineRun, ModelChange
from leaderboard.stats.two_runs import parse_baseline_map

MAIN = BaselineRun(label="main", source="results")


def _items(
    model: str,
    n: int,
    wrong: set[int] = frozenset(),  # type: ignore[assignment]
    *,
    task: str = "t",
    metric: str | None = None,
    samples: int = 1,
    start: int = 0,
) -> list[EvalRun]:
    return [
        EvalRun(
            model,
            task,
            0.0 if i in wrong else 1.0,
            metric,
            item_id=f"{task}-{i:03d}",
            sample=s if samples > 1 else None,
        )
        for i in range(start, start + n)
        for s in range(samples)
    ]


def test_the_only_model_of_each_run_is_paired_though_its_id_changed() -> None:
    pr = _items("acme/model-v2", 60, wrong=set(range(0, 60, 3)))
    main = _items("acme/model", 60, wrong={1})
    report = build_report(pr, baseline_runs=main, baseline_run=MAIN, resamples=2000)
    gate = report.gate
    assert [(c.candidate, c.baseline) for c in gate.comparisons] == [
        ("acme/model-v2", "acme/model @ main")
    ]
    assert gate.model_changes == [
        ModelChange(
            candidate="acme/model-v2", baseline_model="acme/model", how="only_model"
        )
    ]
    assert gate.status == "regressed"  # a model swap is gated like any change
    assert gate.ungated == []


def test_baseline_map_pairs_a_renamed_model_among_several() -> None:
    pr = _items("a-v2", 40) + _items("b", 40)
    main = _items("a", 40, wrong={3}) + _items("b", 40)
    report = build_report(
        pr,
        baseline_runs=main,
        baseline_run=MAIN,
        baseline_map={"a-v2": "a"},
        resamples=1000,
    )
    gate = report.gate
    assert [(c.candidate, c.baseline) for c in gate.comparisons] == [
        ("a-v2", "a @ main"),
        ("b", "b @ main"),
    ]
    assert [c.how for c in gate.model_changes] == ["baseline_map"]
    assert gate.ungated == []
    # without the map, a-v2 and a are in one run each: not gated
    plain = build_report(pr, baseline_runs=main, baseline_run=MAIN, resamples=1000)
    assert [c.candidate for c in plain.gate.comparisons] == ["b"]
    assert plain.gate.ungated == ["a @ main", "a-v2"]


@pytest.mark.parametrize(
    ("mapping", "message"),
    [
        ({"nosuch": "a"}, r"model 'nosuch' is not in the results.*hold: 'a-v2', 'b'"),
        ({"a-v2": "zz"}, r"model 'zz' is not in the baseline run 'main'.*holds: 'a', 'b'"),
    ],
)
def test_baseline_map_naming_an_absent_id_is_refused_naming_the_ids_present(
    mapping: dict[str, str], message: str
) -> None:
    pr = _items("a-v2", 5) + _items("b", 5)
    main = _items("a", 5) + _items("b", 5)
    with pytest.raises(UsageError, match=message):
        build_report(pr, baseline_runs=main, baseline_run=MAIN, baseline_map=mapping)


def test_parse_baseline_map__pairs_and_refusals() -> None:
    assert parse_baseline_map(["x/new=x/old", " y = z "]) == {"x/new": "x/old", "y": "z"}
    with pytest.raises(UsageError, match=r"expected NEW=OLD.*'justone'"):
        parse_baseline_map(["justone"])
    with pytest.raises(UsageError, match=r"mapped twice"):
        parse_baseline_map(["a=b", "a=c"])


def test_a_task_scored_by_another_metric_is_left_out_with_a_warning() -> None:
    pr = _items("m", 30, task="t", metric="includes") + _items("m", 30, task="u")
    main = _items("m", 30, task="t", metric="match") + _items("m", 30, task="u", wrong={2})
    report = build_report(pr, baseline_runs=main, baseline_run=MAIN, resamples=1000)
    gate = report.gate
    assert gate.left_out_tasks == ["t"]
    (comp,) = gate.comparisons
    assert comp.shared_units == 30  # task u only
    assert comp.diff_mean == pytest.approx(1 / 30)
    said = [w for w in report.warnings if "left out of the comparison" in w]
    assert said == [
        "task 't' is scored by includes in the results and by match in the baseline "
        "run 'main': it is left out of the comparison (a different metric measures "
        "something else)"
    ]


def test_nothing_left_to_compare_is_undetermined_with_a_note() -> None:
    pr = _items("m", 30, metric="includes")
    main = _items("m", 30, metric="match")
    report = build_report(pr, baseline_runs=main, baseline_run=MAIN, resamples=500)
    assert report.gate.status == "undetermined"
    assert not report.gate.regressed
    assert report.gate.note is not None
    assert "every task is scored by another metric" in report.gate.note


def test_different_epochs_are_stated_with_both_counts() -> None:
    pr = _items("m", 20)
    main = _items("m", 20, samples=3)
    report = build_report(pr, baseline_runs=main, baseline_run=MAIN, resamples=500)
    assert (
        "task 't' is run 1 time per item (repeats: Inspect's epochs, promptfoo's "
        "repeat count, the records' sample field) in the results and 3 times in the "
        "baseline run 'main': each item is compared on the mean of its own samples"
        in report.gate.differences
    )


def test_different_item_sets_say_how_many_were_compared_and_blame_no_run() -> None:
    pr = _items("m", 24)  # the pull request adds four items
    main = _items("m", 20)
    report = build_report(pr, baseline_runs=main, baseline_run=MAIN, resamples=500)
    assert report.gate.differences == [
        "m: compared on the 20 items both runs hold; the results hold 24, the baseline "
        "run 'main' 20"
    ]
    assert report.gate.comparisons[0].shared_units == 20
    assert not any("misses" in w for w in report.warnings)  # main is not to blame
    assert all(r.complete and not r.missing_tasks for r in report.leaderboard)
    # a task only one run holds is not the other's to miss either
    both = build_report(
        pr + _items("m", 5, task="extra"),
        baseline_runs=main,
        baseline_run=MAIN,
        resamples=500,
    )
    assert {r.model_id: r.tasks_total for r in both.leaderboard} == {"m": 2, "m @ main": 1}
    assert all(r.complete for r in both.leaderboard)


def test_a_model_missing_items_of_its_own_run_is_still_told() -> None:
    pr = _items("m", 20) + _items("n", 18)
    main = _items("m", 20) + _items("n", 20)
    report = build_report(pr, baseline_runs=main, baseline_run=MAIN, resamples=500)
    assert [w for w in report.warnings if "misses" in w] == [
        "n misses 2 of 20 items its own run holds: its mean covers only what it "
        "completed, and its pairs compare only shared units"
    ]


def test_item_flips_with_epochs_count_each_item_once_on_its_mean() -> None:
    # 3 epochs; items 0-4 pass all epochs on main and none in the PR; items 5-9 pass
    # 2 of 3 on main (pass) and 1 of 3 in the PR (fail); the rest equal.
    main = _items("m", 30, samples=3)
    main = [
        EvalRun(r.model_id, r.task_id, 0.0, item_id=r.item_id, sample=r.sample)
        if r.item_id in {f"t-{i:03d}" for i in range(5, 10)} and r.sample == 0
        else r
        for r in main
    ]
    pr = [
        EvalRun(
            r.model_id,
            r.task_id,
            0.0
            if int(str(r.item_id)[2:]) < 5
            or (int(str(r.item_id)[2:]) < 10 and r.sample != 2)
            else 1.0,
            item_id=r.item_id,
            sample=r.sample,
        )
        for r in _items("m", 30, samples=3)
    ]
    report = build_report(pr, baseline_runs=main, baseline_run=MAIN, resamples=500)
    (comp,) = report.gate.comparisons
    assert comp.flips is not None
    assert (comp.flips.pass_to_fail, comp.flips.fail_to_pass) == (10, 0)
    assert comp.flips.shared_items == 30
    assert "at least 0.5" in comp.flips.rule
    worst = [(w.item_id, w.baseline_score, w.candidate_score) for w in comp.worst_items]
    assert worst[:5] == [(f"t-{i:03d}", 1.0, 0.0) for i in range(5)]
    assert [w[0] for w in worst[5:]] == [f"t-{i:03d}" for i in range(5, 10)]
    assert {w.candidate_samples for w in comp.worst_items} == {3}


def test_worst_items_are_capped_at_ten() -> None:
    pr = _items("m", 40, wrong=set(range(15)))
    main = _items("m", 40)
    report = build_report(pr, baseline_runs=main, baseline_run=MAIN, resamples=500)
    (comp,) = report.gate.comparisons
    assert len(comp.worst_items) == 10
    assert comp.flips is not None
    assert comp.flips.pass_to_fail == 15
