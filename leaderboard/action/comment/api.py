"""The sticky pull-request comment: the only module that talks to GitHub (via PyGithub).

One comment per (pull request, header), written by the token's own identity and edited
in place; its hidden marker and stamp come from `markers`, its retries from `client.retry`.
PyGithub's own retries and request spacing are switched off (``retry=None``,
``seconds_between_*=None``): every wait goes through the injected ``sleep`` and counts
against ``max_wait``.

How one `GitHubCommenter.upsert` goes:

1. Find the token's login: ``GET /user``; an installation token (the workflow's
   ``GITHUB_TOKEN``) gets 403 there and is ``github-actions[bot]`` unless
   ``bot_login`` says otherwise; the author of a comment we create corrects it.
2. List every page of comments; ours start with the marker and are written by us.
   A human comment quoting the marker is never touched.
3. None: POST. A POST is never retried blindly: after a failure the comments are
   listed again and a comment that landed is adopted. Then list once more: if a
   racing run posted too, every run keeps the comment with the newest content and
   deletes the others (never copying a body it did not compute itself).
4. Some: read the pull request's head. A run for a commit that is no longer the head,
   or an earlier run for the same commit, leaves the comment alone; otherwise the
   oldest one is edited (re-created if it was deleted meanwhile) and extras deleted.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from github import Github
from github.Issue import Issue
from github.IssueComment import IssueComment
from github.Repository import Repository

from leaderboard.action.client.connection import (
    GITHUB_FAILURES,
    Client,
    UnreadableAnswer,
    attempt,
    head_sha_of,
    is_repository,
    login_of,
    unreadable_answer,
    wire_failure,
)
from leaderboard.action.client.retry import Failure
from leaderboard.action.comment.markers import (
    MAX_COMMENT_CHARS,
    Stamp,
    compose,
    rank,
    should_write,
    sticky_marker,
)

__all__ = ["DEFAULT_BOT_LOGIN", "CommentError", "GitHubCommenter", "sticky_marker"]

log = logging.getLogger(__name__)
DEFAULT_BOT_LOGIN = "github-actions[bot]"
_ROUNDS = 4
T = TypeVar("T")


class CommentError(Exception):
    """The comment could not be posted; the message says why and never holds the token."""


@dataclass(frozen=True)
class _Own:
    """One of our sticky comments, as listed."""

    comment: IssueComment
    id: int
    body: str
    html_url: str
    stamp: Stamp

    def rank(self, head: str | None) -> tuple[bool, int, int]:
        return rank(self.stamp, self.id, head)


class GitHubCommenter(Client):
    """Keeps one sticky comment per (pull request, header) up to date.

    Parameters
    ----------
    token : str
        The API token (the workflow's ``GITHUB_TOKEN`` or a personal access token).
    api_url : str
        ``GITHUB_API_URL``, e.g. ``https://api.github.com``.
    repository : str
        ``owner/name``.
    sleep : callable
        How to wait between retries; tests pass a recorder.
    max_wait : float
        Upper bound, in seconds, on the total waiting of one `upsert`.
    bot_login : str, optional
        The token's login when ``GET /user`` is refused (an installation token);
        default ``github-actions[bot]``, the identity of the workflow's token.
    clock : callable
        Current UNIX time, to read ``x-ratelimit-reset``.
    max_attempts : int
        Attempts per request before giving up.
    timeout : int
        Seconds before one request times out.
    """

    def __init__(
        self,
        *,
        token: str,
        api_url: str,
        repository: str,
        sleep: Callable[[float], None] = time.sleep,
        max_wait: float = 60.0,
        bot_login: str | None = None,
        clock: Callable[[], float] = time.time,
        max_attempts: int = 5,
        timeout: int = 15,
    ) -> None:
        super().__init__(
            token=token,
            api_url=api_url,
            repository=repository,
            sleep=sleep,
            max_wait=max_wait,
            clock=clock,
            max_attempts=max_attempts,
            timeout=timeout,
        )
        # Given, or learned from GET /user or from the author of a comment we created.
        self._login: str | None = bot_login
        self.last_action = ""  # created | updated | unchanged | kept-newer

    def upsert(
        self,
        *,
        pr_number: int,
        header: str,
        body: str,
        head_sha: str | None,
        run_id: int | None,
        require_head: bool = False,
    ) -> str:
        """Create or edit the sticky comment and return its ``html_url``.

        Parameters
        ----------
        pr_number : int
            The pull request.
        header : str
            Tells apart several sticky comments on one pull request.
        body : str
            The rendered markdown; the marker and the stamp are put in front of it.
        head_sha : str or None
            The commit the body was computed for; once the pull request has moved
            past it, an existing comment is no longer overwritten.
        run_id : int or None
            ``GITHUB_RUN_ID``; among runs for one commit, the later run wins.
        require_head : bool
            Post only if ``pr_number`` is a pull request whose head is ``head_sha``:
            for a number nothing vouches for (the fork-safe recipe reads it from an
            artifact the pull request's own code wrote), so that a fork cannot have
            its numbers posted on another pull request or issue.

        Returns
        -------
        str
            The ``html_url`` of the comment that now stands for ``header``.

        Raises
        ------
        CommentError
            The token is refused (401) or may not write (403, e.g. a fork's read-only
            token), the comment is refused (422) or too long, or retries ran out.
        """
        stamp = Stamp(head_sha, run_id)
        text = compose(header, stamp, body)
        where = f"pull request #{pr_number} of {self._repository}"
        if len(text) > MAX_COMMENT_CHARS:
            raise CommentError(
                f"{where}: the comment has {len(text):,} characters, over GitHub's "
                f"limit of {MAX_COMMENT_CHARS:,}"
            )
        if not is_repository(self._repository):
            raise CommentError(f"repository {self._repository!r} is not owner/name")
        self.retrier.reset()
        try:
            with self._open() as gh:
                run = _Run(self, gh.get_repo(self._repository), pr_number, header)
                run.me = self._identity(gh)
                if require_head:
                    run.require_head(head_sha)
                return run.upsert(text, stamp)
        except Failure as failure:
            raise CommentError(self._scrub(f"{where}: {_explain(failure)}")) from None
        except GITHUB_FAILURES as exc:
            # A lazy attribute read outside `_call` (PyGithub completes objects on
            # demand): still only a comment that could not be posted, never a crash
            # that would hide the gate's exit status. A bug of ours propagates.
            if not unreadable_answer(exc) and not wire_failure(exc):
                raise
            raise CommentError(
                self._scrub(
                    f"{where}: unexpected answer from GitHub ({type(exc).__name__})"
                )
            ) from None

    def _identity(self, gh: Github) -> str:
        if self._login is None:
            try:
                self._login = self._call(
                    "read the token's identity", lambda: login_of(gh.get_user())
                )
            except Failure as failure:
                if failure.status != 403:
                    raise
                # An installation token may not read GET /user (403).
                self._login = DEFAULT_BOT_LOGIN
        return self._login

    def _call(self, what: str, request: Callable[[], T], *, retry: bool = True) -> T:
        """Run one PyGithub call; its failures become `Failure`s, retried if transient."""

        def once() -> T:
            return attempt(what, request, self._clock)

        return self.retrier.call(once, retry=retry)


class _Run:
    """One upsert: the listing, the decision, the writes and the clean-up."""

    def __init__(
        self, owner: GitHubCommenter, repo: Repository, pr_number: int, header: str
    ) -> None:
        self.owner, self.repo, self.pr_number = owner, repo, pr_number
        self.marker = sticky_marker(header)
        self.issue: Issue = repo.get_issue(pr_number)
        self.me = DEFAULT_BOT_LOGIN
        self.posts = 0

    def upsert(self, text: str, stamp: Stamp) -> str:
        # Rounds end early when a POST's fate is unknown or the comment vanished before
        # the edit; POST attempts are bounded by the retrier, the rest by _ROUNDS.
        for _ in range(_ROUNDS + self.owner.retrier.max_attempts):
            own = self.list_own()
            if not own:
                created = self.create(text)
                if created is None:  # the POST may have landed: list again, never re-POST
                    continue
                self.owner.last_action = "created"
                return self.settle(created.html_url)
            head = self.head() if stamp.sha else None
            newest = max(own, key=lambda c: c.rank(head))
            if not should_write(stamp, newest.stamp, head):
                log.info("comment %s shows a newer run's results; leaving it", newest.id)
                self.owner.last_action = "kept-newer"
                return self.dedupe(own, head)
            kept = own[0]
            if kept.body == text:
                self.owner.last_action = "unchanged"
            elif self.edit(kept, text):
                self.owner.last_action = "updated"
            else:
                continue  # deleted between the listing and the edit: start over
            for extra in own[1:]:
                self.delete(extra)
            return kept.html_url
        raise Failure("keep one comment", 0, "the comments kept changing", transient=False)

    def list_own(self) -> list[_Own]:
        comments = self.owner._call(
            "list the comments", lambda: list(self.issue.get_comments())
        )
        me = self.me.lower()
        own = [
            _Own(c, c.id, c.body, c.html_url, Stamp.parse(c.body))
            for c in comments
            if (c.body or "").startswith(self.marker)
            and c.user is not None
            and c.user.login.lower() == me
        ]
        return sorted(own, key=lambda c: c.id)

    def head(self) -> str | None:
        try:
            sha: str = self.owner._call(
                "read the pull request's head commit",
                lambda: head_sha_of(self.repo.get_pull(self.pr_number)),
            )
        except Failure as failure:
            if failure.status not in {403, 404}:
                raise
            # An issue rather than a pull request (404), or a token with issues: write
            # but no pull-requests: read (403): order runs by their run id alone.
            return None
        return sha

    def require_head(self, sha: str | None) -> None:
        """Refuse unless the pull request's head commit is ``sha``."""
        head = self.head()
        if sha is None or head != sha:
            now = f"is {head[:7]}" if head else "cannot be read (not a pull request?)"
            raise Failure(
                "check the pull request number",
                0,
                f"the head of #{self.pr_number} {now}, not {(sha or '?')[:7]}, the "
                "commit these results are for (pushed since, or pr-number does not "
                "name the pull request of the run that made the results)",
                transient=False,
            )

    def create(self, text: str) -> IssueComment | None:
        def post() -> IssueComment:
            made = self.issue.create_comment(text)
            if not isinstance(made.html_url, str) or not isinstance(made.id, int):
                raise UnreadableAnswer("the answer to the POST is not a comment")
            return made

        try:
            created = self.owner._call("create the comment", post, retry=False)
        except Failure as failure:
            if not failure.transient:
                raise
            self.posts += 1
            self.owner.retrier.pause(failure, self.posts)
            return None
        login = created.user.login if created.user is not None else self.me
        if login.lower() != self.me.lower():
            log.info("the token writes as %s, not %s", login, self.me)
            self.me = self.owner._login = login
        return created

    def edit(self, own: _Own, text: str) -> bool:
        try:
            self.owner._call("edit the comment", lambda: own.comment.edit(text))
        except Failure as failure:
            if failure.status != 404:
                raise
            return False
        return True

    def delete(self, own: _Own) -> None:
        try:
            self.owner._call("delete a duplicate comment", own.comment.delete)
        except Failure as failure:
            if failure.status != 404:  # already gone: a racing run removed it
                raise

    def settle(self, fallback_url: str) -> str:
        """After a POST: if a racing run posted too, keep one comment."""
        own = self.list_own()
        if len(own) <= 1:
            return own[0].html_url if own else fallback_url
        return self.dedupe(own, self.head())

    def dedupe(self, own: list[_Own], head: str | None) -> str:
        """Keep the comment with the newest content; delete the other copies.

        Never copies one comment's body into another: a body this run did not
        compute may be forged (another workflow that lets a pull request's author
        choose a bot comment's text can carry the marker and a stamp), and copying it
        would put the forgery into the real comment. Every racing run ranks the
        comments alike, so all keep the same one.
        """
        newest = max(own, key=lambda c: c.rank(head))
        for extra in own:
            if extra is not newest:
                self.delete(extra)
        return newest.html_url


def _explain(failure: Failure) -> str:
    said = (
        f"{failure.status} {failure.reason}".strip() if failure.status else failure.reason
    )
    if failure.status == 401:
        return f"GitHub refused the token ({said}); check the github-token input"
    if failure.status == 403 and not failure.transient:
        return (
            f"the token may not {failure.what} ({said}); a pull request from a fork "
            "gets a read-only token"
        )
    if failure.transient:
        return f"could not {failure.what}: {said}; {failure.gave_up}"
    if not failure.status:
        return f"could not {failure.what}: {said}"
    return f"could not {failure.what}: GitHub answered {said}"
