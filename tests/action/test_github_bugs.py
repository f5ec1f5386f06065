"""A bug in the action's own code while talking to GitHub is a bug, never "GitHub failed".

Before, the PyGithub clients counted every ``TypeError``, ``KeyError`` and
``AttributeError`` as an answer GitHub got wrong: a typo in the action's code became
"comment not posted: unexpected answer from GitHub". Now only those raised inside
PyGithub (parsing an answer of another shape) or found where an answer is read
(`UnreadableAnswer`) are GitHub's; the rest propagate.
"""

from __future__ import annotations

import pytest

import leaderboard.action.comment.api as comments_module
import leaderboard.action.status.api as status_module
from leaderboard.action.client.connection import UnreadableAnswer, unreadable_answer
from leaderboard.action.status.api import GitHubStatuses, StatusError
from tests.action.github_support import REPOSITORY, Sleeps, make_commenter
from tests.fakes.github_api import INSTALLATION_TOKEN, FakeGitHub, Fault


def _bug(*_args: object) -> str:
    raise KeyError("a typo in the action")


def test_upsert__a_bug_inside_a_call_propagates(
    github_api: FakeGitHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(comments_module, "login_of", _bug)
    commenter, _ = make_commenter(github_api, bot_login=None)
    with pytest.raises(KeyError, match="a typo in the action"):
        commenter.upsert(
            pr_number=7, header="leaderboard", body="x", head_sha="a" * 40, run_id=1
        )


def test_statuses__a_bug_inside_a_call_propagates(
    github_api: FakeGitHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(status_module, "head_sha_of", _bug)
    client = GitHubStatuses(
        token=INSTALLATION_TOKEN,
        api_url=github_api.base_url,
        repository=REPOSITORY,
        sleep=Sleeps(),
    )
    with pytest.raises(KeyError, match="a typo in the action"):
        client.head(7)


def test_statuses__an_answer_of_another_shape_is_still_github_s(
    github_api: FakeGitHub,
) -> None:
    github_api.inject("get_pull", Fault(status=200, message="<html>maintenance</html>"))
    client = GitHubStatuses(
        token=INSTALLATION_TOKEN,
        api_url=github_api.base_url,
        repository=REPOSITORY,
        sleep=Sleeps(),
    )
    with pytest.raises(StatusError, match=r"could not read the head commit of #7"):
        client.head(7)


def test_unreadable_answer__tells_pygithub_s_parsing_from_our_code() -> None:
    from github.IssueComment import IssueComment  # noqa: PLC0415

    with pytest.raises(AttributeError) as inside:  # PyGithub parsing a non-object body
        IssueComment(requester=None, headers={}, attributes="x", completed=True)  # type: ignore[arg-type]
    assert unreadable_answer(inside.value)
    with pytest.raises(AttributeError) as ours:
        _ = None.sha  # type: ignore[attr-defined]  # the same error, in our own code
    assert not unreadable_answer(ours.value)
    assert not unreadable_answer(KeyError("ours"))  # no traceback: never GitHub's
    assert unreadable_answer(UnreadableAnswer("no head"))
    assert unreadable_answer(ValueError("not JSON"))
