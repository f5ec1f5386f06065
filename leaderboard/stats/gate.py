"""The regression gate: candidate minus baseline, with a family-wise error rate.

Each comparison is a paired difference on the units both models share, read off the
same replicates as the rest of the report. With ``m`` comparisons (candidates, times
the overall mean plus each category when asked) every interval is taken at one level
``1 - alpha_each`` from a max-T over the shared replicates (`leaderboard.stats.family`;
never below Bonferroni's ``1 - (1 - confidence) / m``), so the chance of any false
regression stays below ``(1 - confidence) / 2`` for the family. A comparison regresses
exactly when its interval lies below ``-margin``.

A comparison without degrees of freedom (one shared task of task-level data, a task
with a single unit and none to pool with, a category holding a single task) carries no
estimate of its variance: it is *undetermined*, its interval the whole range [-1, 1];
it neither regresses nor passes, and its note says what would make it determinable.

An overall comparison also carries its ``breakdown`` (`leaderboard.stats.where`): the
paired difference within each category (when there are several) and, for item-level
data, within each task: each unadjusted at the report's confidence and adjusted for
all the rows of its comparison (the interval that decides `moved`, and the one the
comment shows); with pass/fail items, the items that flipped, tested at the
comparison's own level.

Each other comparison states the smallest true drop the suite detects with 80% power
(after Miller 2024, "Adding Error Bars to Evals", arXiv:2411.00640, eq. 10), with
Student's t at the comparison's degrees of freedom, solved under the alternative::

    X = margin + (t_{1 - alpha_m/2, df} + t_{0.80, df}) * SE(X)

``SE(X)`` is the standard error the difference would have if the candidate had lost
a random share ``pi = X / c`` of its score (``c`` its mean on the shared units): the
observed (bootstrap) variance plus what the drop itself adds (`added_variance`). Under
no drop the spread can be tiny (a candidate that agrees with the baseline on 95% of
items), and a figure computed from it is not detected 80% of the time but 52-59%.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from leaderboard.report import Gate, GateComparison
from leaderboard.stats.bootstrap import Replicates, replicate_sd
from leaderboard.stats.bounded import (
    BOUNDED_NOTE,
    NO_DETECTABLE_BOUNDED,
    Bounded,
    take_bounded,
    widened_need,
)
from leaderboard.stats.design import BoolArray, Design, FloatArray
from leaderboard.stats.epochs import epoch_advice
from leaderboard.stats.estimates import EstimatePlan
from leaderboard.stats.family import MAX_T, family_intervals
from leaderboard.stats.noise import in_context
from leaderboard.stats.paired import paired_binary_floor
from leaderboard.stats.quantiles import distinct, t_ppf
from leaderboard.stats.ruled_out import needed, not_ruled_out_note
from leaderboard.stats.skew import skew_caveat
from leaderboard.stats.where import (
    Planned,
    breakdowns,
    epoch_counts,
    item_flips,
    plan_breakdown,
    worst_items,
)

POWER = 0.80
ITEM_RECORDS = (
    "item-level records (lm-eval's per-sample logs, Inspect logs, or an item_id on "
    "each record)"
)


@dataclass(frozen=True)
class PlannedComparison:
    candidate: int
    baseline: int
    category: str | None
    k_candidate: int
    k_baseline: int
    breakdown: Planned = ()  # where it moved: (scope, k_cand, k_base)
    anchor_margin: float | None = None  # set: a comparison with the anchor run


def plan_anchor(
    plan: EstimatePlan, d: Design, pairs: list[tuple[str, str]], margin: float
) -> list[PlannedComparison]:
    """Register each model's comparison with its anchor row (`leaderboard.stats.anchor`)."""
    out = []
    for name, anchor_name in pairs:
        c, a = d.models.index(name), d.models.index(anchor_name)
        kc = plan.add(c, partner=a)
        ka = plan.add(a, partner=c)
        out.append(PlannedComparison(c, a, None, kc, ka, (), anchor_margin=margin))
    return out


def plan_gate(
    plan: EstimatePlan,
    d: Design,
    pairs: list[tuple[str, str]],
    categories: bool,
) -> list[PlannedComparison]:
    """Register the estimates every gated comparison needs.

    `pairs` holds ``(candidate, baseline)`` model ids: one baseline for every candidate
    within one run, or each model's own row of a baseline run.
    """
    item_cat = d.item_category
    out = []
    for name, base_name in pairs:
        c = d.models.index(name)
        base = d.models.index(base_name)
        scopes: list[str | None] = [None]
        if categories and len(d.categories) > 1:
            shared = d.present[:, c] & d.present[:, base]
            scopes += [cat for cat in d.categories if (shared & (item_cat == cat)).any()]
        where = plan_breakdown(plan, d, c, base)
        for cat in scopes:
            kc = plan.add(c, partner=base, category=cat)
            kb = plan.add(base, partner=c, category=cat)
            out.append(
                PlannedComparison(c, base, cat, kc, kb, where if cat is None else ())
            )
    return out


