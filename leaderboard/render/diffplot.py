"""The gate's difference plot: candidate minus baseline, with 0 and -margin marked.

The forest plot (`leaderboard.render.plot`) draws each model's own interval; two
overlapping intervals there say nothing about the paired test. This plot draws what
the gate tests, one line per comparison, narrow enough for a phone (39 columns)::

    cand-a      │       ┊    ├──●──┤   │
    cand-b      │├───●───┤   ┊         │
                └──────┴──────┴──────┴─┘
                -0.08  -0.04  0    0.04
    ● candidate - baseline  ├─┤ 97.5% interval
    ┊ 0  ╎ -margin  (regressed: wholly left of ╎)

Labels are untrusted ids, sanitised and cut by `leaderboard.render.plot.fit_label`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from leaderboard.render.escape import code_text
from leaderboard.render.plot import (
    LEFT,
    MEAN,
    RIGHT,
    RULE,
    display_width,
    fit_label,
    nice_ticks,
)

__all__ = ["DiffRow", "difference_plot", "distinct_labels"]

ZERO = "┊"
MARGIN = "╎"
LABEL_MAX = 12  # columns of the label
AXIS = 24  # columns of the axis: label + space + 2 frame + 24 = 39 at most


@dataclass(frozen=True)
class DiffRow:
    """One comparison: its label, difference and interval (None: undetermined)."""

    label: str
    diff: float
    lo: float | None
    hi: float | None


def _fit_middle(s: str, width: int) -> str:
    """`s` cut in its middle to `width` columns: the head and the tail stay."""
    s = code_text(s)
    if display_width(s) <= width:
        return fit_label(s, width)
    head = fit_label(s, (width - 1) // 2 + 1).rstrip()  # ends with "…"
    tail: list[str] = []
    room = width - display_width(head)
    for ch in reversed(s):
        if display_width("".join(tail)) + display_width(ch) > room:
            break
        tail.insert(0, ch)
    return fit_label(head + "".join(tail), width)


def distinct_labels(labels: Sequence[str], width: int) -> list[str]:
    """Each label fitted to `width` columns, every one told apart from the others.

    Cut at the end first; when two cut labels read the same (``mockllm/gpt…`` for
    ``mockllm/gpt-4o`` and ``mockllm/gpt-4o-mini``), cut in the middle so that the
    tails show; when even those repeat, number the rows in order (``1 mock…``).
    """
    for fit in (fit_label, _fit_middle):
        out = [fit(label, width) for label in labels]
        if len(set(out)) == len(out):
            return out
    return [fit_label(f"{i} {label}", width) for i, label in enumerate(labels, 1)]


def _decimals(step: float) -> int:
    for d in range(7):
        if abs(round(step, d) - step) < step * 1e-6:
            return d
    return 6


def difference_plot(
    rows: Sequence[DiffRow], *, margin: float, interval_label: str = "interval"
) -> str:
    """Draw each comparison's difference and interval around 0 and ``-margin``.

    Parameters
    ----------
    rows : sequence of DiffRow
        The comparisons; a row without an interval (undetermined) is drawn as "n/a".
    margin : float
        The tolerated drop (>= 0); ``-margin`` is marked when it is not 0.
    interval_label : str
        What the legend calls the interval, e.g. "97.5% interval".

    Returns
    -------
    str
        The plot's lines, for a code block; none longer than 39 columns.
    """
    drawn = [r for r in rows if r.lo is not None and r.hi is not None]
    values = [0.0, -margin]
    for r in drawn:
        values += [v for v in (r.lo, r.hi, r.diff) if v is not None and math.isfinite(v)]
    d_lo, d_hi, ticks = nice_ticks(min(values), max(values), target=3)

    def pos(x: float) -> int:
        return max(0, min(AXIS - 1, round((x - d_lo) / (d_hi - d_lo) * (AXIS - 1))))

    width = min(
        LABEL_MAX, max((display_width(code_text(r.label)) for r in rows), default=4)
    )
    width = max(width, 4)
    zero, edge = pos(0.0), pos(-margin)
    lines = []
    for r, label in zip(rows, distinct_labels([r.label for r in rows], width), strict=True):
        cells = [" "] * AXIS
        cells[zero] = ZERO
        if margin > 0:
            cells[edge] = MARGIN
        if r.lo is not None and r.hi is not None:
            a, b = sorted((pos(r.lo), pos(r.hi)))
            for i in range(a, b + 1):
                cells[i] = RULE
            if b > a:
                cells[a], cells[b] = LEFT, RIGHT
            cells[pos(r.diff)] = MEAN
            body = "".join(cells)
        else:
            body = "n/a (cannot tell)".center(AXIS)
        lines.append(f"{label} │{body}│")
    axis = [RULE] * AXIS
    tick_line = [" "] * (AXIS + 2)
    last_end = -2
    dec = _decimals(ticks[1] - ticks[0]) if len(ticks) > 1 else 3
    for t in ticks:
        p = pos(t)
        axis[p] = "┴" if 0 < p < AXIS - 1 else axis[p]
        text = f"{t:.{dec}f}".replace("-0" + "." + "0" * dec, "0") if dec else f"{t:.0f}"
        if abs(t) < 1e-12:
            text = "0"
        start = max(0, p + 1 - len(text) // 2)
        if start > last_end + 1 and start + len(text) <= len(tick_line):
            tick_line[start : start + len(text)] = list(text)
            last_end = start + len(text) - 1
    pad = " " * (width + 1)
    lines.append(f"{pad}└{''.join(axis)}┘")
    lines.append(f"{pad}{''.join(tick_line)}".rstrip())
    lines.append(f"{MEAN} difference  {LEFT}{RULE}{RIGHT} {interval_label}")
    if margin > 0:
        lines.append(
            f"{ZERO} 0  {MARGIN} \N{MINUS SIGN}margin (regressed: left of {MARGIN})"
        )
    else:
        lines.append(f"{ZERO} 0 (regressed: left of {ZERO})")
    return "\n".join(lines)
