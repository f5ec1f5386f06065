"""The records JSON Lines block path (`jsonl_blocks.block_runs`) against the full reader.

Issue 31: a records file is decoded a block at a time into typed lines and built in
columns; any line the block path is not certain about sends its part of the file back
to the line-by-line reader. These tests hold it to the reference, the full reader of
every line (`jsonl_records._jsonl_line`, the standard library's parse): on generated
lines and files, hostile and invalid ones included, and on every records fixture,
the records (their types too: ``1`` is not ``1.0``, ``-0.0`` is not ``0.0``), the
notes and every error message are the same.
"""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leaderboard.errors import InputError
from leaderboard.inputs import fast_json, jsonl_blocks, jsonl_records
from leaderboard.inputs.load import load_runs_noting
from leaderboard.inputs.records import keeping_texts

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def _reference_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    """msgspec off: every line read by the full reader with the standard library."""
    monkeypatch.setattr(fast_json, "in_use", lambda: False)
    monkeypatch.setattr(fast_json, "use_for", lambda size, crossover=0: False)


def _outcome(paths: list[Path], texts: bool = False) -> tuple[Any, ...]:
    """What loading `paths` gives: the records (each as its repr: types and -0.0
    told apart) and notes, or the error message."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # a warning of Python's own is a failure
            runs, notes = load_runs_noting([str(p) for p in paths], texts=texts)
    except InputError as exc:
        return ("error", str(exc))
    return ("runs", [repr(run) for run in runs], notes)


def _both(
    monkeypatch: pytest.MonkeyPatch, paths: list[Path], texts: bool = False
) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """(the block path's outcome, the reference's), msgspec loaded for the first."""
    fast_json.parser()
    with monkeypatch.context() as patch:
        patch.setattr(fast_json, "RECORDS_CROSSOVER", 0)
        fast = _outcome(paths, texts)
    with monkeypatch.context() as patch:
        _reference_mode(patch)
        reference = _outcome(paths, texts)
    return fast, reference


def _reference_line(raw: bytes) -> Any:
    """The full reader's record of one line (as its repr), or its error message."""
    try:
        run = jsonl_records._jsonl_line(raw, "f.jsonl", 1, sys.intern, {})
    except InputError as exc:
        return ("error", str(exc))
    return repr(run)


# ------------------------------------------------------------------ generated lines

_TEXT = st.text(alphabet=st.sampled_from('ab1 :é"\\\n\t\u2028\x01\ud800/'), max_size=6)
_NUMBER = (
    st.integers(min_value=-3, max_value=3)
    | st.sampled_from([0.0, -0.0, 0.5, 1.0, 1.5, 1e-300, 2**53, 2**53 + 1, 10**30])
    | st.floats(allow_nan=False, allow_infinity=False)
)
_ANY = st.none() | st.booleans() | _NUMBER | _TEXT | st.just([]) | st.just({})
_ID = st.sampled_from(["m", "task-1", "item 7", "", "a\nb", "\u2028", "é"]) | _ANY
_FIELDS: dict[str, Any] = {
    "model_id": st.sampled_from(["m1", "m2"]) | _ID,
    "task_id": st.sampled_from(["t1", "t2"]) | _ID,
    "score": st.sampled_from([0, 1, 0.25, True, False]) | _ANY,
    "metric_name": st.sampled_from(["acc", "f1"]) | _ID,
    "category": st.sampled_from(["code", "math"]) | _ID,
    "weight": st.sampled_from([1, 2.5, 0, -1]) | _ANY,
    "item_id": st.integers(min_value=-5, max_value=10**20) | _ID,
    "cluster": st.sampled_from(["c1", 3]) | _ID,
    "sample": st.integers(min_value=-2, max_value=3) | _ANY,
    "input": _TEXT | _ANY,
    "output": _TEXT | _ANY,
    # fields the block path leaves to the full reader, and near misses
    "cost": _NUMBER,
    "error": _TEXT,
    "metrics": st.just({"f1": 0.5}),
    "scroe": _NUMBER,
    "foo": _ANY,
}
_COMMON = ("model_id", "task_id", "score", "item_id", "category")


