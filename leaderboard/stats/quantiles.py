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
import threading
from collections.abc import Iterator, Sequence
from functools import lru_cache
from statistics import NormalDist
from typing import TypeVar

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
FloatArray = npt.NDArray[np.float64]


_Int = TypeVar("_Int", bound=np.integer)


def distinct(x: npt.NDArray[_Int]) -> npt.NDArray[_Int]:
    """``numpy.unique(x)`` of integers: the sorted distinct values, by one sort.

    numpy.unique without ``return_*`` asks ``numpy.ma.is_masked`` first, which imports
    numpy.ma on a run's first call (10 ms of every short run's start).
    """
    s = np.sort(x, axis=None)
    if not s.size:
        return s
    out: npt.NDArray[_Int] = s[np.concatenate([[True], s[1:] != s[:-1]])]
    return out


def sample_quantiles(
    x: npt.NDArray[np.float64],
    levels: Sequence[float],
    *,
    overwrite: bool = False,
    centre: npt.NDArray[np.float64] | None = None,
    spread: npt.NDArray[np.float64] | None = None,
    no_nan: bool = False,
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
    centre, spread : ndarray, shape (k,), optional
        A guess at each column's centre and standard deviation (an estimate and its
        standard error): with them the tails are found by thresholds
        (`tail_order_statistics`) instead of partitions. Only the speed depends on
        the guess: a column it misses is partitioned as without it.
    no_nan : bool
        The caller has checked that `x` holds no NaN (the pairs' differences of
        replicates checked once): no pass over `x` to look for one.

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
        or (not no_nan and np.isnan(x.min()))
        # -0.0 ties with 0.0: which one numpy's partition leaves where is its own
        or (centre is None and _has_negative_zero(x))
    ):
        out: npt.NDArray[np.float64] = np.quantile(x, q, axis=0, overwrite_input=overwrite)
        return out
    wanted, pos, t = _order_statistics(n, tuple(q.tolist()))
    stats = np.empty((wanted.size, x.shape[1]))
    left = np.ones(x.shape[1], dtype=bool)  # columns still to partition
    if centre is not None and spread is not None:
        left = ~tail_order_statistics(x, wanted, centre, spread, out=stats)
    if left.any():
        part = x if left.all() else x.T[left].T  # a copy, stored by columns when x is
        if centre is not None and _has_negative_zero(part):
            whole: FloatArray = np.quantile(x, q, axis=0, overwrite_input=overwrite)
            return whole
        stats[:, left] = _partitioned(
            x.copy(order="K") if part is x and not overwrite else part, wanted
        )
    a, b = stats[pos[: q.size]], stats[pos[q.size :]]
    # numpy's `_lerp`, the same operations in the same order
    diff_b_a = b - a
    res: npt.NDArray[np.float64] = np.add(a, diff_b_a * t)
    np.subtract(b, diff_b_a * (1 - t), out=res, where=t >= 0.5)
    return res


@lru_cache(maxsize=64)
def _order_statistics(
    n: int, levels: tuple[float, ...]
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], FloatArray]:
    """numpy's virtual indexes, neighbours and weights (`_get_indexes`, `_get_gamma`)
    for `levels` of `n` samples: the order statistics needed (sorted), where each
    level's two neighbours are among them, and the weights as a column (read-only;
    the same for every chunk of pairs, so made once)."""
    q = np.array(levels, dtype=np.float64)
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
    wanted = distinct(np.concatenate([i_prev, i_next]))
    pos = np.searchsorted(wanted, np.concatenate([i_prev, i_next]))
    t = gamma[:, None]
    for arr in (wanted, pos, t):
        arr.flags.writeable = False
    return wanted, pos, t


def _has_negative_zero(x: FloatArray) -> bool:
    return bool((x.view(np.int64) == _NEGATIVE_ZERO).any())


def _partitioned(arr: npt.NDArray[np.float64], wanted: npt.NDArray[np.intp]) -> FloatArray:
    """The order statistics ``wanted`` (sorted) of each column of `arr`, reordering it:
    one partition below the median and one above, then each tail sorted."""
    n = arr.shape[0]
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
    out: FloatArray = arr[wanted]
    return out


TAIL_SLACK = 4.0
"""Standard errors of a tail's count by which `tail_order_statistics` aims past it."""


