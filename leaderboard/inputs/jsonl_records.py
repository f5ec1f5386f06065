"""The JSON Lines reader of the input contract (``.jsonl``/``.ndjson``): one record a
line, blank lines allowed.

A million records load in about 1.2-1.5 times a bare `json.loads` of each line
(`make bench`; docs/frameworks.md, "Real sizes"): lines are split a megabyte at a
time; in a file past `fast_json.records_crossover` each part of `PART` lines goes first
through `jsonl_blocks.block_runs` (typed decoding by msgspec, checks and records a
column at a time). A part it declines, and every line of a smaller file, goes line by
line: through `fast_record` (msgspec, no hooks, one pass of checks) once msgspec is
loaded, and where that declines, which includes every line with an error, through
`_jsonl_line`, the full reader of `json_records`, which keeps huge integers as text,
refuses repeated keys and words the message.
"""

from __future__ import annotations

import json
import math
import zlib
from collections.abc import Callable, Iterator
from operator import itemgetter
from pathlib import Path
from typing import IO, Any

from leaderboard.errors import InputError
from leaderboard.inputs import fast_json, reading
from leaderboard.inputs.json_records import run_from_object
from leaderboard.inputs.jsonl_blocks import HUGE, block_runs
from leaderboard.inputs.reading import (
    CORE_FIELDS,
    UTF8_BOM,
    DuplicateKeyError,
    FieldProblem,
    Intern,
    Place,
    _gzip_error,
    check_keys,
    line_too_long,
    loads,
    open_binary,
    printable,
    relocate,
)
from leaderboard.inputs.records import DEFAULT_CATEGORY, TEXTS, EvalRun, checked_run

_BLOCK = 2**20  # bytes split at a time: ~3 MB held while a block is read
#: Lines decoded at a time by `block_runs` (their typed lines and columns: ~0.5 MB;
#: fewer than the 2,000 tuples of a size Python keeps for reuse once freed).
PART = 1024
_MAX_PLANS = 4096  # key sets remembered; a file with more reads the rest slowly
_FIELD_SET = frozenset((*CORE_FIELDS, *TEXTS))  # measures take the full reader


def iter_jsonl(path: Path, shown: str, intern: Intern) -> Iterator[Place]:
    """Records of a JSON Lines file with their line numbers; blank lines are skipped."""
    keys_seen: dict[tuple[str, ...], Any] = {}
    plans: dict[tuple[str, ...], Any] = {}
    number = 0
    fast = fast_json.in_use()  # else the full reader (the place of an error)
    handle = open_binary(path, shown)
    try:
        with handle:
            for block in _line_blocks(handle, shown):
                for raw in block:
                    number += 1
                    if not raw:
                        continue
                    run = fast_record(raw, intern, plans) if fast else None
                    if run is not None:
                        yield number, run
                    elif raw and not raw.isspace():
                        yield number, _jsonl_line(raw, shown, number, intern, keys_seen)
    except (OSError, EOFError, zlib.error) as exc:
        raise _gzip_error(shown, exc, number + 1) from None


def load_jsonl(
    path: Path, shown: str, intern: Intern, into: list[EvalRun], limit: int
) -> None:
    """Append the records of a JSON Lines file to `into`, stopping past `limit` in all.

    What `load_runs` uses, without a generator between the lines and the list. Once
    the file has reached `fast_json.records_crossover` bytes (or msgspec is loaded
    already), each block of lines is decoded whole into typed lines and built in
    columns (`jsonl_blocks.block_runs`); a block it declines, and every block of a
    smaller file, is read a line at a time (`fast_record` with msgspec, else the full
    reader), which words any error. It stops once `into` holds more than `limit`
    records, so the caller can refuse a run that is too large without reading all of
    it.
    """
    keys_seen: dict[tuple[str, ...], Any] = {}
    plans: dict[tuple[str, ...], Any] = {}
    append = into.append
    number = seen = taken = declined = 0
    fast = fast_json.in_use()
    crossover = fast_json.records_crossover()
    handle = open_binary(path, shown)
    try:
        with handle:
            for block in _line_blocks(handle, shown):
                if not fast:
                    seen += sum(map(len, block)) + len(block)
                    fast = fast_json.use_for(seen, crossover)
                for part in _parts(block) if fast else (block,):
                    if fast and _blocks_pay(taken, declined):
                        lines = part
                        if b"" in part or b"\r" in part:  # blank lines, CRLF's too
                            lines = [r for r in part if r and not r.isspace()]
                        runs = block_runs(lines, intern)
                        if runs is not None:
                            into.extend(runs)
                            number += len(part)
                            taken += 1
                            continue
                        declined += 1
                    number = _read_lines(
                        part, number, (shown, intern, keys_seen, plans, fast), append
                    )
                if len(into) > limit:
                    return
    except (OSError, EOFError, zlib.error) as exc:
        raise _gzip_error(shown, exc, number + 1) from None


