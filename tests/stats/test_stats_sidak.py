"""Šidák's closed form for families of independent rows (a breakdown's per-task rows).

`Replicates.independent` says when rows are independent by construction (disjoint
strata, no collapsed group spanning two); `max_t_level(independent=True)` then gives
Šidák's level exactly, which the drawn max-T approximates.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from leaderboard import EvalRun, build_report
from leaderboard.stats.bootstrap import Replicates, stratified_replicates
from leaderboard.stats.family import max_t_level


def _replicates(starts: list[int], category: list[str] | None = None) -> Replicates:
    """One column over the strata of `starts`: an estimate per stratum, then the
    overall mean."""
    h = len(starts) - 1
    n = starts[-1]
    num = np.random.default_rng(3).random((n, 1))
    weight = np.zeros((h, h + 1))
    weight[np.arange(h), np.arange(h)] = 1.0
    weight[:, h] = 1.0 / h
    return stratified_replicates(
        num,
        np.ones((n, 1)),
        np.array(starts),
        np.zeros(h + 1, dtype=np.intp),
        weight,
        resamples=200,
        seed=1,
        category=category,
    )


def test_independent__rows_of_disjoint_strata() -> None:
    rep = _replicates([0, 4, 9, 15])
    assert rep.independent(np.array([[0], [1], [2]]))
    assert rep.independent(np.array([[0, 1], [2, 2]]))  # differences: 0 - 1 and 2
    assert not rep.independent(np.array([[0, 1], [1, 2]]))  # stratum 1 twice
    assert not rep.independent(np.array([[0], [3]]))  # the overall mean reads stratum 0


def test_independent__a_collapsed_group_joins_its_strata() -> None:
    # strata 1 and 2 hold one unit each: collapsed together, their replicates share
    # the group's draws
    rep = _replicates([0, 4, 5, 6, 10], category=["a", "a", "a", "b"])
    assert rep.variances.groups
    assert not rep.independent(np.array([[1], [2]]))
    assert rep.independent(np.array([[0], [3]]))
    assert rep.independent(np.array([[1], [3]]))


@pytest.mark.parametrize("m", [2, 5, 20])
@pytest.mark.parametrize("alpha", [0.05, 0.01])
def test_max_t_level__independent_is_sidak_exactly(m: int, alpha: float) -> None:
    reps = np.random.default_rng(m).standard_normal((4000, m))
    level = max_t_level(np.zeros(m), reps, np.full(m, 1e6), alpha, independent=True)
    assert level.alpha_each == pytest.approx(1 - (1 - alpha) ** (1 / m), rel=1e-12)
    assert level.critical is not None
    assert 2 * 0.5 * math.erfc(level.critical / math.sqrt(2)) == pytest.approx(
        level.alpha_each, rel=1e-9
    )
    # the drawn max-T on independent replicates estimates the same level
    drawn = max_t_level(np.zeros(m), reps, np.full(m, 1e6), alpha).alpha_each
    assert drawn == pytest.approx(level.alpha_each, rel=0.1)


def test_max_t_level__independent_rows_without_spread_still_count_for_bonferroni() -> None:
    reps = np.random.default_rng(0).standard_normal((4000, 5))
    reps[:, 3:] = 0.0  # two rows with no spread: out of the maximum, in m
    level = max_t_level(np.zeros(5), reps, np.full(5, 1e6), 0.05, independent=True)
    assert level.alpha_each == pytest.approx(max(0.05 / 5, 1 - 0.95 ** (1 / 3)))


def test_breakdown__task_rows_of_one_category_moved_at_sidak() -> None:
    # one category, 6 tasks: the rows are the per-task differences, disjoint strata;
    # a task that dropped from all passes to none moves, the others do not
    rng = np.random.default_rng(5)
    runs = []
    for t in range(6):
        for i in range(40):
            base = float(rng.random() < 0.7)
            cand = 0.0 if t == 0 else base
            runs.append(EvalRun("base", f"t{t}", base, item_id=i))
            runs.append(EvalRun("cand", f"t{t}", cand, item_id=i))
    rows = build_report(runs, baseline="base", resamples=999).gate.comparisons[0].breakdown
    assert [r.scope for r in rows if r.moved] == ["task:t0"]
    assert len(rows) == 6
