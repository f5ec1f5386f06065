"""SWE-bench evaluation reports: the harness's run report and its per-instance reports.

- Run report, ``<model>.<run_id>.json`` (``python -m swebench.harness.run_evaluation``
  writes it in the working folder; ``<model>`` is ``model_name_or_path`` with ``/`` as
  ``__``): counts (``total_instances``, ``submitted_instances``, ...) and id lists
  ``resolved_ids``, ``unresolved_ids``, ``error_ids``, ``completed_ids`` (2.0), plus
  ``empty_patch_ids``, ``submitted_ids``, ``incomplete_ids`` and ``schema_version`` 2
  (2.0.x to 4.x), plus ``infra_failure_ids`` and ``ambiguous_failure_ids`` (5.x, a
  subset of the unresolved and errored ones). Multi-SWE-bench's ``final_report.json``
  has the same lists (and ``incomplete_instances``); its leaderboard's
  ``results/results.json`` lists the resolved ids under ``resolved`` and empty and
  errored patches together (``empty_error_patch_ids``); sb-cli's
  ``<subset>__<split>__<run_id>.json`` adds ``pending_ids`` and ``failed_ids`` (runs
  its hosted evaluator did not finish).
- Per-instance ``report.json`` (``logs/run_evaluation/<run_id>/<model>/<instance>/``):
  ``{"<instance_id>": {"patch_is_None", "patch_exists", "patch_successfully_applied",
  "resolved", "tests_status"}}``; SWE-bench's published logs
  (``logs/<instance>/report.json``) hold the inner object alone.

One item-level record per instance, ``metric_name`` ``resolved``: resolved 1; unresolved
and empty patch 0. Errored instances (``error_ids``: the harness could not evaluate the
patch) are no failed patch and no 0: each is an errored record (attempted, not scored),
which the gate counts in its ``completion`` comparison and never in the score; a
warning counts them. sb-cli's failed and pending ones, merged empty-or-errored ones and
those submitted but outside the run's instances are left out and counted in a
warning. Every run report also gets a note of its denominator: the instances scored
here against those submitted and those the run covered (``total_instances``: the
dataset, or the ``--instance_ids`` chosen), which differ when a run was filtered, with
SWE-bench's own resolved rate over ``total_instances``.

- ``model_id``: the run report's file name before its last ``.<run_id>.json`` (so a
  model with dots, ``gpt-4.1``, keeps them; a run id with dots would not); the folder
  above the instance folder for a ``report.json``; else the ``model-id`` setting, else
  ``agent``. The harness writes ``/`` as ``__`` in those names; it is given back
  (``acme__agent.run1.json`` is ``acme/agent``).
- ``task_id``: ``swe-bench`` (``multi-swe-bench`` for Multi-SWE-bench ids, the subset,
  e.g. ``swe-bench_verified``, for an sb-cli report).
- ``item_id``: the instance id; ``category`` ``general``: a category belongs to a task
  here, and the repository (``django__django-11099`` is ``django/django``) is in the id.
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path
from typing import Any

from leaderboard.errors import InputError
from leaderboard.inputs import reading
from leaderboard.inputs.frameworks._common import (
    FormatWarning,
    check_room,
    counted,
    errored_run,
    item_run,
)
from leaderboard.inputs.frameworks._object_arrays import load_object_of_arrays
from leaderboard.inputs.frameworks.metrics import ReadOptions
from leaderboard.inputs.records import EvalRun

DEFAULT_MODEL = "agent"
TASK = "swe-bench"
METRIC = "resolved"
_MULTI_ID = re.compile(r"[^/\s]+/[^/\s]+:pr-\d+")
FIX_RUN = (
    "give the run report swebench.harness.run_evaluation wrote "
    "(<model>.<run_id>.json) or a logs/run_evaluation/.../report.json"
)


def _ids(report: dict[str, Any], key: str, shown: str) -> list[str]:
    value = report.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InputError(
            f"`{key}` is not a list of instance ids", file=shown, field=key, fix=FIX_RUN
        )
    return list(value)


def _model_from_name(path: Path, default: str) -> str:
    name = path.name
    for suffix in (".gz", ".json"):
        name = name.removesuffix(suffix)
    model, dot, _ = name.rpartition(".")
    return _as_harness_had_it(model) if dot and model else default


def _as_harness_had_it(name: str) -> str:
    """The model id the harness was given: it names files and folders after
    ``model_name_or_path.replace("/", "__")`` (``acme/agent`` -> ``acme__agent``)."""
    return name.replace("__", "/")


def read_swebench(path: Path, options: ReadOptions | None = None) -> list[EvalRun]:
    """Read one SWE-bench run report or per-instance ``report.json`` into records.

    Parameters
    ----------
    path : pathlib.Path
        The report.
    options : ReadOptions, optional
        ``metrics``: only ``resolved`` exists.

    Returns
    -------
    list of EvalRun
        One record per scored instance.

    Raises
    ------
    InputError
        Not a SWE-bench report, an id listed as both resolved and unresolved, a
        `metric` other than ``resolved``, or no instance left with a score.
    """
    options = options or ReadOptions()
    shown = str(path)
    if options.metrics and METRIC not in options.metrics:
        raise InputError(
            f"holds no metric named {', '.join(map(repr, options.metrics))}; it holds "
            f"{METRIC}",
            file=shown,
            field="metric",
            fix="leave `metric` (--metric) empty or set it to resolved",
        )
    data = load_object_of_arrays(path, _IdBudget(shown, options.limit))
    if not isinstance(data, dict):
        raise InputError(
            "is not a SWE-bench report (not an object)", file=shown, fix=FIX_RUN
        )
    default = options.model_id or DEFAULT_MODEL
    if "resolved_ids" not in data and "resolved_instances" not in data:
        return _read_instances(path, data, shown, default)
    return _read_run(path, data, shown, default, options.limit)


#: The lists whose ids become records: they share the run's room (`ReadOptions.limit`).
_SCORED = frozenset({"resolved_ids", "resolved", "unresolved_ids", "empty_patch_ids"})
#: Ids in all of a report's lists together. A real report names each instance in a
#: few lists (submitted, completed, resolved or not); this is twice the run's cap.
MAX_LISTED = 2 * reading.MAX_RECORDS


class _IdBudget:
    """A run report's id lists counted as they are parsed (`load_object_of_arrays`):
    the scored ones stop at the run's room, all of them at `MAX_LISTED`."""

    def __init__(self, shown: str, limit: int) -> None:
        self.shown, self.scored_room, self.listed_room = shown, limit, MAX_LISTED

    def room(self, key: str) -> int:
        if key in _SCORED:
            return min(self.scored_room, self.listed_room)
        return self.listed_room

    def spend(self, key: str, count: int) -> None:
        if key in _SCORED:
            self.scored_room -= count
        self.listed_room -= count

    def refuse(self, key: str) -> InputError:
        if key in _SCORED and self.scored_room <= self.listed_room:
            return reading.too_many_records(self.shown)
        return InputError(
            f"lists more than {MAX_LISTED:,} instance ids in all (`{key}` the last), "
            "more than any run report holds",
            file=self.shown,
            field=key,
            fix=FIX_RUN,
        )


