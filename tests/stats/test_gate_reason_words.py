"""The cannot-tell reason when the two sides share nothing (issue 32: it read "tasks  hold
a single shared item", an empty name and a wrong count)."""

from __future__ import annotations

from leaderboard import EvalRun, build_report
from leaderboard.report import BaselineRun

MAIN = BaselineRun(label="main", source="results")


def _items(prefix: str, n: int = 10) -> list[EvalRun]:
    return [
        EvalRun(model_id="m", task_id="t", score=float(i % 2), item_id=f"{prefix}{i}")
        for i in range(n)
    ]


def test_no_shared_item__the_reason_says_so_and_names_no_empty_task() -> None:
    report = build_report(
        _items("a"), baseline_runs=_items("b"), baseline_run=MAIN, resamples=200
    )
    assert report.verdict is not None
    assert report.verdict.state == "cannot_tell"
    reason = report.verdict.reason or ""
    assert reason.startswith("the two sides share no items")
    assert "tasks  " not in reason
    assert "single shared" not in reason
    assert "compared on the 0 items both runs hold" in " ".join(report.gate.differences)


def test_one_shared_item__singular_words() -> None:
    pr, main = _items("a"), _items("b")
    shared = EvalRun(model_id="m", task_id="u", score=1.0, item_id="x")
    report = build_report(
        [*pr, shared], baseline_runs=[*main, shared], baseline_run=MAIN, resamples=200
    )
    reason = report.verdict.reason or "" if report.verdict else ""
    assert "task u holds a single shared item" in reason
    assert "compared on the 1 item both runs hold" in " ".join(report.gate.differences)
