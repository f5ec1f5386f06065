"""Records JSON Lines decoded a block at a time into typed lines, built in columns.

The common path of `jsonl_records.load_jsonl` once msgspec is loaded
(`fast_json.use_for`): each line of a block of about a megabyte is decoded by msgspec
straight into a typed line (`LINE_FIELDS`: the contract's plain fields, unknown fields
refused, each value of its JSON kind), so msgspec itself refuses most of what the
full reader would refuse or treat specially. The checks that are left (ids printable
and non-empty, a score in [0, 1], a positive weight, a non-negative sample, no cluster
or sample without an item, no repeated key) are made a column at a time, over the
block's distinct values where they repeat, and the `EvalRun` records are built a field
at a time by the slots' own setters, so Python runs no bytecode a record.

`block_runs` accepts a block only when every line is one the line-by-line path
(`jsonl_records.fast_record`, itself the full reader's value) gives exactly the same
record for; otherwise it returns None and the block is read again a line at a time,
so every error, note and value is the one it was. What is declined: anything msgspec
does not decode into a typed line (not JSON, a field of another type, an unknown
field such as a measure, ``error`` or ``metrics``, a null score, a number beyond a
double, invalid UTF-8, a blank line), a value the checks above refuse, and any line
holding more quotes than its keys and strings account for (a repeated key, an escaped
quote).
"""

from __future__ import annotations

import functools
import math
from collections import deque
from collections.abc import Callable, Sequence
from itertools import repeat
from typing import Any

from leaderboard.inputs import fast_json
from leaderboard.inputs.reading import CORE_FIELDS, Intern
from leaderboard.inputs.records import (
    DEFAULT_CATEGORY,
    MAX_INTEGER,
    TEXTS,
    EvalRun,
    keeps_texts,
    kept_text,
    record_setters,
)

#: The fields of a line the block path reads, in `EvalRun`'s order: the core fields
#: and the optional text. Any other key declines the block.
LINE_FIELDS = (*CORE_FIELDS, *TEXTS)
_new = object.__new__
#: The smallest integer of over `fast_json.MAX_DIGITS` digits: the full reader keeps
#: such a number as text (`reading.BigInt`) and refuses it as a sample.
HUGE = 10**fast_json.MAX_DIGITS


@functools.cache
def _typed() -> tuple[
    Callable[[bytes], Any],
    Callable[[Any], tuple[Any, ...]],
    tuple[type[BaseException], ...],
    object,
]:
    """(decode one line into a typed line, its values as a tuple in `LINE_FIELDS`'
    order, what decoding raises, msgspec's UNSET): a field left out of the line is
    UNSET, one given as null is None."""
    msgspec = fast_json.parser().msgspec
    unset, absent = msgspec.UNSET, msgspec.UnsetType
    text = str | None | absent
    ident = str | int | None | absent
    line = msgspec.defstruct(
        "RecordLine",
        [
            ("model_id", str),
            ("task_id", str),
            ("score", bool | int | float),
            ("metric_name", text, unset),
            ("category", text, unset),
            ("weight", int | float | None | absent, unset),
            ("item_id", ident, unset),
            ("cluster", ident, unset),
            ("sample", int | None | absent, unset),
            ("input", text, unset),
            ("output", text, unset),
        ],
        forbid_unknown_fields=True,
        gc=False,
    )
    errors = (msgspec.MsgspecError, RecursionError)
    return msgspec.json.Decoder(line).decode, msgspec.structs.astuple, errors, unset


def _printable(values: Sequence[Any]) -> bool:
    """Whether no string among `values` is empty or unprintable (each distinct one
    checked once)."""
    return not any(
        type(value) is str and (not value or not value.isprintable())
        for value in set(values)
    )


def _ids(values: Sequence[Any], intern: Intern) -> list[str] | None:
    """`values` (strings) interned, or None if any is empty or not printable."""
    return list(map(intern, values)) if _printable(values) else None


def _nothing_given(values: Sequence[Any], unset: object) -> bool:
    """Whether every line leaves the field out or gives it as null."""
    return values.count(unset) == len(values) or set(map(type, values)) <= {
        type(None),
        type(unset),
    }


def _optional_ids(  # noqa: PLR0911 - one return a kind of column
    values: Sequence[Any], intern: Intern, unset: object, *, integer_ok: bool
) -> tuple[list[Any], int] | None:
    """(`values` as the record keeps them, how many were strings in the line): null
    and absent are None, integers their text (`integer_ok`), strings interned; None
    if one is an empty or unprintable string."""
    if values.count(unset) == len(values):  # no line names it: the common case
        return [None] * len(values), 0
    types = list(map(type, values))
    strings = types.count(str)
    if strings == len(values):  # strings only: no set of kinds to make
        return (list(map(intern, values)), strings) if _printable(values) else None
    kinds = set(types)
    if kinds <= {type(None), type(unset)}:
        return [None] * len(values), 0
    if strings and not _printable(values):
        return None
    if kinds == {str}:
        return list(map(intern, values)), strings
    if kinds == {int} and integer_ok:
        return list(map(intern, map(str, values))), strings
    out = [
        None if value is None or value is unset else intern(str(value)) for value in values
    ]
    return out, strings


