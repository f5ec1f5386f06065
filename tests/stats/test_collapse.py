"""`leaderboard.stats.collapse`: tasks of a single unit, pooled with tasks of their kind.

Hand-made designs: units (rows) sorted by stratum, ``starts`` slicing them, one column
per model. The references are the survey-sampling closed forms of the module's
docstring: each lone task perturbed with the spread of its group,
``s^2 = sum_j (y_j - ybar)^2 / (m - 1)``, so a lone task of weight ``w`` adds
``w^2 s^2`` to a mean's variance (and a paired difference, that of the differences).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leaderboard.stats.collapse import (
    collapse_groups,
    group_deviations,
    group_variance,
    lone_cells,
)


def _starts(*sizes: int) -> np.ndarray:
    return np.concatenate([[0], np.cumsum(sizes)]).astype(np.intp)


def _members(groups: list) -> list[list[int]]:
    return [g.members.tolist() for g in groups]


# -- which cells are lone --------------------------------------------------------------
def test_lone_cells__one_unit_with_data_per_stratum_and_column() -> None:
    # strata of 2, 1, 0 and 3 units; column 1 has data on one unit of stratum 0 only
    den = np.array(
        [
            [1.0, 1.0],  # stratum 0
            [1.0, 0.0],
            [1.0, 1.0],  # stratum 1: a single unit
            [1.0, 0.0],  # stratum 3
            [1.0, 0.0],
            [1.0, 0.0],
        ]
    )
    lone = lone_cells(den, _starts(2, 1, 0, 3))
    assert lone.tolist() == [
        [False, True],  # two units in column 0; one with data in column 1
        [True, True],
        [False, False],  # empty: no unit at all
        [False, False],  # three units in column 0, none with data in column 1
    ]


# -- how strata are grouped ------------------------------------------------------------
@pytest.mark.parametrize(
    ("category", "groups"),
    [
        (["a", "a", "b", "b"], [[0, 1], [2, 3]]),  # by category
        (["a", "a", "b", "c"], [[0, 1], [2, 3]]),  # single ones pooled together
        (["a", "a", "a", "b"], [[0, 1, 2, 3]]),  # a last single one joins the largest
        (["a", "b", "b", "b"], [[0, 1, 2, 3]]),
        (["a", "b", "c", "d"], [[0, 1, 2, 3]]),  # no category of two: all together
    ],
)
def test_collapse_groups__by_category_then_the_leftovers(
    category: list[str], groups: list[list[int]]
) -> None:
    den = np.ones((4, 1))
    num = np.array([[0.8], [0.4], [0.6], [0.2]])
    assert _members(collapse_groups(num, den, _starts(1, 1, 1, 1), category)) == groups


def test_collapse_groups__a_single_leftover_joins_the_largest_group() -> None:
    den = np.ones((6, 1))
    num = np.zeros((6, 1))
    got = collapse_groups(num, den, _starts(1, 1, 1, 1, 1, 1), list("aabbbc"))
    assert _members(got) == [[0, 1], [2, 3, 4, 5]]


def test_collapse_groups__no_lone_stratum__no_group() -> None:
    den = np.ones((4, 1))
    assert collapse_groups(den, den, _starts(2, 2), ["a", "b"]) == []


def test_collapse_groups__strata_of_several_units_stay_out() -> None:
    den = np.ones((5, 1))
    num = np.array([[1.0], [0.0], [0.5], [0.7], [0.9]])
    # stratum 0 has two units; 1, 2 and 3 one each
    got = collapse_groups(num, den, _starts(2, 1, 1, 1), ["a", "a", "a", "a"])
    assert _members(got) == [[1, 2, 3]]


# -- the residuals and their variance --------------------------------------------------
def _three_lone_and_one_big() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Strata 0-2: one unit each, scores 0.8, 0.4, 0.6 (column 0) and 0.7, 0.5, 0.3
    (column 1, its residuals correlated with column 0's); stratum 3: three units."""
    num = np.array([[0.8, 0.7], [0.4, 0.5], [0.6, 0.3], [1.0, 1.0], [0.0, 0.0], [1.0, 0.0]])
    return num, np.ones_like(num), _starts(1, 1, 1, 3)


def test_group__residuals_scaled_to_the_sample_variance_with_m_minus_1_dof() -> None:
    num, den, starts = _three_lone_and_one_big()
    [g] = collapse_groups(num, den, starts, ["a"] * 4)
    assert g.members.tolist() == [0, 1, 2]
    assert g.lone.all()
    assert g.nu.tolist() == [2.0, 2.0]
    # column 0: ybar 0.6, residuals 0.2, -0.2, 0; scale sqrt(k_G / (m - 1)) = sqrt(3/2)
    scale = np.sqrt(3 / 2)
    assert g.rho[:, 0] == pytest.approx(np.array([0.2, -0.2, 0.0]) * scale)
    assert g.rho[:, 1] == pytest.approx(np.array([0.2, 0.0, -0.2]) * scale)
    # the mean square of the scaled residuals over the group is the sample variance
    assert (g.rho[:, 0] ** 2).mean() == pytest.approx(np.var([0.8, 0.4, 0.6], ddof=1))


