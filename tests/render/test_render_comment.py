"""render.comment: verdicts, tables, filters, size limits, user templates, lessons."""

from __future__ import annotations

import json
import pathlib

import pytest

from leaderboard.errors import UsageError
from leaderboard.render.comment import (
    COMMENT_LIMIT,
    CommentContext,
    make_environment,
    render_comment,
    render_failure,
    render_json,
    render_markdown,
    render_summary,
)
from leaderboard.render.numbers import ci, count, num, pct, signed
from leaderboard.report import Gate, Report
from tests.render.render_html import parse
from tests.render.render_samples import big_report, golden_report, row

SHA = "0123456789abcdef0123456789abcdef01234567"
RUN = "https://github.com/o/r/actions/runs/42"
CTX = CommentContext(head_sha=SHA, run_url=RUN, summary_url=RUN + "#summary")


def first_line(text: str) -> str:
    return text.split("\n", 1)[0]


# --- filters ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "text"),
    [(0.95, "95%"), (0.975, "97.5%"), (0.98333, "98.3%"), (0.625, "62.5%"), (1.0, "100%"),
     (0.0, "0%"), (-0.0001, "0%"), (float("nan"), "n/a"), (None, "n/a")],
)  # fmt: skip
def test_pct(value: float | None, text: str) -> None:
    assert pct(value) == text


def test_num_signed_ci_count() -> None:
    assert num(0.71249) == "0.712"
    assert num(float("inf")) == "n/a"
    assert signed(0.0123) == "+0.012"
    assert signed(-0.0347) == "-0.035"
    assert ci(0.69, 0.734) == "[0.690, 0.734]"
    assert ci(0.1, None) == "[0.100, n/a]"
    assert count(10000) == "10,000"


def test_filters_are_registered_in_both_environments() -> None:
    for env in (make_environment(), make_environment(sandboxed=True)):
        out = env.from_string(
            "{{ 0.95 | pct }} {{ 0.1 | ci(0.2) }} {{ 'a|b' | md_escape }}"
        )
        assert out.render() == "95% [0.100, 0.200] a\\|b"


# --- the verdict -----------------------------------------------------------------------


def test_verdict__regression_names_candidate_scope_interval_sha_and_run() -> None:
    line = first_line(render_comment(golden_report(), CTX))
    assert line.startswith("🔴 **Regression** for `0123456`: **cand-b** is below **base**")
    assert "overall: -0.047 [-0.071, -0.022]" in line
    assert "97.5% family-wise" in line
    assert "margin 0.010" in line
    assert f"[workflow run]({RUN})" in line
    assert "cand-a" not in line


def test_verdict__no_regression() -> None:
    data = golden_report().model_dump()
    for comp in data["gate"]["comparisons"]:
        comp["regressed"] = False
    data["gate"]["regressed"] = False
    data["gate"]["status"] = "no_regression"
    data["settings"]["margin"] = 0.0
    line = first_line(render_comment(Report.model_validate(data), CTX))
    assert line.startswith("🟢 **No regression** for `0123456`:")
    assert "**base** (2 comparisons)" in line
    assert "margin" not in line


def test_verdict__no_gate_without_baseline() -> None:
    report = golden_report().model_copy(
        update={"gate": Gate(baseline=None, regressed=False)}
    )
    comment = render_comment(report, CommentContext(head_sha=SHA))
    assert first_line(comment).startswith(
        "⚪ **No gate** for `0123456`: no baseline was set"
    )
    assert "workflow run" not in comment
    assert "No gate: set a baseline" in comment
    assert "Gate:" not in comment


def test_verdict__header_named_when_not_default() -> None:
    comment = render_comment(golden_report(), CommentContext(header="nightly"))
    assert first_line(comment).startswith("**nightly** · 🔴 **Regression**:")


def test_verdict__agrees_with_report_regressed() -> None:
    # The verdict follows the comparisons' own flags, never recomputes them.
    data = golden_report().model_dump()
    data["gate"]["comparisons"][1]["regressed"] = False
    data["gate"]["regressed"] = False
    data["gate"]["status"] = "no_regression"
    assert first_line(render_comment(Report.model_validate(data))).startswith("🟢")


# --- the body --------------------------------------------------------------------------


