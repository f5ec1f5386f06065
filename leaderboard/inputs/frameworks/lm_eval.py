"""lm-evaluation-harness (EleutherAI) output, as ``lm_eval --output_path`` writes it.

- ``results_<date>.json`` (or ``<stem>_<date>.json`` when ``--output_path`` names a
  ``.json`` file): ``results`` maps each task (and group) to ``"<metric>,<filter>"``
  values (lm-eval 0.3: bare ``"<metric>"`` keys) and their stderrs; ``group_subtasks``
  and ``groups`` name the groups, ``higher_is_better`` and ``configs`` describe each
  metric, ``n-samples`` counts each task's documents, and ``model_name`` (or
  ``config.model_args``, or ``config.model``) names the model. It gives task-level
  records.
- ``samples_<task>_<date>.jsonl`` (with ``--log_samples``; ``.json`` arrays in early
  0.4 releases) beside its results file: item-level records, read by
  `leaderboard.inputs.frameworks.lm_eval_samples`.

One score per task (`leaderboard.inputs.frameworks.metrics`): the first rankable
``(metric, filter)`` the harness wrote for the task (its ``metric_list`` order, first
filter first), unless the user prefers another. Lower-is-better metrics are never
kept. Known scales are mapped onto [0, 1] (``mcc`` from [-1, 1], sacrebleu's 0-100
scores / 100); a value of no known scale outside [0, 1] leaves its task out with a
warning. Everything changed or left out is told once per file as a `FormatWarning`.

The task's other rankable metrics are kept beside the score as the record's secondary
``metrics`` (`Results.secondaries`), which guardrails gate: ``acc_norm`` beside
``acc``, a metric under another filter by its key (``exact_match,flexible-extract``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from leaderboard.errors import InputError
from leaderboard.inputs.frameworks._common import (
    RunList,
    count,
    finite_number,
    load_json,
    read_head,
    short,
)
from leaderboard.inputs.frameworks.metrics import (
    LOWER_IS_BETTER,
    Notes,
    ReadOptions,
    choose,
    compact,
    known_range,
    matches,
    refuse_unmatched,
    to_unit,
)
from leaderboard.inputs.frameworks.sniffing import SAMPLES_HEAD, UTF8_BOM
from leaderboard.inputs.records import DEFAULT_CATEGORY, EvalRun

# The keys `GeneralConfigTracker._get_model_name` looks for in `model_args`, in order.
MODEL_ARG_KEYS = ("peft", "delta", "pretrained", "model", "path", "engine")
SAMPLES_NAME = re.compile(r"samples_(?P<task>.+)_(?P<date>[^_]+)\.jsonl?(?:\.gz)?")
FIX_SAMPLES = "keep the results_<date>.json that lm_eval wrote beside it"


def is_samples(path: Path) -> bool:
    """Whether `path` is a samples file (by its name or its first bytes)."""
    if SAMPLES_NAME.fullmatch(path.name):
        return True
    return SAMPLES_HEAD.match(read_head(path, 4096).removeprefix(UTF8_BOM)) is not None


def read_results(path: Path, options: ReadOptions) -> list[EvalRun]:
    """Read one results file into task-level records, one per task.

    Parameters
    ----------
    path : pathlib.Path
        A ``results_*.json`` file.
    options : ReadOptions
        Preferred metrics and task weighting.

    Returns
    -------
    list of EvalRun

    Raises
    ------
    InputError
        The model cannot be told, or the file gives no score the leaderboard can rank.
    """
    return _read_results(path, load_json(path), options)


class Results:
    """What a results file says about its run, and the task-score rules over it."""

    def __init__(self, data: Any, shown: str) -> None:
        if not isinstance(data, dict) or not isinstance(data.get("results"), dict):
            raise InputError(
                "has no `results` object", file=shown, field="results", fix=FIX_SAMPLES
            )
        self.shown = shown
        self.results: dict[str, Any] = data["results"]
        # lm-eval 0.3 keyed metrics without a filter ("acc"); 0.4 always "acc,none".
        self.v03 = not any(
            "," in key
            for entry in self.results.values()
            if isinstance(entry, dict)
            for key in entry
        )
        self.model = model_name(data, shown)
        subtasks = data.get("group_subtasks")
        self.subtasks: dict[str, Any] = subtasks if isinstance(subtasks, dict) else {}
        groups = data.get("groups")
        self.groups = {g for g, s in self.subtasks.items() if s} | set(
            groups if isinstance(groups, dict) else ()
        )
        self.parent: dict[str, str] = {}
        for group, members in self.subtasks.items():
            for member in members if isinstance(members, list) else []:
                if isinstance(member, str):
                    self.parent.setdefault(member, group)
        hib = data.get("higher_is_better")
        self.hib: dict[str, Any] = hib if isinstance(hib, dict) else {}
        configs = data.get("configs")
        self.configs: dict[str, Any] = configs if isinstance(configs, dict) else {}
        counts = data.get("n-samples")
        self.counts: dict[str, Any] = counts if isinstance(counts, dict) else {}
        self._secondary_plans: dict[
            tuple[str, str, bool], list[tuple[str, str, tuple[float, float] | None]]
        ] = {}

    def category(self, task: str) -> str:
        """The group that lists the task, or the default category."""
        return self.parent.get(task, DEFAULT_CATEGORY)

    def lower_is_better(self, task: str, metric: str) -> bool:
        flags = self.hib.get(task)
        if isinstance(flags, dict) and isinstance(flags.get(metric), bool):
            return flags[metric] is False
        return metric in LOWER_IS_BETTER

    def aggregation(self, task: str, metric: str) -> str | None:
        config = self.configs.get(task)
        listed = config.get("metric_list") if isinstance(config, dict) else None
        for entry in listed if isinstance(listed, list) else []:
            if isinstance(entry, dict) and entry.get("metric") == metric:
                agg = entry.get("aggregation")
                return agg if isinstance(agg, str) else None
        return None

    def scale(self, task: str, metric: str) -> tuple[float, float] | None:
        """The metric's documented range, by its name, else by its aggregation."""
        found = known_range(metric, task)
        aggregation = self.aggregation(task, metric)
        if found is None and aggregation is not None:
            found = known_range(aggregation, task)
        return found

    def split(self, key: str) -> tuple[str, str] | None:
        """(metric, filter) of a results key, or None for a key that is no metric."""
        metric, sep, filt = key.partition(",")
        if metric.endswith("_stderr") or not (sep or self.v03):
            return None
        return metric, (filt if sep else "none")

    def candidates(self, task: str, notes: Notes) -> list[str]:
        """The task's rankable keys in the harness's order (lower-is-better noted)."""
        entry = self.results.get(task)
        keys: list[str] = []
        for key, value in entry.items() if isinstance(entry, dict) else ():
            parts = self.split(key)
            if parts is None or isinstance(value, (str, dict, list)) or value is None:
                continue
            if self.lower_is_better(task, parts[0]):
                notes.add(Notes.LOWER, f"{task} {key}")
                continue
            keys.append(key)
        return keys

    def check_preferences(self, options: ReadOptions, shown: str) -> None:
        """Refuse `metric` preferences that name no rankable metric of any task.

        A task that reports none of them falls back to its primary score (`primary`);
        preferences that the whole run reports nowhere are a mistake, refused with
        what the run holds (CONTRACT.md section 7). `shown` is the file read (a
        results file, or a samples file of the run).
        """
        if not options.metrics:
            return
        held: list[str] = []
        for task, entry in self.results.items():
            if task not in self.groups and isinstance(entry, dict):
                held += self.candidates(task, Notes(""))
        if held and not matches(held, options.metrics):
            raise refuse_unmatched(held, options.metrics, shown)

    def primary(self, task: str, options: ReadOptions, notes: Notes) -> str | None:
        """The key kept for `task`, the others noted; None when nothing is rankable."""
        keys = self.candidates(task, notes)
        if not keys:
            notes.add(Notes.EMPTY, task)
            return None
        kept = choose(keys, options.metrics)
        if options.metrics and not matches(keys, options.metrics):
            notes.add(Notes.FALLBACK, f"{task} {kept}")
        for key in keys:
            if key != kept:
                notes.add(Notes.OTHERS, f"{task} {key}")
        return kept

    def secondaries(
        self, task: str, kept: str, values: Mapping[str, Any], *, per_item: bool
    ) -> tuple[tuple[str, float], ...]:
        """The task's other rankable metrics in `values` (by results key), on [0, 1].

        Named by `metric_label`, for guardrails (the record's ``metrics``). A value of
        no known scale outside [0, 1], or that is no number, is left out; so, with
        `per_item`, is a metric whose aggregation is not a mean (a corpus score such
        as chrf has no per-document value to average).
        """
        plan = self._secondary_plans.get((task, kept, per_item))
        if plan is None:
            plan = []
            for key in self.candidates(task, Notes("")):
                metric = key.partition(",")[0]
                aggregation = self.aggregation(task, metric)
                if key == kept or (per_item and aggregation not in (None, "mean")):
                    continue
                plan.append((key, metric_label(key), self.scale(task, metric)))
            self._secondary_plans[task, kept, per_item] = plan
        found: dict[str, float] = {}
        for key, label, scale in plan:
            score = to_unit(values[key], scale) if key in values else None
            if score is not None:
                found.setdefault(label, score)
        return tuple(found.items())

    def unit_score(self, task: str, key: str, value: Any, notes: Notes) -> float | None:
        """`value` of `key` on [0, 1] by the metric's scale; None (noted) when not."""
        metric = key.partition(",")[0]
        scale = self.scale(task, metric)
        score = to_unit(value, scale)
        if score is None:
            notes.add(Notes.RANGE, f"{task} {key} = {short(value, 24)}")
        elif scale is not None:
            notes.add(Notes.RESCALED, f"{task} {key} from [{scale[0]:g}, {scale[1]:g}]")
        return score

    def items(self, task: str) -> int:
        """The task's number of documents (``n-samples``), for item weighting."""
        entry = self.counts.get(task)
        for field in ("effective", "original"):
            found = count(entry.get(field)) if isinstance(entry, dict) else None
            if found is not None:
                return found
        raise InputError(
            f"task {task!r} has no document count (`n-samples`), which task-weights: "
            "items needs",
            file=self.shown,
            field=f"n-samples.{task}",
            fix="give the samples files (--log_samples) instead, or use task-weights: "
            "equal",
        )


