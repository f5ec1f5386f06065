"""Skewed task-level differences (issue 23, item 6): the caveat and its statistic."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from leaderboard import EvalRun, build_report
from leaderboard.render import render_comment
from leaderboard.stats.skew import sample_skewness, skew_caveat, skewness_se


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.floats(-1, 1, allow_nan=False), min_size=3, max_size=30).filter(
        lambda x: np.ptp(x) > 1e-3
    )
)
def test_sample_skewness__is_scipys_adjusted_g1(xs: list[float]) -> None:
    x = np.array(xs)
    assert sample_skewness(x) == pytest.approx(stats.skew(x, bias=False), abs=1e-9)


def test_skewness_se__closed_form_at_ten() -> None:
    assert skewness_se(10) == pytest.approx(np.sqrt(6 * 10 * 9 / (8 * 11 * 13)))


def test_skew_caveat__rarely_on_normal_differences() -> None:
    rng = np.random.default_rng(0)
    shown = sum(skew_caveat(rng.normal(0, 1, 10)) is not None for _ in range(2000))
    assert shown / 2000 <= 0.05  # a one-sided test of skew at about 2.5%


def _runs(diffs: np.ndarray) -> list[EvalRun]:
    base = np.full(diffs.size, 0.5)
    return [EvalRun("base", f"t{t}", float(base[t])) for t in range(diffs.size)] + [
        EvalRun("cand", f"t{t}", float(base[t] + diffs[t])) for t in range(diffs.size)
    ]


def test_skew_caveat__shown_in_the_comment_where_the_t_interval_is_kept() -> None:
    # 100 tasks, a quarter gain 0.06 and the rest lose 0.02: G1 = 1.17, above the
    # caveat's 1, and the t-interval's Edgeworth term (0.0099) within the bounded
    # interval's rule (issue 28), so the t-interval is kept and the caveat shown
    diffs = np.array([-0.02] * 75 + [0.06] * 25)
    report = build_report(_runs(diffs), baseline="base", resamples=500)
    c = report.gate.comparisons[0]
    assert c.skew_caveat is not None
    assert "strongly right-skewed" in c.skew_caveat
    assert "the gate's level is then not held exactly" in render_comment(report)
    mirrored = build_report(_runs(-diffs), baseline="base", resamples=500)
    assert mirrored.gate.comparisons[0].skew_caveat is None  # left skew: conservative


def test_skew_caveat__few_skewed_tasks_take_the_bounded_interval_instead() -> None:
    # issue 28: before, 10 such tasks kept the t-interval and showed the caveat
    diffs = np.array([-0.02] * 9 + [0.2])  # most lose a little, one gains much
    report = build_report(_runs(diffs), baseline="base", resamples=500)
    c = report.gate.comparisons[0]
    assert c.skew_caveat is None
    assert c.status == "undetermined"
    assert c.note is not None
    assert "unseen task falling to 0" in c.note
