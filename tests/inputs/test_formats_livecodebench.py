"""LiveCodeBench ``*_eval_all.json``: real files.

From LiveCodeBench/submissions (origins in tests/fixtures/livecodebench/README.md):
two models' runs on the same problems, trimmed to 40 problems without the code.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from leaderboard.inputs.frameworks import sniff
from tests.inputs._framework_cases import FIXTURES, cli_refusal, load_quiet, read_quiet

OUT = FIXTURES / "livecodebench" / "output"
MINI = OUT / "O1-Mini-2024-09-12" / "Scenario.codegeneration_1_0.2_eval_all.json"
PREVIEW = OUT / "O1-Preview-2024-09-12" / "Scenario.codegeneration_1_0.2_eval_all.json"


@pytest.mark.parametrize("path", [MINI, PREVIEW], ids=lambda p: p.parent.name)
def test_sniff__every_real_eval_all_is_livecodebench(path: Path) -> None:
    assert sniff(path, path.read_bytes()[:65536]) == "livecodebench"


def test_read__problems_are_items_the_mean_is_pass_at_1() -> None:
    raw = json.loads(MINI.read_text())
    runs = read_quiet("livecodebench", MINI)
    assert {r.model_id for r in runs} == {"O1-Mini-2024-09-12"}
    assert {r.task_id for r in runs} == {"codegeneration"}
    assert len(runs) == len(raw) == 40
    assert {r.item_id: r.score for r in runs} == {
        p["question_id"]: p["pass@1"] for p in raw
    }
    assert {r.sample for r in runs} == {None}


def test_read__generations_are_samples(tmp_path: Path) -> None:
    raw = json.loads(MINI.read_text())[:5]
    for problem in raw:
        problem["graded_list"] = [True, False, problem["graded_list"][0]]
    folder = tmp_path / "output" / "m"
    folder.mkdir(parents=True)
    path = folder / "Scenario.codegeneration_3_0.2_eval_all.json"
    path.write_text(json.dumps(raw))
    runs = read_quiet("livecodebench", path)
    assert len(runs) == 15
    assert sorted({r.sample for r in runs}) == [0, 1, 2]
    assert {r.model_id for r in runs} == {"m"}


def test_two_runs__pair_on_the_same_problems(capsys: pytest.CaptureFixture[str]) -> None:
    runs = load_quiet(str(MINI), str(PREVIEW))
    items = {
        m: {r.item_id for r in runs if r.model_id == m} for m in {r.model_id for r in runs}
    }
    assert len(items) == 2
    assert len(set.intersection(*items.values())) == 40


def test_read__eval_json_aggregate_is_refused_with_the_fix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "Scenario.codegeneration_1_0.2_eval.json"
    path.write_text(
        json.dumps([{"pass@1": 0.5, "detail": {"pass@1": {"0": 1.0, "1": 0.0}}}, {}, []])
    )
    err = cli_refusal(capsys, str(path))
    assert "_eval.json" in err
    assert "give the *_eval_all.json" in err


def test_read__ungraded_problem_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    raw = json.loads(MINI.read_text())[:3]
    del raw[1]["graded_list"]
    path = tmp_path / "Scenario.codegeneration_1_0.2_eval_all.json"
    path.write_text(json.dumps(raw))
    err = cli_refusal(capsys, "--format", "livecodebench", str(path))
    assert "graded_list" in err
    assert "--evaluate" in err


def test_metric_naming_nothing_held_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    err = cli_refusal(capsys, str(MINI), "--metric", "acc")
    assert "holds no metric named acc; it holds pass" in err
