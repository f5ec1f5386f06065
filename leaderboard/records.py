"""Input records: `EvalRun`, and (to come) loading and validating artifacts."""

from __future__ import annotations

import math
from dataclasses import dataclass

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
        for name in ("model_id", "task_id"):
            value = getattr(self, name)
            if not isinstance(value, str) or value == "":
                raise InputError(
                    f"must be a non-empty string, got {value!r}",
                    field=name,
                    fix="give every record a model_id and a task_id",
                )
        score = self.score
        if isinstance(score, bool):
            object.__setattr__(self, "score", float(score))
        elif not isinstance(score, (int, float)) or not math.isfinite(score):
            raise InputError(
                f"must be a finite number in [0, 1], got {score!r}",
                field="score",
                fix="normalise scores to [0, 1]",
            )
        else:
            object.__setattr__(self, "score", float(score))
        if not 0.0 <= self.score <= 1.0:
            raise InputError(
                f"must lie in [0, 1], got {self.score!r}",
                field="score",
                fix="normalise scores to [0, 1] (divide percentages by 100)",
            )
        weight = self.weight
        if (
            isinstance(weight, bool)
            or not isinstance(weight, (int, float))
            or not math.isfinite(weight)
            or weight <= 0
        ):
            raise InputError(
                f"must be a finite number > 0, got {weight!r}",
                field="weight",
                fix="drop the field for weight 1",
            )
        object.__setattr__(self, "weight", float(weight))
        if not isinstance(self.category, str) or self.category == "":
            raise InputError(
                f"must be a non-empty string, got {self.category!r}",
                field="category",
                fix=f"drop the field for {DEFAULT_CATEGORY!r}",
            )
        for name in ("item_id", "cluster"):
            value = getattr(self, name)
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, (str, int))
            ):
                raise InputError(
                    f"must be a string or an integer, got {value!r}",
                    field=name,
                    fix="use a string or integer id",
                )
        if self.sample is not None and (
            isinstance(self.sample, bool) or not isinstance(self.sample, int)
        ):
            raise InputError(
                f"must be an integer, got {self.sample!r}",
                field="sample",
                fix="number repeated samples 0, 1, 2, ...",
            )


def load_runs(paths: object) -> list[EvalRun]:  # scaffold: replaced by the loader work
    raise NotImplementedError
