"""Input records: `EvalRun`, one score of one model on one task or item, and their order."""

from __future__ import annotations

import math
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


_SETTERS = tuple(
    EvalRun.__dict__[name].__set__
    for name in (
        "model_id",
        "task_id",
        "score",
        "metric_name",
        "category",
        "weight",
        "item_id",
        "cluster",
        "sample",
    )
)


def checked_run(  # noqa: PLR0917 - the fields of EvalRun, in order
    model_id: str,
    task_id: str,
    score: float,
    metric_name: str | None,
    category: str,
    weight: float,
    item_id: str | None,
    cluster: str | None,
    sample: int | None,
) -> EvalRun:
    """An `EvalRun` from values a reader has already checked, without re-checking.

    For the JSON Lines reader's common path only (a million records load in
    seconds): the caller guarantees what `EvalRun.__post_init__` checks, and that
    ``item_id`` and ``cluster`` are strings.
    """
    run = _new(EvalRun)
    s0, s1, s2, s3, s4, s5, s6, s7, s8 = _SETTERS
    s0(run, model_id)
    s1(run, task_id)
    s2(run, score)
    s3(run, metric_name)
    s4(run, category)
    s5(run, weight)
    s6(run, item_id)
    s7(run, cluster)
    s8(run, sample)
    return run


_new = object.__new__


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _item_key(run: EvalRun) -> str:
    return "" if run.item_id is None else str(run.item_id)


def _sample_key(run: EvalRun) -> int:
    return -1 if run.sample is None else run.sample


def canonical_sort(runs: list[EvalRun]) -> None:
    """Sort `runs` in place by (model_id, task_id, item_id, sample), absent first.

    Four stable sorts on one attribute each, so no key tuples are built for a million
    records.
    """
    samples = set(map(_SAMPLE, runs))
    if samples != {None}:  # most runs have no repeated samples: nothing to order
        runs.sort(key=_sample_key)
    items = set(map(_ITEM, runs))
    if None in items or any(type(item) is not str for item in items):
        runs.sort(key=_item_key)
    else:  # every record is item-level with a string id: sort on it directly
        runs.sort(key=_ITEM)
    runs.sort(key=attrgetter("task_id"))
    runs.sort(key=attrgetter("model_id"))


_SAMPLE = attrgetter("sample")
_ITEM = attrgetter("item_id")
