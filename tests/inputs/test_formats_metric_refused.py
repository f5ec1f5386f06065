"""`metric` naming nothing a framework file holds: exit 2 listing what it holds.

A preference list still falls back per task (a notice names the score kept); only a
file that holds none of the preferences at all is refused. Real files: the suite's
lm-eval 0.4.2 run and its promptfoo 0.121.20 run (their folders' READMEs).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from leaderboard.errors import InputError
from leaderboard.inputs.frameworks import FormatWarning, ReadOptions, read

FIXTURES = Path(__file__).parents[1] / "fixtures"
LM_EVAL = FIXTURES / "lm_eval" / "v0.4.2" / "dummy-a" / "results.json"
PROMPTFOO = FIXTURES / "promptfoo" / "own-run-0.121.20" / "results.jsonl"


def test_lm_eval__a_metric_no_task_reports_is_refused_listing_the_metrics() -> None:
    with pytest.raises(InputError) as caught:
        read("lm-eval", LM_EVAL, ReadOptions(metrics=("nosuch",)))
    text = str(caught.value)
    assert "--metric nosuch: names nothing this file holds; it holds: acc,none" in text
    assert str(LM_EVAL) in text
    assert "\n" not in text


def test_lm_eval__a_fallback_list_still_falls_back() -> None:
    with pytest.warns(FormatWarning):
        runs = read("lm-eval", LM_EVAL, ReadOptions(metrics=("nosuch", "acc")))
    assert {r.metric_name for r in runs} == {"acc,none"}


def test_promptfoo__a_score_the_rows_lack_is_refused_listing_the_scores() -> None:
    with pytest.raises(
        InputError, match=r"--metric nosuch: names nothing this file holds; it holds: pass"
    ):
        read("promptfoo", PROMPTFOO, ReadOptions(metrics=("nosuch",)))