DECLINES_TRIED = 2
"""Parts `block_runs` may decline in a file before it is asked only while it takes at
least `TAKEN_PER_DECLINE` parts for each part it declines."""
TAKEN_PER_DECLINE = 8


def _blocks_pay(taken: int, declined: int) -> bool:
    """Whether the next part goes to `block_runs` first. A declined part is decoded
    twice (whole, then a line at a time): a file where most parts hold a line the
    block path declines (an escaped quote in a kept text, a line with an ``error``)
    would read slower than without it, so such a file is read a line at a time
    after its first few declines."""
    return declined < DECLINES_TRIED or declined * TAKEN_PER_DECLINE <= taken


def _parts(block: list[bytes]) -> Iterator[list[bytes]]:
    """`block` in parts of `PART` lines: what `block_runs` holds decoded at a time."""
    if len(block) <= PART:
        yield block
    else:
        for start in range(0, len(block), PART):
            yield block[start : start + PART]


def _read_lines(
    lines: list[bytes],
    number: int,
    how: tuple[str, Intern, dict[tuple[str, ...], Any], dict[tuple[str, ...], Any], bool],
    append: Callable[[EvalRun], None],
) -> int:
    """Append the records of `lines` (the first is line ``number + 1``) a line at a
    time: `fast_record` with msgspec, else (or where it declines) the full reader.
    Returns the number of the last line."""
    shown, intern, keys_seen, plans, fast = how
    for raw in lines:
        number += 1
        if not raw:
            continue
        run = fast_record(raw, intern, plans) if fast else None
        if run is None:
            if raw.isspace():
                continue
            run = _jsonl_line(raw, shown, number, intern, keys_seen)
        append(run)
    return number


def _line_blocks(handle: IO[bytes], shown: str) -> Iterator[list[bytes]]:
    """The lines of `handle` (without their newline), a few megabytes at a time.

    Splitting a block in C is what lets a million lines load in seconds; a line
    longer than `MAX_LINE` is refused as soon as it is seen (so a file without line
    breaks is never held whole), and a UTF-8 BOM at the start is dropped.
    """
    carry = handle.read(len(UTF8_BOM))
    carry = b"" if carry == UTF8_BOM else carry
    seen = 0
    while block := handle.read(_BLOCK):
        lines = (carry + block).split(b"\n") if carry else block.split(b"\n")
        carry = lines.pop()
        cap = reading.MAX_LINE
        if len(carry) > cap:
            raise line_too_long(shown, seen + len(lines) + 1)
        longest = max(map(len, lines)) if lines else 0
        if longest > cap:
            long = next(i for i, line in enumerate(lines) if len(line) > cap)
            raise line_too_long(shown, seen + long + 1)
        if longest > reading.LONG_LINE:  # the document budget, before any is parsed
            for i, line in enumerate(lines):
                if len(line) > reading.LONG_LINE:
                    reading.check_document(line, shown, "line", seen + i + 1)
        seen += len(lines)
        if seen > reading.MAX_LINES:
            raise reading.too_many_lines(shown)
        yield lines
    if carry:
        if len(carry) > reading.LONG_LINE:
            reading.check_document(carry, shown, "line", seen + 1)
        yield [carry]


