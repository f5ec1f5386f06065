"""promptfoo output, as ``promptfoo eval -o results.json`` (or ``.jsonl``) writes it.

- ``.json``: ``{"evalId", "results": {"version": 3, "prompts", "results": [row, ...],
  "stats"}, "config", "metadata", "runtimeOptions"}`` (promptfoo 0.118 to 0.121 seen).
- ``.jsonl``: the rows alone, one a line.

A row is one (test case, prompt, provider) evaluation: ``provider {id, label}``,
``prompt {label, raw}``, ``promptId``, ``testIdx``, ``testCase {description, vars}``,
``vars``, ``success`` (every assertion passed), ``score`` (the weighted mean of the
assertion scores; independent of ``success``), ``namedScores``, ``failureReason`` (0
pass, 1 failed assertion, 2 error) and ``error``.

Each row gives one item-level record:

- ``model_id``: the provider's ``label``, else its ``id`` (how promptfoo names columns).
- ``task_id``: the prompt's ``label`` (promptfoo defaults it to the prompt text); a
  label that is long or spans lines becomes ``prompt <promptId[:12]>``.
- ``item_id``: the test's ``description`` and a hash of its ``vars``: stable across
  runs and providers, unlike ``testIdx``, which counts repeats and expanded vars.
- ``sample``: with ``--repeat N`` the n-th evaluation of the same item (0, 1, ...).
- ``score``: ``pass`` (``success`` as 1/0) by default, the headline promptfoo itself
  reports; ``--metric score`` takes the assertion score, ``--metric NAME`` a named
  score (an assertion's ``metric``).

Measures (for guardrails): ``cost`` from the row's ``cost``, ``latency`` from its
``latencyMs`` / 1000 (seconds; the provider call, as promptfoo times it), ``tokens``
from ``response.tokenUsage.total`` (the provider's own count, not the grader's). The
scores not chosen (``pass``, ``score``, named scores) in [0, 1] are kept as the
record's secondary ``metrics``.

A row whose provider call errored (``failureReason`` 2) is no failed test and no 0:
it is an errored record (attempted, not scored), counted in the gate's ``completion``
comparison and never in the score, and a warning counts such rows. A file whose every
row errored is refused.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from dataclasses import replace
from itertools import pairwise
from pathlib import Path
from typing import Any

from leaderboard.errors import InputError
from leaderboard.inputs.frameworks._common import (
    any_text,
    check_room,
    errored_run,
    finite_number,
    json_lines,
    load_json,
    short,
    vars_text,
)
from leaderboard.inputs.frameworks.metrics import (
    Notes,
    ReadOptions,
    choose,
    matches,
    refuse_unmatched,
    to_unit,
)
from leaderboard.inputs.records import DEFAULT_CATEGORY, EvalRun, new_run

_TASK_LABEL = re.compile(r"[^\x00-\x1f\x7f]{1,100}")
_FIX_ERRORS = (
    "re-run the errored rows (`promptfoo eval --retry-errors`) or fix the provider, "
    "then give the new output: an error is not a failed test"
)
# The item's identity: its vars as sorted compact JSON (``json.dumps(vars,
# sort_keys=True, separators=(",", ":"), default=str)``, one encoder built once).
_VARS_JSON = json.JSONEncoder(sort_keys=True, separators=(",", ":"), default=str).encode
_UNSEEN = re.compile(r"[\x00-\x1f\x7f\u2028\u2029]+")
PASS = "pass"  # noqa: S105 - promptfoo's pass/fail, not a password
SCORE = "score"


def _rows(path: Path, shown: str) -> Iterable[tuple[int, Any]]:
    if path.name.endswith((".jsonl", ".jsonl.gz")):
        return json_lines(path)  # one row at a time, each within a document's budget
    data = load_json(path)
    results = data.get("results") if isinstance(data, dict) else None
    if isinstance(data, dict) and "_resultsLoaded" in data:
        raise InputError(
            "is a promptfoo Eval object saved from its Node API, not an eval output",
            file=shown,
            fix="write the output with `promptfoo eval -o results.json`",
        )
    if not isinstance(results, dict) or not isinstance(results.get("results"), list):
        raise InputError(
            "has no `results.results` list of rows",
            file=shown,
            field="results.results",
            fix="write the output with `promptfoo eval -o results.json` (promptfoo 0.118 "
            "or later)",
        )
    return list(enumerate(results["results"], 1))


def _model(row: dict[str, Any]) -> str | None:
    provider = row.get("provider")
    if isinstance(provider, str):
        return provider or None
    if not isinstance(provider, dict):
        return None
    for key in ("label", "id"):
        if isinstance(provider.get(key), str) and provider[key]:
            return str(provider[key])
    return None


def _task(row: dict[str, Any]) -> str:
    prompt = row.get("prompt")
    label = prompt.get("label") if isinstance(prompt, dict) else None
    if isinstance(label, str) and _TASK_LABEL.fullmatch(label):
        return label
    ident = row.get("promptId")
    if isinstance(ident, str) and ident:
        return f"prompt {ident[:12]}"
    return f"prompt {row.get('promptIdx', 0)}"


def _item(row: dict[str, Any]) -> str:
    case = row.get("testCase")
    case = case if isinstance(case, dict) else {}
    variables = row.get("vars", case.get("vars"))
    text = _VARS_JSON(variables)
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:10]
    description = case.get("description")
    if not isinstance(description, str) or not description:
        return f"#{digest}"
    text = _UNSEEN.sub(" ", description).strip()
    return f"{text if len(text) <= 80 else text[:77] + '...'} #{digest}"


def _available(row: dict[str, Any]) -> list[str]:
    named = row.get("namedScores")
    return [PASS, SCORE, *(named if isinstance(named, dict) else {})]


def _value(row: dict[str, Any], metric: str) -> Any:
    if metric == PASS:
        return row.get("success")
    if metric == SCORE:
        return row.get("score")
    named = row.get("namedScores")
    return named.get(metric) if isinstance(named, dict) else None


def read_promptfoo(path: Path, options: ReadOptions | None = None) -> list[EvalRun]:
    """Read one promptfoo output into item-level records.

    Parameters
    ----------
    path : pathlib.Path
        ``promptfoo eval -o results.json`` or ``-o results.jsonl``.
    options : ReadOptions, optional
        Preferred metrics: ``pass`` (default), ``score`` or a named score.

    Returns
    -------
    list of EvalRun
        One record per row: (provider, prompt, test case[, repeat]).

    Raises
    ------
    InputError
        Not a promptfoo output, a row without a provider, a row that errored, or a
        score that is not in [0, 1].
    """
    options = options or ReadOptions()
    shown = str(path)
    rows = _rows(path, shown)
    notes = Notes(shown)
    kept: list[EvalRun | _Left] = []  # one a row, in the file's order
    orders: list[int] = []  # each row's testIdx (else its number), beside `kept`
    names: dict[str, str] = {}  # one string per model, task and item name
    shared: dict[Any, Any] = {}  # one tuple per distinct set of secondary scores
    metric: str | None = None
    for number, row in rows:
        if not isinstance(row, dict):
            raise InputError(f"row {number} is not an object", file=shown, record=number)
        model = _model(row)
        if model is None:
            raise InputError(
                f"row {number} names no provider",
                file=shown,
                record=number,
                field="provider",
                fix="give an unmodified promptfoo output",
            )
        model = names.setdefault(model, model)
        task = _task(row)
        task = names.setdefault(task, task)
        item = _item(row)
        item = names.setdefault(item, item)
        test_idx = row.get("testIdx")
        order = test_idx if isinstance(test_idx, int) else number
        if row.get("failureReason") == 2 or (
            row.get("gradingResult") is None and row.get("error")
        ):
            error = row.get("error")
            text = error if isinstance(error, str) and error.strip() else "errored"
            kept.append(_Left(model, task, item, number, text, errored=True))
            orders.append(order)
            check_room(len(kept), options.limit, shown)
            continue
        if metric is None:
            metric = _choose(row, options, notes)
        # The record is built as the row is read, and the row let go: what is held
        # grows by one record a row, not by the row's parsed JSON.
        value = _value(row, metric)
        score = to_unit(value, None)
        if score is None:
            what = f"{task} {metric} = {short(value, 24)} (row {number})"
            kept.append(_Left(model, task, item, number, what, errored=False))
        else:
            said, answer, cost, latency, tokens, others = _extras(row, metric)
            others = shared.setdefault(others, others)
            kept.append(
                new_run(  # what item_run builds, at a third of the cost
                    model,
                    task,
                    score,
                    metric,
                    DEFAULT_CATEGORY,
                    1.0,
                    item,
                    None,
                    None,
                    cost,
                    latency,
                    tokens,
                    others,
                    None,
                    said,
                    answer,
                )
            )
        orders.append(order)
        check_room(len(kept), options.limit, shown)
    if metric is None and kept:
        first = kept[0]
        text = first.text if isinstance(first, _Left) else ""
        raise InputError(
            f"every row errored ({len(kept)}): {short(str(text), 100)}",
            file=shown,
            field="error",
            fix=_FIX_ERRORS,
        )
    if metric is None:
        raise InputError("holds no rows", file=shown, fix="check that the eval ran")
    return _records(kept, orders, metric, notes)


def _choose(row: dict[str, Any], options: ReadOptions, notes: Notes) -> str:
    """The file's metric, from its first scored row; the others noted."""
    available = _available(row)
    if options.metrics and not matches(available, options.metrics):
        raise refuse_unmatched(available, options.metrics, notes.shown)
    metric = choose(available, options.metrics)
    for other in available:
        if other != metric:
            notes.add(Notes.OTHERS, other)
    return metric


