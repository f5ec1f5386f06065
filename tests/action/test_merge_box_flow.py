"""The commit status and the accept label through `job.main`, against the fake API.

The same matrix as the container test (tests/action/test_container_merge_box.py), in
process and fast: a status on regression / pass / undetermined, two headers, a re-run,
the accept label present / added later / absent, a fork's pull request, and
``workflow_run``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from leaderboard.action.job import main
from tests.action.action_job import (
    HEAD_SHA,
    MERGE_SHA,
    Job,
    annotations,
    results_job,
)
from tests.fakes.github_api import READ_ONLY_TOKEN, FakeGitHub

M = "-"  # the hyphen-minus of the comment's first line
NO_STATUSES = "ghs_FAKEnoSTATUSESpermission0123456789ab"


def make_job(
    root: Path, api: FakeGitHub, *, baseline: str = "model-2", **inputs: str
) -> Job:
    return results_job(root, api.base_url, baseline=baseline, **inputs)


def go(job: Job, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    capsys.readouterr()
    status = main(job.env())
    return status, capsys.readouterr().out


def statuses(api: FakeGitHub, sha: str = HEAD_SHA) -> dict[str, dict[str, Any]]:
    return api.status.latest(sha)


def status_lines(log: str) -> list[str]:
    return [line for line in log.splitlines() if "commit status" in line]


def test_flow__regression_failure_status_on_the_head_linked_to_the_comment(
    tmp_path: Path, github_api: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    job = make_job(tmp_path, github_api)
    code, log = go(job, capsys)
    assert code == 1
    (status,) = statuses(github_api).values()
    assert status["context"] == "leaderboard"
    assert status["state"] == "failure"
    assert status["description"].startswith("regressed: ")
    assert f"{M}0." in status["description"]
    assert len(status["description"]) <= 140
    (comment,) = github_api.comments(7)
    assert status["target_url"] == comment["html_url"]
    assert MERGE_SHA not in github_api.status.statuses  # never the merge commit
    assert job.outputs()["accepted"] == "false"
    assert job.outputs()["regressed"] == "true"
    assert len(status_lines(log)) == 1


def test_flow__advisory_regression_is_a_green_status_that_says_regressed(
    tmp_path: Path, github_api: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    job = make_job(tmp_path, github_api, **{"fail-on-regression": "false"})
    code, _ = go(job, capsys)
    assert code == 0
    (status,) = statuses(github_api).values()
    assert (status["state"], status["description"][:11]) == ("success", "regressed: ")


def test_flow__no_regression_success_with_the_detectable_drop(
    tmp_path: Path, github_api: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _ = go(make_job(tmp_path, github_api, baseline="model-0"), capsys)
    assert code == 0
    (status,) = statuses(github_api).values()
    assert status["state"] == "success"
    assert status["description"].startswith("no regression: ")
    assert ", detects 0." in status["description"]


def test_flow__undetermined_is_success_and_says_not_a_pass(
    tmp_path: Path, github_api: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    job = make_job(tmp_path, github_api, baseline="a")
    lines = [
        {"model_id": m, "task_id": "only", "score": s} for m, s in [("a", 0.6), ("b", 0.5)]
    ]
    path = job.workspace / "results" / "evals.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    code, _ = go(job, capsys)
    assert code == 0
    (status,) = statuses(github_api).values()
    assert status["state"] == "success"
    assert status["description"].startswith("cannot tell: ")
    assert "not a pass" in status["description"]


def test_flow__two_headers_two_contexts_and_a_rerun_replaces_its_own(
    tmp_path: Path, github_api: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    first = make_job(tmp_path / "a", github_api)
    safety = make_job(tmp_path / "b", github_api, baseline="model-0")
    safety.inputs["COMMENT-HEADER"] = "safety"
    assert go(first, capsys)[0] == 1
    assert go(safety, capsys)[0] == 0
    first.run_id += 1
    assert go(first, capsys)[0] == 1  # a re-run
    latest = statuses(github_api)
    assert {k: v["state"] for k, v in latest.items()} == {
        "leaderboard": "failure",
        "leaderboard/safety": "success",
    }
    posted = [s["context"] for s in github_api.status.statuses[HEAD_SHA]]
    assert posted == ["leaderboard", "leaderboard/safety", "leaderboard"]
    assert len(github_api.comments(7)) == 2


def test_flow__accept_label_present_exit_0_regressed_true_accepted_true(
    tmp_path: Path, github_api: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    github_api.status.add_label(7, "accept-regression")
    job = make_job(tmp_path, github_api)
    code, log = go(job, capsys)
    assert code == 0
    assert job.outputs()["regressed"] == "true"
    assert job.outputs()["accepted"] == "true"
    (status,) = statuses(github_api).values()
    assert status["state"] == "success"
    assert status["description"].startswith("accepted by label accept-regression: ")
    (comment,) = github_api.comments(7)
    first = comment["body"].split("-->", 2)[-1].strip().splitlines()[0]
    assert "**Regression accepted by label “accept-regression”**" in first
    assert [a for a in annotations(log) if a[0] == "error"] == []


def test_flow__accept_label_added_later_then_a_labeled_run_passes(
    tmp_path: Path, github_api: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    job = make_job(tmp_path, github_api)
    assert go(job, capsys)[0] == 1
    github_api.status.add_label(7, "accept-regression")
    job.event = {**job.event, "action": "labeled", "label": {"name": "accept-regression"}}
    # The event's own copy of the labels is stale on a re-run: the API is read.
    job.event["pull_request"] = {**job.event["pull_request"], "labels": []}
    job.run_id += 1
    assert go(job, capsys)[0] == 0
    assert statuses(github_api)["leaderboard"]["state"] == "success"
    github_api.status.remove_label(7, "accept-regression")
    job.run_id += 1
    assert go(job, capsys)[0] == 1  # unlabeled: the gate fails again
    assert statuses(github_api)["leaderboard"]["state"] == "failure"
    assert len(github_api.status.statuses[HEAD_SHA]) == 3


def test_flow__other_labels_or_an_empty_accept_label_accept_nothing(
    tmp_path: Path, github_api: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    github_api.status.add_label(7, "bug")
    job = make_job(tmp_path / "a", github_api)
    assert go(job, capsys)[0] == 1
    assert job.outputs()["accepted"] == "false"
    github_api.status.add_label(7, "accept-regression")
    off = make_job(tmp_path / "b", github_api, **{"accept-label": ""})
    assert go(off, capsys)[0] == 1
    assert statuses(github_api)["leaderboard"]["state"] == "failure"
    custom = make_job(tmp_path / "c", github_api, **{"accept-label": "bug"})
    assert go(custom, capsys)[0] == 0
    assert statuses(github_api)["leaderboard"]["description"].startswith(
        "accepted by label bug: "
    )


def test_flow__no_regression_reads_no_labels(
    tmp_path: Path, github_api: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    go(make_job(tmp_path, github_api, baseline="model-0"), capsys)
    assert github_api.calls("list_labels") == []


def test_flow__fork_pull_request_no_status_one_plain_line_same_exit(
    tmp_path: Path, github_api: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    job = make_job(tmp_path, github_api, **{"github-token": READ_ONLY_TOKEN})
    job.event["pull_request"]["head"]["repo"] = {"full_name": "someone/octo-repo"}
    code, log = go(job, capsys)
    assert code == 1
    assert github_api.status.statuses == {}
    (line,) = status_lines(log)
    assert "a pull request from a fork gets a read-only token" in line
    assert not line.startswith("::")
    assert all("status" not in a[2] for a in annotations(log))


def test_flow__without_statuses_write_one_plain_line_never_an_annotation(
    tmp_path: Path, github_api: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    github_api.add_token(NO_STATUSES, can_write_statuses=False)
    for baseline, expected in [("model-2", 1), ("model-0", 0)]:
        job = make_job(tmp_path / baseline, github_api, baseline=baseline)
        job.inputs["GITHUB-TOKEN"] = NO_STATUSES
        code, log = go(job, capsys)
        assert code == expected
        (line,) = status_lines(log)
        assert "statuses: write" in line
        assert all("status" not in a[2] for a in annotations(log))
    assert github_api.status.statuses == {}


def test_flow__commit_status_false_sends_nothing(
    tmp_path: Path, github_api: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    code, log = go(make_job(tmp_path, github_api, **{"commit-status": "false"}), capsys)
    assert code == 1
    assert github_api.calls("create_status") == []
    assert status_lines(log) == []


def test_flow__push_sets_no_status(
    tmp_path: Path, github_api: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    job = make_job(tmp_path, github_api)
    job.event_name, job.event = "push", {"ref": "refs/heads/main"}
    go(job, capsys)
    assert github_api.calls("create_status") == []


def test_flow__workflow_run_sets_the_status_on_the_vouched_head(
    tmp_path: Path, github_api: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    job = make_job(tmp_path / "a", github_api, **{"pr-number": "7"})
    job.as_workflow_run(HEAD_SHA, [])  # a fork: GitHub lists no pull request
    github_api.status.add_label(7, "accept-regression")
    assert go(job, capsys)[0] == 0  # #7's head is HEAD_SHA: its label counts
    assert statuses(github_api)["leaderboard"]["state"] == "success"
    assert job.outputs()["accepted"] == "true"
    assert "f" * 40 not in github_api.status.statuses


def test_flow__workflow_run_a_forged_number_borrows_no_label(
    tmp_path: Path, github_api: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    github_api.add_pull(8, head_sha="8" * 40)
    github_api.status.add_label(8, "accept-regression")  # someone else's, accepted
    job = make_job(tmp_path, github_api, **{"pr-number": "8"})
    job.as_workflow_run(HEAD_SHA, [])
    code, _ = go(job, capsys)
    assert code == 1
    assert job.outputs()["accepted"] == "false"
    assert github_api.comments(8) == []  # as before: no comment on another's PR
    assert statuses(github_api)["leaderboard"]["state"] == "failure"


@pytest.mark.parametrize("raw", ["x" * 51, "two\nlines"])
def test_flow__a_bad_accept_label_is_exit_2_naming_the_input(
    tmp_path: Path, github_api: FakeGitHub, capsys: pytest.CaptureFixture[str], raw: str
) -> None:
    code, log = go(make_job(tmp_path, github_api, **{"accept-label": raw}), capsys)
    assert code == 2
    ((level, _props, message),) = annotations(log)
    assert level == "error"
    assert message.startswith("accept-label: must be a label name of at most 50")
    # no report: the head commit's status says so, whatever an earlier run set
    (status,) = statuses(github_api).values()
    assert status["state"] == "error"
    assert status["description"].startswith("could not be computed")
