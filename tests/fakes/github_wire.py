"""The wire-level pieces of the fake GitHub API: tokens, faults, answers, the handler.

`tests.fakes.github_api.FakeGitHub` holds the state and the routes; this module holds
what goes over the wire: the documented error bodies, the scripted `Fault`s, the
`RecordedRequest`s and the HTTP handler (HTTP/1.1 keep-alive, like api.github.com).
"""

from __future__ import annotations

import contextlib
import json
import socket
import struct
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from http.server import BaseHTTPRequestHandler
from typing import Any, ClassVar
from urllib.parse import parse_qsl, urlsplit

MAX_BODY_CHARS = 65_536
DEFAULT_PER_PAGE = 30
MAX_PER_PAGE = 100
BOT_LOGIN = "github-actions[bot]"
INSTALLATION_TOKEN = "ghs_FAKEinstallationTOKENabcdef0123456789"  # noqa: S105 - fake
PAT_TOKEN = "ghp_FAKEpersonalTOKENabcdef01234567890123"  # noqa: S105 - fake
READ_ONLY_TOKEN = "ghs_FAKEforkREADONLYtokenabcdef012345678"  # noqa: S105 - fake
DOCS = "https://docs.github.com/rest"
SECONDARY_MESSAGE = (
    "You have exceeded a secondary rate limit. Please wait a few minutes before you "
    "try again. If you reach out to GitHub Support for help, please include the "
    "request ID 0000:FAKE."
)


@dataclass(frozen=True)
class Token:
    """What a token is allowed to do, and whose comments it writes."""

    login: str = BOT_LOGIN
    user_type: str = "Bot"
    can_write: bool = True
    user_endpoint: bool = False  # GET /user answers 200 (a PAT) or 403 (installation)
    can_read_pulls: bool = True  # False: `permissions: issues: write` alone
    can_write_statuses: bool = True  # False: the job's permissions lack `statuses: write`


@dataclass(frozen=True)
class Fault:
    """One scripted failure, answered instead of the real response.

    With ``after_write`` the request is applied first (the comment is stored) and the
    client still sees the failure: the classic duplicate-comment trap. With ``edit``
    (`altered`) the request is served as usual and its JSON answer passes through
    ``edit`` on the way out: a malformed answer with a success status.
    """

    status: int = 500
    message: str = "Server Error"
    headers: tuple[tuple[str, str], ...] = ()
    reset: bool = False
    after_write: bool = False
    errors: tuple[dict[str, str], ...] = ()
    delay: float = 0.0  # seconds before answering: longer than the client's timeout
    edit: Callable[[Any], Any] | None = None  # served, then the answer is altered

    def slow(self, seconds: float) -> Fault:
        """The same fault, answered only after ``seconds``."""
        return replace(self, delay=seconds)

    @classmethod
    def server_error(cls, status: int = 500) -> Fault:
        names = {500: "Server Error", 502: "Bad Gateway", 503: "Service Unavailable"}
        return cls(status=status, message=names.get(status, "Server Error"))

    @classmethod
    def connection_reset(cls) -> Fault:
        return cls(status=0, message="", reset=True)

    @classmethod
    def secondary_limit(cls, status: int = 403, retry_after: int | None = None) -> Fault:
        headers = (("Retry-After", str(retry_after)),) if retry_after is not None else ()
        return cls(status=status, message=SECONDARY_MESSAGE, headers=headers)

    @classmethod
    def primary_limit(cls, reset_at: int, status: int = 403) -> Fault:
        headers = (("x-ratelimit-remaining", "0"), ("x-ratelimit-reset", str(reset_at)))
        return cls(
            status=status,
            message="API rate limit exceeded for installation ID 4242.",
            headers=headers,
        )

    @classmethod
    def validation(cls, message: str = "was flagged as spam") -> Fault:
        error = {
            "resource": "IssueComment",
            "code": "custom",
            "field": "body",
            "message": message,
        }
        return cls(status=422, message="Validation Failed", errors=(error,))

    @classmethod
    def altered(cls, edit: Callable[[Any], Any]) -> Fault:
        """The real answer, status and headers kept, its JSON body replaced by
        ``edit(body)``: e.g. a tree listing with ``truncated: true``, or a blob whose
        ``content`` is not base64."""
        return cls(status=0, message="", edit=edit)

    def applied_first(self) -> Fault:
        """The same fault, answered after the request took effect."""
        return replace(self, after_write=True)


@dataclass(frozen=True)
class Call:
    """One request, parsed: route arguments, query, token, JSON body, path."""

    args: dict[str, str]
    query: dict[str, str]
    token: Token | None
    body: Any
    path: str


@dataclass(frozen=True)
class RecordedRequest:
    """One request as the fake saw it (no ``Authorization`` header)."""

    method: str
    path: str
    route: str
    headers: dict[str, str]
    body: Any
    status: int = 0  # 0 when the connection was reset


