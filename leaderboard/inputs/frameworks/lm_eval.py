"""lm-evaluation-harness (EleutherAI) output, as ``lm_eval --output_path`` writes it.

- ``results_<date>.json`` (or ``<stem>_<date>.json`` when ``--output_path`` names a
  ``.json`` file): ``results`` maps each task (and group) to ``"<metric>,<filter>"``
  values and their ``"<metric>_stderr,<filter>"``; ``group_subtasks`` and ``groups``
  name the groups, ``higher_is_better`` and ``configs`` describe each metric, and
  ``model_name`` (or ``config.model_args``) names the model. It gives task-level
  records.
- ``samples_<task>_<date>.jsonl`` (with ``--log_samples``), beside its results file:
  one object a line with ``doc_id``, ``filter``, ``metrics`` (the metric names) and
  each metric's per-document value. It gives item-level records; the model, the
  metric directions and the groups come from the results file of the same ``<date>``.

Every (metric, filter) the leaderboard can rank becomes its own task
``<task>/<metric>`` (``<task>/<metric>,<filter>`` for a filter other than ``none``),
weighted 1/k when a task has k of them, so the task still counts once in a model's
mean. Left out, with a `FormatWarning`: metrics the harness marks lower-is-better, and
in samples files the corpus-level metrics (aggregation other than ``mean``) whose
per-document values are not scores. ``bleu``, ``chrf``, ``chrf++`` and ``ter`` are
sacrebleu scores on a 0-100 scale (the harness returns sacrebleu's ``.score``); they
are divided by 100, with a `FormatWarning`. Any other value outside [0, 1] is refused.
"""

from __future__ import annotations

import glob
import json
import re
import warnings
from pathlib import Path
from typing import Any

from leaderboard.errors import InputError
from leaderboard.inputs.frameworks._common import (
    FormatWarning,
    load_json,
    read_head,
    short,
    text_lines,
    unit_number,
)
from leaderboard.inputs.records import DEFAULT_CATEGORY, EvalRun

UTF8_BOM = b"\xef\xbb\xbf"
# Aggregations that return sacrebleu's `.score`, documented by sacrebleu as 0-100.
PERCENT_AGGREGATIONS = frozenset({"bleu", "chrf", "chrf++", "ter"})
# The keys `GeneralConfigTracker._get_model_name` looks for in `model_args`, in order.
MODEL_ARG_KEYS = ("peft", "delta", "pretrained", "model", "path", "engine")
_RESULTS_HEAD = re.compile(rb'\s*\{\s*"results"\s*:\s*\{')
_METRIC_KEY = re.compile(rb'"[^",\\]+,[^",\\]+"\s*:')
_SAMPLES_HEAD = re.compile(rb'\s*\{\s*"doc_id"\s*:')
_SAMPLES_NAME = re.compile(r"samples_(?P<task>.+)_(?P<date>[^_]+)\.jsonl(?:\.gz)?")
_FIX_SAMPLES = "keep the results_<date>.json that lm_eval wrote beside it"


def sniff(head: bytes) -> bool:
    """Whether `head` starts a results file or a samples file. Never raises."""
    text = head.removeprefix(UTF8_BOM)
    if _RESULTS_HEAD.match(text):
        return _METRIC_KEY.search(text) is not None or b'"alias"' in text
    if _SAMPLES_HEAD.match(text):
        first = text.split(b"\n", 1)[0]
        return b'"doc"' in first or b'"filtered_resps"' in first
    return False


def read_lm_eval(path: Path) -> list[EvalRun]:
    """Read one results file (task-level) or samples file (item-level) into records.

    Parameters
    ----------
    path : pathlib.Path
        A ``results_*.json`` or ``samples_<task>_<date>.jsonl`` file.

    Returns
    -------
    list of EvalRun

    Raises
    ------
    InputError
        The model cannot be told, a value lies outside [0, 1] with no documented
        scale, or the file gives no record at all.
    """
    head = read_head(path, 4096).removeprefix(UTF8_BOM)
    if _SAMPLES_NAME.fullmatch(path.name) or _SAMPLES_HEAD.match(head):
        return _read_samples(path)
    return _read_results(path, load_json(path))


