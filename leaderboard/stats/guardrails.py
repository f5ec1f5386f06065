"""Guardrails: cost, latency, tokens and secondary metrics gated beside the score.

A guardrail names a measure and its tolerance (CONTRACT.md section 8):

- ``cost``, ``latency``, ``tokens`` (lower is better): the paired **ratio of means**
  ``R = mean_c / mean_b`` of the candidate's measure to its baseline's, on the units
  both carry it; the tolerance is a relative increase (``+10%``: ``R`` may be at most
  1.10). It regresses when the whole interval of ``R - 1`` lies above the tolerance.
- a secondary metric (higher is better, on [0, 1]): the paired difference of means,
  exactly like the primary score; the tolerance is an absolute drop (``-0.02``). It
  regresses when the whole interval lies below ``-drop``.

Every measure is laid out on the primary score's design (`design.measure_design`):
same items, units, strata and weights, so the engine, run with the same seed, draws
exactly the same resampled units as the gate. For a ratio, the interval is the
t-scaled percentile interval (`bootstrap.percentile_intervals`) of the replicates of
``log R* = log mean*_c - log mean*_b``, mapped back with ``exp``: costs and latencies
are right-skewed and the ratio's distribution is more nearly symmetric on the log
scale (Efron & Tibshirani 1993, ch. 13, on transformations of the percentile
interval). Its coverage, false alarms and power (beside the delta-method test of the
same ratio of means and a paired t-test on log values) are measured by
``bench/guardrails_calibration.py`` (docs/statistics.md).

Guardrails never weaken the score (CONTRACT.md section 12): the score's comparisons
keep the level they have without guardrails (`leaderboard.stats.gate.read_gate`), and
all ``g`` guardrail comparisons (one per guardrail and gated pair) share a second
budget of the same size, ``1 - confidence``, by Bonferroni: each at
``1 - (1 - confidence) / g``. A false regression is one-sided, so each block bounds
its chance of any false regression by ``(1 - confidence) / 2`` and the whole gate by
their sum (``Gate.bound``; measured by ``bench/guardrails_family.py``).

The smallest change a guardrail detects with 80% power (``min_detectable_regression``)
is, for a ratio, ``exp(log(1 + tol) + (t_{1-alpha_m/2, df} + t_{0.80, df}) SE_log) - 1``
with ``SE_log`` the standard deviation of the log-ratio replicates; for a metric,
``drop + (t + t) SE``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Literal

import numpy as np

from leaderboard.errors import UsageError
from leaderboard.inputs import MEASURES, EvalRun
from leaderboard.report import Gate, GateComparison
from leaderboard.stats.bootstrap import percentile_intervals, replicate_sd
from leaderboard.stats.design import BoolArray, Design, FloatArray, measure_design
from leaderboard.stats.estimates import EstimatePlan
from leaderboard.stats.paired import paired_binary_floor
from leaderboard.stats.quantiles import distinct, t_ppf

POWER = 0.80
_RELATIVE = re.compile(r"\+?(\d+(?:\.\d*)?|\.\d+)%")
_ABSOLUTE = re.compile(r"-?(\d+(?:\.\d*)?|\.\d+)")
FLOOR = 1e-6  # replicate means are floored at this share of their estimate
GUARDRAIL = "guardrail"  # the setting's neutral name; each shell names its own option


@dataclass(frozen=True)
class Guardrail:
    """One guarded measure and its tolerance.

    Attributes
    ----------
    name : str
        ``cost``, ``latency``, ``tokens`` or a secondary metric's name.
    tolerance : float
        For a measure, the tolerated relative increase (0.10 for ``+10%``); for a
        metric, the tolerated absolute drop (0.02 for ``-0.02``). Always >= 0.
    """

    name: str
    tolerance: float

    @property
    def relative(self) -> bool:
        """Whether this is a lower-is-better measure judged on a ratio."""
        return self.name in MEASURES


def parse_guardrail(spec: str, option: str = GUARDRAIL) -> Guardrail:
    """Parse ``NAME:TOLERANCE`` (``cost:+10%``, ``faithfulness:-0.02``).

    Raises
    ------
    UsageError
        One line naming `option` (the setting as the caller's shell names it),
        what was given and an example of the right form.
    """
    text = spec.strip()
    name, colon, tol = text.rpartition(":")
    name, tol = name.strip(), tol.strip()
    example = "e.g. cost:+10%, latency:+25%, tokens:+5% or faithfulness:-0.02"
    if not colon or not name or not tol:
        raise UsageError(f"{option}: expected NAME:TOLERANCE, got {spec!r} ({example})")
    if not name.isprintable():
        raise UsageError(f"{option}: not a measure or metric name: {name[:60]!r}")
    if name in MEASURES:
        match = _RELATIVE.fullmatch(tol)
        if match is None:
            raise UsageError(
                f"{option}: {name} takes a relative increase such as +10%, got {tol!r} "
                f"(lower is better for {name}; the tolerance is how much more the "
                "candidate may use)"
            )
        value = float(match.group(1)) / 100.0
    else:
        match = _ABSOLUTE.fullmatch(tol)
        if match is None:
            raise UsageError(
                f"{option}: metric {name!r} takes an absolute drop such as -0.02, got "
                f"{tol!r} (cost, latency and tokens take a relative increase: +10%)"
            )
        value = float(match.group(1))
        if value >= 1.0:
            raise UsageError(
                f"{option}: metric {name!r}: a drop of {tol} is the whole score "
                "range; give a drop below 1, such as -0.02"
            )
    if not math.isfinite(value):
        raise UsageError(f"{option}: tolerance must be finite, got {tol!r}")
    return Guardrail(name, value)


def check_guardrails(
    guardrails: Sequence[Guardrail], option: str = GUARDRAIL
) -> list[Guardrail]:
    """Refuse a measure named twice; return the guardrails as a list."""
    seen: set[str] = set()
    for g in guardrails:
        if not isinstance(g, Guardrail):
            raise UsageError(f"`guardrails` must hold Guardrail values, got {g!r}")
        if g.name in seen:
            raise UsageError(f"{option}: {g.name!r} is guarded twice; keep one")
        seen.add(g.name)
    return list(guardrails)


def _values(runs: Sequence[EvalRun], name: str) -> list[float]:
    nan = math.nan
    if name in MEASURES:
        return [nan if (v := getattr(r, name)) is None else v for r in runs]
    return [
        r.score if r.metric_name == name else dict(r.metrics).get(name, nan) for r in runs
    ]


def available(runs: Sequence[EvalRun]) -> tuple[list[str], list[str]]:
    """The measures and the secondary metrics some record carries, sorted."""
    # sets of the values first (a pass in C each), then the few distinct ones in Python
    measures = [m for m in MEASURES if set(map(attrgetter(m), runs)) - {None}]
    metrics = sorted(
        {name for held in set(map(attrgetter("metrics"), runs)) for name, _ in held}
    )
    return measures, metrics


@dataclass(frozen=True)
class MeasureResult:
    """A measure's design and replicates, and the estimates registered for it."""

    design: Design
    estimate: FloatArray
    replicates: FloatArray
    model_means: dict[int, float]
    pairs: dict[tuple[int, int], tuple[int, int, float, int]]  # -> kc, kb, df, units


def measure_replicates(
    d: Design,
    runs: Sequence[EvalRun],
    name: str,
    pairs: Sequence[tuple[int, int]],
    *,
    resamples: int,
    seed: int,
) -> MeasureResult:
    """Run the engine on measure `name` for every model's mean and every pair."""
    dm = measure_design(d, runs, _values(runs, name))
    plan = EstimatePlan(dm)
    has: BoolArray = np.asarray(dm.present.any(axis=0))
    overall = {m: plan.add(m) for m in range(len(dm.models)) if has[m]}
    keys = {(c, b): (plan.add(c, partner=b), plan.add(b, partner=c)) for c, b in pairs}
    rep = plan.run(resamples=resamples, seed=seed)
    out: dict[tuple[int, int], tuple[int, int, float, int]] = {}
    for (c, b), (kc, kb) in keys.items():
        df = float(rep.diff_df(np.array([kc]), np.array([kb]))[0])
        shared = int((dm.present[:, c] & dm.present[:, b]).sum())
        out[(c, b)] = (kc, kb, df, shared)
    return MeasureResult(
        dm,
        rep.estimate,
        rep.replicates,
        {m: float(rep.estimate[k]) for m, k in overall.items()},
        out,
    )


def ratio_interval(  # noqa: PLR0917 - two estimates, their replicates, df and alpha
    est_c: float,
    est_b: float,
    reps_c: FloatArray,
    reps_b: FloatArray,
    df: float,
    alpha: float,
) -> tuple[float, float, float, float]:
    """``(R - 1, lo, hi, se_log)``: the relative change and its interval.

    The t-scaled percentile interval of ``log(mean*_c) - log(mean*_b)``, mapped back.
    Replicate means are floored at ``FLOOR`` times their estimate: a rescaled
    replicate of a mean can dip to or below zero when a few units carry most of the
    total and none of them is drawn (a handful of clusters), and a log of it would
    be meaningless. Ends beyond ``exp(700)`` are capped there (no ratio is that large).
    """
    log_est = math.log(est_c) - math.log(est_b)
    log_reps = np.log(np.maximum(reps_c, FLOOR * est_c)) - np.log(
        np.maximum(reps_b, FLOOR * est_b)
    )
    lo, hi = percentile_intervals(
        np.array([log_est]), log_reps[:, None], np.array([df]), alpha
    )
    se = float(replicate_sd(log_reps[:, None])[0])
    return _expm1(log_est), _expm1(float(lo[0])), _expm1(float(hi[0])), se


def _expm1(x: float) -> float:
    return math.expm1(min(x, 700.0))


def _comparison(
    g: Guardrail,
    res: MeasureResult,
    c: int,
    b: int,
    *,
    alpha: float,
    gated: bool,
) -> GateComparison:
    d = res.design
    kc, kb, df, shared = res.pairs[(c, b)]
    est_c, est_b = float(res.estimate[kc]), float(res.estimate[kb])
    shared_tasks = len(distinct(d.item_task[d.present[:, c] & d.present[:, b]]))
    status: Literal["regressed", "no_regression", "undetermined"] = "no_regression"
    note: str | None = None
    mdr: float | None = None
    if g.relative:
        usable = shared > 0 and est_b > 0 and est_c > 0 and df >= 1
        if usable:
            diff, lo, hi, se = ratio_interval(
                est_c, est_b, res.replicates[:, kc], res.replicates[:, kb], df, alpha
            )
            regressed = gated and lo > g.tolerance
            t_sum = t_ppf(1.0 - alpha / 2.0, df) + t_ppf(POWER, df)
            mdr = _expm1(math.log1p(g.tolerance) + t_sum * se)
        else:
            diff = est_c / est_b - 1.0 if est_b > 0 else 0.0
            lo, hi, regressed = -1.0, math.inf, False
            status = "undetermined"
            note = _undetermined(g.name, shared, est_b, est_c, df)
    else:
        diff = est_c - est_b
        reps = res.replicates[:, kc] - res.replicates[:, kb]
        if shared > 0 and df >= 1:
            lo_a, hi_a = percentile_intervals(
                np.array([diff]), reps[:, None], np.array([df]), alpha, bounds=(-1, 1)
            )
            se = float(replicate_sd(reps[:, None])[0])
            paired_binary_floor(  # pass/fail on both sides: as the score's (paired.py)
                lo_a,
                hi_a,
                0,
                d,
                pair=(c, b),
                shared=d.present[:, c] & d.present[:, b],
                estimate=diff,
                se=se,
                alpha=alpha,
                df=df,
            )
            lo, hi = float(lo_a[0]), float(hi_a[0])
            regressed = gated and hi < -g.tolerance
            t_sum = t_ppf(1.0 - alpha / 2.0, df) + t_ppf(POWER, df)
            mdr = g.tolerance + t_sum * se
        else:
            lo, hi, regressed = -1.0, 1.0, False
            status = "undetermined"
            note = _undetermined(g.name, shared, 1.0, 1.0, df)
    if regressed:
        status = "regressed"
    return GateComparison(
        candidate=d.models[c],
        baseline=d.models[b],
        scope="overall",
        measure=g.name,
        direction="lower_is_better" if g.relative else "higher_is_better",
        relative=g.relative,
        candidate_mean=est_c,
        baseline_mean=est_b,
        diff_mean=diff,
        ci_lo=lo,
        ci_hi=hi if math.isfinite(hi) else 1e308,
        confidence=1.0 - alpha,
        margin=g.tolerance,
        regressed=regressed,
        min_detectable_regression=mdr,
        shared_tasks=shared_tasks,
        shared_units=shared,
        status=status,
        note=note,
        interval=status != "undetermined",
    )


def _undetermined(name: str, shared: int, est_b: float, est_c: float, df: float) -> str:
    if shared == 0:
        return (
            f"no unit carries {name} for both models, so it can neither pass nor fail; "
            f"record {name} in both runs"
        )
    if est_b <= 0 or est_c <= 0:
        return (
            f"a mean {name} of 0, so no ratio can be formed and it can neither pass "
            "nor fail"
        )
    return (
        f"too few units carry {name} to estimate its spread (df {df:.1f}), so it can "
        "neither pass nor fail"
    )


@dataclass(frozen=True)
class GuardrailPlan:
    """What `build_report` computed for the measures and metrics of one report."""

    gated: list[GateComparison]
    not_gated: list[GateComparison]
    measure_means: dict[int, dict[str, float]]
    metric_means: dict[int, dict[str, float]]
    alpha: float = 0.0  # the guardrail block's budget, 1 - confidence


def plan_guardrails(
    d: Design,
    runs: Sequence[EvalRun],
    pairs: Sequence[tuple[int, int]],
    guardrails: Sequence[Guardrail],
    *,
    confidence: float,
    resamples: int,
    seed: int,
) -> GuardrailPlan:
    """Every guardrail comparison, the not-gated measures, and each model's means.

    `pairs` are the gate's overall ``(candidate, baseline)`` model indices. The
    guardrail block is one comparison per guardrail and pair, each at
    ``1 - (1 - confidence) / block`` (Bonferroni within the block's own budget).
    """
    family = len(guardrails) * len(pairs)
    measures, metrics = available(runs)
    for g in guardrails:
        if g.relative and g.name not in measures:
            raise UsageError(
                f"{GUARDRAIL} {g.name}: no record carries `{g.name}`; "
                + (
                    f"the records carry {', '.join(measures)}"
                    if measures
                    else "record cost, latency or tokens, or drop the guardrail"
                ),
                subject=GUARDRAIL,
            )
        if not g.relative and g.name not in metrics:
            held = ", ".join([*measures, *metrics]) or "none besides the score"
            raise UsageError(
                f"{GUARDRAIL} {g.name}: no record carries a metric {g.name!r}; the "
                f"records carry: {held}",
                subject=GUARDRAIL,
            )
    guarded = {g.name: g for g in guardrails}
    alpha_gate = (1.0 - confidence) / max(1, family)
    gated: list[GateComparison] = []
    not_gated: list[GateComparison] = []
    measure_means: dict[int, dict[str, float]] = {}
    metric_means: dict[int, dict[str, float]] = {}
    for name in [*measures, *metrics]:
        guard = guarded.get(name)
        shown = guard is not None or name in MEASURES
        # A metric shown nowhere needs only its means, which draw no resample.
        res = measure_replicates(
            d,
            runs,
            name,
            pairs if shown else [],
            resamples=resamples if shown else 0,
            seed=seed,
        )
        means = measure_means if name in MEASURES else metric_means
        for m, v in res.model_means.items():
            means.setdefault(m, {})[name] = v
        for c, b in pairs if shown else []:
            if guard is not None:
                gated.append(_comparison(guard, res, c, b, alpha=alpha_gate, gated=True))
            else:
                loose = Guardrail(name, 0.0)
                not_gated.append(
                    _comparison(loose, res, c, b, alpha=1.0 - confidence, gated=False)
                )
    order = {name: i for i, name in enumerate(g.name for g in guardrails)}
    gated.sort(key=lambda x: (order[x.measure], x.candidate))
    return GuardrailPlan(gated, not_gated, measure_means, metric_means, 1.0 - confidence)


def with_guardrails(gate: Gate, plan: GuardrailPlan) -> Gate:
    """`gate` with the guardrail comparisons added and its verdict updated."""
    if not plan.gated and not plan.not_gated:
        return gate
    comparisons = [*gate.comparisons, *plan.gated]
    regressed = any(c.regressed for c in comparisons)
    status = gate.status
    if regressed:
        status = "regressed"
    elif status == "no_regression" and any(c.status == "undetermined" for c in plan.gated):
        status = "undetermined"
    note = gate.note
    if status == "undetermined" and note is None:
        first = next(c for c in plan.gated if c.status == "undetermined")
        note = f"guardrail {first.measure} undetermined: {first.note}"
    return gate.model_copy(
        update={
            "comparisons": comparisons,
            "regressed": regressed,
            "status": status,
            "note": note,
            "not_gated": plan.not_gated,
            "guardrail_family_size": len(plan.gated),
            # the guardrail block's own budget: (1 - confidence) / 2 more
            "bound": gate.bound + (plan.alpha / 2.0 if plan.gated else 0.0),
        }
    )
