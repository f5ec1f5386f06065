"""`leaderboard.action.history.gitdata` against GitHub's failures, via the fake's faults.

Each test scripts the fake GitHub API (`tests.fakes.github_api.FakeGitHub.inject`) and
asserts only what is seen from outside the client: the requests the fake received,
the waits handed to the ``sleep`` hook, the answer or the `GitDataError` raised (its
``status`` and message). Nothing here reads the client's private state, so the tests
hold wherever the retries live.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Callable, Iterator
from functools import partial

import pytest

from leaderboard.action.history.gitdata import GitData, GitDataError
from tests.fakes.github_api import INSTALLATION_TOKEN, FakeGitHub
from tests.fakes.github_wire import Fault

FILES = {"leaderboard/index.json": b'{"runs": []}\n', "leaderboard/runs/a.txt": b"a\n"}


@pytest.fixture
def fake() -> Iterator[FakeGitHub]:
    with FakeGitHub() as github:
        github.git.commit_files("leaderboard-history", FILES)
        yield github


def client(
    fake: FakeGitHub, sleeps: list[float], *, max_wait: float = 60.0, attempts: int = 4
) -> GitData:
    return GitData(
        token=INSTALLATION_TOKEN,
        api_url=fake.base_url,
        repository=fake.repository,
        sleep=sleeps.append,
        max_wait=max_wait,
        max_attempts=attempts,
        timeout=5.0,
    )


def head(fake: FakeGitHub) -> str:
    return fake.git.refs["refs/heads/leaderboard-history"]


def tree(fake: FakeGitHub) -> str:
    sha: str = fake.git.commits[head(fake)]["tree"]
    return sha


def git_blob_sha(data: bytes) -> str:
    """The id git gives a blob of ``data``."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


def statuses(fake: FakeGitHub, route: str) -> list[int]:
    return [r.status for r in fake.calls(route)]


# -- 5xx -------------------------------------------------------------------------------
@pytest.mark.parametrize("route", ["git_get_ref", "git_get_tree", "get_contents"])
def test_gitdata__5xx_then_success__retried_with_backoff_and_answers(
    fake: FakeGitHub, route: str
) -> None:
    fake.inject(route, Fault.server_error(502), Fault.server_error(503))
    sleeps: list[float] = []
    with client(fake, sleeps) as api:
        if route == "git_get_ref":
            assert api.head("leaderboard-history") == head(fake)
        elif route == "git_get_tree":
            assert api.files(tree(fake)) == {p: git_blob_sha(c) for p, c in FILES.items()}
        else:
            assert api.read("leaderboard/runs/a.txt", "leaderboard-history") == b"a\n"
        assert statuses(fake, route) == [502, 503, 200]
        assert sleeps == [1.0, 2.0]  # exponential backoff, through the sleep hook


def test_gitdata__5xx_on_a_write__retried_and_the_blob_stored(
    fake: FakeGitHub,
) -> None:
    fake.inject("git_create_blob", Fault.server_error(500))
    sleeps: list[float] = []
    with client(fake, sleeps) as api:
        sha = api.create_blob(b"records")
        assert fake.git.blobs[sha] == b"records"
        assert statuses(fake, "git_create_blob") == [500, 201]
        assert sleeps == [1.0]


def test_gitdata__persistent_5xx__gitdataerror_with_the_status_after_the_attempts(
    fake: FakeGitHub,
) -> None:
    fake.inject("git_get_tree", *[Fault.server_error(502)] * 10)
    sleeps: list[float] = []
    with client(fake, sleeps, attempts=4) as api:
        with pytest.raises(GitDataError) as raised:
            api.files(tree(fake))
        assert raised.value.status == 502
        assert str(raised.value) == (
            "could not list the stored files: 502 Bad Gateway; gave up after 4 attempts"
        )
        assert statuses(fake, "git_get_tree") == [502] * 4  # exactly the attempts allowed
        assert fake.pending_faults("git_get_tree") == 6
        assert sleeps == [1.0, 2.0, 4.0]
        assert INSTALLATION_TOKEN not in str(raised.value)


def test_gitdata__lost_connection_then_success__retried(fake: FakeGitHub) -> None:
    fake.inject("git_get_ref", Fault.connection_reset())
    sleeps: list[float] = []
    with client(fake, sleeps) as api:
        assert api.head("leaderboard-history") == head(fake)
        assert statuses(fake, "git_get_ref") == [0, 200]
        assert sleeps == [1.0]


def test_gitdata__4xx__not_retried(fake: FakeGitHub) -> None:
    fake.inject("git_get_tree", Fault(status=403, message="Resource not accessible"))
    sleeps: list[float] = []
    with client(fake, sleeps) as api:
        with pytest.raises(GitDataError) as raised:
            api.files(tree(fake))
        assert raised.value.status == 403
        assert raised.value.message == "Resource not accessible"
        assert statuses(fake, "git_get_tree") == [403]
        assert sleeps == []


# -- 429 -------------------------------------------------------------------------------
def test_gitdata__429_with_retry_after__waits_that_long_then_retried(
    fake: FakeGitHub,
) -> None:
    fake.inject("get_contents", Fault.secondary_limit(429, retry_after=7))
    sleeps: list[float] = []
    with client(fake, sleeps) as api:
        assert (
            api.read("leaderboard/index.json", "leaderboard-history") == b'{"runs": []}\n'
        )
        assert statuses(fake, "get_contents") == [429, 200]
        assert sleeps == [7.0]  # Retry-After, not the backoff


