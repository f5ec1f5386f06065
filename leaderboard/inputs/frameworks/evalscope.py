"""EvalScope (ModelScope) output, as ``evalscope eval`` writes it under ``outputs/<run>/``.

- ``reviews/<model>/<benchmark>_<subset>.jsonl``: one scored sample a line.
  EvalScope 1.x: ``{index, target, messages, sample_score: {score: {value: {<metric>:
  v, ...}, main_score_name, status?, ...}, sample_id, group_id, generation_index?}}``.
  EvalScope 0.x: ``{..., model, subset_name, choices: [{..., review: {gold, pred,
  result}}], reviewed, reviewer_spec: {metric: [...]}, index}`` where ``result`` is the
  score (or a dict of scores by metric name) and each choice is one repeat.
- ``reports/<model>/<benchmark>.json``: the aggregate (``dataset_name``,
  ``model_name``, ``score``, ``metrics: [{name, score, categories: [{subsets}]}]``).

Reviews give item-level records: ``model_id`` the name of the folder the file is in
(only that name, as EvalScope names the model by it); ``task_id`` the benchmark, so
its score pools the items of all subsets, as EvalScope's ``score`` does;
``item_id`` ``<subset>/<id>``; ``sample`` the repeat (1.x: the samples of one
``group_id``; 0.x: the choices) when there are repeats. The score is EvalScope's main
one: 1.x ``main_score_name``, else the first key of ``value`` (``Score.main_value``);
0.x the first of ``reviewer_spec.metric`` (``AverageAccuracy``, ``Pass@1``).
``metric`` chooses another (``acc`` or ``mean_acc`` both name 1.x's ``acc``). A
sample whose score was not usable (1.x ``status`` other than success, or the metric
missing from ``value``; 0.x ``reviewed: false``) is left out with a warning, not
counted as 0, as EvalScope's own aggregation does.

Benchmark and subset: 0.x rows name their subset; 1.x rows do not, so the file name
is split at its one underscore, or, when the benchmark name has underscores
itself (``gpqa_diamond_default``), at the report EvalScope wrote for it
(``reports/<model>/<benchmark>.json``, looked for, not read, and not through links).

A report gives one task-level record (its first metric, or the one ``metric``
names) and is read only when its reviews are not beside it: with the reviews there,
it is refused, naming them, because the same run would be counted twice.
"""

from __future__ import annotations

import os
import re
import stat
from array import array
from pathlib import Path
from typing import Any

from leaderboard.errors import InputError
from leaderboard.inputs.frameworks._choice import json_lines, pick_metric
from leaderboard.inputs.frameworks._common import (
    RunList,
    check_room,
    load_json,
    read_head,
    short,
    unit_number,
)
from leaderboard.inputs.frameworks.metrics import Notes, ReadOptions, check_metric_names
from leaderboard.inputs.frameworks.sniffing import EVALSCOPE_REPORT_HEAD, UTF8_BOM
from leaderboard.inputs.records import DEFAULT_CATEGORY, EvalRun, new_run

_LAYOUT = (
    "keep EvalScope's layout: outputs/<run>/reviews/<model>/<benchmark>_<subset>.jsonl"
)


def _is_plain_dir(path: Path) -> bool:
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


