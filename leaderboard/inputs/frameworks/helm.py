"""HELM (Stanford CRFM) run output, as ``helm-run`` writes it.

A run folder ``benchmark_output/runs/<suite>/<run name>/`` holds, among others,
``run_spec.json`` (``name``, ``adapter_spec`` with ``model``, ``metric_specs``,
``groups``) and ``per_instance_stats.json``: a list of entries ``{instance_id,
train_trial_index, perturbation?, stats: [{name: {name, split, perturbation?}, count,
mean, ...}]}``. The reader takes ``per_instance_stats.json`` and reads the
``run_spec.json`` beside it (a plain file in the same folder: a link is refused).

Each (instance, train trial) gives one item-level record:

- ``model_id``: ``adapter_spec.model`` (``meta/llama-3-8b``).
- ``task_id``: the run name without its ``model=`` and ``model_deployment=`` args
  (``bbq:subject=all,method=multiple_choice_joint``), so that two models' runs of one
  scenario are one task; ``category``: the run's first group (``bbq``).
- ``item_id``: ``instance_id``; ``sample``: ``train_trial_index`` when the run has
  several train trials.
- The score: HELM names a run group's main metric in the schema of a leaderboard
  release (``environment.main_name``), not in the run folder. The reader takes the
  first of ``exact_match``, ``quasi_exact_match``, ``prefix_exact_match`` and
  ``quasi_prefix_exact_match`` that the run reports (``exact_match`` is the main
  metric of 190 of the 447 run groups in HELM's schemas, the next three of 80 more),
  else the first [0, 1] statistic in file order that is not bookkeeping (token
  counts, runtimes, costs, ``finish_reason_*``): the scenario's own metric, which HELM
  lists first. ``metric`` chooses another statistic.

Left out, with a warning: perturbed instances (an entry with a ``perturbation``: the
robustness and fairness variants of an instance are not further items); statistics of
splits other than ``test`` (or ``valid`` when there is no test split); an instance
without the kept statistic (not a 0). HELM 0.5 writes one entry per metric class for
the same (instance, trial) (the scenario's metric and the basic metrics apart); such
entries are merged, and two different values of one statistic refuse the file.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from leaderboard.errors import InputError
from leaderboard.inputs.frameworks._choice import beside, pick_metric
from leaderboard.inputs.frameworks._common import (
    RunList,
    item_run,
    load_json,
    short,
    unit_number,
)
from leaderboard.inputs.frameworks.metrics import Notes, ReadOptions, check_metric_names
from leaderboard.inputs.records import DEFAULT_CATEGORY, EvalRun

PRIMARY_ORDER = (
    "exact_match",
    "quasi_exact_match",
    "prefix_exact_match",
    "quasi_prefix_exact_match",
)
_BOOKKEEPING = re.compile(
    r"num_.*|.*_tokens|.*_runtime|batch_size|finish_reason_.*|training_.*|.*_cost"
    r"|logprob.*|.*_logprob|max_prob|predicted_index|.*perplexity|bits_per_byte"
)
_FIX_SPEC = (
    "keep the run folder as helm-run wrote it (run_spec.json beside "
    "per_instance_stats.json)"
)
Key = tuple[str, int]


def _spec(path: Path, shown: str) -> tuple[str, str, str]:
    """(model, task, category) from the ``run_spec.json`` beside `path`."""
    spec_path = beside(path, "run_spec.json", shown, _FIX_SPEC)
    spec_shown = str(spec_path)
    spec = load_json(spec_path)
    adapter = spec.get("adapter_spec") if isinstance(spec, dict) else None
    model = adapter.get("model") if isinstance(adapter, dict) else None
    if not isinstance(model, str) or not model:
        raise InputError(
            f"names no model: {short(model)}",
            file=spec_shown,
            field="adapter_spec.model",
            fix=_FIX_SPEC,
        )
    name = spec.get("name")
    if not isinstance(name, str) or not name:
        raise InputError("has no run `name`", file=spec_shown, field="name", fix=_FIX_SPEC)
    scenario, _, args = name.partition(":")
    kept = [
        arg
        for arg in args.split(",")
        if arg and not arg.startswith(("model=", "model_deployment="))
    ]
    task = scenario + (":" + ",".join(kept) if kept else "")
    groups = spec.get("groups")
    first = groups[0] if isinstance(groups, list) and groups else None
    category = first if isinstance(first, str) and first else DEFAULT_CATEGORY
    return model, task, category


def _split_of(entries: list[Any]) -> str:
    splits = {
        stat["name"].get("split")
        for entry in entries
        if isinstance(entry, dict) and isinstance(entry.get("stats"), list)
        for stat in entry["stats"]
        if isinstance(stat, dict) and isinstance(stat.get("name"), dict)
    }
    for split in ("test", "valid"):
        if split in splits or not splits:
            return split
    return sorted(map(str, splits))[0]


def _merged(
    entries: list[Any], shown: str, notes: Notes
) -> tuple[dict[Key, dict[str, Any]], list[str]]:
    """Each (instance, trial)'s statistics of the main split, entries merged."""
    split = _split_of(entries)
    items: dict[Key, dict[str, Any]] = {}
    order: dict[str, None] = {}
    perturbed = 0
    for number, entry in enumerate(entries, 1):
        if not isinstance(entry, dict) or not isinstance(entry.get("stats"), list):
            raise InputError(
                "is not an entry with `stats`", file=shown, record=number, field="stats"
            )
        if entry.get("perturbation"):
            perturbed += 1
            continue
        ident, trial = entry.get("instance_id"), entry.get("train_trial_index", 0)
        if not isinstance(ident, str) or not ident or not isinstance(trial, int):
            raise InputError(
                f"has no usable instance_id / train_trial_index: {short(ident)}",
                file=shown,
                record=number,
                field="instance_id",
            )
        stats = items.setdefault((ident, trial), {})
        for stat in entry["stats"]:
            name = stat.get("name") if isinstance(stat, dict) else None
            if not isinstance(name, dict) or name.get("perturbation"):
                continue
            metric = name.get("name")
            if not isinstance(metric, str) or name.get("split", split) != split:
                continue
            value = stat.get("mean")
            if metric in stats and stats[metric] != value:
                raise InputError(
                    f"instance {ident!r} has two values of {metric!r}: "
                    f"{short(stats[metric], 20)} and {short(value, 20)}",
                    file=shown,
                    record=number,
                    field="stats",
                    fix="give the per_instance_stats.json helm-run wrote, unchanged",
                )
            stats[metric] = value
            order.setdefault(metric, None)
    if perturbed:
        notes.add(
            "perturbed instances left out (robustness/fairness variants)", str(perturbed)
        )
    return items, list(order)