class _Left:
    """A row that gives no scored record: its provider call errored (`errored`;
    `text` the error's), or its score is outside [0, 1] (`text` the note's)."""

    __slots__ = ("errored", "item", "model", "number", "task", "text")

    def __init__(
        self, model: str, task: str, item: str, number: int, text: str, *, errored: bool
    ) -> None:
        self.model, self.task, self.item = model, task, item
        self.number, self.text, self.errored = number, text, errored


def _measure(value: object, scale: float = 1.0) -> float | None:
    found = None if isinstance(value, bool) else finite_number(value)
    if found is None or found < 0:
        return None
    return found / scale


_Extras = tuple[
    str | None,
    str | None,
    float | None,
    float | None,
    float | None,
    tuple[tuple[str, float], ...],
]


def _extras(row: dict[str, Any], metric: str) -> _Extras:
    """The row's input and output texts (None unless kept), cost, latency (s),
    tokens, and its other scores in [0, 1] (sorted, as `EvalRun` keeps them)."""
    response = row.get("response")
    usage = response.get("tokenUsage") if isinstance(response, dict) else None
    others = []
    for name in _available(row):
        if name != metric:
            score = to_unit(_value(row, name), None)
            if score is not None:
                others.append((name, score))
    case = row.get("testCase")
    variables = row.get("vars", case.get("vars") if isinstance(case, dict) else None)
    return (
        vars_text(variables),
        any_text(response.get("output")) if isinstance(response, dict) else None,
        _measure(row.get("cost")),
        _measure(row.get("latencyMs"), 1000.0),
        _measure(usage.get("total")) if isinstance(usage, dict) else None,
        tuple(sorted(dict(others).items())),
    )