def metric_label(key: str) -> str:
    """The name a secondary metric is kept under: ``acc_norm`` for ``acc_norm,none``.

    A metric under a filter other than ``none`` keeps the filter
    (``exact_match,flexible-extract``), so the variants stay apart.
    """
    metric, _, filt = key.partition(",")
    return metric if filt in ("", "none") else key


def model_name(data: dict[str, Any], shown: str) -> str:
    """The model a results file names: ``model_name``, else ``config.model_args``."""
    name = data.get("model_name")
    if isinstance(name, str) and name:
        return name
    config = data.get("config")
    config = config if isinstance(config, dict) else {}
    args = config.get("model_args")
    for key in MODEL_ARG_KEYS:
        if isinstance(args, dict) and isinstance(args.get(key), str) and args[key]:
            return str(args[key])
        if isinstance(args, str) and f"{key}=" in args:
            value = args.split(f"{key}=", 1)[1].split(",", 1)[0]
            if value:
                return value
    model = config.get("model")
    # simple_evaluate(model=<an LM object>) records the model's `_name_or_path`, an
    # id such as "EleutherAI/pythia-70m"; a backend ("hf") or class name is no model.
    if isinstance(model, str) and "/" in model and " " not in model:
        return model
    told = f" (config.model is {short(model, 40)})" if model is not None else ""
    raise InputError(
        f"names no model{told}: no `model_name`, and no pretrained=... in "
        "config.model_args",
        file=shown,
        field="model_name",
        fix="run lm_eval with --model_args pretrained=NAME, or, from Python, set "
        'results["model_name"] = NAME before saving the results',
    )


