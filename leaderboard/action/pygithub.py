"""What the PyGithub clients share: their connection and retry budget (`Client`), one
way to open a client and one way to run a call.

`leaderboard.action.comments` (the sticky comment) and
`leaderboard.action.commit_status` (the status and the labels) import it; both are
imported lazily, so the command line never loads PyGithub.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

import requests
from github import Auth, BadAttributeException, Github, GithubException

from leaderboard.action.retry import Failure, Retrier, classify

__all__ = ["UNEXPECTED", "UNREADABLE", "Client", "attempt", "is_repository", "open_client"]

T = TypeVar("T")
#: What PyGithub raises on an answer it cannot read (a lazy attribute, a bad field).
UNREADABLE = (ValueError, TypeError, KeyError, AttributeError, BadAttributeException)
#: Everything a request can raise that is GitHub's or the network's doing, not a bug.
UNEXPECTED = (GithubException, requests.RequestException, OSError, *UNREADABLE)
_REPOSITORY = re.compile(r"[\w.-]+/[\w.-]+")


def is_repository(name: str) -> bool:
    """Whether `name` is ``owner/name`` (it becomes part of every request's path)."""
    return _REPOSITORY.fullmatch(name) is not None


def open_client(*, api_url: str, token: str, timeout: int) -> Github:
    """A PyGithub client that neither retries nor paces itself (`retry` does both)."""
    return Github(
        base_url=api_url,
        auth=Auth.Token(token),
        timeout=timeout,
        user_agent="leaderboard-action",
        per_page=100,
        retry=None,
        seconds_between_requests=None,
        seconds_between_writes=None,
        lazy=True,
    )


class Client:
    """What both PyGithub clients hold: where they send, the token, one retry budget.

    The token stays on the instance: `repr` shows ``token='***'`` and `_scrub` takes
    it out of any text bound for a log or an exception. Each subclass keeps its own
    budget's defaults in its own signature.
    """

    def __init__(
        self,
        *,
        token: str,
        api_url: str,
        repository: str,
        sleep: Callable[[float], None],
        max_wait: float,
        clock: Callable[[], float],
        max_attempts: int,
        timeout: int,
    ) -> None:
        self._token = token
        self._api_url = api_url.rstrip("/")
        self._repository = repository
        self._clock = clock
        self._timeout = timeout
        self.retrier = Retrier(sleep=sleep, max_wait=max_wait, max_attempts=max_attempts)

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(api_url={self._api_url!r}, "
            f"repository={self._repository!r}, token='***')"
        )

    def _open(self) -> Github:
        """A new client for one operation (`open_client`)."""
        return open_client(api_url=self._api_url, token=self._token, timeout=self._timeout)

    def _scrub(self, text: str) -> str:
        return text.replace(self._token, "***") if self._token else text


def attempt(
    what: str,
    request: Callable[[], T],
    clock: Callable[[], float],
    *,
    unreadable: bool = True,
) -> T:
    """Run one PyGithub call; its failures become `Failure`s (transient ones retried).

    A GitHub answer is classified by `leaderboard.action.retry.classify`; a lost
    connection is transient; with `unreadable`, an answer PyGithub cannot read is a
    permanent `Failure` too (else it propagates as it is).
    """
    try:
        return request()
    except GithubException as exc:
        raise classify(what, exc.status, exc.headers, exc.data, clock()) from None
    except (requests.RequestException, OSError) as exc:
        reason = f"connection failed ({type(exc).__name__})"
        raise Failure(what, 0, reason, transient=True) from None
    except UNREADABLE as exc:
        if not unreadable:
            raise
        reason = f"an answer that could not be read ({type(exc).__name__})"
        raise Failure(what, 0, reason, transient=False) from None