def _read_instances(
    path: Path, data: dict[str, Any], shown: str, default: str
) -> list[EvalRun]:
    if isinstance(data.get("resolved"), bool) and "patch_is_None" in data:
        # No instance id around the entry: it is the name of the folder it is in.
        instance = path.parent.name
        if not instance:
            raise InputError(
                "holds one instance's outcome but no instance id",
                file=shown,
                fix="keep the report at logs/<instance_id>/report.json",
            )
        return [_record(default, _task(instance), instance, data["resolved"])]
    runs = []
    for instance, entry in data.items():
        if not isinstance(entry, dict) or not isinstance(entry.get("resolved"), bool):
            raise InputError(
                f"instance {instance!r} has no boolean `resolved`",
                file=shown,
                field="resolved",
                fix=FIX_RUN,
            )
        parent = path.parent
        folder = parent.parent.name if parent.name == instance else ""
        model = _as_harness_had_it(folder) if folder else ""
        model = model or default
        runs.append(_record(model, _task(instance), instance, entry["resolved"]))
    if not runs:
        raise InputError("holds no instances", file=shown, fix=FIX_RUN)
    return runs


def _task(instance: str) -> str:
    return "multi-swe-bench" if _MULTI_ID.fullmatch(instance) else TASK


def _record(model: str, task: str, instance: str, resolved: bool) -> EvalRun:
    return item_run(model, task, METRIC, instance, float(resolved))


