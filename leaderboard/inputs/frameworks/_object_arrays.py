"""A JSON object whose arrays are counted as they are parsed (SWE-bench's run report).

A run report is one object of instance-id lists. Parsed whole, ten million ids take
about nine times the file's size before any cap could see them; here the top level is
walked one key at a time and each array one element at a time, so a `Budget` refuses
the array the moment it holds more than its room, having built no more than that.
Everything else (the elements, the other values) is parsed by the same decoder as
every input (`reading.loads`'s: huge integers as text, a repeated key refused), and
anything this walk does not expect (not an object, bad JSON, a repeated key at the
top, another encoding) is read again by `load_json`, so its error is the one it was.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Protocol, cast

from leaderboard.errors import InputError
from leaderboard.inputs import reading
from leaderboard.inputs.frameworks._common import load_json, read_bounded

_SPACE = re.compile(r"[ \t\n\r]*")


def _skip(text: str, at: int) -> int:
    """The index of the first non-whitespace character from `at` (the pattern always
    matches, perhaps empty)."""
    return cast(re.Match[str], _SPACE.match(text, at)).end()


class Budget(Protocol):
    """How many elements each top-level array may hold, given those already read."""

    def room(self, key: str) -> int:
        """Elements the array under `key` may hold before it is refused."""

    def spend(self, key: str, count: int) -> None:
        """`count` elements were read under `key`."""

    def refuse(self, key: str) -> InputError:
        """The refusal of the array under `key`, past its room."""


class _Unexpected(Exception):
    """Not the plain object of arrays this walk reads; `load_json` says what it is."""


def load_object_of_arrays(path: Path, budget: Budget) -> Any:
    """`load_json` of `path`, its top-level arrays held to `budget` as they are read.

    Within `read_bounded` and `reading.check_document`'s budget like every document;
    the bytes are dropped once decoded, so the text and what is parsed of it are all
    that is held.
    """
    shown = str(path)
    try:
        raw = read_bounded(path)
        reading.check_document(raw, shown)
        if b"\x00" in raw[:4]:  # UTF-16 or UTF-32: json's own detection reads it
            raise _Unexpected
        text = raw.decode("utf-8-sig", "surrogatepass")  # what json.loads(bytes) does
        del raw
        return _walk(text, budget)
    except (_Unexpected, ValueError, IndexError, RecursionError):
        return load_json(path)


def _walk(text: str, budget: Budget) -> dict[str, Any]:
    decode = reading.DECODER.raw_decode
    at = _skip(text, 0)
    if text[at] != "{":
        raise _Unexpected
    at = _skip(text, at + 1)
    found: dict[str, Any] = {}
    if text[at] == "}":
        return _end(text, at + 1, found)
    while True:
        if text[at] != '"':
            raise _Unexpected
        key, at = decode(text, at)  # a string: it starts with a quote
        at = _skip(text, at)
        if text[at] != ":" or key in found:
            raise _Unexpected
        at = _skip(text, at + 1)
        if text[at] == "[":
            found[key], at = _array(text, at + 1, key, budget)
        else:
            found[key], at = decode(text, at)
        at = _skip(text, at)
        if text[at] == "}":
            return _end(text, at + 1, found)
        if text[at] != ",":
            raise _Unexpected
        at = _skip(text, at + 1)


def _array(text: str, at: int, key: str, budget: Budget) -> tuple[list[Any], int]:
    decode = reading.DECODER.raw_decode
    room = budget.room(key)
    items: list[Any] = []
    append = items.append
    at = _skip(text, at)
    if text[at] == "]":
        return items, at + 1
    while True:
        item, at = decode(text, at)
        append(item)
        if len(items) > room:
            raise budget.refuse(key)
        at = _skip(text, at)
        if text[at] == "]":
            budget.spend(key, len(items))
            return items, at + 1
        if text[at] != ",":
            raise _Unexpected
        at = _skip(text, at + 1)


def _end(text: str, at: int, found: dict[str, Any]) -> dict[str, Any]:
    if _skip(text, at) != len(text):
        raise _Unexpected
    return found
