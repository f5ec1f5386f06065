"""Errored items in the records contract (CONTRACT.md section 13): ``"score": null`` with
an ``"error"``, in JSON, JSON Lines and CSV, and what is refused."""

from __future__ import annotations

import gzip
import json
import math
from pathlib import Path

import pytest

from leaderboard import EvalRun, load_runs
from leaderboard.action.history.branch import encode_records
from leaderboard.cli import main
from leaderboard.errors import InputError

ROWS = [
    {"model_id": "m", "task_id": "t", "item_id": "1", "score": 1},
    {"model_id": "m", "task_id": "t", "item_id": "2", "score": None, "error": "timeout"},
]


def _write(tmp_path: Path, kind: str, rows: list[dict[str, object]]) -> Path:
    path = tmp_path / f"runs.{kind}"
    if kind == "json":
        path.write_text(json.dumps(rows), encoding="utf-8")
    elif kind == "jsonl":
        path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    else:
        lines = ["model_id,task_id,item_id,score,error"]
        for r in rows:
            score = "" if r["score"] is None else str(r["score"])
            lines.append(
                f"{r['model_id']},{r['task_id']},{r['item_id']},{score},"
                f"{r.get('error', '')}"
            )
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("kind", ["json", "jsonl", "csv"])
def test_read__a_null_score_with_an_error_is_an_errored_item(
    tmp_path: Path, kind: str
) -> None:
    scored, errored = load_runs(_write(tmp_path, kind, ROWS))
    assert (scored.score, scored.error) == (1.0, None)
    assert errored.item_id == "2"
    assert errored.error == "timeout"
    assert math.isnan(errored.score)


@pytest.mark.parametrize("kind", ["json", "jsonl", "csv"])
def test_read__a_null_score_without_an_error_is_refused(tmp_path: Path, kind: str) -> None:
    rows = [{**ROWS[1], "error": ""}]
    with pytest.raises(InputError, match="field `score`") as info:
        load_runs(_write(tmp_path, kind, rows))
    assert '"error" saying what went wrong' in str(info.value)


@pytest.mark.parametrize("kind", ["json", "jsonl", "csv"])
def test_read__an_error_beside_a_score_is_refused(tmp_path: Path, kind: str) -> None:
    rows = [{**ROWS[1], "score": 0.5}]
    with pytest.raises(InputError, match=r"field `error`: is given with a score"):
        load_runs(_write(tmp_path, kind, rows))


def test_read__an_error_that_is_not_text_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    row = {"model_id": "m", "task_id": "t", "item_id": "1", "score": None, "error": 3}
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match="field `error`: must be a text"):
        load_runs(path)


def test_read__an_errored_and_a_scored_record_of_one_item_are_duplicates(
    tmp_path: Path,
) -> None:
    rows = [ROWS[1], {**ROWS[1], "score": 1, "error": None}]
    with pytest.raises(InputError, match="duplicate record"):
        load_runs(_write(tmp_path, "jsonl", rows))


def test_evalrun__a_traceback_becomes_one_printable_line() -> None:
    run = EvalRun("m", "t", math.nan, item_id="1", error="Traceback:\n\tboom\x1b[0m")
    assert run.error == "Traceback: boom [0m"
    with pytest.raises(InputError, match="has no score"):
        EvalRun("m", "t", 0.5, item_id="1", error="boom")


def test_history__stores_an_errored_item_as_null_with_its_error(tmp_path: Path) -> None:
    runs = load_runs(_write(tmp_path, "jsonl", ROWS))
    text = gzip.decompress(encode_records(runs)).decode("utf-8")
    stored = [json.loads(line) for line in text.splitlines()]
    assert stored[1] == {
        "model_id": "m",
        "task_id": "t",
        "score": None,
        "item_id": "2",
        "error": "timeout",
    }
    back = tmp_path / "back.jsonl.gz"
    back.write_bytes(encode_records(runs))
    assert [r.error for r in load_runs(back)] == [None, "timeout"]


def test_cli__an_errored_item_counts_in_completion_not_in_the_score(tmp_path: Path) -> None:
    base = tmp_path / "base"
    base.mkdir()
    rows = [
        {"model_id": "m", "task_id": "t", "item_id": str(i), "score": 1} for i in range(3)
    ]
    base_path = _write(base, "jsonl", rows)
    out = tmp_path / "r.json"
    argv = ["report", str(_write(tmp_path, "jsonl", ROWS)), "--baseline-results"]
    assert main([*argv, str(base_path), "--resamples", "200", "--json", str(out)]) == 0
    comps = json.loads(out.read_text("utf-8"))["gate"]["comparisons"]
    score, done = comps
    assert (score["measure"], score["shared_units"]) == ("score", 1)
    assert (done["measure"], done["shared_units"]) == ("completion", 2)
    assert (done["candidate_mean"], done["baseline_mean"]) == (0.5, 1.0)
    assert done["status"] == "no_regression"  # one discordant item: p = 1/2