@st.composite
def _line(draw: st.DrawFn) -> bytes:
    """One line: mostly the common fields with good values, some of anything."""
    keys = [k for k in _COMMON if draw(st.integers(0, 9)) > 0]
    keys += draw(st.lists(st.sampled_from(list(_FIELDS)), max_size=3))
    good = draw(st.integers(0, 3)) > 0
    pairs = []
    for key in keys:
        if good and key in _COMMON:
            value = {
                "model_id": draw(st.sampled_from(["m1", "m2"])),
                "task_id": draw(st.sampled_from(["t1", "t2"])),
                "score": draw(st.sampled_from([0, 1, 0.5, True])),
                "item_id": draw(st.integers(0, 5)),
                "category": "code",
            }[key]
        else:
            value = draw(_FIELDS[key])
        pairs.append((key, value))
    ascii_only = draw(st.booleans())
    text = (
        "{"
        + ", ".join(
            json.dumps(k, ensure_ascii=ascii_only)
            + ": "
            + json.dumps(v, ensure_ascii=ascii_only)
            for k, v in pairs
        )
        + "}"
    )
    raw = text.encode("utf-8", "surrogatepass")
    ending = draw(st.sampled_from([b"", b"", b"\r", b" "]))
    return raw + ending


_HOSTILE_LINES = [
    b'{"model_id": "m", "task_id": "t", "score": 1, "score": 0}',  # a repeated key
    b'{"model_id": "m", "task_id": "t", "score": 1, "item_id": "a", "item_id": 2}',
    b'{"model_id": "m\\"", "task_id": "t", "score": 1}',  # an escaped quote
    b'{"model\\u005fid": "m", "task_id": "t", "score": 1}',  # an escaped key
    b'{"model_id": "m", "task_id": "t", "score": 1} {"model_id": "m"}',
    b'{"model_id": "m", "task_id": "t", "score": NaN}',
    b'{"model_id": "m", "task_id": "t", "score": 1, "weight": Infinity}',
    b'{"model_id": "m", "task_id": "t", "score": 1, "weight": 1e400}',
    b'{"model_id": "m", "task_id": "t", "score": 1e400}',
    b'{"model_id": "m", "task_id": "t", "score": ' + b"9" * 400 + b"}",
    b'{"model_id": "m", "task_id": "t", "score": 1, "item_id": ' + b"9" * 4001 + b"}",
    b'{"model_id": "m", "task_id": "t", "score": 1, "item_id": ' + b"9" * 5000 + b"}",
    b'{"model_id": "m", "task_id": "t", "score": 1, "weight": ' + b"9" * 30 + b"}",
    b'{"model_id": "m", "task_id": "t", "score": 1, "weight": 9007199254740993}',
    b'{"model_id": "m", "task_id": "t", "score": -0}',
    b'{"model_id": "m", "task_id": "t", "score": -0.0}',
    b'{"model_id": "\\ud800", "task_id": "t", "score": 1}',
    b'{"model_id": "m", "task_id": "t", "score": 1, "input": "\\ud800"}',
    b'{"model_id": "m\xff", "task_id": "t", "score": 1}',  # not UTF-8
    b'{"model_id": "m\xed\xa0\x80", "task_id": "t", "score": 1}',  # an encoded surrogate
    b'\xef\xbb\xbf{"model_id": "m", "task_id": "t", "score": 1}',  # a BOM mid-file
    '{"model_id": "m", "task_id": "t", "score": 1}'.encode("utf-16"),
    b'{"model_id": "m", "task_id": "t", "score": 1, "cluster": "c"}',
    b'{"model_id": "m", "task_id": "t", "score": 1, "sample": 0}',
    b'{"model_id": "m", "task_id": "t", "score": 1, "item_id": null, "sample": null}',
    b'{"model_id": "m", "task_id": "t", "score": 1, "item_id": true}',
    b'{"model_id": "m", "task_id": "t", "score": 1, "sample": -1, "item_id": 1}',
    b'{"model_id": "m", "task_id": "t", "score": null, "error": "boom"}',
    b'{"model_id": "m", "task_id": "t", "score": 1, "metric_name": null}',
    b'{"model_id": "m", "task_id": "t", "score": 1, "category": null}',
    b'{"model_id": "m", "task_id": "t", "score": 1, "weight": null}',
    b'{"model_id": "m", "task_id": "t", "score": 1, "weight": true}',
    b'{"model": "m", "task_id": "t", "score": 1}',
    b'[{"model_id": "m", "task_id": "t", "score": 1}]',
    b'"text"',
    b"[" * 5000 + b"]" * 5000,
    b'{"model_id": "m", "task_id": "t", "score": 1, "item_id": {"a": 1}}',
    b'{"model_id": "m", "task_id": "t", "score": 0.5, "input": "q\\nmore", "output": ""}',
    # a sample of over 4000 digits is text to the full reader, which refuses it
    b'{"model_id": "m", "task_id": "t", "score": 1, "item_id": 1, "sample": '
    + b"9" * 4001
    + b"}",
    b'{"model_id": "m", "task_id": "t", "score": 1, "item_id": 1, "sample": '
    + b"9" * 4000
    + b"}",
    b"   ",
    b"",
]


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_line())
def test_one_generated_line__declined_or_the_full_readers_record(raw: bytes) -> None:
    """The block path never takes a line the full reader refuses or reads apart."""
    fast_json.parser()
    for texts in (False, True):
        with keeping_texts(texts):
            got = jsonl_blocks.block_runs([raw], sys.intern)
            if got is not None:
                assert [repr(run) for run in got] == [_reference_line(raw)], raw


