"""Seeded data generators and rate estimators for the calibration tests."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from leaderboard import EvalRun, build_report

B = 999  # replicates per simulated report: enough for 95% intervals, fast


def task_level_runs(scores: np.ndarray, models: tuple[str, ...]) -> list[EvalRun]:
    """Records from a (models x tasks) score matrix."""
    return [
        EvalRun(m, f"t{t:03d}", float(scores[j, t]))
        for j, m in enumerate(models)
        for t in range(scores.shape[1])
    ]


def item_level_runs(
    scores: np.ndarray, models: tuple[str, ...], clusters: np.ndarray | None = None
) -> list[EvalRun]:
    """Records of one task from a (models x items) score matrix."""
    return [
        EvalRun(
            m,
            "task",
            float(scores[j, i]),
            item_id=i,
            cluster=None if clusters is None else int(clusters[i]),
        )
        for j, m in enumerate(models)
        for i in range(scores.shape[1])
    ]


def beta_mean(rng: np.random.Generator, mean: np.ndarray, kappa: float) -> np.ndarray:
    """Beta draws with the given means and concentration ``kappa``."""
    return rng.beta(mean * kappa, (1 - mean) * kappa)


def rate(
    simulate: Callable[[np.random.Generator], bool], sims: int, seed: int
) -> tuple[float, float]:
    """Share of ``sims`` seeded simulations returning True, and its standard error."""
    hits = sum(simulate(np.random.default_rng([seed, s])) for s in range(sims))
    p = hits / sims
    return p, float(np.sqrt(p * (1 - p) / sims))


def covers(runs: list[EvalRun], truth: float, seed: int) -> bool:
    row = build_report(runs, resamples=B, seed=seed).leaderboard[0]
    return row.mean_ci_lo <= truth <= row.mean_ci_hi


def false_alarm(runs: list[EvalRun], seed: int) -> bool:
    report = build_report(runs, baseline="base", resamples=B, seed=seed)
    return report.gate.regressed


# --- the edges (issue 11): generators shared by test_stats_edges.py ------------------


def logistic(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def lone_cluster_runs(
    rng: np.random.Generator, n_lone: int, n_plain: int, *, lone_items: int = 50
) -> list[EvalRun]:
    """Two models of equal true mean: ``n_plain`` tasks of 100 independent binary items,
    and ``n_lone`` tasks whose items all share one cluster (each model has its own
    effect on a cluster, so a lone cluster's difference is far from exactly known)."""
    runs: list[EvalRun] = []
    for t in range(n_plain):
        difficulty = beta_mean(rng, np.full(100, 0.6), 2.0)
        scores = (rng.random((2, 100)) < difficulty).astype(float)
        runs += [
            EvalRun(m, f"plain{t}", float(scores[j, i]), item_id=i)
            for j, m in enumerate(("base", "cand"))
            for i in range(100)
        ]
    for t in range(n_lone):
        item = rng.normal(0.0, 1.0, lone_items)
        effect = rng.normal(0.0, 1.0, (2, 1))
        p = logistic(0.3 + item + effect)
        scores = (rng.random(p.shape) < p).astype(float)
        runs += [
            EvalRun(m, f"lone{t}", float(scores[j, i]), item_id=i, cluster="c")
            for j, m in enumerate(("base", "cand"))
            for i in range(lone_items)
        ]
    return runs


def correlated_task_scores(rng: np.random.Generator, n_tasks: int) -> np.ndarray:
    """Two models sharing task difficulty, equal true mean (test_calibration's data)."""
    difficulty = rng.beta(3.0, 2.0, size=n_tasks)
    return beta_mean(rng, np.tile(difficulty, (2, 1)), 20.0)


def binary_pair(
    rng: np.random.Generator,
    n_items: int,
    *,
    agree: float | None,
    drop: float = 0.0,
    mean: float = 0.6,
) -> np.ndarray:
    """(2, n_items) binary scores of a baseline (row 0) and a candidate (row 1).

    ``agree``: share of items on which the candidate keeps the baseline's answer (it
    redraws the rest from the item's difficulty), None for independent draws. Both have
    true mean ``mean``; then the candidate loses a random share ``drop / mean`` of its
    correct answers, a true drop of ``drop``.
    """
    difficulty = beta_mean(rng, np.full(n_items, mean), 2.0)
    base = (rng.random(n_items) < difficulty).astype(float)
    fresh = (rng.random(n_items) < difficulty).astype(float)
    cand = fresh if agree is None else np.where(rng.random(n_items) < agree, base, fresh)
    cand = cand * (rng.random(n_items) >= drop / mean)
    return np.vstack([base, cand])


def two_task_items(scores: np.ndarray) -> list[EvalRun]:
    """Item-level records of two equal tasks from a (2, n_items) score matrix."""
    half = scores.shape[1] // 2
    return [
        EvalRun(m, f"t{i // half}", float(scores[j, i]), item_id=i % half)
        for j, m in enumerate(("base", "cand"))
        for i in range(scores.shape[1])
    ]
