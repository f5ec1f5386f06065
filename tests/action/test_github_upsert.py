"""The sticky comment through PyGithub's real client against the fake GitHub API."""

from __future__ import annotations

import pytest

from leaderboard.action.comment.api import CommentError, GitHubCommenter
from leaderboard.action.comment.markers import MAX_COMMENT_CHARS, sticky_marker
from tests.action.github_support import (
    SHA1,
    SHA2,
    make_commenter,
    stamp_of,
    sticky,
)
from tests.fakes.github_api import BOT_LOGIN, PAT_TOKEN, FakeGitHub


def upsert(commenter: GitHubCommenter, body: str = "results", **kwargs: object) -> str:
    args: dict[str, object] = {
        "pr_number": 7,
        "header": "leaderboard",
        "body": body,
        "head_sha": "a" * 40,
        "run_id": 100,
    }
    args.update(kwargs)
    return commenter.upsert(**args)  # type: ignore[arg-type]


def test_upsert__creates_one_comment_with_marker_and_stamp(github_api: FakeGitHub) -> None:
    commenter, sleeps = make_commenter(github_api)
    url = upsert(commenter, "the table")
    (comment,) = github_api.comments(7)
    assert url == comment["html_url"]
    assert comment["user"]["login"] == BOT_LOGIN
    assert comment["body"].startswith(sticky_marker("leaderboard") + "\n")
    assert comment["body"].endswith("\n\nthe table")
    assert stamp_of(comment).sha == "a" * 40
    assert stamp_of(comment).run == 100
    assert commenter.last_action == "created"
    assert sleeps.calls == []
    # PyGithub's own retry and spacing are off: no request was repeated.
    assert [r.route for r in github_api.requests] == [
        "get_user",
        "list_comments",
        "create_comment",
        "list_comments",
    ]


def test_upsert__edits_in_place_on_the_next_run(github_api: FakeGitHub) -> None:
    first_url = upsert(make_commenter(github_api)[0], "first", run_id=1)
    commenter, _ = make_commenter(github_api)
    second_url = upsert(commenter, "second", run_id=2)
    (comment,) = github_api.comments(7)
    assert first_url == second_url == comment["html_url"]
    assert comment["body"].endswith("second")
    assert commenter.last_action == "updated"
    assert len(github_api.calls("create_comment")) == 1
    assert len(github_api.calls("update_comment")) == 1


def test_upsert__same_content_is_not_rewritten(github_api: FakeGitHub) -> None:
    upsert(make_commenter(github_api)[0], "same")
    commenter, _ = make_commenter(github_api)
    upsert(commenter, "same")
    assert commenter.last_action == "unchanged"
    assert github_api.calls("update_comment") == []


def test_upsert__edits_own_comment_past_first_page(github_api: FakeGitHub) -> None:
    for i in range(120):
        github_api.add_comment(7, f"review chatter {i}")
    upsert(make_commenter(github_api)[0], "old")
    for i in range(230):
        github_api.add_comment(7, f"more chatter {i}")
    commenter, _ = make_commenter(github_api)
    upsert(commenter, "new", run_id=101)
    ours = sticky(github_api)
    assert len(ours) == 1
    assert ours[0]["body"].endswith("new")
    assert len(github_api.comments(7)) == 351
    lists = [r.path for r in github_api.calls("list_comments")]
    assert any("page=4" in path for path in lists)  # 351 comments: 4 pages of 100
    assert commenter.last_action == "updated"


def test_upsert__ignores_human_comment_quoting_marker(github_api: FakeGitHub) -> None:
    marker = sticky_marker("leaderboard")
    human = github_api.add_comment(7, f"{marker}\nwhy does the bot say this?")
    bot_like = github_api.add_comment(
        7, f"{marker}\nfake", login="evil[bot]", user_type="Bot"
    )
    upsert(make_commenter(github_api)[0], "ours")
    comments = {c["id"]: c for c in github_api.comments(7)}
    assert comments[human["id"]]["body"] == human["body"]
    assert comments[bot_like["id"]]["body"] == bot_like["body"]
    assert [c["user"]["login"] for c in sticky(github_api)] == [
        "octocat",
        "evil[bot]",
        BOT_LOGIN,
    ]


