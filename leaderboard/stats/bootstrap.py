"""The resampling engine: one shared set of stratified bootstrap replicates.

Every estimate in the report is a weighted mean over strata of ratio estimates,
``sum_h a_h * (sum_u num_hu / sum_u den_hu)``, for one numerator/denominator "column"
per estimate. The engine draws, for every stratum ``h`` with ``n_h`` units and every
replicate, multinomial counts (``n_h`` draws with replacement), and gets the replicate
numerators and denominators of all columns at once as matrix products
``counts (B x n_h) @ num (n_h x K)``. All estimates therefore share the same
replicates: intervals, paired differences and ranks agree with each other.

Replicates are drawn in blocks of `BLOCK` replicates, the counts of block ``j`` and
stratum ``h`` from ``SeedSequence(seed, spawn_key=(j, h))``, so the numbers depend on
the seed only (not on memory batching; the first B replicates are the same whatever the
total), and peak memory is bounded by one block. Within a block, a large stratum's
counts are drawn a few rows at a time from its one generator (`count_rows`): the same
draws, in at most `COUNT_BYTES`.

Units that repeat are resampled as kinds (`_kinds`): in a stratum of at least
`KINDS_MIN_UNITS` units whose distinct rows of numerators and denominators ("kinds") are
at most one in `KINDS_SHARE` (binary items of M models: at most ``2^M`` kinds), the
counts of the kinds are drawn as one multinomial, ``Multinomial(n_h; f_1/n_h, ...,
f_U/n_h)`` with ``f_u`` the units of kind ``u``, instead of ``n_h`` unit indices. The
replicate numerators and denominators ``sum_u c_u num_u`` only depend on how often each
kind was drawn, and drawing ``n_h`` units uniformly gives exactly that multinomial for
the kinds' tallies: the same distribution at a cost of ``U`` binomials a replicate
instead of ``n_h`` draws. The random stream differs from the unit draws', so the
replicates of such a stratum are other draws from the same distribution.

Small-sample honesty (the "rescaled, t-scaled percentile bootstrap"):

1. Rescaling (Rao & Wu 1988, J. Amer. Statist. Assoc. 83:231-241): within stratum
   ``h``, the replicate deviation ``est*_h - est_h`` is multiplied by
   ``sqrt(n_h / (n_h - 1))``, which removes the bootstrap's ``(n-1)/n`` variance bias.
   A stratum with a single unit has no sampling variance to estimate and contributes 0.
2. t-scaling: the percentile interval's distances from the estimate are multiplied by
   ``t_{1-alpha/2, df} / z_{1-alpha/2}`` with the effective degrees of freedom: the
   design's ``sum_h (n_h - 1)`` for one stratum, Welch-Satterthwaite's across strata
   (`satterthwaite`), so the interval widens like a t-interval at small ``df``
   while keeping the bootstrap distribution's asymmetry. This is Hesterberg's
   expansion idea (2015, "What teachers should know about the bootstrap", Amer.
   Statist. 69:371-386, section 4.3), which instead moves the percentile level to
   ``alpha' = 2 Phi(-t_{1-alpha/2, df})``; both agree for a normal bootstrap
   distribution, but at 5 units the extreme percentiles that ``alpha'`` asks for are
   truncated by the data's range. Measured at 5 tasks with the same simulations as
   tests/stats/test_calibration.py: the alpha' version covered 92.6% (1,000 runs) and
   raised 4.3% false alarms (2,000 runs); the scaled one covers 93.6% and raises 2.5%.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from leaderboard.stats.collapse import collapse_groups, group_deviations
from leaderboard.stats.design import FloatArray, IntArray
from leaderboard.stats.quantiles import distinct, norm_ppf, sample_quantiles, t_ppf
from leaderboard.stats.satterthwaite import Variances, stratum_estimates, variances

BLOCK = 1024
"""Replicates per random block; part of the definition of the numbers, not a tuning knob."""
RATIO_KEEP = 2**22
"""Bound on the stored ratio-stratum deviations (floats) read for degrees of freedom."""
COUNT_BYTES = 64 * 2**20
"""Memory of the resample counts drawn at once for one stratum (see `count_rows`)."""
COUNT_BYTES_PER_DRAW = 20
"""Bytes one draw may cost while counts are made (12, see `count_rows`)."""
KINDS_MIN_UNITS = 256
"""Strata of fewer units always draw unit indices (see `_kinds`)."""
KINDS_SHARE = 16
"""A stratum is resampled by kinds when it has at most 1/`KINDS_SHARE` as many distinct
unit rows as units (see `_kinds`)."""


@dataclass(frozen=True)
class Replicates:
    """Point estimates, their rescaled replicates and degrees of freedom.

    ``df`` is the Welch-Satterthwaite effective degrees of freedom of each estimate
    (`Variances.df`); `diff_df` gives those of differences of estimates.
    """

    estimate: FloatArray  # (L,)
    replicates: FloatArray  # (B, L): estimate + rescaled replicate deviation
    df: FloatArray  # (L,)
    design_df: FloatArray  # (L,) sum_h (n_h - 1) over the estimate's strata
    variances: Variances
    seed: int = 0  # the replicates' seed (family-wise levels draw from it too)

    def diff_df(self, ia: IntArray, ib: IntArray) -> FloatArray:
        """Effective degrees of freedom of the differences ``est[ia] - est[ib]``."""
        upper = np.minimum(self.design_df[ia], self.design_df[ib])
        return self.variances.df(ia, ib, upper=upper)

    def independent(self, rows: IntArray) -> bool:
        """Whether the rows' replicates are independent by construction.

        Row ``i`` reads the estimates ``rows[i]``, shape (R, k) (a difference reads
        two). Each stratum's counts, and each collapsed group's, come from a generator
        of their own, so rows fed by disjoint strata, no collapsed group spanning two
        of them, are independent; their correlation is the identity.
        """
        weight = self.variances.weight
        fed = (weight[:, rows] != 0).any(axis=2).T  # (R, H)
        for g in self.variances.groups:
            fed[:, g.members] = fed[:, g.members].any(axis=1, keepdims=True)
        return bool((fed.sum(axis=0) <= 1).all())


def stratified_replicates(
    num: FloatArray,
    den: FloatArray,
    starts: IntArray,
    column: IntArray,
    weight: FloatArray,
    *,
    resamples: int,
    seed: int,
    category: Sequence[str] | None = None,
    power: float = 1.0,
) -> Replicates:
    """Bootstrap replicates of weighted means of stratum ratio estimates.

    Parameters
    ----------
    num, den : ndarray, shape (N, K)
        Unit numerators and denominators of K columns; units sorted by stratum.
    starts : ndarray, shape (H + 1,)
        Stratum ``h`` holds units ``starts[h]:starts[h+1]``.
    column : ndarray, shape (L,)
        The column behind each of the L estimates.
    weight : ndarray, shape (H, L)
        Stratum weights of each estimate: zero where its column has no data; each
        estimate's weights sum to 1 (or are all zero: an estimate without data).
    resamples : int
        Number of bootstrap replicates B.
    seed : int
        Root of the `numpy.random.SeedSequence` of every block.
    category : sequence of str, optional
        Each stratum's category: strata with a single unit are collapsed within their
        category first (`leaderboard.stats.collapse`). None: one category.
    power : float
        How a unit's total varies with its denominator, for the degrees of freedom
        (`leaderboard.stats.satterthwaite.stratum_df`): 1 for clusters of items, 2 for
        weighted task scores.

    Returns
    -------
    Replicates
        ``estimate`` (L,), ``replicates`` (B, L), ``df`` (L,).

    Notes
    -----
    A replicate whose resampled denominator is zero (the column has data on only some
    units of the stratum, and none was drawn) keeps the stratum's point estimate.
    """
    n_strata = starts.shape[0] - 1
    n_out = column.shape[0]
    estimate = np.zeros(n_out)
    var = variances(num, den, starts, column, weight, power=power)
    cats = list(category) if category is not None else [""] * n_strata
    var.groups = collapse_groups(num, den, starts, cats)
    plans = []
    for h in range(n_strata):
        s, e = int(starts[h]), int(starts[h + 1])
        est_h, scale_h = stratum_estimates(num[s:e], den[s:e])
        w_h = weight[h]
        estimate += w_h * est_h[column]
        use = (w_h != 0) & (scale_h[column] > 0)
        if not use.any():
            continue
        plans.append(
            _plan(
                h,
                num=num[s:e],
                den=den[s:e],
                est=est_h,
                scale=scale_h,
                column=column,
                use=use,
                w_h=w_h,
            )
        )
    n_ratio = sum(p.linear is None for p in plans)
    keep = min(BLOCK, max(64, RATIO_KEEP // max(1, n_ratio * n_out)))
    # Stored estimate-major, (L, B): each estimate's replicates are contiguous, which
    # halves the cost of the percentiles taken over them. `reps` is the (B, L) view.
    store = np.empty((n_out, resamples))
    reps = store.T
    scratch = _Scratch()
    for block in range(-(-resamples // BLOCK)):
        r0 = block * BLOCK
        rows = min(BLOCK, resamples - r0)
        acc = store[:, r0 : r0 + rows]  # the block's deviations, then replicates
        acc.fill(0.0)
        for p in plans:
            seq = np.random.SeedSequence(seed, spawn_key=(block, p.stratum))
            kept = _add_stratum(
                p, np.random.default_rng(seq), acc, keep if block == 0 else 0, scratch
            )
            if kept is not None:  # a ratio stratum's own variance, for the df
                outs = np.arange(n_out) if p.outs is None else p.outs
                var.ratio_dev[p.stratum] = (outs, kept)
        for g_index, g in enumerate(var.groups):
            seq = np.random.SeedSequence(seed, spawn_key=(block, n_strata + g_index))
            draws = np.random.default_rng(seq).integers(
                0, g.members.size, (rows, g.members.size)
            )
            acc += group_deviations(g, draws, column, weight).T
        acc += estimate[:, None]
    design_df = var.design_df()
    return Replicates(
        estimate=estimate,
        replicates=reps,
        df=var.df(np.arange(n_out), upper=design_df),
        design_df=design_df,
        variances=var,
        seed=int(seed),
    )


@dataclass(frozen=True)
class _StratumPlan:
    """What one stratum contributes, precomputed once for every block."""

    stratum: int
    num: FloatArray  # (n_h, K_h) numerators of the columns this stratum feeds
    den: FloatArray  # (n_h, D) distinct denominators
    den_inv: IntArray | None  # column -> denominator; None: one per column, or shared
    den_always_positive: bool  # every unit has data: no resampled denominator is 0
    est: FloatArray  # (K_h,) stratum estimates of those columns
    outs: IntArray | None  # estimates fed; None: all of them, in column order
    local: IntArray  # estimate -> column of this stratum
    coef: FloatArray  # rescaling factor times the estimate's stratum weight
    # Every unit has the same denominator d: the replicate ratio is counts @ num / (n d),
    # so the weighted, rescaled deviation is counts @ linear - offset (one product).
    linear: FloatArray | None
    offset: FloatArray | None
    # Estimates of the same column (a model's per-task and overall estimate) differ by
    # their weight only: `linear` holds one of them, the one of largest weight, and
    # the deviation of each estimate fed is its column's times `factor` (1 exactly for
    # that one). None: every column fed once.
    spread: IntArray | None = None
    factor: FloatArray | None = None
    # Resampled by kinds (`_kinds`): `num` and `den` hold one row per kind, drawn with
    # these probabilities (the kinds' shares of the stratum's `units`). None: units.
    kind_p: FloatArray | None = None
    units: int = 0


def _add_stratum(
    p: _StratumPlan,
    rng: np.random.Generator,
    acc: FloatArray,
    keep: int,
    scratch: _Scratch,
) -> FloatArray | None:
    """Add stratum `p`'s replicate deviations to `acc` (L, rows), in row chunks.

    Counts are drawn a chunk of rows at a time from the one generator (`count_rows`):
    the same draws as one (rows, n_h) matrix, in bounded memory. Returns the first
    `keep` rows of a ratio stratum's deviations (for its degrees of freedom), or None.
    """
    kept: list[FloatArray] = []
    step = count_rows(p.num.shape[0])
    for c0 in range(0, acc.shape[1], step):
        part = acc[:, c0 : c0 + step]
        if p.kind_p is not None:
            counts = _kind_counts(rng, part.shape[1], p.units, p.kind_p, scratch)
        else:
            counts = _counts(rng, part.shape[1], p.num.shape[0], scratch)
        if p.linear is not None and p.offset is not None:  # deviation is linear
            dev = counts @ p.linear
            dev -= p.offset
            if p.spread is not None and p.factor is not None and p.outs is not None:
                spread = dev.T[p.spread]
                spread *= p.factor[:, None]
                part[p.outs] += spread
                continue
        else:
            dev = _ratio_deviation(p, counts)
            if c0 < keep:
                kept.append(dev[: keep - c0].copy())
        if p.outs is None:  # the stratum feeds every estimate, in column order
            part += dev.T
        else:  # whole rows of `acc`: far cheaper than scattering columns
            part[p.outs] += dev.T
    return np.concatenate(kept) if kept else None


def _ratio_deviation(p: _StratumPlan, counts: FloatArray) -> FloatArray:
    """Weighted, rescaled replicate deviations of a ratio stratum's estimates."""
    rep_den = counts @ p.den
    if p.den_inv is not None:
        rep_den = rep_den[:, p.den_inv]
    if p.den_always_positive:
        ratio = counts @ p.num
        ratio /= rep_den
    else:
        ratio = np.divide(
            counts @ p.num,
            rep_den,
            out=np.tile(p.est, (counts.shape[0], 1)),
            where=rep_den > 0,
        )
    ratio -= p.est
    if p.outs is None:
        ratio *= p.coef
        return ratio
    out: FloatArray = ratio[:, p.local] * p.coef
    return out


