"""Number formats of the comment, registered as Jinja filters.

Scores, means and differences: 3 decimals (``0.712``, ``+0.012``, ``[0.690, 0.734]``,
the space in an interval a no-break space so that it never wraps);
proportions (win rate, confidence): percent with at most one decimal (``62.5%``).
None, NaN and infinity read "n/a".
"""

from __future__ import annotations

import math

__all__ = ["ci", "count", "num", "pct", "signed", "signed_pct"]


def num(x: float | None, digits: int = 3) -> str:
    """``0.712``; "n/a" for None, NaN or infinity."""
    if x is None or not math.isfinite(x):
        return "n/a"
    return f"{x:.{digits}f}"


def signed(x: float | None, digits: int = 3) -> str:
    """``+0.012`` / ``-0.034``: a difference with its sign always shown."""
    if x is None or not math.isfinite(x):
        return "n/a"
    return f"{x:+.{digits}f}"


def pct(x: float | None, digits: int = 1) -> str:
    """``95%``, ``97.5%``: a proportion as a percentage, trailing zeros dropped."""
    if x is None or not math.isfinite(x):
        return "n/a"
    text = f"{100 * x:.{digits}f}"
    while 0 < x < 1 and float(text) in (0.0, 100.0) and digits < 12:
        digits += 1  # 0.9999999 is not "100%"
        text = f"{100 * x:.{digits}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return ("0" if text == "-0" else text) + "%"


def ci(lo: float | None, hi: float | None, digits: int = 3) -> str:
    """``[0.690, 0.734]``: an interval with both ends at `digits` decimals.

    The space after the comma is U+00A0 (no-break space): a narrow table cell or a
    phone screen never splits an interval over two lines.
    """
    return f"[{num(lo, digits)},\u00a0{num(hi, digits)}]"


def count(n: int) -> str:
    """``10,000``: an integer with thousands separators."""
    return f"{n:,}"


def signed_pct(x: float | None) -> str:
    """``+46%``, ``-4.2%``: a relative change already in percent, its sign shown; one
    decimal below 10%, none above; "n/a" when not finite or beyond a million percent."""
    if x is None or not math.isfinite(x) or abs(x) > 1e8:
        return "n/a"
    digits = 1 if abs(x) < 10 else 0
    text = f"{x:+.{digits}f}"
    return ("+0" if text in ("-0", "-0.0", "+0.0") else text) + "%"
