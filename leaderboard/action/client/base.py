"""What every GitHub client of the action holds: where it sends, the token, one retry
budget (`Client`).

No PyGithub here: `Client._open` loads `leaderboard.action.client.connection` (and
PyGithub with it) when a client makes its first request, so that importing a client's
module costs nothing on a run that sends none.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar, NotRequired, TypedDict

from leaderboard.action.client.retry import Retrier

if TYPE_CHECKING:
    from github import Github

__all__ = ["Client", "ClientArgs"]


class ClientArgs(TypedDict):
    """`Client`'s keyword arguments, for a subclass that adds its own."""

    token: str
    api_url: str
    repository: str
    sleep: NotRequired[Callable[[float], None]]
    max_wait: NotRequired[float | None]
    clock: NotRequired[Callable[[], float]]
    max_attempts: NotRequired[int | None]
    timeout: NotRequired[float | None]


class Client:
    """What the PyGithub clients hold: where they send, the token, one retry budget.

    The token stays on the instance: `repr` shows ``token='***'`` and `_scrub` takes
    it out of any text bound for a log or an exception. Each subclass sets its own
    budget's defaults (`MAX_WAIT`, `MAX_ATTEMPTS`, `TIMEOUT`).

    Parameters
    ----------
    token : str
        The API token; sent by PyGithub, never printed.
    api_url : str
        ``GITHUB_API_URL``, e.g. ``https://api.github.com``.
    repository : str
        ``owner/name``.
    sleep : callable
        How to wait between retries; tests pass a recorder.
    max_wait : float, optional
        Upper bound, in seconds, on the waiting of one operation (`MAX_WAIT`).
    clock : callable
        Current UNIX time, to read ``x-ratelimit-reset``.
    max_attempts : int, optional
        Attempts per request (`MAX_ATTEMPTS`).
    timeout : float, optional
        Seconds before one request times out, rounded up to whole ones (`TIMEOUT`).
    """

    MAX_WAIT: ClassVar[float] = 60.0
    MAX_ATTEMPTS: ClassVar[int] = 4
    TIMEOUT: ClassVar[int] = 15

    def __init__(
        self,
        *,
        token: str,
        api_url: str,
        repository: str,
        sleep: Callable[[float], None] = time.sleep,
        max_wait: float | None = None,
        clock: Callable[[], float] = time.time,
        max_attempts: int | None = None,
        timeout: float | None = None,
    ) -> None:
        self._token = token
        self._api_url = api_url.rstrip("/")
        self._repository = repository
        self._clock = clock
        self._timeout = max(math.ceil(self.TIMEOUT if timeout is None else timeout), 1)
        self.retrier = Retrier(
            sleep=sleep,
            max_wait=self.MAX_WAIT if max_wait is None else max_wait,
            max_attempts=self.MAX_ATTEMPTS if max_attempts is None else max_attempts,
        )

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(api_url={self._api_url!r}, "
            f"repository={self._repository!r}, token='***')"
        )

    def _open(self) -> Github:
        """A new PyGithub client (`leaderboard.action.client.connection.open_client`)."""
        from leaderboard.action.client.connection import open_client  # noqa: PLC0415 - keeps PyGithub lazy

        return open_client(api_url=self._api_url, token=self._token, timeout=self._timeout)

    def _scrub(self, text: str) -> str:
        return text.replace(self._token, "***") if self._token else text
