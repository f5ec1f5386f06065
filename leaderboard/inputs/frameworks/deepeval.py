"""deepeval (Confident AI) test runs, as ``deepeval test run`` and ``evaluate()`` save them.

The files (all one JSON document, the pydantic ``TestRun`` dumped by alias):

- ``.deepeval/.latest_test_run.json``: ``{"testRunData": <TestRun>}`` when the run stayed
  local, or ``{"testRunLink": "<url>"}`` when it was uploaded to Confident AI (then the
  file holds no scores and is refused, saying how to keep them locally).
- ``.deepeval/.latest_run_full.json`` (deepeval 4.x, every run) and
  ``test_run_<YYYYMMDD_HHMMSS>.json`` in ``DEEPEVAL_RESULTS_FOLDER`` (3.x wrote the same
  without the ``.json``): the bare ``TestRun``.
- ``.deepeval/.temp_test_run_data.json`` (``temp_test_run_data.json`` before 2.9): the
  bare ``TestRun`` of a run in progress (deepeval deletes it when the run finishes; a
  committed copy is often a run cut short, its metrics not yet scored).

A ``TestRun`` holds ``testCases`` and ``conversationalTestCases``, each with ``name``,
``success`` and ``metricsData`` (``name``, ``score``, ``threshold``, ``success``,
``error``, ``flaky``, ...; deepeval 0.20 wrote ``metricsMetadata`` keyed ``metric``), and
``hyperparameters`` (what the user logged, e.g. ``{"model": "gpt-4o"}``). Snake-case
spellings (``test_cases``, ``metrics_data``, an ``evaluate()`` result's
``test_results``) are read as well.

Each test case gives one item-level record:

- ``model_id``: ``hyperparameters["model"]`` (or ``model_name``, ``llm``, any case),
  else the ``model-id`` setting (``--model-id``), else ``deepeval``: the same in every
  run, so two runs pair with no setting.
- ``task_id``: the run's ``datasetAlias``, else ``deepeval``.
- ``item_id``: the case's ``name`` (a pytest test id such as ``test_x[case3]``); a name
  that repeats in the file gets ``#<hash>`` of the case's golden side (``input``,
  ``expectedOutput``, ``context``) added, and deepeval's positional default names
  (``test_case_<n>``) are replaced by that hash, so reordered goldens still pair.
- ``score``: by default ``success``, deepeval's own headline (its "Pass Rate": a case
  passes when every non-flaky metric passed its threshold); ``--metric NAME`` takes
  that metric's ``score`` instead (deepeval's scores are 0-1; passing is
  ``score >= threshold``, or ``<=`` for the lower-is-better metrics, which are refused).

The scores not chosen are kept as the record's secondary ``metrics`` (for
guardrails): every other metric's score on [0, 1] (the lower-is-better ones left
out), and ``success`` (as 1/0) when a metric is the score.

A metric that errored is not a failure: the case is an errored record of that metric
(and of ``success`` unless another metric of it failed outright), attempted and not
scored, counted in the gate's ``completion`` comparison and never in the score; a
metric that gave no score without an error leaves the case out. One warning counts
each.
"""

from __future__ import annotations

import hashlib
import json
import re
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, NoReturn

from leaderboard.errors import InputError
from leaderboard.inputs.frameworks._common import (
    DefaultChoice,
    FormatWarning,
    any_text,
    check_room,
    errored_run,
    item_run,
    load_json,
    short,
    text_of,
)
from leaderboard.inputs.frameworks.metrics import Notes, ReadOptions, to_unit
from leaderboard.inputs.records import EvalRun

DEFAULT_MODEL = "deepeval"
DEFAULT_TASK = "deepeval"
SUCCESS = "success"
#: deepeval metrics that pass when ``score <= threshold`` (Bias, Toxicity, ...).
LOWER_IS_BETTER = frozenset({"Bias", "Hallucination", "Misuse", "Toxicity"})
MODEL_KEYS = ("model", "model_name", "model name", "model_id", "llm")
_DEFAULT_NAME = re.compile(r"(?:conversational_)?test_case_\d+")
_CASES = ("testCases", "test_cases", "test_results")
_CONVERSATIONS = ("conversationalTestCases", "conversational_test_cases")
_METRICS = ("metricsData", "metrics_data", "metricsMetadata")
FIX_LOCAL = (
    "keep the scores on disk: run deepeval with DEEPEVAL_RESULTS_FOLDER=<folder> set "
    "(it writes test_run_<time>.json there) and give that file, or give "
    ".deepeval/.latest_run_full.json (deepeval 4.x writes it on every run)"
)


