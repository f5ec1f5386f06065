"""What the PyGithub clients share: their connection and retry budget (`Client`), one
way to open a client and one way to run a call.

`leaderboard.action.comment.api` (the sticky comment) and
`leaderboard.action.status.api` (the status and the labels) import it; both are
imported lazily, so the command line never loads PyGithub.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

import requests
from github import Auth, BadAttributeException, Github, GithubException
from github.AuthenticatedUser import AuthenticatedUser
from github.NamedUser import NamedUser
from github.PullRequest import PullRequest

from leaderboard.action.client.retry import Failure, Retrier, classify

__all__ = [
    "GITHUB_FAILURES",
    "Client",
    "UnreadableAnswer",
    "attempt",
    "head_sha_of",
    "is_repository",
    "login_of",
    "open_client",
    "unreadable_answer",
    "wire_failure",
]

T = TypeVar("T")
#: What PyGithub raises on an answer it cannot read: a body that is not JSON
#: (``ValueError``), a field of the wrong type (``BadAttributeException``), and, raised
#: inside PyGithub while it parses an answer of another shape, ``TypeError``,
#: ``KeyError`` or ``AttributeError`` (`unreadable_answer` tells those from bugs).
_UNREADABLE = (ValueError, BadAttributeException, TypeError, KeyError, AttributeError)
#: The failures a request can meet that are GitHub's or the network's doing (the
#: last three only when `unreadable_answer` says so).
GITHUB_FAILURES = (GithubException, requests.RequestException, OSError, *_UNREADABLE)
_PARSING_ONLY = (TypeError, KeyError, AttributeError)


class UnreadableAnswer(ValueError):
    """An answer of another shape than GitHub documents, found where it is read (a
    comment without an id, a pull request without a head): GitHub's doing, not a bug."""


def head_sha_of(pull: PullRequest) -> str:
    """A pull request's head commit; `UnreadableAnswer` when the answer has none."""
    head = pull.head
    sha = head.sha if head is not None else None
    if not isinstance(sha, str):
        raise UnreadableAnswer("the answer names no head commit")
    return sha


def login_of(user: AuthenticatedUser | NamedUser) -> str:
    """A user's login; `UnreadableAnswer` when the answer names none."""
    login = user.login
    if not isinstance(login, str):
        raise UnreadableAnswer("the answer names no login")
    return login


def wire_failure(exc: BaseException) -> bool:
    """Whether `exc` is GitHub's answer or the network failing (not a parsing error)."""
    return isinstance(exc, (GithubException, requests.RequestException, OSError))


def unreadable_answer(exc: BaseException) -> bool:
    """Whether `exc` says an answer could not be read, rather than a bug in our code.

    ``ValueError`` and ``BadAttributeException`` always do. A ``TypeError``,
    ``KeyError`` or ``AttributeError`` does only when it was raised inside PyGithub
    (its ``github`` package parsing a body of another shape than GitHub documents);
    raised in this action's own code it is a bug, which must propagate (exit 3, or
    `publish_all`'s one warning), never read as "GitHub failed".
    """
    if not isinstance(exc, _PARSING_ONLY):
        return isinstance(exc, (ValueError, BadAttributeException))
    trace = exc.__traceback__
    if trace is None:
        return False
    while trace.tb_next is not None:
        trace = trace.tb_next
    module = str(trace.tb_frame.f_globals.get("__name__", ""))
    return module == "github" or module.startswith("github.")


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

    A GitHub answer is classified by `leaderboard.action.client.retry.classify`; a lost
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
    except _UNREADABLE as exc:
        if not unreadable or not unreadable_answer(exc):
            raise
        reason = f"an answer that could not be read ({type(exc).__name__})"
        raise Failure(what, 0, reason, transient=False) from None