def added_variance(
    plan: EstimatePlan, d: Design, p: PlannedComparison, shared: BoolArray
) -> tuple[float, float]:
    """``(a1, a2)`` with ``Var_drop - Var = a1 pi + a2 pi^2`` for a drop of share ``pi``.

    The drop takes each of the candidate's item scores to 0 with probability ``pi``:
    in stratum ``h`` the paired residuals ``e_u`` move by ``-pi g_u`` (``g_u`` the
    candidate's own residuals) and each unit gains the thinning's variance
    ``pi (1 - pi) C_u`` (``C_u`` the sum of its squared item scores; 0 for task-level
    records, whose items are not seen). Summed with the bootstrap's scaling
    ``w_h^2 n_h / ((n_h - 1) D_h^2)``.
    """
    num_c, den, w = plan.arrays(p.k_candidate)
    num_b, _, _ = plan.arrays(p.k_baseline)
    a1 = a2 = 0.0
    c_sum: FloatArray = np.zeros(len(d.tasks))
    if d.item_level:
        sq = np.where(shared, d.scores[:, p.candidate] ** 2, 0.0)
        c_sum = np.bincount(d.item_task, weights=sq, minlength=len(d.tasks)).astype(float)
    for h in np.flatnonzero(w > 0):
        s, e = int(d.starts[h]), int(d.starts[h + 1])
        dc, db, dn = num_c[s:e], num_b[s:e], den[s:e]
        tot = dn.sum()
        n = int((dn > 0).sum())
        if tot <= 0 or n == 0:
            continue
        e_u = (dc - db) - (dc - db).sum() / tot * dn
        g_u = dc - dc.sum() / tot * dn
        coef = w[h] ** 2 * (n / (n - 1.0) if n > 1 else 1.0) / tot**2
        a1 += coef * (c_sum[h] - 2.0 * float(e_u @ g_u))
        a2 += coef * (float(g_u @ g_u) - c_sum[h])
    return a1, a2


def detectable_drop(
    *, se: float, t_sum: float, margin: float, mean: float, a1: float, a2: float
) -> float | None:
    """Smallest ``X`` in ``(margin, mean]`` with ``X = margin + t_sum * SE(X)``, or None.

    ``SE(X)^2 = se^2 + a1 pi + a2 pi^2`` with ``pi = X / mean``. None when no drop within
    the score range is detected with the power asked (no root below ``mean``, the most
    the candidate can lose) or when the spread a drop would add cannot be told (no
    observed spread and no item scores).
    """

    def f(x: float) -> float:
        pi = x / mean
        return (
            x - margin - t_sum * float(np.sqrt(max(se * se + a1 * pi + a2 * pi * pi, 0.0)))
        )

    if mean <= margin or f(mean) < 0:
        return None
    lo, hi = margin, mean
    for _ in range(60):
        mid = (lo + hi) / 2.0
        lo, hi = (mid, hi) if f(mid) < 0 else (lo, mid)
    if hi <= margin + 1e-9 * max(1.0, mean):
        return None  # a drop of any size is as visible as no drop: nothing to solve
    return hi


def _undetermined_note(d: Design, shared: BoolArray, scope: str) -> str:
    where = "" if scope == "overall" else f" in {scope}"
    if not d.item_level:
        n_tasks = int(shared.sum())
        return (
            f"{n_tasks} shared task{'s' * (n_tasks != 1)}{where} of task-level records: "
            "no spread can be estimated within a task, so this difference can neither "
            f"pass nor fail; {ITEM_RECORDS} would make it determinable"
        )
    units = {
        h: len(distinct(d.item_unit[shared & (d.item_task == h)]))
        for h in distinct(d.item_task[shared])
    }
    lone = [d.tasks[h] for h, n in units.items() if n == 1]
    names = ", ".join(lone[:5]) + (", ..." if len(lone) > 5 else "")
    kind = d.unit_kind
    if not units:
        return (
            f"the two sides share no {kind}s{where}, so this difference has nothing "
            "to be estimated on and can neither pass nor fail; results for the same "
            f"{kind}s (the same {kind} ids) on both sides would make it determinable"
        )
    if not lone:
        return (
            f"no spread can be estimated from the {kind}s both sides share{where}, so "
            "this difference can neither pass nor fail"
        )
    return (
        f"task{'s' * (len(lone) != 1)} {names}{where} hold{'s' * (len(lone) == 1)} a "
        f"single shared {kind} and no other single-{kind} task to pool with, so "
        "its spread cannot be estimated and this difference can neither pass nor "
        f"fail; more {kind}s in {'those tasks' if len(lone) != 1 else 'that task'} "
        "(or leaving them out) would make it determinable"
    )


