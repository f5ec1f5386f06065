"""A flaky GitHub: every scripted fault against PyGithub's real client and the fake.

Each test names its fault; `sleep` is recorded, so the waits are asserted exactly and
no test waits for real.
"""

from __future__ import annotations

import pytest

from leaderboard.action.comment.api import CommentError, GitHubCommenter
from leaderboard.action.comment.markers import sticky_marker
from tests.action.github_support import make_commenter
from tests.fakes.github_api import BOT_LOGIN, READ_ONLY_TOKEN, FakeGitHub, Fault

NOW = 1_800_000_000.0


def upsert(commenter: GitHubCommenter, body: str = "results", run_id: int = 100) -> str:
    return commenter.upsert(
        pr_number=7, header="leaderboard", body=body, head_sha="a" * 40, run_id=run_id
    )


def seed_sticky(fake: FakeGitHub, text: str = "old") -> dict:
    body = (
        f"{sticky_marker('leaderboard')}\n<!-- leaderboard-action:stamp sha=- run=1 -->\n\n"
    )
    return fake.add_comment(7, body + text, login=BOT_LOGIN, user_type="Bot")


def bodies(fake: FakeGitHub) -> list[str]:
    return [c["body"].rsplit("\n", 1)[-1] for c in fake.comments(7)]


# -- server errors and lost connections: retried with exponential backoff -----------------
@pytest.mark.parametrize("status", [500, 502, 503])
def test_upsert__server_error_on_list_is_retried(
    github_api: FakeGitHub, status: int
) -> None:
    github_api.inject(
        "list_comments", Fault.server_error(status), Fault.server_error(status)
    )
    commenter, sleeps = make_commenter(github_api)
    upsert(commenter)
    assert sleeps.calls == [1.0, 2.0]
    assert bodies(github_api) == ["results"]


def test_upsert__server_error_on_later_page_restarts_the_listing(
    github_api: FakeGitHub,
) -> None:
    seed_sticky(github_api)
    for i in range(150):
        github_api.add_comment(7, f"chatter {i}")
    calls = {"n": 0}

    def fail_second_page(request: object) -> None:
        calls["n"] += 1
        if calls["n"] == 2:
            github_api.inject("list_comments", Fault.server_error(502))

    github_api.on("list_comments", fail_second_page)
    commenter, sleeps = make_commenter(github_api)
    upsert(commenter, "new")
    assert sleeps.calls == [1.0]
    assert bodies(github_api)[0] == "new"
    assert len(github_api.comments(7)) == 151


def test_upsert__server_error_on_edit_is_retried(github_api: FakeGitHub) -> None:
    seed_sticky(github_api)
    github_api.inject("update_comment", Fault.server_error(503))
    commenter, sleeps = make_commenter(github_api)
    upsert(commenter, "new")
    assert sleeps.calls == [1.0]
    assert bodies(github_api) == ["new"]
    assert commenter.last_action == "updated"


def test_upsert__server_error_on_delete_of_duplicate_is_retried(
    github_api: FakeGitHub,
) -> None:
    seed_sticky(github_api, "one")
    seed_sticky(github_api, "two")
    github_api.inject("delete_comment", Fault.server_error(500))
    commenter, sleeps = make_commenter(github_api)
    upsert(commenter, "new")
    assert sleeps.calls == [1.0]
    assert bodies(github_api) == ["new"]


def test_upsert__server_error_on_head_and_identity_is_retried(
    github_api: FakeGitHub,
) -> None:
    seed_sticky(github_api)
    github_api.inject("get_user", Fault.server_error(502))
    github_api.inject("get_pull", Fault.server_error(502))
    commenter, sleeps = make_commenter(github_api)
    upsert(commenter, "new")
    assert sleeps.calls == [1.0, 1.0]
    assert bodies(github_api) == ["new"]