def test_upsert__other_headers_are_separate_comments(github_api: FakeGitHub) -> None:
    commenter, _ = make_commenter(github_api)
    upsert(commenter, "main board", header="leaderboard")
    upsert(commenter, "safety board", header="leaderboard-safety")
    upsert(commenter, "main board v2", header="leaderboard", run_id=101)
    assert len(github_api.comments(7)) == 2
    assert sticky(github_api, header="leaderboard")[0]["body"].endswith("main board v2")
    assert sticky(github_api, header="leaderboard-safety")[0]["body"].endswith(
        "safety board"
    )


def test_upsert__hostile_header_cannot_break_out_of_the_marker(
    github_api: FakeGitHub,
) -> None:
    header = "x --> <img src=x onerror=alert(1)> <!-- \n@org/team"
    upsert(make_commenter(github_api)[0], "body", header=header)
    body = github_api.comments(7)[0]["body"]
    marker_line, stamp_line = body.splitlines()[:2]
    for line in (marker_line, stamp_line):
        assert line.startswith("<!-- ")
        assert line.endswith(" -->")
        assert "--" not in line[4:-3]
        assert ">" not in line[:-1]
    upsert(make_commenter(github_api)[0], "again", header=header, run_id=101)
    assert len(github_api.comments(7)) == 1


def test_upsert__pat_identity_comes_from_get_user(github_api: FakeGitHub) -> None:
    bots = github_api.add_comment(
        7,
        sticky_marker("leaderboard") + "\nthe workflow token's",
        login=BOT_LOGIN,
        user_type="Bot",
    )
    upsert(make_commenter(github_api, token=PAT_TOKEN)[0], "by octocat")
    commenter, _ = make_commenter(github_api, token=PAT_TOKEN)
    upsert(commenter, "by octocat again", run_id=101)
    by_login = {c["user"]["login"]: c for c in sticky(github_api)}
    assert by_login[BOT_LOGIN] == bots  # not ours: untouched
    assert by_login["octocat"]["body"].endswith("by octocat again")
    assert commenter.last_action == "updated"
    assert len(github_api.calls("create_comment")) == 1


def test_upsert__app_token_identity_is_learned_from_the_created_comment(
    github_api: FakeGitHub,
) -> None:
    app_token = "ghs_FAKEcustomAPPtoken0123456789abcdef"  # noqa: S105 - a fake token
    github_api.add_token(app_token, login="leaderboard-app[bot]", user_type="Bot")
    upsert(make_commenter(github_api, token=app_token)[0], "first", run_id=1)
    commenter, _ = make_commenter(github_api, token=app_token)
    upsert(commenter, "second", run_id=2)
    (comment,) = github_api.comments(7)  # the duplicate made before learning is gone
    assert comment["body"].endswith("second")
    assert comment["user"]["login"] == "leaderboard-app[bot]"
    upsert(commenter, "third", run_id=3)  # learned now: edited without a new POST
    assert len(github_api.calls("create_comment")) == 2
    assert github_api.comments(7)[0]["body"].endswith("third")


def test_upsert__configured_bot_login_skips_get_user(github_api: FakeGitHub) -> None:
    app_token = "ghs_FAKEcustomAPPtoken0123456789abcdef"  # noqa: S105 - a fake token
    github_api.add_token(app_token, login="leaderboard-app[bot]", user_type="Bot")
    upsert(make_commenter(github_api, token=app_token)[0], "first", run_id=1)
    commenter, _ = make_commenter(
        github_api, token=app_token, bot_login="leaderboard-app[bot]"
    )
    upsert(commenter, "second", run_id=2)
    assert len(github_api.calls("get_user")) == 1  # only the first commenter asked
    assert len(github_api.calls("create_comment")) == 1
    assert commenter.last_action == "updated"