class _Results:
    """What a results file says about its run."""

    def __init__(self, data: Any, shown: str) -> None:
        if not isinstance(data, dict) or not isinstance(data.get("results"), dict):
            raise InputError(
                "has no `results` object", file=shown, field="results", fix=_FIX_SAMPLES
            )
        self.shown = shown
        self.results: dict[str, Any] = data["results"]
        self.model = _model_name(data, shown)
        subtasks = data.get("group_subtasks")
        subtasks = subtasks if isinstance(subtasks, dict) else {}
        groups = data.get("groups")
        self.groups = {g for g, s in subtasks.items() if s} | set(
            groups if isinstance(groups, dict) else ()
        )
        self.parent: dict[str, str] = {}
        for group, members in subtasks.items():
            for member in members if isinstance(members, list) else []:
                if isinstance(member, str):
                    self.parent.setdefault(member, group)
        hib = data.get("higher_is_better")
        self.hib: dict[str, Any] = hib if isinstance(hib, dict) else {}
        configs = data.get("configs")
        self.configs: dict[str, Any] = configs if isinstance(configs, dict) else {}

    def category(self, task: str) -> str:
        """The group that lists the task, or the default category."""
        return self.parent.get(task, DEFAULT_CATEGORY)

    def lower_is_better(self, task: str, metric: str) -> bool:
        flags = self.hib.get(task)
        return isinstance(flags, dict) and flags.get(metric) is False

    def aggregation(self, task: str, metric: str) -> str | None:
        config = self.configs.get(task)
        listed = config.get("metric_list") if isinstance(config, dict) else None
        for entry in listed if isinstance(listed, list) else []:
            if isinstance(entry, dict) and entry.get("metric") == metric:
                agg = entry.get("aggregation")
                return agg if isinstance(agg, str) else None
        return None


def _model_name(data: dict[str, Any], shown: str) -> str:
    name = data.get("model_name")
    if isinstance(name, str) and name:
        return name
    config = data.get("config")
    args = config.get("model_args") if isinstance(config, dict) else None
    for key in MODEL_ARG_KEYS:
        if isinstance(args, dict) and isinstance(args.get(key), str) and args[key]:
            return str(args[key])
        if isinstance(args, str) and f"{key}=" in args:
            value = args.split(f"{key}=", 1)[1].split(",", 1)[0]
            if value:
                return value
    raise InputError(
        "names no model (no `model_name`, and no pretrained=... in config.model_args)",
        file=shown,
        field="model_name",
        fix="run lm_eval with --model_args pretrained=NAME",
    )


def _label(metric: str, filt: str) -> tuple[str, str]:
    """(task-id suffix, metric_name) for a metric and its filter."""
    key = f"{metric},{filt}"
    return (metric if filt == "none" else key), key


class _Notes:
    """What a reader changed or left out, told once per file as `FormatWarning`s."""

    RESCALED = "divided by 100 (sacrebleu's 0-100 scale)"
    LOWER = "left out, lower-is-better (the leaderboard ranks higher scores first)"
    CORPUS = (
        "left out, no per-document score (a corpus-level metric; its task-level "
        "value is in the results file)"
    )
    EMPTY = "left out, no metric the leaderboard can rank"

    def __init__(self, shown: str) -> None:
        self.shown = shown
        self.found: dict[str, list[str]] = {}

    def add(self, kind: str, what: str) -> None:
        names = self.found.setdefault(kind, [])
        if what not in names:
            names.append(what)

    def warn(self) -> None:
        for kind, names in self.found.items():
            warnings.warn(
                f"{self.shown}: {kind}: {', '.join(names)}", FormatWarning, stacklevel=4
            )


def _read_results(path: Path, data: Any) -> list[EvalRun]:
    shown = str(path)
    info = _Results(data, shown)
    notes = _Notes(shown)
    runs: list[EvalRun] = []
    for task, entry in info.results.items():
        if task in info.groups or not isinstance(entry, dict):
            continue  # a group's value aggregates its subtasks, which are read instead
        kept: list[tuple[str, str, float]] = []
        for key, value in entry.items():
            metric, sep, filt = key.partition(",")
            if not sep or metric.endswith("_stderr"):
                continue
            score = _task_score(info, notes, task, key, value)
            if score is not None:
                kept.append((metric, filt, score))
        if not kept:
            notes.add(_Notes.EMPTY, task)
        for metric, filt, score in kept:
            suffix, name = _label(metric, filt)
            runs.append(
                EvalRun(
                    model_id=info.model,
                    task_id=f"{task}/{suffix}",
                    score=score,
                    metric_name=name,
                    category=info.category(task),
                    weight=1.0 / len(kept),
                )
            )
    _check_nonempty(runs, notes)
    notes.warn()
    return runs


