"""A deepeval or SWE-bench user's first run of the action (issue 32), end to end.

entrypoint.py runs as the runner runs it (tests/action/test_action_e2e.py) against the
fake GitHub API, on real files from tests/fixtures: deepeval's own ``.deepeval/``
folders (tests/fixtures/deepeval/own-4.3.1) and two SWE-bench run reports with errored
instances (tests/fixtures/swebench/batch25*).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.action.action_job import Job
from tests.action.test_action_e2e import launch
from tests.fakes.github_api import INSTALLATION_TOKEN, FakeGitHub

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
OWN_DEEPEVAL = FIXTURES / "deepeval" / "own-4.3.1"
SWEBENCH = FIXTURES / "swebench"


def _inputs(results: str, baseline: str) -> dict[str, str]:
    return {
        "RESULTS": results,
        "BASELINE-RESULTS": baseline,
        "BASELINE-LABEL": "main",
        "RESAMPLES": "300",
        "FAIL-ON-REGRESSION": "false",
        "GITHUB-TOKEN": INSTALLATION_TOKEN,
    }


@pytest.mark.slow  # a fresh interpreter per run
def test_e2e__deepeval_folders_as_deepeval_writes_them(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    job = Job(tmp_path / "job", github_api.base_url)
    shutil.copytree(OWN_DEEPEVAL / "json" / ".deepeval", job.workspace / "pr" / ".deepeval")
    shutil.copytree(
        OWN_DEEPEVAL / "sqlite" / ".deepeval", job.workspace / "main" / ".deepeval"
    )
    job.inputs = _inputs("pr/.deepeval/", "main/.deepeval/")
    res = launch(job)
    assert res.returncode == 0, res.stdout + res.stderr
    (comment,) = github_api.comments(7)
    body = comment["body"]
    # the default's choice and the files left out are in the log, once, not the comment
    assert "one score per" not in body
    assert "one score per" not in job.summary()
    # at most one line per run read (the baseline run's loader lines are not shown yet)
    assert res.stdout.count("one score per test case") in (1, 2)
    assert "pr/.deepeval/.deepeval-cache.json: deepeval's metric cache" in res.stdout
    # nothing is warned about the folders; the one annotation is the verdict's: the
    # two runs agree on all 6 test cases, which cannot rule out a drop of 0.05
    # (Tango's floor, leaderboard/stats/paired.py)
    warnings = [x for x in res.stdout.splitlines() if x.startswith("::warning")]
    assert [w.split("::")[1] for w in warnings] == [
        "warning title=leaderboard%3A gate undetermined"
    ]
    seen = res.stdout + body + job.summary()
    assert str(job.workspace) not in seen.replace("\\", "")


@pytest.mark.slow
def test_e2e__files_are_named_relative_to_the_workspace_everywhere(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    job = Job(tmp_path / "job", github_api.base_url)
    pr = "opencode-qwen3.5-35B-A3B-tdad.eval_20260312_065239.json"
    main = "opencode-qwen3.5-35B-A3B-baseline.eval_20260311_034331.json"
    (job.workspace / "pr").mkdir(parents=True)
    (job.workspace / "main").mkdir()
    # one model id for both runs: the harness names the report after the model
    shutil.copy(SWEBENCH / "batch25-v2" / pr, job.workspace / "pr" / "acme__agent.r2.json")
    shutil.copy(SWEBENCH / "batch25" / main, job.workspace / "main" / "acme__agent.r1.json")
    job.inputs = _inputs("pr/*.json", "main/*.json")
    res = launch(job)
    assert res.returncode == 0, res.stdout + res.stderr
    (comment,) = github_api.comments(7)
    body, summary = comment["body"], job.summary()
    assert "acme/agent" in body  # the id as the harness was given it
    # the reader's warnings name the files as the repository holds them
    assert "pr/acme\\_\\_agent.r2.json: 2 instances errored in the harness" in body
    assert "main/acme\\_\\_agent.r1.json: 3 instances errored in the harness" in summary
    workspace = str(job.workspace)
    assert workspace not in body.replace("\\", "")  # unescaped: a-b is a\-b there
    assert workspace not in summary.replace("\\", "")
    assert workspace not in res.stdout + res.stderr
    assert workspace not in (job.workspace / job.outputs()["report"]).read_text()
