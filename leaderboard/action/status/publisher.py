"""What the pull request's merge box shows: the commit status, and an accepted regression.

Both read or write through a `StatusClient` (`leaderboard.action.status.api`,
PyGithub, imported lazily by the caller). Neither ever changes the exit status on its
own: a status that cannot be set is one line in the log (no annotation: a user who
never granted ``statuses: write`` must not get a warning on every run), and labels
that cannot be read leave the regression unaccepted, with one line saying so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from leaderboard.action.event import Target
from leaderboard.action.publish import Links, Outcome
from leaderboard.action.runner import Log
from leaderboard.action.settings import Settings
from leaderboard.action.status.plan import StatusPlan, accepted_by, status_context

__all__ = [
    "CommitStatus",
    "StatusClient",
    "make_statuses",
    "publish_status",
    "read_acceptance",
]

FORK_RECIPE = "examples/workflows/leaderboard-fork-safe-*.yml"


class StatusClient(Protocol):
    """What the merge box needs from `leaderboard.action.status.api.GitHubStatuses`."""

    def set_status(self, sha: str, plan: StatusPlan) -> str: ...

    def labels(self, pr_number: int) -> list[str]: ...

    def head(self, pr_number: int) -> str: ...


@dataclass(frozen=True)
class CommitStatus:
    """The commit status, as a publisher: the rendered description and state.

    State ``failure`` exactly when the step fails on the gate, ``error`` when no
    report was made (so an earlier run's state never stays), else ``success``
    (`leaderboard.render.render_texts` decides it). It links to the comment when one
    was posted (the link `publish_all` hands on), else to the workflow run. Nothing
    when ``commit-status`` is false.
    """

    settings: Settings
    client: StatusClient | None
    target: Target
    log: Log
    fork: bool = False
    what: str = "commit status"

    def publish(self, outcome: Outcome, links: Links) -> dict[str, str]:
        """Set the status on the pull request's head commit, if there is one."""
        if not self.settings.commit_status:
            return {}
        texts = outcome.texts
        plan = StatusPlan(
            context=status_context(self.settings.comment_header),
            state=texts.state,
            description=self.log.redact(texts.status),
            target_url=links.get("comment-url") or self.settings.run_url,
        )
        publish_status(self.client, self.target, plan, self.log, fork=self.fork)
        return {}


def make_statuses(settings: Settings) -> StatusClient | None:
    """The PyGithub client of statuses and labels, or None when neither is wanted."""
    wanted = settings.commit_status or settings.accept_label
    if not wanted or not settings.github_token or not settings.repository:
        return None
    from leaderboard.action.status.api import GitHubStatuses  # noqa: PLC0415 - lazy PyGithub

    return GitHubStatuses(
        token=settings.github_token,
        api_url=settings.api_url,
        repository=settings.repository,
    )


def read_acceptance(
    client: StatusClient | None,
    target: Target,
    accept_label: str | None,
    log: Log,
) -> str | None:
    """The accept label, if the pull request carries it now; else None.

    The labels are read from the API at run time, never from the event (a label added
    after the push, then a re-run, must count). A pull-request number nothing vouches
    for (`Target.unconfirmed`: the fork-safe recipe reads it from an artifact) counts
    only if that pull request's head is the commit the results are for: otherwise a
    fork could name a labelled pull request and have its own regression accepted.
    """
    number = target.pr_number
    if not accept_label or number is None:
        return None
    if client is None:
        log.info(f"accept-label: no github-token, so the labels of #{number} are not read")
        return None
    from leaderboard.action.status.api import StatusError  # noqa: PLC0415 - lazy PyGithub

    try:
        label = accepted_by(client.labels(number), accept_label)
        if label is not None and target.unconfirmed:
            head = client.head(number)
            if head != target.head_sha:
                log.info(
                    f"accept-label: #{number} carries {label!r}, but its head is "
                    f"{head[:7]}, not {(target.head_sha or '?')[:7]}, the commit these "
                    "results are for; the regression is not accepted"
                )
                return None
    except StatusError as exc:
        log.info(f"accept-label: {exc}; the regression is not accepted")
        return None
    if label is not None:
        log.info(f"accept-label: #{number} carries {label!r}: the regression is accepted")
    return label


def publish_status(
    client: StatusClient | None,
    target: Target,
    plan: StatusPlan,
    log: Log,
    *,
    fork: bool = False,
) -> bool:
    """Set ``plan`` on the pull request's head commit; True when it was set.

    Every failure is one line in the log, never an annotation, never an exception.
    """
    number, sha = target.pr_number, target.head_sha
    if number is None:
        return False
    if client is None or not sha:
        why = "no head commit is known" if client else "no github-token"
        log.info(f"commit status not set on #{number}: {why}")
        return False
    from leaderboard.action.status.api import StatusError  # noqa: PLC0415 - lazy PyGithub

    where = f"commit status {plan.context!r} not set on {sha[:7]}"
    try:
        client.set_status(sha, plan)
    except StatusError as exc:
        if exc.status == 403 and fork:
            log.info(
                f"{where}: a pull request from a fork gets a read-only token; the "
                f"fork-safe recipe ({FORK_RECIPE}) sets it from the base repository"
            )
        elif exc.status == 403:
            log.info(
                f"{where}: the token may not write commit statuses ({exc}); give the "
                "job `permissions: statuses: write`, or set commit-status: false"
            )
        else:
            log.info(f"{where}: {exc}")
        return False
    log.info(f"commit status {plan.context}: {plan.state}: {plan.description}")
    return True
