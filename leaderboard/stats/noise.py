"""Flips in context: how many pass/fail flips noise alone would give.

Two runs of the same model disagree on some items by chance alone (sampling at a
temperature, a flaky grader), and then as many items go pass -> fail as fail -> pass:
under no change the two directions are exchangeable. A change that only hurts adds to
pass -> fail alone, so the smaller direction estimates the flips noise gives each way
(``noise_each_way``; under no change both directions estimate it and the smaller errs
low by about ``0.4 sqrt(n)`` of ``n`` flips). Whether the larger direction exceeds it
beyond noise is McNemar's exact test (McNemar 1947, *Psychometrika* 12(2), 153-157):
given ``n`` flips, ``pass -> fail ~ Binomial(n, 1/2)`` under no change, two-sided at the
report's level.
"""

from __future__ import annotations

import math

from leaderboard.report import Flips

__all__ = ["in_context", "mcnemar_p", "noise_each_way"]


def noise_each_way(pass_to_fail: int, fail_to_pass: int) -> int:
    """Flips noise alone gives each way, estimated by the smaller direction."""
    return min(pass_to_fail, fail_to_pass)


def mcnemar_p(pass_to_fail: int, fail_to_pass: int) -> float:
    """Two-sided exact McNemar p-value ``2 P(X <= min)``, ``X ~ Bin(n, 1/2)``, at most 1.

    Sums the binomial tail in log space (``math.lgamma``), so any ``n`` is exact to
    rounding.
    """
    n = pass_to_fail + fail_to_pass
    k = min(pass_to_fail, fail_to_pass)
    if n == 0 or 2 * k == n:
        return 1.0
    log_half_n = n * math.log(0.5)
    terms = [
        math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) + log_half_n
        for i in range(k + 1)
    ]
    top = max(terms)
    tail = math.exp(top) * sum(math.exp(t - top) for t in terms)
    return min(1.0, 2.0 * tail)


def in_context(flips: Flips | None, confidence: float) -> Flips | None:
    """`flips` with what noise alone would give (`noise_each_way`, McNemar's test)."""
    if flips is None:
        return None
    a, b = flips.pass_to_fail, flips.fail_to_pass
    return flips.model_copy(
        update={
            "noise_each_way": noise_each_way(a, b),
            "beyond_noise": mcnemar_p(a, b) < 1.0 - confidence,
        }
    )
