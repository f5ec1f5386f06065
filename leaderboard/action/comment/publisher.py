"""The pull request's sticky comment, as a publisher (`leaderboard.action.publish`).

PyGithub is imported lazily, from `leaderboard.action.comment.api`, only when a comment is
posted. A comment that cannot be posted (a fork's read-only token, an API outage) is one
warning; a bug while commenting is `publish_all`'s one warning, never a different status.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from leaderboard.action.event import Target
from leaderboard.action.publish import Links, Outcome
from leaderboard.action.runner import Log
from leaderboard.action.settings import Settings

__all__ = ["Comment", "Commenter", "make_commenter", "post"]


class Commenter(Protocol):
    """What the comment needs from `leaderboard.action.comment.api.GitHubCommenter`."""

    def upsert(
        self,
        *,
        pr_number: int,
        header: str,
        body: str,
        head_sha: str | None,
        run_id: int | None,
        require_head: bool = False,
    ) -> str: ...


@dataclass(frozen=True)
class Comment:
    """Post or update the sticky comment; outputs ``comment-url`` when posted."""

    settings: Settings
    commenter: Commenter | None
    target: Target
    log: Log
    what: str = "comment"

    def publish(self, outcome: Outcome, links: Links) -> dict[str, str]:
        """Post the rendered comment on the target pull request, if there is one."""
        url = post(
            self.settings, self.commenter, self.target, outcome.texts.comment, self.log
        )
        return {"comment-url": url} if url else {}


def post(
    settings: Settings, commenter: Commenter | None, target: Target, body: str, log: Log
) -> str | None:
    """Post or update the sticky comment; warn (once) and return None if that fails."""
    if target.pr_number is None:
        log.info(
            f"event {settings.event_name or '(none)'}: no pull request, so no comment "
            "(job summary and outputs only)"
        )
        return None
    if not settings.comment:
        log.info(f"comment: false, so no comment on #{target.pr_number}")
        return None
    if commenter is None:
        log.warning(
            f"comment not posted on #{target.pr_number}: no github-token or "
            "GITHUB_REPOSITORY; the job summary has the report",
            title="leaderboard: comment not posted",
        )
        return None
    from leaderboard.action.comment.api import CommentError  # noqa: PLC0415 - keeps PyGithub lazy

    # Passed only when needed, so that commenters written before it keep working.
    check = {"require_head": True} if target.unconfirmed else {}
    try:
        url = commenter.upsert(
            pr_number=target.pr_number,
            header=settings.comment_header,
            body=body,
            head_sha=target.head_sha,
            run_id=target.run_id,
            **check,
        )
    except CommentError as exc:
        log.warning(
            f"comment not posted on #{target.pr_number}: {exc}. The job summary and the "
            "outputs have the report; for pull requests from forks see the two-workflow "
            "recipe (examples/workflows/leaderboard-fork-safe-*.yml)",
            title="leaderboard: comment not posted",
        )
        return None
    log.info(f"comment: {url}")
    return url


def make_commenter(settings: Settings) -> Commenter | None:
    """The PyGithub commenter, or None without a token or repository."""
    if not settings.github_token or not settings.repository:
        return None
    from leaderboard.action.comment.api import GitHubCommenter  # noqa: PLC0415 - keeps PyGithub lazy

    return GitHubCommenter(
        token=settings.github_token,
        api_url=settings.api_url,
        repository=settings.repository,
        bot_login=settings.bot_login,
    )
