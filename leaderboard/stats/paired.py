"""A floor under the interval of a paired pass/fail difference.

Two runs scored pass/fail on the same items differ only on their discordant items. When
there are few of them the replicates show almost no spread, and with none at all the
bootstrap interval of the difference collapses to [0, 0]: two runs that agree on all
60 items would read "a drop larger than 0 is ruled out", though 60 agreements cannot
rule out a true discordance of 6%, all of it a drop.

Where both sides of a comparison are pass/fail items, the interval is therefore never
narrower than Tango's score interval for the difference of paired proportions (Tango
1998, Statist. Med. 17:891-908; recommended for this case by Fagerland, Lydersen &
Laake 2014, Statist. Med. 33:2850-2875). With ``b`` pairs passed by the candidate only
and ``c`` by the baseline only, of ``n``, it holds every difference ``D`` where

    |b - c - n D| <= z * sqrt(n (2 p(D) + D (1 - D)))

``p(D)`` being the maximum-likelihood share of baseline-only pairs when the difference
is ``D``. It depends on the discordant pairs alone, as the difference does, and stays
honest when they are few: with none, ``|D| <= z^2 / (n + z^2)``, what ``n`` agreements
allow. With many it is about as wide as the bootstrap's own interval and changes
little (docs/statistics.md measures how little). Weighted items take the weighted
shares at Korn & Graubard's effective size, one pair's variance of the difference
over the replicates' variance (at most Kish's ``(sum w)^2 / sum w^2``, the items when
unweighted; Kish's where the replicates show no spread), with Student's t at the
difference's degrees of freedom for ``z``, as the floors of single means do
(`leaderboard.stats.floors`). Clustered items keep the cluster bootstrap's interval
wherever it shows a spread (Tango's interval assumes independent pairs); where it shows
none, the clusters count as the pairs. Scores that are not pass/fail (partial credit,
epochs averaged) take the floor only where every difference is the same, as when
every item agrees: the shares are then the differences' positive and negative parts,
and since a difference lies in [-1, 1] what ``n`` agreements cannot rule out for
pass/fail pairs they cannot rule out for these either.
"""

from __future__ import annotations

import math

import numpy as np

from leaderboard.stats.design import BoolArray, Design, FloatArray
from leaderboard.stats.quantiles import t_ppf

__all__ = ["paired_binary_floor", "tango_interval"]


def _tango_score(diff: float, n: float, b: float, c: float) -> float:
    """Tango's score statistic at a hypothesised difference ``diff`` of ``(b - c) / n``
    (``b``: pairs the first side alone passed, ``c``: the second; Fagerland et al.'s
    ``n12`` and ``n21``)."""
    w = -b - c + (2.0 * n - b + c) * diff
    root = math.sqrt(max(w * w + 8.0 * n * c * diff * (1.0 - diff), 0.0))
    p_c = max((root - w) / (4.0 * n), 0.0)  # the constrained MLE of c's share
    var = n * (2.0 * p_c + diff * (1.0 - diff))
    gap = b - c - n * diff
    if var <= 0.0:
        return math.copysign(math.inf, gap) if gap else 0.0
    return gap / math.sqrt(var)


def tango_interval(
    first_only: float, second_only: float, n: float, crit: float
) -> tuple[float, float]:
    """Tango's score interval for ``(b - c) / n``, the difference of paired shares.

    ``first_only``: pairs only the first side passed, ``second_only``: only the
    second, of ``n`` (real numbers: an effective size may be fractional); ``crit``: the
    critical value. Each end solves ``|T| = crit`` by bisection (60 halvings: below
    1e-17); ``|T|`` grows monotonely away from the estimate on each side.
    """
    b, c = first_only, second_only
    est = (b - c) / n

    def solve(toward: float) -> float:
        if abs(_tango_score(toward, n, b, c)) <= crit:
            return toward
        inside, outside = est, toward
        for _ in range(60):
            mid = (inside + outside) / 2.0
            if abs(_tango_score(mid, n, b, c)) <= crit:
                inside = mid
            else:
                outside = mid
        return inside

    return solve(-1.0), solve(1.0)


def paired_binary_floor(
    lo: FloatArray,
    hi: FloatArray,
    j: int,
    d: Design,
    *,
    pair: tuple[int, int],
    shared: BoolArray,
    estimate: float,
    se: float,
    alpha: float,
    df: float,
) -> bool:
    """Widen ``[lo[j], hi[j]]`` to Tango's interval where both sides are pass/fail.

    Item-level comparisons with degrees of freedom only; ``pair`` is (candidate,
    baseline), ``shared`` the items both hold, `estimate` the difference shown and
    `se` its replicates' standard deviation.
    Pass/fail items on both sides, or any scores whose differences are all the same
    (no spread at all, as where every epoch of an item agrees or partial credit
    repeats); returns whether the floor applied.
    """
    if not d.item_level or df < 1 or not shared.any():
        return False
    if d.unit_kind != "item" and se > 0:  # clusters that vary: their bootstrap stands
        return False
    x = d.scores[shared, pair[0]]
    y = d.scores[shared, pair[1]]
    gap = x - y
    flat = bool((gap == gap[0]).all())  # no spread: any scores in [0, 1]
    if not (flat or (np.isin(x, (0.0, 1.0)).all() and np.isin(y, (0.0, 1.0)).all())):
        return False
    # each task's items share its weight (the estimate's per-task means, weighted)
    task = d.item_task[shared]
    per_task = np.bincount(task, minlength=len(d.tasks)).astype(np.float64)
    w = d.task_weight[task] / per_task[task]
    total = float(w.sum())
    if total <= 0:
        return False
    # pass/fail: the shares passed by one side only; flat differences of partial
    # scores: their positive and negative parts (|x - y| <= 1, so a share of pairs
    # differing can move the mean at most that much)
    cand_only = float((w * np.maximum(gap, 0.0)).sum()) / total
    base_only = float((w * np.maximum(-gap, 0.0)).sum()) / total
    diff = cand_only - base_only
    # Kish's effective size of the weights bounds it: the replicates' spread alone
    # (Korn & Graubard) would take 10 agreeing items that carry most of the weight for
    # as many as the items
    n = total * total / float((w * w).sum())
    spread = cand_only + base_only - diff * diff  # one pair's variance of the difference
    if se > 0 and spread > 0:  # Korn & Graubard: the size the replicates' spread implies
        n = min(spread / (se * se), n)
    elif d.unit_kind != "item":  # clusters alike throughout: each cluster one unit
        n = min(n, float(len(np.unique(d.item_unit[shared]))))
    t_lo, t_hi = tango_interval(
        cand_only * n, base_only * n, n, t_ppf(1.0 - alpha / 2.0, df)
    )
    below, above = diff - t_lo, t_hi - diff
    lo[j] = max(min(float(lo[j]), estimate - below), -1.0)
    hi[j] = min(max(float(hi[j]), estimate + above), 1.0)
    return True
