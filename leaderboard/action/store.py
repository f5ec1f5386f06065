"""Storing a push's run on the history branch, and the drift table it returns.

On a push to the default branch with ``history-branch``, the run (its records and JSON
report) is kept for the pull requests that branch from it (`leaderboard.action.history`
says how). Storing needs ``contents: write`` on the push's job. Every failure, a bug
included, is one warning: the job's status stays the gate's.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from leaderboard.action.gitdata import Api, EmptyRepository, GitDataError
from leaderboard.action.history import History, RunTooLarge, encode_records
from leaderboard.action.publish import Outcome
from leaderboard.action.runner import Log, append_summary, print_traceback
from leaderboard.action.settings import Settings
from leaderboard.inputs import EvalRun
from leaderboard.render.drift import KeptRun, render_drift
from leaderboard.report import Report

__all__ = ["HistoryStore", "default_branch_push", "store_push"]

_TITLE = "leaderboard: history"


@dataclass(frozen=True)
class HistoryStore:
    """A publisher (`leaderboard.action.publish`): `store_push`, before the summary."""

    settings: Settings
    event: Mapping[str, Any]
    api: Api
    runs: list[EvalRun]
    log: Log
    what: str = "history"
    #: Where the drift table goes: the job summary's publisher places it above the
    #: footer; without one it is appended to the summary.
    drift: list[str] | None = None

    def publish(self, outcome: Outcome, published: Mapping[str, str]) -> dict[str, str]:
        """Keep a push's run and add the drift table to the job summary.

        Does nothing unless ``history-branch`` is set and the report was made; off a
        push to the default branch it says so in the log. Never raises: a failure,
        even a bug, is one warning.
        """
        if self.settings.history_branch is None or outcome.report is None:
            return {}
        log = self.log
        try:
            drift = store_push(
                self.settings,
                self.event,
                api=self.api,
                report=outcome.report,
                runs=self.runs,
                log=log,
            )
        except Exception:  # a bug while storing must not change the gate's exit status
            print_traceback(log)
            log.warning(
                "run not stored: internal error (a bug in leaderboard-action; traceback "
                "above)",
                title=_TITLE,
            )
            return {}
        if drift and self.drift is not None:
            self.drift.append(log.redact(drift))  # placed above the summary's footer
        elif drift:
            append_summary(self.settings.summary_path, log.redact(drift))
        return {}


def default_branch_push(settings: Settings, event: Mapping[str, Any]) -> str | None:
    """The default branch's name when this run is a push to it, else None."""
    if settings.event_name != "push":
        return None
    default = _dict(event.get("repository")).get("default_branch")
    if not isinstance(default, str) or event.get("ref") != f"refs/heads/{default}":
        return None
    return default


def store_push(
    settings: Settings,
    event: Mapping[str, Any],
    *,
    api: Api,
    report: Report,
    runs: list[EvalRun],
    log: Log,
) -> str | None:
    """Store a push's run on the history branch; the drift table, or None.

    Every failure GitHub can cause is one warning; a bug raises (`HistoryStore` turns
    it into a warning).
    """
    branch = settings.history_branch
    default = default_branch_push(settings, event)
    commit = settings.sha or event.get("after")
    client = None
    if branch is None:
        return None
    if default is None:
        log.info(f"history: not a push to the default branch: nothing stored on {branch}")
    elif branch == default:
        log.warning(
            f"history-branch is {branch}, the default branch itself: nothing stored "
            "(name a branch of its own, e.g. leaderboard-history)",
            title=_TITLE,
        )
    else:
        client = api()
        if client is None or not isinstance(commit, str):
            log.warning(
                "run not stored: no github-token, repository or commit", title=_TITLE
            )
    if default is None or client is None or not isinstance(commit, str):
        return None
    # Everything written to the branch is redacted like the log (the report already
    # is): a model id of an artifact may spell the token, and the branch is readable
    # with contents: read, its git history kept after pruning.
    records = encode_records(runs, redact=log.redact)
    body = (log.redact(report.model_dump_json(indent=1)) + "\n").encode()
    models = {
        log.redact(r.model_id): [r.mean_score, r.mean_ci_lo, r.mean_ci_hi]
        for r in report.leaderboard
    }
    started = time.perf_counter()
    with client:
        try:
            stored = History(client, branch, settings.comment_header).store(
                commit=commit,
                branch=log.redact(default),
                records=records,
                report=body,
                count=len(runs),
                models=models,
                keep=settings.history_keep,
            )
        except (RunTooLarge, GitDataError) as exc:
            if isinstance(exc, EmptyRepository):
                why = "the repository is empty (no commit yet)"
            elif isinstance(exc, GitDataError) and exc.status == 403:
                why = f"{exc} (the push's job needs permissions: contents: write)"
            else:
                why = str(exc)
            log.warning(f"run not stored on {branch}: {why}", title=_TITLE)
            return None
    took = (time.perf_counter() - started) * 1000
    log.info(
        f"history: stored the run of {commit[:7]} on {branch} as {stored.commit[:7]} "
        f"({len(records):,} + {len(body):,} bytes, {len(stored.runs)} kept, "
        f"{len(stored.pruned)} pruned, {stored.attempts} attempt(s), "
        f"{client.requests} requests, {took:.0f} ms)"
    )
    kept = [
        KeptRun(r.commit, r.stored_at, {m: (v[0], v[1], v[2]) for m, v in r.models.items()})
        for r in stored.runs
    ]
    return render_drift(kept, branch=default, history_branch=branch)


def _dict(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}