def test_upsert__newer_commit_replaces_older_results(github_api: FakeGitHub) -> None:
    github_api.set_head(7, SHA1)
    upsert(make_commenter(github_api)[0], "for sha1", head_sha=SHA1, run_id=100)
    github_api.set_head(7, SHA2)
    upsert(make_commenter(github_api)[0], "for sha2", head_sha=SHA2, run_id=101)
    (comment,) = github_api.comments(7)
    assert stamp_of(comment).sha == SHA2


def test_upsert__stale_run_does_not_overwrite_newer_results(github_api: FakeGitHub) -> None:
    github_api.set_head(7, SHA2)
    upsert(make_commenter(github_api)[0], "for sha2", head_sha=SHA2, run_id=101)
    commenter, _ = make_commenter(github_api)
    url = upsert(commenter, "for sha1", head_sha=SHA1, run_id=100)
    (comment,) = github_api.comments(7)
    assert url == comment["html_url"]
    assert comment["body"].endswith("for sha2")
    assert commenter.last_action == "kept-newer"
    assert github_api.calls("update_comment") == []


def test_upsert__earlier_run_for_same_commit_does_not_overwrite_later_run(
    github_api: FakeGitHub,
) -> None:
    upsert(make_commenter(github_api)[0], "later run", run_id=200)
    commenter, _ = make_commenter(github_api)
    upsert(commenter, "earlier run", run_id=199)
    assert github_api.comments(7)[0]["body"].endswith("later run")
    assert commenter.last_action == "kept-newer"


def test_upsert__existing_duplicates_are_merged_into_the_oldest(
    github_api: FakeGitHub,
) -> None:
    marker = sticky_marker("leaderboard")
    for run in (5, 6, 7):
        github_api.add_comment(
            7,
            f"{marker}\n<!-- leaderboard-action:stamp sha=- run={run} -->\n\nold {run}",
            login=BOT_LOGIN,
            user_type="Bot",
        )
    oldest = github_api.comments(7)[0]
    url = upsert(make_commenter(github_api)[0], "fresh", run_id=100)
    (comment,) = github_api.comments(7)
    assert comment["id"] == oldest["id"]
    assert url == oldest["html_url"]
    assert comment["body"].endswith("fresh")


def test_upsert__issue_without_pull_request_still_works(github_api: FakeGitHub) -> None:
    github_api.add_issue(12)
    url = upsert(make_commenter(github_api)[0], "on an issue", pr_number=12)
    upsert(make_commenter(github_api)[0], "again", pr_number=12, run_id=101)
    (comment,) = github_api.comments(12)
    assert url == comment["html_url"]
    assert comment["body"].endswith("again")


def test_upsert__body_over_the_limit_fails_before_any_request(
    github_api: FakeGitHub,
) -> None:
    commenter, _ = make_commenter(github_api)
    with pytest.raises(CommentError, match="65,536"):
        upsert(commenter, "x" * MAX_COMMENT_CHARS)
    assert github_api.requests == []


def test_upsert__body_just_under_the_limit_is_posted(github_api: FakeGitHub) -> None:
    commenter, _ = make_commenter(github_api)
    overhead = len(sticky_marker("leaderboard")) + 100
    upsert(commenter, "x" * (MAX_COMMENT_CHARS - overhead))
    assert len(github_api.comments(7)[0]["body"]) <= MAX_COMMENT_CHARS


def test_upsert__malformed_repository_is_a_comment_error(github_api: FakeGitHub) -> None:
    commenter, _ = make_commenter(github_api, repository="nope")
    with pytest.raises(CommentError, match="owner/name"):
        upsert(commenter)


def test_upsert__token_that_cannot_read_pulls_orders_by_run_id(
    github_api: FakeGitHub,
) -> None:
    issues_only = "ghs_FAKEissuesWRITEonly0123456789abcdef"
    github_api.add_token(issues_only, can_read_pulls=False)
    upsert(make_commenter(github_api, token=issues_only)[0], "run 101", run_id=101)
    commenter, _ = make_commenter(github_api, token=issues_only)
    upsert(commenter, "run 100", run_id=100)
    assert commenter.last_action == "kept-newer"
    upsert(commenter, "run 102", run_id=102)
    assert commenter.last_action == "updated"
    (comment,) = github_api.comments(7)
    assert comment["body"].endswith("run 102")
