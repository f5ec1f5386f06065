"""The sticky comment's hidden marker and stamp, and which run's results win."""

from __future__ import annotations

import re

import cmarkgfm
import pytest
from hypothesis import given
from hypothesis import strategies as st

from leaderboard.action.comment.markers import (
    Stamp,
    compose,
    rank,
    should_write,
    sticky_marker,
)

OLD, NEW = "1" * 40, "2" * 40


def test_marker__plain_header_reads_plainly() -> None:
    assert (
        sticky_marker("leaderboard")
        == "<!-- leaderboard-action:sticky header=leaderboard -->"
    )


@given(st.text())
def test_marker__any_header_stays_inside_one_html_comment(header: str) -> None:
    marker = sticky_marker(header)
    assert "\n" not in marker
    assert "\r" not in marker
    assert marker.startswith("<!-- ")
    assert marker.endswith(" -->")
    inside = marker[len("<!-- ") : -len(" -->")]
    assert "--" not in inside
    assert ">" not in inside
    assert "<" not in inside


def test_marker__undecodable_header_bytes_still_encode() -> None:
    assert (
        sticky_marker("a\udcffb") == "<!-- leaderboard-action:sticky header=a%ED%B3%BFb -->"
    )


@given(st.text(), st.text())
def test_marker__different_headers_never_match_each_other(a: str, b: str) -> None:
    if a != b:
        assert not sticky_marker(a).startswith(sticky_marker(b))
        assert not sticky_marker(b).startswith(sticky_marker(a))


@given(
    st.one_of(st.none(), st.text(min_size=1)),
    st.one_of(st.none(), st.integers(min_value=0, max_value=10**12)),
)
def test_stamp__round_trips_through_the_body(sha: str | None, run: int | None) -> None:
    stamp = Stamp(sha, run)
    text = compose(
        "leaderboard", stamp, "body with <!-- leaderboard-action:stamp sha=x run=1 -->"
    )
    assert Stamp.parse(text) == stamp
    assert "\n" not in stamp.render()


def test_stamp__missing_stamp_parses_as_unknown() -> None:
    assert Stamp.parse("just a comment") == Stamp(None, None)


def test_compose__marker_first_then_stamp_then_body() -> None:
    text = compose("h", Stamp(OLD, 5), "BODY")
    lines = text.split("\n")
    assert lines[0] == sticky_marker("h")
    assert lines[1] == f"<!-- leaderboard-action:stamp sha={OLD} run=5 -->"
    assert lines[2] == ""
    assert lines[3] == "BODY"


def test_compose__markers_are_hidden_and_do_not_swallow_the_body() -> None:
    body = "| model | mean |\n|---|---|\n| a | 0.5 |\n"
    header = "x --> <b>bold</b> --!> <!--"
    html = cmarkgfm.github_flavored_markdown_to_html(
        compose(header, Stamp(OLD, 1), body), options=cmarkgfm.Options.CMARK_OPT_UNSAFE
    )
    assert "<table>" in html
    assert "<td>a</td>" in html
    assert "<b>" not in html
    visible = re.sub(r"<!--.*?-->", "", html, flags=re.S)
    assert "leaderboard-action" not in visible


@pytest.mark.parametrize(
    ("ours", "newest", "head", "expected"),
    [
        (Stamp(NEW, 101), Stamp(OLD, 100), NEW, True),  # newer commit replaces older
        (Stamp(OLD, 100), Stamp(NEW, 101), NEW, False),  # stale run: the PR moved on
        (Stamp(OLD, 100), Stamp(OLD, 99), NEW, False),  # stale even over older results
        (Stamp(NEW, 101), Stamp(NEW, 102), NEW, False),  # a later run for the same commit
        (Stamp(NEW, 102), Stamp(NEW, 101), NEW, True),
        (Stamp(NEW, 101), Stamp(NEW, 101), NEW, True),  # a re-run attempt of the same run
        (Stamp(NEW, 100), Stamp(OLD, 101), NEW, True),  # later run, but an older commit
        (Stamp(NEW, None), Stamp(NEW, 5), NEW, True),  # unknown run: results are current
        (Stamp(None, 5), Stamp(None, 6), None, False),  # no commits: the run decides
        (Stamp(OLD, 100), Stamp(NEW, 101), None, True),  # head unknown (not a PR)
    ],
)
def test_should_write__truth_table(
    ours: Stamp, newest: Stamp, head: str | None, expected: bool
) -> None:
    assert should_write(ours, newest, head) is expected


def test_rank__current_head_then_later_run_then_later_comment() -> None:
    head = NEW
    ordered = [
        rank(Stamp(None, None), 1, head),
        rank(Stamp(OLD, 500), 2, head),
        rank(Stamp(NEW, 100), 9, head),
        rank(Stamp(NEW, 101), 3, head),
        rank(Stamp(NEW, 101), 4, head),
    ]
    assert ordered == sorted(ordered)
