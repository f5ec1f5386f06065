"""A small client of GitHub's Git Data API and contents endpoint (plain HTTP).

The kept history (`leaderboard.action.history.branch`) stores files on a branch without a
checkout, without git in the image and without credentials on disk: blobs, a tree
built on the branch's tree (``base_tree``), a commit, and a fast-forward-only update
of the ref. Each method is one documented request:

=========================================  =======================  ==================
request                                    used for                 permission
=========================================  =======================  ==================
``GET git/ref/heads/{branch}``             the branch's head        ``contents: read``
``GET git/commits/{sha}``                  tree, first parent       ``contents: read``
``GET git/trees/{sha}?recursive=1``        the files stored         ``contents: read``
``GET contents/{path}?ref=``               a stored file            ``contents: read``
``GET pulls/{number}``                     base (workflow_run)      ``pull-requests: read``
``GET commits/{ref}``                      the ``anchor``'s commit  ``contents: read``
``GET git/blobs/{sha}``                    a file over 1 MB         ``contents: read``
``POST git/blobs``, ``git/trees``,         a new commit             ``contents: write``
``git/commits``
``POST git/refs``                          the branch, first time   ``contents: write``
``PATCH git/refs/heads/{branch}``          move it (no force)       ``contents: write``
=========================================  =======================  ==================

Transient failures (5xx, lost connections, rate limits) are retried through
`leaderboard.action.client.retry`; every other failure is a `GitDataError` with GitHub's
status and message. The token is never part of a message. The client owns its retry
budget: each ``with GitData(...) as api:`` block (one find, or one store) starts a new
one, and leaving the block closes the connections.
"""

from __future__ import annotations

import base64
import binascii
import time
from collections.abc import Callable, Mapping
from types import TracebackType
from typing import Any
from urllib.parse import quote

import requests

from leaderboard.action.client.retry import Failure, Retrier, classify

__all__ = ["Api", "BlobTooLarge", "EmptyRepository", "GitData", "GitDataError", "connect"]


class GitDataError(Exception):
    """A request failed: ``status`` (0: no answer) and GitHub's ``message``."""

    def __init__(self, what: str, status: int, message: str) -> None:
        said = f"{status} {message}".strip() if status else message
        super().__init__(f"could not {what}: {said}")
        self.what, self.status, self.message = what, status, message


class EmptyRepository(GitDataError):
    """The repository has no commit yet (409 "Git Repository is empty.")."""


class BlobTooLarge(GitDataError):
    """A file over the size its reader asked for (`GitData.read`'s ``limit``)."""


