"""Readers for the record formats of the input contract: JSON, JSON Lines and CSV.

Each reader streams `(place, EvalRun)` pairs from one file, where ``place`` is the
1-based line (JSON Lines, CSV; the CSV header is line 1) or the 1-based record number
(a JSON array). Any file may be gzipped; gzip is recognised by its magic bytes.

Canonical form (so the same record read from JSON and from CSV is the same record):
``item_id`` and ``cluster`` are always strings (the JSON integer ``42`` and the CSV
cell ``42`` both become ``"42"``); ``category`` defaults to ``"general"``, ``weight``
to 1.0; a JSON ``null`` or an empty CSV cell of an optional field means absent.
"""

from __future__ import annotations

import gzip
import json
import math
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any, cast

from leaderboard.errors import InputError
from leaderboard.inputs import fast_json
from leaderboard.inputs.fast_json import DECLINED, MAX_DIGITS, fast_loads
from leaderboard.inputs.records import (
    MEASURES,
    TEXTS,
    EvalRun,
    bad_character,
    error_message,
)

#: The formats the `format` input (``--format``) takes that read a framework's own
#: files (the readers are in ``leaderboard.inputs.frameworks``).
FRAMEWORK_FORMATS: tuple[str, ...] = (
    "inspect",
    "lm-eval",
    "promptfoo",
    "evalscope",
    "helm",
    "livecodebench",
    "lighteval",
    "deepeval",
    "swe-bench",
)
#: The end of the fix for a file in no format the loader told apart: every one of them.
FORMAT_HINT = (
    "or, for a framework's own file, set `format` (--format) to "
    + ", ".join(FRAMEWORK_FORMATS[:-1])
    + f" or {FRAMEWORK_FORMATS[-1]}"
)