def _read_results(path: Path, data: Any, options: ReadOptions) -> list[EvalRun]:
    shown = str(path)
    info = Results(data, shown)
    notes = Notes(shown)
    runs = RunList(shown, options.limit)
    chosen: dict[str, tuple[str, float]] = {}
    info.check_preferences(options, shown)
    for task, entry in info.results.items():
        if task in info.groups or not isinstance(entry, dict):
            continue  # a group's value aggregates its subtasks, which are read instead
        key = info.primary(task, options, notes)
        score = None if key is None else info.unit_score(task, key, entry[key], notes)
        if key is None or score is None:
            continue
        chosen[task] = (key, score)
        weight = float(info.items(task)) if options.task_weights == "items" else 1.0
        runs.append(
            EvalRun(
                model_id=info.model,
                task_id=task,
                score=score,
                metric_name=key,
                category=info.category(task),
                weight=weight,
                metrics=info.secondaries(task, key, entry, per_item=False),
            )
        )
    if options.task_weights == "equal":
        _tell_group_means(info, chosen, notes)
    check_nonempty(runs, notes)
    notes.warn()
    return runs


def _leaves(info: Results, group: str, depth: int = 0) -> list[str]:
    members = info.subtasks.get(group)
    found: list[str] = []
    for member in members if isinstance(members, list) and depth < 16 else []:
        if isinstance(member, str):
            is_group = member in info.groups
            found += _leaves(info, member, depth + 1) if is_group else [member]
    return found


