"""The fork-safe recipe: a pull request number from an artifact is checked first.

Found in review: part 2 of the recipe (``workflow_run``) reads ``pr-number`` from an
artifact that the pull request's own code wrote, and for a fork GitHub lists no pull
request in the ``workflow_run`` event, so nothing was compared with it. A fork could
name any other pull request (or issue) and the privileged run posted the fork's
numbers there as the leaderboard. Now such a number is used only if that pull
request's head is the commit the results were computed for.
"""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

import pytest

from leaderboard.action.comment.api import CommentError
from leaderboard.action.event import parse_event, resolve_target
from leaderboard.action.job import run
from leaderboard.action.settings import Settings
from tests.action import action_helpers
from tests.action.github_support import REPOSITORY, SHA1, SHA2, make_commenter
from tests.action.test_action_run import CLEAN, REGRESSED
from tests.fakes.github_api import INSTALLATION_TOKEN, FakeGitHub


def settings_for(tmp_path: Path, pr_number: int) -> Settings:
    files = tmp_path / "file_commands"
    files.mkdir(exist_ok=True)
    return Settings(
        results=(),
        github_token=INSTALLATION_TOKEN,
        repository=REPOSITORY,
        event_name="workflow_run",
        pr_number=pr_number,
        run_id=99,
        workspace=tmp_path,
        output_path=files / "output",
        summary_path=files / "summary",
    )


def fork_event(head_sha: str) -> dict[str, object]:
    return {"workflow_run": {"id": 5, "head_sha": head_sha, "pull_requests": []}}


def upsert_requiring_head(fake: FakeGitHub, number: int, body: str) -> str:
    """Upsert `body` for head SHA1 (run 9) on `number`, as a fork-safe second half."""
    commenter, _ = make_commenter(fake)
    return commenter.upsert(
        pr_number=number,
        header="leaderboard",
        body=body,
        head_sha=SHA1,
        run_id=9,
        require_head=True,
    )


def test_target__artifact_number_unconfirmed_only_when_the_event_lists_none(
    tmp_path: Path,
) -> None:
    s = settings_for(tmp_path, 12)
    assert resolve_target(s, parse_event(fork_event(SHA1))).unconfirmed
    listed = {"workflow_run": {"head_sha": SHA1, "pull_requests": [{"number": 12}]}}
    assert not resolve_target(s, parse_event(listed)).unconfirmed
    assert not resolve_target(replace(s, pr_number=None), parse_event(listed)).unconfirmed
    pr = {"pull_request": {"number": 12, "head": {"sha": SHA1}}}
    assert not resolve_target(
        replace(s, event_name="pull_request"), parse_event(pr)
    ).unconfirmed


def test_upsert__require_head_refuses_another_pull_requests_number(
    github_api: FakeGitHub,
) -> None:
    github_api.set_head(7, SHA2)  # the victim's head; the fork's results are for SHA1
    with pytest.raises(CommentError, match=r"head of #7 is 2222222, not 1111111"):
        upsert_requiring_head(github_api, 7, "forged")
    assert github_api.comments(7) == []


def test_upsert__require_head_refuses_an_issue(github_api: FakeGitHub) -> None:
    github_api.add_issue(8)
    with pytest.raises(CommentError, match="not a pull request"):
        upsert_requiring_head(github_api, 8, "forged")
    assert github_api.comments(8) == []


def test_upsert__require_head_posts_for_the_matching_head(github_api: FakeGitHub) -> None:
    github_api.set_head(7, SHA1)
    upsert_requiring_head(github_api, 7, "mine")
    (comment,) = github_api.comments(7)
    assert comment["body"].endswith("\n\nmine")


def test_action__fork_names_another_pull_request__not_posted_gate_kept(
    github_api: FakeGitHub, tmp_path: Path
) -> None:
    github_api.set_head(7, SHA2)
    settings = settings_for(tmp_path, 7)
    out = io.StringIO()
    code = run(
        REGRESSED(settings),
        make_commenter(github_api)[0],
        event=fork_event(SHA1),
        out=out,
    )
    assert code == 1
    assert github_api.comments(7) == []
    warnings = [a for a in action_helpers.annotations(out.getvalue()) if a[0] == "warning"]
    assert len(warnings) == 1
    assert "pr-number does not name the pull request" in warnings[0][2]


def test_action__fork_names_its_own_pull_request__posted(
    github_api: FakeGitHub, tmp_path: Path
) -> None:
    github_api.set_head(7, SHA1)
    code = run(
        CLEAN(settings_for(tmp_path, 7)),
        make_commenter(github_api)[0],
        event=fork_event(SHA1),
        out=io.StringIO(),
    )
    assert code == 0
    assert len(github_api.comments(7)) == 1
