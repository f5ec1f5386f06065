"""Where a gated comparison moved: per-category and per-task differences, item flips.

The gate tests one difference per comparison (`leaderboard.stats.gate`); a reviewer
then asks where it came from. An overall comparison's ``breakdown`` is the paired
difference within each category (when there are several) and, for item-level data,
within each task, read off the same replicates: ``ci_lo``/``ci_hi`` at the report's
own confidence, *per row, unadjusted* (with 14 tasks, about one such interval in 20
misses by chance), and ``family_ci_lo``/``family_ci_hi`` adjusted for all the rows of
the comparison, which decide ``moved`` and are what the comment shows. At the family's
level the replicates rarely resolve the percentile ends (999 resamples leave about 2
beyond each end of 14 rows' 99.6% intervals): where fewer than
`leaderboard.stats.bootstrap.TAIL_MIN` are expected beyond each, a row's adjusted
interval is the t-interval (`leaderboard.stats.bootstrap.t_intervals`) rather than
the wider of it and a noisy extreme replicate, never narrower than the row's own
interval (docs/statistics.md, "Where it moved, with power"). With pass/fail
items (0 or 1 after averaging samples), `item_flips` counts the items that went
pass -> fail and fail -> pass (with epochs of pass/fail samples: on each item's mean,
passing at 0.5; `epoch_counts` gives each item's passes and samples for
`leaderboard.stats.noise`), and `worst_items` names the items that dropped most.
"""

from __future__ import annotations

import heapq

import numpy as np

from leaderboard.report import Flips, ItemMove, ScopeDiff
from leaderboard.stats.bootstrap import (
    Replicates,
    family_ends_resolved,
    intervals_at,
    replicate_sd,
    t_intervals,
)
from leaderboard.stats.design import BoolArray, Design, FloatArray
from leaderboard.stats.estimates import EstimatePlan
from leaderboard.stats.family import group_levels
from leaderboard.stats.noise import EpochCounts
from leaderboard.stats.quantiles import distinct

__all__ = [
    "Planned",
    "breakdowns",
    "epoch_counts",
    "item_flips",
    "plan_breakdown",
    "worst_items",
]

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
            for t in distinct(d.item_task[shared])
        ]
    return tuple(out)


PASS_AT = 0.5  # with repeated pass/fail samples: an item passes at >= half of them
WORST_ITEMS = 10  # items listed as dropped most
EPOCH_RULE = (
    f"pass/fail samples averaged per item; an item passes when at least {PASS_AT:g} of "
    "its samples (epochs) pass"
)


def item_flips(d: Design, candidate: int, baseline: int, mask: BoolArray) -> Flips | None:
    """Items that went pass -> fail and fail -> pass, for pass/fail item-level data.

    One sample per item: an item passes at score 1 and fails at 0; None when a shared
    item's score is neither (a partial score has no pass/fail reading). Repeated
    samples (epochs) whose every record is 0 or 1: an item passes when the mean over
    its samples is at least `PASS_AT` (half of its epochs or more), so an item counts
    once however many epochs it ran. None for task-level data.
    """
    if not d.item_level:
        return None
    shared = d.present[:, candidate] & d.present[:, baseline] & mask
    c, b = d.scores[shared, candidate], d.scores[shared, baseline]
    if epoch_counts(d, candidate, baseline, mask) is not None:
        return _epoch_flips(c, b, int(shared.sum()))
    if np.isin(c, (0.0, 1.0)).all() and np.isin(b, (0.0, 1.0)).all():
        return Flips(
            pass_to_fail=int(((b == 1.0) & (c == 0.0)).sum()),
            fail_to_pass=int(((b == 0.0) & (c == 1.0)).sum()),
            shared_items=int(shared.sum()),
        )
    return None


def epoch_counts(
    d: Design, candidate: int, baseline: int, mask: BoolArray
) -> EpochCounts | None:
    """Per shared item in `mask`: baseline passes and samples, candidate passes and
    samples; None unless the records are pass/fail and some shared item has several
    samples in either run (epochs)."""
    counts = d.sample_count
    if not d.item_level or counts is None or not d.binary_records:
        return None
    shared = d.present[:, candidate] & d.present[:, baseline] & mask
    kb, kc = counts[shared, baseline], counts[shared, candidate]
    if kb.size == 0 or max(int(kb.max()), int(kc.max())) < 2:
        return None
    xb = np.rint(d.scores[shared, baseline] * kb).astype(np.intp)
    xc = np.rint(d.scores[shared, candidate] * kc).astype(np.intp)
    return xb, kb.astype(np.intp), xc, kc.astype(np.intp)


