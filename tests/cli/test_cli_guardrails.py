"""Guardrails end to end through the command line, on real Inspect and promptfoo files.

The Inspect pair (tests/fixtures/inspect/guardrails, made by its ``make_logs.py``: a
real offline inspect_ai eval) gives the same answers in both runs, the candidate with
about 1.6 times the output tokens: the score passes and the tokens guardrail breaks.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from leaderboard.cli import main

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "tests" / "fixtures" / "inspect" / "guardrails"
PROMPTFOO = ROOT / "tests" / "fixtures" / "promptfoo"
PAIR = [str(LOGS / "candidate.eval"), "--baseline-results", str(LOGS / "baseline.eval")]


def test_report__inspect_pair_breaks_the_tokens_guardrail_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_json = tmp_path / "report.json"
    argv = ["report", *PAIR, "--guardrail", "tokens:+10%", "--guardrail"]
    argv += ["includes:-0.05", "--resamples", "1000", "--json", str(out_json)]
    assert main(argv) == 1
    out, _ = capsys.readouterr()
    first = out.splitlines()[0]
    assert first.startswith("🔴 **Regression**: ")
    assert ", tokens +" in first
    assert "wholly over the tolerated +10%" in first
    report = json.loads(out_json.read_text())
    gate = report["gate"]
    by_measure = {c["measure"]: c for c in gate["comparisons"]}
    assert set(by_measure) == {"score", "tokens", "includes"}
    tokens = by_measure["tokens"]
    assert tokens["direction"] == "lower_is_better"
    assert tokens["relative"]
    assert tokens["regressed"]
    assert tokens["ci_lo"] > 0.10
    assert tokens["candidate_mean"] > tokens["baseline_mean"]
    assert not by_measure["score"]["regressed"]
    assert not by_measure["includes"]["regressed"]
    assert gate["family_size"] == 1  # the score's family alone
    assert gate["guardrail_family_size"] == 2
    assert gate["bound"] == pytest.approx(0.05)
    assert gate["status"] == "regressed"
    assert [c["measure"] for c in gate["not_gated"]] == ["latency"]
    row = report["leaderboard"][0]
    assert set(row["measures"]) == {"latency", "tokens"}
    assert set(row["metrics"]) == {"includes"}
    assert "⚪ Latency (not gated)" in out


def test_report__without_guardrails_measures_are_shown_not_gated(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["report", *PAIR, "--resamples", "500"]) == 0
    out, _ = capsys.readouterr()
    # the two runs' scores agree on every item: too few to rule out a drop of 0.05
    # (Tango's floor, leaderboard/stats/paired.py), and nothing else decides
    assert out.startswith("🟡 **Cannot tell**")
    assert "⚪ Tokens (not gated)" in out
    assert "⚪ Latency (not gated)" in out


def test_report__a_generous_tolerance_passes(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["report", *PAIR, "--guardrail", "tokens:+100%", "--resamples", "500"]
    assert main(argv) == 0
    out, _ = capsys.readouterr()
    assert "🟢 Tokens (guardrail, tolerated +100%)" in out


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("tokens", "expected NAME:TOLERANCE"),
        ("tokens:0.1", "tokens takes a relative increase such as +10%"),
        ("cost:+10%", "--guardrail cost: no record carries `cost`"),
        ("nope:-0.02", "no record carries a metric 'nope'"),
    ],
)
def test_report__bad_guardrail_exits_2_with_one_line(
    spec: str, says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["report", *PAIR, "--guardrail", spec, "--resamples", "200"]) == 2
    _, err = capsys.readouterr()
    lines = [line for line in err.splitlines() if "error" in line]
    assert len(lines) == 1, err
    assert says in lines[0], err
    assert "Traceback" not in err


def test_report__guardrail_without_a_baseline_is_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["report", str(LOGS / "candidate.eval"), "--guardrail", "tokens:+10%"]
    assert main(argv) == 2
    assert "give --baseline or --baseline-results" in capsys.readouterr().err


def test_report__promptfoo_rows_carry_cost_latency_tokens_and_named_scores(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """promptfoo's own example output (cost 8.1e-6, 1352 ms, 24 tokens, named scores)
    against a records baseline of the same test at twice the cost."""
    public = PROMPTFOO / "public" / "french-greeting-test_output.json"
    from leaderboard.inputs import load_runs_noting  # noqa: PLC0415

    [run], _ = load_runs_noting(public)
    assert (run.cost, run.latency, run.tokens) == (8.1e-06, 1.352, 24.0)
    assert dict(run.metrics)["Tone"] == 1.0
    base = tmp_path / "base.jsonl"
    rec = {
        "model_id": run.model_id,
        "task_id": run.task_id,
        "item_id": run.item_id,
        "score": run.score,
        "metric_name": run.metric_name,
        "cost": 4.05e-06,
        "latency": 1.352,
        "tokens": 24,
    }
    base.write_text(json.dumps(rec) + "\n")
    argv = ["report", str(public), "--baseline-results", str(base), "--resamples", "200"]
    assert main([*argv, "--guardrail", "cost:+10%"]) == 0  # one item: undetermined
    out, _ = capsys.readouterr()
    assert "🟡 Cost (guardrail, tolerated +10%)" in out
