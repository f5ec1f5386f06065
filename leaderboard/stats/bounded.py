"""Few task-level units: an interval valid for any scores in [0, 1] (issue 28).

With task-level records (one score per task) the tasks are the sample, and the
bootstrap/t interval over the per-task differences holds its level only for roughly
normal differences: with right-skewed ones (a few tasks gain much, most lose a little)
its upper side is too short and a comparison of equal models regressed 10-17% of the
time at 2-20 tasks against 2.5% nominal (docs/statistics.md). Where the t-interval
cannot be trusted the gate uses instead a *betting* confidence interval
(Waudby-Smith & Ramdas 2024, "Estimating means of bounded random variables by
betting", JRSS-B 86(1), 1-27), which holds its level in finite samples for every
distribution of differences in [-1, 1]:

For a candidate mean ``m`` a gambler starting with capital 1 bets on each task's
difference in turn, ``K+ = prod_t (1 + lambda_t r_t (d_t - m))``, with a bet
``lambda_t`` fixed before task ``t`` is seen (the fixed-sample "predictable plug-in"
of WSR section 3: ``sqrt(2 log(1/a) / (n var_{t-1}))``, ``var_{t-1}`` the running
variance of the differences seen so far with a prior of 1, the widest spread on
[-1, 1], counted as one observation) and truncated at ``c / (r_t (1 + m))`` so that
capital stays positive whatever the difference. ``r_t`` is task ``t``'s weight over
the mean weight (1 without weights). If the mean were ``m``, ``K+`` would be a
nonnegative martingale of expectation 1, and by Markov's inequality it reaches ``1/a``
with probability at most ``a``: every ``m`` it reaches is rejected, and the lower end
is the smallest ``m`` not rejected (``K+`` decreases in ``m``, so a bisection finds
it). The upper end bets the other way, ``K- = prod (1 - lambda_t r_t (d_t - m))``.
The tasks have no order, so the capital is averaged over `PERMUTATIONS` seeded orders
(an average of e-values is an e-value; WSR section 6); each side is taken at
``alpha / 2``, so the two-sided interval holds ``1 - alpha``.

What it costs: nothing rules out a task the gambler has not seen falling from its
score to 0. With ``n`` tasks all showing no change, a share ``log(2/alpha) / n`` of
tasks collapsing cannot be excluded, so below about ``log(2/alpha) / max_drop`` tasks
(about 90 at ``max_drop`` 0.05, more with the family's level) no method valid for all
bounded scores can pass a comparison, and a drop is detected only when it is large.
That is the honest answer at these sizes: such reports read "cannot tell".

Where it is used (`uses_bounded`): task-level comparisons with fewer than
`T_TRUSTED_UNITS` shared tasks, and above that whenever the first Edgeworth term of
the t-interval's one-sided error at the observed skewness (Hall 1992, *The Bootstrap
and Edgeworth Expansion*, section 2.6: ``|G1| (2 z^2 + 1) phi(z) / (6 sqrt(n))``)
exceeds `EDGEWORTH_TOLERANCE`. Item-level data keep the bootstrap (their units are
many, and their task means are close to normal).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from leaderboard.stats.design import BoolArray, Design, FloatArray
from leaderboard.stats.quantiles import norm_ppf
from leaderboard.stats.ruled_out import Needed, about
from leaderboard.stats.skew import sample_skewness

__all__ = [
    "BOUNDED_NOTE",
    "EDGEWORTH_TOLERANCE",
    "NO_DETECTABLE_BOUNDED",
    "PERMUTATIONS",
    "T_TRUSTED_UNITS",
    "Bounded",
    "betting_interval",
    "edgeworth_excess",
    "fewest_units_to_pass",
    "take_bounded",
    "uses_bounded",
    "widened_need",
]

T_TRUSTED_UNITS = 30
"""Shared tasks from which the t-interval may be used (when the skew allows it)."""
EDGEWORTH_TOLERANCE = 0.01
"""Most one-sided error the t-interval may add, by its first Edgeworth term."""
PERMUTATIONS = 64
"""Seeded task orders the capital is averaged over."""
TRUNCATION = 0.75
"""WSR's ``c``: the most of its capital the gambler stakes on one task."""
_BISECTIONS = 50


