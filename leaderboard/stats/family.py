"""Family-wise intervals from the shared replicates: a max-T over standardized deviations.

Several intervals read together (the gate's comparisons; the breakdown rows of one
comparison; the pairs behind the rank ranges) hold a family-wise level only when each
is taken at a smaller level. Bonferroni takes ``alpha / m``; it holds whatever the
correlation, and throws power away when the estimates are correlated (candidates scored
on the same items, a category inside the overall mean, a task inside its category).
The max-T method (Westfall & Young 1993, *Resampling-Based Multiple Testing*, ch. 2;
Hothorn, Bretz & Westfall 2008, *Biometrical Journal* 50(3), 346-363, the single-step
method of R's multcomp) reads the correlation off the bootstrap replicates themselves:

1. The correlation matrix ``R`` of the estimates' replicates (well estimated at any
   number of resamples; the replicates' own tails are not: with few units the
   bootstrap distribution is bounded and its standardized maximum too light-tailed).
2. ``c``, the ``1 - alpha`` quantile of ``max_l |Z_l|`` for ``Z ~ N(0, R)``, from
   `DRAWS` seeded normal draws: the family's two-sided critical value.
3. The per-estimate level ``c`` stands for, ``alpha_each = 2 (1 - Phi(c))``, never
   below Bonferroni's ``alpha / m`` nor above ``alpha``; every interval of the family is
   then the report's t-scaled percentile interval at ``alpha_each``
   (`leaderboard.stats.bootstrap.percentile_intervals`), so the family shares one level
   and each interval keeps its asymmetry, its t-stretch (small df) and its floor
   (the breakdown rows take the t-interval where the replicates cannot resolve the
   percentile ends at that level: `leaderboard.stats.where.breakdowns`).

Members independent by construction (a breakdown's per-task rows: disjoint strata,
each with draws of its own; `leaderboard.stats.bootstrap.Replicates.independent`) have
``R`` the identity, and ``c`` is Šidák's, ``alpha_each = 1 - (1 - alpha)^(1/k)`` over the
``k`` members in the maximum: taken in closed form (``independent=True``), without the
draws' Monte Carlo error.

Estimates with no spread (``SE = 0``) or no degrees of freedom are left out of the
maximum (they are never significant on their own, or are exactly known) but count in
``m`` for the Bonferroni floor.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Final

import numpy as np

from leaderboard.stats.bootstrap import percentile_intervals, replicate_sd
from leaderboard.stats.design import FloatArray, IntArray
from leaderboard.stats.quantiles import (
    abs_diff_row_max_from,
    abs_row_max,
    norm_ppf,
    sample_quantiles,
)

__all__ = [
    "MAX_T",
    "FamilyLevel",
    "family_intervals",
    "group_levels",
    "max_t_level",
    "norm_sf",
    "pairwise_level",
    "pairwise_level_cov",
]

MAX_T: Final = "max-t"
DRAWS = 20_000
"""Normal draws behind the maximum's quantile (its rate's Monte Carlo SE: 0.0015)."""
FAMILY_KEY = 2**31 - 7  # spawn key of those draws, apart from the replicates' blocks


def norm_sf(x: float) -> float:
    """Upper tail ``1 - Phi(x)`` of the standard normal."""
    return 0.5 * math.erfc(x / math.sqrt(2.0))


@dataclass(frozen=True)
class FamilyLevel:
    """The per-estimate level a family shares, and how it was found.

    ``alpha_each`` is the two-sided level of each interval; ``critical`` the max-T
    critical value on the normal scale (None for a family of one); ``size`` the
    estimates in the family.
    """

    alpha_each: float
    critical: float | None
    size: int


@functools.lru_cache(maxsize=4)
def _normals(seed: int, width: int) -> FloatArray:
    """`DRAWS` x `width` standard normals from `seed` (shared by the families of one
    report: common random numbers; read-only)."""
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(FAMILY_KEY,)))
    out: FloatArray = rng.standard_normal((DRAWS, width))
    out.flags.writeable = False
    return out


def max_t_level(
    estimate: FloatArray,
    replicates: FloatArray,
    df: FloatArray,
    alpha: float,
    *,
    seed: int = 0,
    independent: bool = False,
    se: FloatArray | None = None,
) -> FamilyLevel:
    """The per-estimate level a family of estimates shares (module docstring).

    Parameters
    ----------
    estimate : ndarray, shape (L,)
    replicates : ndarray, shape (B, L)
        The estimates' (rescaled) bootstrap replicates, one shared set.
    df : ndarray, shape (L,)
        Degrees of freedom; estimates below 1 are left out of the maximum.
    alpha : float
        The family's two-sided level, ``1 - confidence``.
    seed : int
        Seed of the normal draws that give the maximum's quantile.
    independent : bool
        The replicates are independent by construction (disjoint strata,
        `leaderboard.stats.bootstrap.Replicates.independent`): R is the identity and
        the maximum's quantile is Šidák's, in closed form instead of drawn.
    se : ndarray, shape (L,), optional
        The replicates' standard deviations (`replicate_sd`), when already known.
    """
    m = int(estimate.shape[0])
    if m <= 1:
        return FamilyLevel(alpha_each=alpha, critical=None, size=m)
    se = replicate_sd(replicates) if se is None else se
    scale = np.maximum(1.0, np.abs(estimate))
    use = (np.asarray(df) >= 1) & (se > 1e-12 * scale)
    if use.sum() <= 1:
        # one estimate with spread: it alone can be significant
        each = alpha if use.sum() == 1 else alpha / m
        return FamilyLevel(alpha_each=each, critical=None, size=m)
    if independent:  # P(max |Z_l| <= c) = (1 - 2(1 - Phi(c)))^k = 1 - alpha
        sidak = -math.expm1(math.log1p(-alpha) / int(use.sum()))
        each = min(alpha, max(alpha / m, sidak))
        return FamilyLevel(alpha_each=each, critical=-norm_ppf(sidak / 2.0), size=m)
    corr = np.corrcoef(replicates[:, use], rowvar=False)
    vals, vecs = np.linalg.eigh(np.atleast_2d(corr))
    root = vecs * np.sqrt(np.clip(vals, 0.0, None))
    z = _normals(seed, root.shape[1]) @ root.T
    big = abs_row_max(z)
    c = float(sample_quantiles(big[:, None], [1.0 - alpha])[0, 0])
    each = min(alpha, max(alpha / m, 2.0 * norm_sf(c)))
    return FamilyLevel(alpha_each=each, critical=c, size=m)


def family_intervals(
    estimate: FloatArray,
    replicates: FloatArray,
    df: FloatArray,
    alpha: float,
    *,
    bounds: tuple[float, float] = (-1.0, 1.0),
    seed: int = 0,
) -> tuple[FloatArray, FloatArray, FamilyLevel]:
    """Intervals of a family that hold ``1 - alpha`` together (max-T), and the level."""
    level = max_t_level(estimate, replicates, df, alpha, seed=seed)
    lo, hi = percentile_intervals(
        estimate, replicates.copy(), df, level.alpha_each, bounds=bounds, overwrite=True
    )
    return lo, hi, level


def group_levels(
    estimate: FloatArray,
    replicates: FloatArray,
    df: FloatArray,
    alpha: float,
    groups: list[list[int]],
    *,
    seed: int = 0,
    independent: bool = False,
    se: FloatArray | None = None,
) -> list[float]:
    """The max-T per-row level of each family listed in ``groups`` (row indices);
    `independent` and `se` (of every row) as in `max_t_level`."""
    out = []
    for rows in groups:
        idx = np.asarray(rows, dtype=np.intp)
        level = max_t_level(
            estimate[idx],
            replicates[:, idx],
            np.asarray(df)[idx],
            alpha,
            seed=seed,
            independent=independent,
            se=None if se is None else se[idx],
        )
        out.append(level.alpha_each)
    return out


def pairwise_level(
    model_replicates: FloatArray,
    pairs: list[tuple[int, int]],
    alpha: float,
    *,
    seed: int = 0,
) -> float:
    """The per-pair level at which all pairwise differences hold ``1 - alpha`` together.

    The max-T of `max_t_level` over the differences ``est_a - est_b`` of the listed
    pairs, with their correlation taken from the covariance ``S`` of the models'
    overall replicates (``cov(a - b, c - d) = S_ac - S_ad - S_bc + S_bd``): the normal
    draws are one per model, not one per pair. Never below Bonferroni's
    ``alpha / len(pairs)``.
    """
    if len(pairs) <= 1:
        return alpha
    cov = np.atleast_2d(np.cov(model_replicates, rowvar=False))
    return pairwise_level_cov(cov, pairs, alpha, seed=seed)


def pairwise_level_cov(
    cov: FloatArray,
    pairs: list[tuple[int, int]] | tuple[IntArray, IntArray],
    alpha: float,
    *,
    seed: int = 0,
) -> float:
    """`pairwise_level` from the covariance matrix of the models' replicates
    (``numpy.cov``'s, or ``centred_gram(...) * (1 / (n - 1))``, the same numbers);
    `pairs` as a list, or as the arrays of their first and second models."""
    if isinstance(pairs, tuple):
        ia, ib = pairs
    else:
        ia = np.array([a for a, _ in pairs], dtype=np.intp)
        ib = np.array([b for _, b in pairs], dtype=np.intp)
    m = int(ia.size)
    if m <= 1:
        return alpha
    var = cov[ia, ia] + cov[ib, ib] - 2.0 * cov[ia, ib]
    use = var > 1e-24
    if use.sum() <= 1:
        return alpha if use.sum() == 1 else alpha / m
    ia, ib, sd = ia[use], ib[use], np.sqrt(var[use])
    vals, vecs = np.linalg.eigh(cov)
    root = vecs * np.sqrt(np.clip(vals, 0.0, None))
    # `_normals(seed, width)`'s draws, drawn and multiplied a block of rows at a time
    # (the same stream, the same products): neither they nor their products are held
    # as one array (200 models: 32 MB each)
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(FAMILY_KEY,)))
    z = [
        rng.standard_normal((min(NORMAL_ROWS, DRAWS - r0), root.shape[1])) @ root.T
        for r0 in range(0, DRAWS, NORMAL_ROWS)
    ]
    # the quantile reads order statistics from floor((DRAWS - 1) * (1 - alpha)) up
    k = min(DRAWS - 1, max(0, math.floor((DRAWS - 1) * (1.0 - alpha))))
    big = abs_diff_row_max_from(z, ia, ib, sd, k)
    c = float(sample_quantiles(big[:, None], [1.0 - alpha])[0, 0])
    return min(alpha, max(alpha / m, 2.0 * norm_sf(c)))


NORMAL_ROWS = 2048
"""Normal draws `pairwise_level` makes and multiplies at once (rows of width models;
under 4 MiB of them up to 256 models)."""