def _plan(
    h: int,
    *,
    num: FloatArray,
    den: FloatArray,
    est: FloatArray,
    scale: FloatArray,
    column: IntArray,
    use: npt.NDArray[np.bool_],
    w_h: FloatArray,
) -> _StratumPlan:
    cols = distinct(column[use])  # columns this stratum feeds
    local = np.searchsorted(cols, column[use])
    n_units = num.shape[0]
    num_h, den_h = num[:, cols], den[:, cols]
    kinds = _kinds(num_h, den_h)
    kind_p = None
    if kinds is not None:  # one row per kind of unit, drawn by its share
        num_h, den_h, kind_p = kinds
    den_inv: IntArray | None
    if (den_h == den_h[:, :1]).all():  # complete data: one denominator for all
        den_u, den_inv = den_h[:, :1], None
    else:
        den_u, inv = np.unique(den_h, axis=1, return_inverse=True)
        den_inv = inv.reshape(-1).astype(np.intp)
    outs = np.flatnonzero(use)
    identity = outs.size == column.size and np.array_equal(local, np.arange(outs.size))
    coef = scale[cols][local] * w_h[use]
    d0 = float(den_u[0, 0])
    linear = offset = spread = factor = None
    if den_inv is None and d0 > 0 and (den_u == d0).all():
        fed = np.arange(local.size)
        if cols.size < local.size:  # a column feeds several estimates: each once
            # per column, the estimate of largest weight (the first of equals)
            order = np.lexsort((fed, -np.abs(coef), local))
            fed = order[np.r_[True, local[order][1:] != local[order][:-1]]]
            spread, factor = local, coef / coef[fed][local]
        linear = np.ascontiguousarray(num_h[:, local[fed]] * (coef[fed] / (n_units * d0)))
        offset = est[cols][local[fed]] * coef[fed]
    return _StratumPlan(
        stratum=h,
        num=np.ascontiguousarray(num_h),
        den=np.ascontiguousarray(den_u),
        den_inv=den_inv,
        den_always_positive=bool((den_u > 0).all()),
        est=est[cols],
        outs=None if identity else outs,
        local=local,
        coef=coef,
        linear=linear,
        offset=offset,
        spread=spread,
        factor=factor,
        kind_p=kind_p,
        units=n_units,
    )