def edgeworth_excess(diffs: FloatArray, alpha: float) -> float:
    """First Edgeworth term of the t-interval's one-sided error at level ``alpha``.

    ``|G1| (2 z^2 + 1) phi(z) / (6 sqrt(n))`` with ``z = z_{1 - alpha/2}`` and ``G1``
    the differences' adjusted skewness (`leaderboard.stats.skew.sample_skewness`); inf
    when the skewness cannot be estimated (fewer than 3 differences), 0 without spread.
    """
    n = int(diffs.size)
    if n < 3:
        return math.inf
    g1 = sample_skewness(diffs)
    if g1 is None:
        return 0.0
    z = norm_ppf(1.0 - alpha / 2.0)
    phi = math.exp(-z * z / 2.0) / math.sqrt(2.0 * math.pi)
    return abs(g1) * (2.0 * z * z + 1.0) * phi / (6.0 * math.sqrt(n))


def uses_bounded(diffs: FloatArray, alpha: float) -> bool:
    """Whether a task-level comparison takes the betting interval (module docstring)."""
    return diffs.size < T_TRUSTED_UNITS or edgeworth_excess(diffs, alpha) > (
        EDGEWORTH_TOLERANCE
    )


def _orders(n: int, seed: int) -> np.ndarray:
    """`PERMUTATIONS` task orders (the first the given one), from `seed`."""
    rng = np.random.default_rng([seed, 28, n])
    orders = np.empty((PERMUTATIONS, n), dtype=np.intp)
    orders[0] = np.arange(n)
    for p in range(1, PERMUTATIONS):
        orders[p] = rng.permutation(n)
    return orders


def _bets(x: FloatArray, level: float) -> FloatArray:
    """Predictable plug-in bets for each row of ``x`` (P, n), before truncation."""
    p, n = x.shape
    t = np.arange(1, n + 1, dtype=np.float64)
    csum = np.cumsum(x, axis=1)
    mu = csum / t  # running mean after t observations
    # running sum of squared deviations from the running mean (predictable form)
    prev_mu = np.concatenate([np.zeros((p, 1)), mu[:, :-1]], axis=1)
    dev2 = np.cumsum((x - prev_mu) ** 2, axis=1)
    var = (1.0 + dev2) / (t + 1.0)  # prior: variance 1, one observation
    var_before = np.concatenate([np.ones((p, 1)), var[:, :-1]], axis=1)
    out: FloatArray = np.sqrt(2.0 * math.log(1.0 / level) / (n * var_before))
    return out


def _log_capital(
    x: FloatArray, r: FloatArray, lam: FloatArray, m: float, sign: float
) -> float:
    """log of the capital averaged over orders, betting ``sign`` (+1: mean above m)."""
    room = (1.0 + m) if sign > 0 else (1.0 - m)
    cap = TRUNCATION / (r * max(room, 1e-12))
    bet = np.minimum(lam, cap)
    factors = 1.0 + sign * bet * r * (x - m)
    logs = np.log(np.maximum(factors, 1e-300)).sum(axis=1)
    top = float(logs.max())
    return top + math.log(float(np.exp(logs - top).mean()))


def betting_interval(
    diffs: FloatArray, weights: FloatArray, alpha: float, *, seed: int
) -> tuple[float, float]:
    """Two-sided ``1 - alpha`` betting interval for the weighted mean of ``diffs``.

    ``diffs`` in [-1, 1] (paired task differences), ``weights`` positive. The
    interval always holds the weighted mean itself (the estimate the report shows).
    """
    d = np.clip(np.asarray(diffs, dtype=np.float64), -1.0, 1.0)
    w = np.asarray(weights, dtype=np.float64)
    n = int(d.size)
    est = float((w * d).sum() / w.sum())
    if n == 0:
        return -1.0, 1.0
    orders = _orders(n, seed)
    x = d[orders]
    r = (w / w.mean())[orders]
    level = alpha / 2.0
    lam = _bets(r * x, level)
    threshold = math.log(1.0 / level)

    def end(sign: float) -> float:
        # sign +1: lower end, the smallest m whose K+ stays below 1/level
        inside, outside = est, -sign * 1.0
        if _log_capital(x, r, lam, outside, sign) < threshold:
            return outside
        for _ in range(_BISECTIONS):
            mid = (inside + outside) / 2.0
            if _log_capital(x, r, lam, mid, sign) >= threshold:
                outside = mid
            else:
                inside = mid
        return inside

    lo, hi = end(1.0), end(-1.0)
    return min(lo, est), max(hi, est)


