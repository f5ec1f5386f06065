"""What a user template's operations would build, sized before they run.

The sizing half of `leaderboard.render.sandbox`: how long a join, a format, a
concatenation or a string filter's text would be, counted item by item without
building it and stopping as soon as the count passes `MAX_SIZE`; an iterable that
has no size (a generator from ``map``) is drawn into a list within the same budget
before it is joined. Each refusal is a `TemplateBudgetError`.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Mapping, Sequence

import jinja2

__all__ = ["MAX_SIZE", "TemplateBudgetError"]

#: Largest number a call, filter or operator may take, and the most items a string,
#: list or mapping built by a template may hold (a comment holds 65,536 characters).
MAX_SIZE = 1_000_000
SIZED = (str, bytes, list, tuple, dict, set, frozenset)
#: A ``%`` conversion: its mapping key, flags, width, precision and type.
PERCENT_SPEC = re.compile(
    r"%(?:\((?P<key>[^)]*)\))?[-#0 +]*(\*|\d+)?(?:\.(\*|\d+))?[a-zA-Z%]"
)
_DIGITS = re.compile(r"\d+")
_BASE = re.compile(r"[^.\[]*")  # a replacement field's argument, before . or [


class TemplateBudgetError(jinja2.exceptions.SecurityError):
    """A user template went over its budget of steps, time or size."""


def too_big(what: str, size: int, *, counted: bool = False) -> TemplateBudgetError:
    """The refusal; `counted`: `size` is where counting stopped, a lower bound."""
    many = f"more than {MAX_SIZE:,}" if counted else f"{size:,}"
    return TemplateBudgetError(
        f"{what} would have {many} items, over the template limit of {MAX_SIZE:,}"
    )


def size_of(value: object) -> int:
    return len(value) if isinstance(value, SIZED) else 0


def product_size(left: object, right: object) -> int | None:
    """Length of ``left * right`` when it repeats a sequence, else None."""
    for seq, times in ((left, right), (right, left)):
        if isinstance(seq, (str, list, tuple, bytes)) and isinstance(times, int):
            return len(seq) * max(0, int(times))
    return None


#: Nesting `text_size` follows before it takes a value for too big.
_MAX_DEPTH = 32
#: Filters that turn their subject into text: it is sized before they run.
STRING_FILTERS = frozenset(
    {
        "capitalize",
        "center",
        "e",
        "escape",
        "forceescape",
        "format",
        "indent",
        "lower",
        "replace",
        "safe",
        "string",
        "striptags",
        "title",
        "trim",
        "truncate",
        "upper",
        "urlencode",
        "urlize",
        "wordcount",
        "wordwrap",
    }
)


def text_size(  # noqa: PLR0911 - one return per kind of value
    value: object, budget: int = MAX_SIZE, depth: int = 0
) -> int:
    """About how many characters ``str(value)`` has, counted without building it.

    Containers are summed item by item (their ``repr`` of each item), stopping as
    soon as the count passes `budget`, so a list of a thousand 1 MB strings is
    sized in a thousand steps and never turned into a gigabyte of text.
    """
    if isinstance(value, str):
        return len(value)
    if value is None or isinstance(value, (bool, float)):
        return 5
    if isinstance(value, int):
        return max(1, value.bit_length() * 31 // 100 + 1)
    if depth > _MAX_DEPTH:
        return budget + 1
    if isinstance(value, bytes):
        return 4 * len(value) + 3
    if isinstance(value, (list, tuple, set, frozenset, dict)):
        total = 2
        items = value.items() if isinstance(value, dict) else value
        for item in items:
            total += 2 + text_size(item, budget - total, depth + 1)
            if total > budget:
                break
        return total
    return len(str(value))


def sized(value: object, what: str, separator: str = "") -> object:
    """`value` for joining: a sized container as it is; any other iterable (a
    generator from ``map``) drawn into a list item by item, refused as soon as its
    items or their text pass `MAX_SIZE`, before anything is joined."""
    if isinstance(value, SIZED) or not hasattr(value, "__iter__"):
        return value
    items: list[object] = []
    total = 0
    for item in value:
        total += text_size(item) + len(separator)
        items.append(item)
        if total > MAX_SIZE or len(items) > MAX_SIZE:
            raise too_big(what, max(total, len(items)), counted=True)
    return items


def join_size(value: object, separator: str = "") -> int:
    if isinstance(value, (list, tuple)):
        total = len(separator) * max(0, len(value) - 1)
        for item in value:
            total += text_size(item, MAX_SIZE - total)
            if total > MAX_SIZE:
                break
        return total
    return 0


def concat_size(parts: Iterable[object]) -> int:
    """About how long the text of `parts` joined (``~``) is, stopping past the budget."""
    total = 0
    for value in parts:
        total += text_size(value, MAX_SIZE - total)
        if total > MAX_SIZE:
            break
    return total


def _width(spec: str) -> int:
    """The largest width or precision a format spec asks for (each within MAX_SIZE)."""
    return max((int(d) for d in _DIGITS.findall(spec) if len(d) <= 7), default=0)


def percent_size(fmt: str, args: object) -> int:
    """About how long ``fmt % args`` is: each ``%`` field's value (the mapping's entry
    it names, or the next argument) and its width, so a value used a thousand
    times counts a thousand times."""
    values = args if isinstance(args, tuple) else (args,)
    mapping = args if isinstance(args, Mapping) else None
    total = len(fmt)
    position = 0
    for match in PERCENT_SPEC.finditer(fmt):
        if match.group(0).endswith("%") and match.group(0) == "%%":
            continue
        key = match.group("key")
        if mapping is not None and key is not None:
            value = mapping.get(key)
        else:
            value = values[position] if position < len(values) else None
            position += 1
        total += max(text_size(value, MAX_SIZE - total), _width(match.group(0)))
        if total > MAX_SIZE:
            break
    return total


def str_format_size(fmt: str, args: Sequence[object], mapping: Mapping[str, object]) -> int:
    """About how long ``fmt.format(*args, **mapping)`` is: each replacement field's
    value (the argument it names, by position or name, or the next one) and its
    width, so ``("{0}" * 1000).format(s)`` counts `s` a thousand times."""
    try:
        fields = list(string.Formatter().parse(fmt))
    except ValueError:
        return len(fmt)  # str.format raises the same error itself
    total = 0
    position = 0
    for literal, name, spec, _ in fields:
        total += len(literal)
        if name is None:
            continue
        base = _BASE.match(name)
        head = base.group(0) if base else ""
        value: object = None
        if head == "":
            value = args[position] if position < len(args) else None
            position += 1
        elif head.isdigit():
            value = args[int(head)] if int(head) < len(args) else None
        else:
            value = mapping.get(head)
        total += max(text_size(value, MAX_SIZE - total), _width(spec or ""))
        if total > MAX_SIZE:
            break
    return total


def replace_size(text: object, old: object, new: object, count: object = -1) -> int:
    if not (isinstance(text, str) and isinstance(old, str) and isinstance(new, str)):
        return 0
    hits = text.count(old) if old else len(text) + 1
    if isinstance(count, int) and count >= 0:
        hits = min(hits, count)
    return len(text) + hits * max(0, len(new) - len(old))