def test_comment__sections_in_order_as_github_renders_them() -> None:
    comment = render_comment(golden_report(), CTX)
    parsed = parse(comment)
    leaderboard, ties, categories, gate = parsed.tables
    assert leaderboard[0] == ["Rank", "Model", "Mean", "95% interval", "Win rate", "Tasks",
                              "Rank range"]  # fmt: skip
    assert [r[1] for r in leaderboard[1:]] == [
        "cand-a", "base (baseline)", "cand-b 🔴 regressed", "tiny-model"
    ]  # fmt: skip
    assert leaderboard[1][2:] == [
        "0.742",
        "[0.722, 0.762]",
        "100%",
        "40/40",
        "1\N{EN DASH}2",
    ]
    assert leaderboard[4][5] == "38/40 ⚠️"
    assert ties[1:] == [["cand-a", "base", "+0.011", "[-0.010, 0.032]"]]
    assert categories[0] == ["Rank", "Model", "code", "math"]
    assert gate[2][-1] == "🔴 regressed"
    assert gate[2][4] == "97.5%"
    assert parsed.tags.count("details") + parsed.tags.count("details open=None") == 3
    sections = ("Regression", "| Rank |", "```text", "Cannot be told", "Mean per category",
                "Gate:", "**Settings**", "leaderboard-action 0.1.0")  # fmt: skip
    order = [comment.index(s) for s in sections]
    assert order == sorted(order)


def test_comment__settings_line_names_everything() -> None:
    line = next(
        s for s in render_comment(golden_report()).splitlines() if "**Settings**" in s
    )
    for part in ("95% intervals", "10,000 resamples", "seed 0", "margin 0.010",
                 "percentile bootstrap", "unit: task", "2 comparisons, Bonferroni",
                 "detects drops of 0.033 or more with 80% power"):  # fmt: skip
        assert part in line


def test_comment__plot_is_a_code_block_with_every_model() -> None:
    parsed = parse(render_comment(golden_report()))
    assert "pre" in parsed.tags
    comment = render_comment(golden_report())
    block = comment[
        comment.index("```text") : comment.index("```\n", comment.index("```text") + 3)
    ]
    assert all(m in block for m in ("cand-a", "base (baseline)", "cand-b", "tiny-model"))
    assert "◆" in block


def test_comment__incomplete_model_named_with_missing_tasks() -> None:
    assert "⚠️ Incomplete: tiny-model (missing math/017, math/031)." in render_comment(
        golden_report()
    )


def test_comment__empty_report() -> None:
    report = golden_report().model_copy(
        update={
            "leaderboard": [],
            "pairwise": [],
            "gate": Gate(baseline=None, regressed=False),
        }
    )
    parsed = parse(render_comment(report))
    assert len(parsed.tables) == 1
    assert len(parsed.tables[0]) == 1
    assert "pre" not in parsed.tags


def test_summary__same_verdict_and_tables() -> None:
    summary = render_summary(golden_report(), CTX)
    comment = render_comment(golden_report(), CTX)
    assert first_line(summary) == first_line(comment)
    assert parse(summary).tables == parse(comment).tables


# --- size limits -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def huge() -> Report:
    return big_report(models=300, id_len=200)


def test_comment__300_models_with_200_char_ids_fit_and_say_what_was_left_out(
    huge: Report,
) -> None:
    comment = render_comment(huge, CTX)
    assert len(comment) <= COMMENT_LIMIT
    assert first_line(comment).startswith("🔴 **Regression** for `0123456`:")
    assert "✂️ Left out to fit GitHub's size limit:" in comment
    assert "the table of models that cannot be told apart" in comment
    assert "leaderboard rows (the best" in comment
    assert f"[the job summary]({RUN}#summary)" in comment
    assert "JSON report" in comment
    rows = parse(comment).tables[0][1:]
    shown = [r for r in rows if r[0] != "…"]
    assert 50 < len(shown) < 300
    # The baseline and the regressed candidates stay visible even below the cut.
    assert any("(baseline)" in r[1] for r in shown)
    regressed = {c.candidate for c in huge.gate.comparisons if c.regressed}
    ranks = {r.model_id: r.rank for r in huge.leaderboard}
    assert max(ranks[m] for m in regressed) > len(shown) - len(regressed)  # some were cut
    assert {r[0] for r in shown} >= {str(ranks[m]) for m in regressed}


@pytest.mark.parametrize("limit", [65_536, 30_000, 10_000, 3_000])
def test_comment__respects_any_limit(huge: Report, limit: int) -> None:
    comment = render_comment(huge, CTX, limit=limit)
    assert len(comment) <= limit
    assert first_line(comment).startswith("🔴 **Regression**")


def test_comment__small_report_is_not_cut() -> None:
    comment = render_comment(golden_report(), CTX)
    assert "Left out" not in comment


def test_summary__under_one_mib_and_fuller_than_the_comment(huge: Report) -> None:
    summary = render_summary(huge, CTX)
    assert len(summary.encode()) <= 1_000_000
    assert len(parse(summary).tables[0]) == 301  # every model
    assert "the JSON report" in summary
    # 44,850 pairs do not fit: the tie table is cut to its first 50 rows, and says so.
    assert "Cannot be told apart: 3,234 of 44,850 pairs" in summary
    assert "3,184 of the undecided pairs" in summary


def test_summary__shrinks_to_its_own_limit(huge: Report) -> None:
    summary = render_summary(huge, CTX, limit=100_000)
    assert len(summary.encode()) <= 100_000
    assert "Left out" in summary


