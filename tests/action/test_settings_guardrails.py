"""The ``guardrails`` input: one a line or comma separated, errors naming the input."""

from __future__ import annotations

import pytest

from leaderboard.action.settings import Settings
from leaderboard.errors import UsageError
from leaderboard.stats import Guardrail


def _settings(raw: str) -> Settings:
    return Settings.from_env({"INPUT_RESULTS": "r.jsonl", "INPUT_GUARDRAILS": raw})


def test_guardrails__default_is_none() -> None:
    assert Settings.from_env({"INPUT_RESULTS": "r.jsonl"}).guardrails == ()


@pytest.mark.parametrize(
    "raw",
    [
        "cost:+10%\nlatency:+25%\nfaithfulness:-0.02",
        "cost:+10%, latency:+25%, faithfulness:-0.02",
        "cost:+10%,latency:+25%\n\n  faithfulness:-0.02  \n",
    ],
)
def test_guardrails__lines_and_commas_alike(raw: str) -> None:
    assert _settings(raw).guardrails == (
        Guardrail("cost", 0.10),
        Guardrail("latency", 0.25),
        Guardrail("faithfulness", 0.02),
    )


def test_guardrails__a_comma_inside_an_lm_eval_metric_stays_in_its_name() -> None:
    got = _settings("exact_match,flexible-extract:-0.05, tokens:+5%").guardrails
    assert got == (
        Guardrail("exact_match,flexible-extract", 0.05),
        Guardrail("tokens", 0.05),
    )


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        ("cost", "guardrails: expected NAME:TOLERANCE, got 'cost'"),
        ("cost:10", "guardrails: cost takes a relative increase such as +10%"),
        ("cost:+10%, cost:+20%", "'cost' is guarded twice"),
    ],
)
def test_guardrails__a_bad_entry_names_the_input(raw: str, says: str) -> None:
    with pytest.raises(UsageError, match="guardrails") as info:
        _settings(raw)
    assert says in str(info.value)
