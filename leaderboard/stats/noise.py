"""Flips in context: how many pass/fail flips noise alone would give.

Two runs of the same model disagree on some items by chance alone (sampling at a
temperature, a flaky grader), and then as many items go pass -> fail as fail -> pass:
under no change the two directions are exchangeable.

One sample per item: the line states what no change would give (CONTRACT.md section
12): given ``n`` flips, ``pass -> fail ~ Binomial(n, 1/2)`` under no change, so about
``n / 2`` each way (``noise_each_way``, halves rounded up). Whether the two directions
differ beyond noise is McNemar's exact test of that binomial (McNemar 1947,
*Psychometrika* 12(2), 153-157), two-sided at the level of the comparison the flips
belong to (its ``confidence``, family-adjusted), so the line and the comparison's
interval speak at one level.

Several pass/fail samples per item (epochs): an item's verdict in a run is pass when
at least half of its samples pass. Under no change item ``i`` has one pass probability
in both runs, so its ``k_b + k_c`` samples are exchangeable and, given their total
``X_i`` passes, the baseline's share is hypergeometric. The expected flips are the sums
over items of ``P(baseline passes, candidate fails | X_i)`` (and the reverse): the
conditional expectation of the observed flips given the pooled counts, hence unbiased
under no change for any pass probabilities (no plug-in of an estimated ``p_i``; the
Rao-Blackwell estimator of ``sum_i q_b(p_i) (1 - q_c(p_i))``). Whether the surplus of
one direction is beyond noise is the exact conditional test of the same model: the
difference ``pass -> fail - fail -> pass`` is a sum of independent per-item steps in
{-1, 0, 1} whose distribution is the convolution of theirs; with one sample in each
run it is McNemar's test.
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np

from leaderboard.report import Flips
from leaderboard.stats.design import FloatArray, IntArray

__all__ = [
    "EXACT_ITEMS",
    "EpochCounts",
    "epoch_flip_chances",
    "flip_surplus_p",
    "in_context",
    "mcnemar_p",
    "noise_each_way",
]

# per shared item: baseline passes, baseline samples, candidate passes, candidate samples
EpochCounts = tuple[IntArray, IntArray, IntArray, IntArray]


def noise_each_way(pass_to_fail: int, fail_to_pass: int) -> int:
    """Flips no change would give each way: half of those that flipped, halves up.

    Under no change the ``n`` flips split as ``Binomial(n, 1/2)``: ``n / 2`` each way
    is their expectation given ``n``.
    """
    return (pass_to_fail + fail_to_pass + 1) // 2


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


def _split_chances(kb: int, kc: int, x: int) -> tuple[float, float]:
    """``P(b passes, c fails)`` and ``P(b fails, c passes)`` when ``x`` passes of
    ``kb + kc`` exchangeable samples are split at random, ``kb`` to the baseline.

    A run passes the item when at least half of its samples pass (``2 y >= k``).
    """
    n = kb + kc
    whole = math.comb(n, kb)
    pf = fp = 0
    for y in range(max(0, x - kc), min(kb, x) + 1):
        ways = math.comb(x, y) * math.comb(n - x, kb - y)
        b_pass, c_pass = 2 * y >= kb, 2 * (x - y) >= kc
        if b_pass and not c_pass:
            pf += ways
        elif c_pass and not b_pass:
            fp += ways
    return pf / whole, fp / whole


def epoch_flip_chances(counts: EpochCounts) -> tuple[FloatArray, FloatArray]:
    """Each item's chance of a pass -> fail and a fail -> pass flip under no change.

    Parameters
    ----------
    counts
        Per shared item: baseline passes and samples, candidate passes and samples.

    Returns
    -------
    pf, fp
        ``P(pass -> fail | X_i)`` and ``P(fail -> pass | X_i)``, ``X_i`` the item's
        passes over both runs (hypergeometric split, see the module docstring); their
        sums are the flips expected from noise alone, unbiased under no change.
    """
    xb, kb, xc, kc = counts
    pf = np.zeros(xb.shape, dtype=np.float64)
    fp = np.zeros(xb.shape, dtype=np.float64)
    keys = np.stack([kb, kc, xb + xc], axis=1)
    types, inverse = np.unique(keys, axis=0, return_inverse=True)
    chances = np.array([_split_chances(int(a), int(b), int(x)) for a, b, x in types])
    if chances.size:
        inv = inverse.reshape(-1)
        pf[:], fp[:] = chances[inv, 0], chances[inv, 1]
    return pf, fp


def _power(step: FloatArray, m: int) -> FloatArray:
    """The distribution of the sum of ``m`` iid steps on {-1, 0, 1} (repeated squaring)."""
    out = np.ones(1)
    base = step
    while m:
        if m & 1:
            out = np.convolve(out, base)
        m >>= 1
        if m:
            base = np.convolve(base, base)
    return out


EXACT_ITEMS = 4000  # items that can flip, up to which the test is exact (O(n^2))


def flip_surplus_p(pf: FloatArray, fp: FloatArray, surplus: int) -> float:
    """Two-sided p-value of ``pass -> fail - fail -> pass = surplus`` under no change.

    The difference is a sum of independent per-item steps (+1 with chance ``pf``, -1
    with ``fp``); its distribution is their convolution, items of one kind raised to a
    power together. ``min(1, 2 min(P(D <= d), P(D >= d)))``; with one sample a run it is
    `mcnemar_p`. Beyond `EXACT_ITEMS` items that can flip, the normal approximation
    with a continuity correction (a sum of that many bounded independent steps).
    """
    moving = (pf > 0) | (fp > 0)
    if int(moving.sum()) > EXACT_ITEMS:
        mean = float((pf - fp).sum())
        sd = math.sqrt(float((pf + fp - (pf - fp) ** 2).sum()))
        z = (abs(surplus - mean) - 0.5) / sd
        return min(1.0, math.erfc(max(z, 0.0) / math.sqrt(2.0)))
    kinds = Counter(zip(fp[moving].tolist(), pf[moving].tolist(), strict=True))
    dist = np.ones(1)
    for (down, up), m in sorted(kinds.items()):
        dist = np.convolve(dist, _power(np.array([down, 1.0 - down - up, up]), m))
    half = (dist.size - 1) // 2  # dist[j] = P(D = j - half)
    at = surplus + half
    if at < 0 or at >= dist.size:
        return 0.0
    low, high = float(dist[: at + 1].sum()), float(dist[at:].sum())
    return min(1.0, 2.0 * min(low, high))


def in_context(
    flips: Flips | None, confidence: float, epochs: EpochCounts | None = None
) -> Flips | None:
    """`flips` with what noise alone would give and whether it explains them.

    `confidence` is the level of the comparison the flips belong to (its
    ``GateComparison.confidence``), not the report's: the test is at that level.
    With `epochs` (several pass/fail samples per item) the expected flips come from
    the within-item variation the samples show (`epoch_flip_chances`), the test from
    `flip_surplus_p`; without, from the two directions (`noise_each_way`, McNemar).
    """
    if flips is None:
        return None
    a, b = flips.pass_to_fail, flips.fail_to_pass
    if epochs is None:
        return flips.model_copy(
            update={
                "noise_each_way": noise_each_way(a, b),
                "beyond_noise": mcnemar_p(a, b) < 1.0 - confidence,
                "noise_from": "directions",
            }
        )
    pf, fp = epoch_flip_chances(epochs)
    e_pf, e_fp = float(pf.sum()), float(fp.sum())
    return flips.model_copy(
        update={
            "noise_each_way": round((e_pf + e_fp) / 2.0),
            "noise_pass_to_fail": e_pf,
            "noise_fail_to_pass": e_fp,
            "beyond_noise": flip_surplus_p(pf, fp, a - b) < 1.0 - confidence,
            "noise_from": "epochs",
        }
    )
