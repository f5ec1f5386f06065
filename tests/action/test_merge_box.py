"""The merge box against the fake API: the status on the head commit, and the labels."""

from __future__ import annotations

import io

import pytest

from leaderboard.action.event import Target, parse_event
from leaderboard.action.publish import Links, Outcome, publish_all
from leaderboard.action.runner import Log
from leaderboard.action.settings import Settings
from leaderboard.action.status.api import GitHubStatuses
from leaderboard.action.status.plan import StatusPlan
from leaderboard.action.status.publisher import (
    CommitStatus,
    publish_status,
    read_acceptance,
)
from leaderboard.render import Texts
from tests.action.github_support import REPOSITORY, Sleeps
from tests.fakes.github_api import INSTALLATION_TOKEN, READ_ONLY_TOKEN, FakeGitHub

HEAD = "a" * 40
PLAN = StatusPlan("leaderboard", "failure", "regressed: -0.081", None)


def _client(fake: FakeGitHub, token: str = INSTALLATION_TOKEN) -> GitHubStatuses:
    return GitHubStatuses(
        token=token, api_url=fake.base_url, repository=REPOSITORY, sleep=Sleeps()
    )


def _log() -> tuple[Log, io.StringIO]:
    out = io.StringIO()
    return Log(out, secrets=[INSTALLATION_TOKEN]), out


def test_publish_status__on_the_head_commit_with_one_line(github_api: FakeGitHub) -> None:
    log, out = _log()
    assert publish_status(_client(github_api), Target(7, HEAD, 1), PLAN, log)
    assert github_api.status.latest(HEAD)["leaderboard"]["state"] == "failure"
    assert out.getvalue() == "commit status leaderboard: failure: regressed: -0.081\n"


@pytest.mark.parametrize(
    ("token", "fork", "says"),
    [
        ("no-statuses", False, "give the job `permissions: statuses: write`"),
        (READ_ONLY_TOKEN, True, "a pull request from a fork gets a read-only token"),
    ],
)
def test_publish_status__without_the_permission_one_plain_line(
    github_api: FakeGitHub, token: str, fork: bool, says: str
) -> None:
    github_api.add_token("no-statuses", can_write_statuses=False)
    log, out = _log()
    client = _client(github_api, token)
    assert not publish_status(client, Target(7, HEAD, 1), PLAN, log, fork=fork)
    lines = out.getvalue().splitlines()
    assert len(lines) == 1
    assert says in lines[0]
    assert not lines[0].startswith("::")  # no annotation
    assert log.counts == {"error": 0, "warning": 0, "notice": 0}
    assert github_api.status.statuses == {}


def test_publish_status__no_pull_request_no_status(github_api: FakeGitHub) -> None:
    log, out = _log()
    assert not publish_status(_client(github_api), Target(None, HEAD, 1), PLAN, log)
    assert out.getvalue() == ""
    assert github_api.requests == []


def test_publish_status__a_bug_in_the_client_is_publish_alls_one_warning() -> None:
    """A bug is not GitHub's doing: it leaves `publish_status` and the one boundary,
    `publish_all`, turns it into one warning; the publishers after it still run."""

    class Broken:
        def set_status(self, sha: str, plan: StatusPlan) -> str:
            raise RuntimeError("boom")

        def labels(self, pr_number: int) -> list[str]:
            return []

        def head(self, pr_number: int) -> str:
            return HEAD

    log, out = _log()
    with pytest.raises(RuntimeError, match="boom"):
        publish_status(Broken(), Target(7, HEAD, 1), PLAN, log)
    settings = Settings(results=("r.jsonl",), github_token=INSTALLATION_TOKEN)
    texts = Texts(comment="", summary="", status="regressed: x", state="failure")
    after: list[str] = []

    class Next:
        what = "next"

        def publish(self, outcome: Outcome, links: Links) -> dict[str, str]:
            after.append(self.what)
            return {}

    status = CommitStatus(settings, Broken(), Target(7, HEAD, 1), log)
    publish_all([status, Next()], Outcome(None, texts, 1), log)
    assert log.counts["warning"] == 1
    assert "commit status not published: internal error" in out.getvalue()
    assert after == ["next"]


def test_read_acceptance__reads_the_labels_now(github_api: FakeGitHub) -> None:
    log, out = _log()
    client = _client(github_api, READ_ONLY_TOKEN)
    target = Target(7, HEAD, 1)
    assert read_acceptance(client, target, "accept-regression", log) is None
    github_api.status.add_label(7, "Accept-Regression")
    assert read_acceptance(client, target, "accept-regression", log) == "accept-regression"
    assert "#7 carries 'accept-regression'" in out.getvalue()
    assert read_acceptance(client, target, None, log) is None
    assert len(github_api.calls("list_labels")) == 2


def test_read_acceptance__an_unvouched_number_must_have_our_head(
    github_api: FakeGitHub,
) -> None:
    github_api.add_pull(8, head_sha="8" * 40)
    github_api.status.add_label(8, "accept-regression")
    log, out = _log()
    client = _client(github_api)
    # A fork's artifact naming another pull request, labelled by a maintainer.
    forged = Target(8, HEAD, 1, unconfirmed=True)
    assert read_acceptance(client, forged, "accept-regression", log) is None
    assert "its head is 8888888, not aaaaaaa" in out.getvalue()
    honest = Target(8, "8" * 40, 1, unconfirmed=True)
    assert read_acceptance(client, honest, "accept-regression", log) == "accept-regression"


def test_read_acceptance__labels_that_cannot_be_read_accept_nothing(
    github_api: FakeGitHub,
) -> None:
    log, out = _log()
    target = Target(99, HEAD, 1)
    assert read_acceptance(_client(github_api), target, "accept-regression", log) is None
    assert "404" in out.getvalue()
    assert "not accepted" in out.getvalue()
    assert log.counts["warning"] == 0


def test_from_fork__compares_the_head_repository() -> None:
    event = {"pull_request": {"head": {"repo": {"full_name": "someone/octo-repo"}}}}
    assert parse_event(event).from_fork(REPOSITORY)
    same = {"pull_request": {"head": {"repo": {"full_name": REPOSITORY}}}}
    assert not parse_event(same).from_fork(REPOSITORY)
    assert not parse_event({}).from_fork(REPOSITORY)
    assert not parse_event({"pull_request": {"head": {"repo": None}}}).from_fork(REPOSITORY)