def _key(entry: EvalRun | _Left) -> tuple[str, str, str]:
    if isinstance(entry, _Left):
        return entry.model, entry.task, entry.item
    return entry.model_id, entry.task_id, str(entry.item_id)


def _records(
    kept: list[EvalRun | _Left], orders: list[int], metric: str, notes: Notes
) -> list[EvalRun]:
    """The records in the rows' order (``testIdx``, then line), each repeat of one
    (provider, prompt, test) numbered as its ``sample`` when any is repeated."""
    if any(a > b for a, b in pairwise(orders)):  # a stable sort keeps the lines' order
        at = sorted(range(len(kept)), key=orders.__getitem__)
        kept = [kept[i] for i in at]
        del at
    orders.clear()
    seen: dict[tuple[str, str, str], int] = {}
    for entry in kept:
        key = _key(entry)
        seen[key] = seen.get(key, 0) + 1
    repeated = any(count > 1 for count in seen.values())
    del seen
    dropped: set[str] = set()
    nth: dict[tuple[str, str, str], int] = {}
    runs: list[EvalRun] = []
    errored: list[str] = []
    for entry in kept:
        sample: int | None = None
        if repeated:
            key = _key(entry)
            sample = nth[key] = nth.get(key, -1) + 1
        if not isinstance(entry, _Left):
            runs.append(entry if sample is None else replace(entry, sample=sample))
        elif entry.errored:
            errored.append(f"row {entry.number} ({entry.model}, test {entry.item!r})")
            run = errored_run(
                entry.model, entry.task, metric, entry.item, entry.text, sample=sample
            )
            runs.append(run)
        else:
            notes.add(Notes.RANGE, entry.text)
            dropped.add(entry.task)
    if dropped:
        runs = [run for run in runs if run.task_id not in dropped]
    if errored:
        notes.add(
            f"{len(errored)} of {len(kept)} rows errored (the provider call failed, "
            "`failureReason` 2; not a failed test): attempted, not scored; the score "
            "compares only the tests both runs scored, and the completion comparison "
            "counts these",
            ", ".join(errored[:3]) + (", ..." if len(errored) > 3 else ""),
        )
    if all(run.error is not None for run in runs):
        raise InputError(
            f"gives no score the leaderboard can rank ({metric} is not in [0, 1])",
            file=notes.shown,
            fix="choose another score with --metric (pass, score or a named score)",
        )
    notes.warn()
    return runs