GZIP_MAGIC = b"\x1f\x8b"
UTF8_BOM = b"\xef\xbb\xbf"
HEAD_BYTES = 64 * 1024
MAX_LINE = 16 * 2**20  # no eval record is this long; a longer "line" is a wrong file
# Limits that keep a small hostile artifact (a gzip bomb, `[{},{},...]`, a million
# models) from exhausting a runner's memory; each refusal says what to do instead.
#: Bytes read from one file, after decompression (JSON Lines and CSV stream).
MAX_DECOMPRESSED = 2**30
#: Bytes of one document parsed whole (a .json file, a framework log or member).
MAX_DOCUMENT = 128 * 2**20
#: Objects and arrays in one document parsed whole (a record object costs ~400 bytes
#: parsed; `[{},{},...]` 64 bytes for every 3 of text).
MAX_CONTAINERS = 1_000_000
#: Values in one document or line parsed whole, counted by their commas (a float costs
#: ~32 bytes parsed, so `[0.0,0.0,...]` takes 16 times its text).
MAX_VALUES = 16_000_000
#: Lines longer than this are counted for containers and values before they are parsed
#: (shorter ones cannot hold enough to matter).
LONG_LINE = 64 * 1024
#: Records of one run, all files together.
MAX_RECORDS = 2_000_000
#: Lines of one file (blank ones too: a gzip of newlines is a time bomb otherwise).
MAX_LINES = 4 * MAX_RECORDS
#: The fields of the original input contract, in the order the readers pick them.
CORE_FIELDS = (
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
#: Every contract field: the core ones, the optional measures (section 8), then
#: ``error`` (section 13: with ``"score": null``, an errored unit, attempted and not
#: scored), then the optional text (the item's input, the model's answer:
#: docs/records.md).
FIELDS = (*CORE_FIELDS, *MEASURES, "error", *TEXTS)
REQUIRED = ("model_id", "task_id", "score")
# The fields a near-miss key is refused for: not the optional text, whose near
# misses (`inputs`, `outputs`) records already carry as fields of their own.
_SUGGESTED = (*CORE_FIELDS, *MEASURES, "error")
RECORD_KINDS = ("json", "jsonl", "csv")
EXTENSIONS = {".json": "json", ".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv"}
# Names runners use for a required field; only suggested when the field is missing.
_ALIASES = {
    "model": "model_id",
    "model_name": "model_id",
    "system": "model_id",
    "task": "task_id",
    "task_name": "task_id",
    "benchmark": "task_id",
    "value": "score",
    "accuracy": "score",
    "acc": "score",
}
_MAX_SHOWN = 60

Place = tuple[int, EvalRun]
Intern = Callable[[str], str]


class FieldProblem(Exception):
    """A problem with one field of one record, before its place is known."""

    def __init__(self, field: str | None, problem: str, fix: str) -> None:
        super().__init__(problem)
        self.field = field
        self.problem = problem
        self.fix = fix

    def at(
        self, file: str, *, line: int | None = None, record: int | None = None
    ) -> InputError:
        return InputError(
            self.problem,
            file=file,
            line=line,
            record=record,
            field=self.field,
            fix=self.fix,
        )


class BigInt(str):
    """A JSON integer too long for `int` (over 4000 digits): kept as its text."""


class DuplicateKeyError(ValueError):
    """A key written twice in one JSON object."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _parse_int(text: str) -> int | BigInt:
    return int(text) if len(text) <= MAX_DIGITS else BigInt(text)


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:  # pragma: no branch - a repeat exists
            if key in seen:
                raise DuplicateKeyError(key)
            seen.add(key)
    return obj


#: The decoder of every input: huge integers as text, a repeated key refused.
DECODER = json.JSONDecoder(parse_int=_parse_int, object_pairs_hook=_object)


def loads(text: str | bytes) -> Any:
    """`json.loads` that keeps huge integers as text and refuses repeated keys.

    Every JSON document and line read from an input goes through here (after
    `check_document`): an integer of over 4000 digits is a `BigInt` (a string, so no
    numeric check takes it for a number), a key written twice is `DuplicateKeyError`.
    msgspec parses it when it gives the same value (`fast_json.fast_loads`) once a
    large enough text loaded it (`fast_json.use_for`); the standard library
    otherwise, and for every error.
    """
    if fast_json.in_use():
        value = fast_loads(text)
        if value is not DECLINED:
            return value
    if isinstance(text, bytes):
        return json.loads(text, parse_int=_parse_int, object_pairs_hook=_object)
    return DECODER.decode(text)


def relocate(
    err: InputError, file: str, *, line: int | None = None, record: int | None = None
) -> InputError:
    """Return `err` (raised by `EvalRun`) with its place in the file filled in."""
    return InputError(
        err.problem, file=file, line=line, record=record, field=err.field, fix=err.fix
    )


def printable(text: str, limit: int = _MAX_SHOWN) -> str:
    """`text` safe inside a one-line message: escaped when invisible, cut when long."""
    if not text.isprintable():
        text = repr(text)[1:-1]
    return text if len(text) <= limit else text[: limit - 3] + "..."


def show(value: object) -> str:  # noqa: PLR0911 - one return per JSON type
    """A short, one-line rendering of a value for an error message."""
    if isinstance(value, BigInt):
        return f"an integer of {len(value)} digits"
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, str):
        text = repr(value)
        return "string " + (text if len(text) <= _MAX_SHOWN else text[:_MAX_SHOWN] + "...")
    if isinstance(value, (int, float)):
        text = repr(value)
        return text if len(text) <= _MAX_SHOWN else f"a number of {len(text)} digits"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__  # pragma: no cover - JSON has no other types


# ---------------------------------------------------------------------------- files


def open_binary(path: Path, shown: str) -> IO[bytes]:
    """Open `path` for reading bytes, un-gzipping it when it starts with gzip's magic."""
    try:
        handle = path.open("rb")
    except FileNotFoundError:
        raise InputError(
            "no such file",
            file=shown,
            fix="check the path; it is relative to the working directory",
        ) from None
    except IsADirectoryError:
        raise InputError(
            "is a directory, not a file",
            file=shown,
            fix="give files, or a glob such as 'results/**/*.jsonl'",
        ) from None
    except OSError as exc:
        raise InputError(
            f"cannot be read ({exc.strerror})",
            file=shown,
            fix="check the file's permissions",
        ) from None
    try:
        magic = handle.read(2)
        handle.seek(0)
    except OSError as exc:
        handle.close()
        raise InputError(
            f"cannot be read ({exc.strerror})", file=shown, fix="give a regular file"
        ) from None
    if magic == GZIP_MAGIC:
        handle.close()
        return cast(IO[bytes], Capped(cast(IO[bytes], gzip.open(path, "rb")), shown))
    if magic and path.name.lower().endswith(".gz"):
        handle.close()
        raise InputError(
            "is named .gz but is not gzip-compressed",
            file=shown,
            fix="compress it with gzip, or drop the .gz suffix",
        )
    return handle


class Capped:
    """A binary stream that refuses to give more than `limit` bytes in all.

    Wraps a decompressing stream: a gzip bomb stops at the limit with a message,
    whatever its compressed size.
    """

    def __init__(self, raw: IO[bytes], shown: str, limit: int | None = None) -> None:
        self.limit = MAX_DECOMPRESSED if limit is None else limit
        self.raw, self.shown, self.left = raw, shown, self.limit

    def _count(self, data: bytes) -> bytes:
        self.left -= len(data)
        if self.left < 0:
            raise too_big(self.shown, self.limit)
        return data

    def read(self, size: int = -1) -> bytes:
        if size < 0 or size > self.left + 1:
            size = self.left + 1
        return self._count(self.raw.read(size))

    def readline(self, size: int = -1) -> bytes:
        if size < 0 or size > self.left + 1:
            size = self.left + 1
        return self._count(self.raw.readline(size))

    def seek(self, offset: int, whence: int = 0) -> int:
        return self.raw.seek(offset, whence)

    def close(self) -> None:
        self.raw.close()

    def __enter__(self) -> Capped:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def size_text(size: int) -> str:
    """``256 MiB``, or bytes below a MiB."""
    return f"{size // 2**20:,} MiB" if size >= 2**20 else f"{size:,} bytes"


def too_big(shown: str, limit: int, what: str = "after decompression") -> InputError:
    """The refusal of a file (or member) over `limit` bytes."""
    return InputError(
        f"holds more than {size_text(limit)} {what}",
        file=shown,
        fix="split the results into smaller files (JSON Lines is read a line at a "
        "time), or check that the file is what the eval runner wrote",
    )


def parse_document(
    data: bytes | str, shown: str, what: str = "document", line: int | None = None
) -> Any:
    """Parse one JSON document (or one line) read whole, refusing what would not fit.

    The one budget of every JSON value read from an input: at most `MAX_DOCUMENT`
    bytes (the caller reads one byte more and passes it on, so a longer one is
    refused here), `MAX_CONTAINERS` objects and arrays and `MAX_VALUES` values,
    counted in the text before parsing (parsed JSON takes up to ~25 times its text;
    quoted braces and commas count too: an over-estimate). A value nested deeper
    than Python's recursion limit, and a key repeated in one object, are refused,
    never a crash. Integers of over 4000 digits are kept as `BigInt` text.

    Raises
    ------
    InputError
        Too long, too many containers or values, nested too deeply, a repeated key.
        ``ValueError`` (not JSON) is left to the caller, which knows what to advise.
    """
    check_document(data, shown, what, line)
    fast_json.use_for(len(data))
    return parse_line(data, shown, line)


def parse_line(data: bytes | str, shown: str, line: int | None) -> Any:
    """`parse_document` of a line shorter than `LONG_LINE`, without counting its
    containers and values first: so short a line cannot hold enough to matter."""
    try:
        return loads(data)
    except RecursionError:
        raise nested_too_deeply(shown, line) from None
    except DuplicateKeyError as exc:
        raise InputError(
            f"repeats the key {printable(exc.key)!r} in one object",
            file=shown,
            line=line,
            field=printable(exc.key),
            fix="keep one value per key; check that the file is what the eval runner wrote",
        ) from None


def check_document(
    data: bytes | str, shown: str, what: str = "document", line: int | None = None
) -> None:
    """Refuse a document too long, or with too many containers or values, to parse."""
    if len(data) > MAX_DOCUMENT:
        raise too_big(shown, MAX_DOCUMENT, f"as one JSON {what}")
    if isinstance(data, str):
        containers = data.count("{") + data.count("[")
        values = data.count(",")
    else:
        containers = data.count(b"{") + data.count(b"[")
        values = data.count(b",")
    if containers > MAX_CONTAINERS or values > MAX_VALUES:
        many = (
            f"{MAX_CONTAINERS:,} JSON objects and arrays"
            if containers > MAX_CONTAINERS
            else f"{MAX_VALUES:,} JSON values"
        )
        raise InputError(
            f"holds more than {many} in one {what}, more than fits in memory",
            file=shown,
            line=line,
            fix="write records as JSON Lines (.jsonl), one record a line",
        )


def nested_too_deeply(shown: str, line: int | None = None) -> InputError:
    """The refusal of a JSON value nested deeper than Python can parse."""
    return InputError(
        "is nested too deeply to be read (thousands of levels of [ or {)",
        file=shown,
        line=line,
        fix="check that the file is what the eval runner wrote",
    )


def _gzip_error(shown: str, exc: BaseException, line: int | None = None) -> InputError:
    return InputError(
        f"is not a valid gzip stream or is truncated: {exc}",
        file=shown,
        line=line,
        fix="re-create the file with gzip",
    )


def iter_lines(
    handle: IO[bytes], shown: str, limit: int | None = None
) -> Iterator[tuple[int, bytes]]:
    """Number the lines of `handle` from 1, without a leading BOM, each at most `limit`.

    The cap keeps a file without line breaks (or a gzip bomb of one) from being read
    into memory whole: one line is held at a time.
    """
    limit = MAX_LINE if limit is None else limit
    readline = handle.readline
    number = 0
    while raw := readline(limit + 1):
        number += 1
        if number > MAX_LINES:
            raise too_many_lines(shown)
        if len(raw) > limit and not raw.endswith(b"\n"):
            raise line_too_long(shown, number, limit)
        if number == 1 and raw.startswith(UTF8_BOM):
            raw = raw[3:]
        yield number, raw


def too_many_records(shown: str) -> InputError:
    """The refusal of a file that brings the run past `MAX_RECORDS` records."""
    return InputError(
        f"brings the run past {MAX_RECORDS:,} records, more than the leaderboard "
        "reads in one go",
        file=shown,
        fix="aggregate repeated samples, or split the run into several leaderboards "
        "(one per suite)",
    )


def too_many_lines(shown: str) -> InputError:
    """The refusal of a file over `MAX_LINES` lines."""
    return InputError(
        f"has more than {MAX_LINES:,} lines",
        file=shown,
        fix="split the results into several files, and drop blank lines",
    )


def line_too_long(shown: str, number: int, limit: int | None = None) -> InputError:
    """The refusal of a line over `limit` bytes (default `MAX_LINE`)."""
    return InputError(
        f"is longer than {size_text(MAX_LINE if limit is None else limit)}",
        file=shown,
        line=number,
        fix="write one record a line; check that the file is JSON Lines or CSV",
    )


def read_head(path: Path, shown: str, size: int = HEAD_BYTES) -> bytes:
    """Return the first `size` bytes of `path`, un-gzipped."""
    handle = open_binary(path, shown)
    try:
        with handle:
            return handle.read(size)
    except (OSError, EOFError, zlib.error) as exc:
        raise _gzip_error(shown, exc) from None


def kind_from_name(path: Path) -> str | None:
    """The record kind its name says (``data.jsonl.gz`` -> ``jsonl``), or None."""
    name = path.name.lower()
    if name.endswith(".gz"):
        name = name[:-3]
    return EXTENSIONS.get(Path(name).suffix)


def kind_from_content(head: bytes) -> str | None:
    """Guess the record kind from the first bytes of a file with no telling name."""
    text = head.removeprefix(UTF8_BOM).lstrip()
    if text.startswith(b"["):
        return "json"
    if text.startswith(b"{"):
        first = text.split(b"\n", 1)[0]
        try:
            json.loads(first)
        except ValueError:
            return "json"
        return "jsonl"
    header = text.split(b"\n", 1)[0].lower()
    if b"," in header and b"model_id" in header and b"score" in header:
        return "csv"
    return None


def check_text(field: str, value: str) -> str:
    """Refuse control characters, lone surrogates and line separators in an id
    (`records.bad_character`, the one rule of every id and name)."""
    bad = bad_character(value)
    if bad is None:
        return value
    raise FieldProblem(
        field,
        f"contains {bad}",
        f"remove newlines, tabs and other invisible characters from `{field}`",
    )


#: The fix of a null or empty score: a score, or an errored unit said as such.
SCORE_FIX = (
    'give every record a score in [0, 1], or, for an item that errored, "score": null '
    'with an "error" saying what went wrong (an errored item counts in `completion`)'
)


def check_scored_or_errored(
    score: object, error: str | None, *, absent: bool, empty: str
) -> None:
    """A record has a score or, when it errored, an ``error`` and no score.

    `absent`: the score is null or empty (`empty` says which, as the field's problem).
    Raises `FieldProblem` for a missing score without an error, and for an error
    beside a score.
    """
    if absent and error is None:
        raise FieldProblem("score", empty, SCORE_FIX)
    if not absent and error is not None:
        raise FieldProblem(
            "error",
            f"is given with a score ({show(score)})",
            'an errored item has no score ("score": null, an empty cell in CSV); '
            "drop `error` from a scored record",
        )


def error_text(value: object) -> str | None:
    """A record's ``error`` field: a non-empty text, or None when absent or empty.

    Raises `FieldProblem` for any other value (a number, an object).
    """
    if value is None:
        return None
    if isinstance(value, str):
        return error_message(value) or None
    raise FieldProblem(
        "error",
        f"must be a text saying what went wrong, got {show(value)}",
        'write the error as a string, e.g. "error": "timeout"',
    )


def suggest(key: str) -> str | None:
    """The contract field `key` is probably a misspelling of, if any."""
    norm = key.strip().lower().replace("-", "_").replace(" ", "_")
    if norm in _SUGGESTED:
        return norm
    squashed = norm.replace("_", "")
    for field in _SUGGESTED:
        if field.replace("_", "") == squashed:
            return field
    import difflib  # noqa: PLC0415 - only a near-miss needs it (not every run's import)

    close = difflib.get_close_matches(norm, _SUGGESTED, n=1, cutoff=0.8)
    return close[0] if close else None


def check_keys(keys: tuple[str, ...]) -> FieldProblem | None:
    """A near-miss of a contract field whose real name is absent, or a missing field."""
    present = set(keys)
    for key in keys:
        if key in FIELDS:
            continue
        target = suggest(key)
        if target is not None and target not in present:
            return FieldProblem(
                printable(key),
                f"is not a field of the input contract; did you mean `{target}`?",
                f"rename `{printable(key)}` to `{target}`",
            )
    for field in REQUIRED:
        if field not in present:
            alias = next(
                (k for k in keys if _ALIASES.get(k.strip().lower()) == field), None
            )
            fix = (
                f"rename `{printable(alias)}` to `{field}`"
                if alias is not None
                else f"add `{field}` to every record; {', '.join(REQUIRED)} are required"
            )
            return FieldProblem(field, "is missing", fix)
    return None


def _make_run(
    *,
    model: str,
    task: str,
    score: float | int | bool | None,
    metric: str | None,
    category: str,
    weight: float | int | bool,
    item: str | None,
    cluster: str | None,
    sample: int | None,
    cost: float | None = None,
    latency: float | None = None,
    tokens: float | None = None,
    metrics: tuple[tuple[str, float], ...] = (),
    error: str | None = None,
    texts: tuple[str | None, str | None] = (None, None),
) -> EvalRun:
    if item is None and (cluster is not None or sample is not None):
        field = "cluster" if cluster is not None else "sample"
        raise FieldProblem(
            field,
            "is given without `item_id`",
            f"add `item_id` to item-level records, or drop `{field}`",
        )
    if score is None:  # an errored unit (`error` given): EvalRun checks it
        score = math.nan
    elif type(score) is bool or (type(score) is int and 0 <= score <= 1):
        score = float(score)
    if type(weight) is int and 0 < weight <= 2**53:
        weight = float(weight)
    return EvalRun(
        model,
        task,
        score,
        metric,
        category,
        weight,
        item,
        cluster,
        sample,
        cost,
        latency,
        tokens,
        metrics,
        error,
        *texts,
    )
