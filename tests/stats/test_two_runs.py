"""Two runs of the same model ids: each model gated against its own baseline-run row."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from leaderboard import EvalRun, InputError, UsageError, build_report
from leaderboard.report import BaselineRun
from tests.stats.simulate import B, item_level_runs, rate

MODELS = ("org/model-a", "org/model-b")


def _items(rng: np.random.Generator, p: np.ndarray, models: tuple[str, ...]) -> list:
    """One run: each model answers each item correctly with probability ``p[item]``."""
    scores = (rng.random((len(models), p.size)) < p).astype(float)
    return item_level_runs(scores, models)


def _tasks(models: tuple[str, ...], tasks: range, score: float) -> list[EvalRun]:
    return [
        EvalRun(m, f"t{t}", score + 0.01 * t + 0.001 * j)
        for j, m in enumerate(models)
        for t in tasks
    ]


def test_build_report__two_runs_pair_each_model_with_its_own_baseline_row() -> None:
    rng = np.random.default_rng(1)
    p = rng.uniform(0.3, 0.9, 200)
    pr, main = _items(rng, p, MODELS), _items(rng, p, MODELS)
    report = build_report(
        pr, baseline_runs=main, baseline_run=BaselineRun(label="main", source="results")
    )
    gate = report.gate
    assert [(c.candidate, c.baseline) for c in gate.comparisons] == [
        ("org/model-a", "org/model-a @ main"),
        ("org/model-b", "org/model-b @ main"),
    ]
    assert {r.model_id for r in report.leaderboard} == {
        *MODELS,
        "org/model-a @ main",
        "org/model-b @ main",
    }
    assert gate.baseline == "main"  # the run's label
    assert gate.baseline_run == BaselineRun(label="main", source="results")
    assert gate.ungated == []
    assert report.settings.baseline_label == "main"
    assert report.settings.candidates == list(MODELS)
    assert all(c.shared_units == 200 for c in gate.comparisons)
    # each comparison is the plain paired difference of the two runs' item means
    for c in gate.comparisons:
        own = np.mean([r.score for r in pr if r.model_id == c.candidate])
        base = np.mean([r.score for r in main if r.model_id == c.candidate])
        assert c.diff_mean == pytest.approx(own - base, abs=1e-12)


def test_build_report__two_runs_equal_the_single_run_gate_on_renamed_records() -> None:
    rng = np.random.default_rng(2)
    p = rng.uniform(0.2, 0.8, 120)
    pr, main = _items(rng, p, MODELS[:1]), _items(rng, p, MODELS[:1])
    two = build_report(pr, baseline_runs=main, resamples=2000, seed=5)
    renamed = [dataclasses.replace(r, model_id=r.model_id + " @ baseline") for r in main]
    one = build_report(
        pr + renamed, baseline="org/model-a @ baseline", resamples=2000, seed=5
    )
    assert two.gate.comparisons == one.gate.comparisons
    assert two.leaderboard == one.leaderboard
    assert two.gate.baseline_run == BaselineRun(label="baseline", source="results")


def test_build_report__two_runs_without_a_true_change_rarely_regress() -> None:
    # Both runs draw every item from the same probabilities: any regression is a false
    # alarm. The one-sided rate of a 95% interval is 2.5%; 300 simulations.
    p = np.random.default_rng(3).uniform(0.2, 0.9, 150)

    def alarm(rng: np.random.Generator) -> bool:
        pr, main = _items(rng, p, MODELS[:1]), _items(rng, p, MODELS[:1])
        seed = int(rng.integers(2**31))
        return build_report(pr, baseline_runs=main, resamples=B, seed=seed).gate.regressed

    hits, se = rate(alarm, 300, seed=11)
    assert hits <= 0.025 + 3 * max(se, 0.009)


def test_build_report__two_runs_catch_a_planted_drop() -> None:
    rng = np.random.default_rng(4)
    p = rng.uniform(0.4, 0.9, 400)
    main = _items(rng, p, MODELS)
    dropped = np.where(np.arange(400) < 80, 0.0, p)  # model-b loses 80 items (~-0.13)
    pr = _items(rng, p, MODELS[:1]) + _items(rng, dropped, MODELS[1:])
    report = build_report(pr, baseline_runs=main, resamples=2000)
    by = {c.candidate: c for c in report.gate.comparisons}
    assert by["org/model-b"].regressed
    assert by["org/model-b"].ci_hi < 0
    assert not by["org/model-a"].regressed
    assert report.gate.regressed
    assert report.gate.status == "regressed"
    assert report.gate.family_size == 2
    assert report.gate.adjustment == "max-t"


def test_build_report__two_runs_pair_on_the_tasks_both_hold() -> None:
    pr = _tasks(MODELS[:1], range(2, 8), 0.5)  # tasks t2..t7
    main = _tasks(MODELS[:1], range(0, 5), 0.4)  # tasks t0..t4
    report = build_report(pr, baseline_runs=main, resamples=500)
    (c,) = report.gate.comparisons
    assert c.shared_tasks == 3  # t2, t3, t4
    assert c.diff_mean == pytest.approx(0.1, abs=1e-12)
    rows = {r.model_id: r for r in report.leaderboard}
    assert rows["org/model-a"].tasks_completed == 6
    assert rows["org/model-a @ baseline"].tasks_completed == 5


def test_build_report__models_in_one_run_only_are_shown_and_listed_as_ungated() -> None:
    pr = _tasks(("m1", "m2"), range(5), 0.5)
    main = _tasks(("m1", "m3"), range(5), 0.5)
    report = build_report(pr, baseline_runs=main, resamples=500)
    assert [c.candidate for c in report.gate.comparisons] == ["m1"]
    assert report.gate.ungated == ["m2", "m3 @ baseline"]
    assert {r.model_id for r in report.leaderboard} == {
        "m1",
        "m2",
        "m1 @ baseline",
        "m3 @ baseline",
    }


def test_build_report__candidates_narrow_the_two_run_gate() -> None:
    pr = _tasks(("m1", "m2", "m3"), range(5), 0.5)
    main = _tasks(("m1", "m2", "m3"), range(5), 0.5)
    report = build_report(pr, baseline_runs=main, candidates=["m2"], resamples=500)
    assert [(c.candidate, c.baseline) for c in report.gate.comparisons] == [
        ("m2", "m2 @ baseline")
    ]
    assert report.settings.candidates == ["m2"]
    assert report.gate.ungated == []


def test_build_report__a_candidate_missing_from_one_run_is_refused() -> None:
    pr = _tasks(("m1", "m2"), range(5), 0.5)
    main = _tasks(("m1",), range(5), 0.5)
    with pytest.raises(UsageError, match=r"'m2' is not in the baseline run 'b.*'m1'"):
        build_report(pr, baseline_runs=main, candidates=["m2"])
    with pytest.raises(UsageError, match=r"'m9' is not in the results"):
        build_report(pr, baseline_runs=main, candidates=["m9"])


def test_build_report__baseline_with_baseline_runs_is_refused_naming_which_to_use() -> None:
    runs = _tasks(("m1", "m2"), range(5), 0.5)
    with pytest.raises(UsageError, match=r"`baseline` and `baseline_runs` exclude"):
        build_report(runs, baseline="m1", baseline_runs=runs)
    with pytest.raises(UsageError, match=r"give the baseline run's records"):
        build_report(runs, baseline_run=BaselineRun(label="main", source="results"))


def test_build_report__a_model_id_equal_to_a_renamed_baseline_id_is_refused() -> None:
    pr = _tasks(("m1", "m1 @ main"), range(5), 0.5)
    main = _tasks(("m1",), range(5), 0.5)
    label = BaselineRun(label="main", source="results")
    with pytest.raises(UsageError, match=r"'m1 @ main' of the results.*another baseline"):
        build_report(pr, baseline_runs=main, baseline_run=label)
    # another label resolves it
    other = BaselineRun(label="main 1a2b3c4", source="results")
    ok = build_report(pr, baseline_runs=main, baseline_run=other, resamples=200)
    assert [c.baseline for c in ok.gate.comparisons] == ["m1 @ main 1a2b3c4"]


def test_build_report__no_shared_model_leaves_the_gate_undetermined_not_passed() -> None:
    # two models a run, none in both (one model a run is paired: a renamed model)
    pr = _tasks(("m1", "m3"), range(5), 0.5)
    main = _tasks(("m2", "m4"), range(5), 0.5)
    report = build_report(pr, baseline_runs=main, resamples=200)
    gate = report.gate
    assert gate.status == "undetermined"
    assert not gate.regressed
    assert gate.comparisons == []
    assert gate.note is not None
    assert "no model id is in both runs" in gate.note
    assert gate.ungated == ["m1", "m2 @ baseline", "m3", "m4 @ baseline"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"category": "code"}, r"task 't1' has category 'general' in the results and "),
        ({"weight": 2.0}, r"task 't1' has weight 1.0 in the results and 2.0"),
    ],
)
def test_build_report__runs_disagreeing_on_a_task_are_refused(
    change: dict[str, object], message: str
) -> None:
    pr = _tasks(("m1",), range(3), 0.5)
    main = [dataclasses.replace(r, **change) if r.task_id == "t1" else r for r in pr]
    with pytest.raises(InputError, match=message):
        build_report(pr, baseline_runs=main)


def test_build_report__item_level_run_against_task_level_baseline_is_refused() -> None:
    pr = item_level_runs(np.ones((1, 5)), ("m1",))
    main = [EvalRun("m1", "task", 1.0)]
    with pytest.raises(InputError, match=r"item-level .* baseline run 'baseline' is task"):
        build_report(pr, baseline_runs=main)


@pytest.mark.parametrize("label", ["", "  ", " main", "a\nb", "x" * 101])
def test_build_report__a_label_that_cannot_name_a_run_is_refused(label: str) -> None:
    runs = _tasks(("m1",), range(3), 0.5)
    with pytest.raises(UsageError, match="label"):
        build_report(
            runs,
            baseline_runs=runs,
            baseline_run=BaselineRun(label=label, source="results"),
        )


def test_build_report__two_run_json_report_has_the_documented_shape() -> None:
    pr = _tasks(("openai/gpt-4o-mini", "only-pr"), range(4), 0.6)
    main = _tasks(("openai/gpt-4o-mini",), range(4), 0.5)
    run = BaselineRun(
        label="main 1a2b3c4", source="results", branch="main", commit="1a2b3c4" * 5
    )
    data = build_report(pr, baseline_runs=main, baseline_run=run, resamples=200).model_dump(
        mode="json"
    )
    (comp,) = data["gate"]["comparisons"]
    assert comp["candidate"] == "openai/gpt-4o-mini"
    assert "openai/gpt-4o-mini" in comp["baseline"]
    assert "main 1a2b3c4" in comp["baseline"]
    assert comp["baseline"] != comp["candidate"]
    assert data["gate"]["baseline"] == "main 1a2b3c4"
    # four tasks rule out no drop whatever their scores (issue 28: the betting
    # interval below 30 tasks), so the two-run gate honestly cannot tell
    assert data["gate"]["status"] == "undetermined"
    assert data["verdict"]["state"] == "cannot_tell"
    assert data["gate"]["ungated"] == ["only-pr"]
    assert data["gate"]["baseline_run"] == {
        "label": "main 1a2b3c4",
        "source": "results",
        "branch": "main",
        "commit": "1a2b3c4" * 5,
        "stored_at": None,
        "commits_behind": None,
        "trend": [],  # a run given as results has no kept history to draw
    }
    assert data["settings"]["baseline_label"] == "main 1a2b3c4"
    assert data["settings"]["baseline"] is None


def test_build_report__single_run_gate_status_follows_the_verdict() -> None:
    runs = _tasks(("m1", "m2"), range(5), 0.5)
    assert build_report(runs, resamples=200).gate.status == "off"
    gated = build_report(runs, baseline="m1", resamples=200)
    assert gated.gate.status == "undetermined"  # five tasks rule out no drop
    assert gated.verdict.state == "cannot_tell"
    assert gated.gate.baseline_run is None
    assert gated.settings.baseline_label is None
