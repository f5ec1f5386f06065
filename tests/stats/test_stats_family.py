"""Family-wise statements beside the gate (issue 23): moved rows, the gate's max-T
family, flips in context, rank ranges, two task-level tasks.

Seeded simulations with generators written here; each bound is the target plus about
two Monte Carlo standard errors of the rate at the simulation count used (the big
runs are in bench/stats_family.py and docs/statistics.md).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leaderboard import EvalRun, build_report
from leaderboard.stats.bootstrap import percentile_intervals
from leaderboard.stats.family import max_t_level, pairwise_level
from leaderboard.stats.gate import TWO_TASK_WIDENING
from leaderboard.stats.noise import mcnemar_p, noise_each_way
from leaderboard.stats.quantiles import t_ppf

B = 999


def _two_runs_of_one_model(
    rng: np.random.Generator, *, tasks: int, items: int, drop_task0: float = 0.0
) -> list[EvalRun]:
    """Two runs of one stochastic model: Beta(1.5, 1) item difficulties, each run
    draws its own pass/fail; the candidate's first task loses ``drop_task0``."""
    out = []
    for t in range(tasks):
        p = rng.beta(1.5, 1.0, items)
        base = rng.random(items) < p
        cand = rng.random(items) < np.clip(p - (drop_task0 if t == 0 else 0.0), 0, 1)
        for i in range(items):
            cat = f"c{t % 3}"
            out.append(EvalRun("m", f"t{t:02d}", float(cand[i]), item_id=i, category=cat))
            out.append(
                EvalRun("base", f"t{t:02d}", float(base[i]), item_id=i, category=cat)
            )
    return out


def _where(rng: np.random.Generator, drop: float, seed: int) -> tuple[bool, bool]:
    runs = _two_runs_of_one_model(rng, tasks=14, items=50, drop_task0=drop)
    bd = build_report(runs, baseline="base", resamples=B, seed=seed).gate.comparisons[0]
    rows = bd.breakdown
    return any(r.moved for r in rows), any(r.moved and r.scope == "task:t00" for r in rows)


def test_moved__no_change_rarely_marks_a_row() -> None:
    sims = 200
    hits = sum(_where(np.random.default_rng([23, s]), 0.0, s)[0] for s in range(sims))
    # target 5% (two-sided, family-wise); 2 SE at 200 sims: 3.1 points (measured
    # 4.8% +- 0.6% at 1,500)
    assert hits / sims <= 0.05 + 2 * math.sqrt(0.05 * 0.95 / sims)


def test_moved__a_drop_in_one_task_of_14_is_found() -> None:
    sims = 120
    hits = sum(_where(np.random.default_rng([24, s]), 0.3, s)[1] for s in range(sims))
    assert hits / sims >= 0.5 - 2 * math.sqrt(0.25 / sims)


def test_moved__unadjusted_interval_kept_and_moved_implies_it_excludes_zero() -> None:
    runs = _two_runs_of_one_model(
        np.random.default_rng(5), tasks=14, items=50, drop_task0=0.5
    )
    c = build_report(runs, baseline="base", resamples=B).gate.comparisons[0]
    assert any(r.moved for r in c.breakdown)
    for r in c.breakdown:  # the family interval is wider than the one shown
        if r.moved:
            assert r.ci_lo > 0 or r.ci_hi < 0


# --- the gate's family ------------------------------------------------------------


def _shared_item_candidates(
    rng: np.random.Generator, drop: float, keep_share: float = 0.7
) -> list[EvalRun]:
    """A baseline and four candidates answering the same 300 items: each candidate keeps
    the baseline's answer on ``keep_share`` of items and redraws the rest; the first loses
    ``drop``."""
    p = rng.beta(2.0, 1.5, 300)
    base = rng.random(300) < p
    runs = [
        EvalRun("base", f"t{i // 100}", float(base[i]), item_id=i % 100) for i in range(300)
    ]
    for k in range(4):
        keep = rng.random(300) < keep_share
        fresh = rng.random(300) < np.clip(p - (drop if k == 0 else 0.0), 0, 1)
        cand = np.where(keep & (k != 0 or drop == 0), base, fresh)
        runs += [
            EvalRun(f"c{k}", f"t{i // 100}", float(cand[i]), item_id=i % 100)
            for i in range(300)
        ]
    return runs


