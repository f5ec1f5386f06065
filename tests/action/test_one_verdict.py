"""One verdict, told the same everywhere (CONTRACT.md section 11), through `job.main`.

For the same records, the comment's first line, the job summary's first line, the
commit status description, the log's verdict line, the step outputs and the JSON
report's ``verdict`` name the same comparison with the same numbers and measure: on a
report whose first line is the score's, and on one whose first line is a guardrail's.
A run that makes no report replaces the head commit's status with ``error``; no bidi
or other format control reaches a status.
"""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path
from typing import Any

import pytest

from leaderboard.action.job import main
from leaderboard.render.verdict import verdict_numbers
from leaderboard.report import Report, Verdict
from tests.action.action_job import HEAD_SHA, Job, guardrails_job, results_job
from tests.fakes.github_api import FakeGitHub


def _go(job: Job, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    capsys.readouterr()
    code = main(job.env())
    return code, capsys.readouterr().out


def _surfaces(job: Job, api: FakeGitHub, log: str) -> dict[str, str]:
    """Each surface's verdict text: the first lines, the status, the log line."""
    (comment,) = api.comments(7)
    lines = [x for x in comment["body"].splitlines() if x and not x.startswith("<!--")]
    (status,) = api.status.latest(HEAD_SHA).values()
    (line,) = [x for x in log.splitlines() if "verdict: " in x]
    line = line.replace("%25", "%")  # an annotation's message, as the runner shows it
    return {
        "comment": lines[0],  # after the sticky markers
        "summary": job.summary().split("\n", 1)[0],
        "status": status["description"],
        "log": line,
        "output": job.outputs()["verdict-text"],
    }


def _verdict(job: Job) -> Verdict:
    report = Report.model_validate_json(
        (job.workspace / job.inputs["JSON-REPORT"]).read_text("utf-8")
    )
    return report.verdict


def _same_everywhere(job: Job, api: FakeGitHub, log: str, measure: str) -> Verdict:
    verdict = _verdict(job)
    numbers = verdict_numbers(verdict)
    surfaces = _surfaces(job, api, log)
    for where, text in surfaces.items():
        assert numbers in text, (where, numbers, text)
        assert measure in text, (where, measure, text)
    assert surfaces["status"] == surfaces["output"]
    assert surfaces["status"] in surfaces["log"]  # the log says the status's line
    assert surfaces["comment"] == surfaces["summary"]
    assert job.outputs()["verdict"] == verdict.state
    return verdict


def test_one_verdict__score_first_the_same_comparison_on_every_surface(
    tmp_path: Path, github_api: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    job = results_job(tmp_path, github_api.base_url, baseline="model-2")
    job.inputs["JSON-REPORT"] = "out/report.json"
    code, log = _go(job, capsys)
    assert code == 1
    verdict = _same_everywhere(job, github_api, log, "score")
    assert (verdict.state, verdict.measure, verdict.unit) == ("regressed", "score", "")
    assert verdict.candidate == "model-0"  # the one lying furthest below
    report = json.loads((job.workspace / "out/report.json").read_text("utf-8"))
    regressed = [c for c in report["gate"]["comparisons"] if c["regressed"]]
    assert verdict.others == len(regressed) - 1
    lowest = min(regressed, key=lambda c: c["ci_hi"])
    assert (verdict.ci_lo, verdict.ci_hi) == (lowest["ci_lo"], lowest["ci_hi"])


def test_one_verdict__guardrail_first_names_its_measure_and_unit(
    tmp_path: Path, github_api: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    """The real Inspect pair: tokens regress, the score does not; every surface says
    tokens, in percent, and none shows the score's numbers instead."""
    job = guardrails_job(tmp_path, github_api.base_url, "tokens:+10%", RESAMPLES="1000")
    job.inputs["JSON-REPORT"] = "out/report.json"
    code, log = _go(job, capsys)
    assert code == 1
    verdict = _same_everywhere(job, github_api, log, "tokens")
    assert (verdict.state, verdict.measure, verdict.unit) == ("regressed", "tokens", "%")
    assert verdict.tolerance == pytest.approx(10.0)
    report = json.loads((job.workspace / "out/report.json").read_text("utf-8"))
    tokens = next(c for c in report["gate"]["comparisons"] if c["measure"] == "tokens")
    assert verdict.estimate == pytest.approx(100 * tokens["diff_mean"])
    assert verdict.level == tokens["confidence"]


def test_one_verdict__no_regression_states_what_is_ruled_out(
    tmp_path: Path, github_api: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    job = results_job(tmp_path, github_api.base_url, baseline="model-0")
    job.inputs["JSON-REPORT"] = "out/report.json"
    code, log = _go(job, capsys)
    assert code == 0
    verdict = _same_everywhere(job, github_api, log, "score")
    assert verdict.state == "no_regression"
    assert verdict.ruled_out is not None
    assert verdict.ci_lo is not None
    assert verdict.ruled_out == pytest.approx(max(0.0, -verdict.ci_lo))
    assert "is ruled out" in _surfaces(job, github_api, log)["comment"]


def test_one_verdict__an_accepted_regression_is_in_the_json_report(
    tmp_path: Path, github_api: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    job = results_job(tmp_path, github_api.base_url, baseline="model-2")
    job.inputs["JSON-REPORT"] = "out/report.json"
    github_api.status.add_label(7, "accept-regression")
    code, log = _go(job, capsys)
    assert code == 0
    verdict = _verdict(job)
    assert (verdict.state, verdict.accepted) == ("regressed", "accept-regression")
    surfaces = _surfaces(job, github_api, log)
    assert surfaces["status"].startswith("accepted by label accept-regression: ")
    assert "accepted by label" in surfaces["comment"]
    assert job.outputs()["accepted"] == "true"


def _latest(api: FakeGitHub) -> dict[str, Any]:
    (status,) = api.status.latest(HEAD_SHA).values()
    return status


def test_one_verdict__a_failed_rerun_replaces_the_earlier_status(
    tmp_path: Path, github_api: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    job = results_job(tmp_path, github_api.base_url, baseline="model-0")
    assert _go(job, capsys)[0] == 0
    assert _latest(github_api)["state"] == "success"
    (job.workspace / "results" / "evals.jsonl").write_text('{"model_id": "x"}\n')
    job.run_id += 1
    code, log = _go(job, capsys)
    assert code == 2
    status = _latest(github_api)
    assert status["state"] == "error"
    assert status["description"].startswith("could not be computed")
    assert "Traceback" not in log


def test_one_verdict__a_bad_setting_is_an_error_status_too(
    tmp_path: Path, github_api: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    job = results_job(tmp_path, github_api.base_url, baseline="model-0")
    assert _go(job, capsys)[0] == 0
    job.inputs["CONFIDENCE"] = "1.5"
    assert _go(job, capsys)[0] == 2
    assert _latest(github_api)["state"] == "error"


# Bidi override, isolate, mark, Arabic letter mark, zero-width space: ids may hold
# them (the readers refuse controls and line separators outright).
_FORMAT = "\u202e\u2066\u200f\u061c\u200b"


def test_one_verdict__no_bidi_or_format_control_reaches_a_status(
    tmp_path: Path, github_api: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    job = results_job(tmp_path, github_api.base_url, baseline=f"mo{_FORMAT}del")
    path = job.workspace / "results" / "evals.jsonl"
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    for x in lines:
        if x["model_id"] == "model-2":
            x["model_id"] = f"mo{_FORMAT}del"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    code, _ = _go(job, capsys)
    assert code == 1
    (status,) = github_api.status.latest(HEAD_SHA).values()
    text = status["description"]
    assert not [c for c in text if unicodedata.category(c) in ("Cc", "Cf", "Zl")], text
    assert "mo del" in status["description"]


def test_one_verdict__a_statistics_error_names_the_actions_input(
    tmp_path: Path, github_api: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    """The statistics name a setting neutrally ("guardrail cost: ..."); the action
    says its own input's name, never the command line's option."""
    job = results_job(tmp_path, github_api.base_url, baseline="model-2")
    job.inputs["GUARDRAILS"] = "cost:+10%"  # the records carry no cost
    code, log = _go(job, capsys)
    assert code == 2
    (error,) = [x for x in log.splitlines() if x.startswith("::error")]
    message = error.split("::", 2)[2]
    assert message.startswith("guardrails cost: no record carries `cost`"), message
    assert "--guardrail" not in log
