"""A fake GitHub REST API: a real HTTP server on 127.0.0.1 for PyGithub to talk to.

It follows GitHub's documented behaviour for the few endpoints the action uses:

- ``GET/POST /repos/{owner}/{repo}/issues/{number}/comments`` (Link-header pagination,
  ``per_page`` default 30 and at most 100, comments ordered by ascending id);
- ``GET/PATCH/DELETE /repos/{owner}/{repo}/issues/comments/{id}`` (404 once deleted);
- ``GET /repos/{owner}/{repo}/pulls/{number}`` (``head.sha``);
- ``GET /user``: 200 for a personal access token, 403 "Resource not accessible by
  integration" for an installation token such as the workflow's ``GITHUB_TOKEN``;
- the Git Data endpoints (refs, blobs, trees, commits) and ``GET contents/{path}``
  that the kept history uses, in `tests.fakes.github_git`;
- the commit statuses (``POST statuses/{sha}``, ``GET commits/{ref}/statuses`` and
  ``/status``) and the labels of an issue or pull request (``GET issues/{n}/labels``,
  and ``labels`` in the pull request), in `tests.fakes.github_statuses`;
- 401 for an unknown token, 403 on writes with a read-only (fork) token, 422 for a
  blank body or one over 65,536 characters, rate-limit headers on every answer.

Tests script faults per route (`Fault`), run hooks inside a request (barriers, a push
between two calls), and read back every request (`FakeGitHub.requests`, with the
``Authorization`` header left out) and the stored comments.
"""

from __future__ import annotations

import contextlib
import re
import socket
import threading
from collections import defaultdict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from http.server import ThreadingHTTPServer
from typing import Any
from urllib.parse import urlencode

from tests.fakes.github_git import GIT_ROUTES, GIT_WRITE_ROUTES, GitData
from tests.fakes.github_statuses import STATUS_ROUTES, STATUS_WRITE_ROUTES, StatusData
from tests.fakes.github_wire import (
    BOT_LOGIN,
    DEFAULT_PER_PAGE,
    INSTALLATION_TOKEN,
    MAX_BODY_CHARS,
    MAX_PER_PAGE,
    PAT_TOKEN,
    READ_ONLY_TOKEN,
    SECONDARY_MESSAGE,
    Call,
    Fault,
    Handler,
    RecordedRequest,
    Token,
    check_body,
    error_answer,
    int_param,
    user_json,
)

__all__ = [
    "BOT_LOGIN",
    "INSTALLATION_TOKEN",
    "MAX_BODY_CHARS",
    "PAT_TOKEN",
    "READ_ONLY_TOKEN",
    "SECONDARY_MESSAGE",
    "FakeGitHub",
    "Fault",
    "RecordedRequest",
    "Token",
]

Answer = tuple[int, dict[str, str], Any]


_EPOCH = datetime(2026, 11, 29, 12, 0, 0, tzinfo=UTC)

_ROUTES: tuple[tuple[str, str, str], ...] = (
    ("GET", r"/user", "get_user"),
    (
        "GET",
        r"/repos/(?P<o>[^/]+)/(?P<r>[^/]+)/issues/(?P<n>\d+)/comments",
        "list_comments",
    ),
    (
        "POST",
        r"/repos/(?P<o>[^/]+)/(?P<r>[^/]+)/issues/(?P<n>\d+)/comments",
        "create_comment",
    ),
    ("GET", r"/repos/(?P<o>[^/]+)/(?P<r>[^/]+)/issues/comments/(?P<id>\d+)", "get_comment"),
    (
        "PATCH",
        r"/repos/(?P<o>[^/]+)/(?P<r>[^/]+)/issues/comments/(?P<id>\d+)",
        "update_comment",
    ),
    (
        "DELETE",
        r"/repos/(?P<o>[^/]+)/(?P<r>[^/]+)/issues/comments/(?P<id>\d+)",
        "delete_comment",
    ),
    ("GET", r"/repos/(?P<o>[^/]+)/(?P<r>[^/]+)/pulls/(?P<n>\d+)", "get_pull"),
    *GIT_ROUTES,
    *STATUS_ROUTES,
)
WRITE_ROUTES = frozenset(
    {
        "create_comment",
        "update_comment",
        "delete_comment",
        *GIT_WRITE_ROUTES,
        *STATUS_WRITE_ROUTES,
    }
)


