"""Normal and Student-t quantiles without scipy, and sample quantiles of replicates.

The runtime depends only on numpy; these few functions are all the distribution
theory the intervals need. The normal comes from `statistics.NormalDist`; the t
distribution function is the regularised incomplete beta function evaluated by its
continued fraction (Lentz's method, as in Numerical Recipes 6.4), and its quantile is
found by safeguarded Newton iteration. Both agree with `scipy.stats.t` to about 1e-8
(tests/stats/test_stats_quantiles.py). `sample_quantiles` is ``numpy.quantile``'s
default ("linear") method, the same numbers bit for bit, found by two single
partitions and a sort of the two tails instead of one partition at many places.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from statistics import NormalDist

import numpy as np
import numpy.typing as npt

_NORMAL = NormalDist()
_EPS = 1e-15
_TINY = 1e-300


def norm_cdf(x: float) -> float:
    """Standard normal distribution function."""
    return _NORMAL.cdf(x)


def norm_ppf(p: float) -> float:
    """Standard normal quantile for ``0 < p < 1``."""
    return _NORMAL.inv_cdf(p)


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    h = d
    for m in range(1, 10_000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > _TINY else _TINY)
        c = 1.0 + aa / c
        c = c if abs(c) > _TINY else _TINY
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > _TINY else _TINY)
        c = 1.0 + aa / c
        c = c if abs(c) > _TINY else _TINY
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _EPS:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """Regularised incomplete beta function I_x(a, b) for ``a, b > 0``, ``0 <= x <= 1``."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (
        math.lgamma(a + b)
        - math.lgamma(a)
        - math.lgamma(b)
        + a * math.log(x)
        + b * math.log1p(-x)
    )
    front = math.exp(log_front)
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_sf(t: float, df: float) -> float:
    """Upper tail P(T > t) of Student's t with ``df > 0`` degrees of freedom."""
    if math.isinf(df):
        return 1.0 - norm_cdf(t)
    t2 = t * t
    if t2 < df:  # centre: P(|T| < t) = I_{t^2/(df+t^2)}(1/2, df/2) keeps precision
        tail = 0.5 * (1.0 - betainc(0.5, df / 2.0, t2 / (df + t2)))
    else:
        tail = 0.5 * betainc(df / 2.0, 0.5, df / (df + t2))
    return tail if t >= 0 else 1.0 - tail


def t_cdf(t: float, df: float) -> float:
    """Distribution function of Student's t with ``df > 0`` degrees of freedom."""
    return t_sf(-t, df)


def _t_logpdf(t: float, df: float) -> float:
    return (
        math.lgamma((df + 1.0) / 2.0)
        - math.lgamma(df / 2.0)
        - 0.5 * math.log(df * math.pi)
        - (df + 1.0) / 2.0 * math.log1p(t * t / df)
    )


@lru_cache(maxsize=4096)
def t_ppf(p: float, df: float) -> float:
    """Quantile of Student's t with ``df > 0`` degrees of freedom, ``0 < p < 1``.

    Closed forms for df = 1 and 2; otherwise Newton's method on the upper tail from
    the Cornish-Fisher start (Abramowitz & Stegun 26.7.5), kept inside a shrinking
    bracket so that it cannot diverge.
    """
    if not 0.0 < p < 1.0:
        raise ValueError(f"`p` must lie in (0, 1), got {p!r}")
    if not df > 0:
        raise ValueError(f"`df` must be > 0, got {df!r}")
    if p < 0.5:
        return -t_ppf(1.0 - p, df)
    if p == 0.5:
        return 0.0
    closed = {
        1.0: lambda: math.tan(math.pi * (p - 0.5)),
        2.0: lambda: (2.0 * p - 1.0) / math.sqrt(2.0 * p * (1.0 - p)),
        math.inf: lambda: norm_ppf(p),
    }
    if df in closed:
        return closed[df]()
    return _t_ppf_upper(p, df)