def test_gate_family__holds_the_family_wise_level() -> None:
    sims = 200
    hits = 0
    for s in range(sims):
        # independent candidates on the same items: correlated through the baseline
        runs = _shared_item_candidates(np.random.default_rng([25, s]), 0.0, 0.0)
        hits += build_report(runs, baseline="base", resamples=B, seed=s).gate.regressed
    assert hits / sims <= 0.025 + 2 * math.sqrt(0.025 * 0.975 / sims)


@pytest.mark.slow
def test_gate_family__candidates_keeping_most_answers_hold_the_level() -> None:
    # 70% of the baseline's answers kept: sparse paired differences. The 5.6% once
    # measured on the first 250 draws of stream 25 was those draws: a test with the
    # true SEs and exact critical value fired 5.2% on them (bench/stats_family.py);
    # 4,000 draws: 2.55% +- 0.25%. A fresh stream here, 350 reports (about 15 s).
    sims, hits = 350, 0
    for s in range(sims):
        runs = _shared_item_candidates(np.random.default_rng([30, s]), 0.0, 0.7)
        hits += build_report(runs, baseline="base", resamples=B, seed=s).gate.regressed
    assert hits / sims <= 0.025 + 2 * math.sqrt(0.025 * 0.975 / sims)


def test_gate_family__less_strict_than_bonferroni_when_candidates_share_items() -> None:
    runs = _shared_item_candidates(np.random.default_rng(3), 0.0)
    gate = build_report(runs, baseline="base", resamples=2000).gate
    assert gate.adjustment == "max-t"
    assert gate.family_size == 4
    assert 0.95 < gate.comparisons[0].confidence < 1 - 0.05 / 4


@settings(max_examples=25, deadline=None)
@given(m=st.integers(2, 12), rho=st.floats(0.0, 0.95), alpha=st.sampled_from([0.05, 0.1]))
def test_max_t_level__between_bonferroni_and_one_interval(
    m: int, rho: float, alpha: float
) -> None:
    rng = np.random.default_rng(m)
    shared = rng.standard_normal((2000, 1))
    reps = math.sqrt(rho) * shared + math.sqrt(1 - rho) * rng.standard_normal((2000, m))
    level = max_t_level(np.zeros(m), reps, np.full(m, 50.0), alpha)
    assert alpha / m <= level.alpha_each <= alpha


def test_max_t_level__independent_estimates_give_sidak() -> None:
    # closed form: for independent normals P(max |Z| > c) = 1 - (1 - 2(1 - Phi(c)))^m
    m, alpha = 10, 0.05
    reps = np.random.default_rng(0).standard_normal((20_000, m))
    each = max_t_level(np.zeros(m), reps, np.full(m, 1e6), alpha).alpha_each
    sidak = 1 - (1 - alpha) ** (1 / m)
    assert each == pytest.approx(sidak, rel=0.08)


def test_max_t_level__identical_estimates_need_no_adjustment() -> None:
    col = np.random.default_rng(1).standard_normal((5000, 1))
    each = max_t_level(np.zeros(4), np.tile(col, 4), np.full(4, 1e6), 0.05).alpha_each
    assert each == pytest.approx(0.05, rel=0.08)


def test_pairwise_level__identical_models_three_pairs() -> None:
    reps = np.random.default_rng(2).standard_normal((20_000, 3))
    each = pairwise_level(reps, [(0, 1), (0, 2), (1, 2)], 0.05)
    assert 0.05 / 3 < each < 0.05  # three correlated differences: beyond Bonferroni


# --- flips in context ---------------------------------------------------------------


def test_mcnemar__closed_form() -> None:
    assert mcnemar_p(5, 0) == pytest.approx(2 / 32)
    assert mcnemar_p(3, 3) == 1.0
    # 2 P(X <= 2), X ~ Bin(10, 1/2) = 2 * 56 / 1024
    assert mcnemar_p(8, 2) == pytest.approx(2 * 56 / 1024)
    assert noise_each_way(126, 69) == 98  # 195 / 2, halves up
    assert noise_each_way(7, 7) == 7
    assert noise_each_way(0, 0) == 0


