"""The dry run: what the action would publish, printed, with no token and no network.

``python -m leaderboard.action --dry-run`` (or ``entrypoint.py --dry-run``, the
container's own entrypoint) reads the same ``INPUT_*`` inputs, ``GITHUB_*`` variables
and event file as the action, decides everything the action decides (`job.decide`: the
report, the exit status, every text) and prints, instead of publishing: the log lines,
the sticky comment, the job summary, the commit status (context, state, description)
and the step outputs. It writes no file (not the JSON report, not ``GITHUB_OUTPUT`` or
``GITHUB_STEP_SUMMARY``), ignores ``github-token`` and sends no request: the kept
history (``history-branch``, ``anchor``) and the pull request's labels are not read,
as in a run without a token. Its exit status is the one the action would have.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TextIO, cast

from leaderboard.action.event import Target, read_event, resolve_target
from leaderboard.action.history.gitdata import GitData
from leaderboard.action.job import EXIT_USAGE, OUT_OF_MEMORY, main
from leaderboard.action.job import decide as decide_run
from leaderboard.action.publish import Outcome, VerdictLog, output_values
from leaderboard.action.runner import Log
from leaderboard.action.settings import Settings
from leaderboard.action.status.plan import status_context
from leaderboard.action.texts import failure_texts
from leaderboard.errors import LeaderboardError, UsageError

__all__ = ["DRY_RUN", "dry_run", "entry"]

DRY_RUN = "--dry-run"
USAGE = f"usage: entrypoint.py [{DRY_RUN}]  (no arguments: run as the GitHub Action)"


def entry(argv: Sequence[str], env: Mapping[str, str] | None = None) -> int:
    """The container's entrypoint: the action, or with ``--dry-run`` the dry run."""
    if not argv:
        return main(env)
    if list(argv) == [DRY_RUN]:
        return dry_run(
            os.environ if env is None else env, cast(TextIO, _PipeSafe(sys.stdout))
        )
    sys.stderr.write(f"leaderboard: error: unknown arguments {list(argv)!r}; {USAGE}\n")
    return EXIT_USAGE


class _PipeSafe(io.TextIOBase):
    """Standard output that a closed pipe (``... --dry-run | head``) silences: the
    exit status still counts."""

    def __init__(self, stream: TextIO) -> None:
        self._stream: TextIO | None = stream

    def write(self, text: str) -> int:
        if self._stream is not None:
            try:
                self._stream.write(text)
            except BrokenPipeError:
                self._silence()
        return len(text)

    def flush(self) -> None:
        if self._stream is not None:
            try:
                self._stream.flush()
            except BrokenPipeError:
                self._silence()

    def _silence(self) -> None:
        stream, self._stream = self._stream, None
        if stream is not None:
            with contextlib.suppress(OSError, ValueError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())


def _offline() -> GitData | None:
    """The dry run's Git Data client: none, as without a token."""
    return None


def dry_run(env: Mapping[str, str], out: TextIO) -> int:
    """Print what the action would publish for `env`; return its exit status.

    Bad input or configuration prints the ``::error::`` line and the texts of a run
    that made no report (the failure comment, an ``error`` status) and returns 2.
    """
    error: LeaderboardError | None = None
    try:
        settings = Settings.from_env(env)
    except UsageError as exc:
        settings, error = Settings.from_env(env, lenient=True), exc
    log = Log(out, secrets=[settings.github_token])
    settings = replace(settings, github_token="")  # never sent anywhere
    target = Target(None, settings.sha, settings.run_id)
    _section(out, "dry run: nothing is posted, written or sent (no token, no network)")
    try:
        event = read_event(settings.event_path)
        target = resolve_target(settings, event)
        if error is not None:
            raise error
        decision = decide_run(settings, event, target, log, git=_offline, statuses=None)
    except (LeaderboardError, MemoryError) as exc:
        message = OUT_OF_MEMORY if isinstance(exc, MemoryError) else log.redact(str(exc))
        log.error(message, title="leaderboard: report not computed")
        texts = failure_texts(settings, target, message, log)
        outcome = Outcome(None, texts, EXIT_USAGE, failure=message)
    else:
        path = settings.json_report or settings.default_report_path()
        outcome = Outcome(decision.report, decision.texts, decision.status, path)
        VerdictLog(log).publish(outcome, {})
        if decision.store is not None:
            _section(out, f"history: would store this run on {decision.store.branch}")
    _print_outcome(settings, target, outcome, out)
    return outcome.status


def _print_outcome(
    settings: Settings, target: Target, outcome: Outcome, out: TextIO
) -> None:
    texts = outcome.texts
    number = target.pr_number
    if number is None:
        _section(out, "comment: none (no pull request)")
    elif not settings.comment:
        _section(out, f"comment: none (comment: false), on #{number}")
    else:
        _section(out, f"comment on #{number} (sticky, {settings.comment_header!r})")
        out.write(_ended(texts.comment))
    _section(out, "job summary")
    out.write(_ended(texts.summary))
    if not settings.commit_status:
        _section(out, "commit status: none (commit-status: false)")
    elif number is None:
        _section(out, "commit status: none (no pull request)")
    else:
        head = (target.head_sha or "(unknown head)")[:7]
        _section(out, f"commit status on {head} of #{number}")
        out.write(f"context: {status_context(settings.comment_header)}\n")
        out.write(f"state: {texts.state}\n")
        out.write(f"description: {texts.status}\n")
    _section(out, "step outputs")
    if outcome.report_path is not None:
        out.write(f"(the JSON report would be written to {outcome.report_path})\n")
    for name, value in output_values(settings, outcome, {}).items():
        out.write(f"{name}={_one_line(value)}\n")
    out.flush()


def _section(out: TextIO, title: str) -> None:
    out.write(f"\n===== {title} =====\n")


def _ended(text: str) -> str:
    return text if text.endswith("\n") else text + "\n"


def _one_line(value: str) -> str:
    return value.replace("\r", "\\r").replace("\n", "\\n")