def _read_run(
    path: Path, data: dict[str, Any], shown: str, default: str, limit: int
) -> list[EvalRun]:
    # Multi-SWE-bench's leaderboard results.json (and forks of the harness) list the
    # resolved ids under `resolved`, and empty and errored patches together.
    key = "resolved" if "resolved_ids" not in data and "resolved" in data else ""
    key = key or "resolved_ids"
    if key not in data:
        raise InputError(
            "holds counts only, no instance ids (`resolved_ids`)",
            file=shown,
            field="resolved_ids",
            fix="give the full run report: the per-instance outcomes are what the "
            "leaderboard resamples",
        )
    resolved = _ids(data, key, shown)
    failed = _ids(data, "unresolved_ids", shown) + _ids(data, "empty_patch_ids", shown)
    check_room(len(resolved) + len(failed), limit, shown)  # before any set is built
    both = sorted(set(resolved) & set(failed))
    if both:
        raise InputError(
            f"instance {both[0]!r} is listed as resolved and as unresolved",
            file=shown,
            field=key,
            fix=FIX_RUN,
        )
    scored = set(resolved) | set(failed)
    left_out = {
        what: set(_ids(data, field, shown)) - scored for field, what in _LEFT_OUT.items()
    }
    seen = set().union(*left_out.values())
    pending = set(_ids(data, "submitted_ids", shown)) - scored - seen
    incomplete = set(_ids(data, "incomplete_ids", shown)) - scored - seen
    model, task = _model_from_name(path, default), TASK
    if "pending_instances" in data:  # sb-cli: <subset>__<split>__<run_id>.json
        model = default
        subset = path.name.split("__")[0]
        task = subset if subset and not subset.endswith(".json") else TASK
    elif any(_MULTI_ID.fullmatch(i) for i in (*resolved, *failed, *seen)):
        task = "multi-swe-bench"
    runs = [_record(model, task, i, True) for i in sorted(set(resolved))]
    runs += [_record(model, task, i, False) for i in sorted(set(failed))]
    n_scored = len(runs)
    if not runs:
        counts = ", ".join(
            f"{len(ids)} {what.split(' (')[0]}" for what, ids in left_out.items() if ids
        )
        raise InputError(
            "scores no instance (no resolved, unresolved or empty-patch ids"
            + (f"; {counts}" if counts else "")
            + ")",
            file=shown,
            field=key,
            fix="check that the harness evaluated the predictions (errored instances "
            "are not counted as unresolved)",
        )
    errored = left_out.pop(_LEFT_OUT["error_ids"])
    runs += [
        errored_run(model, task, METRIC, i, "errored in the SWE-bench harness")
        for i in sorted(errored)
    ]
    _warn_run(
        shown,
        data,
        scored=n_scored,
        resolved=len(set(resolved)),
        left_out={**left_out, _PENDING: pending},
        incomplete=incomplete,
        errored=len(errored),
    )
    return runs


#: Lists of instances that are neither resolved nor failed patches, with what a
#: warning calls them: left out, not scored 0.
_LEFT_OUT = {
    "error_ids": "errored in the harness (not a failed patch)",
    "failed_ids": "failed to evaluate (sb-cli's failed runs, not a failed patch)",
    "pending_ids": "still pending in sb-cli",
    "empty_error_patch_ids": (
        "with an empty or errored patch (the report does not say which)"
    ),
}
_PENDING = (
    "submitted but not evaluated in this run (outside its instances, `total_instances`)"
)


def _listed(ids: set[str]) -> str:
    shown = sorted(ids)
    return ", ".join(shown[:3]) + (", ..." if len(shown) > 3 else "")


def _warn_run(
    shown: str,
    data: dict[str, Any],
    *,
    scored: int,
    resolved: int,
    left_out: dict[str, set[str]],
    incomplete: set[str],
    errored: int = 0,
) -> None:
    if errored:
        warnings.warn(
            f"{shown}: {counted(errored, 'instance')} errored in the harness (not a "
            "failed patch): attempted, not scored; the score compares only instances "
            "scored in both runs, and the completion comparison counts these",
            FormatWarning,
            stacklevel=4,
        )
    for what, ids in left_out.items():
        if ids:
            warnings.warn(
                f"{shown}: {counted(len(ids), 'instance')} left out, {what}: "
                f"{_listed(ids)}",
                FormatWarning,
                stacklevel=4,
            )
    total = data.get("total_instances")
    submitted = data.get("submitted_instances", len(data.get("submitted_ids", [])))
    text = f"{shown}: {counted(scored, 'instance')} scored ({resolved} resolved)"
    if isinstance(submitted, int) and not isinstance(submitted, bool):
        text += f" of {submitted} submitted"
    if isinstance(total, int) and not isinstance(total, bool) and total > 0:
        text += (
            f" and {total} in the run's instances (`total_instances`); SWE-bench's own "
            f"rate over those is {resolved}/{total} = {resolved / total:.1%}"
        )
    if incomplete:
        were = "was" if len(incomplete) == 1 else "were"
        text += f"; {counted(len(incomplete), 'instance')} {were} not run (incomplete)"
    warnings.warn(text, FormatWarning, stacklevel=4)
