"""See rendered markdown the way GitHub does: cmark-gfm, then look at the HTML.

`gfm` renders with cmark-gfm (the parser GitHub uses) with the table, autolink and
strikethrough extensions and raw HTML let through (UNSAFE) and *without* the tagfilter
extension, so an unescaped ``<script>`` shows up as a tag instead of being hidden.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

import cmarkgfm
from cmarkgfm.cmark import Options

MENTION = re.compile(r"(?<![\w`])[@#][A-Za-z0-9]")


def gfm(markdown: str) -> str:
    """HTML of `markdown` as GitHub's parser makes it (raw HTML kept, no tag filter)."""
    return cmarkgfm.markdown_to_html_with_extensions(
        markdown,
        options=Options.CMARK_OPT_UNSAFE,
        extensions=["table", "autolink", "strikethrough"],
    )


@dataclass
class Parsed:
    tags: list[str] = field(default_factory=list)  # start tags with attributes, in order
    tables: list[list[list[str]]] = field(default_factory=list)  # table -> row -> cell
    text: list[str] = field(default_factory=list)  # text outside <code>/<pre>
    links: list[str] = field(default_factory=list)  # href of every <a>
    comments: list[str] = field(default_factory=list)


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out = Parsed()
        self._cell: list[str] | None = None
        self._code = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = "".join(f" {k}={v!r}" for k, v in attrs if k not in {"align", "style"})
        self.out.tags.append(tag + attr)
        if tag == "table":
            self.out.tables.append([])
        elif tag == "tr":
            self.out.tables[-1].append([])
        elif tag in {"td", "th"}:
            self._cell = []
        elif tag == "a":
            self.out.links.append(dict(attrs).get("href") or "")
        elif tag in {"code", "pre"}:
            self._code += 1

    def handle_endtag(self, tag: str) -> None:
        self.out.tags.append("/" + tag)
        if tag in {"td", "th"} and self._cell is not None:
            self.out.tables[-1][-1].append("".join(self._cell))
            self._cell = None
        elif tag in {"code", "pre"}:
            self._code -= 1

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)
        if not self._code:
            self.out.text.append(data)

    def handle_comment(self, data: str) -> None:
        self.out.comments.append(data)


def parse(markdown: str) -> Parsed:
    """Render `markdown` with cmark-gfm and collect tags, table cells, text and links."""
    parser = _Parser()
    parser.feed(gfm(markdown))
    parser.close()
    return parser.out


def mentions(parsed: Parsed) -> list[str]:
    """Text GitHub would turn into a mention or an issue link (``@x``, ``#1``)."""
    return MENTION.findall("".join(parsed.text))
