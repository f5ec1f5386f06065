"""Escaping untrusted text (model, task and category ids, messages) for its destination.

Ids come from an artifact that untrusted code produced. Everything the renderer takes
from the artifact passes through one of these functions before it reaches markdown or a
runner log:

- `md_text`: safe anywhere inline in GitHub-flavoured markdown, including a table cell.
- `html_text`: safe inside raw HTML such as ``<summary>`` (markdown is not parsed there).
- `md_with_code`: a message whose `` `quoted` `` parts become code spans.
- `nbsp`: joins a short run (an interval) so that it never breaks over two lines.
- `log_text`: safe in a line of the runner log (no workflow commands).
- `plain_text`: one line of visible plain text (a commit status description): no
  control, format (bidi) or line-break character survives.
- `code_text`: safe inside a fenced code block that `code_fence` opened.
- `mermaid_text`: safe inside a double-quoted string of a mermaid chart (the trend).
- `safe_url`: an http(s) URL that can sit inside ``[text](url)``, or None.

How GitHub sees markdown (cmark-gfm, then its HTML pipeline) decides the rules:
cmark-gfm splits table cells at every ``|`` not preceded by a backslash, turns
``www.x``, ``https://x`` and ``a@b.c`` into links, passes raw HTML through; GitHub then
turns ``@user``, ``@org/team`` and ``#123`` in the rendered *text* into mentions and
links, so a backslash cannot stop those: a word joiner (U+2060) after ``@`` or ``#``
does.
"""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import quote, urlsplit

__all__ = [
    "code_fence",
    "code_text",
    "html_text",
    "log_text",
    "md_text",
    "md_with_code",
    "mermaid_text",
    "nbsp",
    "plain_text",
    "safe_url",
    "truncate",
]

REPLACEMENT = "\ufffd"
WORD_JOINER = "\u2060"
ZERO_WIDTH_SPACE = "\u200b"

# Characters that start a block (list, heading underline) at the start of a line.
_MD_LEADING = frozenset("-+=")
# The dot of "www." and the colon of "scheme://" start a GFM bare-URL autolink.
_AUTOLINK = re.compile(r"(?i)(?<=www)\.|:(?=//)")
_LEADING_NUMBER = re.compile(r"^(\d{1,9})([.)])")
# GitHub links "GH-123" to issue 123 (and marks that issue as mentioned) in rendered
# text, like "#123": a word joiner between "GH" and "-" stops it.
_GH_REFERENCE = re.compile(r"(?i)(?<=gh)(?=-\d)")
# Control characters (Cc), lone surrogates (Cs), and the characters that reorder how
# text displays ("trojan source": bidi marks, embeddings, overrides, isolates) or end a
# line (U+2028, U+2029).
_UNSAFE = re.compile(
    "[\x00-\x1f\x7f-\x9f\ud800-\udfff\u061c\u200e\u200f\u2028\u2029"
    "\u202a-\u202e\u2066-\u2069]"
)
# ASCII punctuation that starts markdown syntax anywhere inside a line: escapes, code
# spans, emphasis, links/images, raw HTML/autolinks, table cells, entities,
# strikethrough, math. ("#" and "@" get a word joiner too, see md_text.)
_MD_ESCAPE = re.compile(r"[\\`*_\[\]<>|&~!$]")
# "@" starts a mention unless a space follows ("model @ main" copies cleanly)
_AT = re.compile(r"@(?! )")


def _is_unsafe_char(ch: str) -> bool:
    """True for control characters, lone surrogates, and bidi/line-break characters."""
    return _UNSAFE.match(ch) is not None


def truncate(s: str, limit: int) -> str:
    """Cut `s` to at most `limit` characters, marking a cut with an ellipsis.

    Parameters
    ----------
    s : str
        Any text.
    limit : int
        Maximum length in characters (at least 1).

    Returns
    -------
    str
        `s` itself when short enough, else its first ``limit - 1`` characters and "…".
    """
    if len(s) <= limit:
        return s
    return s[: max(limit - 1, 0)] + "…"


