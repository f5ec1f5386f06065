"""The ``model-id`` setting (``--model-id``): the id of results whose files name none.

Real files: two deepeval runs of one RAG system with no model hyperparameter
(tests/fixtures/deepeval/fusion-run-*), two SWE-bench harness reports of one agent
whose names carry no model (tests/fixtures/swebench/yyloong-*), and files that do name
their model, which keep it.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest

from leaderboard.cli import main
from leaderboard.inputs import load_runs
from leaderboard.inputs.frameworks import FormatWarning

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
DEEPEVAL_A = FIXTURES / "deepeval" / "fusion-run-a" / ".latest_test_run.json"
DEEPEVAL_B = FIXTURES / "deepeval" / "fusion-run-b" / ".latest_test_run.json"
HELM = (
    FIXTURES
    / "helm/runs/v3/bbq_subject-all_method-multiple_choice_joint_model-meta_llama-3-8b"
)
SWE_A = FIXTURES / "swebench" / "yyloong-1" / "qwen3-coder-flash-1.json"
SWE_B = FIXTURES / "swebench" / "yyloong-2" / "qwen3-coder-flash-2.json"


def _models(path: Path, model_id: str | None) -> set[str]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FormatWarning)
        return {r.model_id for r in load_runs([str(path)], model_id=model_id)}


def _gate(tmp_path: Path, candidate: Path, baseline: Path, *extra: str) -> dict[str, Any]:
    out = tmp_path / "report.json"
    argv = ["report", str(candidate), "--baseline-results", str(baseline)]
    argv += ["--baseline-label", "main", "--resamples", "300", "--json", str(out)]
    assert main([*argv, *extra]) in (0, 1)
    report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return report


def test_read__the_setting_names_results_whose_files_name_no_model() -> None:
    assert json.loads(DEEPEVAL_A.read_text(encoding="utf-8"))["testRunData"].get(
        "hyperparameters"
    ) in (None, {})
    assert _models(DEEPEVAL_A, None) == {"deepeval"}
    assert _models(DEEPEVAL_A, "rag-bot") == {"rag-bot"}
    assert _models(SWE_A, None) == {"agent"}
    assert _models(SWE_A, "qwen3-coder-flash") == {"qwen3-coder-flash"}


@pytest.mark.parametrize(
    ("path", "named"),
    [
        # hyperparameters.model of a deepeval 1.x/2.x run
        (FIXTURES / "deepeval" / "unhm-b" / "temp_test_run_data.json", "gpt-3.5-turbo"),
        # <model>.<run_id>.json of the SWE-bench harness
        (FIXTURES / "swebench" / "rohan-2.1" / "gold.validate-gold.json", "gold"),
        # HELM's adapter_spec.model
        (HELM / "per_instance_stats.json", "meta/llama-3-8b"),
    ],
)
def test_read__an_id_a_file_names_is_kept(path: Path, named: str) -> None:
    assert _models(path, "other") == {named}


def test_cli__two_deepeval_runs_pair_under_the_given_id(tmp_path: Path) -> None:
    report = _gate(tmp_path, DEEPEVAL_B, DEEPEVAL_A, "--model-id", "rag-bot")
    (comp,) = report["gate"]["comparisons"]
    assert (comp["candidate"], comp["baseline"]) == ("rag-bot", "rag-bot @ main")
    assert comp["shared_units"] == 12


def test_cli__two_swe_bench_runs_pair_under_the_given_id(tmp_path: Path) -> None:
    # Read by hand: 21 instances scored in both runs; run 1 resolves 10 of them,
    # run 2 resolves 7 (the others errored in one run or both).
    report = _gate(tmp_path, SWE_B, SWE_A, "--model-id", "qwen3-coder-flash")
    comp, done = report["gate"]["comparisons"]
    assert (comp["measure"], done["measure"]) == ("score", "completion")
    assert done["candidate"] == comp["candidate"] == "qwen3-coder-flash"
    assert (comp["candidate"], comp["baseline"]) == (
        "qwen3-coder-flash",
        "qwen3-coder-flash @ main",
    )
    assert comp["shared_units"] == 21
    assert comp["diff_mean"] == pytest.approx((7 - 10) / 21)


@pytest.mark.parametrize("raw", ["a\nb", "x" * 201])
def test_cli__a_bad_model_id_exits_2_naming_the_option(
    capsys: pytest.CaptureFixture[str], raw: str
) -> None:
    assert main(["report", str(DEEPEVAL_A), "--model-id", raw]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("leaderboard: error: --model-id: must be a printable model id")
    assert "\n" not in err


def test_load__a_blank_model_id_is_the_default() -> None:
    assert _models(DEEPEVAL_A, "  ") == {"deepeval"}


def test_read__lighteval_without_a_model_name_takes_the_setting_or_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # lighteval's documented example with its model_name removed (in a copy).
    real = FIXTURES / "lighteval/docs-example/results_2024-01-01T00-00-00.000000.json"
    data = json.loads(real.read_text(encoding="utf-8"))
    assert data["config_general"]["model_name"] == "gpt2"
    assert _models(real, "other") == {"gpt2"}
    del data["config_general"]["model_name"]
    data["config_general"].pop("model_config", None)
    path = tmp_path / real.name
    path.write_text(json.dumps(data), encoding="utf-8")
    assert _models(path, "gpt2-mine") == {"gpt2-mine"}
    assert main(["report", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert "names no model" in err
    assert "model-id (--model-id)" in err
