"""lighteval ``results_*.json`` (task-level) and the refused details Parquet.

No lighteval results file committed to a repository by others was found in the
stored index (lighteval's own reference scores are Git LFS pointers there).
``docs-example/`` is the example result file of lighteval's own documentation (a
gpt2 run of lighteval|gsm8k|0, written by lighteval); the second fixture is
generated from that schema with three tasks, labelled so in
tests/fixtures/lighteval/README.md.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from leaderboard.inputs.frameworks import sniff
from tests.inputs._framework_cases import FIXTURES, cli_refusal, read_quiet

RESULTS = FIXTURES / "lighteval" / "results_2025-01-01T00-00-00.000000.json"
DOCS = FIXTURES / "lighteval" / "docs-example" / "results_2024-01-01T00-00-00.000000.json"
LM_EVAL = sorted((FIXTURES / "lm_eval").rglob("results*.json"))


def test_sniff__lighteval_not_lm_eval_and_lm_eval_not_lighteval() -> None:
    assert sniff(RESULTS, RESULTS.read_bytes()[:65536]) == "lighteval"
    assert sniff(DOCS, DOCS.read_bytes()[:65536]) == "lighteval"
    assert LM_EVAL
    for path in LM_EVAL:
        assert sniff(path, path.read_bytes()[:65536]) != "lighteval"


def test_read__one_record_per_task_first_metric_all_left_out() -> None:
    raw = json.loads(RESULTS.read_text())["results"]
    runs = read_quiet("lighteval", RESULTS)
    expected = {
        task: next(v for k, v in metrics.items() if not k.endswith("_stderr"))
        for task, metrics in raw.items()
        if task != "all"
    }
    assert {r.task_id: r.score for r in runs} == expected
    assert {r.model_id for r in runs} == {"HuggingFaceTB/SmolLM2-135M-Instruct"}
    assert {r.item_id for r in runs} == {None}


def test_read__metric_chooses_another_where_held() -> None:
    runs = read_quiet("lighteval", RESULTS, "acc_norm")
    arc = next(r for r in runs if r.task_id == "leaderboard|arc:challenge|25")
    assert (arc.metric_name, arc.score) == ("acc_norm", 0.4)


def test_metric_naming_nothing_held_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    err = cli_refusal(capsys, str(RESULTS), "--metric", "bleu")
    assert "holds no metric named bleu" in err
    assert "acc_norm" in err


def test_details_parquet_is_refused_with_the_fix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "details_lighteval|gsm8k|5_2025-01-01T00-00-00.000000.parquet"
    path.write_bytes(b"PAR1" + b"\0" * 32 + b"PAR1")
    err = cli_refusal(capsys, str(path))
    assert "Parquet" in err
    assert "results_<date>.json" in err


def test_read__lightevals_own_example_file() -> None:
    raw = json.loads(DOCS.read_text())
    (run,) = read_quiet("lighteval", DOCS)
    assert run.model_id == raw["config_general"]["model_name"] == "gpt2"
    assert run.task_id == "lighteval|gsm8k|0"
    assert run.metric_name == "qem"  # the first metric lighteval wrote for the task
    assert run.score == raw["results"]["lighteval|gsm8k|0"]["qem"]


def test_read__config_tasks_higher_is_better_false_is_never_kept(tmp_path: Path) -> None:
    raw = json.loads(DOCS.read_text())
    raw["config_tasks"]["lighteval|gsm8k"]["metric"][0]["higher_is_better"] = False
    path = tmp_path / "results_x.json"
    path.write_text(json.dumps(raw))
    (run,) = read_quiet("lighteval", path)
    assert run.metric_name == "maj@8"