def test_upsert__connection_reset_on_list_is_retried(github_api: FakeGitHub) -> None:
    github_api.inject("list_comments", Fault.connection_reset())
    commenter, sleeps = make_commenter(github_api)
    upsert(commenter)
    assert sleeps.calls == [1.0]
    assert bodies(github_api) == ["results"]


def test_upsert__connection_reset_on_edit_is_retried(github_api: FakeGitHub) -> None:
    seed_sticky(github_api)
    github_api.inject("update_comment", Fault.connection_reset().applied_first())
    commenter, sleeps = make_commenter(github_api)
    upsert(commenter, "new")
    assert sleeps.calls == [1.0]
    assert bodies(github_api) == ["new"]  # the PATCH is idempotent: applying twice is fine


def test_upsert__retry_after_on_5xx_is_honoured(github_api: FakeGitHub) -> None:
    fault = Fault(
        status=503, message="Service Unavailable", headers=(("Retry-After", "9"),)
    )
    github_api.inject("list_comments", fault)
    commenter, sleeps = make_commenter(github_api)
    upsert(commenter)
    assert sleeps.calls == [9.0]


# -- rate limits: GitHub's documented waits ------------------------------------------------
@pytest.mark.parametrize("status", [403, 429])
def test_upsert__secondary_limit_with_retry_after_waits_that_long(
    github_api: FakeGitHub, status: int
) -> None:
    github_api.inject("list_comments", Fault.secondary_limit(status, retry_after=7))
    commenter, sleeps = make_commenter(github_api)
    upsert(commenter)
    assert sleeps.calls == [7.0]
    assert bodies(github_api) == ["results"]


@pytest.mark.parametrize("status", [403, 429])
def test_upsert__secondary_limit_without_retry_after_waits_a_minute(
    github_api: FakeGitHub, status: int
) -> None:
    seed_sticky(github_api)
    github_api.inject("update_comment", Fault.secondary_limit(status))
    commenter, sleeps = make_commenter(github_api)
    upsert(commenter, "new")
    assert sleeps.calls == [60.0]
    assert bodies(github_api) == ["new"]


def test_upsert__bare_429_waits_a_minute(github_api: FakeGitHub) -> None:
    github_api.inject("list_comments", Fault(status=429, message="Too Many Requests"))
    commenter, sleeps = make_commenter(github_api)
    upsert(commenter)
    assert sleeps.calls == [60.0]


def test_upsert__primary_limit_waits_until_reset(github_api: FakeGitHub) -> None:
    github_api.inject("list_comments", Fault.primary_limit(reset_at=int(NOW) + 20))
    commenter, sleeps = make_commenter(github_api, clock=lambda: NOW)
    upsert(commenter)
    assert sleeps.calls == [21.0]  # until x-ratelimit-reset, plus a second
    assert bodies(github_api) == ["results"]


def test_upsert__primary_limit_beyond_budget_fails_without_waiting(
    github_api: FakeGitHub,
) -> None:
    github_api.inject("list_comments", Fault.primary_limit(reset_at=int(NOW) + 3000))
    commenter, sleeps = make_commenter(github_api, clock=lambda: NOW)
    with pytest.raises(CommentError, match=r"rate limit.*60s budget"):
        upsert(commenter)
    assert sleeps.calls == []
    assert github_api.comments(7) == []


def test_upsert__retry_after_beyond_budget_fails_without_waiting(
    github_api: FakeGitHub,
) -> None:
    github_api.inject("list_comments", Fault.secondary_limit(429, retry_after=600))
    commenter, sleeps = make_commenter(github_api)
    with pytest.raises(CommentError, match="secondary rate limit"):
        upsert(commenter)
    assert sleeps.calls == []


def test_upsert__total_wait_is_bounded_by_max_wait(github_api: FakeGitHub) -> None:
    github_api.inject("list_comments", *[Fault.secondary_limit(403, retry_after=20)] * 10)
    commenter, sleeps = make_commenter(github_api, max_wait=50.0)
    with pytest.raises(CommentError, match="50s budget"):
        upsert(commenter)
    assert sleeps.calls == [20.0, 20.0]
    assert len(github_api.calls("list_comments")) == 3