def md_text(s: str) -> str:
    """Escape untrusted text for GitHub-flavoured markdown (prose or a table cell).

    The result renders as exactly the characters of `s` (control, bidi and line-break
    characters replaced by U+FFFD; a word joiner after ``@`` (unless a space follows,
    which no mention can), ``#`` and the ``GH``
    of ``GH-123``), as one
    inline run of plain text: no HTML, no link, no mention, no emphasis, no table
    cell break, no heading or list.

    Parameters
    ----------
    s : str
        Untrusted text, e.g. a model id from the artifact.

    Returns
    -------
    str
        Markdown source that renders as `s`.
    """
    s = _UNSAFE.sub(REPLACEMENT, s)
    text = _MD_ESCAPE.sub(r"\\\g<0>", s)
    text = _AT.sub("@" + WORD_JOINER, text).replace("#", "\\#" + WORD_JOINER)
    text = _AUTOLINK.sub(r"\\\g<0>", text)
    text = _GH_REFERENCE.sub(WORD_JOINER, text)
    if text[:1] in _MD_LEADING:
        text = "\\" + text
    # "1. x" or "1) x" at the start of a line opens an ordered list.
    return _LEADING_NUMBER.sub(r"\1\\\2", text)


#: what `html.escape` with ``quote=True`` replaces, as a table (the `html` module
#: imports `html.entities`' 2,231 names, about 1 ms of every run's start)
_HTML_ENTITIES = str.maketrans(
    {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;"}
)


def html_text(s: str) -> str:
    """Escape untrusted text for raw HTML that GitHub shows, e.g. inside ``<summary>``.

    A line starting with ``<details>`` opens an HTML block: cmark-gfm passes it through
    without parsing markdown, so a backslash escape would show literally. Here ``&``,
    ``<``, ``>`` and quotes become entities; control, bidi and line-break characters
    become U+FFFD; ``@``, ``#`` and ``GH-`` get a word joiner (GitHub links mentions in
    HTML text too).

    Parameters
    ----------
    s : str
        Untrusted text.

    Returns
    -------
    str
        HTML text that displays as `s`.
    """
    text = _UNSAFE.sub(REPLACEMENT, s).translate(_HTML_ENTITIES)
    text = _AT.sub("@" + WORD_JOINER, text).replace("#", "#" + WORD_JOINER)
    return _GH_REFERENCE.sub(WORD_JOINER, text)


_QUOTED = re.compile(r"`([^`\n]{1,400})`")


def md_with_code(s: str) -> str:
    """Escape a message for markdown, turning its `` `quoted` `` parts into code spans.

    Error messages quote fields and commands in backticks; escaped, those backticks
    would show literally. The quoted text is shown verbatim in a code span (markdown,
    mentions and links are not interpreted there); the rest goes through `md_text`.

    Parameters
    ----------
    s : str
        Untrusted text on one line.

    Returns
    -------
    str
        Markdown that renders as `s`, quoted parts in monospace.
    """
    out: list[str] = []
    pos = 0
    for m in _QUOTED.finditer(s):
        out.append(md_text(s[pos : m.start()]) if m.start() > pos else "")
        body = _UNSAFE.sub(REPLACEMENT, m.group(1))
        # A code span strips one space at each end when both are present: pad to keep it.
        pad = " " if body.startswith(" ") and body.endswith(" ") else ""
        out.append(f"`{pad}{body}{pad}`")
        pos = m.end()
    if pos < len(s):
        out.append(md_text(s[pos:]))
    return "".join(out)


def nbsp(s: str) -> str:
    """`s` with every space made non-breaking (U+00A0): an interval stays on one line."""
    return s.replace(" ", "\u00a0")


def _visible_escape(match: re.Match[str]) -> str:
    ch = match.group(0)
    if ch in "\n\r\t":
        return repr(ch)[1:-1]
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def log_text(s: str) -> str:
    """Make untrusted text safe in one line of a GitHub Actions runner log.

    Control, bidi and line-break characters become visible escapes (``\\n``,
    ``\\x1b``, ``\\u202e``), so the text stays on one line and no ANSI sequence
    recolours the log. ``::`` (workflow commands such as ``::error::``,
    ``::add-mask::``, ``::stop-commands::``) and ``##[`` (the legacy form, which the
    runner finds anywhere in a line) get a zero-width space inside, so the runner
    never recognises a command wherever the text sits in the line.

    Parameters
    ----------
    s : str
        Untrusted text.

    Returns
    -------
    str
        One line of text without workflow commands.
    """
    text = _UNSAFE.sub(_visible_escape, s)
    text = text.replace("::", ":" + ZERO_WIDTH_SPACE + ":")
    return text.replace("##[", "#" + ZERO_WIDTH_SPACE + "#[")


# Unicode categories that show nothing of their own or reorder or break the line:
# controls (Cc), format characters (Cf: bidi marks, embeddings, overrides, isolates,
# zero-width characters), surrogates (Cs), unassigned (Cn), line and paragraph
# separators (Zl, Zp).
_INVISIBLE = frozenset({"Cc", "Cf", "Cs", "Cn", "Zl", "Zp"})


def plain_text(s: str | None) -> str:
    """One line of visible plain text: for the commit status and other plain surfaces.

    Every control, format (bidi, zero-width) and line-break character becomes a space
    and runs of white space become one, so a model id holding U+202E cannot reverse
    the numbers beside the merge button. Nothing is escaped: plain text is not parsed.
    """
    out = [
        " " if ch.isspace() or unicodedata.category(ch) in _INVISIBLE else ch
        for ch in s or ""
    ]
    return " ".join("".join(out).split())


def code_text(s: str) -> str:
    """Make untrusted text safe on one line inside a fenced code block.

    Markdown is not interpreted inside a code block; only a line that starts with a
    fence could end it, so `code_fence` picks a fence longer than any run of
    backticks in the block. Here, control, bidi and line-break characters are replaced
    by U+FFFD so the text stays on its line and displays in order, and ``##[`` gets a
    zero-width space inside: the command line prints this block on standard output,
    which a workflow step's log scans for the legacy ``##[command]`` form anywhere in
    a line.

    Parameters
    ----------
    s : str
        Untrusted text.

    Returns
    -------
    str
        The text, on one line.
    """
    return _UNSAFE.sub(REPLACEMENT, s).replace("##[", "#" + ZERO_WIDTH_SPACE + "#[")


#: What a mermaid string keeps; everything else becomes "_".
_MERMAID_KEEP = re.compile(r"[^A-Za-z0-9 ._:/@+()-]")


def mermaid_text(s: str, limit: int = 40) -> str:
    """`s` fit to sit between double quotes in a mermaid chart, at most `limit` long.

    Mermaid has no escape inside a quoted string: ``"`` ends it, ``#...;`` is read as
    an entity, ``%%`` starts a comment, ``;`` and a line break end a statement, and
    its labels become HTML (``<``). Only letters, digits, space and ``._:/@+()-``
    are kept (no backtick either, so the block's fence cannot close early); any other
    character, and any run of them, becomes one ``_``. The result is cut to `limit`
    characters with "..." and never empty.
    """
    text = re.sub(r"_+", "_", _MERMAID_KEEP.sub("_", s)).strip()
    if len(text) > limit:
        text = text[: limit - 3].rstrip() + "..."
    return text or "_"


def code_fence(body: str, info: str = "text") -> str:
    """Wrap `body` in a fenced code block that nothing in `body` can close.

    Parameters
    ----------
    body : str
        The block's lines (no trailing newline needed).
    info : str
        The info string after the opening fence.

    Returns
    -------
    str
        The fenced block, ending with a newline.
    """
    runs = [len(m.group(0)) for m in re.finditer(r"`+", body)]
    fence = "`" * max(3, max(runs, default=0) + 1)
    return f"{fence}{info}\n{body.rstrip(chr(10))}\n{fence}\n"


def safe_url(url: str | None) -> str | None:
    """Return `url` fit to sit in ``[text](url)``, or None when it is not http(s).

    Parameters
    ----------
    url : str or None
        A URL built from runner variables (server URL, repository, run id).

    Returns
    -------
    str or None
        The URL with every character that could end or alter a markdown link
        percent-encoded; None for other schemes (``javascript:``) or no host.
    """
    if not url or any(_is_unsafe_char(ch) or ch.isspace() for ch in url):
        return None
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme.lower() not in {"http", "https"} or not parts.netloc:
        return None
    return quote(url, safe="/:?=&%#~.-_+,;!$*@")
