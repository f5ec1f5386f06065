"""An answer PyGithub cannot read is a comment not posted, never a crash.

Found in review: a 200 answer that is not the JSON GitHub documents (a proxy's HTML
page, a truncated body) made PyGithub raise TypeError or ValueError, which escaped
`GitHubCommenter.upsert`; the action then printed a traceback and exited 3, hiding
the gate's status (1 for a regression) that the contract says a comment failure
never hides.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from leaderboard.action.comment.api import CommentError
from leaderboard.action.comment.markers import sticky_marker
from leaderboard.action.job import run
from leaderboard.action.settings import Settings
from tests.action import action_helpers
from tests.action.github_support import REPOSITORY, make_commenter
from tests.action.test_action_run import PR_EVENT, REGRESSED
from tests.fakes.github_api import BOT_LOGIN, INSTALLATION_TOKEN, FakeGitHub, Fault

NOT_JSON_SHAPE = Fault(status=200, message="<html>down for maintenance</html>")


def seed_sticky(fake: FakeGitHub) -> None:
    body = f"{sticky_marker('leaderboard')}\n<!-- leaderboard-action:stamp sha=- run=1 -->"
    fake.add_comment(7, body + "\n\nold", login=BOT_LOGIN, user_type="Bot")


@pytest.mark.parametrize(
    ("route", "seeded"),
    [
        ("list_comments", False),
        ("create_comment", False),
        ("get_pull", True),
        ("get_user", False),
    ],
)
def test_upsert__unreadable_answer_is_a_comment_error(
    github_api: FakeGitHub, route: str, seeded: bool
) -> None:
    if seeded:
        seed_sticky(github_api)
    github_api.inject(route, NOT_JSON_SHAPE)
    commenter, _ = make_commenter(github_api, bot_login=None)
    with pytest.raises(CommentError, match="pull request #7") as info:
        commenter.upsert(
            pr_number=7, header="leaderboard", body="new", head_sha="a" * 40, run_id=9
        )
    assert INSTALLATION_TOKEN not in str(info.value)


def test_action__unreadable_answer__warning_and_the_gate_status_stays(
    github_api: FakeGitHub, tmp_path: Path
) -> None:
    github_api.inject("list_comments", NOT_JSON_SHAPE)
    files = tmp_path / "file_commands"
    files.mkdir()
    settings = Settings(
        results=(),
        github_token=INSTALLATION_TOKEN,
        repository=REPOSITORY,
        event_name="pull_request",
        run_id=99,
        workspace=tmp_path,
        output_path=files / "output",
        summary_path=files / "summary",
    )
    commenter, _ = make_commenter(github_api)
    out = io.StringIO()
    code = run(REGRESSED(settings), commenter, event=PR_EVENT, out=out)
    assert code == 1  # the regression, not 3
    kinds = [a[0] for a in action_helpers.annotations(out.getvalue())]
    assert kinds == ["error", "warning"]  # the regression, then the comment not posted
    assert "could not be read" in out.getvalue()
