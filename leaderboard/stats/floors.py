"""A floor under a mean's interval where the data's own spread says too little.

A bootstrap interval is built from the spread the data show. Binary scores at 20 of 20
correct show none, and the interval collapses to [1, 1], though 20 items cannot rule out
a true rate of 0.85; constant scores collapse to [x, x] the same way. For binary units
(and for units that show no spread at all) the interval is therefore never narrower than
Wilson's score interval (Wilson 1927, J. Amer. Statist. Assoc. 22:209-212; Brown, Cai &
DasGupta 2001, Statist. Sci. 16:101-133) at the *effective* sample size
``p (1 - p) / SE^2`` (Korn & Graubard 1998, Survey Methodology 24:193-201), at most the
number of items (tasks, for task-level records), with Student's t at the estimate's
degrees of freedom in place of the normal quantile. Scores in [0, 1] vary at most like
0/1 outcomes (variance <= p (1 - p)), so for constant scores this is the widest spread
the data cannot rule out.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from leaderboard.stats.quantiles import betainc, norm_ppf, t_ppf

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


def wilson(p: FloatArray, n: FloatArray, crit: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Wilson's score interval: proportions ``p`` of ``n``, critical values ``crit``."""
    c2 = crit * crit
    denom = n + c2
    centre = (n * p + c2 / 2.0) / denom
    half = crit * np.sqrt(np.maximum(n * p * (1.0 - p) + c2 / 4.0, 0.0)) / denom
    return np.clip(centre - half, 0.0, 1.0), np.clip(centre + half, 0.0, 1.0)


def wilson_floor(
    lo: FloatArray,
    hi: FloatArray,
    *,
    estimate: FloatArray,
    se: FloatArray,
    n_obs: FloatArray,
    df: FloatArray,
    alpha: float,
    applies: BoolArray,
) -> tuple[FloatArray, FloatArray]:
    """Widen ``[lo, hi]`` to Wilson's interval where ``applies`` (binary or flat units).

    ``n_obs``: the observations behind each mean (items; tasks for task-level
    records), the most the effective sample size can be. Columns with ``df < 1``
    (already the whole range) and without observations stay as given.
    """
    p = np.clip(estimate, 0.0, 1.0)
    var_p = p * (1.0 - p)
    n_eff = np.divide(var_p, se * se, out=np.array(n_obs, dtype=np.float64), where=se > 0)
    n_eff = np.minimum(np.where(var_p > 0, n_eff, n_obs), n_obs)
    use = applies & (df >= 1) & (n_obs >= 1) & (n_eff > 0)
    crit = np.array([t_ppf(1.0 - alpha / 2.0, float(v)) if v >= 1 else 0.0 for v in df])
    w_lo, w_hi = wilson(p, np.where(use, n_eff, 1.0), crit)
    return np.where(use, np.minimum(lo, w_lo), lo), np.where(use, np.maximum(hi, w_hi), hi)


PLAIN_SPREAD = 0.9
"""Least effective share of the items for a binary mean to count as a plain proportion."""


_EDGE = 1e-12  # the normal start kept inside (0, 1)
_STEP_TOL = 1e-16  # absolute: every quantile lies in [0, 1]
_MAX_STEPS = 200  # Newton and bisection together: 2^-200 would be far past precision


