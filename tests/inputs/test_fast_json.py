"""msgspec's parse (`fast_json.fast_loads`) against the standard library's (issue 31).

`reading.loads` uses msgspec only where it gives exactly the standard library's value;
these tests hold `fast_loads` to that on generated documents and on the hostile cases
of the inputs' bounds (repeated keys, huge numbers, NaN, depth, encodings), and check
that `reading.loads` still says what is wrong exactly as before.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leaderboard.inputs import fast_json, reading
from leaderboard.inputs.fast_json import DECLINED, fast_loads


def _stdlib(data: bytes | str) -> Any:
    """`reading.loads` without msgspec: the reference."""
    if isinstance(data, bytes):
        return json.loads(
            data, parse_int=reading._parse_int, object_pairs_hook=reading._object
        )
    return reading.DECODER.decode(data)


def _same(a: Any, b: Any) -> bool:
    """Equal, of the same types all the way down (1 is not 1.0, -0.0 is not 0.0)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(map(_same, a, b))
    if isinstance(a, float):
        return math.copysign(1, a) == math.copysign(1, b) and (a == b or math.isnan(a))
    return bool(a == b)


def _check(data: bytes | str) -> Any:
    """`fast_loads(data)` declines, or gives exactly what the standard library gives."""
    try:
        expected: Any = _stdlib(data)
    except (ValueError, RecursionError) as exc:
        expected = exc
    got = fast_loads(data)
    if isinstance(expected, Exception):
        assert got is DECLINED, (data[:80], expected)
    elif got is not DECLINED:
        assert _same(got, expected), data[:200]
    return got


_KEYS = st.sampled_from(["a", "b", "score", "a:b", ":", "é", "\u2028", "\\u003a", ""])
_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(alphabet=st.sampled_from('ab:"\\\u00e9\u2028\x01/ '), max_size=8)
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.lists(st.tuples(_KEYS, inner), max_size=4)
    ),  # pairs: keys may repeat
    max_leaves=20,
)


def _write(value: Any, ascii_only: bool) -> str:
    """JSON text of `value`, where a list of pairs is an object (keys may repeat)."""
    if isinstance(value, tuple):  # pragma: no cover - tuples only inside pair lists
        raise AssertionError
    if isinstance(value, list) and value and all(isinstance(v, tuple) for v in value):
        return (
            "{"
            + ",".join(
                json.dumps(k, ensure_ascii=ascii_only) + ":" + _write(v, ascii_only)
                for k, v in value
            )
            + "}"
        )
    if isinstance(value, list):
        return "[" + ",".join(_write(v, ascii_only) for v in value) + "]"
    return json.dumps(value, ensure_ascii=ascii_only)


@settings(max_examples=400, deadline=None)
@given(_VALUES, st.booleans(), st.booleans())
def test_generated_documents__declined_or_the_standard_librarys_value(
    value: Any, ascii_only: bool, as_bytes: bool
) -> None:
    text = _write(value, ascii_only)
    _check(text.encode() if as_bytes else text)


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1, "a": 2}',
        '[{"x": {"a": 1, "b": [1, {"c": 1, "c": 1}]}}]',
        '{"a": "x", "a": "\\u003a"}',  # a repeat hidden by an escaped colon
        '{"a": "x", "a": "\\u003A"}',
        '{"a": ":", "a": ""}',
        '{"a:": 1, "a:": 1}',
        '{"": 1, "": 1}',
    ],
)
def test_repeated_keys__always_declined(text: str) -> None:
    assert fast_loads(text) is DECLINED
    assert fast_loads(text.encode()) is DECLINED
    with pytest.raises(reading.DuplicateKeyError):
        reading.loads(text)


@pytest.mark.parametrize(
    "data",
    [
        b"[NaN]",
        b"[Infinity, -Infinity]",
        b"[1e400]",
        b"[-1e400]",
        b'["\\ud800"]',
        b'["\xed\xa0\x80"]',  # an encoded surrogate: json reads it (surrogatepass)
        b'\xef\xbb\xbf{"a": 1}',
        '{"a": 1}'.encode("utf-16"),
        '{"a": 1}'.encode("utf-32"),
        b"[" + b"9" * 4001 + b"]",
        b"[" + b"9" * 4300 + b"]",
        b"[" + b"9" * 5000 + b"]",
        b"[" * 5000 + b"]" * 5000,
        b'{"a": 1} x',
        b'["\t"]',
        b"",
    ],
)
def test_what_msgspec_reads_apart_or_refuses__declined(data: bytes) -> None:
    assert _check(data) is DECLINED


def test_4000_digits__an_int_either_way_4001_text() -> None:
    _check(b"[" + b"9" * 4000 + b"]")  # declined: it may be a longer run
    assert reading.loads(b"[" + b"9" * 4000 + b"]") == [int("9" * 4000)]
    assert reading.loads(b"[" + b"9" * 4001 + b"]") == ["9" * 4001]
    assert isinstance(reading.loads(b"[" + b"9" * 4001 + b"]")[0], reading.BigInt)


@pytest.mark.parametrize("at", [0, 1, 1999, 2000, 2001, 5000])
def test_long_digit_run__found_wherever_it_starts(at: int) -> None:
    text = "x" * at + "9" * 4001 + "x" * 10
    assert fast_json._long_digit_run(text, fast_json._DIGIT_CHARS)
    assert fast_json._long_digit_run(text.encode(), fast_json._DIGIT_BYTES)
    short = "x" * at + "9" * 1999 + "x" * 3000
    assert not fast_json._long_digit_run(short, fast_json._DIGIT_CHARS)


def test_nested_deeper_than_python__the_same_refusal() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    with pytest.raises(RecursionError):
        reading.loads(deep)
    with pytest.raises(Exception, match="nested too deeply"):
        reading.parse_line(deep.encode(), "f.json", 3)


def test_real_shaped_lines__taken_by_msgspec() -> None:
    """The common path is the fast one (else there is no point): real-shaped lines
    of each reader, with colons, escapes and non-ASCII text, are not declined."""
    lines = [
        {"model_id": "openai:gpt-4o", "task_id": "mmlu", "score": 1, "item_id": 7},
        {"prompt": {"raw": "Q: é \u2028", "label": "Question: {{q}}"}, "score": 0.5},
        {"sample_score": {"score": {"value": {"acc": 1.0}}, "sample_id": 3}},
        {"doc": {"question": "2+2=?", "options": ["4"]}, "resps": [["4"]], "acc": 1},
    ]
    for line in lines:
        for text in (json.dumps(line), json.dumps(line, ensure_ascii=False)):
            got = _check(text.encode())
            assert got is not DECLINED
            assert _same(got, line)
