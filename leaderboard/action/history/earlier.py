"""The kept runs before a pull request's baseline run: flaky evidence and the trend.

When a pull request is gated against a kept run (`leaderboard.action.history.baseline`), two
more things are read from the same history branch, at the same head:

- the records of up to `FLAKY_RUNS` - 1 runs stored before the baseline's (newest
  first, each one blob of at most `MAX_RUN_BYTES`), for the items whose outcome
  differs across kept runs (`leaderboard.stats.flaky`). A run that cannot be read is
  skipped with one log line: the evidence is then thinner, never wrong;
- the index's means of the runs up to the baseline's (at most `TREND_RUNS`, no extra
  request): the points of the comment's trend chart (`leaderboard.render.trend`).
"""

from __future__ import annotations

from leaderboard.action.history.branch import (
    MAX_RUN_BYTES,
    Found,
    History,
    HistoryUnreadable,
)
from leaderboard.action.history.gitdata import GitDataError
from leaderboard.action.runner import Log
from leaderboard.inputs import EvalRun
from leaderboard.render.trend import TREND_RUNS
from leaderboard.report import KeptMean, TrendPoint
from leaderboard.stats.flaky import FLAKY_RUNS

__all__ = ["FLAKY_RUNS", "MAX_RUN_BYTES", "TREND_RUNS", "earlier_records", "trend_points"]


def _upto(found: Found) -> list[str]:
    """The commits of the index up to the baseline's, oldest first."""
    commits = [r.commit for r in found.index]
    if found.run.commit not in commits:
        return [found.run.commit]
    return commits[: commits.index(found.run.commit) + 1]


def earlier_records(
    history: History, found: Found, log: Log
) -> tuple[tuple[EvalRun, ...], ...]:
    """The kept runs read for flaky items, oldest first, the baseline's run last."""
    before = _upto(found)[:-1][-(FLAKY_RUNS - 1) :]
    read: list[tuple[EvalRun, ...]] = []
    for sha in before:
        try:
            read.append(tuple(history.records(sha, found.head)))
        except (GitDataError, HistoryUnreadable) as exc:
            log.info(f"history: the run of {sha[:7]} not read for flaky items ({exc})")
    return (*read, tuple(found.records))


def trend_points(found: Found) -> list[TrendPoint]:
    """The index's runs up to the baseline's (at most `TREND_RUNS`), oldest first."""
    by_commit = {r.commit: r for r in found.index}
    points = []
    for sha in _upto(found)[-TREND_RUNS:]:
        run = by_commit.get(sha, found.run)
        points.append(
            TrendPoint(
                commit=sha,
                stored_at=run.stored_at or None,
                models={
                    m: KeptMean(mean=v[0], lo=v[1], hi=v[2]) for m, v in run.models.items()
                },
            )
        )
    return points