def _present(values: Sequence[Any], unset: object) -> int:
    """Keys written in the lines for one field: all but the absent ones."""
    return len(values) - values.count(unset)


def block_runs(  # noqa: PLR0911, PLR0915 - one decline a check
    lines: Sequence[bytes], intern: Intern
) -> list[EvalRun] | None:
    """The records of a block of non-blank lines, or None to read it line by line."""
    decode, astuple, errors, unset = _typed()
    try:
        rows = list(map(decode, lines))
    except errors:
        return None
    n = len(rows)
    columns = zip(*map(astuple, rows), strict=True) if rows else [()] * len(LINE_FIELDS)
    col: dict[str, Any] = dict(zip(LINE_FIELDS, columns, strict=True))
    del rows
    model = _ids(col["model_id"], intern)
    task = _ids(col["task_id"], intern)
    if model is None or task is None:
        return None
    try:
        score = list(map(float, col["score"]))
    except OverflowError:  # an integer beyond a double
        return None
    if score and not (min(score) >= 0.0 and max(score) <= 1.0):
        return None
    keys = 3 * n
    strings = 2 * n
    found = _optional_ids(col["metric_name"], intern, unset, integer_ok=False)
    if found is None:
        return None
    metric, count = found
    keys += _present(col["metric_name"], unset)
    strings += count
    found = _optional_ids(col["category"], intern, unset, integer_ok=False)
    if found is None:
        return None
    category = [DEFAULT_CATEGORY if c is None else c for c in found[0]]
    keys += _present(col["category"], unset)
    strings += found[1]
    weight = _weights(col["weight"], unset)
    if weight is None:
        return None
    keys += _present(col["weight"], unset)
    items = _optional_ids(col["item_id"], intern, unset, integer_ok=True)
    clusters = _optional_ids(col["cluster"], intern, unset, integer_ok=True)
    sample = _samples(col["sample"], unset)
    if items is None or clusters is None or sample is None:
        return None
    item, cluster = items[0], clusters[0]
    if None in item and not _alone(item, cluster, sample):
        return None  # a cluster or a sample without an item: the full reader says
    keys += _present(col["item_id"], unset) + _present(col["cluster"], unset)
    keys += _present(col["sample"], unset)
    strings += items[1] + clusters[1]
    texts: list[list[str | None] | None] = []
    for name in TEXTS:
        values = col[name]
        if values.count(unset) == n:  # no line names it
            texts.append(None)
            continue
        keys += _present(values, unset)
        kept = [None if v is unset else v for v in values]
        strings += n - kept.count(None)
        texts.append(list(map(kept_text, kept)) if keeps_texts() else None)
    quotes = b"\n".join(lines).count(b'"')
    if quotes != 2 * (keys + strings):
        return None  # a repeated key, an escaped quote: the full reader says
    return _build(
        n,
        (model, task, score, metric, category, weight, item, cluster, sample),
        texts,
    )


def _weights(values: Sequence[Any], unset: object) -> list[float] | None:
    """Each record's weight: 1.0 where null or absent; None if one is not a finite
    number > 0 (integers up to `MAX_INTEGER`)."""
    if _nothing_given(values, unset):
        return [1.0] * len(values)
    out = []
    for value in values:
        if value is None or value is unset:
            out.append(1.0)
        elif type(value) is int and 0 < value <= MAX_INTEGER:
            out.append(float(value))
        elif type(value) is float and 0.0 < value < math.inf:
            out.append(value)
        else:
            return None
    return out


def _samples(values: Sequence[Any], unset: object) -> list[int | None] | None:
    """Each record's sample (None where null or absent); None if one is negative or
    of over 4000 digits (the full reader refuses both)."""
    if _nothing_given(values, unset):
        return [None] * len(values)
    out = [None if value is unset else value for value in values]
    present = [value for value in out if value is not None]
    if min(present) < 0 or max(present) >= HUGE:  # a huge one is text to the full reader
        return None
    return out


def _alone(item: Sequence[Any], cluster: Sequence[Any], sample: Sequence[Any]) -> bool:
    """Whether no record without an item has a cluster or a sample."""
    return all(
        c is None and s is None
        for i, c, s in zip(item, cluster, sample, strict=True)
        if i is None
    )


def _build(n: int, core: tuple[Sequence[Any], ...], texts: list[Any]) -> list[EvalRun]:
    """`n` records from their fields' columns (`EvalRun`'s order), each slot set by
    its own setter a column at a time; the fields the path never reads are empty."""
    runs = list(map(_new, repeat(EvalRun, n)))
    said, answer = texts
    columns: list[Any] = [
        *core,
        repeat(None),  # cost
        repeat(None),  # latency
        repeat(None),  # tokens
        repeat(()),  # metrics
        repeat(None),  # error
        repeat(None) if said is None else said,
        repeat(None) if answer is None else answer,
    ]
    for setter, values in zip(record_setters(), columns, strict=True):
        deque(map(setter, runs, values), maxlen=0)
    return runs