def user_json(login: str, user_type: str) -> dict[str, Any]:
    uid = 41898282 if login == BOT_LOGIN else 1000 + sum(map(ord, login))
    return {
        "login": login,
        "id": uid,
        "node_id": f"MDQ6VXNlcj{uid}",
        "type": user_type,
        "site_admin": False,
        "url": f"https://api.github.com/users/{login}",
        "html_url": f"https://github.com/{login.removesuffix('[bot]')}",
    }


def error_answer(
    status: int,
    message: str,
    errors: tuple[dict[str, str], ...] = (),
    headers: dict[str, str] | None = None,
) -> tuple[int, dict[str, str], Any]:
    payload: dict[str, Any] = {
        "message": message,
        "documentation_url": DOCS,
        "status": str(status),
    }
    if errors:
        payload["errors"] = list(errors)
    return status, headers or {}, payload


def check_body(body: Any) -> tuple[int, dict[str, str], Any] | None:
    text = body.get("body") if isinstance(body, dict) else None
    if not isinstance(text, str) or not text.strip():
        return error_answer(
            422,
            "Validation Failed",
            ({"resource": "IssueComment", "code": "missing_field", "field": "body"},),
        )
    if len(text) > MAX_BODY_CHARS:
        return error_answer(
            422,
            "Validation Failed",
            (
                {
                    "resource": "IssueComment",
                    "code": "custom",
                    "field": "body",
                    "message": f"body is too long (maximum is {MAX_BODY_CHARS} characters)",
                },
            ),
        )
    return None


def int_param(value: str | None, default: int) -> int:
    try:
        return int(value) if value is not None else default
    except ValueError:
        return default


class Handler(BaseHTTPRequestHandler):
    fake: ClassVar[Any]  # the FakeGitHub serving
    protocol_version = "HTTP/1.1"
    server_version = "FakeGitHub/1.0"

    def setup(self) -> None:
        super().setup()
        with self.fake._lock:
            self.fake._conns.add(self.connection)

    def finish(self) -> None:
        with contextlib.suppress(OSError):
            super().finish()
        with self.fake._lock:
            self.fake._conns.discard(self.connection)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the recorded requests are the log."""

    def do_GET(self) -> None:
        self._serve()

    def do_POST(self) -> None:
        self._serve()

    def do_PATCH(self) -> None:
        self._serve()

    def do_DELETE(self) -> None:
        self._serve()

    def _serve(self) -> None:
        fake = self.fake
        parts = urlsplit(self.path)
        query = dict(parse_qsl(parts.query))
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body: Any = json.loads(raw) if raw else None
        except ValueError:
            body = raw.decode("utf-8", "replace")
        route, args = fake._route(self.command, parts.path)
        headers = {k: v for k, v in self.headers.items() if k.lower() != "authorization"}
        seen = RecordedRequest(self.command, self.path, route, headers, body)
        for hook in list(fake._hooks.get(route, ())):
            hook(seen)
        fault = fake._next_fault(route)
        if fault is not None and not fault.after_write and fault.edit is None:
            self._fail(fault, seen)
            return
        token = fake.tokens.get(bearer(self.headers.get("Authorization", "")))
        if isinstance(body, str) and self.command in {"POST", "PATCH"}:
            status, extra, payload = error_answer(400, "Problems parsing JSON")
        else:
            call = Call(args, query, token, body, parts.path[len(fake.prefix) :])
            status, extra, payload = fake._handle(route, call)
        if fault is not None and fault.edit is not None:
            payload = fault.edit(payload)
        elif fault is not None:
            self._fail(fault, seen)
            return
        fake._record(replace(seen, status=status))
        self._send(status, {**fake._rate_headers(), **extra}, payload)

    def _fail(self, fault: Fault, seen: RecordedRequest) -> None:
        self.fake._record(replace(seen, status=fault.status))
        if fault.delay:
            time.sleep(fault.delay)
        if fault.reset:
            self.close_connection = True
            with contextlib.suppress(OSError):
                self.connection.setsockopt(
                    socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0)
                )
                self.connection.close()
            return
        status, headers, payload = error_answer(fault.status, fault.message, fault.errors)
        rate = self.fake._rate_headers()
        self._send(status, {**rate, **headers, **dict(fault.headers)}, payload)

    def _send(self, status: int, headers: dict[str, str], payload: Any) -> None:
        data = b"" if payload is None else json.dumps(payload).encode()
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        if payload is not None:
            self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        with contextlib.suppress(OSError):  # the client may have timed out and gone
            self.end_headers()
            self.wfile.write(data)


def bearer(header: str) -> str:
    scheme, _, value = header.partition(" ")
    return value.strip() if scheme.lower() in {"token", "bearer"} else ""
