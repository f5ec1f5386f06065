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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from leaderboard.errors import InputError, UsageError
from leaderboard.inputs import EvalRun
from leaderboard.report import BaselineRun, Gate

DEFAULT_LABEL = "baseline"
LABEL_LIMIT = 100
SHOWN = 10  # model ids listed in a message


@dataclass(frozen=True)
class TwoRuns:
    """The joined records and who is gated against whom.

    Attributes
    ----------
    runs : list of EvalRun
        The run's records, then the baseline run's with renamed model ids.
    pairs : list of (str, str)
        ``(model_id, "<model_id> @ <label>")`` for each model id in both runs, sorted.
    ungated : list of str
        Leaderboard ids of the models present in one run only, sorted.
    """

    runs: list[EvalRun]
    pairs: list[tuple[str, str]]
    ungated: list[str]


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


def join_runs(
    runs: Sequence[EvalRun],
    baseline_runs: Sequence[EvalRun],
    label: str,
    candidates: Sequence[str] | None,
) -> TwoRuns:
    """Rename the baseline run's models, check both runs agree, and pair the models.

    Raises
    ------
    UsageError
        A model id of the run equals a renamed baseline id; a candidate absent from
        either run; no baseline records.
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
    shared = sorted(set(models) & set(base_models))
    if candidates is not None and len(candidates) > 0:
        if isinstance(candidates, str):
            candidates = [candidates]
        for c in candidates:
            if c not in models or c not in renamed:
                where = "the results" if c not in models else f"the baseline run {label!r}"
                raise UsageError(
                    f"candidate {c!r} is not in {where}; a candidate must be a model id "
                    f"of both runs: {_listed(shared)}"
                )
        chosen = sorted(set(candidates))
    else:
        chosen = shared
    ungated = sorted(
        [m for m in models if m not in renamed]
        + [renamed[m] for m in base_models if m not in set(models)]
    )
    joined = list(runs) + [
        dataclasses.replace(r, model_id=renamed[r.model_id]) for r in baseline_runs
    ]
    return TwoRuns(joined, [(m, renamed[m]) for m in chosen], ungated)


def label_of(baseline_run: BaselineRun | None) -> str:
    """The baseline run's label, checked; `DEFAULT_LABEL` without a description."""
    return DEFAULT_LABEL if baseline_run is None else check_label(baseline_run.label)


def two_runs(
    runs: list[EvalRun],
    baseline: str | None,
    candidates: Sequence[str] | None,
    baseline_runs: Iterable[EvalRun] | None,
    baseline_run: BaselineRun | None,
) -> TwoRuns | None:
    """The joined runs of a two-run report; None when `baseline_runs` is not given."""
    if baseline_runs is None:
        if baseline_run is not None:
            raise UsageError(
                "`baseline_run` describes `baseline_runs`; give the baseline run's "
                "records as `baseline_runs` too"
            )
        return None
    if baseline is not None:
        raise UsageError(
            "`baseline` and `baseline_runs` exclude each other: use `baseline_runs` to "
            "gate each model against its own row of a second run, or `baseline` to gate "
            "the models of one run against one of them"
        )
    if baseline_run is not None and not isinstance(baseline_run, BaselineRun):
        raise UsageError(
            f"`baseline_run` must be a BaselineRun, got {type(baseline_run).__name__}"
        )
    return join_runs(runs, list(baseline_runs), label_of(baseline_run), candidates)


def two_run_gate(gate: Gate, two: TwoRuns, baseline_run: BaselineRun | None) -> Gate:
    """The gate of a two-run report: its baseline run, ungated models, and its status."""
    described = baseline_run or BaselineRun(label=DEFAULT_LABEL, source="results")
    update: dict[str, object] = {
        "baseline": described.label,
        "baseline_run": described,
        "ungated": two.ungated,
    }
    if not two.pairs:
        update["status"] = "undetermined"
        update["note"] = (
            f"no model id is in both runs, so nothing was gated against the baseline "
            f"run {described.label!r}; give both runs the same model ids"
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