def _task_score(
    info: _Results, notes: _Notes, task: str, key: str, value: Any
) -> float | None:
    metric = key.partition(",")[0]
    if info.lower_is_better(task, metric):
        notes.add(_Notes.LOWER, f"{task} {key}")
        return None
    aggregation = info.aggregation(task, metric) or metric
    if (
        aggregation in PERCENT_AGGREGATIONS
        and isinstance(value, (int, float))
        and not isinstance(value, bool)
    ):
        notes.add(_Notes.RESCALED, f"{task} {key}")
        value = value / 100
    score = unit_number(value)
    if score is None:
        raise InputError(
            f"task {task!r} metric {key!r} is {short(value)}, not a number in [0, 1]",
            file=info.shown,
            field=f"results.{task}.{key}",
            fix="drop the metric from the task's metric_list, or convert the results "
            "to records with a normalised score",
        )
    return score


def _check_nonempty(runs: list[EvalRun], notes: _Notes) -> None:
    if not runs:
        told = "; ".join(
            f"{kind}: {', '.join(names)}" for kind, names in notes.found.items()
        )
        raise InputError(
            f"gives no score the leaderboard can rank ({told or 'no metrics'})",
            file=notes.shown,
            fix="add a higher-is-better metric in [0, 1] (acc, exact_match) to the task",
        )


def _results_beside(path: Path, date: str) -> Path | None:
    for candidate in sorted(path.parent.glob(f"*_{glob.escape(date)}.json")):
        if _RESULTS_HEAD.match(read_head(candidate, 4096).removeprefix(UTF8_BOM)):
            return candidate
    return None


def _read_samples(path: Path) -> list[EvalRun]:
    shown = str(path)
    named = _SAMPLES_NAME.fullmatch(path.name)
    results = _results_beside(path, named["date"]) if named else None
    if named is None or results is None:
        raise InputError(
            "is an lm-eval samples file without its results file, which names the model",
            file=shown,
            fix=f"keep the name samples_<task>_<date>.jsonl and {_FIX_SAMPLES}",
        )
    info = _Results(load_json(results), str(results))
    values: dict[tuple[str, str], list[tuple[int, int | str, float]]] = {}
    notes = _Notes(shown)
    task = named["task"]
    for number, line in enumerate(text_lines(path), 1):
        if not line.strip():
            continue
        try:
            doc = json.loads(line)
        except ValueError:
            raise InputError(
                "is not valid JSON", file=shown, line=number, fix="check the file is whole"
            ) from None
        if not isinstance(doc, dict):
            raise InputError("is not a JSON object", file=shown, line=number)
        task = doc["task"] if isinstance(doc.get("task"), str) else named["task"]
        item = doc.get("doc_id")
        if isinstance(item, bool) or not isinstance(item, (int, str)):
            raise InputError(
                f"has no usable doc_id: {short(item)}",
                file=shown,
                line=number,
                field="doc_id",
            )
        filt = doc["filter"] if isinstance(doc.get("filter"), str) else "none"
        listed = doc.get("metrics")
        for metric in listed if isinstance(listed, list) else []:
            if not isinstance(metric, str) or metric not in doc:
                continue
            key = f"{metric},{filt}"
            value = doc[metric]
            aggregation = info.aggregation(task, metric)
            if (
                info.lower_is_better(task, metric)
                or isinstance(value, (list, dict))
                or (aggregation is not None and aggregation != "mean")
            ):
                notes.add(
                    _Notes.LOWER if info.lower_is_better(task, metric) else _Notes.CORPUS,
                    key,
                )
                continue
            score = unit_number(value)
            if score is None:
                raise InputError(
                    f"metric {metric!r} is {short(value)}, not a number in [0, 1]",
                    file=shown,
                    line=number,
                    field=metric,
                    fix="read the results file for task-level scores instead",
                )
            values.setdefault((metric, filt), []).append((number, item, score))
    runs = [
        EvalRun(
            model_id=info.model,
            task_id=f"{task}/{_label(metric, filt)[0]}",
            score=score,
            metric_name=_label(metric, filt)[1],
            category=info.category(task),
            weight=1.0 / len(values),
            item_id=item,
        )
        for (metric, filt), rows in values.items()
        for _, item, score in rows
    ]
    _check_nonempty(runs, notes)
    notes.warn()
    return runs
