"""render.escape: md_text, log_text, code_fence, safe_url, seen through cmark-gfm."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leaderboard.render.escape import (
    REPLACEMENT,
    WORD_JOINER,
    code_fence,
    code_text,
    html_text,
    log_text,
    md_text,
    md_with_code,
    safe_url,
    truncate,
)
from tests.render.render_html import mentions, parse

# Characters that mean something to markdown, GitHub or the runner, plus ordinary ones.
TRICKY = list("|\\`*_[]<>&#@:./-+=!~$()'\"{}^%\n\r\t\x00\x1b\u202e\u2028 wW0123456789xyz")
texts = st.text(alphabet=st.sampled_from(TRICKY) | st.characters(), max_size=60)


def expected_text(s: str) -> str:
    """What md_text(s) must render as: s, unsafe characters replaced, joiners added."""
    out = []
    for i, ch in enumerate(s):
        unsafe = unicodedata.category(ch) in {"Cc", "Cs"} or ch in (
            "\u061c\u200e\u200f\u2028\u2029\u202a\u202b\u202c\u202d\u202e"
            "\u2066\u2067\u2068\u2069"
        )
        out.append(REPLACEMENT if unsafe else ch)
        if ch == "#" or (ch == "@" and s[i + 1 : i + 2] != " "):
            out.append(WORD_JOINER)
    return "".join(out)


@settings(max_examples=300, deadline=None)
@given(texts)
def test_md_text__renders_as_the_same_plain_text_in_prose(s: str) -> None:
    parsed = parse(f"x {md_text(s)} y\n")
    assert parsed.tags == ["p", "/p"]
    assert "".join(parsed.text).rstrip("\n") == f"x {expected_text(s)} y"
    assert mentions(parsed) == []


@settings(max_examples=300, deadline=None)
@given(texts, texts)
def test_md_text__stays_in_its_table_cell(a: str, b: str) -> None:
    md = f"| h1 | h2 |\n|---|---|\n| {md_text(a)} | {md_text(b)} |\n"
    parsed = parse(md)
    assert parsed.tables == [
        [["h1", "h2"], [expected_text(a).strip(" "), expected_text(b).strip(" ")]]
    ]
    closing = {"/table", "/thead", "/tbody", "/tr", "/th", "/td"}
    assert [t for t in parsed.tags if t not in closing] == [
        "table", "thead", "tr", "th", "th", "tbody", "tr", "td", "td"
    ]  # fmt: skip
    assert parsed.links == []


@pytest.mark.parametrize(
    ("raw", "escaped"),
    [
        ("gpt-4o-mini", "gpt-4o-mini"),
        ("Llama-3.1-8B", "Llama-3.1-8B"),
        ("a|b", "a\\|b"),
        ("<b>", "\\<b\\>"),
        ("@octocat", "@\u2060octocat"),
        ("#12", "\\#\u206012"),
        ("- item", "\\- item"),
        ("1. item", "1\\. item"),
        ("https://x.y", "https\\://x.y"),
        ("www.x.y", "www\\.x.y"),
        ("a\nb", "a\ufffdb"),
    ],
)
def test_md_text__examples(raw: str, escaped: str) -> None:
    assert md_text(raw) == escaped


def test_md_text__keeps_ordinary_ids_readable() -> None:
    ids = ["meta-llama/Llama-3.1-8B-Instruct", "qwen2.5-7b", "claude 3 (2024)", "模型-甲"]
    assert [md_text(i) for i in ids] == ids


@pytest.mark.parametrize(
    "attack",
    [
        "::error::pwned",
        "  ::add-mask::secret",
        "x\n::stop-commands::tok",
        "x\r::set-output name=a::b",
        "##[error]legacy",
        "a ##[group]b",
        "\x1b[2J\x1b[31mred",
        "line\u2028::warning::sep",
    ],
)
def test_log_text__no_workflow_command_survives(attack: str) -> None:
    out = log_text(attack)
    assert "\n" not in out
    assert "\r" not in out
    assert "\x1b" not in out
    assert "\u2028" not in out
    assert "::" not in out
    assert "##[" not in out
    assert not out.lstrip().startswith("::")


def test_log_text__shows_control_characters_as_visible_escapes() -> None:
    assert log_text("a\nb\tc\x1bd\u202e") == "a\\nb\\tc\\x1bd\\u202e"
    assert log_text("plain id-1.5") == "plain id-1.5"


@settings(max_examples=300, deadline=None)
@given(texts)
def test_log_text__is_one_line_without_commands(s: str) -> None:
    out = log_text(s)
    assert out.splitlines() in ([], [out])
    assert "::" not in out
    assert "##[" not in out


def test_code_text__one_line() -> None:
    assert code_text("a\nb\u202ec") == "a\ufffdb\ufffdc"


@pytest.mark.parametrize("body", ["plain", "```\nbreakout", "x ````` y", "~~~"])
def test_code_fence__nothing_inside_closes_it(body: str) -> None:
    parsed = parse(code_fence(body) + "after *em*\n")
    assert parsed.tags[:2] == ["pre", "code class='language-text'"]
    assert parsed.tags.count("pre") == 1
    assert "em" in parsed.tags  # the text after the block is markdown again


@pytest.mark.parametrize(
    ("url", "safe"),
    [
        ("https://github.com/o/r/actions/runs/1", "https://github.com/o/r/actions/runs/1"),
        ("https://x.example/a)b<c>", "https://x.example/a%29b%3Cc%3E"),
        ("javascript:alert(1)", None),
        ("https://x.example/\nfoo", None),
        ("ftp://x.example", None),
        ("", None),
        (None, None),
    ],
)
def test_safe_url(url: str | None, safe: str | None) -> None:
    assert safe_url(url) == safe


def test_safe_url__link_stays_one_link() -> None:
    url = safe_url("https://x.example/a)](javascript:alert(1))")
    assert url is not None
    parsed = parse(f"[run]({url})\n")
    assert parsed.links == [url]


def test_truncate() -> None:
    assert truncate("abcdef", 4) == "abc…"
    assert truncate("abc", 4) == "abc"


def test_html_text__escapes_for_summary_without_backslashes() -> None:
    assert html_text('Llama_3 <b>&"x"') == "Llama_3 &lt;b&gt;&amp;&quot;x&quot;"
    assert html_text("@octocat #1") == f"@{WORD_JOINER}octocat #{WORD_JOINER}1"
    assert html_text("a\u202eb") == "a\ufffdb"


@pytest.mark.parametrize(
    ("raw", "markdown"),
    [
        ("field `score`: 1.5", "field `score`: 1.5"),
        ("no code *here*", "no code \\*here\\*"),
        ("`a|b` and `@x`", "`a|b` and `@x`"),
        ("odd ` backtick", "odd \\` backtick"),
        ("` spaced `", "`  spaced  `"),
    ],
)
def test_md_with_code__quoted_parts_become_code_spans(raw: str, markdown: str) -> None:
    assert md_with_code(raw) == markdown
