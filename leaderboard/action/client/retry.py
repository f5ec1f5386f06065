"""Bounded retries for GitHub API calls, following GitHub's documented rate limits.

No PyGithub here: `leaderboard.action.client.connection` turns each failed request into a
`Failure` with `classify`, and `Retrier.call` decides whether and how long to wait:

- 5xx and lost connections: exponential backoff (``Retry-After`` when given);
- 429, and 403 with a rate-limit message, ``Retry-After`` or
  ``x-ratelimit-remaining: 0``: wait ``Retry-After`` seconds, else until
  ``x-ratelimit-reset``, else a minute (a secondary limit without a header);
- anything else fails at once.

Every wait goes through the injected ``sleep``; the total is capped by ``max_wait``
(a wait that would pass the cap is not started: the call fails instead).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from email.utils import parsedate_to_datetime
from typing import TypeVar

__all__ = ["Failure", "Retrier", "classify"]

log = logging.getLogger(__name__)
T = TypeVar("T")
SECONDARY_WAIT = 60.0  # GitHub: "wait for at least one minute before retrying"


class Failure(Exception):
    """A failed request: what we tried, the status (0: no answer), the reason, the wait."""

    def __init__(
        self,
        what: str,
        status: int,
        reason: str,
        *,
        transient: bool,
        wait: float | None = None,
    ) -> None:
        super().__init__(f"{what}: {status} {reason}")
        self.what, self.status, self.reason = what, status, reason
        self.transient, self.wait = transient, wait
        self.gave_up = ""


def classify(
    what: str, status: int, headers: Mapping[str, object] | None, data: object, now: float
) -> Failure:
    """Describe an HTTP error answer as a `Failure`, transient or not.

    Parameters
    ----------
    what : str
        What the request was for, e.g. ``"list the comments"``.
    status : int
        The HTTP status.
    headers : mapping
        The response headers (any case).
    data : object
        The decoded JSON body.
    now : float
        Current UNIX time, to turn ``x-ratelimit-reset`` into a wait.

    Returns
    -------
    Failure
    """
    lower = {str(k).lower(): str(v) for k, v in (headers or {}).items()}
    reason = _reason(data)
    retry_after = _retry_after(lower.get("retry-after"), now)
    exhausted = lower.get("x-ratelimit-remaining") == "0"
    limited = "rate limit" in reason.lower() or retry_after is not None or exhausted
    if status == 429 or (status == 403 and limited):
        if retry_after is not None:
            wait = retry_after
        elif exhausted and lower.get("x-ratelimit-reset", "").isdigit():
            wait = max(int(lower["x-ratelimit-reset"]) - now, 0.0) + 1.0
        else:
            wait = SECONDARY_WAIT
        return Failure(what, status, reason, transient=True, wait=wait)
    if status >= 500:
        return Failure(what, status, reason, transient=True, wait=retry_after)
    return Failure(what, status, reason, transient=False)


class Retrier:
    """Runs requests, retrying transient `Failure`s within a budget of waiting.

    Parameters
    ----------
    sleep : callable
        How to wait (tests pass a recorder).
    max_wait : float
        Total seconds one `reset`-to-`reset` span may wait.
    max_attempts : int
        Attempts per request.
    backoff : tuple of float
        First and longest wait of the exponential backoff.
    """

    def __init__(
        self,
        *,
        sleep: Callable[[float], None] = time.sleep,
        max_wait: float = 60.0,
        max_attempts: int = 5,
        backoff: tuple[float, float] = (1.0, 16.0),
    ) -> None:
        self.sleep, self.max_wait = sleep, max_wait
        self.max_attempts, self.backoff = max(max_attempts, 1), backoff
        self.waited = 0.0

    def reset(self) -> None:
        """Start a new budget."""
        self.waited = 0.0

    def call(self, request: Callable[[], T], *, retry: bool = True) -> T:
        """Run ``request``; retry it on a transient `Failure` unless ``retry`` is false."""
        attempt = 0
        while True:
            attempt += 1
            try:
                return request()
            except Failure as failure:
                if not failure.transient or not retry:
                    raise
                self.pause(failure, attempt)

    def pause(self, failure: Failure, attempt: int) -> None:
        """Wait before attempt ``attempt + 1``, or raise ``failure`` when out of budget."""
        first, longest = self.backoff
        wait = failure.wait
        if wait is None:
            wait = min(first * 2 ** (attempt - 1), longest)
        if attempt >= self.max_attempts:
            failure.gave_up = f"gave up after {attempt} attempts"
            raise failure
        if self.waited + wait > self.max_wait:
            budget = f"{self.max_wait:.0f}s"
            failure.gave_up = (
                f"gave up: waiting {wait:.0f}s more would pass the {budget} budget"
            )
            raise failure
        log.info(
            "%s: GitHub answered %s %s; retrying in %.0fs (attempt %d of %d)",
            failure.what,
            failure.status or "nothing",
            failure.reason,
            wait,
            attempt + 1,
            self.max_attempts,
        )
        self.sleep(wait)
        self.waited += wait


def _reason(data: object) -> str:
    if not isinstance(data, dict):
        return ""
    parts = [str(data.get("message") or "")]
    for error in data.get("errors") or ():
        if isinstance(error, dict) and error.get("message"):
            parts.append(str(error["message"]))
        elif isinstance(error, dict) and error.get("code"):
            parts.append(f"{error.get('field', '')} {error['code']}".strip())
    return ": ".join(p for p in parts if p)[:300]


def _retry_after(value: str | None, now: float) -> float | None:
    if value is None:
        return None
    if value.strip().isdigit():
        return float(value.strip())
    try:
        return max(parsedate_to_datetime(value).timestamp() - now, 0.0)
    except (TypeError, ValueError):
        return None
