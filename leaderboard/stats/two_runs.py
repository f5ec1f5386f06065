"""Two runs in one report: the pull request's run and a baseline run of the same models.

In everyday CI both runs evaluate the same model ids; what changed is the prompt, the
solver or the weights behind the name. The baseline run's records are renamed
``"<model_id> @ <label>"`` and joined to the run's records, so each model id present in
both runs becomes a pair of leaderboard rows, gated like any candidate and baseline:
paired on the tasks and items both runs hold, from the same replicates as the rest of
the report. Models present in only one run keep their rows and are named as ungated.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from leaderboard.errors import InputError, UsageError, did_you_mean
from leaderboard.inputs import EvalRun
from leaderboard.report import BaselineRun, Gate, ModelChange

DEFAULT_LABEL = "baseline"
LABEL_LIMIT = 100
SHOWN = 10  # model ids listed in a message
BASELINE_MAP = "baseline map"  # the setting's neutral name; each shell names its option


@dataclass(frozen=True)
class TwoRuns:
    """The joined records and who is gated against whom.

    Attributes
    ----------
    runs : list of EvalRun
        The run's records, then the baseline run's with renamed model ids (less the
        tasks whose metric differs between the runs).
    pairs : list of (str, str)
        ``(model_id, "<old_id> @ <label>")`` for each gated model, sorted: its own id
        in both runs, a renamed model of `model_changes`.
    ungated : list of str
        Leaderboard ids of the models present in one run only, sorted.
    model_changes : list of ModelChange
        Pairs whose ids differ (the only model of each run, or the baseline map).
    differences : list of str
        What differs between the runs, one sentence each (metric, epochs, items).
    left_out_tasks : list of str
        Tasks not compared: scored by different metrics in the two runs.
    baseline_models : frozenset of str
        Leaderboard ids of the baseline run's rows.
    """

    runs: list[EvalRun]
    pairs: list[tuple[str, str]]
    ungated: list[str]
    model_changes: list[ModelChange] = dataclasses.field(default_factory=list)
    differences: list[str] = dataclasses.field(default_factory=list)
    left_out_tasks: list[str] = dataclasses.field(default_factory=list)
    baseline_models: frozenset[str] = frozenset()


def baseline_id(model_id: str, label: str) -> str:
    """The leaderboard id of `model_id`'s row in the baseline run called `label`."""
    return f"{model_id} @ {label}"


def check_label(label: object) -> str:
    """Return `label` if it can name a baseline run, else raise `UsageError`."""
    if not isinstance(label, str):
        raise UsageError(f"`baseline_run.label` must be a string, got {label!r}")
    if not label.strip() or label != label.strip():
        raise UsageError(
            f"the baseline run's label must be non-blank text without spaces at its "
            f"ends, got {label!r} (e.g. `main` or `main 1a2b3c4`)"
        )
    if len(label) > LABEL_LIMIT or not label.isprintable():
        raise UsageError(
            f"the baseline run's label must be at most {LABEL_LIMIT} printable "
            f"characters on one line, got {label[:LABEL_LIMIT]!r}"
        )
    return label


def _listed(models: Sequence[str]) -> str:
    shown = ", ".join(repr(m) for m in models[:SHOWN])
    return shown + (", ..." if len(models) > SHOWN else "") if models else "(none)"


def parse_baseline_map(
    pairs: Iterable[str] | Mapping[str, str] | None, option: str = BASELINE_MAP
) -> dict[str, str]:
    """``NEW=OLD`` texts (or a mapping) as ``{NEW: OLD}``; `UsageError` names `option`
    (the setting as the caller's shell names it)."""
    if pairs is None:
        return {}
    if isinstance(pairs, Mapping):
        items = list(pairs.items())
    else:
        if isinstance(pairs, str):
            pairs = [pairs]
        items = []
        for text in pairs:
            new, sep, old = str(text).partition("=")
            if not sep or not new.strip() or not old.strip():
                raise UsageError(
                    f"{option}: expected NEW=OLD (the model id in the results, then "
                    f"its id in the baseline run), got {text!r}"
                )
            items.append((new.strip(), old.strip()))
    out: dict[str, str] = {}
    for new, old in items:
        if not isinstance(new, str) or not isinstance(old, str):
            raise UsageError(f"{option}: model ids must be strings, got {new!r}={old!r}")
        if new in out and out[new] != old:
            raise UsageError(
                f"{option}: model {new!r} is mapped twice ({out[new]!r} and {old!r}); "
                "give each model of the results one baseline"
            )
        out[new] = old
    return out


