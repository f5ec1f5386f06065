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
from tests.conftest import decided, with_gate
from tests.render.canonical import regressed_report
from tests.render.render_html import gfm, parse
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
    assert ci(0.69, 0.734) == "[0.690,\u00a00.734]"  # a no-break space: never wraps
    assert ci(0.1, None) == "[0.100,\u00a0n/a]"
    assert count(10000) == "10,000"


def test_filters_are_registered_in_both_environments() -> None:
    for env in (make_environment(), make_environment(sandboxed=True)):
        out = env.from_string(
            "{{ 0.95 | pct }} {{ 0.1 | ci(0.2) }} {{ 'a|b' | md_escape }}"
        )
        assert out.render() == "95% [0.100,\u00a00.200] a\\|b"


# --- the verdict -----------------------------------------------------------------------


def test_verdict__regression_names_candidate_baseline_interval_and_detectable_drop() -> (
    None
):
    line = first_line(render_comment(golden_report(), CTX))
    assert line.startswith(
        "🔴 **Regression** for `0123456`: **cand-b** vs **base**, score "
        "-0.047 [-0.071, -0.022], wholly below -0.010;"
    )
    assert "this suite detects drops of 0.033 or more" in line
    assert f"[workflow run]({RUN})" in line
    assert "cand-a" not in line


def test_verdict__no_regression_names_the_closest_candidate() -> None:
    data = golden_report().model_dump()
    data["gate"]["comparisons"][1].update(ci_lo=-0.030, ci_hi=0.002, regressed=False)
    data["gate"]["regressed"] = False
    data["gate"]["status"] = "no_regression"
    data["settings"]["margin"] = 0.0
    line = first_line(render_comment(decided(data), CTX))
    assert line.startswith(
        "🟢 **No regression** for `0123456`: **cand-b** vs **base**, score "
        "-0.047 [-0.030, 0.002] (and 1 more with no regression); a drop larger than "
        "0.030 is ruled out;"
    )
    assert "detects drops of 0.033 or more" in line


def test_verdict__cannot_tell_is_never_a_pass() -> None:
    data = golden_report().model_dump()
    data["gate"]["comparisons"] = data["gate"]["comparisons"][:1]
    data["gate"]["comparisons"][0].update(
        status="undetermined",
        note="one shared task",
        min_detectable_regression=None,
        interval=False,
    )
    data["gate"].update(regressed=False, status="undetermined")
    report = decided(data)
    comment = render_comment(report, CTX)
    assert first_line(comment).startswith(
        "🟡 **Cannot tell** for `0123456`: **cand-a** vs **base**, score +0.011, no "
        "interval (one shared task); the smallest drop it detects cannot be estimated. "
        "Not a pass."
    )
    gate = next(t for t in parse(comment).tables if t[0][0] == "Candidate")
    assert gate[1] == ["🟡 cand-a", "+0.011 (cannot tell)", "n/a"]


def test_verdict__no_baseline_run_stored_yet() -> None:
    gate = Gate(
        baseline=None,
        regressed=False,
        status="no_baseline_run",
        note="nothing stored on `history` for main",
    )
    line = first_line(render_comment(with_gate(golden_report(), gate)))
    assert line.startswith("⚪ **No baseline run**: nothing stored on `history` for main;")


def test_verdict__no_gate_without_baseline() -> None:
    report = with_gate(golden_report(), Gate(baseline=None, regressed=False))
    comment = render_comment(report, CommentContext(head_sha=SHA))
    assert first_line(comment).startswith(
        "⚪ **No gate** for `0123456`: no baseline was set"
    )
    assert "workflow run" not in comment
    assert "**Gate**" not in comment


def test_verdict__header_named_when_not_default() -> None:
    comment = render_comment(golden_report(), CommentContext(header="nightly"))
    assert first_line(comment).startswith("**nightly** · 🔴 **Regression**:")


def test_verdict__agrees_with_report_regressed() -> None:
    # The verdict follows the comparisons' own flags, never recomputes them.
    data = golden_report().model_dump()
    data["gate"]["comparisons"][1]["regressed"] = False
    data["gate"]["regressed"] = False
    data["gate"]["status"] = "no_regression"
    assert first_line(render_comment(decided(data))).startswith("🟢")


# --- the body --------------------------------------------------------------------------


