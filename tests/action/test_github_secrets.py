"""The token never shows: not in logs, errors, reprs, tracebacks or recorded requests."""

from __future__ import annotations

import logging
import traceback
from concurrent.futures import ThreadPoolExecutor

import pytest

from leaderboard.action.comment.api import CommentError, GitHubCommenter
from tests.action.github_support import make_commenter
from tests.fakes.github_api import (
    INSTALLATION_TOKEN,
    PAT_TOKEN,
    READ_ONLY_TOKEN,
    FakeGitHub,
    Fault,
)

BAD_TOKEN = "ghs_FAKEunknownSECRETzz0123456789abcdef"  # noqa: S105 - a fake token
TOKENS = (INSTALLATION_TOKEN, PAT_TOKEN, READ_ONLY_TOKEN, BAD_TOKEN)


def everything_said(
    fake: FakeGitHub,
    commenters: list[GitHubCommenter],
    errors: list[BaseException],
    caplog: pytest.LogCaptureFixture,
    capsys: pytest.CaptureFixture[str],
) -> str:
    out, err = capsys.readouterr()
    parts = [out, err, caplog.text, repr(fake.requests)]
    parts += [f"{r.getMessage()} {r.args!r}" for r in caplog.records]
    parts += [repr(c) + str(c) for c in commenters]
    for error in errors:
        parts += [str(error), repr(error), *traceback.format_exception(error)]
    return "\n".join(parts)


def test_secrets__token_never_appears_anywhere(
    github_api: FakeGitHub,
    caplog: pytest.LogCaptureFixture,
    capsys: pytest.CaptureFixture[str],
) -> None:
    caplog.set_level(logging.DEBUG)  # urllib3 and our own debug logs too
    caplog.set_level(logging.DEBUG, logger="github")  # PyGithub pins its own to INFO
    commenters: list[GitHubCommenter] = []
    errors: list[BaseException] = []

    def attempt(token: str, **kwargs: object) -> None:
        commenter, _ = make_commenter(github_api, token=token)
        commenters.append(commenter)
        args: dict[str, object] = {
            "pr_number": 7,
            "header": "leaderboard",
            "body": "b",
            "head_sha": "a" * 40,
            "run_id": 100,
        }
        args.update(kwargs)
        try:
            commenter.upsert(**args)  # type: ignore[arg-type]
        except CommentError as exc:
            errors.append(exc)

    attempt(INSTALLATION_TOKEN)
    attempt(PAT_TOKEN)
    attempt(READ_ONLY_TOKEN, body="changed")  # 403
    attempt(BAD_TOKEN)  # 401
    github_api.inject("list_comments", Fault.connection_reset(), Fault.server_error(502))
    github_api.inject("create_comment", Fault.server_error(502).applied_first())
    attempt(INSTALLATION_TOKEN, header="other", run_id=101)
    github_api.inject("list_comments", *[Fault.secondary_limit(429, 1)] * 5)
    attempt(INSTALLATION_TOKEN, run_id=102)  # exhausted retries
    attempt(INSTALLATION_TOKEN, body="x" * 70_000)  # too long
    attempt(INSTALLATION_TOKEN, pr_number=404)  # not found
    with ThreadPoolExecutor(max_workers=2) as pool:
        list(
            pool.map(
                lambda run: attempt(INSTALLATION_TOKEN, header="race", run_id=run),
                (200, 201),
            )
        )

    assert len(errors) == 5  # 403, 401, exhausted, too long, not found
    assert any(
        r.levelname == "DEBUG" and r.name.startswith("github") for r in caplog.records
    )
    said = everything_said(github_api, commenters, errors, caplog, capsys)
    for token in TOKENS:
        assert token not in said
        assert token[4:] not in said  # not even without its prefix


def test_secrets__repr_redacts_the_token() -> None:
    commenter = GitHubCommenter(
        token=PAT_TOKEN, api_url="https://api.github.com", repository="o/r"
    )
    assert PAT_TOKEN not in repr(commenter)
    assert "token='***'" in repr(commenter)
    assert PAT_TOKEN not in str(commenter)


def test_secrets__token_echoed_by_the_server_is_scrubbed(github_api: FakeGitHub) -> None:
    github_api.inject(
        "create_comment", Fault(status=400, message=f"token {INSTALLATION_TOKEN} is odd")
    )
    commenter, _ = make_commenter(github_api)
    with pytest.raises(CommentError) as info:
        commenter.upsert(pr_number=7, header="h", body="b", head_sha=None, run_id=None)
    assert INSTALLATION_TOKEN not in str(info.value)
    assert "token *** is odd" in str(info.value)


def test_secrets__authorization_header_was_sent_but_not_recorded(
    github_api: FakeGitHub,
) -> None:
    commenter, _ = make_commenter(github_api)
    commenter.upsert(pr_number=7, header="h", body="b", head_sha=None, run_id=None)
    assert all(r.status < 400 or r.route == "get_user" for r in github_api.requests)
    for request in github_api.requests:
        assert "authorization" not in {name.lower() for name in request.headers}
