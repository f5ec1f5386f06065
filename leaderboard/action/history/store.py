"""Storing a push's run on the history branch, and its drift table, planned first.

On a push to the default branch with ``history-branch``, the run (its records and JSON
report) is kept for the pull requests that branch from it
(`leaderboard.action.history.branch` says how). `plan_store` decides before anything is
published whether and what to store, and reads the runs kept so far, so that the drift
table (the kept runs with this one, as they will be after pruning) is rendered into the
job summary with everything else; `HistoryStore`, a publisher, only writes the run.
Storing needs ``contents: write`` on the push's job; every failure GitHub causes is one
warning, and the job's status stays the gate's.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime

from leaderboard.action.event import Event
from leaderboard.action.history.branch import History, RunTooLarge, encode_records
from leaderboard.action.history.gitdata import Api, EmptyRepository, GitDataError
from leaderboard.action.publish import Links, Outcome
from leaderboard.action.runner import Log
from leaderboard.action.settings import Settings
from leaderboard.inputs import EvalRun
from leaderboard.render import KeptRun, render_drift
from leaderboard.report import Report

__all__ = ["HistoryStore", "StorePlan", "plan_store"]

_TITLE = "leaderboard: history"
_NO_CLIENT = "run not stored: no github-token, repository or commit"


@dataclass(frozen=True)
class StorePlan:
    """What a push stores, decided before publishing, and the drift table it makes."""

    branch: str
    default: str
    commit: str
    records: bytes
    report: bytes
    count: int
    models: dict[str, list[float]]
    keep: int
    drift: str | None


@dataclass(frozen=True)
class HistoryStore:
    """A publisher (`leaderboard.action.publish`): writes the planned run, if any."""

    plan: StorePlan | None
    settings: Settings
    api: Api
    log: Log
    what: str = "history"

    def publish(self, outcome: Outcome, links: Links) -> dict[str, str]:
        """Store the planned run; a failure GitHub causes is one warning."""
        if self.plan is not None:
            store_planned(self.plan, self.settings, self.api, self.log)
        return {}


def plan_store(
    settings: Settings,
    event: Event,
    *,
    api: Api,
    report: Report,
    runs: list[EvalRun],
    log: Log,
) -> StorePlan | None:
    """What a push to the default branch stores, and its drift table; None otherwise.

    Off a push to the default branch (or with no way to store) the log says so and
    nothing is planned. The runs kept so far are read here: when they cannot be, the
    run is still stored and the summary has no drift table.
    """
    branch = settings.history_branch
    if branch is None:
        return None
    default = event.push_to_default(settings.event_name)
    commit = settings.sha or event.after
    if default is None:
        log.info(f"history: not a push to the default branch: nothing stored on {branch}")
        return None
    if branch == default:
        log.warning(
            f"history-branch is {branch}, the default branch itself: nothing stored "
            "(name a branch of its own, e.g. leaderboard-history)",
            title=_TITLE,
        )
        return None
    client = api()
    if client is None or not isinstance(commit, str):
        log.warning(_NO_CLIENT, title=_TITLE)
        return None
    # Everything written to the branch is redacted like the log (the report already
    # is): a model id of an artifact may spell the token, and the branch is readable
    # with contents: read, its git history kept after pruning.
    models = {
        log.redact(r.model_id): [r.mean_score, r.mean_ci_lo, r.mean_ci_hi]
        for r in report.leaderboard
    }
    kept: list[KeptRun] | None = None
    with client:
        try:
            head = client.head(branch)
            history = History(client, branch, settings.comment_header)
            stored = [] if head is None else history.read_index(head).runs
            kept = [
                _kept(r.commit, r.stored_at, r.models) for r in stored if r.commit != commit
            ]
        except GitDataError as exc:
            log.info(f"history: the kept runs could not be read ({exc}): no drift table")
    drift = None
    if kept is not None:
        now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        after = [*kept, _kept(commit, now, models)][-settings.history_keep :]
        drift = log.redact(render_drift(after, branch=default, history_branch=branch))
    return StorePlan(
        branch=branch,
        default=log.redact(default),
        commit=commit,
        records=encode_records(runs, redact=log.redact),
        report=(log.redact(report.model_dump_json(indent=1)) + "\n").encode(),
        count=len(runs),
        models=models,
        keep=settings.history_keep,
        drift=drift or None,
    )


def _kept(commit: str, stored_at: str, models: Mapping[str, list[float]]) -> KeptRun:
    """A kept run as the drift table reads it: each model's (mean, lo, hi)."""
    return KeptRun(commit, stored_at, {m: (v[0], v[1], v[2]) for m, v in models.items()})


def store_planned(plan: StorePlan, settings: Settings, api: Api, log: Log) -> None:
    """Store the planned run on the history branch; every GitHub failure one warning."""
    client = api()
    if client is None:
        log.warning(_NO_CLIENT, title=_TITLE)
        return
    started = time.perf_counter()
    with client:
        try:
            stored = History(client, plan.branch, settings.comment_header).store(
                commit=plan.commit,
                branch=plan.default,
                records=plan.records,
                report=plan.report,
                count=plan.count,
                models=plan.models,
                keep=plan.keep,
            )
        except (RunTooLarge, GitDataError) as exc:
            if isinstance(exc, EmptyRepository):
                why = "the repository is empty (no commit yet)"
            elif isinstance(exc, GitDataError) and exc.status == 403:
                why = f"{exc} (the push's job needs permissions: contents: write)"
            else:
                why = str(exc)
            log.warning(f"run not stored on {plan.branch}: {why}", title=_TITLE)
            return
    took = (time.perf_counter() - started) * 1000
    log.info(
        f"history: stored the run of {plan.commit[:7]} on {plan.branch} as "
        f"{stored.commit[:7]} ({len(plan.records):,} + {len(plan.report):,} bytes, "
        f"{len(stored.runs)} kept, {len(stored.pruned)} pruned, {stored.attempts} "
        f"attempt(s), {client.requests} requests, {took:.0f} ms)"
    )
