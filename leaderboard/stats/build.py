"""The statistical core: the report in one call, and the seed lesson's functions.

`build_report` validates its settings, lays the records out (`leaderboard.stats.design`),
registers every estimate the report shows (`leaderboard.stats.estimates`), draws one shared
set of bootstrap replicates for all of them (`leaderboard.stats.bootstrap`) and reads the
leaderboard, the pairwise table, the rank intervals and the gate off those replicates.
The method, a rescaled, t-scaled percentile bootstrap, is described in
`leaderboard.stats.bootstrap`.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable, Mapping, Sequence

import numpy as np
import numpy.typing as npt
from pydantic import TypeAdapter

from leaderboard._gc import collector_paused
from leaderboard._version import GENERATOR
from leaderboard.errors import UsageError, did_you_mean
from leaderboard.inputs import EvalRun, merge_metrics
from leaderboard.report import (
    BaselineRun,
    DataSummary,
    Gate,
    GateComparison,
    Interval,
    LeaderboardRow,
    PairwiseDiff,
    Report,
    ReportSettings,
)
from leaderboard.stats.anchor import ANCHOR_LABEL, Anchor, join_anchor
from leaderboard.stats.answers import with_answers
from leaderboard.stats.bootstrap import (
    Replicates,
    centred_gram,
    difference_sd,
    interval_levels,
    intervals_from_quantiles,
    percentile_intervals,
    rank_bounds,
    replicate_sd,
)
from leaderboard.stats.completion import (
    attempts,
    completion_comparisons,
    split_errored,
    with_completion,
)
from leaderboard.stats.design import Design, FloatArray, IntArray, build_design
from leaderboard.stats.estimates import EstimatePlan, check_sizes
from leaderboard.stats.family import pairwise_level_cov
from leaderboard.stats.flaky import mark_flaky
from leaderboard.stats.floors import exact_binary
from leaderboard.stats.gate import plan_anchor, plan_gate, read_gate
from leaderboard.stats.guardrails import (
    Guardrail,
    plan_guardrails,
    with_guardrails,
)
from leaderboard.stats.quantiles import difference_rows, sample_quantiles
from leaderboard.stats.request import (
    MIN_RESAMPLES,
    MissingBaseline,
    ModelBaseline,
    Request,
    RunBaseline,
    check_settings,
    request,
)
from leaderboard.stats.ruled_out import DEFAULT_MAX_DROP
from leaderboard.stats.two_runs import (
    TwoRuns,
    baseline_id,
    label_of,
    no_baseline_run,
    two_run_gate,
    two_runs,
)
from leaderboard.stats.verdict import decide

__all__ = ["METHOD", "MIN_RESAMPLES", "build_report", "check_settings", "report_for"]

METHOD = "rescaled t-scaled percentile bootstrap"
PAIR_CHUNK = 32  # pairwise differences held in memory at once (columns of B replicates)


def _check_models(
    models: list[str], baseline: str | None, candidates: Sequence[str] | None
) -> list[str]:
    available = ", ".join(models)

    def unknown(what: str, name: str) -> UsageError:
        hint = did_you_mean(name, models)
        return UsageError(f"{what} {name!r} is not in the data{hint}; models: {available}")

    if baseline is None:
        if candidates:
            raise UsageError("`candidates` need a `baseline` to be compared with")
        return []
    if baseline not in models:
        raise unknown("`baseline`", baseline)
    if candidates is None or len(candidates) == 0:
        return [m for m in models if m != baseline]
    if isinstance(candidates, str):
        candidates = [candidates]
    out: list[str] = []
    for c in candidates:
        if c not in models:
            raise unknown("candidate", c)
        if c == baseline:
            raise UsageError(f"candidate {c!r} is the baseline; drop it from `candidates`")
        if c not in out:
            out.append(c)
    return out


def _own_items(d: Design, baseline_models: frozenset[str] | None) -> npt.NDArray[np.bool_]:
    """(I, M): the items each model's own run holds (every item with one run)."""
    if baseline_models is None:
        return np.ones(d.present.shape, dtype=bool)
    base = np.array([m in baseline_models for m in d.models], dtype=bool)
    out = np.empty(d.present.shape, dtype=bool)
    for members in (base, ~base):
        held: npt.NDArray[np.bool_] = np.asarray(d.present[:, members].any(axis=1))
        out[:, members] = held[:, None]
    return out