def test_gitdata__429_retry_after_past_the_budget__fails_at_once_without_waiting(
    fake: FakeGitHub,
) -> None:
    fake.inject("get_contents", Fault.secondary_limit(429, retry_after=600))
    sleeps: list[float] = []
    with client(fake, sleeps, max_wait=60.0) as api:
        with pytest.raises(GitDataError) as raised:
            api.read("leaderboard/index.json", "leaderboard-history")
        assert raised.value.status == 429
        assert "waiting 600s more would pass the 60s budget" in str(raised.value)
        assert sleeps == []  # a wait past the budget is never started
        assert statuses(fake, "get_contents") == [429]


def test_gitdata__repeated_429__waits_add_up_to_the_budget_and_no_more(
    fake: FakeGitHub,
) -> None:
    fake.inject("git_get_ref", *[Fault.secondary_limit(429, retry_after=20)] * 10)
    sleeps: list[float] = []
    with client(fake, sleeps, max_wait=60.0, attempts=10) as api:
        with pytest.raises(GitDataError) as raised:
            api.head("leaderboard-history")
        assert raised.value.status == 429
        assert sleeps == [20.0, 20.0, 20.0]
        assert sum(sleeps) <= 60.0
        assert statuses(fake, "git_get_ref") == [429] * 4


def test_gitdata__the_budget_spans_one_with_block__the_next_block_starts_afresh(
    fake: FakeGitHub,
) -> None:
    # the client owns its budget: 40 s of 60 s spent, a second 40 s wait in the same
    # block is refused; a new `with` block (the next find or store) may wait again
    sleeps: list[float] = []
    api = client(fake, sleeps, max_wait=60.0)
    with api:
        fake.inject("git_get_ref", Fault.secondary_limit(429, retry_after=40))
        assert api.head("leaderboard-history") == head(fake)
        fake.inject("git_get_ref", Fault.secondary_limit(429, retry_after=40))
        with pytest.raises(GitDataError, match="would pass the 60s budget"):
            api.head("leaderboard-history")
    with api:
        fake.inject("git_get_ref", Fault.secondary_limit(429, retry_after=40))
        assert api.head("leaderboard-history") == head(fake)
    assert sleeps == [40.0, 40.0]
    assert statuses(fake, "git_get_ref") == [429, 200, 429, 429, 200]


# -- malformed answers -----------------------------------------------------------------
def test_gitdata__truncated_tree__refused_not_a_partial_listing(fake: FakeGitHub) -> None:
    # GitHub cuts a recursive listing past 100,000 entries or 7 MB and says
    # `truncated: true`; pruning from a partial listing would keep files it never saw,
    # so `files` refuses it (a GitDataError, no status: the answer itself was 200).
    fake.inject("git_get_tree", Fault.altered(lambda body: {**body, "truncated": True}))
    sleeps: list[float] = []
    with client(fake, sleeps) as api:
        with pytest.raises(GitDataError) as raised:
            api.files(tree(fake))
        assert raised.value.status == 0
        assert str(raised.value) == (
            "could not list the stored files: a truncated or unreadable tree"
        )
        assert statuses(fake, "git_get_tree") == [200]  # read once: not a transient failure
        assert sleeps == []


def _not_base64(body: dict[str, object]) -> dict[str, object]:
    return {**body, "content": "bm90IGJhc2U2NA==\n!!not*base64!!\n"}


@pytest.mark.parametrize(
    ("route", "what"),
    [("get_contents", "read leaderboard/runs/a.txt"), ("git_get_blob", "read a blob")],
)
def test_gitdata__bad_base64__one_clear_gitdataerror_without_a_chained_traceback(
    fake: FakeGitHub, route: str, what: str
) -> None:
    fake.inject(route, Fault.altered(_not_base64))
    sleeps: list[float] = []
    with client(fake, sleeps) as api:
        request: Callable[[], object]
        if route == "get_contents":
            request = partial(api.read, "leaderboard/runs/a.txt", "leaderboard-history")
        else:
            request = partial(api.blob, git_blob_sha(b"a\n"))
        with pytest.raises(GitDataError) as raised:
            request()
        assert str(raised.value) == f"could not {what}: content that is not base64"
        assert raised.value.status == 0
        assert raised.value.__cause__ is None
        assert raised.value.__suppress_context__  # `from None`: no binascii traceback
        assert statuses(fake, route) == [200]


def test_gitdata__well_formed_base64_wrapped_in_lines__decoded(fake: FakeGitHub) -> None:
    # the control for the test above: GitHub wraps base64 every 60 characters
    data = bytes(range(256)) * 3
    text = base64.b64encode(data).decode()
    wrapped = "".join(text[i : i + 60] + "\n" for i in range(0, len(text), 60))
    fake.inject("get_contents", Fault.altered(lambda body: {**body, "content": wrapped}))
    with client(fake, []) as api:
        assert api.read("leaderboard/runs/a.txt", "leaderboard-history") == data