def _small_sample_interval(
    lo: FloatArray,
    hi: FloatArray,
    j: int,
    d: Design,
    *,
    pair: tuple[int, int],
    shared: BoolArray,
    estimate: float,
    se: float,
    alpha: float,
    df: float,
    seed: int,
) -> Bounded | None:
    """Where the replicates' spread cannot be trusted, ``[lo[j], hi[j]]`` in place:
    few or skewed task-level differences take the betting interval
    (`leaderboard.stats.bounded`), pass/fail items on both sides Tango's floor
    (`leaderboard.stats.paired`)."""
    bounded = take_bounded(
        lo, hi, j, d, pair=pair, shared=shared, alpha=alpha, df=df, seed=seed
    )
    if bounded is None:
        paired_binary_floor(
            lo,
            hi,
            j,
            d,
            pair=pair,
            shared=shared,
            estimate=estimate,
            se=se,
            alpha=alpha,
            df=df,
        )
    return bounded


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
    max_drop: float = 0.05,
) -> Gate:
    """The gate's verdicts from the shared replicates: the score block.

    Three states (`leaderboard.stats.ruled_out`): regressed when the interval lies
    below ``-margin``, no regression only when its lower end is at or above
    ``-max_drop`` (never below the comparison's margin), else undetermined, its note
    saying what is not ruled out and about how many units would rule it out.

    The ``m`` score comparisons (anchor comparisons included) hold ``confidence`` for
    their family by max-T, whatever else is gated: guardrails take a second budget
    of their own (`leaderboard.stats.guardrails.with_guardrails`), so they never
    change a score interval. ``Gate.bound`` is this block's ``(1 - confidence) / 2``.
    """
    m = len(planned)
    if m == 0:
        return Gate(
            baseline=baseline,
            regressed=False,
            status="off" if baseline is None else "no_regression",
            adjustment="none",
            family_size=0,
            bound=0.0,
        )
    kc = np.array([p.k_candidate for p in planned])
    kb = np.array([p.k_baseline for p in planned])
    diff = est[kc] - est[kb]
    diff_reps = reps[:, kc] - reps[:, kb]
    diff_df = rep.diff_df(kc, kb)
    se = replicate_sd(diff_reps)
    # the score block holds the whole of 1 - confidence by max-T (CONTRACT 12)
    lo, hi, level = family_intervals(
        diff, diff_reps, diff_df, 1.0 - confidence, seed=rep.seed
    )
    alpha = level.alpha_each
    lo, hi = few_task_widening(diff, lo, hi, diff_df, d.item_level)
    item_cat = d.item_category
    where = breakdowns(
        [p.breakdown for p in planned],
        plan=plan,
        est=est,
        reps=reps,
        rep=rep,
        confidence=confidence,
    )
    comparisons = []
    for j, p in enumerate(planned):
        shared = d.present[:, p.candidate] & d.present[:, p.baseline]
        if p.category is not None:
            shared &= item_cat == p.category
        scope = "overall" if p.category is None else f"category:{p.category}"
        mj = margin if p.anchor_margin is None else p.anchor_margin
        if p.anchor_margin is not None:
            scope = "anchor"
        bounded = _small_sample_interval(
            lo,
            hi,
            j,
            d,
            pair=(p.candidate, p.baseline),
            shared=shared,
            estimate=float(diff[j]),
            se=float(se[j]),
            alpha=alpha,
            df=float(diff_df[j]),
            seed=rep.seed,
        )
        regressed = bool(hi[j] < -mj)
        md = max(max_drop, mj)
        mdr: float | None = None
        note: str | None = None
        status: Literal["regressed", "no_regression", "undetermined"]
        if diff_df[j] < 1:
            status = "undetermined"
            note = _undetermined_note(d, shared, scope)
        else:
            status = (
                "regressed"
                if regressed
                else "no_regression"
                if lo[j] >= -md
                else "undetermined"
            )
            dfj = float(diff_df[j])
            a1, a2 = added_variance(plan, d, p, shared)
            mdr = detectable_drop(
                se=float(se[j]),
                t_sum=t_ppf(1.0 - alpha / 2.0, dfj) + t_ppf(POWER, dfj),
                margin=mj  # plus how much farther up the betting interval reaches
                + (
                    0.0
                    if bounded is None
                    else bounded.reach(float(se[j]) * t_ppf(1.0 - alpha / 2.0, dfj))
                ),
                mean=float(est[kc[j]]),
                a1=a1,
                a2=a2,
            )
            if mdr is None:
                note = (
                    NO_DETECTABLE_BOUNDED
                    if bounded is not None
                    else "no detectable drop: no drop within the score range would be "
                    "detected with 80% power, or (identical task-level scores) the "
                    f"spread a drop would add cannot be estimated; {ITEM_RECORDS} or "
                    "more of them would tell"
                )
        in_scope: BoolArray = (
            np.ones(d.present.shape[0], dtype=bool)
            if p.category is None
            else np.asarray(item_cat == p.category, dtype=bool)
        )
        epochs = epoch_advice(
            d, p.candidate, p.baseline, shared, se=float(se[j]), mdr=mdr, margin=mj
        )
        units = plan.units(p.k_candidate)
        need = None
        if status == "undetermined" and diff_df[j] >= 1:
            need = widened_need(
                bounded,
                needed(
                    estimate=float(diff[j]),
                    ci_lo=float(lo[j]) if bounded is None else bounded.t_lo,
                    df=float(diff_df[j]),
                    alpha=alpha,
                    units=units,
                    max_drop=md,
                    epochs=epochs,
                ),
                alpha=alpha,
                max_drop=md,
            )
            note = not_ruled_out_note(
                ci_lo=float(lo[j]),
                max_drop=md,
                need=need,
                units=units,
                unit_kind=d.unit_kind,
            ) + ("" if bounded is None else BOUNDED_NOTE)
        comparisons.append(
            GateComparison(
                candidate=d.models[p.candidate],
                baseline=d.models[p.baseline],
                scope=scope,
                diff_mean=float(diff[j]),
                ci_lo=float(lo[j]),
                ci_hi=float(hi[j]),
                confidence=1.0 - alpha,
                margin=mj,
                regressed=regressed,
                min_detectable_regression=mdr,
                shared_tasks=len(distinct(d.item_task[shared])),
                shared_units=units,
                status=status,
                note=note,
                interval=diff_df[j] >= 1,
                max_drop=md,
                units_needed=None if need is None else need.units,
                epochs_needed=None if need is None else need.epochs,
                flips=in_context(  # tested at this comparison's own level
                    item_flips(d, p.candidate, p.baseline, in_scope),
                    1.0 - alpha,
                    epoch_counts(d, p.candidate, p.baseline, in_scope),
                ),
                worst_items=worst_items(d, p.candidate, p.baseline, in_scope)
                if scope == "overall"
                else [],
                breakdown=where[j],
                skew_caveat=None
                if d.item_level or diff_df[j] < 1 or bounded is not None
                else skew_caveat(
                    d.scores[shared, p.candidate] - d.scores[shared, p.baseline]
                ),
                epochs=epochs,
            )
        )
    any_regressed = any(c.regressed for c in comparisons)
    undetermined = [c for c in comparisons if c.status == "undetermined"]
    gate_status: Literal["regressed", "no_regression", "undetermined"] = (
        "regressed"
        if any_regressed
        else "undetermined"
        if undetermined
        else "no_regression"
    )
    return Gate(
        baseline=baseline,
        regressed=any_regressed,
        status=gate_status,
        note=(
            f"{len(undetermined)} of {m} comparison{'s' * (m != 1)} undetermined: "
            f"{undetermined[0].note}"
            if undetermined
            else None
        ),
        adjustment=MAX_T if m > 1 else "none",
        family_size=m,
        bound=(1.0 - confidence) / 2.0,
        comparisons=comparisons,
    )