@dataclass
class _State:
    pulls: dict[int, dict[str, Any]] = field(default_factory=dict)
    issues: set[int] = field(default_factory=set)
    comments: dict[int, dict[str, Any]] = field(default_factory=dict)
    next_id: int = 1000
    tick: int = 0
    remaining: int = 5000


class FakeGitHub:
    """The fake API. Use as a context manager, or `start` / `stop`."""

    def __init__(
        self,
        repository: str = "octo-org/octo-repo",
        html_url: str = "https://github.com",
        prefix: str = "",
    ) -> None:
        self.repository = repository
        self.prefix = prefix.rstrip("/")  # "/api/v3" serves like GitHub Enterprise Server
        self.html_url = html_url.rstrip("/")
        self.tokens: dict[str, Token] = {
            INSTALLATION_TOKEN: Token(),
            PAT_TOKEN: Token(login="octocat", user_type="User", user_endpoint=True),
            READ_ONLY_TOKEN: Token(can_write=False),
        }
        self.requests: list[RecordedRequest] = []
        self._state = _State()
        self._lock = threading.RLock()
        #: The repository's git objects and refs (`tests.fakes.github_git`); no commit
        #: yet, so the Git Data endpoints answer 409 "Git Repository is empty." until a
        #: test commits (``fake.git.commit_files("main", {...})``).
        self.git = GitData(lock=self._lock)
        #: The commit statuses and the labels (`tests.fakes.github_statuses`): read
        #: back with ``fake.status.latest(sha)`` or ``fake.status.statuses[sha]``, label
        #: with ``fake.status.add_label(7, "accept-regression")``.
        self.status = StatusData(repository=repository, now=self._now)
        self._faults: dict[str, deque[Fault]] = defaultdict(deque)
        self._hooks: dict[str, list[Callable[[RecordedRequest], None]]] = defaultdict(list)
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._conns: set[socket.socket] = set()

    # -- lifecycle -----------------------------------------------------------------
    def start(self) -> FakeGitHub:
        handler = type("_BoundHandler", (Handler,), {"fake": self})
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is None:
            return
        self._server.shutdown()
        with self._lock:
            conns = list(self._conns)
        for conn in conns:
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)
        self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._server = None

    def __enter__(self) -> FakeGitHub:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        """The API root to give PyGithub (``GITHUB_API_URL``)."""
        assert self._server is not None, "start the fake first"
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}{self.prefix}"

    # -- scripting -------------------------------------------------------------------
    def add_token(self, token: str, **kwargs: Any) -> None:
        self.tokens[token] = Token(**kwargs)

    def add_pull(
        self, number: int, head_sha: str = "a" * 40, base_sha: str = "b" * 40
    ) -> None:
        with self._lock:
            self.status.known |= {head_sha, base_sha}
            self._state.issues.add(number)
            self._state.pulls[number] = {
                "number": number,
                "head_sha": head_sha,
                "base_sha": base_sha,
            }

    def add_issue(self, number: int) -> None:
        with self._lock:
            self._state.issues.add(number)

    def set_head(self, number: int, head_sha: str) -> None:
        """A push to the pull request."""
        with self._lock:
            self.status.known.add(head_sha)
            self._state.pulls[number]["head_sha"] = head_sha

    def add_commit(self, sha: str) -> None:
        """A commit statuses may be set on (pull requests' heads and bases already are)."""
        with self._lock:
            self.status.known.add(sha)

    def add_comment(
        self, number: int, body: str, *, login: str = "octocat", user_type: str = "User"
    ) -> dict[str, Any]:
        """Store a comment as if someone had written it; returns its public form."""
        with self._lock:
            return self._public(self._create(number, body, login, user_type))

    def inject(self, route: str, *faults: Fault) -> None:
        """Queue faults for a route name (e.g. ``"create_comment"``), used in order."""
        assert route in {name for _, _, name in _ROUTES}, route
        with self._lock:
            self._faults[route].extend(faults)

    def pending_faults(self, route: str) -> int:
        with self._lock:
            return len(self._faults[route])

    def on(self, route: str, hook: Callable[[RecordedRequest], None]) -> None:
        """Call ``hook`` in the serving thread before each request to ``route``."""
        self._hooks[route].append(hook)

    # -- reading back ------------------------------------------------------------------
    def comments(self, number: int) -> list[dict[str, Any]]:
        """The live comments of an issue or pull request, oldest first."""
        with self._lock:
            live = [
                c
                for c in self._state.comments.values()
                if c["_issue"] == number and not c["_deleted"]
            ]
            return [self._public(c) for c in sorted(live, key=lambda c: c["id"])]

    def calls(self, route: str) -> list[RecordedRequest]:
        with self._lock:
            return [r for r in self.requests if r.route == route]

    # -- request handling (called by the handler) --------------------------------------
    def _route(self, method: str, path: str) -> tuple[str, dict[str, str]]:
        if not path.startswith(self.prefix):
            return "unknown", {}
        path = path[len(self.prefix) :]
        for verb, pattern, name in _ROUTES:
            match = re.fullmatch(pattern, path)
            if verb == method and match:
                return name, match.groupdict()
        return "unknown", {}

    def _handle(self, route: str, call: Call) -> Answer:
        token, args = call.token, call.args
        if token is None:
            return error_answer(401, "Bad credentials")
        if route == "unknown" or (
            "o" in args and f"{args['o']}/{args['r']}" != self.repository
        ):
            return error_answer(404, "Not Found")
        if route in WRITE_ROUTES and not token.can_write:
            return error_answer(403, "Resource not accessible by integration")
        with self._lock:
            if route.startswith(("git_", "get_contents")):
                self.git.api = f"{self.base_url}/repos/{self.repository}"
                answer: Answer = getattr(self.git, f"do_{route}")(call)
            elif route in {n for _, _, n in STATUS_ROUTES}:
                answer = self._statuses(route, call)
            else:
                answer = getattr(self, f"_do_{route}")(call)
            return answer

    def _statuses(self, route: str, call: Call) -> Answer:
        self.status.api = f"{self.base_url}/repos/{self.repository}"
        if route == "create_status":
            return self.status.do_create_status(call, resolve=self._commit)
        if route == "combined_status":
            return self.status.do_combined_status(call, resolve=self._commit)
        if route == "list_statuses":
            return self.status.do_list_statuses(
                call, resolve=self._commit, paginate=self._paginate
            )
        return self.status.do_list_labels(
            call, issues=self._state.issues, paginate=self._paginate
        )

    def _commit(self, ref: str) -> str | None:
        """The full sha of a known commit (a full or abbreviated sha, or a branch)."""
        resolved = self.git._resolve(ref)
        if resolved is not None:
            return resolved
        known = self.status.known | set(self.git.commits)
        if ref in known:
            return ref
        hits = [sha for sha in known if len(ref) >= 7 and sha.startswith(ref)]
        return hits[0] if len(hits) == 1 else None

    def _do_get_user(self, call: Call) -> Answer:
        if not call.token.user_endpoint:
            return error_answer(403, "Resource not accessible by integration")
        return 200, {}, user_json(call.token.login, call.token.user_type)

    def _do_get_pull(self, call: Call) -> Answer:
        if not call.token.can_read_pulls:
            return error_answer(403, "Resource not accessible by integration")
        pull = self._state.pulls.get(int(call.args["n"]))
        if pull is None:
            return error_answer(404, "Not Found")
        number = pull["number"]
        return (
            200,
            {},
            {
                "url": f"{self.base_url}/repos/{self.repository}/pulls/{number}",
                "html_url": f"{self.html_url}/{self.repository}/pull/{number}",
                "number": number,
                "state": "open",
                "title": f"Pull request {number}",
                "head": {
                    "sha": pull["head_sha"],
                    "ref": "feature",
                    "label": "octo-org:feature",
                },
                "base": {"sha": pull["base_sha"], "ref": "main", "label": "octo-org:main"},
                "labels": list(self.status.labels.get(number, [])),
            },
        )

    def _do_list_comments(self, call: Call) -> Answer:
        number = int(call.args["n"])
        if number not in self._state.issues:
            return error_answer(404, "Not Found")
        return self._paginate(call, self.comments(number))

    def _paginate(self, call: Call, live: list[Any]) -> Answer:
        """One page of ``live`` as the query asks, with GitHub's Link header."""
        per_page = int_param(call.query.get("per_page"), DEFAULT_PER_PAGE)
        per_page = DEFAULT_PER_PAGE if per_page < 1 else min(per_page, MAX_PER_PAGE)
        page = max(int_param(call.query.get("page"), 1), 1)
        last = max((len(live) + per_page - 1) // per_page, 1)
        items = live[(page - 1) * per_page : page * per_page]
        headers = {}
        link = self._link(call.path, call.query, page, last)
        if link:
            headers["Link"] = link
        return 200, headers, items

    def _link(self, path: str, query: dict[str, str], page: int, last: int) -> str:
        def url(p: int) -> str:
            return f"{self.base_url}{path}?{urlencode({**query, 'page': str(p)})}"

        rels = []
        if page < last:
            rels += [f'<{url(page + 1)}>; rel="next"', f'<{url(last)}>; rel="last"']
        if page > 1:
            rels += [
                f'<{url(1)}>; rel="first"',
                f'<{url(min(page - 1, last))}>; rel="prev"',
            ]
        return ", ".join(rels)

    def _do_create_comment(self, call: Call) -> Answer:
        number = int(call.args["n"])
        if number not in self._state.issues:
            return error_answer(404, "Not Found")
        invalid = check_body(call.body)
        if invalid:
            return invalid
        comment = self._create(
            number, call.body["body"], call.token.login, call.token.user_type
        )
        return 201, {"Location": comment["url"]}, self._public(comment)

    def _live(self, call: Call) -> dict[str, Any] | None:
        comment = self._state.comments.get(int(call.args["id"]))
        return None if comment is None or comment["_deleted"] else comment

    def _do_get_comment(self, call: Call) -> Answer:
        comment = self._live(call)
        return (
            (200, {}, self._public(comment)) if comment else error_answer(404, "Not Found")
        )

    def _do_update_comment(self, call: Call) -> Answer:
        comment = self._live(call)
        if comment is None:
            return error_answer(404, "Not Found")
        invalid = check_body(call.body)
        if invalid:
            return invalid
        comment["body"] = call.body["body"]
        comment["updated_at"] = self._now()
        return 200, {}, self._public(comment)

    def _do_delete_comment(self, call: Call) -> Answer:
        comment = self._live(call)
        if comment is None:
            return error_answer(404, "Not Found")
        comment["_deleted"] = True
        return 204, {}, None

    # -- storage ---------------------------------------------------------------------------
    def _now(self) -> str:
        self._state.tick += 1
        stamp = _EPOCH + timedelta(seconds=self._state.tick)
        return stamp.strftime("%Y-%m-%dT%H:%M:%SZ")

    def _create(self, number: int, body: str, login: str, user_type: str) -> dict[str, Any]:
        assert number in self._state.issues, (
            f"add_pull({number}) or add_issue({number}) first"
        )
        cid = self._state.next_id
        self._state.next_id += 1
        kind = "pull" if number in self._state.pulls else "issues"
        now = self._now()
        comment = {
            "id": cid,
            "node_id": f"IC_kwDOFAKE{cid:08d}",
            "url": f"{self.base_url}/repos/{self.repository}/issues/comments/{cid}",
            "html_url": f"{self.html_url}/{self.repository}/{kind}/{number}"
            f"#issuecomment-{cid}",
            "issue_url": f"{self.base_url}/repos/{self.repository}/issues/{number}",
            "body": body,
            "user": user_json(login, user_type),
            "created_at": now,
            "updated_at": now,
            "author_association": "NONE" if user_type == "Bot" else "MEMBER",
            "_issue": number,
            "_deleted": False,
        }
        self._state.comments[cid] = comment
        return comment

    @staticmethod
    def _public(comment: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in comment.items() if not k.startswith("_")}

    def _rate_headers(self) -> dict[str, str]:
        with self._lock:
            self._state.remaining = max(self._state.remaining - 1, 1)
            remaining = self._state.remaining
        reset = int((_EPOCH + timedelta(hours=1)).timestamp())
        return {
            "x-ratelimit-limit": "5000",
            "x-ratelimit-remaining": str(remaining),
            "x-ratelimit-used": str(5000 - remaining),
            "x-ratelimit-reset": str(reset),
            "x-ratelimit-resource": "core",
        }

    def _next_fault(self, route: str) -> Fault | None:
        with self._lock:
            queue = self._faults.get(route)
            return queue.popleft() if queue else None

    def _record(self, request: RecordedRequest) -> None:
        with self._lock:
            self.requests.append(request)
