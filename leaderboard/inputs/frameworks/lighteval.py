"""lighteval (Hugging Face) results, as ``lighteval ... --output-dir DIR`` writes them.

``DIR/results/<model>/results_<date>.json``: ``config_general`` (``model_name``,
``lighteval_sha``, ...), ``results`` mapping each task (``suite|task|few-shot``) to
its metrics and their ``*_stderr``, with an ``all`` entry averaging them,
``versions``, ``config_tasks`` and ``summary_*``. It gives task-level records: one
per task, the first metric lighteval wrote for it (its metric order) unless the user
prefers another; ``all`` is left out (it averages the tasks), and so are metrics
``config_tasks`` marks ``higher_is_better: false`` or that are lower-is-better by
name. ``model_id`` is
``config_general.model_name`` (else ``config_general.model_config.model_name``, else
the ``model-id`` setting; a file that names no model without it is refused).

The per-item details (``details/<model>/<date>/details_<task>_<date>.parquet``) are
Parquet, which would need pyarrow (a wheel of tens of megabytes) in the image for
one framework's optional files; they are refused with the fix: give the results
file, or export the details to records.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from leaderboard.errors import InputError
from leaderboard.inputs.frameworks._choice import pick_metric
from leaderboard.inputs.frameworks._common import RunList, load_json, short
from leaderboard.inputs.frameworks.metrics import (
    LOWER_IS_BETTER,
    Notes,
    ReadOptions,
    check_metric_names,
    known_range,
    to_unit,
)
from leaderboard.inputs.frameworks.sniffing import PARQUET_MAGIC
from leaderboard.inputs.records import DEFAULT_CATEGORY, EvalRun

FIX_PARQUET = (
    "give lighteval's results_<date>.json (task-level), or export the details to "
    "records (model_id, task_id, item_id, score) as JSON Lines: the leaderboard does "
    "not read Parquet"
)


def _model(data: dict[str, Any], shown: str, options: ReadOptions) -> str:
    config = data.get("config_general")
    config = config if isinstance(config, dict) else {}
    inner = config.get("model_config")
    for source in (config, inner if isinstance(inner, dict) else {}):
        name = source.get("model_name")
        if isinstance(name, str) and name:
            return name
    if options.model_id:
        return options.model_id
    raise InputError(
        "names no model",
        file=shown,
        field="config_general.model_name",
        fix="give the results file lighteval wrote, unchanged, or name the model with "
        "model-id (--model-id)",
    )


def _lower_is_better(configs: Any, task: str) -> set[str]:
    """Metrics ``config_tasks`` marks ``higher_is_better: false`` for `task`."""
    configs = configs if isinstance(configs, dict) else {}
    config = configs.get(task, configs.get(task.rpartition("|")[0]))
    listed = config.get("metric") if isinstance(config, dict) else None
    found: set[str] = set()
    for metric in listed if isinstance(listed, list) else []:
        if isinstance(metric, dict) and metric.get("higher_is_better") is False:
            names = metric.get("metric_name")
            names = names if isinstance(names, list) else [names]
            found.update(name for name in names if isinstance(name, str))
    return found


def _candidates(
    tasks: dict[str, dict[str, Any]], configs: Any, notes: Notes
) -> dict[str, list[str]]:
    """Each task's rankable metrics in lighteval's order (stderrs, lower-is-better out)."""
    candidates: dict[str, list[str]] = {}
    for task, entry in tasks.items():
        keys = []
        lower = LOWER_IS_BETTER | _lower_is_better(configs, task)
        for key, value in entry.items():
            if key.endswith("_stderr") or isinstance(value, bool):
                continue
            if not isinstance(value, (int, float)):
                continue
            if key in lower:
                notes.add(Notes.LOWER, f"{task} {key}")
                continue
            keys.append(key)
        if keys:
            candidates[task] = keys
        else:
            notes.add(Notes.EMPTY, task)
    return candidates


def read_lighteval(path: Path, options: ReadOptions | None = None) -> list[EvalRun]:
    """Read one lighteval ``results_*.json`` into task-level records.

    Parameters
    ----------
    path : pathlib.Path
        ``results_<date>.json`` (a details ``.parquet`` file is refused).
    options : ReadOptions, optional
        Preferred metrics.

    Returns
    -------
    list of EvalRun
        One record per task.

    Raises
    ------
    InputError
        A Parquet file, no model name, or no metric the leaderboard can rank.
    """
    options = options or ReadOptions()
    shown = str(path)
    with path.open("rb") as handle:
        if handle.read(4) == PARQUET_MAGIC:
            raise InputError(
                "is a lighteval details file (Parquet)", file=shown, fix=FIX_PARQUET
            )
    data = load_json(path)
    results = data.get("results") if isinstance(data, dict) else None
    if not isinstance(results, dict):
        raise InputError(
            "has no `results` object",
            file=shown,
            field="results",
            fix="give the results_<date>.json lighteval wrote",
        )
    model = _model(data, shown, options)
    notes = Notes(shown)
    tasks = {
        task: entry
        for task, entry in results.items()
        if task != "all" and isinstance(entry, dict)
    }
    candidates = _candidates(tasks, data.get("config_tasks"), notes)
    held = list(dict.fromkeys(key for keys in candidates.values() for key in keys))
    if options.metrics and held:
        pick_metric(held, held[0], options, shown, field="results")
    check_metric_names(held, shown, "results")
    runs = RunList(shown, options.limit)
    for task, keys in candidates.items():
        kept = next((want for want in options.metrics if want in keys), keys[0])
        for key in keys:
            if key != kept:
                notes.add(Notes.OTHERS, f"{task} {key}")
        value = tasks[task][kept]
        scale = known_range(kept, task)
        score = to_unit(value, scale)
        if score is None:
            notes.add(Notes.RANGE, f"{task} {kept} = {short(value, 24)}")
            continue
        if scale is not None:
            notes.add(Notes.RESCALED, f"{task} {kept} from [{scale[0]:g}, {scale[1]:g}]")
        runs.append(
            EvalRun(
                model_id=model,
                task_id=task,
                score=score,
                metric_name=kept,
                category=DEFAULT_CATEGORY,
            )
        )
    if not runs:
        raise InputError(
            "gives no score the leaderboard can rank",
            file=shown,
            field="results",
            fix="choose a higher-is-better metric in [0, 1] with --metric",
        )
    notes.warn()
    return runs
