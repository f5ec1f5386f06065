"""The kept history's requests: GitHub's Git Data API and contents endpoint, via PyGithub.

The kept history (`leaderboard.action.history.branch`) stores files on a branch without
a checkout, without git in the image and without credentials on disk: blobs, a tree
built on the branch's tree (``base_tree``), a commit, and a fast-forward-only update
of the ref. Each method is one documented request, made through PyGithub (the one
client of `leaderboard.action.client.connection`, imported only when a request is
made):

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

Every answer is checked here as GitHub documents it (a sha of 40 hex digits, base64
content, a tree that is not truncated), from PyGithub's ``raw_data``. Transient
failures (5xx, lost connections, rate limits) are retried through
`leaderboard.action.client.retry`; every other failure GitHub or the network causes
is a `GitDataError` with GitHub's status and message, and a bug of this action's own
propagates (`leaderboard.action.client.connection.attempt`). The token is never part
of a message. The client owns its retry budget: each ``with GitData(...) as api:``
block (one find, or one store) starts a new one, and leaving the block closes the
connections.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable
from types import TracebackType
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import quote

from leaderboard.action.client.base import Client
from leaderboard.action.client.retry import Failure

if TYPE_CHECKING:
    from github import Github
    from github.GitCommit import GitCommit
    from github.GitRef import GitRef
    from github.GitTree import GitTree
    from github.Repository import Repository

__all__ = ["Api", "BlobTooLarge", "EmptyRepository", "GitData", "GitDataError", "connect"]

T = TypeVar("T")


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


class GitData(Client):
    """Git Data requests for one repository.

    Its parameters are `Client`'s; one find or one store may wait 60 s in all, 4
    attempts a request, 30 s a request.
    """

    MAX_WAIT = 60.0
    MAX_ATTEMPTS = 4
    TIMEOUT = 30
    #: The PyGithub client of one ``with`` block, opened with its first request.
    _github: Github | None = None
    #: Requests sent (attempts included), for the log.
    requests: int = 0

    def close(self) -> None:
        """Close the HTTP connections."""
        if self._github is not None:
            self._github.close()
            self._github = None

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
            ref = self._call(
                "read the branch",
                lambda repo: repo.get_git_ref(f"heads/{branch}").raw_data,
            )
        except GitDataError as exc:
            if exc.status == 404:
                return None
            if exc.status == 409:
                raise EmptyRepository(exc.what, exc.status, exc.message) from None
            raise
        return _sha(_get(_get(ref, "object"), "sha"), "read the branch")

    def commit(self, sha: str) -> tuple[str, list[str]]:
        """A commit's tree and its parents, first parent first."""
        sha = _hex(sha)
        data = self._call("read a commit", lambda repo: repo.get_git_commit(sha).raw_data)
        parents = data.get("parents") if isinstance(data, dict) else None
        if not isinstance(parents, list):
            raise GitDataError("read a commit", 0, "an answer without parents")
        return (
            _sha(_get(_get(data, "tree"), "sha"), "read a commit"),
            [_sha(_get(p, "sha"), "read a commit") for p in parents],
        )

    def files(self, tree: str) -> dict[str, str]:
        """Every file under a tree as path -> blob sha (a recursive listing)."""
        tree = _hex(tree)
        data = self._call(
            "list the stored files",
            lambda repo: repo.get_git_tree(tree, recursive=True).raw_data,
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

        def get(repo: Repository) -> object:
            found = repo.get_contents(path, ref=ref)
            return found.raw_data if not isinstance(found, list) else found

        try:
            data = self._call(what, get)
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
        sha = _hex(sha)
        data = self._call("read a blob", lambda repo: repo.get_git_blob(sha).raw_data)
        return _b64(_get(data, "content"), "read a blob")

    def pull_base(self, number: int) -> tuple[str, str]:
        """A pull request's base commit and branch (``GET pulls/{number}``)."""
        number = int(number)
        data = self._call(
            "read the pull request's base", lambda repo: repo.get_pull(number).raw_data
        )
        base = _get(data, "base")
        ref = _get(base, "ref")
        if not isinstance(ref, str) or not ref:
            raise GitDataError("read the pull request's base", 0, "an answer without base")
        return _sha(_get(base, "sha"), "read the pull request's base"), ref

    def resolve(self, ref: str) -> str | None:
        """The commit a sha (7 to 40 hex digits), tag or branch names; None if none.

        ``GET commits/{ref}`` peels an annotated tag to its commit. GitHub answers an
        unknown ref with 404, or 422 "No commit found for SHA"; both are None. The
        answer's list of changed files is asked for one file a page (it is not read).
        """
        what = f"resolve {ref!r}"
        try:
            data = self._call(
                what,
                lambda repo: repo.get_commit(ref, commit_files_per_page=1).raw_data,
            )
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
        text = base64.b64encode(content).decode()
        data = self._call(
            "store a file", lambda repo: repo.create_git_blob(text, "base64").raw_data
        )
        return _sha(_get(data, "sha"), "store a file")

    def create_tree(self, base: str | None, entries: list[dict[str, Any]]) -> str:
        """A tree: ``base`` with ``entries`` applied (``sha: None`` deletes a path).

        Each entry is a dict of GitHub's tree entry fields (``path``, ``mode``,
        ``type``, and ``sha`` or ``content``).
        """
        from github import InputGitTreeElement  # noqa: PLC0415 - keeps PyGithub lazy
        from github.GithubObject import NotSet  # noqa: PLC0415 - keeps PyGithub lazy

        elements = [InputGitTreeElement(**entry) for entry in entries]
        base_sha = None if base is None else _hex(base)

        def post(repo: Repository) -> object:
            base_tree = NotSet if base_sha is None else _tree(repo, base_sha)
            return repo.create_git_tree(elements, base_tree).raw_data

        data = self._call("build the tree", post)
        return _sha(_get(data, "sha"), "build the tree")

    def create_commit(self, message: str, tree: str, parents: list[str]) -> str:
        """A commit of ``tree`` on ``parents`` (none: a root commit)."""
        tree, parents = _hex(tree), [_hex(p) for p in parents]

        def post(repo: Repository) -> object:
            on = [_commit(repo, p) for p in parents]
            return repo.create_git_commit(message, _tree(repo, tree), on).raw_data

        data = self._call("commit", post)
        return _sha(_get(data, "sha"), "commit")

    def create_branch(self, branch: str, sha: str) -> bool:
        """Create ``refs/heads/<branch>``; False when it exists already (422)."""
        try:
            self._call(
                "create the branch",
                lambda repo: repo.create_git_ref(f"refs/heads/{branch}", sha).raw_data,
            )
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
            self._call(
                "move the branch",
                lambda repo: _branch_ref(repo, branch).edit(sha, force=False),
            )
        except GitDataError as exc:
            if exc.status == 422 and "fast forward" in exc.message:
                return False
            raise
        return True

    # -- the wire ------------------------------------------------------------------------
    def _call(self, what: str, request: Callable[[Repository], T]) -> T:
        """One request through PyGithub, retried within the budget.

        Raises
        ------
        GitDataError
            GitHub or the network failed it, or its answer could not be read.
        """
        from leaderboard.action.client.connection import attempt  # noqa: PLC0415 - keeps PyGithub lazy

        if self._github is None:
            self._github = self._open()
        repo = self._github.get_repo(self._repository)  # lazy: no request

        def once() -> T:
            self.requests += 1
            return attempt(what, lambda: request(repo), self._clock)

        try:
            return self.retrier.call(once)
        except Failure as failure:
            message = (
                failure.reason
                if not failure.gave_up
                else (f"{failure.reason}; {failure.gave_up}")
            )
            raise GitDataError(what, failure.status, self._scrub(message)) from None


def _tree(repo: Repository, sha: str) -> GitTree:
    """A tree named by its sha, for a request that takes one (lazy: no request)."""
    from github.GitTree import GitTree  # noqa: PLC0415 - keeps PyGithub lazy

    url = f"{repo.url}/git/trees/{sha}"
    return GitTree(repo.requester, attributes={"sha": sha}, url=url)


def _commit(repo: Repository, sha: str) -> GitCommit:
    """A commit named by its sha, for a request that takes one (lazy: no request)."""
    from github.GitCommit import GitCommit  # noqa: PLC0415 - keeps PyGithub lazy

    url = f"{repo.url}/git/commits/{sha}"
    return GitCommit(repo.requester, attributes={"sha": sha}, url=url)


def _branch_ref(repo: Repository, branch: str) -> GitRef:
    """``refs/heads/<branch>`` at ``PATCH git/refs/heads/{branch}`` (lazy: no request).

    Not `Repository.get_git_ref`, whose object is at ``git/ref/...``: the path to read
    a ref, not the one GitHub documents for moving it.
    """
    from github.GitRef import GitRef  # noqa: PLC0415 - keeps PyGithub lazy

    return GitRef(
        repo.requester,
        attributes={"ref": f"refs/heads/{branch}"},
        url=f"{repo.url}/git/refs/heads/{quote(branch)}",
    )


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