TWO_TASK_WIDENING = float(np.pi / 2.0)


def few_task_widening(
    diff: FloatArray,
    lo: FloatArray,
    hi: FloatArray,
    df: FloatArray,
    item_level: bool,
) -> tuple[FloatArray, FloatArray]:
    """Widen task-level differences on two tasks (``1 <= df < 2``) by ``pi / 2``.

    At one degree of freedom the t-interval's level depends on the shape of the two
    task differences, not only on their spread: the one-sided false-alarm rate of
    ``mean / SE < -t_{1-a/2, 1}`` is, for a large critical value, proportional to
    ``int |y| f(y)^2 dy`` (scale-free), which is ``1 / (2 pi)`` for normal and
    ``1 / 4`` for uniform differences, ``pi / 2`` times as much (measured: 3.9%
    against 2.5% nominal). Stretching the interval's distances from the estimate by
    ``pi / 2`` holds the level for differences as flat as uniform ones (normal ones
    then give about 1.6%). Item-level data and df >= 2 are left alone.
    """
    if item_level:
        return lo, hi
    few = (np.asarray(df) >= 1) & (np.asarray(df) < 2)
    if not few.any():
        return lo, hi
    k = TWO_TASK_WIDENING
    lo2 = np.where(few, np.maximum(diff - k * (diff - lo), -1.0), lo)
    hi2 = np.where(few, np.minimum(diff + k * (hi - diff), 1.0), hi)
    return lo2, hi2