class GitData:
    """Git Data requests for one repository.

    Parameters
    ----------
    token : str
        The API token; sent as ``Authorization: Bearer``, never printed.
    api_url : str
        ``GITHUB_API_URL``.
    repository : str
        ``owner/name``.
    sleep, max_wait, max_attempts
        The retry budget (`leaderboard.action.client.retry.Retrier`).
    timeout : float
        Seconds before one request times out.
    clock : callable
        Current UNIX time, to read ``x-ratelimit-reset``.
    """

    def __init__(
        self,
        *,
        token: str,
        api_url: str,
        repository: str,
        sleep: Callable[[float], None] = time.sleep,
        max_wait: float = 60.0,
        max_attempts: int = 4,
        timeout: float = 30.0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._token = token
        self._root = f"{api_url.rstrip('/')}/repos/{repository}"
        self._timeout = timeout
        self._clock = clock
        self._session = requests.Session()
        self.retrier = Retrier(sleep=sleep, max_wait=max_wait, max_attempts=max_attempts)
        self.requests = 0  # requests sent, for the log

    def __repr__(self) -> str:
        return f"GitData(root={self._root!r}, token='***')"

    def close(self) -> None:
        """Close the HTTP connections."""
        self._session.close()

    def __enter__(self) -> GitData:
        """Start a new retry budget for the requests of one operation."""
        self.retrier.reset()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    # -- reading -------------------------------------------------------------------------
    def head(self, branch: str) -> str | None:
        """The commit a branch points at; None when there is no such branch.

        Raises
        ------
        EmptyRepository
            The repository has no commit at all (409).
        """
        try:
            ref = self._json("GET", f"git/ref/heads/{quote(branch)}", "read the branch")
        except GitDataError as exc:
            if exc.status == 404:
                return None
            if exc.status == 409:
                raise EmptyRepository(exc.what, exc.status, exc.message) from None
            raise
        return _sha(_get(_get(ref, "object"), "sha"), "read the branch")

    def commit(self, sha: str) -> tuple[str, list[str]]:
        """A commit's tree and its parents, first parent first."""
        data = self._json("GET", f"git/commits/{_hex(sha)}", "read a commit")
        parents = data.get("parents") if isinstance(data, dict) else None
        if not isinstance(parents, list):
            raise GitDataError("read a commit", 0, "an answer without parents")
        return (
            _sha(_get(_get(data, "tree"), "sha"), "read a commit"),
            [_sha(_get(p, "sha"), "read a commit") for p in parents],
        )

    def files(self, tree: str) -> dict[str, str]:
        """Every file under a tree as path -> blob sha (a recursive listing)."""
        data = self._json(
            "GET",
            f"git/trees/{_hex(tree)}",
            "list the stored files",
            params={"recursive": "1"},
        )
        entries = _get(data, "tree")
        if not isinstance(entries, list) or _get(data, "truncated") is True:
            raise GitDataError("list the stored files", 0, "a truncated or unreadable tree")
        return {
            str(e["path"]): str(e["sha"])
            for e in entries
            if isinstance(e, dict) and e.get("type") == "blob"
        }

    def read(self, path: str, ref: str, *, limit: int | None = None) -> bytes | None:
        """A file's bytes at ``ref`` (contents API); None when it does not exist.

        From 1 MB on the contents API answers without the content (``encoding:
        "none"``): the blob is then read through ``git/blobs`` (up to 100 MB). With
        `limit`, a file whose size (as the contents API gives it) is over `limit`
        bytes is `BlobTooLarge`, before its bytes are asked for.
        """
        what = f"read {path}"
        try:
            data = self._json("GET", f"contents/{quote(path)}", what, params={"ref": ref})
        except GitDataError as exc:
            if exc.status == 404:
                return None
            raise
        if not isinstance(data, dict) or data.get("type") != "file":
            raise GitDataError(what, 0, "not a file")
        size = data.get("size")
        if limit is not None and (type(size) is not int or size > limit):
            raise BlobTooLarge(what, 0, f"{size!r} bytes, over the {limit:,} read")
        if data.get("encoding") == "base64":
            return _b64(data.get("content"), what)
        return self.blob(_sha(data.get("sha"), what))

    def blob(self, sha: str) -> bytes:
        """A blob's bytes (``git/blobs``: always base64)."""
        data = self._json("GET", f"git/blobs/{_hex(sha)}", "read a blob")
        return _b64(_get(data, "content"), "read a blob")

    def pull_base(self, number: int) -> tuple[str, str]:
        """A pull request's base commit and branch (``GET pulls/{number}``)."""
        data = self._json("GET", f"pulls/{int(number)}", "read the pull request's base")
        base = _get(data, "base")
        ref = _get(base, "ref")
        if not isinstance(ref, str) or not ref:
            raise GitDataError("read the pull request's base", 0, "an answer without base")
        return _sha(_get(base, "sha"), "read the pull request's base"), ref

    def resolve(self, ref: str) -> str | None:
        """The commit a sha (7 to 40 hex digits), tag or branch names; None if none.

        ``GET commits/{ref}`` peels an annotated tag to its commit. GitHub answers an
        unknown ref with 404, or 422 "No commit found for SHA"; both are None.
        """
        what = f"resolve {ref!r}"
        try:
            data = self._json("GET", f"commits/{quote(ref)}", what)
        except GitDataError as exc:
            if exc.status in (404, 422):
                return None
            if exc.status == 409:
                raise EmptyRepository(exc.what, exc.status, exc.message) from None
            raise
        return _sha(_get(data, "sha"), what)

    # -- writing -------------------------------------------------------------------------
    def create_blob(self, content: bytes) -> str:
        """Store bytes as a blob; its sha."""
        body = {"content": base64.b64encode(content).decode(), "encoding": "base64"}
        data = self._json("POST", "git/blobs", "store a file", json=body)
        return _sha(_get(data, "sha"), "store a file")

    def create_tree(self, base: str | None, entries: list[dict[str, Any]]) -> str:
        """A tree: ``base`` with ``entries`` applied (``sha: None`` deletes a path)."""
        body: dict[str, Any] = {"tree": entries}
        if base is not None:
            body["base_tree"] = base
        data = self._json("POST", "git/trees", "build the tree", json=body)
        return _sha(_get(data, "sha"), "build the tree")

    def create_commit(self, message: str, tree: str, parents: list[str]) -> str:
        """A commit of ``tree`` on ``parents`` (none: a root commit)."""
        body = {"message": message, "tree": tree, "parents": parents}
        data = self._json("POST", "git/commits", "commit", json=body)
        return _sha(_get(data, "sha"), "commit")

    def create_branch(self, branch: str, sha: str) -> bool:
        """Create ``refs/heads/<branch>``; False when it exists already (422)."""
        body = {"ref": f"refs/heads/{branch}", "sha": sha}
        try:
            self._json("POST", "git/refs", "create the branch", json=body)
        except GitDataError as exc:
            if exc.status == 422 and "already exists" in exc.message:
                return False
            raise
        return True

    def move_branch(self, branch: str, sha: str) -> bool:
        """Fast-forward a branch to ``sha``; False when that is not a fast forward.

        ``force`` stays false: a commit made on a head that another run moved since is
        refused by GitHub (422 "Update is not a fast forward") instead of dropping the
        other run's commit.
        """
        try:
            self._json(
                "PATCH",
                f"git/refs/heads/{quote(branch)}",
                "move the branch",
                json={"sha": sha, "force": False},
            )
        except GitDataError as exc:
            if exc.status == 422 and "fast forward" in exc.message:
                return False
            raise
        return True

    # -- the wire ------------------------------------------------------------------------
    def _json(
        self,
        method: str,
        path: str,
        what: str,
        *,
        json: dict[str, Any] | None = None,
        params: Mapping[str, str] | None = None,
    ) -> Any:
        def attempt() -> Any:
            self.requests += 1
            try:
                answer = self._session.request(
                    method,
                    f"{self._root}/{path}",
                    json=json,
                    params=params,
                    headers={
                        "Authorization": f"Bearer {self._token}",
                        "Accept": "application/vnd.github+json",
                        "X-GitHub-Api-Version": "2022-11-28",
                        "User-Agent": "leaderboard-action",
                    },
                    timeout=self._timeout,
                )
            except (requests.RequestException, OSError) as exc:
                reason = f"connection failed ({type(exc).__name__})"
                raise Failure(what, 0, reason, transient=True) from None
            try:
                data = answer.json() if answer.content else None
            except ValueError:
                data = None
            if answer.status_code >= 400:
                raise classify(
                    what, answer.status_code, answer.headers, data, self._clock()
                )
            return data

        try:
            return self.retrier.call(attempt)
        except Failure as failure:
            message = (
                failure.reason
                if not failure.gave_up
                else (f"{failure.reason}; {failure.gave_up}")
            )
            raise GitDataError(what, failure.status, self._scrub(message)) from None

    def _scrub(self, text: str) -> str:
        return text.replace(self._token, "***") if self._token else text


def _get(data: object, key: str) -> object:
    return data.get(key) if isinstance(data, dict) else None


def _sha(value: object, what: str) -> str:
    if (
        isinstance(value, str)
        and len(value) == 40
        and all(c in "0123456789abcdef" for c in value)
    ):
        return value
    raise GitDataError(what, 0, "an answer without a commit or object sha")


def _hex(sha: str) -> str:
    """A sha put in a URL path: only hex digits pass (the path cannot be steered)."""
    return _sha(sha, "use an object id")


def _b64(value: object, what: str) -> bytes:
    if not isinstance(value, str):
        raise GitDataError(what, 0, "an answer without content")
    try:
        return base64.b64decode("".join(value.split()), validate=True)
    except (binascii.Error, ValueError):
        raise GitDataError(what, 0, "content that is not base64") from None


#: Makes a Git Data client for the kept history; it makes None without a token.
Api = Callable[[], GitData | None]


def connect(*, token: str, api_url: str, repository: str | None) -> Api:
    """The `Api` for one repository: a new `GitData` each call, None without a token."""

    def make() -> GitData | None:
        if not token or not repository:
            return None
        return GitData(token=token, api_url=api_url, repository=repository)

    return make
