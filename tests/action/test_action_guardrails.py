"""The ``guardrails`` input end to end: entrypoint.py against the fake GitHub API.

The real Inspect pair of tests/fixtures/inspect/guardrails (same answers, the
candidate with about 1.6 times the tokens): the score passes, the tokens guardrail
breaks, and the step fails with the breach on the comment's first line.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.action.action_job import Job, guardrails_job
from tests.action.test_action_e2e import MARKER, launch
from tests.fakes.github_api import FakeGitHub

pytestmark = pytest.mark.slow  # a fresh interpreter per run


def _job(tmp_path: Path, api: FakeGitHub, guardrails: str) -> Job:
    return guardrails_job(tmp_path / "job", api.base_url, guardrails, RESAMPLES="1000")


def test_e2e__tokens_guardrail_breach_fails_the_step_and_leads_the_comment(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    job = _job(tmp_path, github_api, "tokens:+10%\nincludes:-0.05")
    res = launch(job)
    assert res.returncode == 1, res.stdout + res.stderr
    (comment,) = github_api.comments(7)
    assert comment["body"].startswith(MARKER)
    lines = [line for line in comment["body"].splitlines() if line.strip()]
    first = next(line for line in lines if not line.startswith("<!--"))
    assert first.startswith("🔴 **Regression** for "), first
    assert ", tokens +" in first
    assert "wholly over the tolerated +10%" in first
    body = comment["body"]
    assert "⚪ Latency (not gated)" in body
    out = job.outputs()
    assert out["regressed"] == "true"
    report = json.loads((job.workspace / out["report"]).read_text())
    measures = [c["measure"] for c in report["gate"]["comparisons"]]
    assert measures == ["score", "tokens", "includes"]
    assert report["settings"]["guardrails"] == {"tokens": 0.1, "includes": 0.05}


def test_e2e__a_bad_guardrail_is_exit_2_naming_the_input(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    res = launch(_job(tmp_path, github_api, "tokens:10"))
    assert res.returncode == 2
    assert "guardrails: tokens takes a relative increase such as +10%" in res.stdout
    assert "Traceback" not in res.stderr