def test_upsert__exhausted_retries_raise_comment_error(github_api: FakeGitHub) -> None:
    github_api.inject("list_comments", *[Fault.server_error(502)] * 10)
    commenter, sleeps = make_commenter(github_api)
    with pytest.raises(CommentError) as info:
        upsert(commenter)
    message = str(info.value)
    assert "pull request #7 of octo-org/octo-repo" in message
    assert "list the comments" in message
    assert "502" in message
    assert "gave up after 5 attempts" in message
    assert sleeps.calls == [1.0, 2.0, 4.0, 8.0]
    assert len(github_api.calls("list_comments")) == 5


# -- the POST: never blindly retried -------------------------------------------------------
def test_upsert__post_landed_but_502_leaves_one_comment(github_api: FakeGitHub) -> None:
    github_api.inject("create_comment", Fault.server_error(502).applied_first())
    commenter, sleeps = make_commenter(github_api)
    url = upsert(commenter)
    (comment,) = github_api.comments(7)
    assert url == comment["html_url"]
    assert len(github_api.calls("create_comment")) == 1  # adopted, not re-posted
    assert sleeps.calls == [1.0]
    assert commenter.last_action == "unchanged"


def test_upsert__post_landed_but_connection_reset_leaves_one_comment(
    github_api: FakeGitHub,
) -> None:
    github_api.inject("create_comment", Fault.connection_reset().applied_first())
    commenter, _ = make_commenter(github_api)
    upsert(commenter)
    assert len(github_api.comments(7)) == 1
    assert len(github_api.calls("create_comment")) == 1


@pytest.mark.parametrize(
    "fault",
    [Fault.server_error(502), Fault.connection_reset(), Fault.secondary_limit(403, 5)],
    ids=["502", "reset", "secondary-limit"],
)
def test_upsert__post_that_did_not_land_is_posted_again_after_listing(
    github_api: FakeGitHub, fault: Fault
) -> None:
    github_api.inject("create_comment", fault)
    commenter, _ = make_commenter(github_api)
    upsert(commenter)
    assert bodies(github_api) == ["results"]
    routes = [r.route for r in github_api.requests]
    assert routes == [
        "get_user",
        "list_comments",
        "create_comment",  # failed
        "list_comments",  # did it land? no
        "create_comment",
        "list_comments",  # settle
    ]


def test_upsert__post_is_not_repeated_once_it_landed(github_api: FakeGitHub) -> None:
    github_api.inject("create_comment", *[Fault.server_error(502).applied_first()] * 3)
    commenter, _ = make_commenter(github_api)
    upsert(commenter)
    assert len(github_api.comments(7)) == 1
    assert len(github_api.calls("create_comment")) == 1
    assert github_api.pending_faults("create_comment") == 2


def test_upsert__post_failing_every_time_gives_up_without_a_comment(
    github_api: FakeGitHub,
) -> None:
    github_api.inject("create_comment", *[Fault.server_error(502)] * 10)
    commenter, sleeps = make_commenter(github_api)
    with pytest.raises(CommentError, match=r"create the comment: 502.*gave up after 5"):
        upsert(commenter)
    assert github_api.comments(7) == []
    assert len(github_api.calls("create_comment")) == 5
    assert len(github_api.calls("list_comments")) == 5  # one listing before each POST
    assert sleeps.calls == [1.0, 2.0, 4.0, 8.0]


# -- refusals: clear messages, no retry ----------------------------------------------------
def test_upsert__deleted_between_list_and_edit_creates_a_new_one(
    github_api: FakeGitHub,
) -> None:
    old = seed_sticky(github_api)

    def delete_it(request: object) -> None:
        github_api._state.comments[old["id"]]["_deleted"] = True

    github_api.on("update_comment", delete_it)
    commenter, _ = make_commenter(github_api)
    url = upsert(commenter, "new")
    (comment,) = github_api.comments(7)
    assert comment["id"] != old["id"]
    assert url == comment["html_url"]
    assert bodies(github_api) == ["new"]
    assert commenter.last_action == "created"


