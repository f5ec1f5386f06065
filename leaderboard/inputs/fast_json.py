"""JSON parsed by msgspec, where it gives exactly what the standard library's would.

`reading.loads` (every JSON document and line read from an input) and the records
reader's common path try `fast_loads` first: msgspec's decoder is written in C and,
with the checks below, builds the same Python values 1.3 to 3 times faster than
``json`` with the hooks the inputs need (a line of lm-eval samples 11.0 -> 8.6 us,
promptfoo 14.4 -> 7.4, EvalScope 7.4 -> 3.0; docs/frameworks.md, "Real sizes"). The
standard library stays the reference:
`fast_loads` returns `DECLINED` whenever its value might differ from what
``reading.loads`` gives, and that path then parses the text again and says what is
wrong, so every error message, and every value, is the one it was:

- anything msgspec refuses: not JSON, NaN and Infinity (the standard library reads
  them; its readers then refuse them by field), a number beyond a double (1e400), an
  integer of over 4300 digits, a lone surrogate, invalid UTF-8, a BOM, another
  encoding, nesting deeper than Python's recursion limit;
- a text that may hold over 4000 digits in a row (an integer of 4001 to 4300 digits
  is an `int` to msgspec and `BigInt` text to the inputs);
- a key written twice in one object. msgspec keeps the last; the check is exact:
  outside strings a colon is only ever a key's separator, and inside strings msgspec's
  encoder writes a colon as itself, so the value written back holds one colon a key
  and one a colon in its strings. The text holds as many plus one for every key (and
  its value's colons) a repeat hides. A colon may be written ``\\u003a``: every
  ``\\u003`` of the text is counted as one; an over-count (``\\u0030``, an escaped
  backslash before ``u003a``) can only make the two differ, which declines.

msgspec is imported on first use only (`parser`): its import costs about 20 ms
(``typing_extensions``, ``inspect`` with it), more than the standard library takes to
parse a small file, so the inputs start with the standard library and call `use_for`
with the bytes they are about to parse; a file (or document) of at least
`DOCUMENT_CROSSOVER` bytes, or records JSON Lines of `records_crossover`, loads
msgspec, which then parses every later text of the run (`in_use`). The values and
every error are the same either way (the standard library is the reference).

Where the modules msgspec imports are loaded already (`warm`: a run that imported
pydantic, as the command line and the action do before they read), its import costs a
few milliseconds, and records JSON Lines pay for it from `RECORDS_CROSSOVER_WARM`
(measured in such a process, CPU, best of 5: 500 lines, 32 KiB, 5.2 ms with the
standard library against 5.0 ms with msgspec and its import; 1,000 lines, 64 KiB, 9.3
against 6.2; 2,000 lines 19.7 against 9.1).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, Final, NamedTuple

#: What `fast_loads` returns when the standard library must parse the text.
DECLINED: Final = object()
#: More digits than this in a text may hold an integer the two parsers read apart.
MAX_DIGITS = 4000
#: Bytes of JSON from which msgspec's import pays for itself in one document or one
#: framework JSON Lines file (docs/frameworks.md, "Real sizes": the crossover).
DOCUMENT_CROSSOVER = 4 * 2**20
#: The same for a records JSON Lines file, whose lines msgspec decodes into typed
#: records (`jsonl_records`): a far larger saving a byte than a plain parse.
RECORDS_CROSSOVER = 256 * 2**10
#: The records crossover once msgspec's own imports are loaded (`warm`): its import is
#: then a few milliseconds, and reading 1,000 records (70 KB) with it saves about 10.
RECORDS_CROSSOVER_WARM = 32 * 2**10


class Parser(NamedTuple):
    """msgspec, loaded (`parser`): its module, plain decode and encode."""

    msgspec: Any
    decode: Callable[[bytes | str], Any]
    encode: Callable[[Any], bytes]
    errors: tuple[type[BaseException], ...]


_LOADED: list[Parser] = []  # msgspec, once `parser` has loaded it


def parser() -> Parser:
    """msgspec, imported on the first call (about 20 ms), and from then `in_use`."""
    if not _LOADED:
        import msgspec  # noqa: PLC0415 - lazily: a small run never pays its import

        _LOADED.append(
            Parser(
                msgspec,
                msgspec.json.Decoder().decode,
                msgspec.json.Encoder().encode,
                (msgspec.MsgspecError, RecursionError),
            )
        )
    return _LOADED[0]


def in_use() -> bool:
    """Whether msgspec is loaded (by `use_for` or `parser`): then it parses first."""
    return bool(_LOADED)


def warm() -> bool:
    """Whether msgspec's import would be cheap: the modules it imports are loaded
    (`typing_extensions` and `inspect`; a run that imported pydantic, as the command
    line and the action do before they read)."""
    return "typing_extensions" in sys.modules and "inspect" in sys.modules


def records_crossover() -> int:
    """The bytes of records JSON Lines from which msgspec reads them in this process."""
    return min(RECORDS_CROSSOVER, RECORDS_CROSSOVER_WARM) if warm() else RECORDS_CROSSOVER


def use_for(size: int, crossover: int = DOCUMENT_CROSSOVER) -> bool:
    """Whether msgspec parses a text of `size` bytes: loaded already, or `size` is at
    least `crossover` (then it is loaded now, for the rest of the run too)."""
    if size >= crossover and not in_use():
        parser()
    return in_use()


_DIGIT_BYTES = frozenset(b"0123456789")
_DIGIT_CHARS = frozenset("0123456789")
_STEP = MAX_DIGITS // 2


def fast_loads(data: bytes | str) -> Any:
    """The value ``reading.loads(data)`` gives, parsed by msgspec; or `DECLINED`.

    Loads msgspec if it is not yet (`reading.loads` asks `in_use` first)."""
    decode, encode, errors = parser()[1:]
    try:
        value = decode(data)
    except errors:
        return DECLINED
    if isinstance(data, bytes):
        colons = data.count(b":")
        if b"\\" in data:
            colons += data.count(b"\\u003")
        many = _long_digit_run(data, _DIGIT_BYTES)
    else:
        colons = data.count(":")
        if "\\" in data:
            colons += data.count("\\u003")
        many = _long_digit_run(data, _DIGIT_CHARS)
    if many or encode(value).count(b":") != colons:
        return DECLINED
    return value


def _long_digit_run(data: bytes | str, digits: frozenset[Any]) -> bool:
    """Whether `data` may hold more than `MAX_DIGITS` digits in a row.

    Such a run covers two consecutive multiples of ``MAX_DIGITS // 2``, so only those
    positions are looked at (three in a 5 KB line): two digits there in a row may be a
    long run, and decline (rarely, and only ever needlessly).
    """
    previous = False
    for at in range(0, len(data), _STEP):
        digit = data[at] in digits
        if digit and previous:
            return True
        previous = digit
    return False


def decode(data: bytes) -> Any:
    """msgspec's value of `data`, unchecked (the records reader checks its own); or
    `DECLINED` for a text msgspec does not read."""
    decode, errors = parser().decode, parser().errors
    try:
        return decode(data)
    except errors:
        return DECLINED