def _pairs(
    models: list[str],
    base_models: list[str],
    label: str,
    mapping: Mapping[str, str],
) -> tuple[dict[str, str], list[ModelChange]]:
    """``{candidate: old id}`` for every model that can be gated, and the renames."""
    for new, old in mapping.items():
        if new not in models:
            raise UsageError(
                f"{BASELINE_MAP} {new}={old}: model {new!r} is not in the results"
                f"{did_you_mean(new, models)}; the results hold: {_listed(models)}",
                subject=BASELINE_MAP,
            )
        if old not in base_models:
            raise UsageError(
                f"{BASELINE_MAP} {new}={old}: model {old!r} is not in the baseline run "
                f"{label!r}{did_you_mean(old, base_models)}; it holds: "
                f"{_listed(base_models)}",
                subject=BASELINE_MAP,
            )
    paired = {m: m for m in models if m in set(base_models) and m not in mapping}
    paired.update(mapping)
    changes = [
        ModelChange(candidate=new, baseline_model=old, how="baseline_map")
        for new, old in sorted(mapping.items())
        if new != old
    ]
    if (
        not mapping
        and len(models) == 1
        and len(base_models) == 1
        and models[0] != base_models[0]
    ):
        paired = {models[0]: base_models[0]}
        changes = [
            ModelChange(
                candidate=models[0], baseline_model=base_models[0], how="only_model"
            )
        ]
    return paired, changes


def join_runs(
    runs: Sequence[EvalRun],
    baseline_runs: Sequence[EvalRun],
    label: str,
    candidates: Sequence[str] | None,
    baseline_map: Mapping[str, str] | None = None,
) -> TwoRuns:
    """Rename the baseline run's models, check both runs agree, and pair the models.

    A model id of the results is paired with the same id of the baseline run; with
    `baseline_map` ``{NEW: OLD}``, NEW with OLD; when each run holds exactly one model
    id and they differ, those two. A task whose metric differs between the runs is
    left out of the baseline run's records (so it is not compared) and named.

    Raises
    ------
    UsageError
        A model id of the run equals a renamed baseline id; a candidate absent from
        either run; a `baseline_map` id its run lacks; no baseline records.
    InputError
        The runs disagree on what a task is: item-level against task-level records, or
        a task's category or weight.
    """
    if not baseline_runs:
        raise UsageError("`baseline_runs` holds no records; give the baseline run's files")
    models = sorted({r.model_id for r in runs})
    base_models = sorted({r.model_id for r in baseline_runs})
    renamed = {m: baseline_id(m, label) for m in base_models}
    clash = sorted(set(models) & set(renamed.values()))
    if clash:
        original = clash[0].removesuffix(f" @ {label}")
        raise UsageError(
            f"model id {clash[0]!r} of the results is also the name of model "
            f"{original!r} of the baseline run labelled {label!r}; choose another "
            "baseline label"
        )
    check_agree(runs, baseline_runs, label)
    paired, changes = _pairs(models, base_models, label, dict(baseline_map or {}))
    if candidates is not None and len(candidates) > 0:
        if isinstance(candidates, str):
            candidates = [candidates]
        for c in candidates:
            if c not in paired:
                where = "the results" if c not in models else f"the baseline run {label!r}"
                raise UsageError(
                    f"candidate {c!r} is not in {where}; a candidate must be a model id "
                    f"of both runs (or paired in the baseline map, NEW=OLD): "
                    f"{_listed(sorted(paired))}"
                )
        chosen = sorted(set(candidates))
    else:
        chosen = sorted(paired)
    changes = [c for c in changes if c.candidate in chosen]
    used = set(paired.values())  # in one run only: paired with nothing
    ungated = sorted(
        [m for m in models if m not in paired]
        + [renamed[m] for m in base_models if m not in used]
    )
    left_out, differences = _differences(runs, baseline_runs, label, chosen, paired)
    kept = [r for r in baseline_runs if r.task_id not in set(left_out)]
    joined = list(runs) + [
        dataclasses.replace(r, model_id=renamed[r.model_id]) for r in kept
    ]
    remaining = {r.model_id for r in kept}
    return TwoRuns(
        joined,
        [(m, renamed[paired[m]]) for m in chosen if paired[m] in remaining],
        ungated,
        model_changes=changes,
        differences=differences,
        left_out_tasks=left_out,
        baseline_models=frozenset(renamed.values()),
    )


