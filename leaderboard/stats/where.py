"""Where a gated comparison moved: per-category and per-task differences, item flips.

The gate tests one difference per comparison (`leaderboard.stats.gate`); a reviewer
then asks where it came from. An overall comparison's ``breakdown`` is the paired
difference within each category (when there are several) and, for item-level data,
within each task, read off the same replicates at the report's own confidence: *per
pair, unadjusted*, for locating a change, not for testing it (with 14 tasks, about one
interval in 20 misses by chance). With pass/fail items (0 or 1 after averaging
samples), `item_flips` counts the items that went pass -> fail and fail -> pass.
"""

from __future__ import annotations

import numpy as np

from leaderboard.report import Flips, ScopeDiff
from leaderboard.stats.bootstrap import Replicates, intervals_at
from leaderboard.stats.design import BoolArray, Design, FloatArray
from leaderboard.stats.estimates import EstimatePlan
from leaderboard.stats.family import group_levels

__all__ = ["Planned", "breakdowns", "item_flips", "plan_breakdown"]

Planned = tuple[tuple[str, int, int], ...]  # (scope, candidate estimate, baseline's)


def plan_breakdown(plan: EstimatePlan, d: Design, candidate: int, baseline: int) -> Planned:
    """Register the per-category and (item-level) per-task paired estimates."""
    item_cat = d.item_category
    shared = d.present[:, candidate] & d.present[:, baseline]
    out: list[tuple[str, int, int]] = []
    if len(d.categories) > 1:
        out += [
            (
                f"category:{cat}",
                plan.add(candidate, partner=baseline, category=cat),
                plan.add(baseline, partner=candidate, category=cat),
            )
            for cat in d.categories
            if (shared & (item_cat == cat)).any()
        ]
    if d.item_level and len(d.tasks) > 1:
        out += [
            (
                f"task:{d.tasks[t]}",
                plan.add(candidate, partner=baseline, task=int(t)),
                plan.add(baseline, partner=candidate, task=int(t)),
            )
            for t in np.unique(d.item_task[shared])
        ]
    return tuple(out)


def item_flips(d: Design, candidate: int, baseline: int, mask: BoolArray) -> Flips | None:
    """Items that went pass -> fail and fail -> pass, for pass/fail item-level data.

    None for task-level data, or when any shared item's score (samples averaged) is
    neither 0 nor 1: a partial score has no pass/fail reading.
    """
    if not d.item_level:
        return None
    shared = d.present[:, candidate] & d.present[:, baseline] & mask
    c, b = d.scores[shared, candidate], d.scores[shared, baseline]
    if not (np.isin(c, (0.0, 1.0)).all() and np.isin(b, (0.0, 1.0)).all()):
        return None
    return Flips(
        pass_to_fail=int(((b == 1.0) & (c == 0.0)).sum()),
        fail_to_pass=int(((b == 0.0) & (c == 1.0)).sum()),
        shared_items=int(shared.sum()),
    )


def breakdowns(
    planned: list[Planned],
    *,
    plan: EstimatePlan,
    est: FloatArray,
    reps: FloatArray,
    rep: Replicates,
    confidence: float,
) -> list[list[ScopeDiff]]:
    """Each comparison's per-category (and, item-level, per-task) paired
    differences, unadjusted, worst first."""
    flat = [(j, cat, kc, kb) for j, p in enumerate(planned) for cat, kc, kb in p]
    out: list[list[ScopeDiff]] = [[] for _ in planned]
    if not flat:
        return out
    kc = np.array([f[2] for f in flat])
    kb = np.array([f[3] for f in flat])
    diff = est[kc] - est[kb]
    diff_reps = reps[:, kc] - reps[:, kb]
    diff_df = rep.diff_df(kc, kb)
    alpha = 1.0 - confidence
    groups: list[list[int]] = [[] for _ in planned]
    for i, f in enumerate(flat):
        groups[f[0]].append(i)
    # moved: the row's interval at its comparison's family-wise (max-T) level
    each = group_levels(diff, diff_reps, diff_df, alpha, groups, seed=rep.seed)
    lo, hi = np.empty_like(diff), np.empty_like(diff)
    moved = np.zeros(diff.shape, dtype=bool)
    for rows, a_each in zip(groups, each, strict=True):
        if not rows:
            continue
        idx = np.asarray(rows, dtype=np.intp)
        (lo[idx], hi[idx]), (flo, fhi) = intervals_at(
            diff[idx],
            diff_reps[:, idx],
            diff_df[idx],
            [alpha, a_each],
            bounds=(-1.0, 1.0),
            overwrite=True,
        )
        moved[idx] = (flo > 0) | (fhi < 0)
    for i, (j, scope, k, _) in enumerate(flat):
        out[j].append(
            ScopeDiff(
                scope=scope,
                diff_mean=float(diff[i]),
                ci_lo=float(lo[i]),
                ci_hi=float(hi[i]),
                shared_units=plan.units(k),
                moved=bool(moved[i]),
            )
        )
    for diffs in out:
        diffs.sort(key=lambda s: (s.diff_mean, s.scope))
    return out
