"""The comment as GitHub shows it: cmark-gfm, github-markdown-css, headless Chromium.

Each canonical comment (`tests.render.canonical`) is measured at a laptop's comment
column (900 px) and a phone's (400 px). The assertions are about layout, not strings:
no table scrolls sideways at 900 px; the verdict and the gate's table need no sideways
scrolling at 400 px; no interval ``[a, b]`` is ever split over two lines; each warning
is its own list item.
"""

from __future__ import annotations

import functools

import pytest

from tests.render.browser import DESKTOP, PHONE, Browser, Measured
from tests.render.canonical import CANONICAL

GATE_HEADER = "Detects drops of"
NAMES = list(CANONICAL)


@functools.cache
def _measure(browser: Browser, name: str, width: int) -> Measured:
    return browser.measure(name, CANONICAL[name](), width)


@pytest.fixture(params=NAMES)
def name(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def test_layout__fonts_are_the_ones_widths_assume(browser: Browser) -> None:
    m = _measure(browser, "regressed", DESKTOP)
    assert "Liberation Sans" in m.data["fonts"], (
        f"body text rendered in {m.data['fonts']}: install fonts-liberation "
        "(scripts/install-tools.sh) so that widths match GitHub's Arial fallback"
    )


def test_layout__no_table_scrolls_at_desktop_width(browser: Browser, name: str) -> None:
    m = _measure(browser, name, DESKTOP)
    scrolling = [t for t in m.data["tables"] if t["scrolls"]]
    assert not scrolling, f"{name} at 900 px: tables scroll sideways: {scrolling}"
    assert not m.data["pageOverflows"]


def test_layout__no_interval_wraps(browser: Browser, name: str) -> None:
    for width in (DESKTOP, PHONE):
        m = _measure(browser, name, width)
        split = [i for i in m.data["intervals"] if i["lines"] != 1]
        assert not split, f"{name} at {width} px: intervals split over lines: {split}"


def test_layout__verdict_and_gate_fit_a_phone(browser: Browser, name: str) -> None:
    m = _measure(browser, name, PHONE)
    assert not m.data["pageOverflows"], f"{name} at 400 px: the page scrolls sideways"
    verdict = m.data["blocks"][0]
    assert not verdict["scrolls"], f"{name} at 400 px: the first line overflows"
    has_gate = any(GATE_HEADER in t["headers"] for t in m.data["tables"])
    if has_gate:
        gate = m.table(GATE_HEADER)
        assert not gate["scrolls"], f"{name} at 400 px: the gate table scrolls: {gate}"
    assert has_gate == (
        name
        in {
            "regressed",
            "answers",
            "epoch-flips",
            "pass",
            "guardrail",
            "cannot-tell",
            "models-30",
            "trend",
        }
    )


def test_layout__guardrail_lines_fit_a_phone_and_keep_intervals_whole(
    browser: Browser,
) -> None:
    for width in (DESKTOP, PHONE):
        m = _measure(browser, "guardrail", width)
        first = m.data["blocks"][0]
        assert not first["scrolls"], f"guardrail at {width} px: the first line overflows"
        assert not m.data["pageOverflows"]
        split = [i for i in m.data["intervals"] if i["lines"] != 1]
        assert not split, f"guardrail at {width} px: intervals split: {split}"


def test_layout__warnings_stay_separate(browser: Browser) -> None:
    m = _measure(browser, "models-30", DESKTOP)
    warnings = m.data["warnings"]
    assert len(warnings) == 2, warnings
    assert all(w["markers"] == 1 and w["atLineStart"] for w in warnings), warnings


def test_layout__gate_plot_fits_a_phone(browser: Browser) -> None:
    for name in ("regressed", "pass"):
        m = _measure(browser, name, PHONE)
        gate_plot = [p for p in m.data["pre"] if not p["inDetails"]]
        assert gate_plot, f"{name}: no difference plot outside <details>"
        assert not gate_plot[0]["scrolls"], f"{name} at 400 px: {gate_plot[0]}"


def test_layout__flip_lines_fit_a_phone_and_keep_intervals_whole(browser: Browser) -> None:
    for name in ("regressed", "epoch-flips"):
        for width in (DESKTOP, PHONE):
            m = _measure(browser, name, width)
            flips = [p for p in m.data["paragraphs"] if "went pass → fail" in p["text"]]
            assert len(flips) == 1, f"{name} at {width} px: {flips}"
            assert flips[0]["width"] > 0, f"{name}: the flips line is not shown"
            assert not flips[0]["scrolls"], f"{name} at {width} px: {flips[0]}"
            assert not m.data["pageOverflows"], f"{name} at {width} px: page scrolls"
            split = [i for i in m.data["intervals"] if i["lines"] != 1]
            assert not split, f"{name} at {width} px: intervals split: {split}"


def test_layout__answers_fold_and_fit_a_laptop_and_a_phone(browser: Browser) -> None:
    """The answers beside the items that dropped most: their own <details> inside
    "where", each answer on its own line, nothing wider than the column (a word of
    100 characters wraps) at 900 and 400 px."""
    for width in (DESKTOP, PHONE):
        m = _measure(browser, "answers", width)
        assert not m.data["pageOverflows"], f"answers at {width} px: page scrolls"
        (block,) = [d for d in m.data["details"] if d["summary"].startswith("What they")]
        assert block["nested"], "the answers are not folded inside the where block"
        assert not block["scrolls"], f"answers at {width} px: {block}"
        assert block["right"] <= m.data["contentRight"] + 1, f"{width} px: {block}"
        items = block["items"]
        assert len(items) == 3, items
        for item in items:
            assert not item["scrolls"], f"answers at {width} px: {item}"
            assert item["right"] <= m.data["contentRight"] + 1, f"{width} px: {item}"
            # the input line, then one line each for the baseline and the candidate
            assert [s[:10] for s in item["sub"]] == ["baseline: ", "candidate:"], item
