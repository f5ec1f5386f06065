"""Property-based fuzzing of `load_runs`: no input raises anything but LeaderboardError.

Arbitrary bytes, arbitrary JSON values, records with arbitrary field values, and
mutated valid files (flipped, deleted, inserted, repeated bytes; truncation) are written
under every supported name and loaded. Each either loads into valid `EvalRun`s or raises
a `LeaderboardError` whose message is one line. Valid records load the same from JSON
Lines and from CSV, in any order.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import math
import os
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from leaderboard.errors import LeaderboardError
from leaderboard.inputs import EvalRun, load_runs
from leaderboard.inputs.reading import FIELDS

NAMES = ["r.json", "r.jsonl", "r.ndjson", "r.csv", "r.jsonl.gz", "r.csv.gz", "r", "r.txt"]
FUZZ = settings(
    max_examples=int(os.environ.get("LEADERBOARD_FUZZ_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _check(runs: list[EvalRun]) -> None:
    for run in runs:
        assert isinstance(run.model_id, str)
        assert run.model_id
        assert isinstance(run.task_id, str)
        assert run.task_id
        assert type(run.score) is float
        assert 0.0 <= run.score <= 1.0
        assert type(run.weight) is float
        assert math.isfinite(run.weight)
        assert run.weight > 0
        assert run.item_id is None or type(run.item_id) is str
        assert run.cluster is None or type(run.cluster) is str
        assert run.sample is None or (type(run.sample) is int and run.sample >= 0)
        assert run.item_id is not None or (run.cluster is None and run.sample is None)


def _load(files: dict[str, bytes]) -> list[EvalRun] | LeaderboardError:
    """Write `files` into a fresh directory and load them all; never raise else."""
    with tempfile.TemporaryDirectory() as tmp:
        for name, content in files.items():
            (Path(tmp) / name).write_bytes(content)
        try:
            runs = load_runs([str(Path(tmp) / name) for name in files])
        except LeaderboardError as err:
            message = str(err)
            assert message
            assert "\n" not in message
            assert "\r" not in message
            return err
    _check(runs)
    return runs


def _maybe_gz(name: str, data: bytes) -> bytes:
    return gzip.compress(data, mtime=0) if name.endswith(".gz") else data


@FUZZ
@given(data=st.binary(max_size=2048), name=st.sampled_from(NAMES))
@example(data=b"\x1f\x8b", name="r.jsonl")
@example(data=b"\xef\xbb\xbf", name="r.csv")
@example(data=b"[" * 5000, name="r.json")
@example(data=b'{"records": 1}', name="r")
def test_fuzz__arbitrary_bytes(data: bytes, name: str) -> None:
    _load({name: data})
    _load({name: _maybe_gz(name, data)})


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner)
    ),
    max_leaves=20,
)
# The contract's fields, near-misses the loader must name, and a field it ignores.
FIELD_NAMES = st.sampled_from([*FIELDS, "modelid", "scores", "Model ID", "extra"])
FIELD_VALUES = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-3, max_value=3)
    | st.integers()
    | st.floats(min_value=-0.5, max_value=1.5)
    | st.floats()
    | st.sampled_from(["", "m", "t", "0.5", "true", "\n", "\ud800", "a|b", "\u2028"])
    | st.text(max_size=8)
    | st.lists(st.integers(), max_size=2)
)
RECORDS = st.lists(
    st.fixed_dictionaries(
        {
            "model_id": st.sampled_from(["m1", "m2"]),
            "task_id": st.sampled_from(["t1", "t2"]),
            "score": st.floats(0, 1),
        },
        optional={"x": st.just(0)},
    ).flatmap(
        lambda base: st.dictionaries(FIELD_NAMES, FIELD_VALUES, max_size=4).map(
            lambda extra: {**base, **extra}
        )
    ),
    min_size=1,
    max_size=8,
)


@FUZZ
@given(doc=JSON_VALUES, name=st.sampled_from(["r.json", "r.jsonl", "r"]))
@example(doc={"\r": None}, name="r.json")  # a key once reached the message raw
@example(doc=[{"model_id\n": "m", "task_id": "t", "score": 1}], name="r.json")
@example(
    doc={"model_id": "m", "task_id": "t", "score": 1, "Score\u2028": 1}, name="r.jsonl"
)
def test_fuzz__arbitrary_json_document(doc: Any, name: str) -> None:
    _load({name: json.dumps(doc).encode()})


@FUZZ
@given(records=RECORDS, holder=st.sampled_from(["array", "records", "runs", "lines"]))
def test_fuzz__records_with_arbitrary_field_values(records: list[Any], holder: str) -> None:
    if holder == "lines":
        files = {"r.jsonl": "".join(json.dumps(r) + "\n" for r in records).encode()}
    else:
        doc: Any = records if holder == "array" else {holder: records}
        files = {"r.json": json.dumps(doc).encode()}
    _load(files)
    _load({"r.csv": _csv(records)})


def _csv(records: list[dict[str, Any]]) -> bytes:
    fields = sorted({k for r in records for k in r})
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=fields)
    writer.writeheader()
    for record in records:
        writer.writerow({k: _cell(v) for k, v in record.items()})
    return out.getvalue().encode("utf-8", "surrogatepass")


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)


VALID = st.lists(
    st.builds(
        dict,
        model_id=st.sampled_from(["m1", "m2", "模型"]),
        task_id=st.sampled_from(["t1", "t2", "t,3"]),
        item_id=st.one_of(
            st.integers(0, 10**30), st.text("abc123", min_size=1, max_size=4)
        ),
        score=st.one_of(st.booleans(), st.floats(0, 1), st.sampled_from([0, 1])),
    ),
    min_size=1,
    max_size=12,
    unique_by=lambda r: (r["model_id"], r["task_id"], str(r["item_id"])),
)


@FUZZ
@given(records=VALID, order=st.randoms(use_true_random=False))
def test_fuzz__valid_records_same_from_jsonl_csv_and_any_order(
    records: list[dict[str, Any]], order: Any
) -> None:
    jsonl = "".join(json.dumps(r) + "\n" for r in records).encode()
    shuffled = records[:]
    order.shuffle(shuffled)
    reordered = "".join(json.dumps(r) + "\n" for r in shuffled).encode()
    first = _load({"r.jsonl": jsonl})
    assert isinstance(first, list)
    assert len(first) == len(records)
    assert _load({"r.jsonl": reordered}) == first
    assert _load({"r.csv": _csv(records)}) == first
    half = len(shuffled) // 2
    split = {
        "a.jsonl": "".join(json.dumps(r) + "\n" for r in shuffled[:half]).encode(),
        "b.csv": _csv(shuffled[half:]) if shuffled[half:] else b"",
    }
    if half:
        assert _load(split) == first


def _mutate(data: bytes, ops: list[tuple[int, int, int]]) -> bytes:
    buf = bytearray(data)
    for kind, where, value in ops:
        if not buf:
            buf.extend(bytes([value]))
            continue
        pos = where % len(buf)
        if kind == 0:
            buf[pos] ^= 1 << (value % 8)
        elif kind == 1:
            del buf[pos : pos + 1 + value % 8]
        elif kind == 2:
            buf[pos:pos] = bytes([value])
        elif kind == 3:
            buf[pos:pos] = buf[pos : pos + value % 64]
        else:
            del buf[pos:]
    return bytes(buf)


SEEDS = {
    "r.jsonl": b'{"model_id": "m1", "task_id": "t1", "score": 0.5, "item_id": 1}\n'
    b'{"model_id": "m2", "task_id": "t1", "score": true, "item_id": 1, "sample": 0}\n',
    "r.csv": b"\xef\xbb\xbfmodel_id,task_id,item_id,cluster,score,weight\r\n"
    b"m1,t1,1,c,0.5,2\r\nm2,t1,1,c,false,2\r\n",
    "r.json": b'{"records": [{"model_id": "m1", "task_id": "t1", "score": 1,'
    b' "category": "math"}]}',
}


@FUZZ
@given(
    name=st.sampled_from(sorted(SEEDS)),
    gz=st.booleans(),
    ops=st.lists(
        st.tuples(st.integers(0, 4), st.integers(0, 10**6), st.integers(0, 255)),
        min_size=1,
        max_size=6,
    ),
)
def test_fuzz__mutated_valid_files(
    name: str, gz: bool, ops: list[tuple[int, int, int]]
) -> None:
    data = SEEDS[name]
    if gz:
        # mutate the compressed stream: broken gzip must be refused cleanly
        _load({name + ".gz": _mutate(gzip.compress(data, mtime=0), ops)})
    else:
        _load({name: _mutate(data, ops)})


def test_fuzz__seeds_are_valid() -> None:
    for name, data in SEEDS.items():
        assert isinstance(_load({name: data}), list), name
