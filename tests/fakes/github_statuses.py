"""The commit statuses and the labels of issues and pull requests, in the fake GitHub API.

What each endpoint answers follows GitHub's REST documentation ("Commit statuses",
"Labels"):

- ``POST statuses/{sha}``: 201 with the new status (``id``, ``state``,
  ``description``, ``target_url``, ``context`` default ``"default"``, ``creator``,
  ``created_at``); every POST makes a new status, and for one context the latest one
  wins. 422 "Validation Failed" for a state that is not ``error``, ``failure``,
  ``pending`` or ``success`` (or none), a description over 140 characters, a sha no
  commit has ("No commit found for SHA: ..."), or a 1001st status for one (sha,
  context). 403 "Resource not accessible by integration" for a token whose job lacks
  ``statuses: write`` (`Token.can_write_statuses` false) and, in
  `tests.fakes.github_api.FakeGitHub._handle`, for a fork's read-only token;
- ``GET commits/{ref}/statuses``: every status of the commit, newest first, paginated
  (Link header, ``per_page`` default 30 and at most 100);
- ``GET commits/{ref}/status``: the combined status: the latest status of each
  context, ``state`` ``failure`` if any is ``error`` or ``failure``, else ``pending``
  if any is ``pending`` or there is none, else ``success``; ``total_count``;
- ``GET issues/{number}/labels``: the labels of an issue or pull request, paginated;
  404 for an issue that does not exist.

A commit is known when it is a pull request's head or base (now or before), a commit of
`tests.fakes.github_git.GitData`, or added with ``add_commit``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tests.fakes.github_wire import Call, error_answer, user_json

__all__ = [
    "MAX_DESCRIPTION_CHARS",
    "MAX_STATUSES_PER_CONTEXT",
    "STATES",
    "STATUS_ROUTES",
    "STATUS_WRITE_ROUTES",
    "StatusData",
]

Answer = tuple[int, dict[str, str], Any]
Paginate = Callable[[Call, list[Any]], Answer]
MAX_DESCRIPTION_CHARS = 140
MAX_STATUSES_PER_CONTEXT = 1000
STATES = ("error", "failure", "pending", "success")
_REPO = r"/repos/(?P<o>[^/]+)/(?P<r>[^/]+)"

STATUS_ROUTES: tuple[tuple[str, str, str], ...] = (
    ("POST", _REPO + r"/statuses/(?P<sha>[^/]+)", "create_status"),
    ("GET", _REPO + r"/commits/(?P<ref>[^/]+)/statuses", "list_statuses"),
    ("GET", _REPO + r"/commits/(?P<ref>[^/]+)/status", "combined_status"),
    ("GET", _REPO + r"/issues/(?P<n>\d+)/labels", "list_labels"),
)
STATUS_WRITE_ROUTES = frozenset({"create_status"})


def _invalid(field_name: str, code: str, message: str | None = None) -> Answer:
    error = {"resource": "Status", "code": code, "field": field_name}
    if message is not None:
        error["message"] = message
    return error_answer(422, "Validation Failed", (error,))


@dataclass
class StatusData:
    """The statuses of each commit and the labels of each issue, as the fake serves them."""

    api: str = ""  # the repository's API root, for `url` fields
    repository: str = "octo-org/octo-repo"
    known: set[str] = field(default_factory=set)  # commits statuses may be set on
    statuses: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    labels: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    next_id: int = 5000
    now: Callable[[], str] = lambda: "2026-11-29T12:00:00Z"

    # -- scripting (tests) ---------------------------------------------------------------
    def add_label(self, number: int, name: str, color: str = "d73a4a") -> None:
        """Put a label on issue or pull request ``number`` (as a maintainer would)."""
        lid = 200 + sum(map(ord, name))
        label = {
            "id": lid,
            "node_id": f"LA_kwDOFAKE{lid:08d}",
            "url": f"{self.api}/labels/{name}",
            "name": name,
            "description": None,
            "color": color,
            "default": False,
        }
        current = self.labels.setdefault(number, [])
        if all(lab["name"].lower() != name.lower() for lab in current):
            current.append(label)

    def remove_label(self, number: int, name: str) -> None:
        self.labels[number] = [
            lab for lab in self.labels.get(number, []) if lab["name"] != name
        ]

    def latest(self, sha: str) -> dict[str, dict[str, Any]]:
        """The status that stands for each context of ``sha`` (the latest one)."""
        out: dict[str, dict[str, Any]] = {}
        for status in self.statuses.get(sha, []):  # oldest first
            out[status["context"].lower()] = status
        return {s["context"]: s for s in out.values()}

    # -- endpoints ----------------------------------------------------------------------
    def do_create_status(  # noqa: PLR0911 - one return per documented refusal
        self, call: Call, *, resolve: Callable[[str], str | None]
    ) -> Answer:
        if not call.token or not call.token.can_write_statuses:
            return error_answer(403, "Resource not accessible by integration")
        body = call.body if isinstance(call.body, dict) else {}
        state = body.get("state")
        if state is None:
            return _invalid("state", "missing_field")
        if state not in STATES:
            return _invalid("state", "custom", "state is not included in the list")
        description = body.get("description")
        if description is not None and not isinstance(description, str):
            return _invalid("description", "invalid")
        if description is not None and len(description) > MAX_DESCRIPTION_CHARS:
            return _invalid(
                "description",
                "custom",
                f"description is too long (maximum is {MAX_DESCRIPTION_CHARS} characters)",
            )
        sha = resolve(call.args["sha"])
        if sha is None:
            return error_answer(422, f"No commit found for SHA: {call.args['sha']}")
        context = body.get("context") or "default"
        if not isinstance(context, str):
            return _invalid("context", "invalid")
        same = [
            s for s in self.statuses.get(sha, []) if s["context"].lower() == context.lower()
        ]
        if len(same) >= MAX_STATUSES_PER_CONTEXT:
            return error_answer(
                422,
                "Validation Failed",
                (
                    {
                        "resource": "Status",
                        "code": "custom",
                        "message": "This SHA and context has reached the maximum "
                        "number of statuses.",
                    },
                ),
            )
        sid = self.next_id
        self.next_id += 1
        now = self.now()
        status = {
            "url": f"{self.api}/statuses/{sha}",
            "avatar_url": "https://avatars.githubusercontent.com/in/15368?v=4",
            "id": sid,
            "node_id": f"SC_kwDOFAKE{sid:08d}",
            "state": state,
            "description": description,
            "target_url": body.get("target_url"),
            "context": context,
            "created_at": now,
            "updated_at": now,
            "creator": user_json(call.token.login, call.token.user_type),
        }
        self.statuses.setdefault(sha, []).append(status)
        return 201, {"Location": status["url"]}, status

    def do_list_statuses(
        self, call: Call, *, resolve: Callable[[str], str | None], paginate: Paginate
    ) -> Answer:
        sha = resolve(call.args["ref"])
        if sha is None:
            return error_answer(404, "Not Found")
        return paginate(call, list(reversed(self.statuses.get(sha, []))))

    def do_combined_status(
        self, call: Call, *, resolve: Callable[[str], str | None]
    ) -> Answer:
        sha = resolve(call.args["ref"])
        if sha is None:
            return error_answer(422, f"No commit found for SHA: {call.args['ref']}")
        latest = sorted(self.latest(sha).values(), key=lambda s: -int(s["id"]))
        states = {s["state"] for s in latest}
        if states & {"error", "failure"}:
            state = "failure"
        elif "pending" in states or not latest:
            state = "pending"
        else:
            state = "success"
        owner, name = self.repository.split("/")
        return (
            200,
            {},
            {
                "state": state,
                "statuses": latest,
                "sha": sha,
                "total_count": len(latest),
                "repository": {
                    "id": int(hashlib.sha1(self.repository.encode()).hexdigest()[:6], 16),  # noqa: S324
                    "name": name,
                    "full_name": self.repository,
                    "owner": user_json(owner, "Organization"),
                },
                "commit_url": f"{self.api}/commits/{sha}",
                "url": f"{self.api}/commits/{sha}/status",
            },
        )

    def do_list_labels(self, call: Call, *, issues: set[int], paginate: Paginate) -> Answer:
        number = int(call.args["n"])
        if number not in issues:
            return error_answer(404, "Not Found")
        return paginate(call, list(self.labels.get(number, [])))