def _tell_group_means(
    info: Results, chosen: dict[str, tuple[str, float]], notes: Notes
) -> None:
    """Name groups whose harness headline differs from the equal-weight task mean."""
    told: list[str] = []
    for group in sorted(info.groups):
        leaves = [t for t in _leaves(info, group) if t in chosen]
        keys = {chosen[t][0] for t in leaves}
        entry = info.results.get(group)
        if len(keys) != 1 or not isinstance(entry, dict):
            continue
        value = entry.get(next(iter(keys)))
        headline = None if isinstance(value, bool) else finite_number(value)
        if headline is None:
            continue
        equal = sum(chosen[t][1] for t in leaves) / len(leaves)
        if abs(equal - headline) > 5e-7:
            told.append(f"{group} {headline:.4f} (harness) vs {equal:.4f} (equal)")
    if told:
        notes.add(
            Notes.GROUPS,
            "group scores: the harness weights a group's tasks by their size, the "
            "leaderboard's mean weights every task equally: "
            + "; ".join(told)
            + " (set task-weights: items to weight tasks by their documents)",
        )


def check_nonempty(runs: list[EvalRun], notes: Notes) -> None:
    """Refuse a file that gives no record, saying what was left out and why."""
    if not runs:
        order = (Notes.CORPUS, Notes.RANGE, Notes.EMPTY, Notes.LOWER)
        told = "; ".join(
            f"{kind}: {compact(names) if kind == Notes.LOWER else ', '.join(names)}"
            for kind in order
            if (names := notes.found.get(kind))
        )
        told = told if len(told) <= 300 else told[:297] + "..."
        raise InputError(
            f"gives no score the leaderboard can rank ({told or 'no metrics'})",
            file=notes.shown,
            fix="add a higher-is-better metric (acc, exact_match) to the task, or "
            "choose one with --metric",
        )