def _own_units(
    d: Design, baseline_models: frozenset[str] | None
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """(I, M) items and (T, M) tasks of each model's own run."""
    own = _own_items(d, baseline_models)
    tasks = np.zeros((len(d.tasks), len(d.models)), dtype=bool)
    np.logical_or.at(tasks, d.item_task, own)
    return own, tasks


def _warnings(d: Design, baseline_models: frozenset[str] | None = None) -> list[str]:
    """What the reader should know about the data. With two runs (`baseline_models`
    the baseline run's rows), a model is measured against its own run's items only:
    items that only the other run holds are no one's fault."""
    out = []
    runs = [np.ones(len(d.models), dtype=bool)]
    if baseline_models is not None:
        base = np.array([m in baseline_models for m in d.models], dtype=bool)
        runs = [~base, base]
    for members in runs:
        held = d.present[:, members].any(axis=1) if members.any() else d.present[:, 0]
        n_items = int(held.sum())
        for m in np.flatnonzero(members):
            missing = n_items - int((d.present[:, m] & held).sum())
            if missing:
                what = "items" if d.item_level else "tasks"
                run = "" if baseline_models is None else " its own run holds"
                out.append(
                    f"{d.models[m]} misses {missing} of {n_items} {what}{run}: its "
                    "mean covers only what it completed, and its pairs compare only "
                    "shared units"
                )
    sizes = np.diff(d.starts)
    single = [d.tasks[h] for h in np.flatnonzero(sizes == 1)] if d.item_level else []
    if single:
        out.append(
            f"{len(single)} task(s) have a single {d.unit_kind} ({', '.join(single[:5])}"
            f"{', ...' if len(single) > 5 else ''}): they add no sampling variance"
        )
    if d.spanning_clusters:
        names = ", ".join(d.spanning_clusters[:5])
        more = ", ..." if len(d.spanning_clusters) > 5 else ""
        out.append(
            f"{len(d.spanning_clusters)} cluster id(s) appear in several tasks ({names}"
            f"{more}): clusters are nested within tasks, so each task's part is "
            "resampled on its own; if they share a source across tasks, intervals are "
            "too narrow"
        )
    if not d.item_level and len(d.tasks) < 2:
        out.append(
            "a single task: no sampling variance can be estimated (intervals are the "
            "whole range; no pair can be told apart and the gate cannot tell)"
        )
    return out


@collector_paused()
def build_report(
    runs: Iterable[EvalRun],
    *,
    baseline: str | None = None,
    candidates: Sequence[str] | None = None,
    confidence: float = 0.95,
    resamples: int = 10000,
    seed: int = 0,
    margin: float = 0.0,
    gate_categories: bool = False,
    baseline_runs: Iterable[EvalRun] | None = None,
    baseline_run: BaselineRun | None = None,
    baseline_missing: str | None = None,
    guardrails: Sequence[Guardrail] = (),
    anchor_runs: Iterable[EvalRun] | None = None,
    anchor_margin: float = 0.0,
    anchor_label: str = ANCHOR_LABEL,
    baseline_map: Mapping[str, str] | None = None,
    max_drop: float = DEFAULT_MAX_DROP,
    show_outputs: bool = False,
) -> Report:
    """The whole report: leaderboard, pairwise table and gate, from one set of replicates.

    The process's cyclic garbage collector is paused while it runs, and turned back on
    after if it was on (`leaderboard._gc.collector_paused`; safe from several threads).

    Parameters
    ----------
    runs : iterable of EvalRun
        Task-level or item-level records (CONTRACT.md section 1).
    baseline : str, optional
        Model of `runs` the candidates are gated against; None: no gate (unless
        `baseline_runs` is given).
    candidates : sequence of str, optional
        Gated models; default every model except the baseline (with `baseline_runs`:
        every model id present in both runs).
    confidence : float
        Level of each leaderboard and pairwise interval, and of the gate's family.
    resamples : int
        Bootstrap replicates (at least 100).
    seed : int
        Seed of the replicates; with the set of records it fixes every number.
    margin : float
        Tolerated drop: a comparison regresses when its interval lies below ``-margin``.
    max_drop : float
        A score comparison passes only when its interval rules out a drop of this
        much (its lower end at or above ``-max_drop``; raised to `margin` when
        below it); otherwise it cannot tell (`leaderboard.stats.ruled_out`).
    gate_categories : bool
        Also gate every category (Bonferroni over all comparisons).
    baseline_runs : iterable of EvalRun, optional
        A second run of the same models, the baseline (e.g. the base branch's run).
        Its model ids are renamed ``"<model_id> @ <label>"``; each model id present in
        both runs is gated against its renamed self, paired on the tasks and items both
        runs hold. Models in one run only are shown and listed in ``gate.ungated``.
        Excludes `baseline`.
    anchor_runs : iterable of EvalRun, optional
        An anchor run (a release, a tagged commit): every model of `runs` also in it
        is gated against its own anchor row ``"<model_id> @ <anchor_label>"`` at
        `anchor_margin`, a comparison with scope ``anchor``, one more member of the
        gate's family (`leaderboard.stats.anchor`).
    anchor_margin : float
        The total drop allowed since the anchor (the budget across merges).
    anchor_label : str
        Name of the anchor run (default ``"anchor"``).
    baseline_run : BaselineRun, optional
        Describes `baseline_runs` (its ``label``, default ``"baseline"``, and where it
        came from); copied to ``gate.baseline_run``.
    baseline_missing : str, optional
        A baseline run was asked for (the kept history) and none could be read; the
        text says why and how to get one. The gate's status is ``no_baseline_run``
        with it as the note: nothing is gated, and it is never a pass. Excludes
        `baseline` and `baseline_runs`.
    guardrails : sequence of Guardrail
        Measures gated beside the score (`leaderboard.stats.guardrails`): each adds
        one comparison per gated pair to ``gate.comparisons``; together they share
        a second budget of ``1 - confidence``, so the score's comparisons keep the
        level they have without guardrails (``gate.bound`` states both).
    baseline_map : mapping of str to str, optional
        ``{NEW: OLD}``: model NEW of `runs` is gated against model OLD of
        `baseline_runs` (a renamed model). Without it, when each run holds exactly one
        model id and they differ, those two are paired.
    show_outputs : bool
        Give each item that dropped most (`worst_items`) the input and the answers its
        records carry (``answers``); off (the default), the report holds none.

    Returns
    -------
    Report

    Raises
    ------
    UsageError
        A setting out of range, or a baseline/candidate not in the data; `baseline`
        together with `baseline_runs`; a model id of `runs` that equals a renamed
        baseline id.
    InputError
        Duplicate records, item- and task-level records mixed, inconsistent task fields
        (within a run or between the two runs).
    """
    return report_for(
        request(
            runs,
            baseline=baseline,
            candidates=candidates,
            confidence=confidence,
            resamples=resamples,
            seed=seed,
            margin=margin,
            max_drop=max_drop,
            gate_categories=gate_categories,
            baseline_runs=baseline_runs,
            baseline_run=baseline_run,
            baseline_missing=baseline_missing,
            guardrails=guardrails,
            anchor_runs=anchor_runs,
            anchor_margin=anchor_margin,
            anchor_label=anchor_label,
            baseline_map=baseline_map,
            show_outputs=show_outputs,
        )
    )


@collector_paused()
def report_for(req: Request) -> Report:  # noqa: PLR0915 - the stage's one entry
    """The whole report a checked `Request` asks for (see `build_report`).

    Raises
    ------
    UsageError
        A baseline or candidate not in the data; a model id of the runs that equals
        a renamed baseline id.
    InputError
        As `build_report`.
    """
    confidence, resamples, seed = req.confidence, req.resamples, req.seed
    margin, gate_categories, guards = req.margin, req.gate_categories, list(req.guardrails)
    max_drop = req.max_drop
    chosen = req.baseline
    baseline = chosen.model if isinstance(chosen, ModelBaseline) else None
    second = chosen if isinstance(chosen, RunBaseline) else None
    baseline_run = None if second is None else second.run
    baseline_map = None if second is None else second.model_map
    baseline_missing = chosen.note if isinstance(chosen, MissingBaseline) else None
    candidates = None if req.candidates is None else list(req.candidates)
    # errored units (attempted, not scored) count in the completion block only
    scored, errored = split_errored(req.runs)
    base_scored, base_errored = split_errored(() if second is None else second.runs)
    runs = merge_metrics(scored)
    baseline_runs = None if second is None else merge_metrics(base_scored)
    own_models = sorted({r.model_id for r in runs})  # the run's, before any join
    if baseline_runs is not None:  # the model cap counts per run
        check_sizes(runs)
        check_sizes(baseline_runs)
    two = two_runs(
        runs, baseline, candidates, baseline_runs, baseline_run, baseline_map=baseline_map
    )
    runs = runs if two is None else two.runs
    anchor = join_anchor(
        runs,
        None if req.anchor is None else list(req.anchor.runs),
        label=ANCHOR_LABEL if req.anchor is None else req.anchor.label,
        margin=0.0 if req.anchor is None else req.anchor.margin,
        gated_models=own_models,
    )
    runs = anchor.runs if anchor is not None else runs
    check_sizes(runs, runs_joined=1 + (two is not None) + (anchor is not None))
    d = build_design(runs)
    if two is None:
        # the anchor run's rows are gated only against their own models
        gated = _check_models(
            [m for m in d.models if m in own_models], baseline, candidates
        )
        pairs = [(c, baseline) for c in gated] if baseline is not None else []
    else:
        gated = [c for c, _ in two.pairs]
        pairs = two.pairs
    alpha = 1.0 - confidence
    n_models = len(d.models)
    plan = EstimatePlan(d)
    overall = [plan.add(m) for m in range(n_models)]
    cats = d.categories
    item_cat = d.item_category
    has_cat = {c: d.present[item_cat == c].any(axis=0) for c in cats}
    cat_est = {
        (m, c): plan.add(m, category=c)
        for m in range(n_models)
        for c in cats
        if has_cat[c][m]
    }
    pair_est = _pair_estimates(plan, d, overall)
    gate_plan = plan_gate(plan, d, pairs, gate_categories)
    anchor_plan = (  # one more member of the gate's family per model
        [] if anchor is None else plan_anchor(plan, d, anchor.pairs, anchor.margin)
    )
    guard = plan_guardrails(
        d,
        runs,
        [(p.candidate, p.baseline) for p in gate_plan if p.category is None],
        guards,
        confidence=confidence,
        resamples=resamples,
        seed=seed,
    )
    rep = plan.run(resamples=resamples, seed=seed)
    est, reps, _df = rep.estimate, rep.replicates, rep.df
    means = [(k, m, int(d.present[:, m].sum())) for m, k in enumerate(overall)] + [
        (k, m, int((d.present[:, m] & (item_cat == c)).sum()))
        for (m, c), k in cat_est.items()
    ]
    lo, hi = _mean_intervals(d, rep, alpha, means)
    order = sorted(range(n_models), key=lambda m: (-est[overall[m]], d.models[m]))
    # every pair in ranking order, the better-ranked model first: (a, b, ka, kb)
    place_a, place_b = np.triu_indices(n_models, k=1)
    ranked = np.array(order, dtype=np.intp)
    pa, pb = ranked[place_a], ranked[place_b]
    order_pairs = (pa, pb, pair_est[pa, pb], pair_est[pb, pa])
    win, completed = _win_rates(d)
    # With two runs, a row is complete against its own run: items only the other run
    # holds are no one's to miss.
    own, own_tasks = _own_units(d, None if two is None else two.baseline_models)
    rows = []
    for pos, m in enumerate(order):
        k = overall[m]
        ck = {c: cat_est[(m, c)] for c in cats if (m, c) in cat_est}
        missing = [
            d.tasks[t]
            for t in range(len(d.tasks))
            if own_tasks[t, m] and not completed[t, m]
        ]
        rows.append(
            LeaderboardRow(
                rank=pos + 1,
                model_id=d.models[m],
                mean_score=float(est[k]),
                mean_ci_lo=float(lo[k]),
                mean_ci_hi=float(hi[k]),
                win_rate=float(win[m]),
                tasks_completed=int(completed[:, m].sum()),
                tasks_total=int(own_tasks[:, m].sum()),
                complete=bool(d.present[own[:, m], m].all()),
                missing_tasks=missing,
                units=plan.units(k),
                rank_lo=0,  # from the pairwise decisions, below
                rank_hi=0,
                categories={c: float(est[j]) for c, j in ck.items()},
                category_intervals={
                    c: Interval(lo=float(lo[j]), hi=float(hi[j])) for c, j in ck.items()
                },
                measures=guard.measure_means.get(m, {}),
                metrics=guard.metric_means.get(m, {}),
            )
        )
    # the rank ranges' pairwise decisions hold `confidence` for all pairs together
    # one centred product of the models' replicates: the family's covariance (numpy.cov's
    # numbers) and the pairs' standard deviations (`difference_sd`) both read it
    cols = np.array(overall, dtype=np.intp)
    gram = centred_gram(reps, cols) if pa.size > 1 else None
    each = (
        alpha
        if gram is None
        else pairwise_level_cov(
            gram * np.true_divide(1, reps.shape[0] - 1), (pa, pb), alpha, seed=rep.seed
        )
    )
    pairwise, family = _pairwise(
        d,
        plan=plan,
        pairs=order_pairs,
        est=est,
        reps=reps,
        rep=rep,
        alpha=alpha,
        family_alpha=each,
        completed=completed,
        gram=None if gram is None else (cols, gram),
    )
    _rank_intervals(rows, (place_a, place_b), family)
    gate = read_gate(
        gate_plan + anchor_plan,
        plan=plan,
        d=d,
        baseline=baseline,
        est=est,
        reps=reps,
        rep=rep,
        confidence=confidence,
        margin=margin,
        max_drop=max_drop,
    )
    if req.show_outputs:
        gate = with_answers(gate, runs)
    gate = with_completion(
        with_guardrails(gate, guard),
        _completion(runs, errored, base_errored, pairs, two, baseline_run, req, d),
        alpha,
    )
    gate = _finish_gate(gate, two, baseline_run, baseline_missing, anchor)
    gate = mark_flaky(
        gate,
        runs,
        history=() if second is None else second.history,
        stored_model=None
        if two is None or baseline_runs is None
        else {
            baseline_id(r.model_id, label_of(baseline_run)): r.model_id
            for r in baseline_runs
        },
    )
    return Report(
        generator=GENERATOR,
        settings=ReportSettings(
            confidence=confidence,
            resamples=int(resamples),
            seed=int(seed),
            margin=float(margin),
            max_drop=max_drop,
            method=METHOD,
            unit=d.unit_kind,  # type: ignore[arg-type]
            baseline=baseline,
            baseline_label=None if two is None else label_of(baseline_run),
            candidates=gated,
            gate_categories=gate_categories,
            guardrails={g.name: g.tolerance for g in guards},
            show_outputs=req.show_outputs,
        ),
        data=DataSummary(
            records=d.records,
            models=n_models,
            tasks=len(d.tasks),
            categories=cats,
            items=d.n_items,
            clusters=d.n_clusters,
            samples_per_item_max=d.samples_max,
        ),
        leaderboard=rows,
        pairwise=pairwise,
        gate=gate,
        verdict=decide(gate, d.unit_kind),
        warnings=([] if two is None else two.differences)
        + _warnings(d, None if two is None else two.baseline_models),
    )


def _completion(  # noqa: PLR0917 - what the completion block is read from
    runs: list[EvalRun],
    errored: list[EvalRun],
    base_errored: list[EvalRun],
    pairs: list[tuple[str, str]],
    two: TwoRuns | None,
    baseline_run: BaselineRun | None,
    req: Request,
    d: Design,
) -> list[GateComparison]:
    """The completion comparisons of the gated pairs (`leaderboard.stats.completion`):
    the baseline run's errored units renamed as its scored ones were."""
    if not pairs or not (errored or base_errored):
        return []
    if two is not None:
        label = label_of(baseline_run)
        errored = errored + [
            dataclasses.replace(r, model_id=baseline_id(r.model_id, label))
            for r in base_errored
        ]
    models = {m for pair in pairs for m in pair}
    return completion_comparisons(
        pairs,
        attempts(runs, errored, models),
        confidence=req.confidence,
        unit_kind="item" if d.item_level else "task",
        skip=frozenset(() if two is None else two.left_out_tasks),
    )


def _finish_gate(
    gate: Gate,
    two: TwoRuns | None,
    baseline_run: BaselineRun | None,
    baseline_missing: str | None,
    anchor: Anchor | None,
) -> Gate:
    """The gate with its baseline run, a missing baseline run, and its anchor."""
    if two is not None:
        gate = two_run_gate(gate, two, baseline_run)
    if baseline_missing is not None:
        gate = no_baseline_run(gate, baseline_missing)
    if anchor is not None:
        gate = gate.model_copy(update={"anchor": anchor.label})
    return gate


def _mean_intervals(
    d: Design, rep: Replicates, alpha: float, means: list[tuple[int, int, int]]
) -> tuple[FloatArray, FloatArray]:
    """Intervals of the shown means ``(estimate, model, items)`` (NaN for the other
    estimates): Korn & Graubard's Clopper-Pearson interval where the model's scores are
    binary, Wilson's floor where they show no spread.

    Each interval is its own column's alone, so a mean listed twice (a model's only
    category is its overall mean: the same estimate) is computed once; where the shown
    estimates are consecutive columns of the replicates they are read in place.
    """
    est, reps, df = rep.estimate, rep.replicates, rep.df
    # scores in {0, 1} wherever the model has them (numpy.isin's equality tests)
    binary = ((d.scores == 0.0) | (d.scores == 1.0) | ~d.present).all(axis=0)
    means = list(dict.fromkeys(means))  # in order; a repeat gives the same interval
    index = np.array([k for k, _, _ in means], dtype=np.intp)
    start = int(index[0]) if index.size else 0
    if np.array_equal(index, np.arange(start, start + index.size)):
        shown = reps[:, start : start + index.size]  # a view: the thresholds move nothing
        copied = False
    else:
        shown = reps.T[index].T  # a copy, contiguous per estimate like `reps`
        copied = True
    se = replicate_sd(shown)
    lo_i, hi_i = percentile_intervals(
        est[index], shown, df[index], alpha, bounds=(0.0, 1.0), overwrite=copied
    )
    flat = se <= 1e-12 * np.maximum(1.0, np.abs(est[index]))
    lo, hi = np.full(est.shape, np.nan), np.full(est.shape, np.nan)
    lo[index], hi[index] = exact_binary(
        lo_i,
        hi_i,
        estimate=est[index],
        se=se,
        n_obs=np.array([n for _, _, n in means], dtype=np.float64),
        df=df[index],
        alpha=alpha,
        binary=binary[[m for _, m, _ in means]],
        flat=flat,
        independent_items=d.unit_kind == "item",
    )
    return lo, hi


def _rank_intervals(
    rows: list[LeaderboardRow],
    places: tuple[IntArray, IntArray],
    family: npt.NDArray[np.intp],
) -> None:
    """Rank ranges from the family-wise pairwise decisions (`rank_bounds`).

    Pair j compares the rows ``places[0][j]`` and ``places[1][j]`` (model_a and
    model_b). ``family[j]``: +1 when its model_a is better than its model_b with all
    pairs held together (`leaderboard.stats.family.pairwise_level`), -1 when worse,
    0 when the family cannot tell. The pairwise table itself stays unadjusted.
    """
    a, b = places
    better = np.zeros((len(rows), len(rows)), dtype=bool)
    better[b[family > 0], a[family > 0]] = True  # a is better than b
    better[a[family < 0], b[family < 0]] = True
    lo, hi = rank_bounds(better)
    for i, r in enumerate(rows):
        # the observed rank is always plausible (a significant pair agrees with it)
        r.rank_lo = min(int(lo[i]), r.rank)
        r.rank_hi = max(int(hi[i]), r.rank)


def _pair_estimates(plan: EstimatePlan, d: Design, overall: list[int]) -> IntArray:
    """(M, M): ``[a, b]`` the estimate of model a on the units it shares with model b
    (registered with `plan` pair by pair, as before: a pair of two complete models
    needs none, both are their overall means)."""
    n = len(d.models)
    out = np.repeat(np.array(overall, dtype=np.intp)[:, None], n, axis=1)
    partial = np.flatnonzero(~d.present.all(axis=0)).tolist()
    is_partial = set(partial)
    for a in range(n):
        for b in range(a + 1, n) if a in is_partial else [b for b in partial if b > a]:
            out[a, b], out[b, a] = plan.add(a, partner=b), plan.add(b, partner=a)
    return out


def _win_rates(d: Design) -> tuple[FloatArray, npt.NDArray[np.bool_]]:
    """Weighted share of its tasks on which a model has the top score (ties: a win)."""
    ts = d.task_scores()
    done = ~np.isnan(ts)
    filled = np.where(done, ts, -np.inf)
    best = filled.max(axis=1, keepdims=True)
    wins = done & (filled >= best - 1e-12)
    w = d.task_weight[:, None]
    n_done = (done * w).sum(axis=0)
    won = (wins * w).sum(axis=0)
    rate = np.divide(won, n_done, out=np.zeros(ts.shape[1]), where=n_done > 0)
    return rate, done


def _pairwise(
    d: Design,
    *,
    plan: EstimatePlan,
    pairs: tuple[IntArray, IntArray, IntArray, IntArray],
    est: FloatArray,
    reps: FloatArray,
    rep: Replicates,
    alpha: float,
    family_alpha: float,
    completed: npt.NDArray[np.bool_],
    gram: tuple[IntArray, FloatArray] | None = None,
) -> tuple[list[PairwiseDiff], npt.NDArray[np.intp]]:
    """The pairwise table's rows, and each pair's family-wise decision (+1, -1, 0):
    ``pairs`` are the models a and b of each pair and their estimates ka and kb."""
    models_a, models_b, ia, ib = pairs
    if not ia.size:
        return [], np.zeros(0, dtype=np.intp)
    diff_est = est[ia] - est[ib]
    diff_df = rep.diff_df(ia, ib)
    alphas = [alpha, family_alpha]
    levels = interval_levels(alphas)
    q = np.empty((len(levels), ia.size))
    se, cancels = difference_sd(reps, ia, ib, gram=gram)
    # differences of finite replicates hold no NaN: checked once, not per chunk (a
    # NaN or an infinity makes the extremes NaN or infinite)
    no_nan = bool(np.isfinite(reps.min()) and np.isfinite(reps.max()))
    # bounded memory for many models; contiguous per pair: faster percentiles
    for c, diffs in difference_rows(reps.T, ia, ib, PAIR_CHUNK):
        sl = slice(c, c + diffs.shape[0])
        own = cancels[sl]  # few pairs, or models this alike: from the differences
        if own.all():
            se[sl] = replicate_sd(diffs.T)
        elif own.any():
            se[c + np.flatnonzero(own)] = replicate_sd(diffs[own].T)
        q[:, sl] = sample_quantiles(
            diffs.T,
            levels,
            overwrite=True,
            centre=diff_est[sl],
            spread=se[sl],
            no_nan=no_nan,
        )
    (lo, hi), (flo, fhi) = intervals_from_quantiles(
        diff_est, q, diff_df, alphas, se=se, bounds=(-1.0, 1.0)
    )
    family = np.where(flo > 0, 1, np.where(fhi < 0, -1, 0))
    done = completed.astype(np.intp)
    shared = (done.T @ done).tolist()  # tasks each two models both completed
    units = {k: plan.units(k) for k in set(ia.tolist())}
    significant = ((lo > 0) | (hi < 0)).tolist()
    rows = [
        {
            "model_a": d.models[a],
            "model_b": d.models[b],
            "diff_mean": m,
            "ci_lo": low,
            "ci_hi": high,
            "significant": sig,
            "shared_tasks": shared[a][b],
            "shared_units": units[ka],
        }
        for a, b, ka, m, low, high, sig in zip(
            models_a.tolist(),
            models_b.tolist(),
            ia.tolist(),
            diff_est.tolist(),
            lo.tolist(),
            hi.tolist(),
            significant,
            strict=True,
        )
    ]
    return _pairwise_rows().validate_python(rows), family


@functools.cache
def _pairwise_rows() -> TypeAdapter[list[PairwiseDiff]]:
    """Validates all pairs' rows in one call (built on first use)."""
    return TypeAdapter(list[PairwiseDiff])
