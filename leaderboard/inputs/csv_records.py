"""The CSV reader of the input contract: a header row, then one record a row.

Cells are text, so numbers are parsed strictly (``0.5``, ``1e-3``; not ``nan``,
``inf``, ``1_0``, ``50%``); a score may also be ``true``/``false``. An empty cell of an
optional field means the field is absent. ``item_id`` and ``cluster`` stay strings,
as in every other format (see `leaderboard.inputs.reading`). Line numbers count the
header as line 1; a record spanning lines (a quoted line break) is named by its last.
"""

from __future__ import annotations

import csv
import re
import zlib
from collections.abc import Callable, Iterator
from operator import itemgetter
from pathlib import Path
from typing import IO

from leaderboard.errors import InputError
from leaderboard.inputs.reading import (
    FIELDS,
    FieldProblem,
    Intern,
    Place,
    _gzip_error,
    _make_run,
    check_keys,
    check_scored_or_errored,
    check_text,
    error_text,
    iter_lines,
    open_binary,
    printable,
    relocate,
    show,
)
from leaderboard.inputs.records import DEFAULT_CATEGORY, MEASURES, EvalRun, kept_text

_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d{1,4})?")
_INTEGER = re.compile(r"\+?\d{1,18}")
_TRUE = frozenset({"true", "True", "TRUE"})
_FALSE = frozenset({"false", "False", "FALSE"})


def _number(field: str, cell: str) -> float:
    text = cell.strip()
    if _NUMBER.fullmatch(text):
        return float(text)
    fix = (
        "write a fraction in [0, 1]: divide percentages by 100"
        if text.endswith("%")
        else "write a plain decimal number such as 0.75"
    )
    raise FieldProblem(field, f"must be a number, got {show(cell)}", fix)


def _score(cell: str) -> float:
    text = cell.strip()
    if text in _TRUE:
        return 1.0
    if text in _FALSE:
        return 0.0
    return _number("score", cell)


def _text(field: str, cell: str, intern: Intern) -> str:
    if cell == "":
        raise FieldProblem(field, "is empty", f"give every record a `{field}`")
    return intern(check_text(field, cell))


def _header(row: list[str], shown: str, line: int) -> tuple[int, ...]:
    names = [cell.strip() for cell in row]
    columns: dict[str, int] = {}
    for index, name in enumerate(names):
        if name in columns and name != "":
            raise InputError(
                f"names the column twice (columns {columns[name] + 1} and {index + 1})",
                file=shown,
                line=line,
                field=printable(name),
                fix="keep one column per field",
            )
        columns[name] = index
    problem = check_keys(tuple(names))
    if problem is not None:
        raise problem.at(shown, line=line)
    return tuple(columns.get(field, -1) for field in FIELDS)  # -1: the "" _row appends


def iter_csv(path: Path, shown: str, intern: Intern) -> Iterator[Place]:
    """Records of a CSV file with a header row (UTF-8, BOM and CRLF allowed)."""
    handle = open_binary(path, shown)
    line = 1
    try:
        with handle:
            reader = csv.reader(_decoded(handle, shown), strict=True)
            columns: Callable[[list[str]], tuple[str, ...]] | None = None
            for row in reader:
                line = reader.line_num
                if not any(row):
                    continue
                if columns is None:
                    columns = itemgetter(*_header(row, shown, line))
                    width = len(row)
                    continue
                if len(row) != width:
                    raise InputError(
                        f"has {len(row)} cells but the header has {width}",
                        file=shown,
                        line=line,
                        fix="quote cells that contain "
                        "commas, and give every row one cell per column",
                    )
                yield line, _row(row, columns, shown, line, intern)
    except csv.Error as exc:
        if "field limit" in str(exc):
            raise InputError(
                f"has a cell longer than {csv.field_size_limit()} characters",
                file=shown,
                line=line + 1,
                fix="shorten the ids, or check for an unclosed quote above",
            ) from None
        raise InputError(
            f"is not valid CSV: {exc}",
            file=shown,
            line=line + 1,
            fix="quote cells containing commas, quotes or line breaks, "
            "and double quotes inside quoted cells",
        ) from None
    except (OSError, EOFError, zlib.error) as exc:
        raise _gzip_error(shown, exc, line + 1) from None


def _row(
    row: list[str],
    at: Callable[[list[str]], tuple[str, ...]],
    shown: str,
    line: int,
    intern: Intern,
) -> EvalRun:
    """One CSV row; `at` picks the fields in `FIELDS` order (absent ones read "")."""
    row.append("")  # the cell every absent field points at (index -1)
    model, task, score, metric, category, weight, item, cluster, sample, *rest = at(row)
    measures, error_cell = rest[: len(MEASURES)], rest[len(MEASURES)]
    texts = rest[len(MEASURES) + 1 :]
    try:
        error = error_text(error_cell)
        check_scored_or_errored(score, error, absent=score.strip() == "", empty="is empty")
        sample = sample.strip()
        if sample and not _INTEGER.fullmatch(sample):
            raise FieldProblem(
                "sample",
                f"must be a non-negative integer, got {show(sample)}",
                "number repeated samples of an item 0, 1, 2, ...",
            )
        return _make_run(
            model=_text("model_id", model, intern),
            task=_text("task_id", task, intern),
            score=None if error is not None else _score(score),
            metric=_text("metric_name", metric, intern) if metric else None,
            category=_text("category", category, intern) if category else DEFAULT_CATEGORY,
            weight=_number("weight", weight) if weight.strip() else 1.0,
            item=_text("item_id", item, intern) if item else None,
            cluster=_text("cluster", cluster, intern) if cluster else None,
            sample=int(sample) if sample else None,
            cost=_number("cost", measures[0]) if measures[0].strip() else None,
            latency=_number("latency", measures[1]) if measures[1].strip() else None,
            tokens=_number("tokens", measures[2]) if measures[2].strip() else None,
            error=error,
            texts=(kept_text(texts[0] or None), kept_text(texts[1] or None)),
        )
    except FieldProblem as problem:
        raise problem.at(shown, line=line) from None
    except InputError as err:
        raise relocate(err, shown, line=line) from None


def _decoded(handle: IO[bytes], shown: str) -> Iterator[str]:
    """The lines of `handle` as text, each checked to be UTF-8 where it stands."""
    for number, raw in iter_lines(handle, shown):
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(
                f"is not valid UTF-8 (byte 0x{raw[exc.start]:02x}, column {exc.start + 1})",
                file=shown,
                line=number,
                fix="save the file as UTF-8",
            ) from None
