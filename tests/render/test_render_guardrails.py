"""Guardrail lines in the comment: the breach first, each measure once, as GitHub shows."""

from __future__ import annotations

import cmarkgfm

from leaderboard.render.comment import render_comment
from leaderboard.render.guardview import rel
from leaderboard.stats import accept
from tests.render.canonical import CTX, guardrail_report, pass_report


def test_breach__names_the_guardrail_on_the_first_line() -> None:
    first = render_comment(guardrail_report(), CTX).splitlines()[0]
    assert first.startswith("🔴 **Regression** for ")
    assert ", cost +31% [+22%, +41%], wholly over the tolerated +10%." in first
    assert "score" not in first  # the score did not regress: its numbers are not named


def test_breach__accepted_by_label_says_so() -> None:
    report = accept(guardrail_report(), "accept-regression")
    assert report.verdict.accepted == "accept-regression"
    first = render_comment(report, CTX).splitlines()[0]
    assert first.startswith("🔴 **Regression accepted by label “accept-regression”** for ")
    assert ", cost +31%" in first


def test_lines__one_per_guarded_and_not_gated_measure_outside_the_gate_table() -> None:
    body = render_comment(guardrail_report(), CTX)
    html = cmarkgfm.github_flavored_markdown_to_html(body)
    assert html.count("(guardrail, tolerated") == 2
    assert html.count("(not gated)") == 1
    header = "| Candidate | Candidate \u2212 baseline |"  # the comment's minus sign
    gate_table = body.split(header)[1].split("\n\n")[0]
    assert "cost" not in gate_table.lower()
    assert "faithfulness" not in gate_table
    assert "0.00421 vs 0.00322" in body  # costs keep three significant digits


def test_no_measures__no_guardrail_lines() -> None:
    body = render_comment(pass_report(), CTX)
    assert "guardrail" not in body
    assert "not gated" not in body.replace("Not gated (in one run only)", "")


def test_rel__signs_and_digits() -> None:
    assert [rel(x) for x in (0.31, -0.044, 0.0, -0.0001, None, 1e9)] == [
        "+31%",
        "-4.4%",
        "+0%",
        "+0%",
        "n/a",
        "n/a",
    ]
