"""The one GitHub client: PyGithub, opened one way (`open_client`), one call run one way
(`attempt`), and which failures are GitHub's or the network's doing.

`leaderboard.action.comment.api` (the sticky comment), `leaderboard.action.status.api`
(the status and the labels) and `leaderboard.action.history.gitdata` (the kept
history's Git Data requests) make every request through it; all three load it only
when they make one, so neither the command line nor an action run without a request
loads PyGithub.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

from github import Auth, BadAttributeException, Github, GithubException
from github.AuthenticatedUser import AuthenticatedUser
from github.NamedUser import NamedUser
from github.PullRequest import PullRequest

from leaderboard.action.client.retry import Failure, classify

__all__ = [
    "GITHUB_FAILURES",
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
#: last three only when `unreadable_answer` says so). A lost connection is an
#: ``OSError``: requests' own exceptions (PyGithub's transport) derive from it.
GITHUB_FAILURES = (GithubException, OSError, *_UNREADABLE)
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
    return isinstance(exc, (GithubException, OSError))


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
    except OSError as exc:  # requests.RequestException included
        reason = f"connection failed ({type(exc).__name__})"
        raise Failure(what, 0, reason, transient=True) from None
    except _UNREADABLE as exc:
        if not unreadable or not unreadable_answer(exc):
            raise
        reason = f"an answer that could not be read ({type(exc).__name__})"
        raise Failure(what, 0, reason, transient=False) from None
