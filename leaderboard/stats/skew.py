"""Skewed task-level differences: when the gate's level is not held.

With task-level records the tasks are the sample, and the gate's interval behaves like
a t-interval over the per-task differences. The t-stretch fixes small samples, not
skew: with right-skewed differences of mean zero (a few tasks gain much, most lose a
little) the interval's lower side is too short and the gate fires 7-10% at 3-20 tasks
against 2.5% nominal (issue 23's measurements; bench/skew.py); left-skewed ones make it
conservative. Few or strongly skewed task-level differences take a betting interval instead
(`leaderboard.stats.bounded`, issue 28); where the t-interval is kept (30 tasks or
more, its Edgeworth term within 1 point) the comparison still states strong skew:
`skew_caveat` when the adjusted Fisher-Pearson
skewness ``G1`` of the shared per-task differences exceeds both `STRONG` and twice its
standard error under normality (Joanes & Gill 1998, *The Statistician* 47(1),
183-189): a one-sided test of skew at about 2.5%, so normal differences rarely carry
the caveat, and at 3 tasks (``G1`` at most 1.73, twice its SE 2.45) it never shows.
"""

from __future__ import annotations

import math

import numpy as np

from leaderboard.stats.design import FloatArray

__all__ = ["STRONG", "sample_skewness", "skew_caveat", "skewness_se"]

STRONG = 1.0
"""``G1`` above which the comment warns (an exponential's skewness is 2)."""


def sample_skewness(x: FloatArray) -> float | None:
    """Adjusted Fisher-Pearson skewness ``G1``; None below 3 values or without spread."""
    n = int(x.size)
    if n < 3:
        return None
    dev = x - x.mean()
    m2 = float((dev**2).mean())
    if m2 <= 1e-24:
        return None
    g1 = float((dev**3).mean()) / m2**1.5
    return float(g1 * math.sqrt(n * (n - 1)) / (n - 2))


def skewness_se(n: int) -> float:
    """Standard error of ``G1`` for normal data, ``sqrt(6n(n-1) / ((n-2)(n+1)(n+3)))``."""
    return math.sqrt(6.0 * n * (n - 1) / ((n - 2) * (n + 1) * (n + 3)))


def skew_caveat(diffs: FloatArray) -> str | None:
    """The sentence the comment shows for strongly right-skewed task differences."""
    g1 = sample_skewness(np.asarray(diffs, dtype=np.float64))
    n = int(diffs.size)
    if g1 is None or g1 <= max(STRONG, 2.0 * skewness_se(n)):
        return None
    return (
        f"the {diffs.size} per-task differences are strongly right-skewed (skewness "
        f"{g1:.1f}: a few tasks gained much, most lost a little); with task-level "
        "records the gate's level is then not held exactly (its one-sided error is "
        "off by up to about 1 point here, by its Edgeworth term); item-level records "
        "would hold it"
    )
