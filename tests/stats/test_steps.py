"""The step-change rule on simulated kept runs (seeded).

Each simulated run scores `ITEMS` pass/fail items at a true rate; its interval is the
95% Wilson interval of its mean, as a run's own interval in the index would be. The
rule (`leaderboard.stats.steps.step_changes`) must stay quiet under no change and name
a real step at the run where it happens.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from leaderboard.stats.steps import STEP_MIN_BEFORE, STEP_WINDOW, step_changes

ITEMS = 300
RUNS = 12
SERIES = 400
Z = 1.959963984540054


def _run(rng: np.random.Generator, p: float) -> tuple[float, float, float]:
    k = int(rng.binomial(ITEMS, p))
    mean = k / ITEMS
    centre = (mean + Z * Z / (2 * ITEMS)) / (1 + Z * Z / ITEMS)
    half = (
        Z
        * math.sqrt(mean * (1 - mean) / ITEMS + Z * Z / (4 * ITEMS**2))
        / (1 + Z * Z / ITEMS)
    )
    return mean, centre - half, centre + half


def _series(seed: int, rates: list[float]) -> list[tuple[float, float, float]]:
    rng = np.random.default_rng(seed)
    return [_run(rng, p) for p in rates]


def test_steps__no_change__rarely_named() -> None:
    flagged = sum(len(step_changes(_series(seed, [0.7] * RUNS))) for seed in range(SERIES))
    checked = SERIES * (RUNS - STEP_MIN_BEFORE)
    # measured: 0 of 3,600 runs at seed 0..399; the bound leaves room, not much
    assert flagged / checked < 0.002, flagged


# measured at seeds 0..399, 300 items at 0.7: a drop of 0.10 is named at its run 12%
# of the time, 0.15 61%, 0.20 95.5%, 0.25 99.75% (the rule is conservative: a run's
# interval must clear every interval before it)
@pytest.mark.parametrize(("drop", "at_least"), [(0.2, 0.93), (0.25, 0.99)])
def test_steps__a_real_drop__named_at_its_run(drop: float, at_least: float) -> None:
    at = 7
    found = 0
    for seed in range(SERIES):
        rates = [0.7] * at + [0.7 - drop] * (RUNS - at)
        steps = step_changes(_series(seed, rates))
        found += steps[:1] == [at]
        assert all(s >= at for s in steps), (seed, steps)  # nothing before it
    assert found / SERIES >= at_least, found


def test_steps__a_step_is_named_once_not_at_every_run_after_it() -> None:
    rates = [0.8] * 5 + [0.4] * 7
    steps = step_changes(_series(1, rates))
    assert steps == [5]


def test_steps__too_few_runs_before__nothing_named() -> None:
    series = [(0.9, 0.88, 0.92)] * STEP_MIN_BEFORE + [(0.1, 0.08, 0.12)]
    assert step_changes(series) == [STEP_MIN_BEFORE]
    assert step_changes(series[1:]) == []


def test_steps__only_the_window_before_counts() -> None:
    # an old low run beyond the window does not hide a drop back to its level
    old = [(0.1, 0.08, 0.12)]
    high = [(0.9, 0.88, 0.92)] * STEP_WINDOW
    assert step_changes([*old, *high, (0.1, 0.08, 0.12)]) == [STEP_WINDOW + 1]
