"""The comment of a two-run report: the verdict, the baseline-run line, ungated models."""

from __future__ import annotations

import re

import cmarkgfm

from leaderboard import EvalRun, build_report
from leaderboard.render import CommentContext, render_comment
from leaderboard.report import BaselineRun, Report

SHA = "0123456789abcdef0123456789abcdef01234567"


def _runs(models: tuple[str, ...], drop: dict[str, float] | None = None) -> list[EvalRun]:
    drop = drop or {}
    return [
        EvalRun(
            m, f"t{t}", 0.3 + 0.05 * (t % 8) + 0.01 * (t % 3) * (j % 3) - drop.get(m, 0.0)
        )
        for j, m in enumerate(models)
        # 40 tasks: task-level runs of fewer than 30 take the betting interval (issue 28)
        for t in range(40)
    ]


def _report(pr: list[EvalRun], main: list[EvalRun], label: str = "main") -> Report:
    run = BaselineRun(label=label, source="results", branch="main", commit="1a2b3c4" * 5)
    return build_report(pr, baseline_runs=main, baseline_run=run, resamples=500)


def _comment(report: Report) -> str:
    return render_comment(report, CommentContext(head_sha=SHA))


def test_comment__two_runs_without_regression_name_the_baseline_run() -> None:
    text = _comment(_report(_runs(("a", "b")), _runs(("a", "b"))))
    first = text.splitlines()[0]
    assert first.startswith("🟢 **No regression** for `0123456`: **a** vs **a @")
    assert "**a** vs **a @ main**" in first
    assert "**Baseline run**: **main** (branch main, commit `1a2b3c4`)." in text
    assert "Not gated" not in text
    assert "None" not in text


def test_comment__a_regressed_model_is_named_with_its_baseline_row() -> None:
    text = _comment(_report(_runs(("a", "b"), {"b": 0.2}), _runs(("a", "b"))))
    first = text.splitlines()[0]
    assert first.startswith("🔴 **Regression** for `0123456`: **b** vs **b @")
    assert "main**" in first
    assert "| 4 | b 🔴 |" in text


def test_comment__ungated_models_are_listed_in_one_line() -> None:
    text = _comment(_report(_runs(("a", "new")), _runs(("a", "old"))))
    [line] = [x for x in text.splitlines() if x.startswith("**Baseline run**")]
    assert line.endswith("Not gated (in one run only): new, old @ main.")


def test_comment__many_ungated_models_are_cut_with_a_count() -> None:
    pr = _runs(("a", *(f"n{i:02d}" for i in range(30))))
    text = _comment(_report(pr, _runs(("a",))))
    [line] = [x for x in text.splitlines() if x.startswith("**Baseline run**")]
    assert "n19" in line
    assert "n20" not in line
    assert line.endswith("and 10 more.")


def test_comment__no_shared_model_is_not_gated_and_never_a_pass() -> None:
    text = _comment(_report(_runs(("a", "c")), _runs(("b", "d"))))
    first = text.splitlines()[0]
    assert first.startswith("🟡 **Cannot tell** for `0123456`: no model id is in both runs")
    assert "Not a pass." in first
    assert "🟢" not in text


def test_comment__the_only_model_of_each_run_renamed_is_gated_and_named() -> None:
    text = _comment(_report(_runs(("acme/v2",), {"acme/v2": 0.1}), _runs(("acme/v1",))))
    first = text.splitlines()[0]
    assert first.startswith(
        "🔴 **Regression** for `0123456` (model changed: **acme/v1** → **acme/v2**): "
        "**acme/v2** vs **acme/v1 @ main**, score -0.100"
    )


def test_comment__a_drop_the_margin_tolerates_says_so() -> None:
    pr, main = _runs(("a",), {"a": 0.02}), _runs(("a",))
    run = BaselineRun(label="main", source="results")
    report = build_report(
        pr, baseline_runs=main, baseline_run=run, resamples=500, margin=0.05
    )
    (c,) = report.gate.comparisons
    assert c.ci_hi < 0 < c.ci_lo + 0.05  # wholly below 0, not below -margin
    first = _comment(report).splitlines()[0]
    assert first.startswith("🟢 **No regression**")
    assert ", within the tolerated drop of 0.050; " in first


def test_comment__a_label_is_escaped_like_any_id() -> None:
    text = _comment(_report(_runs(("a",)), _runs(("a",)), label="*x* <b> @team"))
    text = re.sub(r"```text\n.*?```", "", text, flags=re.S)  # the plot: a code block
    escaped = "\\*x\\* \\<b\\> @\N{WORD JOINER}team"  # markdown escapes; @ cannot mention
    assert f"**Baseline run**: **{escaped}** (branch main, commit `1a2b3c4`)." in text
    assert f"its own row in the baseline run **{escaped}**, " in text
    assert f"**a** vs **a @ {escaped}**" in text.splitlines()[0]
    # as GitHub renders it: the label's own characters, shown as text in bold
    html = cmarkgfm.github_flavored_markdown_to_html(text)
    assert "<strong>*x* &lt;b&gt; @\N{WORD JOINER}team</strong>" in html
    assert "<b>" not in text
    assert "@team" not in text
    assert "*x*" not in text


def test_comment__an_accepted_regression_names_the_label_in_the_first_line() -> None:
    report = _report(_runs(("a", "b"), {"b": 0.2}), _runs(("a", "b")))
    context = CommentContext(head_sha=SHA, accepted_by="accept-*regression*")
    first = render_comment(report, context).splitlines()[0]
    assert first.startswith(
        "🔴 **Regression accepted by label “accept-\\*regression\\*”** for `0123456`: "
        "**b** vs **b @"
    )
    # Without a regression the label changes nothing.
    calm = _report(_runs(("a", "b")), _runs(("a", "b")))
    assert render_comment(calm, context) == render_comment(
        calm, CommentContext(head_sha=SHA)
    )


def test_comment__plot_rows_follow_the_gate_table_and_stay_distinct() -> None:
    models = ("mockllm/gpt-4o", "mockllm/gpt-4o-mini-other")
    pr = _runs(models, {"mockllm/gpt-4o-mini-other": 0.2})
    text = _comment(_report(pr, _runs(models)))
    table = [
        ln for ln in text.splitlines() if ln.startswith("| 🔴") or ln.startswith("| 🟢")
    ]
    plot = text.split("```text\n")[1].split("```")[0].splitlines()[:2]
    assert [ln.split()[2] for ln in table] == [
        "mockllm/gpt-4o-mini-other",
        "mockllm/gpt-4o",
    ]
    assert [ln.split(" │")[0] for ln in plot] == ["mockl…-other", "mockl…gpt-4o"]


def test_comment__one_model_is_not_models() -> None:
    text = _comment(build_report(_runs(("a",)), resamples=200))
    assert "1 models" not in text
    assert "1 model ·" in text
