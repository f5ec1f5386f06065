"""The three states' words (CONTRACT.md section 13): what a green line rules out, what
a cannot-tell line does not and how much data would settle it, an improvement beyond
noise; the same numbers in the comment's first line, the status and the log.

Comparisons are hand-made, so each text is checked against words written out here.
"""

from __future__ import annotations

from typing import Any

from leaderboard.render.plain import log_lines, status_description
from leaderboard.render.verdict import verdict
from leaderboard.report import Gate, GateComparison, Report
from leaderboard.stats.verdict import decide
from tests.conftest import with_gate as gated
from tests.render.render_samples import golden_report

NB = "\u00a0"


def comp(**kw: Any) -> GateComparison:
    fields: dict[str, Any] = {
        "candidate": "cand",
        "baseline": "base",
        "scope": "overall",
        "diff_mean": -0.143,
        "ci_lo": -0.403,
        "ci_hi": 0.122,
        "confidence": 0.95,
        "margin": 0.0,
        "regressed": False,
        "min_detectable_regression": 0.328,
        "shared_units": 21,
        "max_drop": 0.05,
    }
    fields.update(kw)
    return GateComparison(**fields)


def report_of(c: GateComparison) -> Report:
    gate = Gate(baseline="base", regressed=c.regressed, family_size=1, comparisons=[c])
    return gated(golden_report(), gate)


def test_cannot_tell__what_is_not_ruled_out_and_how_many_items_would_do_it() -> None:
    c = comp(status="undetermined", units_needed=1100, note="kept for the log")
    report = report_of(c)
    assert report.gate.status == "undetermined"
    v = report.verdict
    assert (v.state, v.ruled_out, v.units_needed, v.unit_kind) == (
        "cannot_tell",
        0.403,
        1100,
        "item",
    )
    assert verdict(report, None, None, "leaderboard") == (
        "🟡 **Cannot tell**: **cand** vs **base**, score -0.143 [-0.403, 0.122]: a drop "
        "as large as 0.403 is not ruled out; about 1,100 items would rule out 0.050. "
        "Not a pass."
    )
    assert status_description(report) == (
        "cannot tell: score -0.143 [-0.403, 0.122] vs base, not a pass: a drop of "
        "0.403 not ruled out, ~1,100 items would rule out 0.050"
    )
    assert len(status_description(report)) <= 140
    (line,) = [x for x in log_lines(report, failing=True) if "verdict:" in x.text]
    assert line.level == "warning"
    assert status_description(report) in line.text


def test_cannot_tell__samples_per_item_named_when_they_alone_would_do_it() -> None:
    c = comp(status="undetermined", units_needed=1100, epochs_needed=9)
    line = verdict(report_of(c), None, None, "leaderboard")
    assert line.endswith(
        "about 1,100 items would rule out 0.050, or about 9 samples per item on the "
        "same items. Not a pass."
    )


def test_cannot_tell__task_level_units_are_named_as_tasks() -> None:
    c = comp(status="undetermined", units_needed=48)
    report = report_of(c)
    report = report.model_copy(update={"verdict": decide(report.gate, "task")})
    assert "about 48 tasks would rule out 0.050" in verdict(report, None, None, "x")


def test_no_regression__says_the_drop_it_rules_out() -> None:
    c = comp(diff_mean=0.004, ci_lo=-0.031, ci_hi=0.039, min_detectable_regression=0.04)
    report = report_of(c)
    assert report.verdict.state == "no_regression"
    assert not report.verdict.improved
    assert verdict(report, None, None, "leaderboard") == (
        "🟢 **No regression**: **cand** vs **base**, score +0.004 [-0.031, 0.039]; a "
        "drop larger than 0.031 is ruled out; this suite detects drops of 0.040 or "
        "more 80% of the time."
    )


def test_an_improvement_beyond_noise_is_said_and_a_large_one_is_worth_a_look() -> None:
    small = report_of(comp(diff_mean=0.04, ci_lo=0.01, ci_hi=0.07))
    assert small.verdict.improved
    line = verdict(small, None, None, "leaderboard")
    assert line.startswith("🟢 **No regression**")
    assert "; any drop is ruled out; an improvement beyond noise;" in line
    assert "worth a look" not in line
    assert status_description(small).endswith(", improved beyond noise, detects 0.328")
    large = report_of(comp(diff_mean=0.25, ci_lo=0.18, ci_hi=0.32))
    line = verdict(large, None, None, "leaderboard")
    assert "an improvement beyond noise, large and sudden enough to be worth a look" in line
    assert large.gate.status == "no_regression"  # never a failure
    assert any("worth a look" in x.text for x in log_lines(large, failing=True))


def test_no_spread__still_said_without_an_interval() -> None:
    c = comp(status="undetermined", ci_lo=-1.0, ci_hi=1.0, note="one shared task")
    assert c.interval is False  # the whole range: no spread was estimated
    report = report_of(c)
    assert report.verdict.ruled_out is None
    assert "score -0.143, no interval (one shared task)" in verdict(
        report, None, None, "leaderboard"
    )