def _kinds(
    num: FloatArray, den: FloatArray
) -> tuple[FloatArray, FloatArray, FloatArray] | None:
    """The stratum's distinct unit rows ("kinds") and their shares, when it pays.

    Returns ``(num_u, den_u, p)``, one row per kind and ``p[u]`` the share of the
    stratum's units of kind ``u``, for a stratum of at least `KINDS_MIN_UNITS` units
    with at most one kind per `KINDS_SHARE` units; None otherwise (the units are drawn).
    A replicate's numerators and denominators are ``counts @ num``, which depend on the
    units' counts through the kinds' tallies only; the tallies of ``n`` uniform draws
    are ``Multinomial(n; p)``, which `_kind_counts` draws directly.
    """
    n = num.shape[0]
    if n < KINDS_MIN_UNITS:
        return None
    rows = np.concatenate([num, den], axis=1)
    limit = n // KINDS_SHARE
    # a cheap refusal first: many kinds among the first units already
    head = np.unique(rows[: 4 * limit + 1], axis=0)
    if head.shape[0] > limit:
        return None
    kinds, tally = np.unique(rows, axis=0, return_counts=True)
    if kinds.shape[0] > limit:
        return None
    k = num.shape[1]
    share: FloatArray = tally / float(n)
    return (
        np.ascontiguousarray(kinds[:, :k]),
        np.ascontiguousarray(kinds[:, k:]),
        share,
    )