def test_flips__neutral_reports_rarely_beyond_noise() -> None:
    sims, beyond = 200, 0
    for s in range(sims):
        runs = _two_runs_of_one_model(np.random.default_rng([26, s]), tasks=1, items=50)
        f = (
            build_report(runs, baseline="base", resamples=200, seed=s)
            .gate.comparisons[0]
            .flips
        )
        assert f is not None
        assert f.noise_each_way == (f.pass_to_fail + f.fail_to_pass + 1) // 2
        beyond += bool(f.beyond_noise)
    assert beyond / sims <= 0.05 + 2 * math.sqrt(0.05 * 0.95 / sims)


# --- rank ranges --------------------------------------------------------------------


def _nine_identical_models_share_one_range(stream: int, sims: int) -> float:
    shared = 0
    for s in range(sims):
        rng = np.random.default_rng([stream, s])
        p = rng.beta(2.0, 2.0, 200)
        runs = [
            EvalRun(f"m{k}", f"t{i // 100}", float(rng.random() < p[i]), item_id=i % 100)
            for k in range(9)
            for i in range(200)
        ]
        rows = build_report(runs, resamples=B, seed=s).leaderboard
        shared += all(r.rank_lo == 1 and r.rank_hi == 9 for r in rows)
    return shared / sims


def test_ranks__identical_models_share_one_range() -> None:
    sims = 60
    # goal 95%; measured 95.4% +- 0.4% at 3,000 sims of 999 resamples (stream 27)
    shared = _nine_identical_models_share_one_range(27, sims)
    assert shared >= 0.95 - 2 * math.sqrt(0.95 * 0.05 / sims)


@pytest.mark.slow
def test_ranks__identical_models_share_one_range_at_95_percent() -> None:
    # enough reports to tell 95% from the 92% once measured on stream 27's first 300
    # (where the oracle test with the true SEs failed as often: those draws); the
    # pairwise decisions unadjusted share one range in 43%. About 15 s.
    sims = 450
    shared = _nine_identical_models_share_one_range(29, sims)
    assert shared >= 0.95 - 2 * math.sqrt(0.95 * 0.05 / sims)


def test_family_interval__far_tail_never_inside_the_t_interval() -> None:
    # At alpha_each = 0.0019 (36 pairs) 999 replicates leave about one in each tail:
    # the percentile end sits inward (alone, the rank family fired 9.5% instead of
    # 5%). The end is never inside est -+ t * SE, which holds the level.
    rng = np.random.default_rng(31)
    reps = rng.standard_normal((999, 200))
    est, df, alpha = np.zeros(200), np.full(200, 198.0), 0.0019
    lo, hi = percentile_intervals(est, reps, df, alpha)
    half = t_ppf(1 - alpha / 2, 198.0) * reps.std(axis=0, ddof=1)
    assert (hi >= half - 1e-12).all()
    assert (-lo >= half - 1e-12).all()
    inward = np.quantile(reps, 1 - alpha / 2, axis=0) < half
    assert inward.mean() > 0.5  # the case the floor is there for does occur


# --- two task-level tasks -----------------------------------------------------------


def test_two_tasks__widening_is_pi_over_two() -> None:
    # int |y| f(y)^2 dy: 1/4 for uniform, 1/(2 pi) for normal differences
    assert pytest.approx(0.25 / (1 / (2 * math.pi))) == TWO_TASK_WIDENING


@pytest.mark.slow
def test_two_tasks__uniform_differences_hold_the_level() -> None:
    sims, hits = 1500, 0
    for s in range(sims):
        r = np.random.default_rng([28, s])
        base = r.uniform(0.3, 0.7, 2)
        scores = np.vstack([base, base + r.uniform(-0.1, 0.1, 2)])
        runs = [
            EvalRun(m, f"t{t}", float(scores[j, t]))
            for j, m in enumerate(("base", "cand"))
            for t in range(2)
        ]
        hits += build_report(runs, baseline="base", resamples=B, seed=s).gate.regressed
    assert hits / sims <= 0.035  # measured 2.25% at 4,000 (before the stretch: 3.12%)