def _is_plain_file(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def _outputs(path: Path, kind: str) -> Path | None:
    """``outputs/<run>`` of a file at ``<run>/<kind>/<model>/<file>``, else None."""
    folder = path.absolute().parent
    return folder.parent.parent if folder.parent.name == kind else None


def _report_exists(path: Path, model: str, benchmark: str) -> bool:
    """Whether ``reports/<model>/<benchmark>.json`` is beside the reviews (no links)."""
    run = _outputs(path, "reviews")
    if run is None:
        return False
    reports = run / "reports"
    folder = reports / model
    return (
        _is_plain_dir(reports)
        and _is_plain_dir(folder)
        and _is_plain_file(folder / f"{benchmark}.json")
    )


def _benchmark(path: Path, model: str, subset: str | None, shown: str) -> tuple[str, str]:
    """(benchmark, subset) of a review file named ``<benchmark>_<subset>.jsonl``."""
    stem = re.sub(r"\.jsonl(?:\.gz)?$", "", path.name)
    if subset and stem.endswith(f"_{subset}") and len(stem) > len(subset) + 1:
        return stem[: -len(subset) - 1], subset
    cuts = [i for i, char in enumerate(stem) if char == "_" and 0 < i < len(stem) - 1]
    if len(cuts) == 1:
        return stem[: cuts[0]], stem[cuts[0] + 1 :]
    for cut in reversed(cuts):
        if _report_exists(path, model, stem[:cut]):
            return stem[:cut], stem[cut + 1 :]
    raise InputError(
        f"cannot tell the benchmark from the subset in {path.name!r} (EvalScope 1.x "
        "reviews do not name them)",
        file=shown,
        fix="keep the reports/<model>/<benchmark>.json EvalScope wrote beside reviews/",
    )


def read_evalscope(path: Path, options: ReadOptions | None = None) -> list[EvalRun]:
    """Read one EvalScope review file (item-level) or report (task-level).

    Parameters
    ----------
    path : pathlib.Path
        ``reviews/<model>/<benchmark>_<subset>.jsonl`` or
        ``reports/<model>/<benchmark>.json``.
    options : ReadOptions, optional
        Preferred metrics.

    Returns
    -------
    list of EvalRun
        One record per scored sample and repeat; one task-level record for a report.

    Raises
    ------
    InputError
        Not in EvalScope's layout, a line that is not a review, a metric that names
        nothing the file holds, a report whose reviews are beside it, or no usable
        score.
    """
    options = options or ReadOptions()
    shown = str(path)
    head = read_head(path, 4096).removeprefix(UTF8_BOM)
    if EVALSCOPE_REPORT_HEAD.match(head):
        return _read_report(path, options, shown)
    first = head.partition(b"\n")[0]
    if b'"model_output"' in first and b'"sample_score"' not in first:
        raise InputError(
            "is an EvalScope predictions file: it holds the model's answers, not "
            "their scores",
            file=shown,
            fix="give the reviews/<model>/*.jsonl files EvalScope wrote beside "
            "predictions/",
        )
    folder = path.absolute().parent
    if folder.parent.name != "reviews" or not folder.name:
        raise InputError(
            "is an EvalScope review file outside reviews/<model>/, which names the model",
            file=shown,
            fix=_LAYOUT,
        )
    model = folder.name
    notes = Notes(shown)
    wanted = ReadOptions(
        metrics=tuple(
            dict.fromkeys(
                (*(m.removeprefix("mean_") for m in options.metrics), *options.metrics)
            )
        )
    )
    rows, order, subset = _rows(path, shown, notes, options.limit, wanted.metrics)
    if not rows.items:
        raise InputError(
            "holds no scored sample", file=shown, fix="check that the evaluation ran"
        )
    benchmark, subset = _benchmark(path, model, subset, shown)
    primary = order[0]
    available = list(dict.fromkeys(order[1:]))
    check_metric_names(available, shown, "score.value")
    metric = pick_metric(available, primary, wanted, shown, field="score.value")
    for other in available:
        if other != metric:
            notes.add(Notes.OTHERS, other)
    return _records(
        rows,
        model=model,
        benchmark=benchmark,
        subset=subset,
        metric=metric,
        notes=notes,
        limit=options.limit,
    )


class _Rows:
    """The samples of a review file, a column each: what its records need and no more.

    ``values`` holds, per metric that may be chosen (the first sample's main metric
    and the ones the user prefers: `pick_metric` chooses among those only), each
    sample's value of it (None where it has none), so what is held grows by a few
    pointers a sample, not by the sample's parsed JSON.
    """

    __slots__ = ("items", "lines", "repeats", "values")

    def __init__(self) -> None:
        self.lines = array("q")
        self.items: list[str] = []
        self.repeats: list[int | None] = []
        self.values: dict[str, list[Any]] = {}

    def add(self, number: int, item: str, repeat: int | None, scores: Any) -> None:
        self.lines.append(number)
        self.items.append(item)
        self.repeats.append(repeat)
        for name, column in self.values.items():
            column.append(scores.get(name))


def _rows(
    path: Path, shown: str, notes: Notes, limit: int, wanted: tuple[str, ...]
) -> tuple[_Rows, list[str], str | None]:
    """The samples (`_Rows`, keeping the metrics `wanted` and the first sample's
    main one); [primary, metrics...]; the subset.

    Linear in the file: the metric names are kept once each, in the order first
    seen, and the rows stop at the run's cap (`limit`) as they are read.
    """
    rows = _Rows()
    primary: list[str] = []  # the first row's main metric
    metric_names: dict[str, None] = {}  # every metric name, once, in order
    subset: str | None = None
    unusable = 0
    for number, row in json_lines(path, shown):
        if "sample_score" in row:
            found = _v1(row, number, shown)
            if found is None:
                unusable += 1
                continue
            item, repeat, scores, main = found
        elif "choices" not in row:
            raise InputError(
                "is neither an EvalScope 1.x review (sample_score) nor a 0.x one "
                "(choices[].review)",
                file=shown,
                line=number,
                fix="give the reviews/<model>/*.jsonl files EvalScope wrote",
            )
        else:
            if row.get("reviewed") is False:
                unusable += 1
                continue
            spec = row.get("reviewer_spec")
            names = spec.get("metric") if isinstance(spec, dict) else None
            main = names[0] if isinstance(names, list) and names else "score"
            name = row.get("subset_name")
            subset = name if isinstance(name, str) and name else subset
            choices = row.get("choices")
            if not isinstance(choices, list) or not choices:
                unusable += 1
                continue
            item = str(row.get("index", number))
            for nth, choice in enumerate(choices):
                review = choice.get("review") if isinstance(choice, dict) else None
                result = review.get("result") if isinstance(review, dict) else None
                scores = result if isinstance(result, dict) else {main: result}
                if not primary:
                    primary = _first(main, wanted, rows)
                rows.add(number, item, nth if len(choices) > 1 else None, scores)
                metric_names.update(dict.fromkeys(scores))
            check_room(len(rows.items), limit, shown)
            continue
        if not primary:
            primary = _first(main, wanted, rows)
        metric_names.update(dict.fromkeys(scores))
        rows.add(number, item, repeat, scores)
        check_room(len(rows.items), limit, shown)
    if unusable:
        notes.add("samples with no usable score left out (not counted as 0)", str(unusable))
    return rows, [*primary, *metric_names], subset


def _first(main: str, wanted: tuple[str, ...], rows: _Rows) -> list[str]:
    """At the first sample: its main metric ([main]), and the columns `rows` keeps."""
    for name in (main, *wanted):
        rows.values.setdefault(name, [])
    return [main]


def _v1(
    row: dict[str, Any], number: int, shown: str
) -> tuple[str, int | None, dict[str, Any], str] | None:
    """(group, generation, value, main metric) of a 1.x row, None when unusable."""
    sample = row["sample_score"]
    score = sample.get("score") if isinstance(sample, dict) else None
    if not isinstance(score, dict) or not isinstance(score.get("value"), dict):
        raise InputError(
            "has no sample_score.score.value",
            file=shown,
            line=number,
            field="sample_score",
            fix="give the review file EvalScope wrote, unchanged",
        )
    status = score.get("status")
    if status not in (None, "success") or not score["value"]:
        return None
    value: dict[str, Any] = score["value"]
    main = score.get("main_score_name")
    main = main if isinstance(main, str) and main in value else next(iter(value))
    group = next(
        (
            found
            for found in (sample.get("group_id"), sample.get("sample_id"), row.get("index"))
            if isinstance(found, (str, int)) and not isinstance(found, bool)
        ),
        number,
    )
    generation = sample.get("generation_index")
    return str(group), generation if isinstance(generation, int) else None, value, main


def _records(
    rows: _Rows,
    *,
    model: str,
    benchmark: str,
    subset: str,
    metric: str,
    notes: Notes,
    limit: int,
) -> list[EvalRun]:
    counts: dict[str, int] = {}
    for item in rows.items:
        counts[item] = counts.get(item, 0) + 1
    repeated = any(count > 1 for count in counts.values())
    del counts
    nth: dict[str, int] = {}
    runs = RunList(notes.shown, limit)
    missing = 0
    values = rows.values[metric]
    for number, item, repeat, value in zip(
        rows.lines, rows.items, rows.repeats, values, strict=True
    ):
        sample = nth[item] = nth.get(item, -1) + 1
        if value is None:
            missing += 1
            continue
        score = unit_number(value)
        if score is None:
            raise InputError(
                f"has a {metric} that is not one score in [0, 1]: {short(value, 40)}",
                file=notes.shown,
                line=number,
                field=metric,
                fix="choose a per-sample metric in [0, 1] with --metric",
            )
        runs.append(
            new_run(  # EvalRun(...), checked the same, at less cost
                model,
                benchmark,
                score,
                metric,
                DEFAULT_CATEGORY,
                1.0,
                f"{subset}/{item}",
                None,
                (repeat if repeat is not None else sample) if repeated else None,
            )
        )
    if missing:
        notes.add(f"samples without {metric} left out (not counted as 0)", str(missing))
    notes.warn()
    return runs


def _read_report(path: Path, options: ReadOptions, shown: str) -> list[EvalRun]:
    data = load_json(path)
    if not isinstance(data, dict) or not isinstance(data.get("metrics"), list):
        raise InputError("has no `metrics` list", file=shown, field="metrics")
    dataset = data.get("dataset_name")
    model = path.absolute().parent.name
    if not isinstance(dataset, str) or not dataset or not model:
        raise InputError("names no dataset", file=shown, field="dataset_name", fix=_LAYOUT)
    run = _outputs(path, "reports")
    reviews = run / "reviews" / model if run is not None else None
    if reviews is not None and _is_plain_dir(reviews):
        found = sorted(
            entry.name
            for entry in os.scandir(reviews)
            if entry.name.startswith(f"{dataset}_") and entry.name.endswith(".jsonl")
        )
        if found:
            raise InputError(
                f"is the aggregate of the reviews beside it (reviews/{model}/"
                f"{found[0]}{' and more' if len(found) > 1 else ''}), which the "
                "leaderboard reads item by item",
                file=shown,
                fix="give the reviews/**/*.jsonl files and not the reports: one run "
                "counted once",
            )
    metrics = {
        entry["name"]: entry.get("score")
        for entry in data["metrics"]
        if isinstance(entry, dict) and isinstance(entry.get("name"), str)
    }
    if not metrics:
        raise InputError("has no metric", file=shown, field="metrics")
    names = list(metrics)
    metric = pick_metric(names, names[0], options, shown, field="metrics.name")
    score = unit_number(metrics[metric])
    if score is None:
        raise InputError(
            f"has a {metric} score that is not in [0, 1]: {short(metrics[metric])}",
            file=shown,
            field="metrics.score",
            fix="choose another metric with --metric",
        )
    notes = Notes(shown)
    for other in names:
        if other != metric:
            notes.add(Notes.OTHERS, other)
    notes.warn()
    return [
        EvalRun(
            model_id=model,
            task_id=dataset,
            score=score,
            metric_name=metric,
            category=DEFAULT_CATEGORY,
        )
    ]
