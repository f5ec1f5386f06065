"""`build_report(baseline_runs=...)`: each model gated against its own baseline-run self.

The smallest form the kept history needs; the two-run work (issue 10a) owns the rest.
"""

from __future__ import annotations

import dataclasses

import pytest

from leaderboard.errors import UsageError
from leaderboard.report import BaselineRun
from leaderboard.stats import build_report
from tests.conftest import make_runs


def _shift(runs: list, model: str, by: float) -> list:
    return [
        dataclasses.replace(r, score=min(max(r.score + by, 0.0), 1.0))
        if r.model_id == model
        else r
        for r in runs
    ]


def test_build_report__baseline_runs__same_ids_paired_with_their_labelled_selves() -> None:
    base = make_runs(models=3, tasks=30)
    pr = _shift(make_runs(models=3, tasks=30), "model-2", -0.2)
    label = BaselineRun(label="main 1a2b3c4", source="history", branch="main")
    report = build_report(pr, baseline_runs=base, baseline_run=label, resamples=1000)
    gate = report.gate
    assert gate.status == "regressed"
    assert gate.baseline == "main 1a2b3c4"
    assert gate.baseline_run == label
    pairs = {(c.candidate, c.baseline): c for c in gate.comparisons}
    assert set(pairs) == {(f"model-{m}", f"model-{m} @ main 1a2b3c4") for m in range(3)}
    assert pairs[("model-2", "model-2 @ main 1a2b3c4")].regressed
    assert pairs[("model-2", "model-2 @ main 1a2b3c4")].diff_mean == pytest.approx(
        -0.2, abs=0.03
    )
    assert not pairs[("model-0", "model-0 @ main 1a2b3c4")].regressed
    assert pairs[("model-0", "model-0 @ main 1a2b3c4")].diff_mean == 0.0  # same records
    assert len(report.leaderboard) == 6  # both runs' rows


def test_build_report__baseline_runs__models_in_one_run_only_are_ungated() -> None:
    base = make_runs(models=2, tasks=10)
    pr = [r for r in make_runs(models=3, tasks=10) if r.model_id != "model-0"]
    report = build_report(pr, baseline_runs=base, resamples=200)
    assert [c.candidate for c in report.gate.comparisons] == ["model-1"]
    # leaderboard ids: a model only in the baseline run is named by its row
    assert report.gate.ungated == ["model-0 @ baseline", "model-2"]
    assert report.gate.baseline == "baseline"


def test_build_report__baseline_and_baseline_runs__refused_naming_both() -> None:
    runs = make_runs(tasks=5)
    with pytest.raises(UsageError, match="`baseline` and `baseline_runs` exclude"):
        build_report(runs, baseline="model-0", baseline_runs=runs, resamples=200)


def test_build_report__status__off_without_gate_no_regression_with_one() -> None:
    runs = make_runs(tasks=10)
    off = build_report(runs, resamples=200).gate
    assert off.status == "off"
    assert off.comparisons == []
    # model-1 vs model-0 on these seeded records: -0.004, interval about [-0.11, 0.12]
    # (covers 0): not a regression, and a drop of 0.05 is not ruled out, so it cannot
    # tell (CONTRACT 13); with max_drop beyond the interval's lower end it passes.
    gated = build_report(runs, baseline="model-0", candidates=["model-1"], resamples=200)
    [c] = gated.gate.comparisons
    assert c.ci_lo < -0.05 < 0.0 < c.ci_hi
    assert c.status == "undetermined"
    assert not c.regressed
    assert gated.gate.status == "undetermined"
    assert not gated.gate.regressed
    wide = build_report(
        runs, baseline="model-0", candidates=["model-1"], resamples=200, max_drop=0.5
    )
    [c] = wide.gate.comparisons
    assert c.status == "no_regression"
    assert wide.gate.status == "no_regression"
    assert not wide.gate.regressed
