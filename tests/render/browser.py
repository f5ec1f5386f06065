"""Render markdown the way GitHub shows a comment, in headless Chromium, and measure it.

cmark-gfm (the `cmarkgfm` package, GitHub's extensions, raw HTML kept) makes the HTML;
the page wraps it in ``<article class="markdown-body">`` with GitHub's own stylesheet
(github-markdown-css 5.9.0, vendored in ``github_markdown_css/``); Debian's
``/usr/bin/chromium`` renders it, driven by the `playwright` package with
``executable_path`` (no ``playwright install``, no download). Widths depend on fonts:
``scripts/install-tools.sh`` installs fonts-liberation (Arial's metrics, GitHub's
stack falls back to it) and fonts-noto-color-emoji.

`MEASURE_JS` opens every ``<details>`` and reports, per table and code block, whether
it scrolls sideways; per interval (``[a, b]`` in the text), on how many lines it lies;
per warning list item, how many markers it holds; and the fonts in use.
"""

from __future__ import annotations

import html
import os
import pathlib
import shutil
from dataclasses import dataclass
from typing import Any

import cmarkgfm
from cmarkgfm.cmark import Options

CSS_DIR = pathlib.Path(__file__).resolve().parent / "github_markdown_css"
CHROMIUM = (
    os.environ.get("LEADERBOARD_CHROMIUM")
    or shutil.which("chromium")
    or shutil.which("chromium-browser")
    or shutil.which("google-chrome")
    or os.environ.get("CHROME_BIN")  # set on GitHub's Ubuntu runners
)
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--hide-scrollbars",
    "--font-render-hinting=none",
]
PAGE_BG = {"light": "#ffffff", "dark": "#0d1117"}
DESKTOP, PHONE = 900, 400  # GitHub's comment column on a laptop, and on a phone


def gfm(markdown: str) -> str:
    """HTML as GitHub's parser makes it: cmark-gfm with GitHub's extensions
    (table, autolink, tagfilter, strikethrough, tasklist), raw HTML kept."""
    return cmarkgfm.github_flavored_markdown_to_html(
        markdown, options=Options.CMARK_OPT_UNSAFE
    )


def page_html(markdown: str, width: int, theme: str = "light") -> str:
    """A page holding the comment in a `width`-pixel column with GitHub's stylesheet."""
    css = (CSS_DIR / f"github-markdown-{theme}.css").read_text(encoding="utf-8")
    return (
        '<!doctype html><html><head><meta charset="utf-8">'
        f'<meta name="color-scheme" content="{theme}"><title>{html.escape(theme)}</title>'
        f"<style>{css}</style><style>html,body{{margin:0;padding:0;"
        f"background:{PAGE_BG[theme]}}}</style></head><body>"
        '<article class="markdown-body" style="box-sizing:border-box;'
        f'width:{width}px;padding:16px">{gfm(markdown)}</article></body></html>'
    )