@dataclass
class _Held:
    """What one run holds, in one pass: each task's metrics, each (model, task,
    item)'s number of samples for the gated models, and those models' units."""

    metrics: dict[str, set[str]] = dataclasses.field(default_factory=dict)
    samples: dict[tuple[str, str, object], int] = dataclasses.field(default_factory=dict)


def _held(runs: Iterable[EvalRun], models: set[str]) -> _Held:
    held = _Held()
    metrics, samples = held.metrics, held.samples
    for r in runs:
        if r.metric_name is not None:
            metrics.setdefault(r.task_id, set()).add(r.metric_name)
        if r.model_id in models:
            key = (r.model_id, r.task_id, r.item_id)
            samples[key] = samples.get(key, 0) + 1
    return held


def _per_task(held: _Held, skip: set[str]) -> dict[str, list[int]]:
    """Per task outside `skip`, the sample counts of its items (item-level runs)."""
    out: dict[str, list[int]] = {}
    for (_, task, item), n in held.samples.items():
        if item is not None and task not in skip:
            out.setdefault(task, []).append(n)
    return out


def _units(held: _Held, skip: set[str]) -> dict[str, set[tuple[str, object]]]:
    """Per gated model, its (task, item) units outside the tasks in `skip`."""
    out: dict[str, set[tuple[str, object]]] = {}
    for m, t, i in held.samples:
        if t not in skip:
            out.setdefault(m, set()).add((t, i))
    return out


#: What repeating an item is called where the records come from (each in its own words).
REPEATS = "repeats: Inspect's epochs, promptfoo's repeat count, the records' sample field"


def _times(counts: Iterable[int]) -> str:
    low, high = min(counts), max(counts)
    return f"{low} time{'s' * (high != 1)}" if low == high else f"{low} to {high} times"


def _differences(
    runs: Sequence[EvalRun],
    base: Sequence[EvalRun],
    label: str,
    chosen: list[str],
    paired: Mapping[str, str],
) -> tuple[list[str], list[str]]:
    """Tasks left out (their metric differs) and a sentence for each difference."""
    run_models = set(chosen)
    base_models = {paired[c] for c in chosen}
    here, there = _held(runs, run_models), _held(base, base_models)
    in_run, in_base = here.metrics, there.metrics
    left_out = sorted(t for t in set(in_run) & set(in_base) if in_run[t] != in_base[t])
    out = [
        f"task {t!r} is scored by {', '.join(sorted(in_run[t]))} in the results and by "
        f"{', '.join(sorted(in_base[t]))} in the baseline run {label!r}: it is left out "
        "of the comparison (a different metric measures something else)"
        for t in left_out
    ]
    skip = set(left_out)
    a, b = _per_task(here, skip), _per_task(there, skip)
    for t in sorted(set(a) & set(b)):
        ca, cb = a[t], b[t]
        if (min(ca), max(ca)) != (min(cb), max(cb)):
            out.append(
                f"task {t!r} is run {_times(ca)} per item ({REPEATS}) "
                f"in the results and {_times(cb)} in the baseline run {label!r}: each "
                "item is compared on the mean of its own samples"
            )
    item_level = any(r.item_id is not None for r in runs)
    what = "items" if item_level else "tasks"
    held_a, held_b = _units(here, skip), _units(there, skip)
    for c in chosen:
        old = paired[c]
        units_a, units_b = held_a.get(c, set()), held_b.get(old, set())
        if units_a != units_b:
            shared = len(units_a & units_b)
            name = c if c == old else f"{c} (results) and {old} (baseline run)"
            out.append(
                f"{name}: compared on the {shared} {what if shared != 1 else what[:-1]} "
                "both runs hold; the results "
                f"hold {len(units_a)}, the baseline run {label!r} {len(units_b)}"
                + ("" if not skip else " (not counting the tasks left out)")
            )
    return left_out, out


def label_of(baseline_run: BaselineRun | None) -> str:
    """The baseline run's label, checked; `DEFAULT_LABEL` without a description."""
    return DEFAULT_LABEL if baseline_run is None else check_label(baseline_run.label)