def test_group_variance__a_mean_gets_w2_s2_per_lone_task() -> None:
    num, den, starts = _three_lone_and_one_big()
    [g] = collapse_groups(num, den, starts, ["a"] * 4)
    weight = np.full((4, 2), 0.25)  # four tasks, equal weights, estimates of columns 0, 1
    column = np.array([0, 1], dtype=np.intp)
    v, nu = group_variance(g, weight, column, np.array([0, 1]), None)
    s2 = [np.var([0.8, 0.4, 0.6], ddof=1), np.var([0.7, 0.5, 0.3], ddof=1)]
    assert v == pytest.approx([3 * 0.25**2 * s2[0], 3 * 0.25**2 * s2[1]], abs=1e-15)
    assert v[0] == pytest.approx(0.0075)  # 3 x 1/16 x 0.04
    assert nu.tolist() == [2.0, 2.0]


def test_group_variance__a_paired_difference_gets_the_spread_of_the_differences() -> None:
    num, den, starts = _three_lone_and_one_big()
    [g] = collapse_groups(num, den, starts, ["a"] * 4)
    weight = np.full((4, 2), 0.25)
    column = np.array([0, 1], dtype=np.intp)
    v, nu = group_variance(g, weight, column, np.array([0]), np.array([1]))
    d = np.array([0.8, 0.4, 0.6]) - np.array([0.7, 0.5, 0.3])
    assert v == pytest.approx([3 * 0.25**2 * np.var(d, ddof=1)], abs=1e-15)
    assert v[0] == pytest.approx(3 / 16 * 0.04)  # d = 0.1, -0.1, 0.3: s^2 = 0.04
    assert nu.tolist() == [2.0]


def test_group_deviations__every_draw_enumerated__mean_square_is_group_variance() -> None:
    num, den, starts = _three_lone_and_one_big()
    [g] = collapse_groups(num, den, starts, ["a"] * 4)
    weight = np.array([[0.5, 0.2], [0.3, 0.3], [0.1, 0.4], [0.1, 0.1]])
    column = np.array([0, 1], dtype=np.intp)
    draws = np.array(list(itertools.product(range(3), repeat=3)), dtype=np.intp)  # 27
    dev = group_deviations(g, draws, column, weight)
    assert dev.shape == (27, 2)
    # by hand for one draw: member j takes the residual of member draws[r, j]
    r = 5
    want = sum(weight[j, 0] * g.rho[draws[r, j], 0] for j in range(3))
    assert dev[r, 0] == pytest.approx(want)
    v, _ = group_variance(g, weight, column, np.array([0, 1]), None)
    assert (dev**2).mean(axis=0) == pytest.approx(v, abs=1e-15)
    assert dev.mean(axis=0) == pytest.approx([0.0, 0.0], abs=1e-15)  # centred
    vd, _ = group_variance(g, weight, column, np.array([0]), np.array([1]))
    assert ((dev[:, 0] - dev[:, 1]) ** 2).mean() == pytest.approx(vd[0], abs=1e-15)


def test_group__a_lone_task_alone__undetermined_where_it_counts() -> None:
    num = np.array([[0.8], [1.0], [0.0]])
    den = np.ones_like(num)
    [g] = collapse_groups(num, den, _starts(1, 2), ["a", "b"])
    assert g.members.tolist() == [0]
    assert g.nu.tolist() == [0.0]  # one task: no degrees of freedom for its spread
    assert g.rho.tolist() == [[0.0]]
    column = np.array([0, 0], dtype=np.intp)
    weight = np.array([[0.5, 0.0], [0.5, 1.0]])  # estimate 1 leaves the lone task out
    assert g.undetermined(weight, column).tolist() == [True, False]
    _, nu = group_variance(g, weight, column, np.array([0, 1]), None)
    assert nu.tolist() == [0.0, np.inf]


# -- property --------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(
    scores=st.lists(st.floats(0.0, 1.0), min_size=2, max_size=6),
    weights=st.lists(st.floats(0.01, 1.0), min_size=6, max_size=6),
)
def test_group_variance__single_lone_tasks__sum_of_w2_times_the_sample_variance(
    scores: list[float], weights: list[float]
) -> None:
    k = len(scores)
    num = np.array(scores)[:, None]
    den = np.ones_like(num)
    [g] = collapse_groups(num, den, _starts(*[1] * k), ["a"] * k)
    w = np.array(weights[:k])[:, None]
    v, nu = group_variance(g, w, np.array([0], dtype=np.intp), np.array([0]), None)
    want = float((w[:, 0] ** 2).sum() * np.var(scores, ddof=1))
    assert float(v[0]) == pytest.approx(want, rel=1e-9, abs=1e-15)
    assert nu.tolist() == [k - 1.0]
