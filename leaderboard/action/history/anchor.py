"""The ``anchor`` input: the run kept on ``history-branch`` for one commit or tag.

On a pull request with ``history-branch`` and ``anchor`` set, the anchor (a sha, a
tag, a ref) is resolved to its commit (``GET commits/{ref}``) and the run stored for
exactly that commit is read (`History.find` with no ancestor walk). Its records go to
`leaderboard.stats.build_report` as ``anchor_runs``, so that every model is also gated
against its own row of it at ``anchor-margin`` (a comparison with scope ``anchor``).

When no run is kept for it (an unknown tag, a commit never stored or pruned by
``history-keep``, no token, an unreadable history) there is no anchor comparison and one
of the report's warnings says how to store it: never a pass or a failure of its own.
Pushes prune the anchor's run like any other (the push job need not know the anchor):
the warning says so, and how to keep it.
"""

from __future__ import annotations

from dataclasses import dataclass

from leaderboard.action.event import PR_EVENTS, Event, resolve_target
from leaderboard.action.history.branch import History, HistoryUnreadable, folder_for
from leaderboard.action.history.gitdata import Api, GitDataError
from leaderboard.action.runner import Log
from leaderboard.action.settings import Settings
from leaderboard.inputs import EvalRun
from leaderboard.stats.two_runs import LABEL_LIMIT

__all__ = ["FoundAnchor", "find_anchor"]


@dataclass(frozen=True)
class FoundAnchor:
    """The anchor's records and label, or (``runs`` None) the warning why there are none."""

    runs: list[EvalRun] | None = None
    label: str | None = None
    note: str | None = None


def find_anchor(settings: Settings, event: Event, api: Api, log: Log) -> FoundAnchor | None:
    """The anchor run the inputs ask for; None when they ask for none.

    Only on a pull request (or the workflow_run half of the fork-safe recipe, for a
    pull request) with ``history-branch`` and ``anchor`` set. A run that cannot be
    found or read is an `FoundAnchor` with a note (for the report's warnings).
    """
    anchor, branch = settings.anchor, settings.history_branch
    on_pull = settings.event_name in PR_EVENTS or (
        settings.event_name == "workflow_run"
        and resolve_target(settings, event).pr_number is not None
    )
    if anchor is None or branch is None or not on_pull:
        return None
    store = (
        f"A push to the default branch with history-branch: {branch} (and contents: "
        "write) stores the run of its commit; set anchor to a commit or tag whose run "
        f"is kept ({folder_for(settings.comment_header)}/index.json on {branch} lists "
        "them)."
    )
    client = api()
    if client is None:
        return _missing(f"No github-token, so the anchor run cannot be read. {store}")
    with client:
        try:
            commit = client.resolve(anchor)
            if commit is None:
                return _missing(
                    f"anchor {anchor!r} names no commit of this repository. {store}"
                )
            found = History(client, branch, settings.comment_header).find(commit, walk=0)
        except (GitDataError, HistoryUnreadable) as exc:
            return _missing(f"The anchor run of {anchor!r} could not be read ({exc}).")
    if found is None:
        return _missing(
            f"No run is kept on {branch} for anchor {anchor!r} ({commit[:7]}): none was "
            "stored for that commit, or it was pruned, since each store keeps only the "
            f"last history-keep runs (default 50). {store} To keep an anchor's run, set "
            "history-keep on the push job above the pushes expected while the anchor "
            "stands (at most 1000) and move anchor to a newer tag in time; re-running "
            f"the push workflow of {commit[:7]} stores its run again.",
        )
    named = commit[:7] if commit.startswith(anchor.lower()) else anchor
    label = f"anchor {named}"[:LABEL_LIMIT].rstrip()
    log.info(
        f"anchor: gated against the run of {commit[:7]} ({anchor}, stored "
        f"{found.run.stored_at}; {len(found.records)} records)"
    )
    return FoundAnchor(found.records, label)


def _missing(note: str) -> FoundAnchor:
    """No anchor run: the note becomes one of the report's warnings."""
    return FoundAnchor(note=f"No anchor comparison: {note}")
