"""What every GitHub client of the action holds: where it sends, the token, one retry
budget (`Client`).

No PyGithub here: `Client._open` loads `leaderboard.action.client.connection` (and
PyGithub with it) when a client makes its first request, so that importing a client's
module costs nothing on a run that sends none.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from leaderboard.action.client.retry import Retrier

if TYPE_CHECKING:
    from github import Github

__all__ = ["Client"]


class Client:
    """What the PyGithub clients hold: where they send, the token, one retry budget.

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
        """A new PyGithub client (`leaderboard.action.client.connection.open_client`)."""
        from leaderboard.action.client.connection import open_client  # noqa: PLC0415 - keeps PyGithub lazy

        return open_client(api_url=self._api_url, token=self._token, timeout=self._timeout)

    def _scrub(self, text: str) -> str:
        return text.replace(self._token, "***") if self._token else text
