"""The JSON readers of the input contract: ``.json`` (an array of records, or an
object holding it under `records` or `runs`) and ``.jsonl``/``.ndjson`` (one record a
line, blank lines allowed).

JSON integers too long for `int` are kept as text (`BigInt`): fine as an ``item_id``,
refused elsewhere. A key repeated in one object is refused, not silently overwritten.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from leaderboard.errors import InputError
from leaderboard.inputs import fast_json, reading
from leaderboard.inputs.reading import (
    BigInt,
    DuplicateKeyError,
    FieldProblem,
    Intern,
    Place,
    _gzip_error,
    _make_run,
    check_document,
    check_keys,
    check_scored_or_errored,
    check_text,
    error_text,
    loads,
    open_binary,
    printable,
    relocate,
    show,
)
from leaderboard.inputs.records import DEFAULT_CATEGORY, MEASURES, TEXTS, EvalRun, kept_text


def _id(field: str, value: object, intern: Intern, *, integer_ok: bool) -> str:
    if type(value) is str and value != "" and value.isprintable():
        return intern(value)
    if value is None:
        raise FieldProblem(field, "is null", f"give every record a `{field}`")
    if isinstance(value, BigInt):
        if integer_ok:
            return str(value)
    elif isinstance(value, str):
        if value == "":
            raise FieldProblem(field, "is empty", f"give `{field}` a non-empty value")
        return intern(check_text(field, value))
    if integer_ok and isinstance(value, int) and not isinstance(value, bool):
        return intern(str(value))
    kind = "a string or an integer" if integer_ok else "a string"
    raise FieldProblem(
        field, f"must be {kind}, got {show(value)}", f"write `{field}` as {kind}"
    )


def _json_number(field: str, value: object) -> float | int | bool:
    if isinstance(value, (int, float)) and not isinstance(value, BigInt):
        return value
    hint = "write the number without quotes" if isinstance(value, str) else "write a number"
    raise FieldProblem(field, f"must be a number, got {show(value)}", hint)


def _texts(get: Any) -> tuple[str | None, str | None]:
    """The record's `input` and `output`: a string each, or absent."""
    found: list[str | None] = []
    for name in TEXTS:
        value = get(name)
        if value is not None and type(value) is not str:
            raise FieldProblem(
                name,
                f"must be a string, got {show(value)}",
                f"write `{name}` as text (its first line is shown), or drop it",
            )
        found.append(kept_text(value))
    return found[0], found[1]


def run_from_object(
    obj: object, intern: Intern, keys_seen: dict[tuple[str, ...], Any]
) -> EvalRun:
    """Validate one JSON record and make it an `EvalRun`.

    Raises `FieldProblem` (or `InputError` from `EvalRun`) without the place.
    """
    if type(obj) is not dict:
        raise FieldProblem(
            None,
            f"must be a JSON object, got {show(obj)}",
            "write each record as an object such as "
            '{"model_id": ..., "task_id": ..., "score": ...}',
        )
    keys = tuple(obj)
    verdict = keys_seen.get(keys, keys_seen)
    if verdict is keys_seen:
        verdict = check_keys(keys)
        if len(keys_seen) < 4096:
            keys_seen[keys] = verdict
    if verdict is not None:
        raise verdict
    get = obj.get
    score = get("score")
    error = error_text(get("error"))
    check_scored_or_errored(score, error, absent=score is None, empty="is null")
    if score is not None:
        score = _json_number("score", score)
    weight = get("weight")
    if weight is not None:
        weight = _json_number("weight", weight)
    category = get("category")
    metric = get("metric_name")
    item = get("item_id")
    cluster = get("cluster")
    sample = get("sample")
    measures = [
        None if (value := get(name)) is None else _json_number(name, value)
        for name in MEASURES
    ]
    metrics = get("metrics")
    if metrics is not None and not isinstance(metrics, dict):
        raise FieldProblem(
            "metrics",
            f"must be an object of metric names and scores, got {show(metrics)}",
            'write secondary metrics as {"faithfulness": 0.9, ...}',
        )
    if sample is not None and (
        not isinstance(sample, int) or isinstance(sample, bool) or sample < 0
    ):
        raise FieldProblem(
            "sample",
            f"must be a non-negative integer, got {show(sample)}",
            "number repeated samples of an item 0, 1, 2, ...",
        )
    return _make_run(
        model=_id("model_id", get("model_id"), intern, integer_ok=False),
        task=_id("task_id", get("task_id"), intern, integer_ok=False),
        score=score,
        metric=None
        if metric is None
        else _id("metric_name", metric, intern, integer_ok=False),
        category=DEFAULT_CATEGORY
        if category is None
        else _id("category", category, intern, integer_ok=False),
        weight=1.0 if weight is None else weight,
        item=None if item is None else _id("item_id", item, intern, integer_ok=True),
        cluster=None
        if cluster is None
        else _id("cluster", cluster, intern, integer_ok=True),
        sample=sample,
        cost=measures[0],
        latency=measures[1],
        tokens=measures[2],
        metrics=tuple(metrics.items()) if metrics else (),
        error=error,
        texts=_texts(get),
    )


