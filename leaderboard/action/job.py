"""The GitHub Action: from the runner's environment to a summary, outputs and a comment.

`main` alone reads ``os.environ`` and the event file and builds the GitHub client;
`run` orchestrates (settings and event in, the report, the publishers, the exit
status) with every collaborator handed in. Each job has a module of its own:
`workspace` (template, JSON report), `history.baseline`, `compute`,
`leaderboard.exits` (the exit status), `publish`, `comment.publisher`,
`status.publisher` and `history.store` (log, summary, outputs, comment, status,
history).

Exit status (CONTRACT.md section 4): 0 report made and no regression, 1 a gated
comparison regressed and ``fail-on-regression`` is true, 2 bad input or configuration
(one ``::error::`` annotation naming the problem), 3 a bug (its traceback is printed).
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TextIO

from leaderboard.action.comment.publisher import Comment, Commenter, make_commenter
from leaderboard.action.compute import compute_report, redacted, report_and_runs
from leaderboard.action.event import Event, Target, parse_event, read_event, resolve_target
from leaderboard.action.history.baseline import choose_baseline
from leaderboard.action.history.gitdata import Api, connect
from leaderboard.action.history.store import HistoryStore, StorePlan, plan_store
from leaderboard.action.publish import Outcome, Outputs, Summary, VerdictLog, publish_all
from leaderboard.action.runner import Log, print_traceback
from leaderboard.action.settings import Settings
from leaderboard.action.status.publisher import (
    CommitStatus,
    StatusClient,
    make_statuses,
    read_acceptance,
)
from leaderboard.action.texts import failure_texts, report_texts
from leaderboard.action.workspace import write_report
from leaderboard.errors import LeaderboardError, UsageError
from leaderboard.exits import (
    EXIT_BUG,
    EXIT_REGRESSED,
    EXIT_USAGE,
    exit_status,
    out_of_memory,
)
from leaderboard.render import Texts
from leaderboard.report import Report
from leaderboard.stats import accept

#: The exit-2 message when the results do not fit in the runner's memory.
OUT_OF_MEMORY = out_of_memory("resamples", "leaderboards (comment-header)")

__all__ = [
    "EXIT_BUG",
    "EXIT_USAGE",
    "OUT_OF_MEMORY",
    "Commenter",
    "Decision",
    "Target",
    "compute_report",
    "decide",
    "main",
    "resolve_target",
    "run",
]


def run(
    settings: Settings,
    commenter: Commenter | None,
    *,
    event: Event | Mapping[str, Any],
    out: TextIO,
    git: Api | None = None,
    statuses: StatusClient | None = None,
) -> int:
    """Compute the report and every text, publish them, and return the exit status.

    Everything is decided and rendered before the first publisher runs: the report,
    the accept label, the exit status, the kept history's plan and drift table, and
    every text (`leaderboard.render.render_texts`). The publishers only deliver.

    Parameters
    ----------
    settings : Settings
        The parsed inputs and runner variables.
    commenter : Commenter or None
        Posts the sticky comment; None when there is no token (a warning on a PR).
    event : Event or Mapping
        The parsed event (`leaderboard.action.event.read_event`), or its payload
        (the JSON of ``GITHUB_EVENT_PATH``), parsed here.
    out : TextIO
        The runner log.
    git : callable, optional
        Makes the kept history's Git Data client; by default from the settings.
    statuses : StatusClient, optional
        Sets the commit status and reads the pull request's labels
        (`leaderboard.action.status.publisher`); None: no status, no label read.
    """
    log = Log(out, secrets=[settings.github_token])
    event = event if isinstance(event, Event) else parse_event(event)
    target = Target(None, settings.sha, settings.run_id)
    try:
        target = resolve_target(settings, event)
        git = git or connect(
            token=settings.github_token,
            api_url=settings.api_url,
            repository=settings.repository,
        )
        decision = decide(settings, event, target, log, git=git, statuses=statuses)
        report_path = write_report(settings, decision.report)
    except LeaderboardError as exc:
        return report_failure(settings, commenter, target, exc, log, statuses=statuses)
    except MemoryError:
        error = UsageError(OUT_OF_MEMORY)
        return report_failure(settings, commenter, target, error, log, statuses=statuses)
    except Exception:
        with contextlib.suppress(Exception):  # the original exception is what matters
            report_failure(settings, commenter, target, None, log, statuses=statuses)
        raise
    outcome = Outcome(decision.report, decision.texts, decision.status, report_path)
    fork = event.from_fork(settings.repository)
    publish_all(
        [
            VerdictLog(log),
            HistoryStore(decision.store, settings, git, log),
            Summary(settings),
            Comment(settings, commenter, target, log),
            CommitStatus(settings, statuses, target, log, fork=fork),
            Outputs(settings),
        ],
        outcome,
        log,
    )
    return outcome.status


@dataclass(frozen=True)
class Decision:
    """Everything a run decides before its first publisher: what the dry run prints.

    Attributes
    ----------
    report : Report
        The redacted report, its verdict's accept label recorded.
    texts : Texts
        Every text the publishers deliver (`texts.report_texts`).
    status : int
        The exit status (`leaderboard.exits.exit_status`).
    store : StorePlan or None
        What a push to the default branch stores on ``history-branch``.
    """

    report: Report
    texts: Texts
    status: int
    store: StorePlan | None


def decide(
    settings: Settings,
    event: Event,
    target: Target,
    log: Log,
    *,
    git: Api,
    statuses: StatusClient | None,
) -> Decision:
    """The report, the accept label, the exit status, the store plan and every text.

    Nothing is published and nothing is written: `run` publishes the decision,
    `leaderboard.action.dry_run` prints it.

    Raises
    ------
    LeaderboardError
        Bad input or configuration (the run reports the failure, exit 2).
    """
    choice = choose_baseline(settings, event, git, log)
    computed, runs = report_and_runs(settings, choice, log, event=event, api=git)
    report = redacted(computed, log)
    label = settings.accept_label if report.gate.regressed else None  # read now
    report = accept(report, read_acceptance(statuses, target, label, log))
    status = exit_status(
        report,
        fail_on_regression=settings.fail_on_regression,
        fail_on_undetermined=settings.fail_on_undetermined,
    )
    store = plan_store(settings, event, api=git, report=report, runs=runs, log=log)
    texts = report_texts(
        settings,
        report,
        target,
        log,
        failing=status == EXIT_REGRESSED,
        summary_extra=[store.drift] if store is not None and store.drift else [],
    )
    return Decision(report, texts, status, store)


def report_failure(
    settings: Settings,
    commenter: Commenter | None,
    target: Target,
    exc: LeaderboardError | None,
    log: Log,
    *,
    statuses: StatusClient | None = None,
) -> int:
    """Tell everyone the leaderboard could not be computed, and return status 2.

    One ``::error::`` annotation, a note in the job summary, and on a pull request the
    sticky comment is replaced by the failure and the head commit's status set to
    ``error``, so that neither shows an older run's verdict as if it were current.
    With ``exc`` None (a bug) the comment and summary say so; the caller re-raises.
    """
    message = "internal error in leaderboard-action (a bug; the job log has the details)"
    if exc is not None:
        message = log.redact(str(exc))
        log.error(message, title="leaderboard: report not computed")
    outcome = Outcome(
        None, failure_texts(settings, target, message, log), EXIT_USAGE, failure=message
    )
    publish_all(
        [
            Summary(settings),
            Comment(settings, commenter, target, log),
            CommitStatus(settings, statuses, target, log),
            Outputs(settings),
        ],
        outcome,
        log,
    )
    return outcome.status


def main(env: Mapping[str, str] | None = None) -> int:
    """Run the action in the runner's environment; return the exit status."""
    env = os.environ if env is None else env
    out = sys.stdout
    error: LeaderboardError | None = None
    try:
        settings = Settings.from_env(env)
    except UsageError as exc:
        settings, error = Settings.from_env(env, lenient=True), exc
    event = Event()
    try:
        event = read_event(settings.event_path)
    except UsageError as exc:
        error = error or exc
    commenter = make_commenter(settings)
    statuses = make_statuses(settings)
    log = Log(out, secrets=[settings.github_token])
    try:
        if error is not None:
            target = Target(None, settings.sha, settings.run_id)
            with contextlib.suppress(UsageError):
                target = resolve_target(settings, event)
            return report_failure(
                settings, commenter, target, error, log, statuses=statuses
            )
        return run(settings, commenter, event=event, out=out, statuses=statuses)
    except Exception:
        print_traceback(log)
        log.error("internal error (a bug in leaderboard-action; traceback above)")
        return EXIT_BUG
