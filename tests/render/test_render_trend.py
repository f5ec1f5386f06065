"""The trend block (`leaderboard.render.trend`): labels, marks, table, escaping, bounds."""

from __future__ import annotations

import re

from leaderboard.render.escape import mermaid_text
from leaderboard.render.trend import TREND_RUNS, Point, Series, trend_block


def _points(n: int, *, step_at: int | None = None) -> list[Point]:
    out = []
    for i in range(n):
        m = 0.8 if step_at is None or i < step_at else 0.5
        out.append(Point(f"{i:07x}" + "0" * 33, m, m - 0.02, m + 0.02))
    return out


def test_trend__one_run__nothing_drawn() -> None:
    assert trend_block([Series("m", _points(1))], what="x") == ("", [])


def test_trend__labels_marks_and_table() -> None:
    pts = _points(6, step_at=4)
    pts[-1] = Point(pts[-1].commit, pts[-1].mean, pts[-1].lo, pts[-1].hi, ("base",))
    pts.append(Point(None, 0.51, 0.49, 0.53, ("pr",)))
    block, steps = trend_block([Series("m", pts)], what="`PR` this run")
    axis = re.search(r"x-axis \[(.*)\]", block)
    assert axis is not None
    assert axis.group(1) == (
        '"0000000", "0000001", "0000002", "0000003", "step", "base", "PR"'
    )
    assert steps == ["0000004"]
    assert "| `0000004` (step) | 0.500 [0.480,\u00a00.520] |" in block
    assert "| `0000005` (base) | 0.500 [" in block
    assert "| this run (PR) | 0.510 [" in block
    assert "Step change: **m** at `0000004`, 0.800 → 0.500" in block
    assert '    y-axis "mean score" 0.48 --> 0.82' in block


def test_trend__at_most_trend_runs_kept_runs_and_three_models() -> None:
    series = [Series(f"m{i}", _points(30)) for i in range(5)]
    block, _ = trend_block(series, what="x")
    assert block.count("```mermaid") == 3
    axis = re.search(r"x-axis \[(.*)\]", block)
    assert axis is not None
    assert axis.group(1).count('"') == 2 * (TREND_RUNS + 1)


def test_trend__untrusted_commit_and_model_are_inert() -> None:
    bad = "`evil` <b>|x"
    pts = [Point(bad, 0.5, 0.4, 0.6), Point(bad + "2", 0.6, 0.5, 0.7)]
    block, _ = trend_block([Series('m"] %%{x}%%', pts)], what="x")
    chart = block.split("```mermaid\n", 1)[1].split("\n```", 1)[0]
    assert "`" not in chart
    assert "%%" not in chart
    assert 'x-axis ["_evil_", "_evil_"]' in chart  # 7 characters, reduced
    assert "| `evil` <b>" not in block
    assert "\\<b\\>" in block  # the table escapes it for markdown


def test_mermaid_text__keeps_the_safe_characters_and_cuts() -> None:
    assert mermaid_text("org/model-7B_v1.2 (chat)") == "org/model-7B_v1.2 (chat)"
    assert mermaid_text('a"b;c#d%e') == "a_b_c_d_e"
    assert mermaid_text("") == "_"
    assert mermaid_text("x" * 100, 10) == "xxxxxxx..."
