"""The verdict in plain text (`leaderboard.render.plain`): the status description, the
log lines and the outputs, from `Report.verdict`."""

from __future__ import annotations

import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from leaderboard.inputs import EvalRun
from leaderboard.render import MAX_DESCRIPTION_CHARS, plain_text, status_description
from leaderboard.render.plain import log_lines, verdict_outputs, verdict_text
from leaderboard.render.verdict import verdict_numbers
from leaderboard.stats import accept, build_report
from tests.conftest import make_runs

_INVISIBLE = {"Cc", "Cf", "Cs", "Cn", "Zl", "Zp"}


def _visible(text: str) -> bool:
    return not any(unicodedata.category(c) in _INVISIBLE for c in text)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_plain_text__one_visible_line_whatever_the_input(text: str) -> None:
    out = plain_text(text)
    assert _visible(out)
    assert "\n" not in out
    assert "  " not in out
    assert out == out.strip()


def _renamed(model: str) -> list[EvalRun]:
    runs = make_runs(tasks=40)
    return [
        EvalRun(model if r.model_id == "model-0" else r.model_id, r.task_id, r.score)
        for r in runs
    ]


_REGRESSED = build_report(make_runs(tasks=40), baseline="model-2", resamples=300)


@settings(max_examples=40, deadline=None)
@given(st.text(min_size=1, max_size=400).filter(lambda s: s.strip() != ""))
def test_status_description__fits_and_shows_no_format_control(model: str) -> None:
    """Any id the statistics accept: at most 140 characters, nothing invisible."""
    try:
        report = build_report(_renamed(model), baseline="model-2", resamples=200)
    except Exception:
        return
    text = status_description(report)
    assert len(text) <= MAX_DESCRIPTION_CHARS
    assert _visible(text)


def test_status_description__the_first_lines_numbers_and_measure() -> None:
    v = _REGRESSED.verdict
    text = status_description(_REGRESSED)
    assert text.startswith("regressed: model-0 score ")
    assert verdict_numbers(v) in text
    assert f"(and {v.others} more)" in text if v.others else "more)" not in text


def test_log_lines__the_verdict_line_is_the_status_and_levels_are_percent() -> None:
    lines = log_lines(_REGRESSED, failing=True, notes={"regressed": " (note)"})
    (verdict,) = [x for x in lines if x.text.startswith("verdict: ")]
    assert verdict.text == f"verdict: {verdict_text(_REGRESSED)} (note)"
    assert (verdict.level, verdict.title) == ("error", "leaderboard: regression")
    gates = [x for x in lines if " - " in x.text and ", score: " in x.text]
    assert len(gates) == len(_REGRESSED.gate.comparisons)
    for line in gates:
        assert "0.9" not in line.text.split(" at ")[1][:4]  # "97.5%", not 0.975
        assert "% " in line.text or "%," in line.text
    advisory = log_lines(_REGRESSED, failing=False)
    assert [x.level for x in advisory if x.text.startswith("verdict: ")] == ["warning"]


def test_verdict_outputs__follow_the_verdict_and_its_acceptance() -> None:
    out = verdict_outputs(_REGRESSED)
    assert (out["verdict"], out["regressed"], out["accepted"]) == (
        "regressed",
        "true",
        "false",
    )
    assert out["verdict-text"] == status_description(_REGRESSED)
    accepted = accept(_REGRESSED, "accept-regression")
    out = verdict_outputs(accepted)
    assert out["accepted"] == "true"
    assert out["verdict-text"].startswith("accepted by label accept-regression: ")
    clean = build_report(make_runs(tasks=40), baseline="model-0", resamples=300)
    assert accept(clean, "accept-regression").verdict.accepted is None
