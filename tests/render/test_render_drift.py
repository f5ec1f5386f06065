"""The default branch's drift table, as GitHub renders it."""

from __future__ import annotations

import cmarkgfm

from leaderboard.render.drift import BACK, KeptRun, render_drift


def _runs(n: int, step: float) -> list[KeptRun]:
    return [
        KeptRun(
            commit=f"{i:040x}",
            stored_at=f"2026-11-{i % 28 + 1:02d}T00:00:00Z",
            models={"m|x": (0.8 - step * i, 0.7 - step * i, 0.9 - step * i)},
        )
        for i in range(n)
    ]


def test_render_drift__slow_slide__range_sparkline_and_change_vs_back() -> None:
    runs = _runs(12, 0.01)  # each step 0.01: below any single gate's reach
    md = render_drift(runs, branch="main", history_branch="leaderboard-history")
    html = cmarkgfm.github_flavored_markdown_to_html(md)
    drift, trend = html.split("</table>")[:2]
    assert drift.count("<tr>") == 2  # the header and one model
    # then the trend (issue 33): the chart, and its table of the 12 runs and a header
    assert "```mermaid\nxychart-beta" in md
    assert trend.count("<tr>") == 13
    assert "m|x" in html  # the pipe is escaped, the row has its cells
    assert f"{runs[-1 - BACK].commit[:7]}" in md
    # 10 pushes x 0.01, the last cell of the model's row, sign and three decimals
    assert "| █▇▇▆▅▅▄▄▃▂▂▁ (12) | -0.100 |" in md
    assert "▁" in md  # the sparkline spans the range
    assert "█" in md
    assert "[0.690,\u00a00.800]" in md  # range of the means (no-break space: never wraps)


def test_render_drift__single_run__no_change_column_and_nothing_when_empty() -> None:
    md = render_drift(_runs(1, 0.0), branch="main", history_branch="h")
    assert "Change vs" not in md
    assert render_drift([], branch="main", history_branch="h") == ""