def _first(mapping: dict[str, Any], keys: tuple[str, ...]) -> Any:
    for key in keys:
        if key in mapping:
            return mapping[key]
    return None


def _test_run(path: Path, shown: str) -> dict[str, Any]:
    data = load_json(path)
    if isinstance(data, dict) and "testRunLink" in data and "testRunData" not in data:
        raise InputError(
            "holds only a link to Confident AI (testRunLink): the scores of this run "
            "are in Confident AI's cloud, not in the file",
            file=shown,
            field="testRunLink",
            fix=FIX_LOCAL,
        )
    if isinstance(data, dict) and "testRunData" in data:
        data = data["testRunData"]
    if not isinstance(data, dict) or not any(
        isinstance(_first(data, (key,)), list) for key in (*_CASES, *_CONVERSATIONS)
    ):
        raise InputError(
            "is not a deepeval test run (no testCases list)",
            file=shown,
            field="testCases",
            fix="give .deepeval/.latest_test_run.json, .deepeval/.latest_run_full.json "
            "or a test_run_<time>.json that deepeval wrote",
        )
    return data


def _model(run: dict[str, Any], options: ReadOptions) -> str:
    hyper = run.get("hyperparameters")
    if isinstance(hyper, dict):
        lowered = {str(k).strip().lower(): v for k, v in hyper.items()}
        for key in MODEL_KEYS:
            value = lowered.get(key)
            if isinstance(value, str) and value.strip():
                return value.strip()
    return options.model_id or DEFAULT_MODEL


def _digest(*parts: Any) -> str:
    text = json.dumps(parts, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:10]


def _golden(case: dict[str, Any], conversational: bool) -> str:
    if conversational:
        turns = case.get("turns")
        users = [
            t.get("content")
            for t in (turns if isinstance(turns, list) else [])
            if isinstance(t, dict) and t.get("role") == "user"
        ]
        keys = ("scenario", "expectedOutcome", "userDescription", "context")
        return _digest(*(case.get(k) for k in keys), users)
    expected = _first(case, ("expectedOutput", "expected_output"))
    return _digest(case.get("input"), expected, case.get("context"))


def _cases(run: dict[str, Any]) -> Iterator[tuple[int, dict[str, Any], bool]]:
    number = 0
    for keys, conversational in ((_CASES, False), (_CONVERSATIONS, True)):
        listed = _first(run, keys)
        for case in listed if isinstance(listed, list) else []:
            number += 1
            flag = conversational or (isinstance(case, dict) and case.get("conversational"))
            yield number, case, bool(flag)


def _metrics(case: dict[str, Any]) -> list[dict[str, Any]]:
    listed = _first(case, _METRICS)
    return [m for m in listed if isinstance(m, dict)] if isinstance(listed, list) else []


def _metric_name(metric: dict[str, Any]) -> str | None:
    name = metric.get("name", metric.get("metric"))
    return name if isinstance(name, str) and name else None


def _scored(metric: dict[str, Any]) -> bool:
    return metric.get("score") is not None and not metric.get("error")


def _verdict(case: dict[str, Any]) -> tuple[bool | None, str | None]:
    """``success`` as deepeval decides it, or None with the metric that left it open."""
    counted = [m for m in _metrics(case) if not m.get("flaky")]
    failed = any(_scored(m) and m.get("success") is False for m in counted)
    open_ = next((m for m in counted if not _scored(m)), None)
    success = case.get("success")
    if failed:
        return False, None
    if open_ is not None:
        return None, _metric_name(open_) or "a metric"
    if isinstance(success, bool):
        return success, None
    if not counted:
        return None, "no metric"
    return all(m.get("success") is not False for m in counted), None


