"""render.plot: the Unicode forest plot stays aligned and readable in edge cases."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from leaderboard.render.plot import (
    BASELINE_LINE,
    BASELINE_MEAN,
    LEFT,
    MEAN,
    RIGHT,
    PlotRow,
    display_width,
    fit_label,
    forest_plot,
    nice_ticks,
)

WIDTH = 40
LABEL = 28


def axis_cells(line: str) -> str:
    """The 40 axis cells between the two frame characters of a model line."""
    start = line.index("│") + 1
    return line[start : start + WIDTH]


def model_lines(plot: str) -> list[str]:
    return [line for line in plot.splitlines() if "│" in line]


def check_aligned(plot: str) -> None:
    lines = model_lines(plot)
    for line in lines:
        assert display_width(line[: line.index("│")]) == LABEL + 1
        assert line[line.index("│") + WIDTH + 1] == "│"
    axis = next(line for line in plot.splitlines() if "└" in line)
    assert display_width(axis[: axis.index("└")]) == LABEL + 1
    assert axis.index("┘") - axis.index("└") == WIDTH + 1


def test_forest_plot__marks_mean_interval_and_baseline() -> None:
    rows = [
        PlotRow("good", 0.80, 0.75, 0.85, rank=1),
        PlotRow("base", 0.60, 0.55, 0.65, rank=2, baseline=True),
    ]
    plot = forest_plot(rows, baseline=0.60)
    check_aligned(plot)
    good, base = (axis_cells(line) for line in model_lines(plot))
    assert good.count(MEAN) == 1
    assert good.index(LEFT) < good.index(MEAN) < good.index(RIGHT)
    assert BASELINE_LINE in good
    assert good.index(BASELINE_LINE) == base.index(BASELINE_MEAN)
    assert base.count(BASELINE_MEAN) == 1
    assert "(baseline)" in model_lines(plot)[1]
    assert model_lines(plot)[0].endswith(" 0.800")


def test_forest_plot__intervals_sit_in_order_on_one_axis() -> None:
    rows = [
        PlotRow(f"m{i}", 0.1 * i, 0.1 * i - 0.02, 0.1 * i + 0.02, rank=i)
        for i in range(9, 0, -1)
    ]
    cells = [axis_cells(line) for line in model_lines(forest_plot(rows))]
    means = [c.index(MEAN) for c in cells]
    assert means == sorted(means, reverse=True)
    assert means[0] > means[-1] + 30  # the axis spans the data


def test_forest_plot__one_model() -> None:
    plot = forest_plot([PlotRow("only", 0.5, 0.4, 0.6, rank=1)])
    check_aligned(plot)
    assert len(model_lines(plot)) == 1


@pytest.mark.parametrize("value", [0.0, 0.5, 1.0])
def test_forest_plot__zero_width_interval(value: float) -> None:
    plot = forest_plot([PlotRow("point", value, value, value, rank=1)])
    check_aligned(plot)
    cells = axis_cells(model_lines(plot)[0])
    assert cells.strip() == MEAN
    ticks = plot.splitlines()[-2].split()
    assert len(ticks) >= 2
    assert all(0.0 <= float(t) <= 1.0 for t in ticks)


def test_forest_plot__all_models_equal() -> None:
    rows = [PlotRow(f"m{i}", 0.7, 0.7, 0.7, rank=i + 1) for i in range(5)]
    plot = forest_plot(rows)
    check_aligned(plot)
    positions = {axis_cells(line).index(MEAN) for line in model_lines(plot)}
    assert len(positions) == 1


def test_forest_plot__200_models() -> None:
    rows = [
        PlotRow(
            f"model-{i:03d}-" + "x" * 40,
            0.9 - i * 0.004,
            0.88 - i * 0.004,
            0.92 - i * 0.004,
            rank=i + 1,
        )
        for i in range(200)
    ]
    plot = forest_plot(rows)
    check_aligned(plot)
    lines = model_lines(plot)
    assert len(lines) == 200
    assert lines[0].startswith("  1 model-000-")
    assert lines[199].startswith("200 model-199-")
    assert all("…" in line for line in lines)


def test_forest_plot__nan_row_shows_na() -> None:
    plot = forest_plot(
        [PlotRow("ok", 0.5, 0.4, 0.6, 1), PlotRow("bad", float("nan"), 0, 1, 2)]
    )
    check_aligned(plot)
    assert model_lines(plot)[1].endswith("n/a")


def test_forest_plot__hostile_labels_stay_on_their_line() -> None:
    rows = [
        PlotRow("a\nb\r```\u202e", 0.5, 0.4, 0.6, 1),
        PlotRow("模型" * 30, 0.4, 0.3, 0.5, 2),
    ]
    plot = forest_plot(rows)
    check_aligned(plot)
    assert len(model_lines(plot)) == 2
    assert "\u202e" not in plot


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80), st.integers(min_value=2, max_value=40))
def test_fit_label__exact_width(label: str, width: int) -> None:
    assert display_width(fit_label(label, width)) == width


@settings(max_examples=200, deadline=None)
@given(
    st.floats(min_value=-5, max_value=5, allow_nan=False),
    st.floats(min_value=0, max_value=3, allow_nan=False),
)
@example(0.3, 1e-9)  # the axis starts one unit in the last place above lo
@example(0.302, 1e-9)
def test_nice_ticks__cover_the_range(lo: float, span: float) -> None:
    d_lo, d_hi, ticks = nice_ticks(lo, lo + span)
    # Within a billionth of the axis (rounding noise is not worth a wider axis), or
    # within what floats hold at the axis' magnitude: at lo=0.3 and a span of 1e-9 the
    # axis starts at 6e8 steps of 5e-10, 0.30000000000000004, one unit in the last
    # place above lo and 1.1e-7 of the axis (hypothesis found it: lo=0.302, 1e-9).
    tol = max(1e-9 * (d_hi - d_lo), 4 * math.ulp(max(abs(d_lo), abs(d_hi))))
    assert d_lo <= lo + tol
    assert d_hi >= lo + span - tol
    assert 2 <= len(ticks) <= 12
    # Evenly spaced, judged relative to the axis and up to what floats can hold at the
    # ticks' magnitude: at lo=1.0 and a span of 1e-11 a tick is only known to 2.2e-16,
    # 2e-5 of the axis (hypothesis found it), while an absolute rounding to 9 decimals
    # would call equal steps of 2e-10 unequal at a span of 1e-9.
    width = d_hi - d_lo
    steps = [(b - a) / width for a, b in itertools.pairwise(ticks)]
    resolution = 4 * math.ulp(max(abs(d_lo), abs(d_hi))) / width
    assert max(steps) - min(steps) <= max(1e-6, resolution)


finite = st.floats(min_value=-2, max_value=2, allow_nan=False)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(st.text(max_size=40), finite, finite, finite), min_size=1, max_size=30
    ),
    st.one_of(st.none(), finite),
)
def test_forest_plot__any_rows_stay_aligned(
    rows: list[tuple[str, float, float, float]], baseline: float | None
) -> None:
    plot_rows = [
        PlotRow(label, sorted((a, b, c))[1], min(a, b, c), max(a, b, c), rank=i + 1)
        for i, (label, a, b, c) in enumerate(rows)
    ]
    plot = forest_plot(plot_rows, baseline=baseline)
    check_aligned(plot)
    lines = model_lines(plot)
    assert len(lines) == len(rows)
    for line in lines:
        cells = axis_cells(line)
        assert cells.count(MEAN) == 1
        # The mean may sit on an end of its interval (and then hides that end).
        if LEFT in cells:
            assert cells.index(LEFT) < cells.index(MEAN)
        if RIGHT in cells:
            assert cells.index(MEAN) < cells.index(RIGHT)
