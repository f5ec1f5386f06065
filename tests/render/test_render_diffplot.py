"""render.diffplot: the gate's difference plot, 0 and -margin marked, phone-narrow."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leaderboard.render.diffplot import (
    AXIS,
    MARGIN,
    ZERO,
    DiffRow,
    difference_plot,
    distinct_labels,
)
from leaderboard.render.plot import LEFT, MEAN, RIGHT, display_width


def cells(line: str) -> str:
    start = line.index("│") + 1
    return line[start : start + AXIS]


def test_difference_plot__marks_zero_margin_interval_and_estimate() -> None:
    plot = difference_plot(
        [
            DiffRow("cand-b", -0.047, -0.071, -0.022),
            DiffRow("cand-a", 0.011, -0.004, 0.034),
        ],
        margin=0.01,
        interval_label="97.5% interval",
    )
    lines = plot.splitlines()
    b, a = cells(lines[0]), cells(lines[1])
    # cand-b lies wholly left of -margin, which lies left of 0.
    assert b.index(RIGHT) < b.index(MARGIN) < b.index(ZERO)
    assert b.index(LEFT) < b.index(MEAN) < b.index(RIGHT)
    # cand-a's interval covers 0 but not -margin: the rule hides the zero mark, and the
    # margin mark stands, visible, left of the interval.
    assert a.index(LEFT) < a.index(MEAN) < a.index(RIGHT)
    assert ZERO not in a
    assert MARGIN in a
    assert a.index(MARGIN) < a.index(LEFT)
    assert a.count(MARGIN) == 1
    assert "97.5% interval" in plot
    assert f"{ZERO} 0  {MARGIN} \N{MINUS SIGN}margin" in plot


def test_difference_plot__without_margin_marks_only_zero() -> None:
    plot = difference_plot([DiffRow("x", 0.02, 0.01, 0.03)], margin=0.0)
    assert MARGIN not in plot
    assert cells(plot.splitlines()[0]).index(ZERO) < cells(plot.splitlines()[0]).index(LEFT)


def test_difference_plot__undetermined_row_says_so() -> None:
    plot = difference_plot(
        [DiffRow("x", -0.02, None, None), DiffRow("y", 0.0, -0.01, 0.01)], margin=0.0
    )
    assert "n/a (cannot tell)" in plot.splitlines()[0]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.text(min_size=0, max_size=60),
            st.floats(-1, 1),
            st.floats(0, 0.5),
            st.floats(0, 0.5),
        ),
        min_size=1,
        max_size=20,
    ),
    st.floats(0, 0.2),
)
def test_difference_plot__fits_a_phone_whatever_the_labels(
    rows: list[tuple[str, float, float, float]], margin: float
) -> None:
    plot = difference_plot(
        [DiffRow(label, d, d - lo, d + hi) for label, d, lo, hi in rows],
        margin=margin,
        interval_label="99.8% interval",
    )
    assert all(display_width(line) <= 39 for line in plot.splitlines())


@pytest.mark.parametrize("margin", [0.0, 0.05])
def test_difference_plot__zero_and_margin_in_their_place(margin: float) -> None:
    plot = difference_plot([DiffRow("x", -0.2, -0.3, -0.1)], margin=margin)
    row = cells(plot.splitlines()[0])
    if margin:
        assert row.index(MARGIN) < row.index(ZERO)
    assert row.index(RIGHT) < row.index(ZERO)


def test_distinct_labels__ids_sharing_a_long_prefix_are_told_apart() -> None:
    a, b = distinct_labels(["mockllm/gpt-4o", "mockllm/gpt-4o-mini-other"], 12)
    assert a != b
    assert (a, b) == ("mockl…gpt-4o", "mockl…-other")
    # the same head and tail: numbered in order
    same = distinct_labels(["x" * 20 + "1" + "y" * 8, "x" * 20 + "2" + "y" * 8], 12)
    assert [s[:2] for s in same] == ["1 ", "2 "]
    # short ids are left as they are
    assert distinct_labels(["a", "b"], 4) == ["a   ", "b   "]