def _choose(options: ReadOptions, present: list[str], shown: str) -> str:
    if not options.metrics:
        return SUCCESS
    for want in options.metrics:
        if want == SUCCESS or want in present:
            if want in LOWER_IS_BETTER:
                raise InputError(
                    f"metric {want!r} is lower-is-better (deepeval passes it when its "
                    "score is at most the threshold); the leaderboard ranks higher "
                    "scores first",
                    file=shown,
                    field="metric",
                    fix="use the default `success` (a case with too high a "
                    f"{want} score fails), or choose another metric",
                )
            return want
    raise InputError(
        f"holds no metric named {', '.join(map(repr, options.metrics))}; it holds "
        + ", ".join([SUCCESS, *present]),
        file=shown,
        field="metric",
        fix="set `metric` (--metric) to one of those, or leave it empty for success",
    )


def read_deepeval(path: Path, options: ReadOptions | None = None) -> list[EvalRun]:
    """Read one deepeval test run into item-level records, one per test case.

    Parameters
    ----------
    path : pathlib.Path
        ``.latest_test_run.json``, ``.latest_run_full.json``, ``test_run_<time>.json``
        or ``.temp_test_run_data.json``.
    options : ReadOptions, optional
        ``metrics``: ``success`` (default) or a metric name of the file;
        ``model_id``: the id when the run's hyperparameters name no model.

    Returns
    -------
    list of EvalRun
        One record per scored test case (a repeat of a case is a sample).

    Raises
    ------
    InputError
        A link-only file, a file with no test cases, a `metric` the file does not
        hold or that is lower-is-better, or no case left with a score.
    """
    options = options or ReadOptions()
    shown = str(path)
    run = _test_run(path, shown)
    cases = [(n, c, conv) for n, c, conv in _cases(run) if isinstance(c, dict)]
    if not cases:
        raise InputError(
            "holds no test cases",
            file=shown,
            field="testCases",
            fix="give the file of a finished run (deepeval writes the temp file when a "
            "run starts and fills it as cases are evaluated)",
        )
    present = list(
        dict.fromkeys(
            name for _, c, _ in cases for m in _metrics(c) if (name := _metric_name(m))
        )
    )
    metric = _choose(options, present, shown)
    model, task = _model(run, options), run.get("datasetAlias")
    task = task if isinstance(task, str) and task else DEFAULT_TASK
    names: dict[str, int] = {}
    for _, case, _ in cases:
        name = str(case.get("name", ""))
        names[name] = names.get(name, 0) + 1
    notes = Notes(shown)
    left: list[str] = []
    absent = 0
    seen: dict[str, int] = {}
    parsed: list[Parsed] = []
    errored: list[str] = []
    for number, case, conversational in cases:
        item = _item(case, conversational, names)
        value: Any
        if metric == SUCCESS:
            value, why = _verdict(case)
        else:
            found = [m for m in _metrics(case) if _metric_name(m) == metric]
            if not found:
                absent += 1
                continue
            value = found[0].get("score") if _scored(found[0]) else None
            why = metric
        error = _error_of(case, why) if value is None else ""
        if error is None:
            left.append(f"{item} ({why})")
            continue
        score = None if error else to_unit(value, None)
        if error:
            errored.append(f"{item} ({why})")
        elif score is None:
            notes.add(Notes.RANGE, f"{task} {metric} = {short(value, 24)} (case {number})")
            _refuse_range(notes, metric)
        seen[item] = seen.get(item, -1) + 1
        others = () if error else _others(case, metric)
        parsed.append((item, score, str(seen[item]), others, error, _texts(case)))
    check_room(len(parsed), options.limit, shown)
    runs = _records(parsed, model, task, metric, repeated=any(seen.values()))
    if all(r.error is not None for r in runs):
        raise InputError(
            f"gives no score for {metric}: every test case's metric errored or was not "
            "scored" + (f" ({', '.join(left[:3])})" if left else ""),
            file=shown,
            field="metricsData",
            fix="fix the metric's error and run deepeval again; an error is not a failed "
            "test, so it is never counted as 0",
        )
    _warn(
        shown,
        metric,
        len(cases),
        left=left,
        absent=absent,
        present=present,
        errored=errored,
    )
    return runs


#: A case as read: item, score (None: errored), sample, other scores, error text,
#: its input and actual output (one short line each, or None).
Parsed = tuple[
    str, float | None, str, tuple[tuple[str, float], ...], str, tuple[str | None, ...]
]


