"""`leaderboard.render.verdict`: the first line of the comment, for each gate state.

Reports are hand-made (`tests.render.render_samples.golden_report` with the gate
replaced), so each line is checked against text written out here, not re-derived.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leaderboard.render.verdict import (
    STATUS_MARK,
    baseline_run_text,
    below_text,
    detects_text,
    esc_id,
    named_comparison,
    scope_text,
    settings_line,
    short_sha,
    verdict,
)
from leaderboard.report import BaselineRun, Gate, GateComparison, Report
from tests.conftest import with_gate as gated
from tests.render.render_samples import golden_report

SHA = "`abc1234`"
NB = "\u00a0"  # the no-break space inside an interval


def comp(candidate: str = "cand", **kw: Any) -> GateComparison:
    fields: dict[str, Any] = {
        "candidate": candidate,
        "baseline": "base",
        "scope": "overall",
        "diff_mean": 0.01,
        "ci_lo": -0.02,
        "ci_hi": 0.04,
        "confidence": 0.95,
        "margin": 0.0,
        "regressed": False,
        "min_detectable_regression": 0.05,
        "shared_tasks": 40,
    }
    fields.update(kw)
    return GateComparison(**fields)


def with_gate(**kw: Any) -> Report:
    kw.setdefault("baseline", "base")
    kw.setdefault("regressed", any(c.regressed for c in kw.get("comparisons", [])))
    kw.setdefault("family_size", len(kw.get("comparisons", [])))
    return gated(golden_report(), Gate(**kw))


def first(report: Report, sha: str | None = SHA, run: str | None = None) -> str:
    return verdict(report, sha, run, "leaderboard")


# -- one line per state ----------------------------------------------------------------
def test_verdict__off() -> None:
    report = with_gate(baseline=None)
    assert report.gate.status == "off"
    assert first(report) == (
        "⚪ **No gate** for `abc1234`: no baseline was set, so no model was checked "
        "for a regression."
    )


def test_verdict__no_baseline_run__with_and_without_its_note() -> None:
    bare = with_gate(status="no_baseline_run")
    assert bare.gate.status == "no_baseline_run"
    assert first(bare) == (
        "⚪ **No baseline run** for `abc1234`: nothing is stored for the "
        "base branch yet; no model was checked for a regression."
    )
    noted = with_gate(status="no_baseline_run", note="the history branch `lh` is empty")
    assert first(noted) == (
        "⚪ **No baseline run** for `abc1234`: the history branch `lh` is "
        "empty; no model was checked for a regression."
    )


def test_verdict__regressed__names_the_worst_overall_and_counts_the_others() -> None:
    report = with_gate(
        comparisons=[
            comp("cand-a", diff_mean=0.011, ci_lo=-0.012, ci_hi=0.034, margin=0.01),
            comp(
                "cand-b",
                diff_mean=-0.047,
                ci_lo=-0.071,
                ci_hi=-0.022,
                margin=0.01,
                regressed=True,
                min_detectable_regression=0.033,
            ),
            comp(
                "cand-c",
                diff_mean=-0.03,
                ci_lo=-0.05,
                ci_hi=-0.015,
                margin=0.01,
                regressed=True,
            ),
        ]
    )
    assert report.gate.status == "regressed"
    assert first(report) == (
        "🔴 **Regression** for `abc1234`: **cand-b** vs **base**, score -0.047 "
        "[-0.071, -0.022], wholly below -0.010 (and 1 more regressed); this suite detects "
        "drops of 0.033 or more 80% of the time."
    )


def test_verdict__regressed_without_margin__below_0_and_no_count() -> None:
    report = with_gate(
        comparisons=[
            comp(diff_mean=-0.1, ci_lo=-0.2, ci_hi=-0.01, regressed=True),
        ]
    )
    assert first(report, sha=None) == (
        "🔴 **Regression**: **cand** vs **base**, score -0.100 [-0.200, -0.010], wholly "
        "below 0; this suite detects drops of 0.050 or more 80% of the time."
    )


def test_verdict__undetermined_comparison__no_interval_its_note_and_not_a_pass() -> None:
    report = with_gate(
        comparisons=[
            comp("fine", diff_mean=0.02, ci_lo=0.0, ci_hi=0.04),
            comp(
                "odd",
                diff_mean=-0.01,
                status="undetermined",
                note="one task holds a single unit",
                min_detectable_regression=None,
                interval=False,
            ),
        ]
    )
    assert report.gate.status == "undetermined"
    assert first(report) == (
        "🟡 **Cannot tell** for `abc1234`: **odd** vs **base**, score -0.010, no interval "
        "(one task holds a single unit); the smallest drop it detects cannot be "
        "estimated. Not a pass."
    )


def test_verdict__undetermined_without_any_comparison__its_note_and_not_a_pass() -> None:
    report = with_gate(status="undetermined", note="no model id is in both runs")
    assert first(report) == (
        "🟡 **Cannot tell** for `abc1234`: no model id is in both runs; no model was "
        "gated. Not a pass."
    )
    silent = with_gate(status="undetermined")
    assert first(silent, sha=None) == (
        "🟡 **Cannot tell**: no comparison could be made; no model was gated. Not a pass."
    )


def test_verdict__no_regression__the_lowest_lower_bound_of_n() -> None:
    report = with_gate(
        comparisons=[
            comp("high", diff_mean=0.05, ci_lo=0.01, ci_hi=0.09),
            comp(
                "low", diff_mean=0.0, ci_lo=-0.03, ci_hi=0.03, min_detectable_regression=2
            ),
        ]
    )
    assert report.gate.status == "no_regression"
    assert first(report, run="https://github.com/o/r/actions/runs/1") == (
        "🟢 **No regression** for `abc1234`: **low** vs **base**, score +0.000 "
        "[-0.030, 0.030] (and 1 more with no regression); a drop larger than 0.030 is "
        "ruled out; the smallest drop it detects cannot "
        "be estimated. ([workflow run](https://github.com/o/r/actions/runs/1))"
    )


def test_verdict__no_regression_with_nothing_compared__names_the_baseline() -> None:
    report = with_gate(comparisons=[])
    assert report.gate.status == "no_regression"
    assert first(report) == (
        "🟢 **No regression** for `abc1234`: no candidate was compared against **base**."
    )


def test_verdict__a_named_leaderboard_leads_with_its_header() -> None:
    report = with_gate(baseline=None)
    line = verdict(report, SHA, None, "safety evals")
    assert line.startswith("**safety evals** · ⚪ **No gate** for `abc1234`: ")


@pytest.mark.parametrize(
    ("status", "mark", "word"),
    [
        ("off", "⚪", "**No gate**"),
        ("no_baseline_run", "⚪", "**No baseline run**"),
        ("regressed", "🔴", "**Regression**"),
        ("undetermined", "🟡", "**Cannot tell**"),
        ("no_regression", "🟢", "**No regression**"),
    ],
)
def test_verdict__each_state_its_mark_and_its_words(
    status: str, mark: str, word: str
) -> None:
    kw: dict[str, Any] = {"status": status}
    if status == "off":
        kw["baseline"] = None
    if status == "regressed":
        kw["comparisons"] = [comp(ci_hi=-0.01, regressed=True)]
    if status == "no_regression":
        kw["comparisons"] = [comp()]
    report = with_gate(**kw)
    assert report.gate.status == status
    assert STATUS_MARK[status] == mark
    assert first(report).startswith(f"{mark} {word}")


# -- the parts -------------------------------------------------------------------------
def headline(report: Report) -> GateComparison | None:
    """The comparison the report's verdict names."""
    return named_comparison(report)


