"""The statistics name no shell's options: each shell adds its own (CONTRACT.md
sections 4 and 5; docs/architecture.md, the statistics never touch a shell)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from leaderboard.errors import UsageError
from leaderboard.stats.guardrails import check_guardrails, parse_guardrail
from leaderboard.stats.two_runs import parse_baseline_map

STATS = Path(__file__).resolve().parents[2] / "leaderboard" / "stats"
SHELL_NAMES = re.compile(r"--[a-z]|action input|comment-header|baseline-map")


def test_stats__no_option_or_action_input_names_in_the_source() -> None:
    files = sorted(STATS.rglob("*.py"))
    assert len(files) > 10
    hits = [
        f"{path.name}:{n}: {line.strip()}"
        for path in files
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if SHELL_NAMES.search(line)
    ]
    assert hits == []


def test_shell_names__the_pattern_finds_what_it_is_for() -> None:
    for text in ("--guardrail", "action input `x`", "one comment-header", "baseline-map"):
        assert SHELL_NAMES.search(text)
    assert not SHELL_NAMES.search("baseline map NEW=OLD; x - y; a -- b")


@pytest.mark.parametrize("option", ["--baseline-map", "baseline-map"])
def test_parse_baseline_map__names_the_option_its_shell_passes(option: str) -> None:
    with pytest.raises(UsageError, match=rf"^{option}: expected NEW=OLD"):
        parse_baseline_map(["oops"], option)
    with pytest.raises(UsageError, match=r"^baseline map: expected NEW=OLD"):
        parse_baseline_map(["oops"])


def test_check_guardrails__names_the_option_its_shell_passes() -> None:
    twice = [parse_guardrail("cost:+10%"), parse_guardrail("cost:+20%")]
    with pytest.raises(UsageError, match=r"^guardrails: 'cost' is guarded twice"):
        check_guardrails(twice, "guardrails")
    with pytest.raises(UsageError, match=r"^guardrail: 'cost' is guarded twice"):
        check_guardrails(twice)


def test_usage_error__naming_replaces_only_its_own_subject() -> None:
    exc = UsageError(
        "baseline map a=b: model 'a' is not in the results", subject="baseline map"
    )
    named = exc.naming({"baseline map": "--baseline-map", "guardrail": "--guardrail"})
    assert str(named) == "--baseline-map a=b: model 'a' is not in the results"
    assert exc.naming({"guardrail": "--guardrail"}) is exc
    plain = UsageError("confidence: must be between 0 and 1")
    assert plain.naming({"confidence": "--confidence"}) is plain
    with pytest.raises(ValueError, match="does not start with"):
        UsageError("x: y", subject="guardrail")