def _records(
    parsed: list[Parsed], model: str, task: str, metric: str, *, repeated: bool
) -> list[EvalRun]:
    """The cases' records: scored ones, and errored ones (attempted, not scored)."""
    return [
        item_run(
            model,
            task,
            metric,
            item,
            score,
            sample=int(nth) if repeated else None,
            metrics=others,
            input=texts[0],
            output=texts[1],
        )
        if score is not None
        else errored_run(
            model, task, metric, item, error, sample=int(nth) if repeated else None
        )
        for item, score, nth, others, error, texts in parsed
    ]


def _error_of(case: dict[str, Any], name: str | None) -> str | None:
    """The error of the case's metric `name`, when it errored; else None."""
    for entry in _metrics(case):
        error = entry.get("error")
        if _metric_name(entry) == name and error:
            return str(error) if str(error).strip() else "errored in deepeval"
    return None


def _texts(case: dict[str, Any]) -> tuple[str | None, str | None]:
    """The case's input and actual output, one short line each (a conversation:
    its first user turn and the last assistant turn)."""
    turns = case.get("turns")
    if isinstance(turns, list) and turns:
        said = [t for t in turns if isinstance(t, dict)]
        users = [t for t in said if t.get("role") == "user"]
        answers = [t for t in said if t.get("role") == "assistant"]
        return (
            text_of(users[0]) if users else None,
            text_of(answers[-1]) if answers else None,
        )
    return (
        text_of(case.get("input")),
        any_text(_first(case, ("actualOutput", "actual_output"))),
    )


def _others(case: dict[str, Any], metric: str) -> tuple[tuple[str, float], ...]:
    """The case's scores not chosen, for guardrails: ``success`` (when a metric is
    the score) and every other scored metric on [0, 1] that is not lower-is-better."""
    found: dict[str, float] = {}
    if metric != SUCCESS:
        verdict, _ = _verdict(case)
        if verdict is not None:
            found[SUCCESS] = float(verdict)
    for entry in _metrics(case):
        name = _metric_name(entry)
        if name is None or name in (metric, SUCCESS) or name in LOWER_IS_BETTER:
            continue
        score = to_unit(entry.get("score"), None) if _scored(entry) else None
        if score is not None:
            found.setdefault(name, score)
    return tuple(found.items())


def _item(case: dict[str, Any], conversational: bool, names: dict[str, int]) -> str:
    name = re.sub(r"[\x00-\x1f\x7f\u2028\u2029]+", " ", str(case.get("name", ""))).strip()
    digest = _golden(case, conversational)
    if not name or _DEFAULT_NAME.fullmatch(name):
        return f"#{digest}"
    name = name if len(name) <= 100 else name[:97] + "..."
    return name if names.get(str(case.get("name", "")), 0) <= 1 else f"{name} #{digest}"


def _refuse_range(notes: Notes, metric: str) -> NoReturn:
    raise InputError(
        f"gives no score the leaderboard can rank ({metric} is not in [0, 1]: "
        f"{notes.found[Notes.RANGE][0]})",
        file=notes.shown,
        field="metricsData",
        fix="choose a metric scored 0-1 with --metric, or the default success",
    )


def _warn(
    shown: str,
    metric: str,
    total: int,
    *,
    left: list[str],
    absent: int,
    present: list[str],
    errored: Sequence[str] = (),
) -> None:
    if errored:
        listed = ", ".join(errored[:3]) + (", ..." if len(errored) > 3 else "")
        warnings.warn(
            f"{shown}: {len(errored)} of {total} test cases errored in {metric} (an "
            "error is not a failed test): attempted, not scored; the score compares "
            "only the cases both runs scored, and the completion comparison counts "
            f"these: {listed}",
            FormatWarning,
            stacklevel=3,
        )
    if left:
        listed = ", ".join(left[:3]) + (", ..." if len(left) > 3 else "")
        warnings.warn(
            f"{shown}: {len(left)} of {total} test cases left out of {metric}, a metric "
            f"gave no score: {listed}",
            FormatWarning,
            stacklevel=3,
        )
    if absent:
        warnings.warn(
            f"{shown}: {absent} of {total} test cases left out, they have no {metric} "
            "metric",
            FormatWarning,
            stacklevel=3,
        )
    others = [name for name in present if name != metric]
    if others and metric == SUCCESS:
        text = (
            f"one score per test case, {SUCCESS} (every metric passed); the metric "
            "scores are left out of it (choose one with --metric) and kept for "
            f"--guardrail: {', '.join(others)}"
        )
        warnings.warn(DefaultChoice(shown, text), stacklevel=3)
