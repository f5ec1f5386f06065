"""`load_runs`: paths and globs, canonical ids and order, format dispatch."""

from __future__ import annotations

import gzip
import json
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

from leaderboard.errors import InputError, UsageError
from leaderboard.inputs import EvalRun, load_runs, sources
from leaderboard.inputs.reading import suggest

RECORDS = [
    {"model_id": "m1", "task_id": "t1", "item_id": 1, "cluster": 10, "score": 1},
    {"model_id": "m1", "task_id": "t1", "item_id": 2, "cluster": 10, "score": 0.25},
    {"model_id": "m2", "task_id": "t1", "item_id": 1, "cluster": 10, "score": False},
    {"model_id": "m2", "task_id": "t1", "item_id": 2, "cluster": 10, "score": 0.75},
]
CSV = "model_id,task_id,item_id,cluster,score\nm2,t1,2,10,0.75\nm1,t1,1,10,1\n"
CSV += "m2,t1,1,10,false\nm1,t1,2,10,0.25\n"


def _jsonl(path: Path, records: list[dict[str, object]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def test_load_runs__json_and_csv_give_the_same_runs(tmp_path: Path) -> None:
    from_json = load_runs(_jsonl(tmp_path / "a.jsonl", RECORDS))
    (tmp_path / "a.csv").write_text(CSV, encoding="utf-8")
    assert load_runs(tmp_path / "a.csv") == from_json
    assert from_json[0] == EvalRun("m1", "t1", 1.0, item_id="1", cluster="10")


def test_load_runs__canonical_ids_are_strings(tmp_path: Path) -> None:
    runs = load_runs(_jsonl(tmp_path / "a.jsonl", RECORDS))
    assert {type(r.item_id) for r in runs} == {str}
    assert {type(r.cluster) for r in runs} == {str}
    assert {type(r.score) for r in runs} == {float}


def test_load_runs__record_and_file_order_do_not_matter(tmp_path: Path) -> None:
    whole = load_runs(_jsonl(tmp_path / "whole.jsonl", RECORDS))
    _jsonl(tmp_path / "split" / "b.jsonl", RECORDS[::2][::-1])
    _jsonl(tmp_path / "split" / "a.jsonl", RECORDS[1::2])
    assert load_runs(tmp_path / "split" / "*.jsonl") == whole
    assert load_runs([tmp_path / "split/b.jsonl", tmp_path / "split/a.jsonl"]) == whole


def test_load_runs__accepts_str_path_and_iterables(tmp_path: Path) -> None:
    path = _jsonl(tmp_path / "a.jsonl", RECORDS)
    expected = load_runs(path)

    def gen() -> Iterator[str]:
        yield str(path)

    for given in (str(path), [path], (str(path),), gen()):
        assert load_runs(given) == expected


def test_load_runs__recursive_glob_and_each_file_once(tmp_path: Path) -> None:
    _jsonl(tmp_path / "x" / "deep" / "er" / "a.jsonl", RECORDS[:2])
    _jsonl(tmp_path / "y" / "b.jsonl", RECORDS[2:])
    both = load_runs(str(tmp_path / "**" / "*.jsonl"))
    assert len(both) == 4
    again = load_runs([str(tmp_path / "**/*.jsonl"), tmp_path / "y" / "b.jsonl"])
    assert again == both


def test_load_runs__glob_matching_only_directories_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "d.jsonl").mkdir()
    with pytest.raises(InputError, match="no file matches"):
        load_runs(str(tmp_path / "*.jsonl"))


def test_load_runs__literal_name_with_glob_characters(tmp_path: Path) -> None:
    path = _jsonl(tmp_path / "run[1].jsonl", RECORDS)
    assert len(load_runs(str(path))) == 4


@pytest.mark.parametrize("paths", [[], ()])
def test_load_runs__no_paths_is_a_usage_error(paths: list[str]) -> None:
    with pytest.raises(UsageError, match="no input files"):
        load_runs(paths)


@pytest.mark.parametrize("bad", ["", "  ", "a\0b"])
def test_load_runs__unusable_path(bad: str) -> None:
    with pytest.raises(UsageError, match="not a usable path"):
        load_runs([bad])


def test_load_runs__unknown_format_names_the_choices(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="auto, records, inspect, lm-eval"):
        load_runs(_jsonl(tmp_path / "a.jsonl", RECORDS), format="yaml")


def test_load_runs__path_with_newline_stays_one_line(tmp_path: Path) -> None:
    path = tmp_path / "evil\nname.jsonl"
    path.write_text('{"model_id": "m", "task_id": "t", "score": 2}\n', encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_runs(path)
    assert "\n" not in str(info.value)
    assert "evil\\nname.jsonl, line 1" in str(info.value)


def test_load_runs__gzip_by_magic_and_by_name(tmp_path: Path) -> None:
    data = "".join(json.dumps(r) + "\n" for r in RECORDS).encode()
    (tmp_path / "a.jsonl.gz").write_bytes(gzip.compress(data))
    (tmp_path / "b.jsonl").write_bytes(gzip.compress(data))
    assert load_runs(tmp_path / "a.jsonl.gz") == load_runs(tmp_path / "b.jsonl")


def test_load_runs__json_null_optional_fields_mean_absent(tmp_path: Path) -> None:
    path = tmp_path / "a.json"
    record = {
        "model_id": "m",
        "task_id": "t",
        "score": 0.5,
        "category": None,
        "weight": None,
    }
    path.write_text(json.dumps([record | {"metric_name": None, "item_id": None}]))
    assert load_runs(path) == [EvalRun("m", "t", 0.5)]


def test_load_runs__extra_field_resembling_a_present_field_is_ignored(
    tmp_path: Path,
) -> None:
    record = {"model_id": "m", "task_id": "t", "score": 0.5, "scores": [1], "model": "x"}
    assert load_runs(_jsonl(tmp_path / "a.jsonl", [record])) == [EvalRun("m", "t", 0.5)]


@pytest.mark.parametrize(
    ("key", "target"),
    [
        ("modelid", "model_id"),
        ("Model ID", "model_id"),
        ("task-id", "task_id"),
        ("scores", "score"),
        ("categroy", "category"),
        ("weights", "weight"),
        ("itemid", "item_id"),
        ("samples", "sample"),
        ("timestamp", None),
        ("model", None),
        ("notes", None),
    ],
)
def test_suggest__near_misses_only(key: str, target: str | None) -> None:
    assert suggest(key) == target


# ------------------------------------------------------------------ framework dispatch


@pytest.fixture
def fake_formats(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """A stand-in for the framework readers: a head saying FAKE-LOG is 'inspect'."""
    calls: list[tuple[str, str]] = []
    module = types.ModuleType("fake_frameworks")

    def sniff(path: Path, head: bytes) -> str | None:
        calls.append(("sniff", path.name))
        return "inspect" if head.startswith(b"FAKE-LOG") else None

    def read(fmt: str, path: Path, options: object = None) -> list[EvalRun]:
        calls.append((f"read {fmt}", path.name))
        return [EvalRun("m1", "t9", 0.5, item_id=3), EvalRun("m1", "t9", 1.0, item_id=4)]

    module.sniff = sniff  # type: ignore[attr-defined]
    module.read = read  # type: ignore[attr-defined]
    monkeypatch.setattr(sources, "frameworks", module)
    return calls


def test_format_auto__framework_log_goes_to_its_reader(
    tmp_path: Path, fake_formats: list[tuple[str, str]]
) -> None:
    (tmp_path / "log.json").write_bytes(b"FAKE-LOG ...")
    runs = load_runs([tmp_path / "log.json", _jsonl(tmp_path / "r.jsonl", RECORDS)])
    assert ("read inspect", "log.json") in fake_formats
    assert [r.item_id for r in runs if r.task_id == "t9"] == ["3", "4"]
    assert len(runs) == 6


def test_format_records__never_asks_the_framework_readers(
    tmp_path: Path, fake_formats: list[tuple[str, str]]
) -> None:
    load_runs(_jsonl(tmp_path / "r.jsonl", RECORDS), format="records")
    assert fake_formats == []


def test_format_forced__every_file_through_that_reader(
    tmp_path: Path, fake_formats: list[tuple[str, str]]
) -> None:
    runs = load_runs(_jsonl(tmp_path / "r.jsonl", RECORDS), format="inspect")
    assert fake_formats == [("read inspect", "r.jsonl")]
    assert {r.task_id for r in runs} == {"t9"}


def test_format_auto__duplicate_between_framework_and_records_names_both(
    tmp_path: Path, fake_formats: list[tuple[str, str]]
) -> None:
    (tmp_path / "log.eval").write_bytes(b"FAKE-LOG")
    rec = {"model_id": "m1", "task_id": "t9", "score": 1, "item_id": 3}
    _jsonl(tmp_path / "r.jsonl", [rec])
    with pytest.raises(
        InputError, match=r"log\.eval, record 1: duplicate .*r\.jsonl, line 1"
    ):
        load_runs([tmp_path / "log.eval", tmp_path / "r.jsonl"])


# ------------------------------------------------------------------------- EvalRun


def test_evalrun__fast_and_careful_paths_agree() -> None:
    assert EvalRun("m", "t", True).score == 1.0
    assert type(EvalRun("m", "t", 1).score) is float
    assert EvalRun("m", "t", 0.5, weight=2).weight == 2.0
    assert EvalRun("m", "t", 0.5, item_id=3, sample=1).item_id == 3  # API keeps ints


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"score": 10**400}, "score"),
        ({"score": -(10**400)}, "score"),
        ({"score": float("nan")}, "score"),
        ({"score": 0.5, "weight": 10**400}, "weight"),
        ({"score": 0.5, "weight": float("inf")}, "weight"),
        ({"score": 0.5, "sample": True}, "sample"),
        ({"score": 0.5, "item_id": 1.0}, "item_id"),
        ({"score": "0.5"}, "score"),
    ],
)
def test_evalrun__bad_values_raise_input_error(
    kwargs: dict[str, object], field: str
) -> None:
    with pytest.raises(InputError) as info:
        EvalRun("m", "t", **kwargs)  # type: ignore[arg-type]
    assert info.value.field == field
    assert len(str(info.value)) < 300


# ------------------------------------------------------------------------- size caps


def test_line_cap__a_file_without_line_breaks_is_refused_early(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import leaderboard.inputs.reading as formats  # noqa: PLC0415

    monkeypatch.setattr(formats, "MAX_LINE", 1000)
    good = '{"model_id": "m", "task_id": "t", "score": 1}\n'
    for name in ("a.jsonl", "a.csv"):
        path = tmp_path / name
        head = good if name.endswith("jsonl") else "model_id,task_id,score\n"
        path.write_text(head + "x" * 5000, encoding="utf-8")
        with pytest.raises(InputError, match=rf"{name}, line 2: is longer than"):
            load_runs(path)


def test_document_cap__huge_json_document_points_to_json_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from leaderboard.inputs import reading  # noqa: PLC0415

    monkeypatch.setattr(reading, "MAX_DOCUMENT", 100)
    path = tmp_path / "a.json.gz"
    path.write_bytes(gzip.compress(json.dumps(RECORDS).encode()))
    with pytest.raises(
        InputError,
        match=r"a\.json\.gz: holds more than 100 bytes as one JSON document.*JSON Lines",
    ):
        load_runs(path)
