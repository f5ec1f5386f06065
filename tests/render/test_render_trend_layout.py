"""The trend chart as GitHub draws it: mermaid.js in headless Chromium, 900 and 400 px.

GitHub renders a ```mermaid block of a comment client-side with mermaid.js. Here the
canonical comment with a kept history (`tests.render.canonical.trend_report`) is made
into HTML by cmark-gfm with GitHub's stylesheet (`tests.render.browser`), mermaid's
own browser bundle (``scripts/install-mermaid.sh``, pinned) renders each block in
place, and the test reads the SVG: every chart parses, draws one line through every
run, carries the ``base``, ``step`` and ``PR`` labels, and fits the comment column at a
laptop's and a phone's width. A hostile model id renders as text.
"""

from __future__ import annotations

import functools
import itertools
from pathlib import Path
from typing import Any

import pytest

from leaderboard.render.comment import render_comment
from tests.render.browser import DESKTOP, PHONE, Browser
from tests.render.canonical import CTX, TREND_RUNS, trend_report

MERMAID_VERSION = "11.17.2"  # scripts/install-mermaid.sh
MERMAID_JS = (
    Path(__file__).resolve().parents[2]
    / ".tools"
    / f"mermaid-{MERMAID_VERSION}"
    / "node_modules"
    / "mermaid"
    / "dist"
    / "mermaid.min.js"
)

RENDER_JS = r"""
async () => {
  mermaid.initialize({ startOnLoad: false, securityLevel: 'strict' });
  const art = document.querySelector('article.markdown-body');
  for (const d of art.querySelectorAll('details')) d.open = true;
  const out = [];
  const blocks = [...art.querySelectorAll('pre[lang="mermaid"]')];
  for (const [i, pre] of blocks.entries()) {
    try {
      const { svg } = await mermaid.render('trend' + i, pre.textContent);
      const div = document.createElement('div');
      div.innerHTML = svg;
      pre.replaceWith(div);
      const s = div.querySelector('svg');
      const r = s.getBoundingClientRect();
      const line = s.querySelector('[class*="line-plot"] path');
      out.push({
        ok: true, width: r.width, height: r.height, column: art.clientWidth - 32,
        texts: [...s.querySelectorAll('text')].map((t) => t.textContent),
        line: line ? line.getAttribute('d') : null,
        lineBox: line ? line.getBBox().width : 0,
        elements: [...s.querySelectorAll('*')].map((e) => e.tagName.toLowerCase()),
        labels: [...s.querySelectorAll('text')]
          .filter((t) => /^([0-9a-f]{7}|PR|base|step|new)( |$)/.test(t.textContent))
          .map((t) => { const b = t.getBoundingClientRect();
                        return [t.textContent, b.left, b.right, b.height]; }),
      });
    } catch (e) {
      out.push({ ok: false, error: String(e) });
    }
  }
  return {
    charts: out,
    pageOverflows:
      document.documentElement.scrollWidth > document.documentElement.clientWidth,
  };
}
"""


def _needs_mermaid() -> None:
    if not MERMAID_JS.exists():
        pytest.skip(
            f"no mermaid bundle at {MERMAID_JS}: scripts/install-mermaid.sh "
            "(`make tools`) installs it from npm"
        )


def _render(browser: Browser, markdown: str, width: int) -> dict[str, Any]:
    page = browser.page(markdown, width)
    try:
        page.add_script_tag(path=str(MERMAID_JS))
        result: dict[str, Any] = page.evaluate(RENDER_JS)
        return result
    finally:
        page.close()


@functools.cache
def _trend(browser: Browser, width: int) -> dict[str, Any]:
    return _render(browser, render_comment(trend_report(), CTX), width)


@pytest.mark.parametrize("width", [DESKTOP, PHONE])
def test_trend_layout__charts_render_and_fit_the_column(
    browser: Browser, width: int
) -> None:
    _needs_mermaid()
    got = _trend(browser, width)
    charts = got["charts"]
    assert len(charts) == 2, charts  # cand-b (regressed) first, then cand-a
    for chart in charts:
        assert chart["ok"], chart
        assert 0 < chart["width"] <= chart["column"] + 0.5, (width, chart["width"])
        assert chart["height"] > 100, chart
        assert chart["line"], chart
        assert chart["lineBox"] > chart["width"] * 0.5, chart  # across the plot
        labels = chart["labels"]
        assert [x[0] for x in labels[-2:]] == ["base", "PR"], labels
        assert len(labels) == TREND_RUNS + 1, labels  # each kept run, and this run
        # the x-axis labels never touch: each ends before the next begins
        touching = [(a[0], b[0]) for a, b in itertools.pairwise(labels) if a[2] > b[1]]
        assert not touching, f"at {width} px x-axis labels overlap: {touching}"
        assert min(x[3] for x in labels) >= 7, labels  # readable, not shrunk to dots
    assert "step" in [x[0] for x in charts[0]["labels"]], charts[0]["labels"]
    assert "cand-b: mean score per run" in charts[0]["texts"]
    assert not got["pageOverflows"], f"at {width} px the page scrolls sideways"


def test_trend_layout__hostile_model_id_renders_as_text(browser: Browser) -> None:
    _needs_mermaid()
    hostile = 'x"] %%{init: {"securityLevel": "loose"}}%% <img src=x onerror=alert(1)>'
    report = trend_report()
    rows = [
        r.model_copy(update={"model_id": hostile}) if r.model_id == "cand-b" else r
        for r in report.leaderboard
    ]
    gate = report.gate
    comps = [
        c.model_copy(update={"candidate": hostile}) if c.candidate == "cand-b" else c
        for c in gate.comparisons
    ]
    assert gate.baseline_run is not None
    trend = [
        p.model_copy(
            update={
                "models": {hostile if k == "cand-b" else k: v for k, v in p.models.items()}
            }
        )
        for p in gate.baseline_run.trend
    ]
    run = gate.baseline_run.model_copy(update={"trend": trend})
    report = report.model_copy(
        update={
            "leaderboard": rows,
            "gate": gate.model_copy(update={"comparisons": comps, "baseline_run": run}),
        }
    )
    got = _render(browser, render_comment(report, CTX), DESKTOP)
    charts = got["charts"]
    assert all(c["ok"] for c in charts), charts
    assert not any(
        "img" in c["elements"] or "foreignobject" in c["elements"] for c in charts
    )
    titles = [t for c in charts for t in c["texts"] if t.endswith(": mean score per run")]
    assert any(t.startswith("x_ _init: _securityLevel_") for t in titles), titles
