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