def fewest_units_to_pass(alpha: float, max_drop: float) -> int:
    """Fewest tasks, all showing exactly no change, whose lower end reaches ``-max_drop``.

    At ``m = -max_drop`` every task adds ``log(1 + c max_drop / (1 - max_drop))`` to the
    capital at the largest bet; the betting interval can pass no comparison with fewer.
    """
    step = math.log1p(TRUNCATION * max_drop / (1.0 - max_drop))
    return math.ceil(math.log(2.0 / alpha) / step)


BOUNDED_NOTE = (
    " (few or skewed task-level differences: the interval holds for any task scores, "
    "so it allows for an unseen task falling to 0)"
)

NO_DETECTABLE_BOUNDED = (
    "no detectable drop: with these few or skewed task-level differences the interval "
    "holds for any task scores (it allows for an unseen task falling to 0), and no "
    "drop within the score range would be detected with 80% power; more tasks or "
    "item-level records would tell"
)


@dataclass(frozen=True)
class Bounded:
    """A comparison's betting interval, with what its planning figures need."""

    lo: float
    hi: float
    estimate: float
    t_lo: float  # the t-scaled bootstrap's lower end it replaced
    diffs: FloatArray

    def reach(self, t_half: float) -> float:
        """How much farther up than the t-interval's ``t_half`` the interval reaches."""
        return max(self.hi - self.estimate - t_half, 0.0)


def take_bounded(
    lo: FloatArray,
    hi: FloatArray,
    j: int,
    d: Design,
    *,
    pair: tuple[int, int],
    shared: BoolArray,
    alpha: float,
    df: float,
    seed: int,
) -> Bounded | None:
    """Put the betting interval in ``lo[j], hi[j]`` where `uses_bounded` says so.

    Task-level records with degrees of freedom only (item-level data and comparisons
    without an interval stay as given). ``pair`` is (candidate, baseline).
    """
    if d.item_level or df < 1:
        return None
    candidate, baseline = pair
    diffs = d.scores[shared, candidate] - d.scores[shared, baseline]
    if diffs.size < 2 or not uses_bounded(diffs, alpha):
        return None
    weights = d.item_weight[shared]
    b_lo, b_hi = betting_interval(diffs, weights, alpha, seed=seed)
    out = Bounded(
        lo=b_lo,
        hi=b_hi,
        estimate=float((weights * diffs).sum() / weights.sum()),
        t_lo=float(lo[j]),
        diffs=diffs,
    )
    lo[j], hi[j] = b_lo, b_hi
    return out


def widened_need(
    bounded: Bounded | None, need: Needed, *, alpha: float, max_drop: float
) -> Needed:
    """About how many tasks would rule out `max_drop` when the betting interval is used.

    `need` is the t-interval's planning figure at this spread (returned as is without
    a betting interval). The t-interval is trusted from `T_TRUSTED_UNITS` tasks once
    its Edgeworth term, shrinking as ``1 / sqrt(n)``, is within `EDGEWORTH_TOLERANCE`;
    the betting interval cannot pass below `fewest_units_to_pass`. The figure is the
    t-interval's, raised to the sooner of the two.
    """
    if bounded is None:
        return need
    n = int(bounded.diffs.size)
    excess = edgeworth_excess(bounded.diffs, alpha)
    trusted = float(T_TRUSTED_UNITS)
    if math.isfinite(excess) and excess > EDGEWORTH_TOLERANCE:
        trusted = max(trusted, n * (excess / EDGEWORTH_TOLERANCE) ** 2)
    floor = min(trusted, float(fewest_units_to_pass(alpha, max_drop)))
    return Needed(max(need.units, about(floor)), None)
