"""Step changes in the default branch's kept runs: a run well outside the noise before it.

A pull request's gate compares two runs; a sudden change on the default branch itself
(a dependency bumped, a prompt edited straight on main) shows only across the kept
runs. A run is a **step change** when its interval lies wholly above, or wholly below,
every interval of the runs before it: the up to `STEP_WINDOW` kept runs immediately
before it, at least `STEP_MIN_BEFORE` of them. Each interval is the run's own (the
mean's interval at the report's confidence, as the kept index stores it), so the rule
needs no spread of its own: a run is flagged only when no run before it is compatible
with it. Runs after a step are compared with windows that hold the step's run, so one
step is named once. Under no change the rule is rare by construction (a run's 95%
interval must miss the highest upper end, or the lowest lower end, of 3-5 others); the
seeded tests in tests/stats/test_steps.py measure it.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["STEP_MIN_BEFORE", "STEP_WINDOW", "step_changes"]

STEP_WINDOW = 5  # kept runs before a run that it is compared with
STEP_MIN_BEFORE = 3  # fewer runs before it: no step is named


def step_changes(series: Sequence[tuple[float, float, float]]) -> list[int]:
    """Positions of the runs that are step changes, oldest first.

    Parameters
    ----------
    series : sequence of (mean, lo, hi)
        One model's kept runs, oldest first: each run's mean and interval.
    """
    out = []
    for i in range(STEP_MIN_BEFORE, len(series)):
        before = series[max(0, i - STEP_WINDOW) : i]
        _, lo, hi = series[i]
        if lo > max(b[2] for b in before) or hi < min(b[1] for b in before):
            out.append(i)
    return out
