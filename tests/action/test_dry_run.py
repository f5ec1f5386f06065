"""The dry run (``entrypoint.py --dry-run``): what the action would publish, printed.

The same job (inputs, event file, runner variables) runs once as the action, against
the fake GitHub API, and once as a dry run: the dry run sends no request, writes no
file, and prints the comment, the summary, the commit status and the outputs the
action published, with the action's exit status.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from leaderboard.action.dry_run import dry_run, entry
from leaderboard.action.job import main
from tests.action.action_job import HEAD_SHA, Job, results_job
from tests.fakes.github_api import INSTALLATION_TOKEN, FakeGitHub

ROOT = Path(__file__).resolve().parents[2]
_TITLES = ("dry run", "history", "comment", "job summary", "commit status", "step outputs")


def _dry(job: Job) -> tuple[int, str]:
    out = io.StringIO()
    code = dry_run(job.env(), out)
    return code, out.getvalue()


def _sections(text: str) -> dict[str, str]:
    """The printed sections by their title's first words (``comment``, ``job summary``)."""
    found: dict[str, str] = {}
    parts = text.split("\n===== ")
    for part in parts[1:]:
        title, _, body = part.partition(" =====\n")
        (key,) = [k for k in _TITLES if title.startswith(k)]
        found[key] = body
    return found


def _lines(body: str) -> dict[str, str]:
    return dict(line.split("=", 1) for line in body.splitlines() if "=" in line)


def _nothing_written(job: Job) -> None:
    assert (job.root / "file_commands" / "set_output").read_text() == ""
    assert (job.root / "file_commands" / "step_summary").read_text() == ""
    assert not list(job.workspace.glob("leaderboard-report*.json"))


@pytest.mark.parametrize(("baseline", "status"), [("model-0", 0), ("model-2", 1)])
def test_dry_run__prints_what_the_action_publishes__no_request_no_file(
    tmp_path: Path,
    github_api: FakeGitHub,
    capsys: pytest.CaptureFixture[str],
    baseline: str,
    status: int,
) -> None:
    dry = results_job(tmp_path / "dry", github_api.base_url, baseline=baseline)
    code, printed = _dry(dry)
    assert code == status
    assert github_api.requests == []  # not one request, though a token was given
    _nothing_written(dry)
    assert INSTALLATION_TOKEN not in printed

    real = results_job(tmp_path / "real", github_api.base_url, baseline=baseline)
    assert main(real.env()) == status
    capsys.readouterr()
    sections = _sections(printed)
    (comment,) = github_api.comments(7)
    assert sections["comment"].strip() in comment["body"]
    assert sections["comment"].strip().splitlines()[0] in comment["body"].splitlines()
    assert sections["job summary"] == real.summary()
    (posted,) = github_api.status.latest(HEAD_SHA).values()
    said = dict(
        line.split(": ", 1) for line in sections["commit status"].strip().splitlines()
    )
    assert said == {
        "context": posted["context"],
        "state": posted["state"],
        "description": posted["description"],
    }
    outputs = real.outputs()
    printed_outputs = _lines(sections["step outputs"])
    assert printed_outputs["comment-url"] == ""  # nothing was posted
    assert outputs.pop("comment-url") == comment["html_url"]
    printed_outputs.pop("comment-url")
    assert printed_outputs == {k: v.replace("\n", "\\n") for k, v in outputs.items()}


def test_dry_run__push__no_comment_no_status(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    job = results_job(tmp_path, github_api.base_url, baseline="model-2")
    job.event_name, job.event = "push", {"ref": "refs/heads/main"}
    code, printed = _dry(job)
    assert code == 1
    sections = _sections(printed)
    assert sections["comment"] == ""  # its title says none (no pull request)
    assert "===== comment: none (no pull request) =====" in printed
    assert sections["commit status"] == ""  # its title says none (no pull request)
    assert _lines(sections["step outputs"])["regressed"] == "true"
    assert github_api.requests == []


def test_dry_run__bad_input__exit_2_error_and_the_failure_texts(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    job = results_job(tmp_path, github_api.base_url, baseline="model-0", confidence="1.5")
    code, printed = _dry(job)
    assert code == 2
    assert "report not computed::confidence: must be between 0 and 1" in printed
    sections = _sections(printed)
    assert "could not be computed" in sections["commit status"]
    assert "state: error" in sections["commit status"]
    assert "confidence" in sections["comment"]
    assert github_api.requests == []
    _nothing_written(job)


def test_entrypoint__dry_run_flag__runs_without_token_or_network(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    job = results_job(tmp_path, "http://127.0.0.1:9", baseline="model-2", token="")
    env = {**job.env(), "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": ""}
    res = subprocess.run(
        [sys.executable, str(ROOT / "entrypoint.py"), "--dry-run"],
        env=env,
        cwd=job.workspace,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert res.returncode == 1, res.stdout + res.stderr
    sections = _sections(res.stdout)
    assert "model-2" in sections["comment"]
    assert "state: failure" in sections["commit status"]
    assert _lines(sections["step outputs"])["regressed"] == "true"
    assert res.stderr == ""
    _nothing_written(job)


def test_entry__unknown_argument__exit_2_with_usage(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert entry(["--dryrun"], env={}) == 2
    err = capsys.readouterr().err
    assert "unknown arguments ['--dryrun']" in err
    assert "usage: entrypoint.py [--dry-run]" in err
