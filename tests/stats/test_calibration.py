"""Seeded calibration: coverage and false-alarm rates of the whole report path.

Every simulated data set goes through `build_report` (999 replicates), so these rates
are the ones users get. The seed lesson's plain percentile bootstrap over tasks measured
83% coverage at 5 tasks and 91% at 12, and 8.0% / 3.8% false alarms (nominal 2.5%).
Targets (issue 2): coverage >= 93%, false alarms <= 3.5% (<= 4% for clustered data).
Run with ``-s`` to see the measured table.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from tests.stats.simulate import (
    beta_mean,
    covers,
    false_alarm,
    item_level_runs,
    rate,
    task_level_runs,
)

pytestmark = pytest.mark.slow

SEED = 2026


def _report(record: Callable[[str, object], None], name: str, p: float, se: float) -> None:
    record(name, f"{p:.4f} +- {se:.4f}")
    print(f"\n{name}: {p:.2%} (SE {se:.2%})")


@pytest.mark.parametrize("n_tasks", [5, 12, 40])
@pytest.mark.parametrize(
    ("a", "b"), [(6.0, 3.0), (2.0, 5.0)], ids=["beta(6,3)", "skewed beta(2,5)"]
)
def test_coverage__continuous_task_scores(
    n_tasks: int, a: float, b: float, record_property: Callable[[str, object], None]
) -> None:
    truth = a / (a + b)

    def sim(rng: np.random.Generator) -> bool:
        scores = rng.beta(a, b, size=(1, n_tasks))
        return covers(task_level_runs(scores, ("m",)), truth, int(rng.integers(2**31)))

    # 5 tasks sit closest to the bar (94.0% failed at 2 of 10 seeds with 1,500 runs):
    # three seeds pooled there, so that a pass means the property holds.
    seeds = (SEED, 1, 2) if n_tasks == 5 else (SEED,)
    p = float(np.mean([rate(sim, 1500, seed)[0] for seed in seeds]))
    se = float(np.sqrt(p * (1 - p) / (1500 * len(seeds))))
    _report(record_property, f"coverage beta({a:g},{b:g}) {n_tasks} tasks", p, se)
    assert p >= 0.93


@pytest.mark.parametrize("n_items", [10, 30, 100])
@pytest.mark.parametrize("p_mean", [0.3, 0.6], ids=["p=0.3", "p=0.6"])
def test_coverage__binary_items_of_heterogeneous_difficulty(
    n_items: int, p_mean: float, record_property: Callable[[str, object], None]
) -> None:
    def sim(rng: np.random.Generator) -> bool:
        difficulty = beta_mean(rng, np.full(n_items, p_mean), 2.0)
        scores = (rng.random((1, n_items)) < difficulty).astype(float)
        return covers(item_level_runs(scores, ("m",)), p_mean, int(rng.integers(2**31)))

    p, se = rate(sim, 1000, SEED)
    _report(record_property, f"coverage binary p={p_mean} {n_items} items", p, se)
    # 10 items at p=0.6 covered 92.2% (an expected failure) until Wilson's floor: 4.6%
    # of samples score 9/10 or 10/10, and no interval built from the data's own
    # spread reaches 0.6 from there.
    assert p >= 0.93


@pytest.mark.parametrize("n_tasks", [5, 12, 40])
def test_false_alarms__paired_gate_on_correlated_task_scores(
    n_tasks: int, record_property: Callable[[str, object], None]
) -> None:
    def sim(rng: np.random.Generator) -> bool:
        difficulty = rng.beta(3.0, 2.0, size=n_tasks)
        scores = beta_mean(rng, np.tile(difficulty, (2, 1)), 20.0)  # same true mean
        runs = task_level_runs(scores, ("base", "cand"))
        return false_alarm(runs, int(rng.integers(2**31)))

    p, se = rate(sim, 3000, SEED)
    _report(record_property, f"false alarms {n_tasks} tasks", p, se)
    assert p <= 0.035


@pytest.mark.parametrize("n_items", [10, 30, 100])
def test_false_alarms__paired_gate_on_binary_items(
    n_items: int, record_property: Callable[[str, object], None]
) -> None:
    def sim(rng: np.random.Generator) -> bool:
        difficulty = beta_mean(rng, np.full(n_items, 0.6), 2.0)
        scores = (rng.random((2, n_items)) < difficulty).astype(float)
        return false_alarm(
            item_level_runs(scores, ("base", "cand")), int(rng.integers(2**31))
        )

    p, se = rate(sim, 2000, SEED)
    _report(record_property, f"false alarms binary {n_items} items", p, se)
    assert p <= 0.035


def _clustered(rng: np.random.Generator, n_clusters: int) -> tuple[np.ndarray, np.ndarray]:
    """Binary items, 10 per cluster; each model has its own cluster effects."""
    cluster = np.repeat(np.arange(n_clusters), 10)
    shared = rng.normal(0.0, 1.0, n_clusters)[cluster]
    per_model = rng.normal(0.0, 2.0, (2, n_clusters))[:, cluster]
    item = rng.normal(0.0, 0.5, cluster.size)
    p = 1.0 / (1.0 + np.exp(-(0.3 + shared + per_model + item)))
    return (rng.random(p.shape) < p).astype(float), cluster


@pytest.mark.parametrize("n_clusters", [10, 20])
def test_false_alarms__clustered_items(
    n_clusters: int, record_property: Callable[[str, object], None]
) -> None:
    def sim(rng: np.random.Generator, *, use_clusters: bool) -> bool:
        scores, cluster = _clustered(rng, n_clusters)
        runs = item_level_runs(scores, ("base", "cand"), cluster if use_clusters else None)
        return false_alarm(runs, int(rng.integers(2**31)))

    p, se = rate(lambda rng: sim(rng, use_clusters=True), 1500, SEED)
    naive, naive_se = rate(lambda rng: sim(rng, use_clusters=False), 1000, SEED)
    _report(record_property, f"false alarms {n_clusters} clusters", p, se)
    _report(
        record_property, f"false alarms {n_clusters} clusters, ignored", naive, naive_se
    )
    assert p <= 0.04
    assert naive >= 0.12  # resampling items as if independent: far above nominal 2.5%


UNEQUAL_SIZES = (40, 12, 8, 5, 3, 3, 2, 2, 1, 1)  # one big source, a tail of small ones


@pytest.mark.parametrize("n_clusters", [10, 20])
def test_false_alarms__clusters_of_very_unequal_size(
    n_clusters: int, record_property: Callable[[str, object], None]
) -> None:
    """Real suites look like this (MMLU-Pro: one large source per category and a tail
    of small ones). Cluster-robust standard errors are known to run small here (one
    cluster holds half the items); the resampled ratio the engine uses keeps the gate
    honest. Measured when this test was written: a linearised ratio (CR1-like) gave
    9.4% and 8.1% false alarms, the resampled ratio 2.4% and 3.9%."""
    sizes = np.array(UNEQUAL_SIZES * (n_clusters // len(UNEQUAL_SIZES)))
    cluster = np.repeat(np.arange(sizes.size), sizes)

    def sim(rng: np.random.Generator) -> bool:
        shared = rng.normal(0.0, 1.0, sizes.size)[cluster]
        per_model = rng.normal(0.0, 1.0, (2, sizes.size))[:, cluster]
        p = 1.0 / (1.0 + np.exp(-(0.3 + shared + per_model)))
        scores = (rng.random(p.shape) < p).astype(float)
        runs = item_level_runs(scores, ("base", "cand"), cluster)
        return false_alarm(runs, int(rng.integers(2**31)))

    # Several seeds, pooled, so that a pass means the property holds (the single seed
    # passed by 2 simulations of 1,500 and failed at 3 of 17 other seeds at 3.7%).
    rates = [rate(sim, 1000, seed)[0] for seed in (SEED, 1, 2)]
    p = float(np.mean(rates))
    se = float(np.sqrt(p * (1 - p) / 3000))
    _report(record_property, f"false alarms {n_clusters} unequal clusters", p, se)
    assert p <= 0.035  # SE about 0.3 points at 2.5%


def _plain_percentile(values: np.ndarray, rng: np.random.Generator) -> tuple[float, float]:
    """The seed lesson's method: resample tasks, take the 2.5% and 97.5% percentiles."""
    idx = rng.integers(0, values.size, size=(999, values.size))
    lo, hi = np.percentile(values[idx].mean(axis=1), [2.5, 97.5])
    return float(lo), float(hi)


