"""A Unicode forest plot: every model's interval on one common axis, in plain text.

GitHub drops images with data URIs from comments, so the picture is text in a code
block: one line per model, the interval drawn with box-drawing characters, the point
estimate marked, the baseline's mean as a dotted vertical line, ticks below::

      1 model-alpha           │        ├───────●──────┤     │ 0.712
      2 base (baseline)       │     ├────◆───┤              │ 0.690
                              └────┴─────────┴─────────┴────┘
                                  0.60      0.65      0.70

Labels are untrusted ids: `forest_plot` keeps each on its own line and cuts it to a
fixed display width (wide CJK characters count two columns).
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from leaderboard.render.escape import code_text

__all__ = ["PlotRow", "display_width", "fit_label", "forest_plot", "nice_ticks"]

MEAN = "●"
BASELINE_MEAN = "◆"
BASELINE_LINE = "┊"
RULE = "─"
LEFT = "├"
RIGHT = "┤"


@dataclass(frozen=True)
class PlotRow:
    """One line of the plot: a label, a point estimate and its interval."""

    label: str
    mean: float
    lo: float
    hi: float
    rank: int | None = None
    baseline: bool = False


def _char_width(ch: str) -> int:
    if unicodedata.combining(ch) or unicodedata.category(ch) in {"Mn", "Me", "Cf"}:
        return 0
    return 2 if unicodedata.east_asian_width(ch) in {"W", "F"} else 1


def display_width(s: str) -> int:
    """Columns `s` takes in a monospace font (wide East Asian characters count two).

    Parameters
    ----------
    s : str
        Text without control characters.

    Returns
    -------
    int
        The display width.
    """
    return sum(_char_width(ch) for ch in s)


def fit_label(s: str, width: int) -> str:
    """Cut `s` to `width` columns (marking a cut with "…") and pad it to `width`.

    Parameters
    ----------
    s : str
        Untrusted label; control and bidi characters are replaced first.
    width : int
        Target display width, at least 1.

    Returns
    -------
    str
        Text exactly `width` columns wide.
    """
    s = code_text(s)
    if display_width(s) > width:
        out: list[str] = []
        used = 0
        for ch in s:
            w = _char_width(ch)
            if used + w > width - 1:
                break
            out.append(ch)
            used += w
        s = "".join(out) + "…"
    return s + " " * (width - display_width(s))


def _nice_step(raw: float) -> float:
    exponent = math.floor(math.log10(raw))
    base = 10.0**exponent
    for mult in (1.0, 2.0, 2.5, 5.0, 10.0):
        if mult * base >= raw * (1 - 1e-9):
            return mult * base
    return 10.0 * base  # pragma: no cover - the loop always returns


def nice_ticks(lo: float, hi: float, target: int = 4) -> tuple[float, float, list[float]]:
    """A domain containing ``[lo, hi]`` with about `target` evenly spaced round ticks.

    Parameters
    ----------
    lo, hi : float
        The data range; equal values get a small range around them.
    target : int
        About how many intervals between ticks.

    Returns
    -------
    (float, float, list of float)
        The domain's ends and the tick values inside it.
    """
    if not hi - lo > 1e-12:
        pad = max(0.05, abs(lo) * 0.05)
        centre = lo
        lo, hi = centre - pad, centre + pad
        if 0 <= centre <= 1:  # a score: keep the padded range inside [0, 1]
            if lo < 0:
                lo, hi = 0.0, 2 * pad
            elif hi > 1:
                lo, hi = 1 - 2 * pad, 1.0
    step = _nice_step((hi - lo) / target)
    d_lo = math.floor(lo / step + 1e-9) * step
    d_hi = math.ceil(hi / step - 1e-9) * step
    count = round((d_hi - d_lo) / step)
    ticks = [d_lo + k * step for k in range(count + 1)]
    return d_lo, d_hi, ticks


def _decimals(step: float) -> int:
    for d in range(7):
        if abs(round(step, d) - step) < step * 1e-6:
            return d
    return 6


def forest_plot(
    rows: Sequence[PlotRow],
    *,
    baseline: float | None = None,
    width: int = 40,
    label_width: int = 28,
    digits: int = 3,
    interval_label: str = "interval",
) -> str:
    """Draw every row's interval on one common axis of `width` columns.

    Parameters
    ----------
    rows : sequence of PlotRow
        Best first; labels are untrusted and are sanitised and cut here.
    baseline : float, optional
        The baseline's mean, drawn as a dotted vertical line through every row.
    width : int
        Columns of the axis.
    label_width : int
        Display columns for the rank and label.
    digits : int
        Decimals of the mean printed after each row.
    interval_label : str
        What the legend calls the interval, e.g. "95% interval".

    Returns
    -------
    str
        The plot's lines (for a code block; see `leaderboard.render.escape.code_fence`),
        ending with a legend line.
    """
    values = [v for r in rows for v in (r.lo, r.hi, r.mean) if math.isfinite(v)]
    if baseline is not None and math.isfinite(baseline):
        values.append(baseline)
    if not values:
        values = [0.0, 1.0]
    d_lo, d_hi, ticks = nice_ticks(min(values), max(values))

    def pos(x: float) -> int:
        return max(0, min(width - 1, round((x - d_lo) / (d_hi - d_lo) * (width - 1))))

    rank_width = max((len(str(r.rank)) for r in rows if r.rank is not None), default=0)
    name_width = max(label_width - (rank_width + 1 if rank_width else 0), 4)
    lines: list[str] = []
    base_pos = pos(baseline) if baseline is not None and math.isfinite(baseline) else None
    for r in rows:
        cells = [" "] * width
        if base_pos is not None:
            cells[base_pos] = BASELINE_LINE
        if all(math.isfinite(v) for v in (r.lo, r.hi, r.mean)):
            a, b = sorted((pos(r.lo), pos(r.hi)))
            for i in range(a, b + 1):
                cells[i] = RULE
            if b > a:
                cells[a], cells[b] = LEFT, RIGHT
            cells[pos(r.mean)] = BASELINE_MEAN if r.baseline else MEAN
            value = f"{r.mean:.{digits}f}"
        else:
            value = "n/a"
        rank = f"{r.rank:>{rank_width}} " if rank_width else ""
        label = r.label + (" (baseline)" if r.baseline else "")
        lines.append(f"{rank}{fit_label(label, name_width)} │{''.join(cells)}│ {value}")

    axis = [RULE] * width
    tick_line = [" "] * (width + 12)
    last_end = -2
    dec = _decimals(ticks[1] - ticks[0]) if len(ticks) > 1 else digits
    for t in ticks:
        p = pos(t)
        axis[p] = "┴" if 0 < p < width - 1 else axis[p]
        text = f"{t:.{dec}f}"
        start = max(0, p + 1 - len(text) // 2)
        if start > last_end + 1 and start + len(text) <= len(tick_line):
            tick_line[start : start + len(text)] = list(text)
            last_end = start + len(text) - 1
    pad = " " * (label_width + 1)
    lines.append(f"{pad}└{''.join(axis)}┘")
    lines.append(f"{pad}{''.join(tick_line)}".rstrip())
    legend = f"{MEAN} mean  {LEFT}{RULE}{RIGHT} {interval_label}"
    if base_pos is not None:
        legend += f"  {BASELINE_MEAN} baseline  {BASELINE_LINE} baseline mean"
    lines.append(legend)
    return "\n".join(lines)
