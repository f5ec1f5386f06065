"""Green means a drop is ruled out (CONTRACT.md section 13).

A score comparison has three states. It *regresses* when its interval lies wholly
below ``-margin`` (as before); it passes (*no regression*) only when the interval's
lower end is at or above ``-max_drop``, so that a drop as large as ``max_drop`` is
ruled out at the comparison's level; anything in between *cannot tell*: the data are
consistent with no change and with a drop a reviewer would not merge.

A comparison that cannot tell says how much data would settle it, from the interval's
own width. Its lower half-width ``w = estimate - ci_lo`` at critical value
``t = t_{1 - alpha/2, df}`` is ``t`` standard errors; with ``n`` units the standard
error scales as ``1 / sqrt(n)``, and ruling out ``max_drop`` 80% of the time when
nothing changed needs ``(z_{1 - alpha/2} + z_{0.80}) SE' <= max_drop``::

    n' = n * ((w / t) * (z_{1 - alpha/2} + z_{0.80}) / max_drop) ** 2

(a planning figure: it assumes the same spread per unit and the same level; the
normal quantiles because ``n'`` is large). With several samples per item the
variance splits into a between-item and a within-item part (`leaderboard.stats.epochs`);
more samples per item shrink only the second. Per sample drawn, more items always
shrink the variance at least as much, but a benchmark's items are often fixed and new
samples cost only compute: the samples per item that would do it on the same items are
named whenever they alone can (the between-item part already below the target).
"""

from __future__ import annotations

import math

from leaderboard.errors import UsageError
from leaderboard.report import EpochAdvice
from leaderboard.stats.quantiles import norm_ppf, t_ppf

__all__ = [
    "DEFAULT_MAX_DROP",
    "Needed",
    "about",
    "check_max_drop",
    "needed",
    "not_ruled_out_note",
]

DEFAULT_MAX_DROP = 0.05
POWER = 0.80


def check_max_drop(max_drop: object, margin: float) -> float:
    """`max_drop` validated, and raised to `margin` when below it."""
    if (
        isinstance(max_drop, bool)
        or not isinstance(max_drop, (int, float))
        or not math.isfinite(max_drop)
        or not 0.0 < max_drop <= 1.0
    ):
        raise UsageError(f"`max_drop` must be a number in (0, 1], got {max_drop!r}")
    return max(float(max_drop), float(margin))


class Needed:
    """About how many units, or samples per item, would rule out `max_drop`."""

    __slots__ = ("epochs", "units")

    def __init__(self, units: int, epochs: int | None) -> None:
        self.units = units
        self.epochs = epochs


def about(n: float) -> int:
    """`n` rounded up to two significant figures (a planning figure, not a count)."""
    n = math.ceil(n)
    if n < 100:
        return int(n)
    step = 10 ** (len(str(n)) - 2)
    return int(math.ceil(n / step) * step)


def needed(
    *,
    estimate: float,
    ci_lo: float,
    df: float,
    alpha: float,
    units: int,
    max_drop: float,
    epochs: EpochAdvice | None = None,
) -> Needed:
    """How much data of the same spread would rule out `max_drop` (module docstring).

    `alpha` is the comparison's two-sided level (its interval at ``1 - alpha``),
    `df` its degrees of freedom, `units` the units it holds now.
    """
    se = max(estimate - ci_lo, 0.0) / t_ppf(1.0 - alpha / 2.0, max(df, 1.0))
    target = max_drop / (norm_ppf(1.0 - alpha / 2.0) + norm_ppf(POWER))
    ratio = (se / target) ** 2
    n_units = about(max(units * ratio, units + 1.0))
    n_epochs: int | None = None
    if epochs is not None and ratio > 1.0:
        k = epochs.samples_per_item
        between = epochs.between_share * ratio  # in units of the target variance
        within = epochs.within_share * ratio
        if between < 1.0 and within > 0:
            e = math.ceil(k * within / (1.0 - between))
            if e > k:
                n_epochs = int(e)
    return Needed(n_units, n_epochs)


def _plural(kind: str, n: int) -> str:
    return kind + ("s" if n != 1 else "")


def not_ruled_out_note(
    *, ci_lo: float, max_drop: float, need: Needed, units: int, unit_kind: str
) -> str:
    """``a drop as large as 0.407 is not ruled out; about 1,300 items (21 now) would
    rule out 0.050``, and the samples per item when they alone would do it."""
    text = (
        f"a drop as large as {-ci_lo:.3f} is not ruled out; about "
        f"{need.units:,} {_plural(unit_kind, need.units)} ({units:,} now) would rule "
        f"out {max_drop:.3f}"
    )
    if need.epochs is not None:
        text += f", or about {need.epochs} samples per item on the same items"
    return text