def test_headline__regressed_overall_first_then_undetermined_then_lowest() -> None:
    cat = comp("c", scope="category:math", ci_hi=-0.5, regressed=True)
    worst = comp("b", ci_hi=-0.02, regressed=True)
    other = comp("a", ci_hi=-0.3, regressed=True)
    report = with_gate(comparisons=[cat, worst, other])
    assert headline(report) == other  # overall before category, then the lowest hi
    unsure = comp("u", status="undetermined")
    report = with_gate(comparisons=[comp("x", ci_lo=-0.5), unsure])
    assert headline(report) == unsure
    report = with_gate(comparisons=[comp("x", ci_lo=-0.1), comp("y", ci_lo=-0.2)])
    assert headline(report).candidate == "y"  # type: ignore[union-attr]
    assert headline(with_gate(comparisons=[])) is None


@pytest.mark.parametrize(
    ("mdr", "text"),
    [
        (0.033, "this suite detects drops of 0.033 or more 80% of the time"),
        (None, "the smallest drop it detects cannot be estimated"),
        (float("inf"), "the smallest drop it detects cannot be estimated"),
        (1.0, "the smallest drop it detects cannot be estimated"),
    ],
)
def test_detects_text(mdr: float | None, text: str) -> None:
    assert detects_text(mdr) == text


