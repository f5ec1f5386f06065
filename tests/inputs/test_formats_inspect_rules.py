"""Inspect logs built by hand, to pin the reader's rules and its refusals.

The layout follows what inspect-ai 0.3.285 writes (see the integration test, which
reads real logs); these logs hold only the fields the reader uses.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from leaderboard.errors import InputError
from leaderboard.inputs.frameworks import FormatWarning, ReadOptions, read, sniff
from leaderboard.inputs.frameworks.inspect_log import score_value


def _sample(item: str | int, epoch: int, **scores: Any) -> dict[str, Any]:
    return {
        "id": item,
        "epoch": epoch,
        "scores": {k: {"value": v} for k, v in scores.items()},
    }


def _header(status: str = "success", **eval_fields: Any) -> dict[str, Any]:
    return {
        "version": 2,
        "status": status,
        "eval": {"task": "arith", "model": "openai/gpt-x", "task_id": "t1"} | eval_fields,
        "results": {"scores": [{"name": "match"}]},
    }


def _json_log(tmp_path: Path, samples: list[dict[str, Any]], **header: Any) -> Path:
    path = tmp_path / "log.json"
    path.write_text(json.dumps(_header(**header) | {"samples": samples}, indent=2))
    return path


def _eval_log(
    tmp_path: Path, samples: list[dict[str, Any]], *, header: bool = True, **fields: Any
) -> Path:
    path = tmp_path / "log.eval"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("_journal/start.json", json.dumps({"version": 2}))
        for s in samples:
            archive.writestr(f"samples/{s['id']}_epoch_{s['epoch']}.json", json.dumps(s))
        if header:
            archive.writestr("summaries.json", json.dumps(samples))
            archive.writestr("header.json", json.dumps(_header(**fields)))
    return path


GOOD = [
    _sample("a", 1, match="C"),
    _sample("a", 2, match="I"),
    _sample("b", 1, match="P"),
    _sample("b", 2, match="N"),
    _sample(3, 1, match=True),
    _sample(3, 2, match=0.25),
]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("C", 1.0),
        ("I", 0.0),
        ("P", 0.5),
        ("N", 0.0),
        (True, 1.0),
        (False, 0.0),
        (0, 0.0),
        (1, 1.0),
        (0.75, 0.75),
    ],
)
def test_score_value__maps_inspect_values_to_unit_interval(
    value: Any, expected: float
) -> None:
    assert score_value(value) == expected


@pytest.mark.parametrize(
    "value", ["yes", "c", "correct", "", 1.5, -0.1, 2, float("nan"), None, [1], {"a": 1}]
)
def test_score_value__refuses_anything_else(value: Any) -> None:
    assert score_value(value) is None


@pytest.mark.parametrize("writer", [_json_log, _eval_log])
def test_read__one_record_per_sample_and_epoch(writer: Any, tmp_path: Path) -> None:
    path = writer(tmp_path, GOOD)
    assert sniff(path, path.read_bytes()[:65536]) == "inspect"
    runs = read("inspect", path)
    got = {(r.item_id, r.sample): r.score for r in runs}
    assert got == {
        ("a", 1): 1.0,
        ("a", 2): 0.0,
        ("b", 1): 0.5,
        ("b", 2): 0.0,
        (3, 1): 1.0,
        (3, 2): 0.25,
    }
    assert {(r.model_id, r.task_id, r.metric_name, r.category) for r in runs} == {
        ("openai/gpt-x", "arith", "match", "general")
    }


def test_read__category_from_the_task_metadata(tmp_path: Path) -> None:
    path = _json_log(tmp_path, GOOD, metadata={"category": "math"})
    assert {r.category for r in read("inspect", path)} == {"math"}


@pytest.mark.parametrize("status", ["error", "cancelled", "started"])
@pytest.mark.parametrize("writer", [_json_log, _eval_log])
def test_read__unfinished_eval_is_refused(status: str, writer: Any, tmp_path: Path) -> None:
    path = writer(tmp_path, GOOD, status=status)
    with pytest.raises(InputError, match=f"status '{status}'") as info:
        read("inspect", path)
    text = str(info.value)
    assert str(path) in text
    assert "eval-retry" in text
    assert "\n" not in text


def test_read__eval_archive_without_header_is_refused(tmp_path: Path) -> None:
    path = _eval_log(tmp_path, GOOD, header=False)
    assert sniff(path, path.read_bytes()[:65536]) == "inspect"
    with pytest.raises(InputError, match="never finished"):
        read("inspect", path)


def test_read__invalidated_samples_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "log.json"
    path.write_text(json.dumps(_header() | {"invalidated": True, "samples": GOOD}))
    with pytest.raises(InputError, match="invalidated"):
        read("inspect", path)


@pytest.mark.parametrize("value", ["yes", 1.5, -1, {"accuracy": 1}, [1, 0], None])
@pytest.mark.parametrize("writer", [_json_log, _eval_log])
def test_read__unmappable_score_names_scorer_and_sample(
    value: Any, writer: Any, tmp_path: Path
) -> None:
    path = writer(tmp_path, [*GOOD, _sample("zz", 2, match=value)])
    with pytest.raises(InputError) as info:
        read("inspect", path)
    text = str(info.value)
    assert "sample 'zz' epoch 2" in text
    assert "scorer `match`" in text
    assert "field `scores.match.value`" in text
    assert "\n" not in text


def test_read__errored_sample_of_a_finished_log_arrives_errored_and_counted(
    tmp_path: Path,
) -> None:
    # status success with an errored sample: Inspect tolerated it (--fail-on-error)
    broken = {"id": "q9", "epoch": 1, "scores": None, "error": {"message": "timeout"}}
    with pytest.warns(
        FormatWarning,
        match=r"1 of \d+ samples of task arith errored \(Inspect finished the eval "
        r"with errors tolerated, --fail-on-error\): attempted, not scored",
    ):
        runs = read("inspect", _json_log(tmp_path, [*GOOD, broken]))
    (errored,) = [r for r in runs if r.error is not None]
    assert (errored.item_id, errored.sample, errored.error) == ("q9", 1, "timeout")
    assert math.isnan(errored.score)
    assert all(r.error is None for r in runs if r.item_id != "q9")
    assert len(runs) > 1


def test_read__a_log_whose_every_sample_errored_is_refused(tmp_path: Path) -> None:
    broken = {"id": "q9", "epoch": 1, "scores": None, "error": {"message": "timeout"}}
    with pytest.raises(InputError, match=r"every sample errored \(1 of 1\)"):
        read("inspect", _json_log(tmp_path, [broken]))


def test_read__sample_missing_the_kept_scorer_is_refused(tmp_path: Path) -> None:
    samples = [_sample("a", 1, match="C", judge=1.0), _sample("b", 1, judge=0.5)]
    with pytest.raises(
        InputError, match="sample 'b' epoch 1 has no score from scorer `match`"
    ):
        read("inspect", _json_log(tmp_path, samples))


def test_read__several_scorers_keep_one_the_others_named(tmp_path: Path) -> None:
    samples = [_sample("a", 1, match="C", judge=0.5), _sample("b", 1, match="I", judge=1)]
    path = _json_log(tmp_path, samples)
    with pytest.warns(FormatWarning, match=r"one score per task.*judge in arith"):
        runs = read("inspect", path)
    assert {(r.task_id, r.metric_name, r.item_id, r.score, r.weight) for r in runs} == {
        ("arith", "match", "a", 1.0, 1.0),
        ("arith", "match", "b", 0.0, 1.0),
    }
    with pytest.warns(FormatWarning, match=r"match in arith"):
        judged = read("inspect", path, ReadOptions(metrics=("nothing", "judge")))
    assert {(r.item_id, r.score) for r in judged} == {("a", 0.5), ("b", 1.0)}


def test_read__unscored_json_log_says_inspect_score(tmp_path: Path) -> None:
    header = _header()
    header.pop("results", None)
    path = tmp_path / "log.json"
    samples = [{"id": "a", "epoch": 1, "scores": {}}, {"id": "b", "epoch": 1}]
    path.write_text(json.dumps({**header, "samples": samples}))
    with pytest.raises(InputError, match=r"without scoring.*`inspect score LOG`"):
        read("inspect", path)


def test_read__log_without_samples_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "log.json"
    path.write_text(json.dumps(_header()))
    with pytest.raises(InputError, match="holds no samples"):
        read("inspect", path)


def test_read__truncated_archive_is_refused(tmp_path: Path) -> None:
    path = _eval_log(tmp_path, GOOD)
    path.write_bytes(path.read_bytes()[:200])
    with pytest.raises(InputError, match=r"not a readable \.eval archive"):
        read("inspect", path)


def test_read__zstd_archive_without_a_zstd_reader_says_what_to_install(
    tmp_path: Path,
) -> None:
    from backports.zstd import zipfile as zstd_zipfile  # noqa: PLC0415

    path = tmp_path / "log.eval"
    with zstd_zipfile.ZipFile(path, "w", compression=zstd_zipfile.ZIP_ZSTANDARD) as archive:
        archive.writestr("summaries.json", json.dumps(GOOD))
        archive.writestr("header.json", json.dumps(_header()))
    # A fresh process, so no zipfile patch another test's import left behind applies.
    code = (
        "import sys, pathlib\n"
        "sys.modules['backports.zstd'] = None\n"
        "from leaderboard.errors import InputError\n"
        "from leaderboard.inputs.frameworks import read\n"
        "try:\n"
        "    read('inspect', pathlib.Path(sys.argv[1]))\n"
        "except InputError as exc:\n"
        "    print(exc)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(path)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert "compression this Python cannot read" in done.stdout
    assert "pip install backports.zstd" in done.stdout


def test_read__public_inspect_0_3_41_json_log() -> None:
    """A log committed to inspect_ai's own tests (tests/fixtures/inspect/README.md)."""
    path = Path(__file__).resolve().parents[1] / "fixtures" / "inspect" / "log_formats.json"
    assert sniff(path, path.read_bytes()[:65536]) == "inspect"
    log = json.loads(path.read_text())
    [run] = read("inspect", path)
    assert (run.model_id, run.task_id, run.metric_name) == (
        log["eval"]["model"],
        log["eval"]["task"],
        "match",
    )
    assert (run.item_id, run.sample, run.score) == (1, 1, 0.0)  # scored "I"