@pytest.mark.parametrize("raw", _HOSTILE_LINES)
def test_hostile_line__declined_or_the_full_readers_record(raw: bytes) -> None:
    fast_json.parser()
    got = jsonl_blocks.block_runs([raw], sys.intern)
    expected = _reference_line(raw)
    if got is not None:
        assert [repr(run) for run in got] == [expected]
    line = jsonl_records.fast_record(raw, sys.intern, {})  # the line-by-line path
    assert line is None or repr(line) == expected, (raw[:80], expected)
    # each is refused or special, bar these, which the block path must take: an
    # escaped key, 4001 digits of item id, -0 and -0.0, nulls, texts of two lines, a
    # sample of 4000 digits
    taken = {_HOSTILE_LINES[i] for i in (3, 10, 14, 15, 24, 28, 29, 30, 37, 39)}
    assert (got is not None) == (raw in taken), (raw[:80], expected)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(_line() | st.sampled_from(_HOSTILE_LINES), min_size=1, max_size=12),
    st.booleans(),
)
def test_generated_files__same_records_notes_and_errors(
    tmp_path_factory: pytest.TempPathFactory, lines: list[bytes], texts: bool
) -> None:
    """Whole files through `load_runs`: the block path and the reference agree on
    every record, note and error (file, line, field, fix), whatever the lines."""
    path = tmp_path_factory.mktemp("gen") / "r.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    with pytest.MonkeyPatch.context() as patch:
        fast, reference = _both(patch, [path], texts)
    assert fast == reference


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_line(), min_size=1, max_size=6), st.integers(0, 3))
def test_generated_lines_repeated_past_a_part__same_outcome(
    tmp_path_factory: pytest.TempPathFactory, lines: list[bytes], bad_at: int
) -> None:
    """Files of several parts (`jsonl_records.PART` lines each), one part with a
    line of anything: the other parts take the block path, and the outcome is the
    reference's (the first error by line, or the same records)."""
    good = [
        json.dumps(
            {"model_id": f"m{i % 3}", "task_id": "t", "item_id": i, "score": 1}
        ).encode()
        for i in range(jsonl_records.PART * 2 + 10)
    ]
    at = bad_at * jsonl_records.PART // 2
    body = good[:at] + lines + good[at:]
    path = tmp_path_factory.mktemp("parts") / "r.jsonl"
    path.write_bytes(b"\n".join(body) + b"\n")
    with pytest.MonkeyPatch.context() as patch:
        fast, reference = _both(patch, [path])
    assert fast == reference


def _record_fixtures() -> list[Path]:
    found = [
        p
        for p in sorted(FIXTURES.rglob("*"))
        if p.name.endswith((".jsonl", ".jsonl.gz", ".ndjson", ".ndjson.gz"))
        and p.parent.name in ("bad", "good", "two_runs")
    ]
    assert len(found) >= 30  # the fixtures are where this test looks
    return found