def test_upsert__fork_read_only_token_is_a_clear_comment_error(
    github_api: FakeGitHub,
) -> None:
    commenter, sleeps = make_commenter(github_api, token=READ_ONLY_TOKEN)
    with pytest.raises(CommentError) as info:
        upsert(commenter)
    message = str(info.value)
    assert "403" in message
    assert "Resource not accessible by integration" in message
    assert "fork" in message
    assert sleeps.calls == []
    assert github_api.comments(7) == []
    assert len(github_api.calls("create_comment")) == 1


def test_upsert__fork_read_only_token_cannot_edit_either(github_api: FakeGitHub) -> None:
    seed_sticky(github_api)
    commenter, _ = make_commenter(github_api, token=READ_ONLY_TOKEN)
    with pytest.raises(CommentError, match="edit the comment"):
        upsert(commenter, "new")
    assert bodies(github_api) == ["old"]


def test_upsert__bad_token_is_a_clear_comment_error(github_api: FakeGitHub) -> None:
    bad = "ghs_FAKEbadTOKENnotKnown0123456789abcd"
    commenter, sleeps = make_commenter(github_api, token=bad)
    with pytest.raises(CommentError) as info:
        upsert(commenter)
    assert "401 Bad credentials" in str(info.value)
    assert "github-token" in str(info.value)
    assert sleeps.calls == []
    assert len(github_api.requests) == 1  # failed fast at GET /user


def test_upsert__validation_error_is_not_retried(github_api: FakeGitHub) -> None:
    github_api.inject("create_comment", Fault.validation("was flagged as spam"))
    commenter, sleeps = make_commenter(github_api)
    with pytest.raises(CommentError, match="422 Validation Failed: was flagged as spam"):
        upsert(commenter)
    assert sleeps.calls == []
    assert len(github_api.calls("create_comment")) == 1


def test_upsert__missing_pull_request_is_a_comment_error(github_api: FakeGitHub) -> None:
    commenter, _ = make_commenter(github_api)
    with pytest.raises(CommentError, match="404 Not Found"):
        commenter.upsert(pr_number=404, header="h", body="b", head_sha=None, run_id=None)


def test_upsert__pygithub_retry_and_spacing_are_off(github_api: FakeGitHub) -> None:
    """One 502 is one request: PyGithub's urllib3 retry would have repeated it itself."""
    github_api.inject("list_comments", Fault.server_error(502))
    commenter, sleeps = make_commenter(github_api, max_attempts=1)
    with pytest.raises(CommentError, match="gave up after 1 attempts"):
        upsert(commenter)
    assert len(github_api.calls("list_comments")) == 1
    assert sleeps.calls == []


def test_upsert__post_that_timed_out_but_landed_leaves_one_comment(
    github_api: FakeGitHub,
) -> None:
    github_api.inject("create_comment", Fault.server_error(502).applied_first().slow(2.0))
    commenter, sleeps = make_commenter(github_api, timeout=1)
    upsert(commenter)
    assert len(github_api.comments(7)) == 1
    assert len(github_api.calls("create_comment")) == 1
    assert sleeps.calls == [1.0]


def test_upsert__works_against_an_enterprise_server_prefix() -> None:
    with FakeGitHub(prefix="/api/v3") as fake:
        fake.add_pull(7)
        commenter, _ = make_commenter(fake)
        first = upsert(commenter, "one")
        second = upsert(commenter, "two", run_id=101)
        assert first == second == fake.comments(7)[0]["html_url"]
        assert bodies(fake) == ["two"]
        assert all(r.status < 400 or r.route == "get_user" for r in fake.requests)