def read_helm(path: Path, options: ReadOptions | None = None) -> list[EvalRun]:
    """Read one ``per_instance_stats.json`` (with its ``run_spec.json``) into records.

    Parameters
    ----------
    path : pathlib.Path
        ``per_instance_stats.json`` in a HELM run folder.
    options : ReadOptions, optional
        ``metrics``: a statistic to keep instead of the main one.

    Returns
    -------
    list of EvalRun
        One record per unperturbed (instance, train trial) that has the statistic.

    Raises
    ------
    InputError
        No ``run_spec.json`` beside it (or a link), no model, two values of one
        statistic, or no statistic the leaderboard can rank.
    """
    options = options or ReadOptions()
    shown = str(path)
    model, task, category = _spec(path, shown)
    data = load_json(path)
    if not isinstance(data, list):
        raise InputError("is not a list of per-instance entries", file=shown, fix=_FIX_SPEC)
    notes = Notes(shown)
    items, order = _merged(data, shown, notes)
    check_metric_names(order, shown, "stats.name.name")
    # One pass over the values (linear in the file): a statistic is rankable when some
    # instance gives it and every value given lies in [0, 1].
    given: set[str] = set()
    unrankable: set[str] = set()
    for stats in items.values():
        for metric, value in stats.items():
            if value is not None:
                given.add(metric)
                if metric not in unrankable and unit_number(value) is None:
                    unrankable.add(metric)
    rankable = [
        metric
        for metric in order
        if not _BOOKKEEPING.fullmatch(metric)
        and metric in given
        and metric not in unrankable
    ]
    if not rankable:
        raise InputError(
            f"reports no per-instance statistic in [0, 1] ({', '.join(order[:8])})",
            file=shown,
            field="stats",
            fix="run the scenario with a metric such as exact_match",
        )
    primary = next((m for m in PRIMARY_ORDER if m in rankable), rankable[0])
    metric = pick_metric(rankable, primary, options, shown, field="stats.name.name")
    for other in rankable:
        if other != metric:
            notes.add(Notes.OTHERS, other)
    several = any(trial for _, trial in items)
    runs = RunList(shown, options.limit)
    missing = 0
    for (ident, trial), stats in items.items():
        score = unit_number(stats.get(metric))
        if score is None:
            missing += 1
            continue
        sample = trial if several else None
        run = item_run(model, task, metric, ident, score, category=category, sample=sample)
        runs.append(run)
    if missing:
        notes.add(f"instances without {metric} left out (not counted as 0)", str(missing))
    notes.warn()
    return runs