@pytest.mark.parametrize("n_tasks", [5, 12])
def test_lesson_baseline__plain_percentile_bootstrap_on_the_same_simulations(
    n_tasks: int, record_property: Callable[[str, object], None]
) -> None:
    """Re-measures what the engine improves on, with the same data generators as the
    coverage (beta(6,3)) and false-alarm tests above: the plain percentile bootstrap
    over tasks undercovers and cries wolf at small suites."""
    truth = 6.0 / 9.0

    def coverage(rng: np.random.Generator) -> bool:
        lo, hi = _plain_percentile(rng.beta(6.0, 3.0, size=n_tasks), rng)
        return lo <= truth <= hi

    def alarm(rng: np.random.Generator) -> bool:
        difficulty = rng.beta(3.0, 2.0, size=n_tasks)
        scores = beta_mean(rng, np.tile(difficulty, (2, 1)), 20.0)
        _lo, hi = _plain_percentile(scores[1] - scores[0], rng)
        return hi < 0.0

    cov, cov_se = rate(coverage, 3000, SEED)
    fa, fa_se = rate(alarm, 3000, SEED)
    _report(record_property, f"lesson coverage {n_tasks} tasks", cov, cov_se)
    _report(record_property, f"lesson false alarms {n_tasks} tasks", fa, fa_se)
    assert cov < 0.93  # below the target the engine meets on the same data
    if n_tasks == 5:
        assert fa > 0.035
