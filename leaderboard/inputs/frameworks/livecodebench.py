"""LiveCodeBench output, as ``python -m lcb_runner.runner.main --evaluate`` writes it.

Two files in ``output/<model>/`` (the model's ``model_repr``, which names it only
there):

- ``Scenario.<scenario>_<n>_<temperature>_eval_all.json``: a list of problems, each
  with ``question_id``, ``platform``, ``difficulty``, ``contest_date``,
  ``code_list`` (the n generations), ``graded_list`` (whether each passed every
  test) and ``pass@1`` (the fraction passed).
- ``..._eval.json``: ``[metrics, results, metadata]``, the aggregate ``pass@k`` and a
  per-problem ``detail`` keyed by position, not by ``question_id``.

The reader takes ``*_eval_all.json``: each problem is an item (``item_id`` its
``question_id``), each generation a sample (``sample`` its place in ``graded_list``
when n > 1), scored 1 when it passed and 0 when it did not, so the task's score is
LiveCodeBench's pass@1. ``model_id`` is the name of the folder the file is in (only
that name: the rest of the path is not used); ``task_id`` the scenario from the file
name (``codegeneration``). ``*_eval.json`` is refused with the fix (its problems are
unnamed, and the ``_eval_all.json`` beside it holds the same run item by item).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from leaderboard.errors import InputError
from leaderboard.inputs.frameworks._choice import pick_metric
from leaderboard.inputs.frameworks._common import (
    RunList,
    check_room,
    item_run,
    load_json,
    short,
)
from leaderboard.inputs.frameworks.metrics import ReadOptions
from leaderboard.inputs.records import EvalRun

_NAME = re.compile(r"(?:Scenario\.)?(?P<scenario>[a-z_]+?)(?:_\d+_[\d.]+)?(?:_cot)?_eval")
PASS = "pass"  # noqa: S105 - pass/fail of a generation, not a password
_FIX_ALL = (
    "give the *_eval_all.json that lcb_runner wrote beside it (one entry per problem "
    "with its graded_list)"
)


def _scenario(path: Path) -> str:
    found = _NAME.match(path.name)
    return found["scenario"] if found else "codegeneration"


def read_livecodebench(path: Path, options: ReadOptions | None = None) -> list[EvalRun]:
    """Read one ``*_eval_all.json`` into item-level records.

    Parameters
    ----------
    path : pathlib.Path
        ``output/<model>/Scenario.codegeneration_<n>_<t>_eval_all.json``.
    options : ReadOptions, optional
        ``metrics``: only ``pass`` (each generation passed or not) is held.

    Returns
    -------
    list of EvalRun
        One record per (problem, generation).

    Raises
    ------
    InputError
        An ``*_eval.json`` (aggregate), a problem without ``question_id`` or
        ``graded_list``, or a grade that is not true or false.
    """
    options = options or ReadOptions()
    shown = str(path)
    data = load_json(path)
    first = data[0] if isinstance(data, list) and data else None
    if isinstance(first, dict) and "detail" in first and "question_id" not in first:
        raise InputError(
            "is a LiveCodeBench aggregate (*_eval.json): its per-problem scores are "
            "keyed by position, not by problem",
            file=shown,
            fix=_FIX_ALL,
        )
    if not isinstance(data, list):
        raise InputError("is not a list of problems", file=shown, fix=_FIX_ALL)
    metric = pick_metric([PASS], PASS, options, shown, field="graded_list")
    model = path.absolute().parent.name  # the folder's name only, never followed
    if not model:
        raise InputError(
            "is in no folder that names its model",
            file=shown,
            fix="keep the file in output/<model>/, as lcb_runner writes it",
        )
    task = _scenario(path)
    problems: list[tuple[str, list[Any]]] = []
    for number, problem in enumerate(data, 1):
        ident = problem.get("question_id") if isinstance(problem, dict) else None
        graded = problem.get("graded_list") if isinstance(problem, dict) else None
        if not isinstance(ident, (str, int)) or isinstance(ident, bool) or ident == "":
            raise InputError(
                f"problem {number} has no question_id",
                file=shown,
                record=number,
                field="question_id",
                fix=_FIX_ALL,
            )
        if not isinstance(graded, list) or not graded:
            raise InputError(
                f"problem {ident!r} has no graded_list (it was not evaluated)",
                file=shown,
                record=number,
                field="graded_list",
                fix="run lcb_runner with --evaluate, and give the *_eval_all.json",
            )
        problems.append((str(ident), graded))
    check_room(sum(len(graded) for _, graded in problems), options.limit, shown)
    several = any(len(graded) > 1 for _, graded in problems)
    runs = RunList(shown, options.limit)
    for number, (ident, graded) in enumerate(problems, 1):
        for nth, grade in enumerate(graded):
            if not isinstance(grade, bool):
                raise InputError(
                    f"problem {ident!r} has a grade that is not true or false: "
                    f"{short(grade)}",
                    file=shown,
                    record=number,
                    field="graded_list",
                    fix="give the *_eval_all.json lcb_runner wrote, unchanged",
                )
            sample = nth if several else None
            runs.append(item_run(model, task, metric, ident, float(grade), sample=sample))
    return runs
