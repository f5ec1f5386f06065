"""The event that started the workflow: which pull request, and which commit.

The runner hands the event's payload to the action as a JSON file
(``GITHUB_EVENT_PATH``). Only a few fields matter here, and every one is read
defensively: a payload of an unexpected shape means "no pull request", never a crash.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from leaderboard.action.settings import Settings
from leaderboard.errors import UsageError

__all__ = ["PR_EVENTS", "Target", "read_event", "resolve_target"]

PR_EVENTS = ("pull_request", "pull_request_target")


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


def resolve_target(settings: Settings, event: Mapping[str, Any]) -> Target:
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
        pull = _dict(event.get("pull_request"))
        found = _int(pull.get("number")) or _int(event.get("number"))
        if number is not None and found is not None and number != found:
            raise UsageError(
                f"pr-number: #{number} is not the pull request of this event "
                f"(#{found}); leave pr-number empty on pull_request events"
            )
        head_sha = _str(_dict(pull.get("head")).get("sha")) or head_sha
        unconfirmed = number is not None and found is None
        return Target(number or found, head_sha, settings.run_id, unconfirmed=unconfirmed)
    if settings.event_name == "workflow_run":
        wr = _dict(event.get("workflow_run"))
        pulls = [_int(_dict(p).get("number")) for p in _list(wr.get("pull_requests"))]
        listed = [n for n in pulls if n is not None]
        if number is not None and listed and number not in listed:
            raise UsageError(
                f"pr-number: #{number} is not a pull request of the triggering run "
                f"(it lists {', '.join(f'#{n}' for n in listed)}); pass the number the "
                "first workflow saved"
            )
        if number is None and len(listed) == 1:
            number = listed[0]
        head_sha = _str(wr.get("head_sha")) or head_sha
        unconfirmed = number is not None and number not in listed
        return Target(number, head_sha, settings.run_id, unconfirmed=unconfirmed)
    # push, workflow_dispatch, schedule...: nothing in the event names a pull request.
    return Target(number, head_sha, settings.run_id, unconfirmed=number is not None)


def read_event(path: Path | None) -> Mapping[str, Any]:
    """The event payload (``GITHUB_EVENT_PATH``); empty when there is no file.

    Raises
    ------
    UsageError
        The file exists but is not readable JSON.
    """
    if path is None:
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        raise UsageError(
            f"GITHUB_EVENT_PATH: cannot read the event file {str(path)!r}: {exc}"
        ) from None
    except RecursionError:
        raise UsageError(
            f"GITHUB_EVENT_PATH: the event file {str(path)!r} is nested too deeply "
            "to be an event the runner wrote"
        ) from None
    return data if isinstance(data, dict) else {}


def _dict(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _str(value: object) -> str | None:
    return value if isinstance(value, str) and value else None
