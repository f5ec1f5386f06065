"""The event parsed once (`leaderboard.action.event.parse_event`): typed, defensive."""

from __future__ import annotations

from typing import Any

import pytest

from leaderboard.action.event import Event, parse_event

PULL = {
    "number": 7,
    "pull_request": {
        "number": 7,
        "head": {"sha": "a" * 40, "repo": {"full_name": "fork/repo"}},
        "base": {"sha": "b" * 40, "ref": "main"},
        "labels": [{"name": "accept-regression"}, {"name": 5}, "junk"],
    },
    "repository": {"default_branch": "main"},
}


def test_parse_event__pull_request_fields() -> None:
    event = parse_event(PULL)
    assert event == Event(
        pr_number=7,
        head_sha="a" * 40,
        base_sha="b" * 40,
        base_ref="main",
        head_repository="fork/repo",
        labels=("accept-regression",),  # names that are not text are left out
        default_branch="main",
    )
    assert event.from_fork("octo/repo")
    assert not event.from_fork("fork/repo")
    assert not event.from_fork(None)


def test_parse_event__push_to_default_and_workflow_run() -> None:
    push = parse_event(
        {
            "ref": "refs/heads/main",
            "after": "c" * 40,
            "repository": {"default_branch": "main"},
        }
    )
    assert push.push_to_default("push") == "main"
    assert push.push_to_default("pull_request") is None
    assert push.after == "c" * 40
    other = parse_event({"ref": "refs/heads/dev", "repository": {"default_branch": "main"}})
    assert other.push_to_default("push") is None
    run = parse_event(
        {"workflow_run": {"head_sha": "d" * 40, "pull_requests": [{"number": 3}, {}, 4]}}
    )
    assert run.run_head_sha == "d" * 40
    assert run.run_pulls == (3,)


@pytest.mark.parametrize(
    "payload",
    [
        {},
        {"pull_request": "x", "number": True, "repository": [], "workflow_run": 5},
        {"pull_request": {"head": None, "base": {"sha": 1}, "labels": {"a": 1}}},
    ],
)
def test_parse_event__unexpected_shapes_mean_nothing_known(payload: dict[str, Any]) -> None:
    assert parse_event(payload) == Event()
