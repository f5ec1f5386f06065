"""The commit status and the accept label through the built image, against the fake API.

One image build (the fixture of tests/action/test_container.py), a few runs per test:
regression (label absent), a re-run after a ``labeled`` event (label added later:
accepted), a second header that passes, undetermined, a fork's pull request (no status,
one line), and ``workflow_run`` (the status on the head the event vouches for). The
fast, in-process twin of each case is in tests/action/test_merge_box_flow.py.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.action.action_job import (
    HEAD_SHA,
    MERGE_SHA,
    Job,
    annotations,
    results_job,
)
from tests.action.test_container import image, run_container
from tests.fakes.github_api import READ_ONLY_TOKEN, FakeGitHub

__all__ = ["image"]  # the module-scoped fixture that builds the image

pytestmark = [pytest.mark.container, pytest.mark.slow]


@pytest.fixture
def api() -> Iterator[FakeGitHub]:
    with FakeGitHub() as fake:
        fake.add_pull(7, head_sha=HEAD_SHA)
        yield fake


def make_job(root: Path, api: FakeGitHub, baseline: str = "model-2", **inputs: str) -> Job:
    given = {
        "COMMENT-HEADER": "leaderboard",
        "FAIL-ON-REGRESSION": "true",
        "COMMIT-STATUS": "true",
        "ACCEPT-LABEL": "accept-regression",
        **inputs,
    }
    return results_job(root, api.base_url, baseline=baseline, **given)


def _latest(api: FakeGitHub, sha: str = HEAD_SHA) -> dict[str, tuple[str, str]]:
    return {k: (v["state"], v["description"]) for k, v in api.status.latest(sha).items()}


def test_container__status_rerun_after_label_and_a_second_header(
    image: list[str], tmp_path: Path, api: FakeGitHub
) -> None:
    job = make_job(tmp_path / "a", api)
    res = run_container(image, job)
    assert res.returncode == 1, res.stdout + res.stderr  # no label: the gate fails
    (comment,) = api.comments(7)
    state, text = _latest(api)["leaderboard"]
    assert (state, text[:11]) == ("failure", "regressed: ")
    assert api.status.latest(HEAD_SHA)["leaderboard"]["target_url"] == comment["html_url"]
    assert MERGE_SHA not in api.status.statuses
    assert job.outputs()["accepted"] == "false"

    api.status.add_label(7, "accept-regression")  # a maintainer accepts it later
    job.event = {**job.event, "action": "labeled", "label": {"name": "accept-regression"}}
    job.run_id += 1
    res = run_container(image, job)
    assert res.returncode == 0, res.stdout + res.stderr
    out = job.outputs()
    assert (out["regressed"], out["accepted"]) == ("true", "true")
    state, text = _latest(api)["leaderboard"]
    assert state == "success"
    assert text.startswith("accepted by label accept-regression: ")
    (comment,) = api.comments(7)
    assert "Regression accepted by label “accept-regression”" in comment["body"]

    safety = make_job(
        tmp_path / "b", api, baseline="model-0", **{"COMMENT-HEADER": "safety"}
    )
    res = run_container(image, safety)
    assert res.returncode == 0, res.stdout + res.stderr
    latest = _latest(api)
    assert set(latest) == {"leaderboard", "leaderboard/safety"}
    assert latest["leaderboard/safety"][0] == "success"
    assert latest["leaderboard/safety"][1].startswith("no regression: ")
    assert len(api.status.statuses[HEAD_SHA]) == 3  # the re-run made a new status


def test_container__undetermined_and_a_fork_pull_request(
    image: list[str], tmp_path: Path, api: FakeGitHub
) -> None:
    job = make_job(tmp_path / "a", api, baseline="a")
    rows = [
        {"model_id": m, "task_id": "only", "score": s} for m, s in (("a", 0.6), ("b", 0.5))
    ]
    (job.workspace / "results" / "evals.jsonl").write_text(
        "".join(json.dumps(r) + "\n" for r in rows)
    )
    res = run_container(image, job)
    assert res.returncode == 0, res.stdout + res.stderr
    state, text = _latest(api)["leaderboard"]
    assert state == "success"
    assert text.startswith("cannot tell: ")

    fork = make_job(tmp_path / "b", api, **{"GITHUB-TOKEN": READ_ONLY_TOKEN})
    fork.event["pull_request"]["head"]["repo"] = {"full_name": "someone/octo-repo"}
    before = len(api.status.statuses[HEAD_SHA])
    res = run_container(image, fork)
    assert res.returncode == 1, res.stdout + res.stderr  # the gate still fails the check
    assert len(api.status.statuses[HEAD_SHA]) == before  # no status
    lines = [line for line in res.stdout.splitlines() if "commit status" in line]
    assert len(lines) == 1, res.stdout
    assert "a pull request from a fork gets a read-only token" in lines[0]
    assert all("commit status" not in a[2] for a in annotations(res.stdout))


def test_container__workflow_run_sets_the_status_on_the_vouched_head(
    image: list[str], tmp_path: Path, api: FakeGitHub
) -> None:
    job = make_job(tmp_path, api, **{"PR-NUMBER": "7"})
    job.as_workflow_run(HEAD_SHA, [])  # a fork's: GitHub lists none
    res = run_container(image, job)
    assert res.returncode == 1, res.stdout + res.stderr
    assert _latest(api)["leaderboard"][0] == "failure"
    assert "f" * 40 not in api.status.statuses
    assert len(api.comments(7)) == 1
