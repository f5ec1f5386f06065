"""Hostile ids through the comment, the summary, the failure comment and log_text.

Each id of the corpus replaces, at once, the regressed candidate's model id (so it
appears in the verdict, the leaderboard, the plot, the tie and gate tables), a
category, a missing task and a warning of the golden report. The rendered markdown
goes through cmark-gfm (GitHub's parser) and must have exactly the HTML structure of
the same report with a harmless id: same tags (so no injected HTML, no closed
<details>, no broken code block), same table shape (one cell per id), same links, no
HTML comment (a forged sticky marker), no text GitHub would turn into a mention.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leaderboard.render.comment import (
    CommentContext,
    render_comment,
    render_failure,
    render_summary,
)
from leaderboard.render.escape import log_text
from leaderboard.report import Report
from tests.conftest import decided
from tests.render.render_html import Parsed, gfm, mentions, parse
from tests.render.render_samples import golden_report

HOSTILE_IDS = [
    "a|b",
    "a\\|b",
    "`a|b`",
    "trailing backslash\\",
    "<img src=x onerror=alert(1)>",
    "<script>alert(1)</script>",
    "<details><summary>x</summary>",
    "</details></table>",
    "<!-- leaderboard-action:leaderboard -->",
    "-->",
    "<a href='https://evil.example'>x</a>",
    "@octocat",
    "cc @github/security-team please",
    "[click](javascript:alert(1))",
    "![img](https://evil.example/x.png)",
    "[x]: https://evil.example",
    "[^1]",
    "https://evil.example/login",
    "www.evil.example",
    "WWW.Evil.Example",
    "phish@evil.example",
    "mailto:phish@evil.example",
    "<https://evil.example>",
    "**bold** _em_ ~~strike~~",
    "# heading",
    "- list item",
    "1. ordered",
    "> quote",
    "=====",
    "line1\nline2",
    "x\r\n::error::pwned",
    "::add-mask::secret",
    "::stop-commands::tok",
    "##[error]legacy",
    "\x1b[31mred\x1b[0m",
    "\u202eevil\u202c",
    "&lt;b&gt; &#124; &amp;",
    "```\ncode fence",
    "~~~",
    "$x^2$ math",
    "#1 fixes",
    "\\",
    "",
    "   ",
    " padded ",
    "\x00nul",
    "\ud800 lone surrogate",
    "模型 🚀 👩\u200d💻",
    "_leading underscore_",
    "a\u2028b",
    "a" * 300,
    "|" * 50,
]
BENIGN = "benign-id"
TRICKY = list("|\\`*_[]<>&#@:./-+=!~$()'\"\n\r\t\x00\u202e wW019xyz")


def with_id(hostile: str) -> Report:
    """The golden report with `hostile` as a model, a category, a task and in a warning."""
    data = golden_report().model_dump()
    for row in data["leaderboard"]:
        if row["model_id"] == "cand-b":
            row["model_id"] = hostile
        row["categories"][hostile] = row["categories"].pop("code")
        row["category_intervals"][hostile] = row["category_intervals"].pop("code")
        row["missing_tasks"] = [hostile] if row["missing_tasks"] else []
    for pair in data["pairwise"]:
        for key in ("model_a", "model_b"):
            if pair[key] == "cand-b":
                pair[key] = hostile
    for comp in data["gate"]["comparisons"]:
        if comp["candidate"] == "cand-b":
            comp["candidate"] = hostile
    data["warnings"] = [f"warning about {hostile}"]
    return decided(data)


CONTEXT = CommentContext(
    head_sha="0123456789abcdef0123456789abcdef01234567",
    run_url="https://github.com/o/r/actions/runs/1",
    summary_url="https://github.com/o/r/actions/runs/1#summary",
)


BENIGN_COMMENT = render_comment(with_id(BENIGN), CONTEXT)
BENIGN_SUMMARY = render_summary(with_id(BENIGN), CONTEXT)
FAILURE_MESSAGE = "results.jsonl, line 3, field `model_id`: bad value {} (fix it)"
BENIGN_FAILURE = render_failure(FAILURE_MESSAGE.format(BENIGN), CONTEXT)


def shape(parsed: Parsed) -> list[list[int]]:
    return [[len(row) for row in table] for table in parsed.tables]


def assert_same_structure(hostile_md: str, benign_md: str) -> None:
    hostile, benign = parse(hostile_md), parse(benign_md)
    assert hostile.tags == benign.tags
    assert shape(hostile) == shape(benign)
    assert hostile.links == benign.links
    assert hostile.comments == []
    assert mentions(hostile) == []


def test_corpus_is_large_enough() -> None:
    assert len(HOSTILE_IDS) >= 25
    assert len(set(HOSTILE_IDS)) == len(HOSTILE_IDS)


@pytest.mark.parametrize("hostile", HOSTILE_IDS)
def test_hostile_id__comment_keeps_its_structure(hostile: str) -> None:
    comment = render_comment(with_id(hostile), CONTEXT)
    assert_same_structure(comment, BENIGN_COMMENT)


@pytest.mark.parametrize("hostile", HOSTILE_IDS)
def test_hostile_id__summary_keeps_its_structure(hostile: str) -> None:
    summary = render_summary(with_id(hostile), CONTEXT)
    assert_same_structure(summary, BENIGN_SUMMARY)


@pytest.mark.parametrize("hostile", HOSTILE_IDS)
def test_hostile_id__own_cell_in_the_leaderboard(hostile: str) -> None:
    parsed = parse(render_comment(with_id(hostile), CONTEXT))
    leaderboard = next(t for t in parsed.tables if t[0][0] == "Rank")
    assert leaderboard[0][:2] == ["Rank", "Model"]
    assert [row[0] for row in leaderboard[1:]] == [
        "1\N{EN DASH}2",
        "1\N{EN DASH}2",
        "3",
        "4",
    ]
    cell = leaderboard[3][1]
    assert cell.endswith(" 🔴")
    # The id itself, visibly: its ordinary characters are all there, in order.
    plain = [c for c in hostile[:200] if c.isalnum()]
    it = iter(cell)
    assert all(c in it for c in plain)


@pytest.mark.parametrize("hostile", HOSTILE_IDS)
def test_hostile_id__failure_comment(hostile: str) -> None:
    """Same structure; a backtick in the id may only move where a code span lies
    (code spans are inert: no HTML, link or mention inside)."""
    failure = render_failure(FAILURE_MESSAGE.format(hostile), CONTEXT)
    if "`" not in hostile:
        assert_same_structure(failure, BENIGN_FAILURE)
        assert "<code>model_id</code>" in gfm(failure)
        return
    hostile_parsed, benign = parse(failure), parse(BENIGN_FAILURE)
    inert = {"code", "/code"}
    assert [t for t in hostile_parsed.tags if t not in inert] == [
        t for t in benign.tags if t not in inert
    ]
    assert hostile_parsed.links == benign.links
    assert hostile_parsed.comments == []
    assert mentions(hostile_parsed) == []


@pytest.mark.parametrize("hostile", HOSTILE_IDS)
def test_hostile_id__log_line(hostile: str) -> None:
    line = log_text(f"warning: model {hostile} misses tasks")
    assert "\n" not in line
    assert "\r" not in line
    assert "\x1b" not in line
    assert "::" not in line
    assert "##[" not in line
    line.encode("utf-8")  # writable to the log: no lone surrogate


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from(TRICKY) | st.characters(), max_size=40))
def test_any_id__comment_keeps_its_structure(hostile: str) -> None:
    comment = render_comment(with_id(hostile), CONTEXT)
    comment.encode("utf-8")  # postable: no lone surrogate
    assert_same_structure(comment, BENIGN_COMMENT)


@pytest.mark.parametrize(
    "hostile", ["<!--", "@octocat", "a|b", "https://evil.example", " x "]
)
def test_hostile_header_and_sha(hostile: str) -> None:
    ctx = CommentContext(head_sha=hostile, run_url="javascript:alert(1)", header=hostile)
    benign = CommentContext(head_sha="not-a-sha", run_url=None, header="nightly")
    assert_same_structure(
        render_comment(golden_report(), ctx), render_comment(golden_report(), benign)
    )