def fast_record(  # noqa: PLR0911, PLR0912, PLR0915 - one straight path
    raw: bytes, intern: Intern, plans: dict[tuple[str, ...], Any]
) -> EvalRun | None:
    """The record on one JSON Lines line, on the common path only; None otherwise.

    Parses with msgspec (`fast_json.decode`; a text it refuses goes to the full
    reader, which says what is wrong) and accepts only what the full reader
    would accept unchanged: an object of contract fields only, whose key set passed
    `check_keys`, with ids that are printable non-empty strings (integers for
    item_id and cluster), a score in [0, 1], a positive weight and a non-negative
    sample. `plans` caches, per key set, how to pick the fields from the values.

    A repeated key, which a plain dict hides, is excluded exactly by counting
    quotes: the line holds at least two per key written and two per string value
    kept, and the dict shows exactly ``2 * (keys + string values)`` of them; any
    more (a repeated key, an escaped quote, a nested object) sends the line to the
    full reader.
    """
    obj = fast_json.decode(raw)
    if type(obj) is not dict:
        return None
    keys = tuple(obj)
    pick = plans.get(keys)
    if pick is None:
        if (
            len(plans) >= _MAX_PLANS
            or not set(keys) <= _FIELD_SET
            or check_keys(keys) is not None
        ):
            return None
        where = {key: index for index, key in enumerate(keys)}
        picked = (*CORE_FIELDS, *TEXTS)
        pick = plans[keys] = itemgetter(*(where.get(f, -1) for f in picked))
    # The values in the order of FIELDS; an absent field picks the None appended.
    model, task, score, metric, category, weight, item, cluster, sample, said, answer = (
        pick((*obj.values(), None))
    )
    if type(model) is not str or type(task) is not str:
        return None
    kind = type(score)
    if kind is bool or (kind is int and 0 <= score <= 1):
        score = float(score)
    elif kind is not float or not 0.0 <= score <= 1.0:
        return None
    if weight is None:
        weight = 1.0
    elif type(weight) is int and 0 < weight <= 2**53:
        weight = float(weight)
    elif type(weight) is not float or not 0.0 < weight < math.inf:
        return None
    if sample is not None and (type(sample) is not int or not 0 <= sample < HUGE):
        return None
    strings = 2  # model_id and task_id
    if item is None:
        if cluster is not None or sample is not None:
            return None
    else:
        if type(item) is int:
            item = str(item)
        elif type(item) is not str or not item or not item.isprintable():
            return None
        else:
            strings += 1
        item = intern(item)
        if cluster is not None:
            if type(cluster) is int:
                cluster = str(cluster)
            elif type(cluster) is not str or not cluster or not cluster.isprintable():
                return None
            else:
                strings += 1
            cluster = intern(cluster)
    if category is None:
        category = DEFAULT_CATEGORY
    elif type(category) is not str or not category or not category.isprintable():
        return None
    else:
        strings += 1
    if metric is not None:
        if type(metric) is not str or not metric or not metric.isprintable():
            return None
        strings += 1
        metric = intern(metric)
    for text in (said, answer):  # the item's input and answer: any string
        if text is not None:
            if type(text) is not str:
                return None
            strings += 1
    if raw.count(b'"') != 2 * (len(keys) + strings) or not (
        model and task and model.isprintable() and task.isprintable()
    ):
        return None
    return checked_run(
        intern(model),
        intern(task),
        score,
        metric,
        intern(category),
        weight,
        item,
        cluster,
        sample,
        input=said,
        output=answer,
    )


def _jsonl_line(
    raw: bytes,
    shown: str,
    number: int,
    intern: Intern,
    keys_seen: dict[tuple[str, ...], Any],
) -> EvalRun:
    try:
        text = raw.decode("utf-8").rstrip("\r\n")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"is not valid UTF-8 (byte 0x{raw[exc.start]:02x} at column {exc.start + 1})",
            file=shown,
            line=number,
            fix="save the file as UTF-8",
        ) from None
    try:
        obj = loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"is not valid JSON: {exc.msg.removesuffix(' at')} at column {exc.colno}",
            file=shown,
            line=number,
            fix="write one complete JSON object per line, "
            "with no line breaks inside a record",
        ) from None
    except DuplicateKeyError as exc:
        raise InputError(
            "appears twice in one record",
            file=shown,
            line=number,
            field=printable(exc.key),
            fix="keep one value per field",
        ) from None
    except RecursionError:
        raise InputError(
            "is nested too deeply to be an eval record",
            file=shown,
            line=number,
            fix="write flat record objects",
        ) from None
    try:
        return run_from_object(obj, intern, keys_seen)
    except FieldProblem as problem:
        raise problem.at(shown, line=number) from None
    except InputError as err:
        raise relocate(err, shown, line=number) from None