def _epoch_flips(c: FloatArray, b: FloatArray, shared: int) -> Flips:
    """Flips of per-item means over pass/fail epochs, read at `PASS_AT`."""
    cp, bp = c >= PASS_AT, b >= PASS_AT
    return Flips(
        pass_to_fail=int((bp & ~cp).sum()),
        fail_to_pass=int((~bp & cp).sum()),
        shared_items=shared,
        rule=EPOCH_RULE,
    )


def worst_items(
    d: Design, candidate: int, baseline: int, mask: BoolArray, limit: int = WORST_ITEMS
) -> list[ItemMove]:
    """The shared items whose score dropped most, largest drop first (ties by id)."""
    if not d.item_level or not d.item_keys:
        return []
    shared = d.present[:, candidate] & d.present[:, baseline] & mask
    rows = np.flatnonzero(shared)
    drop = d.scores[rows, baseline] - d.scores[rows, candidate]
    dropped = drop > 1e-12
    keep = rows[dropped].tolist()
    if not keep:
        return []
    # largest drop first, ties by task and id (then row: a stable order); plain
    # floats and strings in the keys, not numpy scalars looked up item by item
    keys = [
        (neg, str(d.item_keys[i][0]), str(d.item_keys[i][1]), i)
        for neg, i in zip((-drop[dropped]).tolist(), keep, strict=True)
    ]
    order = [k[3] for k in heapq.nsmallest(limit, keys)]
    counts = d.sample_count
    return [
        ItemMove(
            task=str(d.item_keys[i][0]),
            item_id=str(d.item_keys[i][1]),
            baseline_score=float(d.scores[i, baseline]),
            candidate_score=float(d.scores[i, candidate]),
            baseline_samples=1 if counts is None else int(counts[i, baseline]),
            candidate_samples=1 if counts is None else int(counts[i, candidate]),
        )
        for i in order
    ]


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
    differences, unadjusted and adjusted for the comparison's rows, worst first."""
    flat = [(j, cat, kc, kb) for j, p in enumerate(planned) for cat, kc, kb in p]
    out: list[list[ScopeDiff]] = [[] for _ in planned]
    if not flat:
        return out
    kc = np.array([f[2] for f in flat])
    kb = np.array([f[3] for f in flat])
    diff = est[kc] - est[kb]
    diff_df = rep.diff_df(kc, kb)
    alpha = 1.0 - confidence
    groups: list[list[int]] = [[] for _ in planned]
    for i, f in enumerate(flat):
        groups[f[0]].append(i)
    lo, hi = np.empty_like(diff), np.empty_like(diff)
    flo, fhi = np.empty_like(diff), np.empty_like(diff)
    moved = np.zeros(diff.shape, dtype=bool)
    for rows in groups:
        if not rows:
            continue
        idx = np.asarray(rows, dtype=np.intp)
        # one comparison's differences at a time, contiguous per row like `reps`
        diff_reps = (reps.T[kc[idx]] - reps.T[kb[idx]]).T
        se = replicate_sd(diff_reps)
        # moved: the row's interval at its comparison's family-wise (max-T) level
        (a_each,) = group_levels(
            diff[idx],
            diff_reps,
            diff_df[idx],
            alpha,
            [list(range(idx.size))],
            seed=rep.seed,
            independent=rep.independent(np.stack([kc[idx], kb[idx]], axis=1)),
            se=se,
        )
        studentized = a_each < alpha and not family_ends_resolved(
            diff_reps.shape[0], a_each
        )
        levels = [alpha] if studentized else [alpha, a_each]
        got = intervals_at(
            diff[idx],
            diff_reps,
            diff_df[idx],
            levels,
            bounds=(-1.0, 1.0),
            overwrite=True,
            se=se,
        )
        lo[idx], hi[idx] = got[0]
        if studentized:  # ends the replicates cannot resolve: the t-interval
            t_lo, t_hi = t_intervals(
                diff[idx], se, diff_df[idx], a_each, bounds=(-1.0, 1.0)
            )
            # never narrower than the row's own interval (a skewed row keeps its end)
            flo[idx], fhi[idx] = np.minimum(t_lo, lo[idx]), np.maximum(t_hi, hi[idx])
        else:
            flo[idx], fhi[idx] = got[1]
        moved[idx] = (flo[idx] > 0) | (fhi[idx] < 0)
    for i, (j, scope, k, _) in enumerate(flat):
        out[j].append(
            ScopeDiff(
                scope=scope,
                diff_mean=float(diff[i]),
                ci_lo=float(lo[i]),
                ci_hi=float(hi[i]),
                family_ci_lo=float(flo[i]),
                family_ci_hi=float(fhi[i]),
                shared_units=plan.units(k),
                moved=bool(moved[i]),
            )
        )
    for diffs in out:
        diffs.sort(key=lambda s: (s.diff_mean, s.scope))
    return out
