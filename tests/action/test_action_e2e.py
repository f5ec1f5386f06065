"""entrypoint.py run as the runner runs it, against the fake GitHub API.

Each test starts ``python entrypoint.py`` in a fresh process with only the runner's
variables (``INPUT_*`` with hyphens, an event file, ``GITHUB_OUTPUT`` and
``GITHUB_STEP_SUMMARY`` files) and checks the exit status, the outputs, the job
summary, the log and the comments the fake GitHub received.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.action.action_job import HEAD_SHA, Job, annotations, results_job
from tests.fakes.github_api import INSTALLATION_TOKEN, READ_ONLY_TOKEN, FakeGitHub

pytestmark = pytest.mark.slow  # a fresh interpreter per run: about 3 s each

ROOT = Path(__file__).resolve().parents[2]
ENTRYPOINT = ROOT / "entrypoint.py"
MARKER = "<!-- leaderboard-action:sticky header=leaderboard -->"


def launch(job: Job) -> subprocess.CompletedProcess[str]:
    env = job.env()
    env["PATH"] = os.environ.get("PATH", "/usr/bin:/bin")
    env["PYTHONPATH"] = ""  # the package is found next to entrypoint.py, as in the image
    res = subprocess.run(
        [sys.executable, str(ENTRYPOINT)],
        env=env,
        cwd=job.workspace,  # the runner's --workdir /github/workspace
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    for secret in (INSTALLATION_TOKEN, READ_ONLY_TOKEN):
        assert secret not in res.stdout + res.stderr, "the token was printed"
    return res


def make_job(
    tmp_path: Path,
    api: FakeGitHub,
    *,
    baseline: str,
    token: str = INSTALLATION_TOKEN,
    **inputs: str,
) -> Job:
    return results_job(
        tmp_path / "job", api.base_url, baseline=baseline, token=token, **inputs
    )


def test_e2e__pull_request_no_regression__one_comment_outputs_summary(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    job = make_job(tmp_path, github_api, baseline="model-0")
    res = launch(job)
    assert res.returncode == 0, res.stdout + res.stderr
    comments = github_api.comments(7)
    assert len(comments) == 1
    body = comments[0]["body"]
    assert body.startswith(MARKER)
    assert HEAD_SHA[:7] in body  # the comment names the pull request's head commit
    assert "model-2" in body
    out = job.outputs()
    assert out["regressed"] == "false"
    assert out["comment-url"] == comments[0]["html_url"]
    report = json.loads((job.workspace / out["report"]).read_text())
    assert report["schema_version"] == 1
    assert report["gate"]["baseline"] == "model-0"
    assert "model-2" in job.summary()
    assert annotations(res.stdout) == []
    assert "Traceback" not in res.stderr


def test_e2e__regression__exit_1_comment_and_second_run_edits_in_place(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    job = make_job(tmp_path, github_api, baseline="model-2")
    first = launch(job)
    assert first.returncode == 1, first.stdout + first.stderr
    assert job.outputs()["regressed"] == "true"
    assert [a[0] for a in annotations(first.stdout)] == ["error"]
    (comment,) = github_api.comments(7)

    job.run_id += 1
    second = launch(job)
    assert second.returncode == 1
    (again,) = github_api.comments(7)  # still exactly one comment
    assert again["id"] == comment["id"]
    assert "run=1002" in again["body"]


def test_e2e__fail_on_regression_false__exit_0(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    job = make_job(
        tmp_path, github_api, baseline="model-2", **{"FAIL-ON-REGRESSION": "false"}
    )
    res = launch(job)
    assert res.returncode == 0
    assert job.outputs()["regressed"] == "true"


def test_e2e__push__summary_and_outputs_no_comment(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    job = make_job(tmp_path, github_api, baseline="model-2")
    job.event_name, job.event = "push", {"ref": "refs/heads/main"}
    res = launch(job)
    assert res.returncode == 1
    assert github_api.comments(7) == []
    assert github_api.requests == []  # not one API call
    out = job.outputs()
    assert (out["regressed"], out["comment-url"]) == ("true", "")
    assert "model-0" in job.summary()


def test_e2e__fork_read_only_token__one_warning_exit_from_the_gate(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    job = make_job(tmp_path, github_api, baseline="model-2", token=READ_ONLY_TOKEN)
    res = launch(job)
    assert res.returncode == 1  # the gate's verdict, not the comment's failure
    kinds = [a[0] for a in annotations(res.stdout)]
    assert kinds.count("warning") == 1
    assert kinds.count("error") == 1  # the regression
    warning = next(a[2] for a in annotations(res.stdout) if a[0] == "warning")
    assert "403" in warning
    assert github_api.comments(7) == []
    assert job.outputs()["regressed"] == "true"
    assert job.outputs()["comment-url"] == ""
    assert "model-0" in job.summary()


def test_e2e__fork_read_only_token_clean_run__exit_0(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    job = make_job(tmp_path, github_api, baseline="model-0", token=READ_ONLY_TOKEN)
    assert launch(job).returncode == 0


def test_e2e__bad_input__exit_2_error_and_failure_comment_replaces_numbers(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    job = make_job(tmp_path, github_api, baseline="model-0")
    assert launch(job).returncode == 0
    (job.workspace / "results" / "evals.jsonl").write_text(
        '{"model_id": "m", "task_id": "t", "score": 1.5}\n'
    )
    res = launch(job)
    assert res.returncode == 2, res.stdout + res.stderr
    ((level, _props, message),) = annotations(res.stdout)
    assert level == "error"
    assert "evals.jsonl" in message
    assert "score" in message
    assert "Traceback" not in res.stderr
    (comment,) = github_api.comments(7)
    assert "could not be computed" in comment["body"]
    assert "model-2" not in comment["body"]  # the old numbers are gone
    assert "could not be computed" in job.summary()


def test_e2e__bad_setting__exit_2_names_the_input(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    job = make_job(tmp_path, github_api, baseline="model-0", confidence="95")
    res = launch(job)
    assert res.returncode == 2
    ((_level, _props, message),) = annotations(res.stdout)
    assert message.startswith("confidence: must be between 0 and 1")
    (comment,) = github_api.comments(7)
    assert "confidence" in comment["body"]


def test_e2e__workflow_run_posts_to_the_saved_pull_request(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    job = make_job(tmp_path, github_api, baseline="model-0", **{"PR-NUMBER": "7"})
    job.event_name = "workflow_run"
    job.event = {"workflow_run": {"id": 555, "head_sha": HEAD_SHA, "pull_requests": []}}
    res = launch(job)
    assert res.returncode == 0, res.stdout + res.stderr
    (comment,) = github_api.comments(7)
    assert HEAD_SHA[:7] in comment["body"]


@pytest.mark.parametrize("header", ["capabilities", "safety"])
def test_e2e__two_headers_two_comments(
    tmp_path: Path, github_api: FakeGitHub, header: str
) -> None:
    job = make_job(tmp_path, github_api, baseline="model-0")
    assert launch(job).returncode == 0
    job.inputs["COMMENT-HEADER"] = header
    assert launch(job).returncode == 0
    bodies = [c["body"].splitlines()[0] for c in github_api.comments(7)]
    assert bodies == [MARKER, f"<!-- leaderboard-action:sticky header={header} -->"]
    assert (job.workspace / f"leaderboard-report-{header}.json").is_file()


def test_e2e__app_token_with_bot_login__edits_in_place_without_probe_comments(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    """A GitHub App's installation token: GET /user is 403 and the app's login is not
    github-actions[bot]. With `bot-login` the second run edits the first run's comment;
    no comment is ever created and deleted again (each would notify the PR)."""
    app_token = "ghs_app_installation_token_for_test"  # noqa: S105 - a fake's token
    github_api.add_token(app_token, login="my-app[bot]", user_type="Bot")
    for _ in range(2):
        job = make_job(
            tmp_path,
            github_api,
            baseline="model-0",
            token=app_token,
            **{"bot-login": "my-app[bot]"},
        )
        res = launch(job)
        assert res.returncode == 0, res.stdout + res.stderr
        assert app_token not in res.stdout + res.stderr
    comments = github_api.comments(7)
    assert len(comments) == 1
    assert comments[0]["user"]["login"] == "my-app[bot]"
    assert len(github_api.calls("create_comment")) == 1
    assert github_api.calls("delete_comment") == []
