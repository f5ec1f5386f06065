"""Input records: `EvalRun`, and `load_runs`, which loads and validates artifacts."""

from __future__ import annotations

import math
import os
import warnings
from collections.abc import Iterable
from dataclasses import dataclass
from operator import attrgetter

from leaderboard.errors import InputError

DEFAULT_CATEGORY = "general"


@dataclass(frozen=True, slots=True)
class EvalRun:
    """One score of one model on one task, or on one item of a task.

    Fields follow the input contract (CONTRACT.md section 1). ``score`` must lie in
    [0, 1]; booleans count as 0/1. ``item_id`` present makes the record item-level;
    ``cluster`` groups items that are not independent; ``sample`` numbers repeated
    samples (epochs) of one item.
    """

    model_id: str
    task_id: str
    score: float
    metric_name: str | None = None
    category: str = DEFAULT_CATEGORY
    weight: float = 1.0
    item_id: str | int | None = None
    cluster: str | int | None = None
    sample: int | None = None

    def __post_init__(self) -> None:
        score, weight, item, cluster = self.score, self.weight, self.item_id, self.cluster
        if (  # the common case, checked cheaply: a million records load in seconds
            type(score) is float
            and 0.0 <= score <= 1.0
            and type(weight) is float
            and 0.0 < weight < math.inf
            and type(self.model_id) is str
            and self.model_id != ""
            and type(self.task_id) is str
            and self.task_id != ""
            and type(self.category) is str
            and self.category != ""
            and (item is None or type(item) is str)
            and (cluster is None or type(cluster) is str)
            and (self.sample is None or type(self.sample) is int)
        ):
            return
        self._validate()

    def _validate(self) -> None:
        for name in ("model_id", "task_id"):
            value = getattr(self, name)
            if not isinstance(value, str) or value == "":
                raise InputError(
                    f"must be a non-empty string, got {_short(value)}",
                    field=name,
                    fix="give every record a model_id and a task_id",
                )
        score = self.score
        if isinstance(score, bool):
            object.__setattr__(self, "score", float(score))
        elif isinstance(score, int) and not 0 <= score <= 1:
            raise InputError(
                f"must lie in [0, 1], got {_short(score)}",
                field="score",
                fix="normalise scores to fractions in [0, 1]: divide percentages by 100",
            )
        elif not isinstance(score, (int, float)) or not math.isfinite(score):
            raise InputError(
                f"must be a finite number in [0, 1], got {_short(score)}",
                field="score",
                fix="normalise scores to [0, 1]",
            )
        else:
            object.__setattr__(self, "score", float(score))
        if not 0.0 <= self.score <= 1.0:
            raise InputError(
                f"must lie in [0, 1], got {self.score!r}",
                field="score",
                fix="normalise scores to fractions in [0, 1]: divide percentages by 100",
            )
        weight = self.weight
        if (
            isinstance(weight, bool)
            or not isinstance(weight, (int, float))
            or (isinstance(weight, int) and weight > 2**1000)
            or not math.isfinite(weight)
            or weight <= 0
        ):
            raise InputError(
                f"must be a finite number > 0, got {_short(weight)}",
                field="weight",
                fix="drop the field for weight 1",
            )
        object.__setattr__(self, "weight", float(weight))
        if not isinstance(self.category, str) or self.category == "":
            raise InputError(
                f"must be a non-empty string, got {_short(self.category)}",
                field="category",
                fix=f"drop the field for {DEFAULT_CATEGORY!r}",
            )
        for name in ("item_id", "cluster"):
            value = getattr(self, name)
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, (str, int))
            ):
                raise InputError(
                    f"must be a string or an integer, got {_short(value)}",
                    field=name,
                    fix="use a string or integer id",
                )
        if self.sample is not None and (
            isinstance(self.sample, bool) or not isinstance(self.sample, int)
        ):
            raise InputError(
                f"must be an integer, got {_short(self.sample)}",
                field="sample",
                fix="number repeated samples 0, 1, 2, ...",
            )


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def load_runs(
    paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    *,
    format: str = "auto",
) -> list[EvalRun]:
    """Load, validate and combine eval-runner artifacts.

    Parameters
    ----------
    paths : path, glob, or iterable of them
        Files (``.json``, ``.jsonl``, ``.ndjson``, ``.csv``, each optionally gzipped)
        and globs (``**`` matches directories recursively). A file named twice is read
        once.
    format : {"auto", "records", "inspect", "lm-eval"}
        ``"auto"`` asks `leaderboard.formats.sniff` whether a file is a framework log
        and otherwise reads it as records (by extension, then by content);
        ``"records"`` reads every file as records; a framework name reads every file
        with that framework's reader.

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
    from leaderboard.record_sources import check_runs, collect  # noqa: PLC0415 - cycle

    runs, sources = collect(paths, format)
    canonical_sort(runs)
    check_runs(runs, sources)
    return runs


def _item_key(run: EvalRun) -> str:
    return "" if run.item_id is None else str(run.item_id)


def _sample_key(run: EvalRun) -> int:
    return -1 if run.sample is None else run.sample


def canonical_sort(runs: list[EvalRun]) -> None:
    """Sort `runs` in place by (model_id, task_id, item_id, sample), absent first.

    Four stable sorts on one attribute each, so no key tuples are built for a million
    records.
    """
    runs.sort(key=_sample_key)
    runs.sort(key=_item_key)
    runs.sort(key=attrgetter("task_id"))
    runs.sort(key=attrgetter("model_id"))


def load_runs_noting(
    paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    *,
    format: str = "auto",
) -> tuple[list[EvalRun], list[str]]:
    """`load_runs`, with what the framework readers changed returned as sentences.

    The readers report a rescaled or left-out metric as a `FormatWarning`; the command
    line and the action show these as one clean line each and put them in the report's
    ``warnings`` instead of letting Python print a warning with a source line.
    """
    from leaderboard.formats import FormatWarning  # noqa: PLC0415

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", FormatWarning)
        runs = load_runs(paths, format=format)
    notes: list[str] = []
    for item in caught:
        if issubclass(item.category, FormatWarning):
            # A reader names the file as it is; a name that is not UTF-8 holds lone
            # surrogates, which no JSON report, summary or log line can carry.
            text = str(item.message)
            notes.append(text if text.isprintable() else repr(text)[1:-1])
        else:  # not ours to reword: let the caller's filters decide
            warnings.warn_explicit(item.message, item.category, item.filename, item.lineno)
    return runs, list(dict.fromkeys(notes))