MEASURE_JS = r"""
() => {
  const art = document.querySelector('article.markdown-body');
  for (const d of art.querySelectorAll('details')) d.open = true;
  const tables = [...art.querySelectorAll('table')];
  const lines = (rects) => {
    const mids = [];
    for (const r of rects) {
      if (r.width === 0 && r.height === 0) continue;
      const mid = r.top + r.height / 2;
      if (!mids.some((m) => Math.abs(m - mid) < 4)) mids.push(mid);
    }
    return mids.length;
  };
  const out = {
    contentWidth: art.clientWidth - 32,
    pageOverflows:
      document.documentElement.scrollWidth > document.documentElement.clientWidth,
    tables: tables.map((t) => ({
      headers: [...t.querySelectorAll('thead th')].map((th) => th.textContent.trim()),
      scrollWidth: t.scrollWidth, clientWidth: t.clientWidth,
      scrolls: t.scrollWidth > t.clientWidth,
    })),
    pre: [...art.querySelectorAll('pre')].map((p) => ({
      scrollWidth: p.scrollWidth, clientWidth: p.clientWidth,
      scrolls: p.scrollWidth > p.clientWidth, inDetails: !!p.closest('details'),
    })),
    blocks: [...art.children].filter((e) => e.tagName === 'P').map((p) => ({
      text: p.textContent.slice(0, 60), scrolls: p.scrollWidth > p.clientWidth })),
    paragraphs: [...art.querySelectorAll('p')].map((p) => ({
      text: p.textContent, scrolls: p.scrollWidth > p.clientWidth,
      width: p.getBoundingClientRect().width })),
    intervals: [], warnings: [], fonts: {},
    contentRight: art.getBoundingClientRect().right,
    details: [...art.querySelectorAll('details')].map((d) => ({
      summary: ((d.querySelector('summary') || {}).textContent || '').trim(),
      nested: !!d.parentElement.closest('details'),
      scrolls: d.scrollWidth > d.clientWidth,
      right: d.getBoundingClientRect().right,
      items: [...d.querySelectorAll(':scope > ul > li')].map((li) => ({
        text: li.textContent.slice(0, 60),
        scrolls: li.scrollWidth > li.clientWidth,
        right: li.getBoundingClientRect().right,
        sub: [...li.querySelectorAll(':scope > ul > li')].map((x) => x.textContent),
      })),
    })),
  };
  // Every "[a, b]" in the text (not in <pre>): the lines its characters lie on.
  const re = /\[[-+]?\d[\d.]*,[\s\u00a0]*[-+]?\d[\d.]*\]/g;
  const walker = document.createTreeWalker(art, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n.parentElement.closest('pre')) continue;
    for (const m of n.data.matchAll(re)) {
      const r = document.createRange();
      r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
      const table = tables.indexOf(n.parentElement.closest('table'));
      out.intervals.push({ text: m[0], table, lines: lines(r.getClientRects()) });
    }
  }
  for (const li of art.querySelectorAll('li')) {
    const text = li.textContent;
    const markers = text.split('\u26a0').length - 1;
    if (!markers) continue;
    const r = document.createRange(); r.selectNodeContents(li);
    const first = [...r.getClientRects()].find((x) => x.width > 0);
    const left = li.getBoundingClientRect().left;
    out.warnings.push({ markers, text: text.trim().slice(0, 60),
                        atLineStart: first ? first.left - left < 4 : false });
  }
  return out;
}
"""


@dataclass
class Measured:
    """What `MEASURE_JS` returned, with the comment's name and the width."""

    name: str
    width: int
    data: dict[str, Any]

    def table(self, header: str) -> dict[str, Any]:
        """The first table with a header cell reading `header`."""
        for t in self.data["tables"]:
            if header in t["headers"]:
                return dict(t)
        raise AssertionError(f"{self.name} at {self.width}px: no table headed {header!r}")


class Browser:
    """One headless Chromium for a test session; `measure` renders and measures."""

    def __init__(self) -> None:
        from playwright.sync_api import sync_playwright  # noqa: PLC0415 (optional)

        self._pw = sync_playwright().start()
        self.browser = self._pw.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS
        )

    def close(self) -> None:
        self.browser.close()
        self._pw.stop()

    def page(self, markdown: str, width: int, theme: str = "light") -> Any:
        page = self.browser.new_page(
            viewport={"width": width, "height": 600}, device_scale_factor=1
        )
        page.set_content(page_html(markdown, width, theme), wait_until="load")
        page.evaluate("document.fonts.ready.then(() => true)")
        return page

    def measure(self, name: str, markdown: str, width: int) -> Measured:
        page = self.page(markdown, width)
        try:
            data = page.evaluate(MEASURE_JS)
            data["fonts"] = used_fonts(page)
        finally:
            page.close()
        return Measured(name, width, data)


def used_fonts(page: Any) -> list[str]:
    """Fonts Chromium really used for a table cell (after fallback), via CDP."""
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("DOM.enable")
        cdp.send("CSS.enable")
        root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
        node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": "article p"})
        if not node["nodeId"]:
            return []
        got = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node["nodeId"]})
        return [f["familyName"] for f in got["fonts"]]
    finally:
        cdp.detach()


def unavailable() -> str | None:
    """Why the browser tests cannot run here, or None."""
    if CHROMIUM is None:
        return (
            "no Chromium (chromium, chromium-browser, google-chrome, $CHROME_BIN or "
            "$LEADERBOARD_CHROMIUM): scripts/install-tools.sh (`make tools`) installs "
            "Debian's chromium and the fonts where it has root and apt-get"
        )
    try:
        import playwright.sync_api  # noqa: F401, PLC0415
    except ImportError:
        return "the playwright package is missing: pip install -e '.[test]'"
    return None
