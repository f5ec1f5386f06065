"""Loading artifacts: `load_runs` finds, reads and checks every record of every file.

The public entry of the inputs stage. `leaderboard.inputs.sources` finds the files and
picks a reader for each; the readers (`json_records`, `csv_records`, `frameworks`) turn
them into `EvalRun` records; `sources.check_runs` checks them across files.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import warnings
from collections.abc import Iterable
from operator import attrgetter

from leaderboard._gc import collector_paused
from leaderboard.errors import InputError, UsageError
from leaderboard.inputs.frameworks import (
    TASK_WEIGHTS,
    DefaultChoice,
    FormatWarning,
    ReadOptions,
)
from leaderboard.inputs.frameworks.metrics import check_model_id
from leaderboard.inputs.records import EvalRun, canonical_sort, keeping_texts, merge_metrics
from leaderboard.inputs.shown_paths import relative, relative_error
from leaderboard.inputs.sources import check_runs, collect

_METRIC = attrgetter("metric_name")
#: Where a choice the default made is said (`DefaultChoice`): the action's log.
log = logging.getLogger("leaderboard.inputs")


def load_runs(
    paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    *,
    format: str = "auto",
    root: str | os.PathLike[str] | None = None,
    metrics: Iterable[str] = (),
    task_weights: str = "equal",
    model_id: str | None = None,
    texts: bool = False,
) -> list[EvalRun]:
    """Load, validate and combine eval-runner artifacts.

    Parameters
    ----------
    paths : path, glob, or iterable of them
        Files (``.json``, ``.jsonl``, ``.ndjson``, ``.csv``, each optionally gzipped)
        and globs (``**`` matches directories recursively). A file named twice is read
        once.
    format : {"auto", "records"} or one of `frameworks.FRAMEWORK_FORMATS`
        ``"auto"`` asks `frameworks.sniff` whether a file is a framework log and
        otherwise reads it as records (by extension, then by content);
        ``"records"`` reads every file as records; a framework name reads every file
        with that framework's reader.
    root : path, optional
        Refuse any path or file outside this folder, after links (the action passes
        its workspace: artifacts and inputs there are untrusted).
    metrics : iterable of str
        Preferred metrics, most preferred first: a framework task that reports several
        scores keeps the first of these it reports, else the reader's primary one
        (docs/frameworks.md). In record files, records that differ only in
        ``metric_name`` are several metrics of one evaluation: the first of these
        they hold is the score, the others its secondary ``metrics``.
    task_weights : {"equal", "items"}
        ``"items"`` weights each task by its number of items (distinct ``item_id``
        over all models; lm-eval results files: ``n-samples``), multiplying any
        ``weight`` the records give, so a model's mean is its pooled item mean.
    model_id : str, optional
        The model id for framework results whose files name no model (``--model-id``):
        used where a reader would fall back to its documented default id (deepeval
        without a model hyperparameter, an SWE-bench report without a model in its
        name). An id a file names is kept. Default: those documented ids.
    texts : bool
        Keep each item's input and answer where the files hold them (`EvalRun.input`,
        `EvalRun.output`, one short line each), for a report with ``show_outputs``.
        Off (the default), the readers keep none: texts no one shows cost no memory.

    Returns
    -------
    list of EvalRun
        Every record of every file, sorted by (model_id, task_id, item_id, sample), so
        the result depends on the set of records only, not on record or file order.
        ``item_id`` and ``cluster`` are strings (the JSON integer 42 becomes "42").

    Raises
    ------
    UsageError
        No paths, or an unknown `format`.
    InputError
        A file that is missing, empty, unreadable or unrecognised; a glob that matches
        nothing; a record that breaks the input contract; the same (model, task[, item[,
        sample]]) twice; item-level and task-level records for one (model, task); one
        task with two categories or weights. Its message is one line naming the file,
        the line or record, the field and the fix.
    """
    if task_weights not in TASK_WEIGHTS:
        raise UsageError(
            f"--task-weights: must be one of {', '.join(TASK_WEIGHTS)}, got "
            f"{task_weights!r}"
        )
    wanted = (metrics,) if isinstance(metrics, str) else tuple(metrics)
    model = check_model_id("--model-id", model_id) if model_id is not None else None
    options = ReadOptions(metrics=wanted, task_weights=task_weights, model_id=model)
    with collector_paused(), keeping_texts(texts):
        try:
            runs, sources = collect(paths, format, options, root=root)
            if task_weights == "items":
                runs = _weigh_by_items(runs)
            # which records name a metric, asked before the sort: while the records
            # lie in memory in the order they were read, one pass costs a fifth
            several_metrics = len(set(map(_METRIC, runs))) > 1
            canonical_sort(runs)
            if several_metrics:
                runs = merge_metrics(runs, wanted)
            check_runs(runs, sources)
        except InputError as exc:
            relative_error(exc, root)
            raise
    return runs


def _weigh_by_items(runs: list[EvalRun]) -> list[EvalRun]:
    """Multiply each item-level task's weight by its number of distinct items."""
    items: dict[str, set[str | int]] = {}
    for run in runs:
        if run.item_id is not None:
            items.setdefault(run.task_id, set()).add(run.item_id)
    return [
        run
        if run.item_id is None
        else dataclasses.replace(run, weight=run.weight * len(items[run.task_id]))
        for run in runs
    ]


def load_runs_noting(
    paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    *,
    format: str = "auto",
    root: str | os.PathLike[str] | None = None,
    metrics: Iterable[str] = (),
    task_weights: str = "equal",
    model_id: str | None = None,
    texts: bool = False,
) -> tuple[list[EvalRun], list[str]]:
    """`load_runs`, with what the framework readers changed returned as sentences.

    The readers report a rescaled or left-out metric as a `FormatWarning`; the command
    line and the action show these as one clean line each and put them in the report's
    ``warnings`` instead of letting Python print a warning with a source line.
    A `DefaultChoice` (which of a file's scores the default took) is no problem with
    the files: it is said once in the log (INFO on ``leaderboard.inputs``, the files
    that share it named together) and left out of the returned sentences.
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", FormatWarning)
        runs = load_runs(
            paths,
            format=format,
            root=root,
            metrics=metrics,
            task_weights=task_weights,
            model_id=model_id,
            texts=texts,
        )
    notes: list[str] = []
    choices: dict[str, list[str]] = {}
    for item in caught:
        if isinstance(item.message, DefaultChoice):
            files = choices.setdefault(item.message.text, [])
            shown = relative(item.message.file, root)
            if shown not in files:
                files.append(shown)
        elif issubclass(item.category, FormatWarning):
            # A reader names the file as it is; a name that is not UTF-8 holds lone
            # surrogates, which no JSON report, summary or log line can carry.
            text = relative(str(item.message), root)
            notes.append(text if text.isprintable() else repr(text)[1:-1])
        else:  # not ours to reword: let the caller's filters decide
            warnings.warn_explicit(item.message, item.category, item.filename, item.lineno)
    for text, files in choices.items():
        shown = ", ".join(files[:3]) + (
            f" and {len(files) - 3} more" if len(files) > 3 else ""
        )
        log.info("%s: %s", _printable(shown), _printable(text))
    return runs, list(dict.fromkeys(notes))


def _printable(text: str) -> str:
    return text if text.isprintable() else repr(text)[1:-1]