def test_below_text__0_or_minus_the_margin() -> None:
    assert below_text(0.0) == "0"
    assert below_text(0.02) == "-0.020"


def test_short_sha__seven_hex_digits_in_code_other_text_escaped() -> None:
    assert short_sha("0123456789abcdef0123456789abcdef01234567") == "`0123456`"
    assert short_sha(None) is None
    assert short_sha("") is None
    assert short_sha("v1.*x*") == "v1.\\*x\\*"


def test_esc_id__blank_and_padded_ids_stay_visible() -> None:
    assert esc_id("   ") == "(blank id)"
    assert esc_id(" m ") == "\N{OPEN BOX}m\N{OPEN BOX}"
    assert esc_id("*m*") == "\\*m\\*"


def test_scope_text() -> None:
    assert scope_text("overall") == "overall"
    assert scope_text("category:math") == "category math"
    assert scope_text("task:mmlu/bio_logy") == "task mmlu/bio\\_logy"


def test_baseline_run_text__a_stored_run_named_with_its_distance() -> None:
    run = BaselineRun(
        label="main",
        source="history",
        branch="main",
        commit="0123456789abcdef0123456789abcdef01234567",
        stored_at="2026-11-29T13:00:00Z",
        commits_behind=2,
    )
    gate = Gate(baseline="main", regressed=False, baseline_run=run)
    assert baseline_run_text(gate) == (
        " Baseline: the run stored for `0123456`, on `main`, 2 commits behind the base, "
        "stored 2026-11-29 13:00:00 UTC."
    )
    same = run.model_copy(update={"commits_behind": 0, "stored_at": None})
    assert baseline_run_text(gate.model_copy(update={"baseline_run": same})) == (
        " Baseline: the run stored for `0123456`, on `main`, the base commit itself."
    )
    results = run.model_copy(update={"source": "results"})
    assert baseline_run_text(gate.model_copy(update={"baseline_run": results})) == ""


def test_settings_line() -> None:
    assert settings_line(golden_report()) == (
        "95% intervals · 10,000 resamples · seed 0 · margin 0.010 · "
        "method: percentile bootstrap · unit: task"
    )


# -- property --------------------------------------------------------------------------
@settings(max_examples=100, deadline=None)
@given(
    candidate=st.text(max_size=120),
    note=st.text(max_size=400),
    status=st.sampled_from(["regressed", "undetermined", "no_regression"]),
)
def test_verdict__always_one_line_whatever_the_ids_and_notes(
    candidate: str, note: str, status: str
) -> None:
    c = comp(
        candidate,
        status=status,
        regressed=status == "regressed",
        ci_hi=-0.01 if status == "regressed" else 0.04,
        note=note or None,
    )
    report = with_gate(comparisons=[c], note=note or None)
    line = first(report)
    assert "\n" not in line
    assert "\r" not in line
    assert line.startswith(STATUS_MARK[status])
