"""A framework's other metrics gated as guardrails, end to end through the command line.

Every reader keeps the metrics a log carries beside the primary score (CONTRACT.md
section 8): lm-eval's other metrics of a task (``acc_norm`` beside ``acc``, a metric
under another filter by its key), deepeval's other metrics, promptfoo's named scores
and Inspect's other scorers (tests/cli/test_cli_guardrails.py). Real files: the
harness's dummy-model runs (tests/fixtures/lm_eval/README.md), two deepeval runs of
one project and promptfoo's own example output (their folders' READMEs). Expected
means are computed here from the files' JSON, never with the readers' helpers.
"""

from __future__ import annotations

import json
import shutil
import statistics
from pathlib import Path
from typing import Any

import pytest

from leaderboard.cli import main

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
LM_EVAL = FIXTURES / "lm_eval"
DEEPEVAL = FIXTURES / "deepeval"
GEVAL = "正确率 [GEval]"


def _report(argv: list[str], tmp_path: Path) -> tuple[int, dict[str, Any]]:
    out_json = tmp_path / "report.json"
    code = main(["report", *argv, "--resamples", "1000", "--json", str(out_json)])
    report = json.loads(out_json.read_text()) if out_json.exists() else {}
    return code, report


def _by_measure(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {c["measure"]: c for c in report["gate"]["comparisons"]}


def _task_means(folder: Path, metric: str, filt: str = "none") -> float:
    """The equal-task mean of `metric` over a run's samples files, read by hand."""
    means = []
    for path in sorted(folder.glob("samples_*.jsonl")):
        docs = [json.loads(line) for line in path.read_text().splitlines()]
        values = [d[metric] for d in docs if d["filter"] == filt and metric in d]
        if values:
            means.append(statistics.fmean(values))
    return statistics.fmean(means)


def test_lm_eval__two_runs_gate_acc_norm_and_a_second_filter(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cand, base = LM_EVAL / "dummy-b", LM_EVAL / "dummy-a"
    argv = [str(cand / "samples_*.jsonl"), "--baseline-results"]
    argv += [str(base / "samples_*.jsonl"), "--guardrail", "acc_norm:-0.02"]
    argv += ["--guardrail", "exact_match,flexible-extract:-0.1"]
    code, report = _report(argv, tmp_path)
    out = capsys.readouterr().out
    assert code == 0
    got = _by_measure(report)
    assert set(got) == {"score", "acc_norm", "exact_match,flexible-extract"}
    acc_norm = got["acc_norm"]
    assert acc_norm["candidate_mean"] == pytest.approx(_task_means(cand, "acc_norm"))
    assert acc_norm["baseline_mean"] == pytest.approx(_task_means(base, "acc_norm"))
    assert acc_norm["direction"] == "higher_is_better"
    assert not acc_norm["relative"]
    assert acc_norm["shared_units"] == 10  # tiny_mc's 6 documents and tiny_mc2's 4
    second = got["exact_match,flexible-extract"]
    want = _task_means(cand, "exact_match", "flexible-extract")
    assert second["candidate_mean"] == pytest.approx(want)
    assert second["shared_units"] == 5
    assert report["gate"]["family_size"] == 1  # the score's family alone
    assert report["gate"]["guardrail_family_size"] == 2
    assert report["gate"]["bound"] == pytest.approx(0.05)
    assert "metric acc\\_norm (guardrail, tolerated -0.020)" in out


def test_lm_eval__a_drop_in_acc_norm_alone_fails_the_gate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The baseline, a copy of dummy-a's run whose every acc_norm is 1: the same acc
    (the score passes), acc_norm drops to 0.083 and the guardrail fails the gate."""
    base = tmp_path / "baseline"
    shutil.copytree(LM_EVAL / "dummy-a", base)
    for path in base.glob("samples_tiny_mc*.jsonl"):
        docs = [json.loads(line) for line in path.read_text().splitlines()]
        path.write_text("".join(json.dumps({**d, "acc_norm": 1.0}) + "\n" for d in docs))
    argv = [str(LM_EVAL / "dummy-a" / "samples_*.jsonl"), "--baseline-results"]
    argv += [str(base / "samples_*.jsonl"), "--guardrail", "acc_norm:-0.02"]
    code, report = _report(argv, tmp_path)
    out = capsys.readouterr().out
    assert code == 1
    got = _by_measure(report)
    assert not got["score"]["regressed"]
    # the same acc on every document: Tango's floor for no discordant pair, +-t^2/(n+t^2)
    assert got["score"]["diff_mean"] == 0.0
    assert got["score"]["ci_lo"] == pytest.approx(-got["score"]["ci_hi"])
    assert got["score"]["ci_lo"] < -0.2
    assert got["acc_norm"]["regressed"]
    assert got["acc_norm"]["baseline_mean"] == 1.0
    assert got["acc_norm"]["ci_hi"] < -0.02
    assert out.splitlines()[0].startswith("🔴"), out.splitlines()[0]
    assert "acc\\_norm" in out.splitlines()[0]


def test_lm_eval__results_files_carry_acc_norm_for_a_guardrail(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    [cand] = (LM_EVAL / "dummy-b").glob("results_*.json")
    [base] = (LM_EVAL / "dummy-a").glob("results_*.json")
    argv = [str(cand), "--baseline-results", str(base), "--guardrail", "acc_norm:-0.02"]
    code, report = _report(argv, tmp_path)
    capsys.readouterr()
    assert code == 0
    acc_norm = _by_measure(report)["acc_norm"]
    results = json.loads(cand.read_text())["results"]
    want = statistics.fmean(results[t]["acc_norm,none"] for t in ("tiny_mc", "tiny_mc2"))
    assert acc_norm["candidate_mean"] == pytest.approx(want)
    assert acc_norm["shared_tasks"] == 2


def test_lm_eval__a_guardrail_naming_no_metric_lists_what_the_records_carry(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["report", str(LM_EVAL / "dummy-b" / "samples_tiny_mc_*.jsonl")]
    argv += ["--baseline-results", str(LM_EVAL / "dummy-a" / "samples_tiny_mc_*.jsonl")]
    assert main([*argv, "--guardrail", "acc_norm,none:-0.02"]) == 2
    err = [line for line in capsys.readouterr().err.splitlines() if "error" in line]
    assert len(err) == 1
    assert "no record carries a metric 'acc_norm,none'" in err[0]
    assert "the records carry: acc_norm" in err[0]


def test_deepeval__a_geval_metric_is_gated_beside_success(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cand = DEEPEVAL / "fusion-run-b" / ".latest_test_run.json"
    base = DEEPEVAL / "fusion-run-a" / ".latest_test_run.json"
    argv = [str(cand), "--baseline-results", str(base), "--guardrail", f"{GEVAL}:-0.05"]
    code, report = _report(argv, tmp_path)
    plain_code, plain = _report(argv[:3], tmp_path)  # the same runs, no guardrail
    capsys.readouterr()
    got = _by_measure(report)
    assert set(got) == {"score", GEVAL}
    # the guardrail changes neither the score's interval nor the exit status: the
    # score is decided at its own 95%, as without guardrails (CONTRACT.md section 12)
    assert got["score"] == _by_measure(plain)["score"]
    assert got["score"]["confidence"] == pytest.approx(0.95)
    assert code == plain_code
    assert not got[GEVAL]["regressed"]
    cases = json.loads(base.read_text())["testRunData"]["testCases"]
    scores = [m["score"] for c in cases for m in c["metricsData"] if m["name"] == GEVAL]
    assert len(scores) == 12
    assert got[GEVAL]["baseline_mean"] == pytest.approx(statistics.fmean(scores))
    assert got[GEVAL]["shared_units"] == 12


def test_promptfoo__a_named_score_can_be_named_in_a_guardrail(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """promptfoo's own example output (one row; named scores Correctness, Tone, ...)
    against a copy whose Tone is 0.5: compared, undetermined with one item."""
    public = FIXTURES / "promptfoo" / "public" / "french-greeting-test_output.json"
    data = json.loads(public.read_text())
    data["results"]["results"][0]["namedScores"]["Tone"] = 0.5
    base = tmp_path / "baseline.json"
    base.write_text(json.dumps(data))
    argv = [str(public), "--baseline-results", str(base), "--guardrail", "Tone:-0.05"]
    code, report = _report(argv, tmp_path)
    capsys.readouterr()
    assert code == 0
    tone = _by_measure(report)["Tone"]
    assert (tone["candidate_mean"], tone["baseline_mean"]) == (1.0, 0.5)
    assert tone["status"] == "undetermined"
    metrics = {row["model_id"]: row["metrics"] for row in report["leaderboard"]}
    assert all(
        set(m) >= {"Correctness", "Tone", "Topicality", "score"} for m in metrics.values()
    )