# --- failure ---------------------------------------------------------------------------


def test_failure__says_this_commit_could_not_be_computed_and_why() -> None:
    text = render_failure(
        "results.jsonl, line 3, field `score`: 1.5 is outside [0, 1]", CTX
    )
    head = "⛔ **The leaderboard for `0123456` could not be computed.**"
    assert first_line(text) == f"{head} ([workflow run]({RUN}))"
    parsed = parse(text)
    assert "results.jsonl, line 3, field `score`: 1.5 is outside [0, 1]" in "".join(
        parsed.text
    )
    assert "blockquote" in parsed.tags
    assert "Numbers from earlier runs are not shown" in text


def test_failure__multiline_message_and_no_context() -> None:
    text = render_failure("first\nsecond <b>", None)
    assert first_line(text) == "⛔ **The leaderboard could not be computed.**"
    assert "> first\n> second \\<b\\>" in text


# --- user templates --------------------------------------------------------------------


def test_user_template__renders_sandboxed_with_view_and_filters(
    tmp_path: pathlib.Path,
) -> None:
    tmpl = tmp_path / "mine.md.j2"
    tmpl.write_text(
        "{{ view.verdict }}\n{% for r in view.rows %}{{ r.model }}={{ r.mean | num }} "
        "{{ r.lo | ci(r.hi) }}\n{% endfor %}"
    )
    out = render_comment(golden_report(), CTX, template=tmpl)
    assert first_line(out).startswith("🔴 **Regression**")
    assert "cand-a=0.742 [0.722, 0.762]" in out


def test_user_template__syntax_error_names_template_and_line(
    tmp_path: pathlib.Path,
) -> None:
    tmpl = tmp_path / "bad.md.j2"
    tmpl.write_text("ok\n{% for r in view.rows %}\nno endfor\n")
    with pytest.raises(UsageError, match=r"bad\.md\.j2, line \d"):
        render_comment(golden_report(), template=tmpl)


def test_user_template__undefined_names_template_and_line(tmp_path: pathlib.Path) -> None:
    tmpl = tmp_path / "typo.md.j2"
    tmpl.write_text("line one\nline two\n{{ view.verdikt }}\n")
    with pytest.raises(UsageError, match=r"typo\.md\.j2, line 3: UndefinedError"):
        render_summary(golden_report(), template=tmpl)


def test_user_template__sandbox_blocks_unsafe_access(tmp_path: pathlib.Path) -> None:
    tmpl = tmp_path / "evil.md.j2"
    tmpl.write_text("{{ view.__class__.__init__.__globals__ }}\n")
    with pytest.raises(UsageError, match=r"evil\.md\.j2, line 1"):
        render_comment(golden_report(), template=tmpl)


def test_user_template__cannot_include_other_files(tmp_path: pathlib.Path) -> None:
    (tmp_path / "secret.txt").write_text("token")
    tmpl = tmp_path / "inc.md.j2"
    tmpl.write_text('{% include "secret.txt" %}\n')
    with pytest.raises(UsageError, match=r"inc\.md\.j2"):
        render_comment(golden_report(), template=tmpl)


def test_user_template__missing_file(tmp_path: pathlib.Path) -> None:
    with pytest.raises(UsageError, match="cannot read"):
        render_comment(golden_report(), template=tmp_path / "nope.md.j2")


def test_user_template__output_still_cut_to_the_limit(tmp_path: pathlib.Path) -> None:
    tmpl = tmp_path / "long.md.j2"
    tmpl.write_text(
        "{{ view.verdict }}\n{% for i in range(5000) %}xxxxxxxxxx{% endfor %}\n"
    )
    out = render_comment(golden_report(), template=tmpl, limit=2_000)
    assert len(out) <= 2_000
    assert out.startswith("🔴")


# --- lesson API ------------------------------------------------------------------------


def test_render_markdown__table_of_rows() -> None:
    rows = [row(1, "a|b", 0.8), row(2, "@c", 0.6, tasks=3, total=4)]
    table = parse(render_markdown(rows)).tables[0]
    assert table[0] == [
        "Rank",
        "Model",
        "Mean",
        "Interval",
        "Win rate",
        "Tasks",
        "Rank range",
    ]
    assert table[1][:4] == ["1", "a|b", "0.800", "[0.780, 0.820]"]
    assert table[2][1] == "@\u2060c"
    assert table[2][5] == "3/4 ⚠️"


def test_render_markdown__empty() -> None:
    assert len(parse(render_markdown([])).tables[0]) == 1


def test_render_json__array_of_rows() -> None:
    rows = [row(1, "a", 0.8), row(2, "b", 0.6)]
    data = json.loads(render_json(rows))
    assert data == [r.model_dump(mode="json") for r in rows]
    assert json.loads(render_json([])) == []