def two_runs(
    runs: list[EvalRun],
    baseline: str | None,
    candidates: Sequence[str] | None,
    baseline_runs: Iterable[EvalRun] | None,
    baseline_run: BaselineRun | None,
    *,
    baseline_map: Mapping[str, str] | None = None,
) -> TwoRuns | None:
    """The joined runs of a two-run report; None when `baseline_runs` is not given.

    The arguments are a checked `leaderboard.stats.request.Request`'s: which of them
    exclude each other was settled when it was made.
    """
    if baseline_runs is None:
        return None
    return join_runs(
        runs, list(baseline_runs), label_of(baseline_run), candidates, baseline_map
    )


def two_run_gate(gate: Gate, two: TwoRuns, baseline_run: BaselineRun | None) -> Gate:
    """The gate of a two-run report: its baseline run, ungated models, and its status."""
    described = baseline_run or BaselineRun(label=DEFAULT_LABEL, source="results")
    update: dict[str, object] = {
        "baseline": described.label,
        "baseline_run": described,
        "ungated": two.ungated,
        "model_changes": two.model_changes,
        "differences": two.differences,
        "left_out_tasks": two.left_out_tasks,
    }
    if not two.pairs and two.left_out_tasks:
        left = ", ".join(repr(t) for t in two.left_out_tasks[:SHOWN])
        update["status"] = "undetermined"
        update["note"] = (
            f"the two runs share nothing comparable: every task is scored by another "
            f"metric in the baseline run {described.label!r} ({left}), so nothing was "
            "gated; score both runs with the same metric"
        )
    elif not two.pairs:
        update["status"] = "undetermined"
        update["note"] = (
            f"no model id is in both runs, so nothing was gated against the baseline "
            f"run {described.label!r}; give both runs the same model ids, or pair a "
            "renamed model with the baseline map (NEW=OLD: the id in the results, "
            "then its id in the baseline run)"
        )
    return gate.model_copy(update=update)


def check_agree(runs: Sequence[EvalRun], base: Sequence[EvalRun], label: str) -> None:
    """Refuse two runs that disagree on what a task is, naming the task and the fix."""
    run_items = {r.item_id is not None for r in runs}
    base_items = {r.item_id is not None for r in base}
    if len(run_items) == 1 and len(base_items) == 1 and run_items != base_items:
        level = {True: "item-level (with item_id)", False: "task-level (no item_id)"}
        raise InputError(
            f"the results are {level[run_items.pop()]} but the baseline run {label!r} "
            f"is {level[base_items.pop()]}",
            field="item_id",
            fix="give both runs at the same level, e.g. item-level records from the "
            "same eval runner",
        )
    tasks: dict[str, EvalRun] = {}
    for r in runs:
        tasks.setdefault(r.task_id, r)
    for r in base:
        first = tasks.get(r.task_id)
        if first is None:
            continue
        for field in ("category", "weight"):
            a, b = getattr(first, field), getattr(r, field)
            if a != b:
                raise InputError(
                    f"task {r.task_id!r} has {field} {a!r} in the results and {b!r} "
                    f"in the baseline run {label!r}",
                    field=field,
                    fix=f"give a task the same {field} in both runs, or rename the task "
                    "if it changed",
                )


def check_missing(
    missing: str | None, baseline: str | None, baseline_runs: object | None
) -> None:
    """A missing baseline run excludes a baseline model and a given baseline run.

    Raises
    ------
    UsageError
        `missing` is given with `baseline` or `baseline_runs`, or is not a text.
    """
    if missing is None:
        return
    if not isinstance(missing, str) or not missing.strip():
        raise UsageError(
            "`baseline_missing` must be a non-empty text saying why no baseline run "
            f"could be read, got {missing!r}"
        )
    if baseline is not None or baseline_runs is not None:
        raise UsageError(
            "`baseline_missing` says no baseline run could be read; it cannot be given "
            "with `baseline` or `baseline_runs`"
        )


def no_baseline_run(gate: Gate, note: str) -> Gate:
    """The gate when a baseline run was asked for and none could be read.

    Status ``no_baseline_run`` with `note`, validated like every other state: nothing
    is gated (no comparison), and it never counts as a pass.
    """
    return Gate.model_validate(
        {
            **gate.model_dump(),
            "regressed": False,
            "comparisons": [],
            "status": "no_baseline_run",
            "note": note,
        }
    )