@pytest.mark.parametrize("path", _record_fixtures(), ids=lambda p: p.name)
def test_records_fixture__same_outcome(monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    fast, reference = _both(monkeypatch, [path])
    assert fast == reference


def test_fixtures_together__same_outcome(monkeypatch: pytest.MonkeyPatch) -> None:
    good = [p for p in _record_fixtures() if p.parent.name == "good"]
    fast, reference = _both(monkeypatch, good)
    assert fast == reference


def test_plain_records__taken_by_the_block_path(tmp_path: Path) -> None:
    """The common path is the fast one (else there is no point): real-shaped lines,
    with every field the block path reads, are built by `block_runs`."""
    fast_json.parser()
    lines = [
        json.dumps(
            {
                "model_id": "org/model-é",
                "task_id": "mmlu:law",
                "score": i % 2,
                "metric_name": "acc",
                "category": "knowledge",
                "weight": 2,
                "item_id": i if i % 3 else f"q{i}",
                "cluster": "c1",
                "sample": 0,
                "input": "What is 2 + 2?\nA: 4",
                "output": "4",
            },
            ensure_ascii=i % 2 == 0,
        ).encode()
        for i in range(50)
    ]
    for texts in (False, True):
        with keeping_texts(texts):
            got = jsonl_blocks.block_runs(lines, sys.intern)
            assert got is not None
            assert [repr(r) for r in got] == [_reference_line(raw) for raw in lines]
    assert got[1].item_id == "1"
    assert got[1].input == "What is 2 + 2? …"


def test_block_path__used_by_load_runs(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`load_jsonl` builds a file past its crossover through `block_runs`, and a
    part with one bad line goes line by line to the error of that line."""
    calls: list[int | None] = []
    original = jsonl_blocks.block_runs

    def counted(lines: list[bytes], intern: Any) -> Any:
        got = original(lines, intern)
        calls.append(None if got is None else len(got))
        return got

    monkeypatch.setattr(jsonl_records, "block_runs", counted)
    monkeypatch.setattr(fast_json, "RECORDS_CROSSOVER", 0)
    fast_json.parser()
    n = jsonl_records.PART + 5
    lines = [
        json.dumps({"model_id": "m", "task_id": "t", "item_id": i, "score": 0.5})
        for i in range(n)
    ]
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join(lines) + "\n")
    runs, _ = load_runs_noting(str(path))
    assert len(runs) == n
    assert calls == [jsonl_records.PART, 5]
    calls.clear()
    lines[jsonl_records.PART + 2] = '{"model_id": "m", "task_id": "t", "score": 2}'
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(InputError) as caught:
        load_runs_noting(str(path))
    assert calls == [jsonl_records.PART, None]
    assert f"line {jsonl_records.PART + 3}" in str(caught.value)
    assert "score" in str(caught.value)


def _spy_blocks(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether each call of `block_runs` from the records reader built its part."""
    calls: list[bool] = []
    real = jsonl_records.block_runs

    def spy(lines: list[bytes], intern: Any) -> Any:
        runs = real(lines, intern)
        calls.append(runs is not None)
        return runs

    monkeypatch.setattr(jsonl_records, "block_runs", spy)
    return calls


def _parts_file(path: Path, parts: int, odd: str | None, newline: str = "\n") -> Path:
    """`parts` parts of `jsonl_records.PART` records; `odd`, when given, is the output
    text of the first line of every part (one the block path declines)."""
    lines = []
    for i in range(parts * jsonl_records.PART):
        rec: dict[str, Any] = {"model_id": f"m{i % 3}", "task_id": "t", "item_id": i}
        rec["score"] = float(i % 2)
        if odd is not None and i % jsonl_records.PART == 0:
            rec["output"] = odd
        lines.append(json.dumps(rec))
    path.write_text(newline.join(lines) + newline, newline="")
    return path


def test_blocks__a_file_whose_every_part_declines_stops_trying_after_the_first_few(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # an escaped quote in a kept text declines its whole part: 12 such parts were
    # each decoded twice; now the block path is asked DECLINES_TRIED times only
    path = _parts_file(tmp_path / "quoted.jsonl", 12, 'he said "hi"')
    fast, reference = _both(monkeypatch, [path], texts=True)
    assert fast == reference
    calls = _spy_blocks(monkeypatch)
    fast_json.parser()
    monkeypatch.setattr(fast_json, "RECORDS_CROSSOVER", 0)
    assert _outcome([path], texts=True)[0] == "runs"
    assert calls == [False] * jsonl_records.DECLINES_TRIED


def test_blocks__rare_declines_keep_the_block_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clean = _parts_file(tmp_path / "clean.jsonl", 40, None).read_text().splitlines()
    part = jsonl_records.PART
    for at in (10 * part, 25 * part, 38 * part):  # three parts declined among forty
        rec = json.loads(clean[at])
        rec["output"] = 'a "quoted" answer'
        clean[at] = json.dumps(rec)
    path = tmp_path / "rare.jsonl"
    path.write_text("\n".join(clean) + "\n")
    calls = _spy_blocks(monkeypatch)
    fast_json.parser()
    monkeypatch.setattr(fast_json, "RECORDS_CROSSOVER", 0)
    assert _outcome([path], texts=True)[0] == "runs"
    assert len(calls) >= 40
    assert calls.count(False) == 3


def test_blocks__crlf_blank_lines_are_skipped_not_declined(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _parts_file(tmp_path / "crlf.jsonl", 3, None, newline="\r\n")
    text = path.read_bytes().replace(b"\r\n", b"\r\n\r\n", 7)  # blank CRLF lines
    path.write_bytes(text)
    fast, reference = _both(monkeypatch, [path])
    assert fast == reference
    assert fast[0] == "runs"
    calls = _spy_blocks(monkeypatch)
    monkeypatch.setattr(fast_json, "RECORDS_CROSSOVER", 0)
    _outcome([path])
    assert len(calls) >= 3
    assert all(calls)