def iter_json(path: Path, shown: str, intern: Intern) -> Iterator[Place]:
    """Records of a ``.json`` file: an array, or an object with `records` or `runs`."""
    handle = open_binary(path, shown)
    try:
        with handle:
            data = handle.read(reading.MAX_DOCUMENT + 1)
    except (OSError, EOFError, zlib.error) as exc:
        raise _gzip_error(shown, exc) from None
    check_document(data, shown)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(
            f"is not valid UTF-8 (byte 0x{data[exc.start]:02x})",
            file=shown,
            line=line,
            fix="save the file as UTF-8",
        ) from None
    del data
    fast_json.use_for(len(text))
    try:
        doc = loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"is not valid JSON: {exc.msg.removesuffix(' at')} at column {exc.colno}",
            file=shown,
            line=exc.lineno,
            fix="fix the JSON syntax, or give one record a line in a .jsonl file",
        ) from None
    except DuplicateKeyError as exc:
        raise InputError(
            "appears twice in one object",
            file=shown,
            field=printable(exc.key),
            fix="keep one value per field",
        ) from None
    except RecursionError:
        raise InputError(
            "is nested too deeply to be eval records",
            file=shown,
            fix="give an array of flat record objects",
        ) from None
    del text
    records = _record_array(doc, shown)
    keys_seen: dict[tuple[str, ...], Any] = {}
    for number, obj in enumerate(records, start=1):
        try:
            run = run_from_object(obj, intern, keys_seen)
        except FieldProblem as problem:
            raise problem.at(shown, record=number) from None
        except InputError as err:
            raise relocate(err, shown, record=number) from None
        yield number, run


def _record_array(doc: object, shown: str) -> list[Any]:
    if isinstance(doc, list):
        return doc
    if isinstance(doc, dict):
        holders = [key for key in ("records", "runs") if key in doc]
        if len(holders) == 1 and isinstance(doc[holders[0]], list):
            return list(doc[holders[0]])
        if len(holders) == 1:
            raise InputError(
                f"must be an array, got {show(doc[holders[0]])}",
                file=shown,
                field=holders[0],
                fix="hold the records in an array",
            )
        if holders:
            raise InputError(
                "holds both `records` and `runs`",
                file=shown,
                fix="keep the records under one of them",
            )
        if "model_id" in doc or "score" in doc:
            raise InputError(
                "holds a single record, not an array of records",
                file=shown,
                fix="wrap it in [ ], or write one record a line in a .jsonl file",
            )
        found = ", ".join(repr(printable(k, 20)) for k in sorted(doc)[:5]) or "none"
        raise InputError(
            f"is a JSON object without `records` or `runs` (keys: {found})",
            file=shown,
            fix='give an array of records, an object {"records": [...]}, '
            + reading.FORMAT_HINT,
        )
    raise InputError(
        f"must hold an array of records, got {show(doc)}",
        file=shown,
        fix="give an array of record objects",
    )
