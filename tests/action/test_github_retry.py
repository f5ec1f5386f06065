"""Which GitHub answers are retried, and how long the retrier waits."""

from __future__ import annotations

from email.utils import formatdate

import pytest

from leaderboard.action.client.retry import Failure, Retrier, classify

NOW = 1_800_000_000.0
SECONDARY = {"message": "You have exceeded a secondary rate limit. Please wait."}
PRIMARY = {"message": "API rate limit exceeded for installation ID 1."}


@pytest.mark.parametrize("status", [500, 502, 503, 504])
def test_classify__server_errors_are_transient_with_backoff(status: int) -> None:
    failure = classify("x", status, {}, {"message": "oops"}, NOW)
    assert failure.transient
    assert failure.wait is None


def test_classify__retry_after_on_503_is_used() -> None:
    assert classify("x", 503, {"Retry-After": "12"}, None, NOW).wait == 12.0


def test_classify__retry_after_as_http_date() -> None:
    headers = {"retry-after": formatdate(NOW + 30, usegmt=True)}
    assert classify("x", 429, headers, None, NOW).wait == pytest.approx(30.0)


@pytest.mark.parametrize("status", [403, 429])
def test_classify__secondary_limit_waits_retry_after_or_a_minute(status: int) -> None:
    assert classify("x", status, {"Retry-After": "5"}, SECONDARY, NOW).wait == 5.0
    assert classify("x", status, {}, SECONDARY, NOW).wait == 60.0


@pytest.mark.parametrize("status", [403, 429])
def test_classify__primary_limit_waits_until_reset(status: int) -> None:
    headers = {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": str(int(NOW) + 90)}
    failure = classify("x", status, headers, PRIMARY, NOW)
    assert failure.transient
    assert failure.wait == 91.0


def test_classify__reset_in_the_past_retries_after_a_second() -> None:
    headers = {"x-ratelimit-remaining": "0", "x-ratelimit-reset": str(int(NOW) - 50)}
    assert classify("x", 403, headers, PRIMARY, NOW).wait == 1.0


@pytest.mark.parametrize(
    ("status", "message"),
    [
        (403, "Resource not accessible by integration"),
        (401, "Bad credentials"),
        (404, "Not Found"),
        (422, "Validation Failed"),
        (410, "Issues are disabled for this repo"),
    ],
)
def test_classify__refusals_are_not_transient(status: int, message: str) -> None:
    failure = classify(
        "x", status, {"x-ratelimit-remaining": "4000"}, {"message": message}, NOW
    )
    assert not failure.transient
    assert failure.reason == message


def test_classify__validation_errors_are_in_the_reason() -> None:
    data = {
        "message": "Validation Failed",
        "errors": [{"field": "body", "code": "missing_field"}, {"message": "too long"}],
    }
    assert classify("x", 422, {}, data, NOW).reason == (
        "Validation Failed: body missing_field: too long"
    )


class Flaky:
    """A request failing with the given failures, then answering ``"ok"``."""

    def __init__(self, *failures: Failure) -> None:
        self.failures = list(failures)
        self.calls = 0

    def __call__(self) -> str:
        self.calls += 1
        if self.failures:
            raise self.failures.pop(0)
        return "ok"


def transient(wait: float | None = None) -> Failure:
    return Failure("do it", 502, "Bad Gateway", transient=True, wait=wait)


def test_retrier__exponential_backoff_capped() -> None:
    sleeps: list[float] = []
    retrier = Retrier(sleep=sleeps.append, max_wait=1000, max_attempts=8)
    assert retrier.call(Flaky(*[transient()] * 7)) == "ok"
    assert sleeps == [1, 2, 4, 8, 16, 16, 16]
    assert retrier.waited == 63


def test_retrier__gives_up_after_max_attempts() -> None:
    sleeps: list[float] = []
    request = Flaky(*[transient()] * 9)
    with pytest.raises(Failure) as info:
        Retrier(sleep=sleeps.append, max_attempts=3).call(request)
    assert request.calls == 3
    assert sleeps == [1, 2]
    assert info.value.gave_up == "gave up after 3 attempts"


def test_retrier__never_starts_a_wait_past_the_budget() -> None:
    sleeps: list[float] = []
    retrier = Retrier(sleep=sleeps.append, max_wait=30)
    with pytest.raises(Failure) as info:
        retrier.call(Flaky(transient(20), transient(20)))
    assert sleeps == [20]
    assert "30s budget" in info.value.gave_up


def test_retrier__budget_spans_calls_until_reset() -> None:
    sleeps: list[float] = []
    retrier = Retrier(sleep=sleeps.append, max_wait=25)
    retrier.call(Flaky(transient(20)))
    with pytest.raises(Failure):
        retrier.call(Flaky(transient(10)))
    retrier.reset()
    assert retrier.call(Flaky(transient(10))) == "ok"
    assert sleeps == [20, 10]


def test_retrier__no_retry_raises_the_first_transient_failure() -> None:
    sleeps: list[float] = []
    request = Flaky(transient())
    with pytest.raises(Failure):
        Retrier(sleep=sleeps.append).call(request, retry=False)
    assert request.calls == 1
    assert sleeps == []


def test_retrier__refusals_are_raised_at_once() -> None:
    sleeps: list[float] = []
    request = Flaky(Failure("do it", 403, "nope", transient=False))
    with pytest.raises(Failure):
        Retrier(sleep=sleeps.append).call(request)
    assert request.calls == 1
    assert sleeps == []