def test_comment__sections_in_order_as_github_renders_them() -> None:
    comment = render_comment(golden_report(), CTX)
    parsed = parse(comment)
    gate, leaderboard, ties, categories = parsed.tables
    assert gate[0] == ["Candidate", "Candidate \N{MINUS SIGN} baseline", "Detects drops of"]
    assert gate[1:] == [
        ["🔴 cand-b", "-0.047 [-0.071,\u00a0-0.022]", "0.033"],
        ["🟢 cand-a", "+0.011 [-0.012,\u00a00.034]", "0.031"],
    ]
    assert leaderboard[0] == ["Rank", "Model", "Mean, 95% interval", "Tasks"]
    assert [r[1] for r in leaderboard[1:]] == [
        "cand-a", "base (baseline)", "cand-b 🔴", "tiny-model"
    ]  # fmt: skip
    assert leaderboard[1][0] == "1\N{EN DASH}2"
    assert leaderboard[1][2] == "0.742 [0.722,\u00a00.762]"
    assert leaderboard[4][3] == "38/40 ⚠️"
    # The tie with the baseline reads candidate - baseline, like the gate.
    assert ties[1:] == [["cand-a", "base", "+0.011 [-0.010,\u00a00.032]"]]
    assert categories[0] == ["Rank", "Model", "code", "math"]
    assert "li" in parsed.tags  # the warning is a list item
    sections = ("Regression", "**Gate**", "```text", "**Leaderboard**", "Means on one axis",
                "Cannot be told", "Mean per category", "<summary>Settings",
                "leaderboard-action 0.1.0")  # fmt: skip
    order = [comment.index(s) for s in sections]
    assert order == sorted(order)


def test_comment__gate_line_says_how_sure_and_the_margin() -> None:
    comment = render_comment(golden_report())
    assert (
        "**Gate**: candidate \N{MINUS SIGN} **base**, 97.5% intervals each, so both hold "
        "together at 95% (Bonferroni); a drop counts beyond the margin of 0.010; "
        "*detects drops of* X: a drop of X is caught 80% of the time." in comment
    )


def test_comment__gate_line_names_the_max_t_family() -> None:
    data = golden_report().model_dump()
    data["gate"]["adjustment"] = "max-t"
    comment = render_comment(decided(data))
    assert "so both hold together at 95% (max-T over the shared resamples)" in comment


def test_comment__settings_folded_and_name_everything() -> None:
    comment = render_comment(golden_report())
    folded = comment[comment.index("<summary>Settings") :]
    folded = folded[: folded.index("</details>")]
    for part in ("4 models", "95% intervals", "10,000 resamples", "seed 0",
                 "margin 0.010", "percentile bootstrap", "unit: task"):  # fmt: skip
        assert part in folded


def test_comment__difference_plot_marks_zero_and_margin() -> None:
    comment = render_comment(golden_report())
    start = comment.index("```text")
    block = comment[start : comment.index("```\n", start + 3)]
    assert "cand-a" in block
    assert "cand-b" in block
    assert "┊ 0  ╎ \N{MINUS SIGN}margin" in block
    assert "base" not in block  # differences, not the baseline's own interval
    assert all(len(line) <= 39 for line in block.splitlines()[1:])


def test_comment__forest_plot_folded_and_labelled_not_the_test() -> None:
    comment = render_comment(golden_report())
    summary = next(line for line in comment.splitlines() if "Means on one axis" in line)
    assert "not the gate's test" in summary
    start = comment.index("```text", comment.index("Means on one axis"))
    block = comment[start : comment.index("```\n", start + 3)]
    for m in ("cand-a", "base (baseline)", "cand-b (regressed)", "tiny-model"):
        assert m in block
    assert "◆" in block


def test_comment__where_shows_categories_and_flips() -> None:
    comment = render_comment(regressed_report())
    assert (
        "<details open><summary>Where cand-b moved (per category): 1 of 2 moved beyond "
        "noise (adjusted intervals: all 2 hold together at 95%, max-T)"
        "</summary>" in comment
    )
    where = next(t for t in parse(comment).tables if t[0][0] == "Where")
    assert where[0] == ["Where", "Candidate \u2212 baseline (adjusted interval)"]
    assert where[1:] == [  # moved rows first, marked; the rest within noise; each
        # shown with its adjusted interval (family_ci_lo, family_ci_hi), not ci_lo/hi
        ["category code moved", "-0.080 [-0.121,\u00a0-0.038]"],
        ["category math · within noise", "-0.014 [-0.050,\u00a00.021]"],
    ]
    assert (
        "31 items went pass → fail, 12 fail → pass (of 400 scored for both); noise alone "
        "gives about 22 each way, and the 19 extra pass → fail are beyond it (McNemar "
        "at 97.5%)" in comment  # cand-b's own level, not the report's 95%
    )


def test_comment__flips_within_noise_say_so() -> None:
    report = regressed_report()
    data = report.model_dump()
    data["gate"]["comparisons"][1]["flips"].update(
        pass_to_fail=14, fail_to_pass=12, noise_each_way=13, beyond_noise=False
    )
    comment = render_comment(decided(data))
    assert (
        "14 items went pass → fail, 12 fail → pass (of 400 scored for both); noise alone "
        "gives about 13 each way, and the difference between the two ways is within "
        "noise (McNemar at 97.5%)" in comment
    )


