"""`records.new_run` is ``EvalRun(...)``: the same fields, defaults and checks."""

from __future__ import annotations

import dataclasses
import inspect
import math

import pytest

from leaderboard.errors import InputError
from leaderboard.inputs.records import EvalRun, new_run


def test_new_run__takes_evalrun_fields_in_order_with_their_defaults() -> None:
    params = inspect.signature(new_run).parameters
    fields = dataclasses.fields(EvalRun)
    assert list(params) == [f.name for f in fields]
    for field in fields:
        default = params[field.name].default
        assert default == (
            inspect.Parameter.empty
            if field.default is dataclasses.MISSING
            else field.default
        ), field.name


@pytest.mark.parametrize(
    "fields",
    [
        {"model_id": "m", "task_id": "t", "score": 1},
        {"model_id": "m", "task_id": "t", "score": True, "item_id": 7, "sample": 0},
        {
            "model_id": "m",
            "task_id": "t",
            "score": 0.25,
            "metric_name": "pass",
            "item_id": "case #1",
            "cost": 2,
            "latency": 0.5,
            "tokens": 10.0,
            "metrics": [("score", 1), ("a", 0.5)],
            "input": "line one\nline two",
            "output": "  an\tanswer  ",
        },
        {"model_id": "m", "task_id": "t", "score": None, "error": "Traceback\n  boom"},
    ],
)
def test_new_run__builds_what_evalrun_builds(fields: dict[str, object]) -> None:
    made, built = new_run(**fields), EvalRun(**fields)  # type: ignore[arg-type]
    assert type(made) is EvalRun
    for field in dataclasses.fields(EvalRun):
        mine, theirs = getattr(made, field.name), getattr(built, field.name)
        assert type(mine) is type(theirs), field.name
        if field.name != "score" or not math.isnan(theirs):
            assert mine == theirs, field.name


@pytest.mark.parametrize(
    "fields",
    [
        {"model_id": "m", "task_id": "t", "score": 1.5},
        {"model_id": "", "task_id": "t", "score": 0.5},
        {"model_id": "m", "task_id": "t", "score": 0.5, "cost": -1.0},
        {"model_id": "m", "task_id": "t", "score": 0.5, "metrics": (("a\n", 0.5),)},
        {"model_id": "m", "task_id": "t", "score": 0.5, "metrics": (("a", 0.5),) * 2},
    ],
)
def test_new_run__refuses_what_evalrun_refuses(fields: dict[str, object]) -> None:
    with pytest.raises(InputError) as theirs:
        EvalRun(**fields)  # type: ignore[arg-type]
    with pytest.raises(InputError) as mine:
        new_run(**fields)  # type: ignore[arg-type]
    assert str(mine.value) == str(theirs.value)


@pytest.mark.parametrize(
    ("metrics", "kept"),
    [
        ((("a", 0.5), ("b", 1.0)), (("a", 0.5), ("b", 1.0))),  # canonical: the cheap path
        ((("b", 1.0), ("a", 0.5)), (("a", 0.5), ("b", 1.0))),  # sorted by the full check
        ([("a", 1)], (("a", 1.0),)),  # a list of an int: made a tuple of a float
    ],
)
def test_evalrun__keeps_secondary_metrics_sorted_as_floats(
    metrics: object, kept: tuple[tuple[str, float], ...]
) -> None:
    run = EvalRun("m", "t", 0.5, cost=0.0, latency=1.5, metrics=metrics)  # type: ignore[arg-type]
    assert run.metrics == kept
    assert all(type(value) is float for _, value in run.metrics)
    assert (run.cost, run.latency, run.tokens) == (0.0, 1.5, None)


@pytest.mark.parametrize(
    "measures",
    [{"cost": math.inf}, {"latency": math.nan}, {"tokens": -0.5}],
)
def test_evalrun__refuses_a_measure_the_cheap_path_would_not_take(
    measures: dict[str, float],
) -> None:
    with pytest.raises(InputError, match="must be a finite number >= 0"):
        EvalRun("m", "t", 0.5, **measures)  # type: ignore[arg-type]
