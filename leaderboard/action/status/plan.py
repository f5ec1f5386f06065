"""The commit status's own decisions: its context, its state, the accept label.

What the reviewer sees next to the merge button (CONTRACT.md section 9): context
``leaderboard`` (``leaderboard/<comment-header>`` for another header), state
``failure`` exactly when the step fails on the gate, ``error`` when no report could be
made, and a description rendered from the report's verdict
(`leaderboard.render.status_description`, the same comparison and numbers as the
comment's first line). `leaderboard.action.status.publisher` sends it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from leaderboard.render import State, plain_text

__all__ = [
    "DEFAULT_CONTEXT",
    "StatusPlan",
    "accepted_by",
    "status_context",
]

DEFAULT_CONTEXT = "leaderboard"


@dataclass(frozen=True)
class StatusPlan:
    """One commit status as it will be sent."""

    context: str
    state: State  # `leaderboard.render.State`: the one list of the status's states
    description: str
    target_url: str | None


def status_context(header: str) -> str:
    """``leaderboard``, or ``leaderboard/<header>`` for another ``comment-header``."""
    header = plain_text(header)
    return DEFAULT_CONTEXT if header == DEFAULT_CONTEXT else f"{DEFAULT_CONTEXT}/{header}"


def accepted_by(labels: Iterable[str], accept_label: str | None) -> str | None:
    """The accept label if the pull request carries it (names compare as GitHub does,
    ignoring case), else None; None too when ``accept_label`` is off."""
    if not accept_label:
        return None
    wanted = accept_label.strip().lower()
    return accept_label if any(name.strip().lower() == wanted for name in labels) else None
