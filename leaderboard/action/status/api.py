"""The commit status and the pull request's labels, through PyGithub.

Imported lazily (from the publishers), as `leaderboard.action.comment.api` is, so that
the command line never loads PyGithub. Two requests matter:

- ``POST /repos/{owner}/{repo}/statuses/{sha}``: a new status for (commit, context);
  the latest one per context is what the checks list shows, so a re-run replaces its
  own verdict and two headers keep two lines. Safe to retry: a second POST of the
  same status only repeats it.
- ``GET /repos/{owner}/{repo}/issues/{number}/labels``: the labels the pull request
  carries now (the event's copy is as old as the event: a label added since, or a
  re-run, would be missed).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

from github import Github

from leaderboard.action.client.connection import (
    GITHUB_FAILURES,
    Client,
    attempt,
    head_sha_of,
    is_repository,
    unreadable_answer,
    wire_failure,
)
from leaderboard.action.client.retry import Failure
from leaderboard.action.status.plan import StatusPlan

__all__ = ["GitHubStatuses", "StatusError"]

T = TypeVar("T")


class StatusError(Exception):
    """A status not set or labels not read; ``status`` is GitHub's answer (0: none)."""

    def __init__(self, message: str, status: int = 0) -> None:
        super().__init__(message)
        self.status = status


class GitHubStatuses(Client):
    """Sets commit statuses and reads a pull request's labels and head.

    Parameters
    ----------
    token : str
        The API token.
    api_url : str
        ``GITHUB_API_URL``.
    repository : str
        ``owner/name``.
    sleep : callable
        How to wait between retries; tests pass a recorder.
    max_wait : float
        Upper bound, in seconds, on the waiting of one call.
    clock : callable
        Current UNIX time, to read ``x-ratelimit-reset``.
    max_attempts : int
        Attempts per request.
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
        max_wait: float = 30.0,
        clock: Callable[[], float] = time.time,
        max_attempts: int = 3,
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

    def set_status(self, sha: str, plan: StatusPlan) -> str:
        """Create the status on ``sha``; return its context.

        Raises
        ------
        StatusError
            Refused (403 without ``statuses: write`` or with a fork's token, 422 for
            a commit GitHub does not know), or no answer after the retries.
        """

        def post(gh: Github) -> str:
            commit = gh.get_repo(self._repository).get_commit(sha)  # lazy: no request
            status = commit.create_status(
                state=plan.state,
                description=plan.description,
                context=plan.context,
                **({"target_url": plan.target_url} if plan.target_url else {}),
            )
            return str(status.context)

        return self._run("set the commit status", post)

    def labels(self, pr_number: int) -> list[str]:
        """The names of the labels pull request ``pr_number`` carries now."""

        def read(gh: Github) -> list[str]:
            issue = gh.get_repo(self._repository).get_issue(pr_number)  # lazy
            labels = issue.get_labels()
            return [label.name for label in labels if isinstance(label.name, str)]

        return self._run(f"read the labels of #{pr_number}", read)

    def head(self, pr_number: int) -> str:
        """The head commit of pull request ``pr_number``."""

        def read(gh: Github) -> str:
            return head_sha_of(gh.get_repo(self._repository).get_pull(pr_number))

        return self._run(f"read the head commit of #{pr_number}", read)

    def _run(self, what: str, request: Callable[[Github], T]) -> T:
        if not is_repository(self._repository):
            raise StatusError(f"repository {self._repository!r} is not owner/name")
        self.retrier.reset()
        try:
            with self._open() as gh:
                return self.retrier.call(
                    lambda: attempt(
                        what, lambda: request(gh), self._clock, unreadable=False
                    )
                )
        except Failure as failure:
            said = f"{failure.status} {failure.reason}".strip() if failure.status else ""
            why = said or failure.reason
            tail = f"; {failure.gave_up}" if failure.gave_up else ""
            raise StatusError(
                self._scrub(f"could not {what}: {why}{tail}"), failure.status
            ) from None
        except GITHUB_FAILURES as exc:
            if not unreadable_answer(exc) and not wire_failure(exc):
                raise  # a bug of ours: never "GitHub failed"
            raise StatusError(
                self._scrub(f"could not {what}: unexpected answer ({type(exc).__name__})")
            ) from None
