"""The regression gate: candidate minus baseline, with a family-wise error rate.

Each comparison is a paired difference on the units both models share, read off the
same replicates as the rest of the report. With ``m`` comparisons (candidates, times
the overall mean plus each category when asked) every interval is taken at level
``1 - (1 - confidence) / m`` (Bonferroni), so the chance of any false regression stays
below ``(1 - confidence) / 2`` for the family. A comparison regresses exactly when its
interval lies below ``-margin``.

Each comparison also states the smallest true drop the suite detects with 80% power
(Miller 2024, "Adding Error Bars to Evals", arXiv:2411.00640, eq. 10), with Student's
t in place of the normal at the comparison's degrees of freedom::

    mdr = margin + (t_{1 - alpha_m/2, df} + t_{0.80, df}) * SE_diff

where ``SE_diff`` is the (rescaled) bootstrap standard deviation of the difference.

A comparison without degrees of freedom (one shared task of task-level data, or one
unit in every shared stratum, e.g. a category holding a single task) carries no
estimate of its variance: its interval is the whole range [-1, 1], it never regresses,
and its detectable regression is ``margin + 1``, beyond any drop of scores in [0, 1].
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from leaderboard.report import Gate, GateComparison
from leaderboard.stats.bootstrap import Replicates, percentile_intervals, replicate_sd
from leaderboard.stats.design import Design, FloatArray
from leaderboard.stats.estimates import EstimatePlan
from leaderboard.stats.quantiles import t_ppf

POWER = 0.80


@dataclass(frozen=True)
class PlannedComparison:
    candidate: int
    baseline: int
    category: str | None
    k_candidate: int
    k_baseline: int


def plan_gate(
    plan: EstimatePlan,
    d: Design,
    baseline: str | None,
    candidates: list[str],
    categories: bool,
    *,
    pairs: list[tuple[str, str]] | None = None,
) -> list[PlannedComparison]:
    """Register the estimates every gated comparison needs.

    ``pairs`` (candidate, baseline) replaces ``baseline`` and ``candidates`` when each
    candidate has its own baseline (a model gated against its baseline-run self).
    """
    if pairs is None:
        if baseline is None:
            return []
        pairs = [(name, baseline) for name in candidates]
    item_cat = np.array(d.task_category, dtype=object)[d.item_task]
    out = []
    for name, base_name in pairs:
        c, base = d.models.index(name), d.models.index(base_name)
        scopes: list[str | None] = [None]
        if categories and len(d.categories) > 1:
            shared = d.present[:, c] & d.present[:, base]
            scopes += [cat for cat in d.categories if (shared & (item_cat == cat)).any()]
        for cat in scopes:
            kc = plan.add(c, partner=base, category=cat)
            kb = plan.add(base, partner=c, category=cat)
            out.append(PlannedComparison(c, base, cat, kc, kb))
    return out


def read_gate(
    planned: list[PlannedComparison],
    *,
    plan: EstimatePlan,
    d: Design,
    baseline: str | None,
    est: FloatArray,
    reps: FloatArray,
    rep: Replicates,
    confidence: float,
    margin: float,
) -> Gate:
    """The gate's verdicts from the shared replicates."""
    m = len(planned)
    if m == 0:
        return Gate(
            baseline=baseline,
            regressed=False,
            adjustment="none",
            family_size=0,
            status="off" if baseline is None else "no_regression",
        )
    alpha = (1.0 - confidence) / m
    kc = np.array([p.k_candidate for p in planned])
    kb = np.array([p.k_baseline for p in planned])
    diff = est[kc] - est[kb]
    diff_reps = reps[:, kc] - reps[:, kb]
    diff_df = rep.diff_df(kc, kb)
    se = replicate_sd(diff_reps)
    lo, hi = percentile_intervals(
        diff,
        diff_reps,
        diff_df,
        alpha,
        bounds=(-1.0, 1.0),
        overwrite=True,
        undetermined="bounds",
    )
    item_cat = np.array(d.task_category, dtype=object)[d.item_task]
    comparisons = []
    for j, p in enumerate(planned):
        mdr = margin + 1.0  # no degrees of freedom: no drop is detectable
        if diff_df[j] >= 1:
            dfj = float(diff_df[j])
            t_sum = t_ppf(1.0 - alpha / 2.0, dfj) + t_ppf(POWER, dfj)
            mdr = margin + t_sum * float(se[j])
        shared = d.present[:, p.candidate] & d.present[:, p.baseline]
        if p.category is not None:
            shared &= item_cat == p.category
        comparisons.append(
            GateComparison(
                candidate=d.models[p.candidate],
                baseline=d.models[p.baseline],
                scope="overall" if p.category is None else f"category:{p.category}",
                diff_mean=float(diff[j]),
                ci_lo=float(lo[j]),
                ci_hi=float(hi[j]),
                confidence=1.0 - alpha,
                margin=margin,
                regressed=bool(hi[j] < -margin),
                min_detectable_regression=mdr,
                shared_tasks=len(np.unique(d.item_task[shared])),
                shared_units=plan.units(p.k_candidate),
            )
        )
    regressed = any(c.regressed for c in comparisons)
    return Gate(
        baseline=baseline,
        regressed=regressed,
        status="regressed" if regressed else "no_regression",
        adjustment="bonferroni" if m > 1 else "none",
        family_size=m,
        comparisons=comparisons,
    )