def tail_order_statistics(
    x: FloatArray,
    wanted: npt.NDArray[np.intp],
    centre: FloatArray,
    spread: FloatArray,
    *,
    out: FloatArray,
) -> npt.NDArray[np.bool_]:
    """Order statistics of the columns of `x` in its tails, found by thresholds.

    For the order statistics ``wanted`` (sorted) below the median, the smallest
    ``top + 1`` values of a column are all of them at or below a threshold when at
    least ``top + 1`` values are; sorting the values past the threshold then gives
    order statistics ``0 .. top`` bit for bit (equal values are equal bits: the caller
    has ruled out NaN, and -0.0 is refused). Above the median likewise. Each threshold
    is the normal quantile, of ``centre`` and ``spread``, at a share of the values a
    little larger than the tail needs (`TAIL_SLACK`). Per tail: one comparison of
    every value, the positions past it (by column, then row: each column's count is
    where the column's first position falls), and a sort of those few values per
    column, padded to one width. Writes the columns found into ``out``
    (len(wanted), k) and returns which they are; a column the guess missed (too few
    values past a threshold, or more than a quarter) or with -0.0 past a threshold
    is left to the caller.
    """
    n, k = x.shape
    found = np.zeros(k, dtype=bool)
    xt = x.T  # (k, n), C-contiguous when x is stored by columns
    if not xt.flags.c_contiguous or n < 64:
        return found
    sd = np.asarray(spread, dtype=np.float64)
    mid = np.asarray(centre, dtype=np.float64)
    found = (sd > 0) & np.isfinite(sd) & np.isfinite(mid)
    low, high = wanted[wanted < n // 2], wanted[wanted >= n // 2]
    need, t = _thresholds(n, low, high, mid, sd)
    found &= t[0] < t[1]  # the two tails must not meet
    past = _mask(k, n)
    flat = xt.reshape(-1)
    edges = np.arange(k + 1) * n
    tails: list[tuple[bool, npt.NDArray[np.intp], FloatArray, npt.NDArray[np.intp]]] = []
    for below, idx, threshold, want in zip(
        (True, False), (low, high), t, need, strict=True
    ):
        if not idx.size:
            continue
        if below:
            np.less_equal(xt, np.where(found, threshold, -np.inf)[:, None], out=past)
        else:
            np.greater_equal(xt, np.where(found, threshold, np.inf)[:, None], out=past)
        at = flat_positions(past)  # by column, then by row
        count = np.diff(np.searchsorted(at, edges))
        found &= (count >= want) & (count <= n // 4)
        vals = flat[at]
        # every zero of a column is past a threshold or none is: -0.0 there is refused
        zero = vals.view(np.int64) == _NEGATIVE_ZERO
        if zero.any():
            found[at[zero] // n] = False
        tails.append((below, idx, vals, count))
    if not found.any():
        return found
    cols = np.flatnonzero(found)
    for below, idx, past_vals, count in tails:
        vals = past_vals if found.all() else past_vals[np.repeat(found, count)]
        tally = count[cols]
        width = int(tally.max())
        pad = np.full((cols.size, width), np.inf if below else -np.inf)
        pad[np.arange(width) < tally[:, None]] = vals
        pad.sort(axis=1)  # the tail in order; the pad after it (low) or before (high)
        # order statistic i: the low tail's i-th; the high tail's (n - 1 - i)-th
        # from the top, which the sorted pad holds at width - n + i
        pick = idx if below else idx + (width - n)
        out[np.searchsorted(wanted, idx)[:, None], cols[None, :]] = pad[:, pick].T
    return found


def flat_positions(mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.intp]:
    """``numpy.flatnonzero(mask)``, the same positions, for a sparse boolean mask.

    numpy finds a sparse mask's positions one at a time (a branch per position,
    mispredicted); packed eight to a byte, the bytes holding one are dense enough for
    its branch-free loop, and only their bits are looked at again: about a third less
    time at the pairs' 3% (one tail's values past its threshold).
    """
    packed = np.packbits(mask.reshape(-1))  # the first of each eight in the high bit
    hit = np.flatnonzero(packed.view(np.bool_))
    bits = np.unpackbits(packed[hit])
    at = np.flatnonzero(bits.view(np.bool_))
    out: npt.NDArray[np.intp] = (hit[at >> 3] << 3) + (at & 7)
    return out


def _thresholds(
    n: int,
    low: npt.NDArray[np.intp],
    high: npt.NDArray[np.intp],
    mid: FloatArray,
    sd: FloatArray,
) -> tuple[list[int], list[FloatArray]]:
    """Per tail, the values it needs and each column's threshold (an empty tail:
    none, and a threshold no value passes)."""
    need, t = [], []
    for below, idx in ((True, low), (False, high)):
        count = (int(idx.max()) + 1 if below else n - int(idx.min())) if idx.size else 0
        share = count / n
        aim = min(0.25, share + TAIL_SLACK * math.sqrt(share * (1.0 - share) / n) + 2.0 / n)
        step = norm_ppf(aim) * sd  # negative
        need.append(count)
        if not idx.size:
            t.append(np.full(mid.shape, -np.inf if below else np.inf))
        else:
            t.append(mid + step if below else mid - step)
    return need, t


_SCRATCH = threading.local()
MASK_CACHE = 2**21
"""Largest mask (bytes) `_mask` keeps for the next call of its thread."""


def _mask(k: int, n: int) -> npt.NDArray[np.bool_]:
    """A (k, n) boolean array for `tail_order_statistics`, kept from call to call (per
    thread) up to `MASK_CACHE` bytes: a fresh one each time costs its page faults
    again, as much as the comparison that fills it."""
    if k * n > MASK_CACHE:
        return np.empty((k, n), dtype=bool)
    held = getattr(_SCRATCH, "mask", None)
    if held is None or held.size < k * n:
        held = _SCRATCH.mask = np.empty(max(k * n, 2**16), dtype=bool)
    out: npt.NDArray[np.bool_] = held[: k * n].reshape(k, n)
    return out


def _renumbered(
    ia: npt.NDArray[np.intp], ib: npt.NDArray[np.intp]
) -> tuple[
    npt.NDArray[np.intp], npt.NDArray[np.intp], npt.NDArray[np.intp], npt.NDArray[np.intp]
]:
    """The rows the pairs name, renumbered in the order the pairs first name them.

    Returns ``(seen, pa, pb, starts)``: the rows in that order, the pairs' positions
    in it, and where the runs of pairs ``(a, b), (a, b + 1), ...`` start (with the end
    last): all pairs of a model with the models after it in a ranking read one slice
    of renumbered rows against one row instead of gathering two rows per pair.
    """
    ends = np.column_stack([ia, ib]).reshape(-1)
    cols, first = np.unique(ends, return_index=True)
    seen = cols[np.argsort(first, kind="stable")]  # rows in order of first use
    pos = np.empty(int(cols[-1]) + 1 if cols.size else 0, dtype=np.intp)
    pos[seen] = np.arange(seen.size)
    pa, pb = pos[ia], pos[ib]
    cut = np.flatnonzero((pa[1:] != pa[:-1]) | (pb[1:] != pb[:-1] + 1)) + 1
    starts = np.concatenate([[0], cut, [pa.size]]).astype(np.intp)
    return seen, pa, pb, starts


BLOCK_BYTES = 2**21
"""Largest block of renumbered rows `difference_rows` copies at once (numpy maps arrays
of 4 MiB or more in huge pages, which this project's benchmark machine is slow to
touch the first time; 200 models' replicates are 16 MB)."""


def difference_rows(
    rows: FloatArray, ia: npt.NDArray[np.intp], ib: npt.NDArray[np.intp], chunk: int
) -> Iterator[tuple[int, FloatArray]]:
    """``(p0, d)`` with ``d[j] = rows[ia[p0 + j]] - rows[ib[p0 + j]]``, `chunk` pairs
    at a time in one reused buffer (valid until the next chunk).

    The same subtraction of each element as ``rows[ia] - rows[ib]``, without the two
    gathered temporaries: runs of pairs (`_renumbered`) subtract slices of the rows,
    copied renumbered in blocks (`BLOCK_BYTES`), from one row; other pairs gather
    into the buffer.
    """
    if not ia.size:
        return
    seen, pa, pb, starts = _renumbered(ia, ib)
    width = min(chunk, ia.size)
    buf = np.empty((width, rows.shape[1]))
    if 4 * (starts.size - 1) > pa.size:  # short runs: gather both rows of each pair
        other = np.empty((width, rows.shape[1]))
        for p0 in range(0, ia.size, chunk):
            p1 = min(ia.size, p0 + chunk)
            d, e = buf[: p1 - p0], other[: p1 - p0]
            np.take(rows, ia[p0:p1], axis=0, out=d)
            np.take(rows, ib[p0:p1], axis=0, out=e)
            d -= e
            yield p0, d
        return
    per = max(1, BLOCK_BYTES // max(1, rows.shape[1] * rows.itemsize))
    blocks = [
        np.ascontiguousarray(rows[seen[i : i + per]]) for i in range(0, seen.size, per)
    ]
    for p0 in range(0, ia.size, chunk):
        p1 = min(ia.size, p0 + chunk)
        d = buf[: p1 - p0]
        j = p0
        run = int(np.searchsorted(starts, p0, side="right"))
        while j < p1:
            e0 = min(p1, int(starts[run]))
            a, b0 = int(pa[j]), int(pb[j])
            first = blocks[a // per][a % per]
            while j < e0:  # the run's second rows, block by block
                blk, at = divmod(b0, per)
                take = min(e0 - j, per - at)
                np.subtract(
                    first, blocks[blk][at : at + take], out=d[j - p0 : j - p0 + take]
                )
                j, b0 = j + take, b0 + take
            run += 1
        yield p0, d


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
    transposed draws (`difference_rows`: each difference a contiguous row) and a
    running maximum down them, at most `DIFF_ELEMENTS` differences at a time (a
    maximum is exact: chunking changes no bit; 200 models' 19,900 pairs never hold a
    pairs x draws array).
    """
    out: npt.NDArray[np.float64] = np.full(z.shape[0], -np.inf)
    step = max(1, DIFF_ELEMENTS // max(1, z.shape[0]))
    for p0, d in difference_rows(z.T, ia, ib, step):
        np.abs(d, out=d)
        np.divide(d, scale[p0 : p0 + d.shape[0], None], out=d)
        np.maximum(out, d.max(axis=0), out=out)
    return out


def abs_diff_row_max_from(
    z: FloatArray | Sequence[FloatArray],
    ia: npt.NDArray[np.intp],
    ib: npt.NDArray[np.intp],
    scale: FloatArray,
    k: int,
) -> FloatArray:
    """`abs_diff_row_max`'s values where they reach its k-th order statistic.

    Returns an array whose order statistics ``k, k + 1, ...`` are those of
    ``abs_diff_row_max(z, ia, ib, scale)`` bit for bit; rows below the k-th are -inf
    or their true value. For a quantile at or above the k-th, the same numbers. `z`
    may be given as consecutive blocks of its rows (the same numbers: every step is
    row by row but the k-th order statistic of the lower bounds), so that it is
    never held as one array of 4 MiB or more (numpy maps those in huge pages).

    Branch and bound: the columns of `z` (the models) are cut into groups of about
    ``sqrt(width)``; a block of pairs between groups g and h can reach at most
    ``max(max_g - min_h, max_h - min_g) / min(scale)`` in a row (rounding is
    monotone, so this bounds each pair's computed value too). A lower bound of each
    row, its largest and smallest columns' pair, gives a value ``lam`` at most the
    k-th order statistic; a block is computed exactly only in the rows where its
    bound reaches ``lam``. A row whose computed maximum reaches ``lam`` is exact (every
    block left out is below it); every other row's true maximum is below ``lam``.
    """
    parts = [z] if isinstance(z, np.ndarray) else list(z)
    offsets = np.cumsum([0] + [p.shape[0] for p in parts])
    rows, width = int(offsets[-1]), parts[0].shape[1]
    out = np.full(rows, -np.inf)
    if not ia.size or rows == 0:
        return out
    sd = np.full((width, width), np.inf)
    sd[ia, ib] = scale
    sd[ib, ia] = scale
    size = max(1, math.isqrt(width))
    group = np.arange(width) // size
    n_groups = int(group[-1]) + 1
    starts = np.arange(0, width, size)
    lower, g_max, g_min = [], [], []
    for part in parts:
        # lower bound of each row: the pair of its largest and smallest column
        hi_col, lo_col = part.argmax(axis=1), part.argmin(axis=1)
        r = np.arange(part.shape[0])
        pair_sd = sd[hi_col, lo_col]
        lower.append(
            np.where(
                np.isfinite(pair_sd),
                np.abs(part[r, hi_col] - part[r, lo_col]) / pair_sd,
                -np.inf,
            )
        )
        g_max.append(np.maximum.reduceat(part, starts, axis=1))
        g_min.append(np.minimum.reduceat(part, starts, axis=1))
    lam = float(np.partition(np.concatenate(lower), k)[k])
    # by group, then row: each group's column contiguous
    top, bottom = np.concatenate(g_max).T.copy(), np.concatenate(g_min).T.copy()
    ga, gb = group[ia], group[ib]
    g1, g2 = np.minimum(ga, gb), np.maximum(ga, gb)
    block = g1 * n_groups + g2
    order = np.argsort(block, kind="stable")
    bounds = np.searchsorted(block[order], np.arange(n_groups * n_groups + 1))
    for g in range(n_groups):
        for h in range(g, n_groups):
            b = g * n_groups + h
            members = order[bounds[b] : bounds[b + 1]]
            if not members.size:
                continue
            each = scale[members]
            reach = np.maximum(top[g] - bottom[h], top[h] - bottom[g])
            reach /= each.min()
            need = np.flatnonzero(reach >= lam)
            if not need.size:
                continue
            col_a, col_b = ia[members], ib[members]
            cut = np.searchsorted(need, offsets).tolist()
            for i, part in enumerate(parts):
                if cut[i] == cut[i + 1]:
                    continue
                at = need[cut[i] : cut[i + 1]]
                sub = part[at - offsets[i]]
                d = sub[:, col_a] - sub[:, col_b]
                np.abs(d, out=d)
                d /= each
                np.maximum(out[at], d.max(axis=1), out=d[:, 0])
                out[at] = d[:, 0]
    return out
