"""SWE-bench run reports read with their id lists counted as they are parsed.

`load_object_of_arrays` walks the report's top-level object and each array an element
at a time; these tests hold it to `load_json`'s result on every real fixture and on
documents it does not expect, and its budget to the run's room and `MAX_LISTED`.
"""

from __future__ import annotations

import gzip
import json
import warnings
from pathlib import Path
from typing import Any

import pytest

from leaderboard.errors import InputError
from leaderboard.inputs import reading
from leaderboard.inputs.frameworks import swebench
from leaderboard.inputs.frameworks._common import FormatWarning, load_json
from leaderboard.inputs.frameworks._object_arrays import load_object_of_arrays
from leaderboard.inputs.frameworks.metrics import ReadOptions

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "swebench"
REAL = sorted(p for p in FIXTURES.rglob("*.json"))


class _Unlimited:
    def room(self, key: str) -> int:
        return 10**9

    def spend(self, key: str, count: int) -> None:
        pass

    def refuse(self, key: str) -> InputError:  # pragma: no cover - never past 10**9
        raise AssertionError(key)


def _same_as_load_json(path: Path) -> None:
    try:
        expected: Any = load_json(path)
    except InputError as err:
        expected = err
    try:
        got: Any = load_object_of_arrays(path, _Unlimited())
    except InputError as err:
        got = err
    if isinstance(expected, InputError):
        assert isinstance(got, InputError)
        assert str(got) == str(expected)
        return
    assert got == expected
    assert json.dumps(got) == json.dumps(expected)  # the same key order too


def test_real_fixtures__read_as_load_json_reads_them() -> None:
    assert len(REAL) >= 19
    for path in REAL:
        _same_as_load_json(path)


@pytest.mark.parametrize(
    "text",
    [
        '{"resolved_ids": ["a", "b"], "resolved_ids": ["c"]}',  # a repeated top key
        '{"resolved_ids": [{"x": 1, "x": 2}]}',  # a repeated key inside
        '{"resolved_ids": ["a",]}',
        '{"resolved_ids": ["a"] "unresolved_ids": []}',
        '{"resolved_ids": ["a"]} trailing',
        '{"resolved_ids": [NaN, Infinity, -Infinity]}',
        '{"total_instances": ' + "9" * 5000 + ', "resolved_ids": ["a"]}',
        '{"resolved_ids": [' + "[" * 100_000 + "]" * 100_000 + "]}",
        '{"resolved_ids": ["\\ud800"], "n": 1e400}',
        '  \n{ "resolved_ids" : [ "a" , "b" ] , "x" : { } }  \n',
        "{}",
        "[]",
        '"resolved_ids"',
        '{"resolved_ids": ["a"]',
        "",
    ],
)
def test_other_documents__the_value_or_error_load_json_gives(
    tmp_path: Path, text: str
) -> None:
    path = tmp_path / "agent.run.json"
    path.write_text(text)
    _same_as_load_json(path)


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16", "utf-32"])
def test_bom_and_other_encodings__as_json_reads_them(tmp_path: Path, encoding: str) -> None:
    path = tmp_path / "agent.run.json"
    path.write_bytes('{"resolved_ids": ["é"], "unresolved_ids": []}'.encode(encoding))
    _same_as_load_json(path)


def test_gzipped_report__read(tmp_path: Path) -> None:
    path = tmp_path / "agent.run.json.gz"
    path.write_bytes(gzip.compress(b'{"resolved_ids": ["a"], "unresolved_ids": ["b"]}'))
    _same_as_load_json(path)


@pytest.fixture(autouse=True)
def _quiet() -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FormatWarning)
        yield


def _report(tmp_path: Path, **lists: list[str]) -> Path:
    path = tmp_path / "agent.run.json"
    path.write_text(json.dumps(lists))
    return path


def test_scored_lists__share_the_runs_room(tmp_path: Path) -> None:
    path = _report(
        tmp_path,
        resolved_ids=[f"r{i}" for i in range(6)],
        unresolved_ids=[f"u{i}" for i in range(5)],
    )
    assert len(swebench.read_swebench(path, ReadOptions(limit=11))) == 11
    with pytest.raises(InputError, match="past 2,000,000 records") as caught:
        swebench.read_swebench(path, ReadOptions(limit=10))
    assert caught.value.file == str(path)


def test_scored_list__stops_one_past_its_room(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The array is refused when it holds room + 1 elements, not at its end."""
    path = _report(tmp_path, resolved_ids=[f"r{i}" for i in range(1000)])
    held: list[int] = []
    real = swebench._IdBudget.refuse

    def refuse(self: swebench._IdBudget, key: str) -> InputError:
        held.append(self.scored_room)
        return real(self, key)

    monkeypatch.setattr(swebench._IdBudget, "refuse", refuse)
    with pytest.raises(InputError, match="records"):
        swebench.read_swebench(path, ReadOptions(limit=7))
    assert held == [7]


def test_all_lists__held_to_max_listed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(swebench, "MAX_LISTED", 20)
    ids = [f"i{i}" for i in range(8)]
    fits = _report(tmp_path, submitted_ids=ids, completed_ids=ids, resolved_ids=ids[:4])
    assert len(swebench.read_swebench(fits)) == 4
    over = _report(
        tmp_path, submitted_ids=ids, completed_ids=ids, error_ids=ids[:5], resolved_ids=[]
    )
    with pytest.raises(InputError) as caught:
        swebench.read_swebench(over)
    message = str(caught.value)
    assert "lists more than 20 instance ids in all" in message
    assert caught.value.field == "error_ids"
    assert caught.value.file == str(over)


def test_max_listed__twice_the_runs_cap() -> None:
    assert swebench.MAX_LISTED == 2 * reading.MAX_RECORDS