def beta_ppf(q: float, a: float, b: float) -> float:
    """The ``q`` quantile of Beta(a, b), to about 1e-15: Newton's method on `betainc`
    from the normal approximation, kept inside a bisection bracket.

    A step that would leave the bracket (or a density that underflows) bisects it
    instead, so it cannot diverge; about six evaluations of `betainc` where bisection
    to the same precision takes sixty (a binary model's interval ends, issue 31).
    """
    lo, hi = 0.0, 1.0
    log_norm = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
    mean = a / (a + b)
    sd = math.sqrt(a * b / ((a + b) ** 2 * (a + b + 1.0)))
    x = min(max(mean + norm_ppf(q) * sd, _EDGE), 1.0 - _EDGE)
    for _ in range(_MAX_STEPS):
        f = betainc(a, b, x) - q  # increasing in x
        if f < 0:
            lo = x
        else:
            hi = x
        new = math.nan
        if 0.0 < x < 1.0:
            log_pdf = log_norm + (a - 1.0) * math.log(x) + (b - 1.0) * math.log1p(-x)
            if -700.0 < log_pdf < 700.0:
                new = x - f / math.exp(log_pdf)
        if not lo < new < hi:
            new = (lo + hi) / 2.0
        if abs(new - x) <= _STEP_TOL or hi - lo <= _STEP_TOL:
            return new
        x = new
    return (lo + hi) / 2.0


def clopper_pearson(k: float, n: float, alpha: float) -> tuple[float, float]:
    """Clopper-Pearson's exact interval for ``k`` successes of ``n`` (real ``k``, ``n``:
    the beta-quantile form, as Korn & Graubard use it at an effective sample size)."""
    lo = 0.0 if k <= 0.0 else beta_ppf(alpha / 2.0, k, n - k + 1.0)
    hi = 1.0 if k >= n else beta_ppf(1.0 - alpha / 2.0, k + 1.0, n - k)
    return lo, hi


def exact_binary(
    lo: FloatArray,
    hi: FloatArray,
    *,
    estimate: FloatArray,
    se: FloatArray,
    n_obs: FloatArray,
    df: FloatArray,
    alpha: float,
    binary: BoolArray,
    flat: BoolArray,
    independent_items: bool = False,
) -> tuple[FloatArray, FloatArray]:
    """Korn & Graubard's Clopper-Pearson interval in place of ``[lo, hi]`` where
    ``binary``; Wilson's floor (`wilson_floor`) under the other ``flat`` columns.

    Binary units: the mean is a proportion, and the exact binomial interval
    (Clopper & Pearson 1934, Biometrika 26:404-413) holds at least its level at every
    sample size and never reaches 1 (or 0) unless every item passed (or failed). With
    tasks weighted or items clustered it is taken at the effective sample size
    ``n* = p (1 - p) / SE^2`` (at most the items), scaled by ``(t_{n-1} / t_df)^2`` for
    the estimate's degrees of freedom, with ``p n*`` successes (Korn & Graubard 1998,
    Survey Methodology 24:193-201). A plain proportion (`independent_items`: units are
    single items; ``p n`` a whole number ``k``; the replicates' spread that of ``n``
    independent items within `PLAIN_SPREAD`) takes the exact interval at ``k`` of ``n``:
    the bootstrap's variance, ``p (1 - p) / (n - 1)`` up to its Monte Carlo error, would
    otherwise stand for ``n - 1`` items. Columns with ``df < 1`` or no observations
    stay as given.
    """
    out_lo, out_hi = wilson_floor(
        lo,
        hi,
        estimate=estimate,
        se=se,
        n_obs=n_obs,
        df=df,
        alpha=alpha,
        applies=flat & ~binary,
    )
    for j in np.flatnonzero(binary & (df >= 1) & (n_obs >= 1)):
        p = float(min(max(estimate[j], 0.0), 1.0))
        n = float(n_obs[j])
        var_p = p * (1.0 - p)
        s = float(se[j])
        n_eff = min(var_p / (s * s), n) if var_p > 0 and s > 0 else n
        k = p * n
        if independent_items and abs(k - round(k)) < 1e-9 and n_eff >= PLAIN_SPREAD * n:
            out_lo[j], out_hi[j] = clopper_pearson(float(round(k)), n, alpha)
            continue
        if n >= 2:
            q = 1.0 - alpha / 2.0
            n_eff = min(n_eff * (t_ppf(q, n - 1.0) / t_ppf(q, float(df[j]))) ** 2, n)
        out_lo[j], out_hi[j] = clopper_pearson(p * n_eff, n_eff, alpha)
    return out_lo, out_hi