def test_comment__summary_text_is_html_escaped() -> None:
    report = regressed_report()
    data = report.model_dump()
    for c in data["gate"]["comparisons"]:
        c["candidate"] = c["candidate"].replace("cand-b", "Llama_3 <b>&")
    comment = render_comment(decided(data))
    assert "<summary>Where Llama_3 &lt;b&gt;&amp; moved" in comment
    text = "".join(parse(comment).text)
    assert "Where Llama_3 <b>& moved" in text  # no backslash shows


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
    rows = next(t for t in parse(comment).tables if t[0][0] == "Rank")[1:]
    shown = [r for r in rows if r[0] != "…"]
    assert 50 < len(shown) < 300
    # The baseline and the regressed candidates stay visible even below the cut.
    assert any("(baseline)" in r[1] for r in shown)
    regressed = {c.candidate for c in huge.gate.comparisons if c.regressed}
    ranks = {r.model_id: r.rank for r in huge.leaderboard}
    assert max(ranks[m] for m in regressed) > len(shown) - len(regressed)  # some were cut
    rank_text = {r.model_id: f"{r.rank_lo}\N{EN DASH}{r.rank_hi}" for r in huge.leaderboard}
    assert {r[0] for r in shown} >= {rank_text[m] for m in regressed}


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
    leaderboard = next(t for t in parse(summary).tables if t[0][0] == "Rank")
    assert len(leaderboard) == 301  # every model
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
    assert "results.jsonl, line 3, field : 1.5 is outside [0, 1]" in "".join(parsed.text)
    assert "field <code>score</code>: 1.5" in gfm(text)  # the quoted field is code
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
    assert "cand-a=0.742 [0.722,\u00a00.762]" in out


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
    assert table[1][:4] == ["1", "a|b", "0.800", "[0.780,\u00a00.820]"]
    assert table[2][1] == "@\u2060c"
    assert table[2][5] == "3/4 ⚠️"


def test_render_markdown__empty() -> None:
    assert len(parse(render_markdown([])).tables[0]) == 1


def test_render_json__array_of_rows() -> None:
    rows = [row(1, "a", 0.8), row(2, "b", 0.6)]
    data = json.loads(render_json(rows))
    assert data == [r.model_dump(mode="json") for r in rows]
    assert json.loads(render_json([])) == []


def test_failure__paths_relative_to_the_workspace_and_code_that_renders() -> None:
    ctx = CommentContext(head_sha=SHA, workspace="/home/runner/work/evals/evals/")
    text = render_failure(
        "/home/runner/work/evals/evals/results/run.jsonl, line 7, field `score`: 1.5",
        ctx,
    )
    assert "> results/run.jsonl, line 7, field `score`: 1.5" in text
    assert "/home/runner" not in text
    assert "<code>score</code>" in gfm(text)


def test_comment__gate_line_names_the_baseline_run_and_ungated_models() -> None:
    data = golden_report().model_dump()
    data["gate"]["baseline_run"] = {
        "label": "main 1a2b3c4",
        "source": "history",
        "branch": "main",
        "commit": "1a2b3c4d5e6f7a8b",
        "commits_behind": 2,
    }
    data["gate"]["ungated"] = ["new-model", "@dropped"]
    comment = render_comment(decided(data))
    gate_line = next(line for line in comment.splitlines() if line.startswith("**Gate**"))
    assert "its own row in the baseline run **main 1a2b3c4**" in gate_line
    assert gate_line.endswith(
        " Baseline: the run stored for `1a2b3c4`, on `main`, 2 commits behind the base."
    )
    # the models in one run only are named once, in the baseline-run line
    [run_line] = [x for x in comment.splitlines() if x.startswith("**Baseline run**")]
    assert run_line.endswith("Not gated (in one run only): new-model, @\u2060dropped.")
    assert comment.count("new-model") == 1
    assert "Baseline:" not in first_line(comment)


def test_comment__gate_notes_listed_once() -> None:
    data = golden_report().model_dump()
    a, b = data["gate"]["comparisons"]
    a.update(
        status="undetermined",
        note="one shared task",
        min_detectable_regression=None,
        interval=False,
    )
    b.update(regressed=False, note="no detectable drop", min_detectable_regression=None)
    data["gate"].update(regressed=False, status="undetermined")
    comment = render_comment(decided(data))
    assert "one shared task" in first_line(comment)
    assert comment.count("one shared task") == 1  # said in the first line only
    assert "- 🟢 cand-b: no detectable drop." in comment