def _t_ppf_upper(p: float, df: float) -> float:
    """Newton's method for the quantile ``p > 1/2`` of Student's t, bracketed."""
    q = 1.0 - p  # target upper tail
    z = norm_ppf(p)
    g1 = (z**3 + z) / 4.0
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96.0
    x = z + g1 / df + g2 / df**2
    if df > 1e5:  # the expansion's error, O(df^-3), is below the betainc round-off
        return x
    lo, hi = 0.0, max(2.0 * x, 1.0)
    while t_sf(hi, df) > q:
        lo, hi = hi, hi * 2.0
    x = min(max(x, lo), hi)
    for _ in range(200):
        f = t_sf(x, df) - q  # decreasing in x
        if f > 0:
            lo = x
        else:
            hi = x
        step = f / math.exp(_t_logpdf(x, df))
        new = x + step
        if not lo < new < hi:
            new = 0.5 * (lo + hi)
        if abs(new - x) <= 1e-13 * max(1.0, abs(x)):
            return new
        x = new
    return x


_NEGATIVE_ZERO = np.float64(-0.0).view(np.int64)


def sample_quantiles(
    x: npt.NDArray[np.float64], levels: Sequence[float], *, overwrite: bool = False
) -> npt.NDArray[np.float64]:
    """``numpy.quantile(x, levels, axis=0)`` (method "linear"), bit for bit, faster.

    Parameters
    ----------
    x : ndarray, shape (n, k)
        Samples in columns (replicates of k estimates); columns stored contiguously
        (Fortran order) are the fast case.
    levels : sequence of float
        Quantile levels in [0, 1].
    overwrite : bool
        Reorder `x` in place (for temporaries) instead of a copy.

    Returns
    -------
    ndarray, shape (len(levels), k)

    Notes
    -----
    The order statistics ``numpy.quantile`` interpolates between, at
    ``floor((n - 1) q)`` and the next one, are exact values whatever finds them, and
    its interpolation is repeated here operation for operation. numpy finds them with
    one partition at every such index (and at 0 and n - 1), which is several times
    slower than a partition at a single index: here one partition at the highest
    index below the median and one at the lowest above it bound the two tails, and
    each tail, a few percent of the replicates, is sorted. Equal values are equal
    bits except 0.0 and -0.0; samples holding NaN or -0.0, or fewer than two rows, go
    to ``numpy.quantile`` itself.
    """
    q = np.asarray(levels, dtype=np.float64)
    n = x.shape[0]
    if (
        x.ndim != 2
        or n < 2
        or q.size == 0
        or np.isnan(x.min())
        # -0.0 ties with 0.0: which one numpy's partition leaves where is its own
        or bool((x.view(np.int64) == _NEGATIVE_ZERO).any())
    ):
        out: npt.NDArray[np.float64] = np.quantile(x, q, axis=0, overwrite_input=overwrite)
        return out
    arr = x if overwrite else x.copy(order="K")
    # numpy's virtual indexes, neighbours and weights (`_get_indexes`, `_get_gamma`)
    virtual = (n - 1) * q
    prev = np.floor(virtual)
    nxt = prev + 1
    above = virtual >= n - 1
    prev[above] = nxt[above] = -1
    below = virtual < 0
    prev[below] = nxt[below] = 0
    gamma = virtual - prev
    i_prev = np.where(prev < 0, n - 1, prev).astype(np.intp)
    i_next = np.where(nxt < 0, n - 1, nxt).astype(np.intp)
    wanted = np.union1d(i_prev, i_next)
    low, high = wanted[wanted < n // 2], wanted[wanted >= n // 2]
    done = 0  # rows 0:done hold the order statistics 0:done
    if low.size:
        top = int(low.max())
        arr.partition(top, axis=0)
        arr[:top].sort(axis=0)
        done = top + 1
    if high.size:
        start = int(high.min())
        arr[done:].partition(start - done, axis=0)
        arr[start + 1 :].sort(axis=0)
    a, b = arr[i_prev], arr[i_next]
    t = gamma[:, None]
    # numpy's `_lerp`, the same operations in the same order
    diff_b_a = b - a
    res: npt.NDArray[np.float64] = np.add(a, diff_b_a * t)
    np.subtract(b, diff_b_a * (1 - t), out=res, where=t >= 0.5)
    return res


ROW_CHUNK = 4096  # rows of a max taken at once (a chunk's columns stay in cache)


DIFF_ELEMENTS = 2**20
"""Differences `abs_diff_row_max` holds at once (8 MiB of float64)."""


def abs_row_max(z: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """``numpy.abs(z).max(axis=1)`` for a (draws, width) array, the same numbers.

    A maximum is exact, so the order it is taken in changes no bit: here column by
    column over chunks of rows (`ROW_CHUNK`), about twice as fast as numpy's
    reduction along many short rows.
    """
    out = np.empty(z.shape[0])
    for r0 in range(0, z.shape[0], ROW_CHUNK):
        cols = np.abs(z[r0 : r0 + ROW_CHUNK]).T
        part = out[r0 : r0 + ROW_CHUNK]
        np.copyto(part, cols[0])
        for col in cols[1:]:
            np.maximum(part, col, out=part)
    return out


def abs_diff_row_max(
    z: npt.NDArray[np.float64],
    ia: npt.NDArray[np.intp],
    ib: npt.NDArray[np.intp],
    scale: npt.NDArray[np.float64],
) -> npt.NDArray[np.float64]:
    """``(numpy.abs(z[:, ia] - z[:, ib]) / scale).max(axis=1)``, the same numbers.

    The same subtraction, absolute value and division of each element, on the
    transposed draws (each difference a contiguous row) and a running maximum down
    them, a chunk of at most `DIFF_ELEMENTS` differences at a time in reused buffers
    (a maximum is exact: chunking changes no bit; 200 models' 19,900 pairs no longer
    hold a pairs x draws array). The columns are renumbered in the order the pairs
    first name them, so that all pairs of a model with the models after it in a
    ranking, ``(a, b), (a, c), ...``, read one slice of rows against one row instead
    of gathering two rows per pair.
    """
    ends = np.column_stack([ia, ib]).reshape(-1)
    cols, first = np.unique(ends, return_index=True)
    seen = cols[np.argsort(first, kind="stable")]  # columns in order of first use
    pos = np.empty(int(cols[-1]) + 1 if cols.size else 0, dtype=np.intp)
    pos[seen] = np.arange(seen.size)
    pa, pb = pos[ia], pos[ib]
    zt = np.ascontiguousarray(z.T[seen])
    rows = zt.shape[1]
    step = max(1, DIFF_ELEMENTS // max(1, rows))
    # runs of pairs (a, b), (a, b + 1), ...: one row against a slice of rows
    cut = np.flatnonzero((pa[1:] != pa[:-1]) | (pb[1:] != pb[:-1] + 1)) + 1
    starts = np.concatenate([[0], cut, [pa.size]]).astype(np.intp)
    width = min(step, pa.shape[0])
    buf = np.empty((width, rows))
    out: npt.NDArray[np.float64] = np.full(rows, -np.inf)
    if 4 * (starts.size - 1) > pa.size:  # short runs: gather both rows of each pair
        other = np.empty((width, rows))
        for p0 in range(0, pa.shape[0], step):
            d, e = buf[: pa[p0 : p0 + step].shape[0]], other[: pa[p0 : p0 + step].shape[0]]
            np.take(zt, pa[p0 : p0 + step], axis=0, out=d)
            np.take(zt, pb[p0 : p0 + step], axis=0, out=e)
            d -= e
            np.abs(d, out=d)
            d /= scale[p0 : p0 + step, None]
            np.maximum(out, d.max(axis=0), out=out)
        return out
    for s0, e0 in zip(starts[:-1].tolist(), starts[1:].tolist(), strict=True):
        a = int(pa[s0])
        for p0 in range(s0, e0, step):
            p1 = min(e0, p0 + step)
            b0 = int(pb[p0])
            d = buf[: p1 - p0]
            np.subtract(zt[a], zt[b0 : b0 + p1 - p0], out=d)
            np.abs(d, out=d)
            d /= scale[p0:p1, None]
            np.maximum(out, d.max(axis=0), out=out)
    return out
