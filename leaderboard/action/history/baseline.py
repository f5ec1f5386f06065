"""Which run a pull request is gated against.

`choose_baseline`: the ``baseline-results`` files when given (they win, with a notice
when ``history-branch`` is also set); else, on a pull request with ``history-branch``,
the run kept for the base commit or its nearest stored first-parent ancestor. When
nothing can be read, the `Choice` carries a note instead of runs, and the statistics
set the gate's status to ``no_baseline_run`` with it: never a pass.

Reading needs ``contents: read`` (a fork's read-only token is enough). Storing a push's
run is `leaderboard.action.history.store`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from leaderboard.action.event import PR_EVENTS, Event, resolve_target
from leaderboard.action.history.branch import WALK_LIMIT, History, HistoryUnreadable
from leaderboard.action.history.earlier import earlier_records, trend_points
from leaderboard.action.history.gitdata import Api, GitDataError
from leaderboard.action.runner import Log
from leaderboard.action.settings import Settings
from leaderboard.inputs import EvalRun, load_runs_noting
from leaderboard.report import BaselineRun
from leaderboard.stats.two_runs import LABEL_LIMIT

__all__ = ["Choice", "choose_baseline", "read_runs"]

_TITLE = "leaderboard: history"


@dataclass(frozen=True)
class Choice:
    """The baseline run chosen: records and where they come from, or why there is none."""

    runs: list[EvalRun] | None = None
    run: BaselineRun | None = None
    note: str | None = None  # set: no baseline run could be read (no_baseline_run)
    notes: tuple[str, ...] = ()  # what the loader changed in the baseline files
    # the kept runs read for flaky items, oldest first, `runs` last (history only)
    history: tuple[tuple[EvalRun, ...], ...] = ()


def read_runs(
    settings: Settings, paths: Sequence[str], *, texts: bool = False
) -> tuple[list[EvalRun], list[str]]:
    """Load result files as the inputs say (format, metric, weights, model-id, root);
    with `texts`, keeping inputs and answers (``show-outputs`` shows them)."""
    return load_runs_noting(
        paths,
        format=settings.format,
        root=settings.workspace,
        metrics=settings.metric,
        task_weights=settings.task_weights,
        model_id=settings.model_id,
        texts=texts,
    )


def choose_baseline(settings: Settings, event: Event, api: Api, log: Log) -> Choice | None:
    """The second run to gate against; None when the inputs ask for none.

    Raises
    ------
    LeaderboardError
        ``baseline-results`` files that cannot be read (bad input, exit 2).
    """
    # The workflow_run half of the fork-safe recipe recomputes part 1's report: it
    # reads the pull request's base from the API (its event does not carry it).
    number = _workflow_run_pull(settings, event)
    on_pull = settings.event_name in PR_EVENTS or number is not None
    if settings.baseline_results:
        if settings.history_branch and on_pull:
            log.notice(
                "baseline-results is given, so the pull request is gated against those "
                f"files, not against the run kept on {settings.history_branch}",
                title=_TITLE,
            )
        runs, notes = read_runs(
            settings,
            settings.baseline_results,
            texts=event.shows_outputs(settings.show_outputs),
        )
        label = settings.baseline_label or "baseline"
        return Choice(runs, BaselineRun(label=label, source="results"), notes=tuple(notes))
    if settings.history_branch is None or not on_pull:
        return None
    if settings.baseline is not None:
        log.notice(
            f"baseline is set ({settings.baseline}), so models are gated against it "
            f"within this run, not against the run kept on {settings.history_branch}",
            title=_TITLE,
        )
        return None
    return _from_history(settings, settings.history_branch, event, api, log, number=number)


def _workflow_run_pull(settings: Settings, event: Event) -> int | None:
    """The pull request of a workflow_run: ``pr-number``, else the one the event lists.

    The same number the comment goes to (`resolve_target`), so an empty ``pr-number``
    gates against the kept run as a given one does.
    """
    if settings.event_name != "workflow_run":
        return None
    return resolve_target(settings, event).pr_number


def baseline_label(branch: str, commit: str) -> str:
    """``"<branch> <sha7>"`` as a label `check_label` accepts, whatever the branch name.

    A branch name is the repository's (or, read back, the kept index's) and may be
    long or hold a newline: invisible characters become spaces, runs of spaces one,
    and the name is cut so the label fits `LABEL_LIMIT` characters.
    """
    name = " ".join("".join(c if c.isprintable() else " " for c in branch).split())
    room = LABEL_LIMIT - len(commit[:7]) - 1
    if len(name) > room:
        name = name[: room - 1].rstrip() + "…"
    return f"{name or 'base'} {commit[:7]}"


def _from_history(
    settings: Settings,
    branch: str,
    event: Event,
    api: Api,
    log: Log,
    *,
    number: int | None,
) -> Choice:
    """The run kept for the pull request's base commit, or a note saying why none."""
    sha, ref = event.base_sha, event.base_ref or "the base branch"
    client = api()
    fill = (
        f"The next push to {ref} stores one (a workflow on push to {ref} with "
        f"history-branch: {branch} and contents: write)."
    )
    if client is None:
        return Choice(note=f"No github-token, so no kept run can be read. {fill}")
    started = time.perf_counter()
    with client:
        try:
            if number is not None:
                sha, ref = client.pull_base(number)
            if not isinstance(sha, str) or not sha:
                return Choice(note=f"The event names no base commit to look up. {fill}")
            history = History(client, branch, settings.comment_header)
            found = history.find(sha)
            earlier = () if found is None else earlier_records(history, found, log)
        except (GitDataError, HistoryUnreadable) as exc:
            log.warning(f"the kept run could not be read: {exc}", title=_TITLE)
            heal = (
                f"The next push to {ref} stores its run and rebuilds the index, keeping "
                "every run that can be read."
                if isinstance(exc, HistoryUnreadable)
                else fill
            )
            return Choice(
                note=f"A run is kept on {branch}, but it could not be read "
                f"({_short(str(exc))}). {heal}"
            )
    took = f"{client.requests} requests, {(time.perf_counter() - started) * 1000:.0f} ms"
    if found is None:
        log.info(f"history: no run kept for {sha[:7]} ({took})")
        return Choice(
            note=f"No run of {ref} is kept on {branch} for {sha[:7]} or its last "
            f"{WALK_LIMIT} first-parent ancestors. {fill}"
        )
    run = found.run
    label = settings.baseline_label or baseline_label(run.branch or ref, run.commit)
    log.info(
        f"history: gated against the run of {run.commit[:7]} ({found.commits_behind} "
        f"commits behind {sha[:7]}, stored {run.stored_at}; {len(found.records)} "
        f"records; {took})"
    )
    return Choice(
        found.records,
        BaselineRun(
            label=label,
            source="history",
            branch=run.branch or ref,
            commit=run.commit,
            stored_at=run.stored_at or None,
            commits_behind=found.commits_behind,
            trend=trend_points(found),
        ),
        history=earlier,
    )


def _short(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."