def count_rows(n: int) -> int:
    """Rows of resample counts drawn at once for a stratum of `n` units.

    A row of counts costs 12 bytes a unit while it is made (the int32 draws and the
    float64 counts they are tallied into), taken as 20: rows are drawn in chunks of at most
    `COUNT_BYTES`, so a stratum of a million units never holds gigabytes of counts.
    """
    return max(1, min(BLOCK, COUNT_BYTES // (COUNT_BYTES_PER_DRAW * max(1, n))))


class _Scratch:
    """Memory `_counts` reuses from one call to the next (the float counts): a fresh
    array of that size each time costs its page faults again."""

    def __init__(self) -> None:
        self.counts = np.empty(0)

    def take(self, rows: int, n: int) -> FloatArray:
        """A ``rows x n`` view, valid until the next call."""
        if self.counts.size < rows * n:
            self.counts = np.empty(rows * n)
        out: FloatArray = self.counts[: rows * n].reshape(rows, n)
        return out


def _counts(
    rng: np.random.Generator, rows: int, n: int, scratch: _Scratch | None = None
) -> FloatArray:
    """Multinomial(n; 1/n, ..., 1/n) resample counts for ``rows`` replicates (in
    `scratch`'s memory when given: valid until its next use)."""
    out = (scratch or _Scratch()).take(rows, n)
    flat: IntArray
    if rows * n < 2**31:  # int32 draws, and their offsets, are cheaper
        flat = rng.integers(0, n, size=(rows, n), dtype=np.int32)
        flat += (np.arange(rows, dtype=np.int32) * np.int32(n))[:, None]
    else:  # pragma: no cover - over 2 billion draws in one block
        flat = rng.integers(0, n, size=(rows, n), dtype=np.int64)
        flat += (np.arange(rows, dtype=np.int64) * n)[:, None]
    # tallied straight into the float counts (no integer tally to convert)
    out.fill(0.0)
    np.add.at(out.reshape(-1), flat.reshape(-1), 1.0)
    return out


def _kind_counts(
    rng: np.random.Generator,
    rows: int,
    n: int,
    share: FloatArray,
    scratch: _Scratch | None = None,
) -> FloatArray:
    """Multinomial(n; share) tallies of the kinds for ``rows`` replicates (float)."""
    out = (scratch or _Scratch()).take(rows, share.shape[0])
    out[...] = rng.multinomial(n, share, size=rows)
    return out


def t_scale(alpha: float, df: float) -> float:
    """Widening factor ``t_{1-alpha/2, df} / z_{1-alpha/2}`` (1 for ``df = inf``)."""
    return t_ppf(1.0 - alpha / 2.0, df) / norm_ppf(1.0 - alpha / 2.0)


def percentile_intervals(
    estimate: FloatArray,
    replicates: FloatArray,
    df: FloatArray,
    alpha: float,
    *,
    bounds: tuple[float, float] = (-np.inf, np.inf),
    overwrite: bool = False,
) -> tuple[FloatArray, FloatArray]:
    """t-scaled percentile intervals of each column of ``replicates``, never narrower
    than the t-interval.

    ``lo = est + c * (q_{alpha/2} - est)`` and ``hi = est + c * (q_{1-alpha/2} - est)``
    with the percentiles ``q`` of the (rescaled) replicates and
    ``c = t_{1-alpha/2, df} / z_{1-alpha/2}`` per column; each end reaches at least as
    far as the t-interval's ``est -+ t_{1-alpha/2, df} * SE`` (SE the replicates' standard
    deviation): with two or three units the bootstrap distribution has so few distinct
    values that its extreme percentiles sit on the data's range (two tasks: 0.72 of the
    t-interval). A column with ``df < 1`` has no sampling variance to estimate: its
    interval is the whole of ``bounds`` (the t-interval at zero degrees of freedom,
    clipped), so it is never declared significant. The interval is widened, if need
    be, to contain the estimate (round-off at zero width) and clipped to ``bounds``, the
    range the parameter can take (scaled replicates may leave it). With ``overwrite``
    the replicates are partially sorted in place (for temporaries).
    """
    ((lo, hi),) = intervals_at(
        estimate, replicates, df, [alpha], bounds=bounds, overwrite=overwrite
    )
    return lo, hi


def intervals_at(
    estimate: FloatArray,
    replicates: FloatArray,
    df: FloatArray,
    alphas: Sequence[float],
    *,
    bounds: tuple[float, float] = (-np.inf, np.inf),
    overwrite: bool = False,
    se: FloatArray | None = None,
) -> list[tuple[FloatArray, FloatArray]]:
    """`percentile_intervals` at several levels from one pass over the replicates
    (`se`: their `replicate_sd`, when already known)."""
    se = replicate_sd(replicates) if se is None else se
    q = sample_quantiles(
        replicates, interval_levels(alphas), overwrite=overwrite, centre=estimate, spread=se
    )
    return intervals_from_quantiles(estimate, q, df, alphas, se=se, bounds=bounds)


def interval_levels(alphas: Sequence[float]) -> list[float]:
    """The replicates' quantile levels `intervals_from_quantiles` reads, in order."""
    return [q for a in alphas for q in (a / 2.0, 1.0 - a / 2.0)]


def intervals_from_quantiles(
    estimate: FloatArray,
    q: FloatArray,
    df: FloatArray,
    alphas: Sequence[float],
    *,
    se: FloatArray,
    bounds: tuple[float, float] = (-np.inf, np.inf),
) -> list[tuple[FloatArray, FloatArray]]:
    """`intervals_at` from the replicates' quantiles at `interval_levels` (rows of
    `q`) and their standard deviations `se`."""
    none = np.asarray(df) < 1
    values, where = np.unique(np.asarray(df, dtype=np.float64), return_inverse=True)
    out = []
    for i, alpha in enumerate(alphas):
        # t_scale once per distinct df (many pairs share one)
        scale = np.array([t_scale(alpha, float(v)) if v >= 1 else 0.0 for v in values])
        scale = scale[where.reshape(-1)]
        t_half = scale * norm_ppf(1.0 - alpha / 2.0) * se
        lo = np.minimum(estimate + scale * (q[2 * i] - estimate), estimate - t_half)
        hi = np.maximum(estimate + scale * (q[2 * i + 1] - estimate), estimate + t_half)
        lo = np.clip(np.minimum(lo, estimate), *bounds)
        hi = np.clip(np.maximum(hi, estimate), *bounds)
        out.append((np.where(none, bounds[0], lo), np.where(none, bounds[1], hi)))
    return out


TAIL_MIN = 25
"""Fewest replicates expected beyond each end of a percentile interval for its ends to
be read off the replicates (`family_ends_resolved`): with ``k`` expected beyond an
end, the end's own tail probability has a Monte Carlo error of about ``1/sqrt(k)`` of
itself (20% at 25)."""


def family_ends_resolved(resamples: int, alpha: float) -> bool:
    """Whether ``resamples`` replicates resolve the ends of a two-sided interval at
    ``alpha``: at least `TAIL_MIN` expected beyond each (999 resamples: ``alpha >= 0.05``;
    10,000: ``alpha >= 0.005``)."""
    return resamples * alpha / 2.0 >= TAIL_MIN


def t_intervals(
    estimate: FloatArray,
    se: FloatArray,
    df: FloatArray,
    alpha: float,
    *,
    bounds: tuple[float, float] = (-np.inf, np.inf),
) -> tuple[FloatArray, FloatArray]:
    """``estimate -+ t_{1-alpha/2, df} * se``, clipped to ``bounds``; the whole of
    ``bounds`` where ``df < 1`` (as `intervals_from_quantiles`)."""
    df = np.asarray(df, dtype=np.float64)
    values, where = np.unique(df, return_inverse=True)
    t = np.array([t_ppf(1.0 - alpha / 2.0, float(v)) if v >= 1 else 0.0 for v in values])
    half = t[where.reshape(-1)] * se
    none = df < 1
    lo = np.where(none, bounds[0], np.clip(estimate - half, *bounds))
    hi = np.where(none, bounds[1], np.clip(estimate + half, *bounds))
    return lo, hi


SD_ELEMENTS = 2**18
"""Replicates `replicate_sd` reads at once (2 MiB of float64): numpy's standard deviation
holds a centred copy of what it reads, and a copy of 4 MiB or more is mapped in huge
pages, fresh on every call."""


def replicate_sd(replicates: FloatArray) -> FloatArray:
    """Standard deviation (ddof=1) of each column of ``replicates``.

    ``replicates.std(axis=0, ddof=1)`` taken over a few columns at a time
    (`SD_ELEMENTS`): each column's mean, deviations and sum of squares are its own, so
    the same numbers bit for bit, without a centred copy of every column at once.
    Only for columns stored contiguously (the replicate store's layout): across
    strided columns numpy adds row after row, but down a single column pairwise.
    """
    n, k = replicates.shape
    if n < 2:
        return np.zeros(k)
    step = max(1, SD_ELEMENTS // n)
    if k <= step or replicates.strides[0] != replicates.itemsize:
        whole: FloatArray = replicates.std(axis=0, ddof=1)
        return whole
    sd = np.empty(k)
    for c in range(0, k, step):
        sd[c : c + step] = replicates[:, c : c + step].std(axis=0, ddof=1)
    return sd


SD_MIN_PAIRS = 256
"""Fewer pairs have their standard deviations from their differences (`difference_sd`):
the report of a few models keeps numpy's own, bit for bit."""
SD_CANCEL = 1e-2
"""A difference whose variance is below this share of its two columns' variances has
its standard deviation taken from the differences themselves (`difference_sd`)."""


def centred_gram(replicates: FloatArray, cols: IntArray) -> FloatArray:
    """``x.T @ x`` for the columns `cols` of `replicates`, each centred on its mean (the
    columns' covariance matrix times ``n - 1``): one copy of the columns, centred in
    place. `difference_sd` divides it by ``n - 1``; ``numpy.cov`` multiplies the same
    product by ``1 / (n - 1)`` (`leaderboard.stats.family.pairwise_level_cov`)."""
    x = replicates[:, cols]  # a copy: centred in place
    x -= x.mean(axis=0)
    gram: FloatArray = x.T @ x
    return gram


def difference_sd(
    replicates: FloatArray,
    ia: IntArray,
    ib: IntArray,
    *,
    gram: tuple[IntArray, FloatArray] | None = None,
) -> tuple[FloatArray, npt.NDArray[np.bool_]]:
    """Standard deviations (ddof=1) of ``replicates[:, ia] - replicates[:, ib]``, from
    the covariance matrix of the columns: ``S_aa + S_bb - 2 S_ab``.

    One product of the columns instead of a pass over every difference; the same
    number up to rounding (about 1e-15 of it), except where the two columns are so
    alike that the difference's variance cancels: those (below `SD_CANCEL` of
    ``S_aa + S_bb``) are flagged, to be computed from the differences with
    `replicate_sd`; so are all of fewer than `SD_MIN_PAIRS` pairs. ``gram``: columns
    and their `centred_gram`, when already made; used when they are the columns the
    pairs read (the same product, so the same numbers), made again otherwise.
    """
    n = replicates.shape[0]
    if n < 2 or ia.size < SD_MIN_PAIRS:  # all from their differences
        return np.zeros(ia.size), np.ones(ia.size, dtype=bool)
    used, where = np.unique(np.concatenate([ia, ib]), return_inverse=True)
    if gram is not None and np.array_equal(gram[0], used):
        product = gram[1]
    else:
        product = centred_gram(replicates, used)
    cov = product / (n - 1)
    pa, pb = where[: ia.size], where[ia.size :]
    terms = cov[pa, pa] + cov[pb, pb]
    var = terms - 2.0 * cov[pa, pb]
    return np.sqrt(np.maximum(var, 0.0)), np.asarray(var < SD_CANCEL * terms)


def rank_bounds(better: npt.NDArray[np.bool_]) -> tuple[IntArray, IntArray]:
    """Best and worst plausible rank of each model from the pairwise decisions.

    ``better[i, j]``: model j is significantly better than model i (their paired
    interval excludes zero). The best rank is 1 + the models significantly better, the
    worst the number of models minus those significantly worse (Chatbot Arena's rank
    "upper bound", Chiang et al. 2024, taken from both sides). Two models the pairwise
    table cannot tell apart then never get disjoint ranges: when the table's decisions
    are not transitive (a > c > b while a ~ b), the worse one's best rank is lowered to
    reach the other's worst.
    """
    n = better.shape[0]
    lo = 1 + better.sum(axis=1)
    hi = n - better.sum(axis=0)
    tied = ~better & ~better.T
    # a tied pair (i, j) with hi[i] < lo[j]: j's best rank comes down to hi[i]
    lo = np.minimum(lo, np.where(tied, hi[:, None], n).min(axis=0))
    return lo.astype(np.intp), hi.astype(np.intp)
