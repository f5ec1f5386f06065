"""Workflow commands: annotation escaping, outputs that ids cannot forge, the summary."""

from __future__ import annotations

import io
import re
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from leaderboard.action.runner import (
    Log,
    append_summary,
    escape_data,
    escape_property,
    write_outputs,
)
from tests.action.action_helpers import annotations, parse_outputs


def test_escape_data__percent_first_then_line_breaks() -> None:
    assert escape_data("50% \r\n x") == "50%25 %0D%0A x"
    assert escape_data("%0A") == "%250A"  # a literal "%0A" is not decoded to a newline


def test_escape_data__legacy_command_form_broken() -> None:
    assert "##[" not in escape_data("a ##[error]b")


def test_escape_property__also_colon_and_comma() -> None:
    assert escape_property("a:b,c\n") == "a%3Ab%2Cc%0A"


@given(st.text())
def test_annotation__always_one_line_and_decodes_back(text: str) -> None:
    out = io.StringIO()
    Log(out).error(text, title=text)
    lines = out.getvalue().split("\n")
    assert lines[-1] == ""
    assert len(lines) == 2
    ((level, _props, message),) = annotations(out.getvalue())
    assert level == "error"
    if all(
        unicodedata.category(c) not in ("Cc", "Cf", "Zl", "Zp") or c in "\n\r\t"
        for c in text
    ):
        assert message == text.replace("##[", "#\u200b#[")
    assert not any(
        unicodedata.category(c) in ("Cc", "Cf") and c not in "\n\r\t"
        for c in message
        if c != "\u200b"
    )


@pytest.mark.parametrize(
    "hostile",
    [
        "::add-mask::x",
        "ok\n::stop-commands::abc",
        "x\r\n::error::fake",
        "##[set-output name=regressed;]false",
        "a\n##[warning]b",
    ],
)
def test_info__untrusted_text_never_starts_a_command(hostile: str) -> None:
    out = io.StringIO()
    Log(out).info(f"model {hostile}")
    text = out.getvalue()
    assert text.count("\n") == 1
    assert "::" not in text
    assert "##[" not in text


def test_log__redacts_secrets_everywhere() -> None:
    out = io.StringIO()
    log = Log(out, secrets=["s3cr3t-token", ""])
    log.info("a s3cr3t-token b")
    log.warning("w s3cr3t-token", title="t s3cr3t-token")
    log.error("e s3cr3t-token")
    assert "s3cr3t-token" not in out.getvalue()
    assert out.getvalue().count("***") == 4
    assert log.counts == {"error": 1, "warning": 1, "notice": 0}


def test_write_outputs__heredoc_with_random_delimiters(tmp_path: Path) -> None:
    path = tmp_path / "out"
    write_outputs(path, {"regressed": "false", "report": "r.json"})
    write_outputs(path, {"comment-url": ""})
    text = path.read_text()
    delimiters = re.findall(r"<<(.+)", text)
    assert len(delimiters) == len(set(delimiters)) == 3
    assert all(re.fullmatch(r"ghadelimiter_[0-9a-f]{32}", d) for d in delimiters)
    assert parse_outputs(text) == {
        "regressed": "false",
        "report": "r.json",
        "comment-url": "",
    }


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",))))
def test_write_outputs__a_value_cannot_forge_another_output(value: str) -> None:
    import tempfile  # noqa: PLC0415 - hypothesis and function-scoped fixtures do not mix

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "out"
        hostile = f"{value}\nEOF\nregressed<<EOF\ntrue\nEOF\nghadelimiter_0\nregressed=true"
        write_outputs(path, {"report": hostile, "regressed": "false"})
        parsed = parse_outputs(path.read_text(encoding="utf-8"))
    assert parsed == {"report": hostile.replace("\r\n", "\n"), "regressed": "false"} or (
        parsed["regressed"] == "false" and set(parsed) == {"report", "regressed"}
    )


def test_write_outputs__without_path_writes_nothing(tmp_path: Path) -> None:
    write_outputs(None, {"a": "b"})
    assert list(tmp_path.iterdir()) == []


def test_append_summary__appends_with_final_newline(tmp_path: Path) -> None:
    path = tmp_path / "summary"
    append_summary(path, "# one")
    append_summary(path, "two\n")
    append_summary(None, "ignored")
    assert path.read_text() == "# one\ntwo\n"
