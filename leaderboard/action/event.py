"""The event that started the workflow: which pull request, and which commit.

The runner hands the event's payload to the action as a JSON file
(``GITHUB_EVENT_PATH``). It is parsed once, here, into an `Event` (the few fields that
matter, every one read defensively: a payload of an unexpected shape means "no pull
request", never a crash); nothing else in the action reads the raw payload.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from leaderboard.action.settings import Settings
from leaderboard.errors import UsageError

__all__ = ["PR_EVENTS", "Event", "Target", "parse_event", "read_event", "resolve_target"]

PR_EVENTS = ("pull_request", "pull_request_target")


@dataclass(frozen=True)
class Event:
    """What the action uses of the event's payload, typed (`parse_event`).

    Attributes
    ----------
    pr_number : int or None
        A pull request event's own number (``pull_request.number``, else ``number``).
    head_sha, base_sha, base_ref : str or None
        The pull request's head commit, and its base commit and branch.
    head_repository : str or None
        ``owner/name`` of the repository the pull request's head lives in.
    labels : tuple of str
        The pull request's labels when the event was sent (``accept-label`` reads them
        from the API at run time instead: a label added since must count).
    default_branch : str or None
        The repository's default branch (``repository.default_branch``).
    ref, after : str or None
        A push's ref (``refs/heads/main``) and the commit it pushed.
    run_head_sha : str or None
        A ``workflow_run``'s head commit.
    run_pulls : tuple of int
        The pull requests a ``workflow_run`` lists (a fork's lists none).
    private : bool or None
        Whether the repository is private (``repository.private``; an internal
        repository is private too); None when the payload does not say.
    """

    pr_number: int | None = None
    head_sha: str | None = None
    base_sha: str | None = None
    base_ref: str | None = None
    head_repository: str | None = None
    labels: tuple[str, ...] = ()
    default_branch: str | None = None
    ref: str | None = None
    after: str | None = None
    run_head_sha: str | None = None
    run_pulls: tuple[int, ...] = ()
    private: bool | None = None

    def push_to_default(self, event_name: str | None) -> str | None:
        """The default branch's name when this is a push to it, else None."""
        default = self.default_branch
        if event_name != "push" or default is None or self.ref != f"refs/heads/{default}":
            return None
        return default

    def shows_outputs(self, choice: str) -> bool:
        """Whether answers are shown for the ``show-outputs`` input's `choice`:
        ``true``/``false`` as given; ``auto`` only on a repository the event says
        is private (a payload that does not say counts as public)."""
        if choice == "auto":
            return self.private is True
        return choice == "true"

    def from_fork(self, repository: str | None) -> bool:
        """Whether the pull request's head lives in another repository (a fork)."""
        name = self.head_repository
        return name is not None and bool(repository) and name != repository


def parse_event(data: Mapping[str, Any]) -> Event:
    """The `Event` of a payload; fields of another shape than documented are None."""
    pull = _dict(data.get("pull_request"))
    head, base = _dict(pull.get("head")), _dict(pull.get("base"))
    run = _dict(data.get("workflow_run"))
    pulls = [_int(_dict(p).get("number")) for p in _list(run.get("pull_requests"))]
    labels = [_str(_dict(label).get("name")) for label in _list(pull.get("labels"))]
    return Event(
        pr_number=_int(pull.get("number")) or _int(data.get("number")),
        head_sha=_str(head.get("sha")),
        base_sha=_str(base.get("sha")),
        base_ref=_str(base.get("ref")),
        head_repository=_str(_dict(head.get("repo")).get("full_name")),
        labels=tuple(name for name in labels if name is not None),
        default_branch=_str(_dict(data.get("repository")).get("default_branch")),
        ref=_str(data.get("ref")),
        after=_str(data.get("after")),
        run_head_sha=_str(run.get("head_sha")),
        run_pulls=tuple(n for n in pulls if n is not None),
        private=_bool(_dict(data.get("repository")).get("private")),
    )


@dataclass(frozen=True)
class Target:
    """Which pull request (if any) the results belong to, and for which commit."""

    pr_number: int | None
    head_sha: str | None
    run_id: int | None
    # The number came from the ``pr-number`` input and the event does not vouch for
    # it (any event but a pull request's own number or a workflow_run's listed one):
    # the comment goes out only if that pull request's head is head_sha.
    unconfirmed: bool = field(default=False, compare=False)


def resolve_target(settings: Settings, event: Event) -> Target:
    """Find the pull request and its head commit from the event and the inputs.

    - ``pull_request`` / ``pull_request_target``: the event's pull request, and its head
      commit (``GITHUB_SHA`` is the merge commit there, which no reviewer knows). A
      ``pr-number`` naming another pull request is refused.
    - ``workflow_run`` (the fork-safe second half): the ``pr-number`` input (read from
      the artifact), else the run's only pull request; the commit is the run's head. A
      ``pr-number`` that the event contradicts is refused.
    - any other event: the ``pr-number`` input if given, else no pull request.

    A ``pr-number`` the event does not list is `Target.unconfirmed`: the comment is
    posted only if that pull request's head is the commit the results are for.

    Raises
    ------
    UsageError
        A ``pr-number`` that is not the event's pull request, or not one of the
        triggering run's pull requests.
    """
    number = settings.pr_number
    head_sha = settings.sha
    if settings.event_name in PR_EVENTS:
        found = event.pr_number
        if number is not None and found is not None and number != found:
            raise UsageError(
                f"pr-number: #{number} is not the pull request of this event "
                f"(#{found}); leave pr-number empty on pull_request events"
            )
        head_sha = event.head_sha or head_sha
        unconfirmed = number is not None and found is None
        return Target(number or found, head_sha, settings.run_id, unconfirmed=unconfirmed)
    if settings.event_name == "workflow_run":
        listed = list(event.run_pulls)
        if number is not None and listed and number not in listed:
            raise UsageError(
                f"pr-number: #{number} is not a pull request of the triggering run "
                f"(it lists {', '.join(f'#{n}' for n in listed)}); pass the number the "
                "first workflow saved"
            )
        if number is None and len(listed) == 1:
            number = listed[0]
        head_sha = event.run_head_sha or head_sha
        unconfirmed = number is not None and number not in listed
        return Target(number, head_sha, settings.run_id, unconfirmed=unconfirmed)
    # push, workflow_dispatch, schedule...: nothing in the event names a pull request.
    return Target(number, head_sha, settings.run_id, unconfirmed=number is not None)


def read_event(path: Path | None) -> Event:
    """The parsed event (``GITHUB_EVENT_PATH``); an empty one when there is no file.

    Raises
    ------
    UsageError
        The file exists but is not readable JSON.
    """
    if path is None:
        return Event()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return Event()
    except (OSError, ValueError) as exc:
        raise UsageError(
            f"GITHUB_EVENT_PATH: cannot read the event file {str(path)!r}: {exc}"
        ) from None
    except RecursionError:
        raise UsageError(
            f"GITHUB_EVENT_PATH: the event file {str(path)!r} is nested too deeply "
            "to be an event the runner wrote"
        ) from None
    return parse_event(data if isinstance(data, dict) else {})


def _dict(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _bool(value: object) -> bool | None:
    return value if isinstance(value, bool) else None


def _str(value: object) -> str | None:
    return value if isinstance(value, str) and value else None
