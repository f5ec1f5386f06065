"""The GitHub Action: from the runner's environment to a summary, outputs and a comment.

`main` is the only function that reads ``os.environ``, the event file, or builds the
GitHub client; `run` does the work with every collaborator handed in, so that tests
can drive it with a fake commenter and a dict for an event.

Exit status (CONTRACT.md section 4): 0 report made and no regression, 1 a gated
comparison regressed and ``fail-on-regression`` is true, 2 bad input or configuration
(one ``::error::`` annotation naming the problem). A comment that cannot be posted
(a fork's read-only token, an API outage, even a bug while commenting) is one
warning, never a different status. Any other unexpected exception is a bug: its
traceback is printed and the status is 3.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import sys
import tempfile
import traceback
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, Protocol, TextIO

from leaderboard.action.baseline import (
    Api,
    Choice,
    choose_baseline,
    git_client,
    store_push,
)
from leaderboard.action.event import Target, read_event, resolve_target
from leaderboard.action.runner import Log, append_summary, write_outputs
from leaderboard.action.settings import Settings
from leaderboard.errors import LeaderboardError, UsageError
from leaderboard.inputs import EvalRun, load_runs_noting
from leaderboard.render import (
    CommentContext,
    log_text,
    render_comment,
    render_failure,
    render_summary,
)
from leaderboard.report import Report
from leaderboard.stats import build_report

__all__ = [
    "Commenter",
    "Target",
    "compute_report",
    "main",
    "report_failure",
    "resolve_target",
    "run",
]

EXIT_OK, EXIT_REGRESSED, EXIT_USAGE, EXIT_BUG = 0, 1, 2, 3
LOG_ROWS = 25  # leaderboard rows printed in the log; the summary has them all


class Commenter(Protocol):
    """What `run` needs from `leaderboard.action.comments.GitHubCommenter`."""

    def upsert(
        self,
        *,
        pr_number: int,
        header: str,
        body: str,
        head_sha: str | None,
        run_id: int | None,
        require_head: bool = False,
    ) -> str: ...


def run(
    settings: Settings,
    commenter: Commenter | None,
    *,
    event: Mapping[str, Any],
    out: TextIO,
    compute: Callable[[Settings], Report] | None = None,
    git: Api | None = None,
) -> int:
    """Compute the report and hand it to the runner and the pull request.

    Parameters
    ----------
    settings : Settings
        The parsed inputs and runner variables.
    commenter : Commenter or None
        Posts the sticky comment; None when there is no token (a warning on a PR).
    event : Mapping
        The event payload (the JSON of ``GITHUB_EVENT_PATH``).
    out : TextIO
        The runner log.
    compute : callable, optional
        Turns the settings into a report; by default the results are loaded, the
        baseline run chosen (`leaderboard.action.baseline`), and the report built.
    git : callable, optional
        Makes the Git Data client of the kept history (None: no token); by default
        from the settings.

    Returns
    -------
    int
        The exit status.
    """
    log = Log(out, secrets=[settings.github_token])
    target = Target(None, settings.sha, settings.run_id)
    try:
        target = resolve_target(settings, event)
        context = _context(settings, target)
        if settings.template is not None:
            _check_template(settings.template, settings.workspace)
        git = git or git_client(settings)
        runs: list[EvalRun] | None = None
        if compute is not None:
            computed = compute(settings)
        else:
            computed, runs = _compute(
                settings, choose_baseline(settings, event, git, log), log
            )
        # Ids come from artifacts: one equal to the token is redacted before markdown
        # escaping could disguise it (`ghs\_...`), and the JSON report never holds it.
        report = _redacted(computed, log)
        # What a template renders is redacted too (it may spell the token itself).
        comment = log.redact(render_comment(report, context, template=settings.template))
        summary = log.redact(render_summary(report, context, template=settings.template))
        report_path = _write_report(settings, report)
    except LeaderboardError as exc:
        return report_failure(settings, commenter, target, exc, log)
    except MemoryError:
        problem = UsageError(
            "ran out of memory: the results are larger than this runner can hold; "
            "lower resamples, compare fewer models, or split the results into "
            "several leaderboards (comment-header)"
        )
        return report_failure(settings, commenter, target, problem, log)
    except Exception:
        with contextlib.suppress(Exception):  # the original exception is what matters
            report_failure(settings, commenter, target, None, log)
        raise

    _log_verdict(report, log, failing=settings.fail_on_regression)
    append_summary(settings.summary_path, summary)
    if runs is not None and settings.history_branch is not None:
        _store(settings, event, git=git, report=report, runs=runs, log=log)
    write_outputs(
        settings.output_path,
        {
            "regressed": _bool(report.gate.regressed),
            "report": _display(settings, report_path),
        },
    )
    url = _post(settings, commenter, target, comment, log)
    write_outputs(settings.output_path, {"comment-url": url or ""})
    if report.gate.regressed and settings.fail_on_regression:
        return EXIT_REGRESSED
    return EXIT_OK


def report_failure(
    settings: Settings,
    commenter: Commenter | None,
    target: Target,
    exc: LeaderboardError | None,
    log: Log,
) -> int:
    """Tell everyone the leaderboard could not be computed, and return status 2.

    One ``::error::`` annotation, a note in the job summary, and on a pull request the
    sticky comment is replaced by the failure, so that it never shows an older
    commit's numbers as if they were current. With ``exc`` None (a bug) the comment
    and summary say so; the caller re-raises.
    """
    if exc is None:
        message = (
            "internal error in leaderboard-action (a bug; the job log has the details)"
        )
    else:
        message = log.redact(str(exc))
        log.error(message, title="leaderboard: report not computed")
    context = _context(settings, target)
    body = render_failure(message, context)
    append_summary(settings.summary_path, body)
    url = _post(settings, commenter, target, body, log)
    if url:
        write_outputs(settings.output_path, {"comment-url": url})
    return EXIT_USAGE


def main(env: Mapping[str, str] | None = None) -> int:
    """Run the action in the runner's environment; return the exit status."""
    env = os.environ if env is None else env
    out = sys.stdout
    error: LeaderboardError | None = None
    try:
        settings = Settings.from_env(env)
    except UsageError as exc:
        settings, error = Settings.from_env(env, lenient=True), exc
    event: Mapping[str, Any] = {}
    try:
        event = read_event(settings.event_path)
    except UsageError as exc:
        error = error or exc
    commenter = _make_commenter(settings)
    log = Log(out, secrets=[settings.github_token])
    try:
        if error is not None:
            target = Target(None, settings.sha, settings.run_id)
            with contextlib.suppress(UsageError):
                target = resolve_target(settings, event)
            return report_failure(settings, commenter, target, error, log)
        return run(settings, commenter, event=event, out=out)
    except Exception:
        _print_traceback(log)
        log.error("internal error (a bug in leaderboard-action; traceback above)")
        return EXIT_BUG


def _print_traceback(log: Log) -> None:
    """Print the current exception's traceback on stderr, safe for the runner log.

    The runner reads stderr as log lines too, and an exception's message may quote an
    id from the artifact or, from a library, the token: each line is redacted and
    passed through `log_text`, so it can neither start a workflow command nor show a
    secret.
    """
    for line in traceback.format_exc().splitlines():
        sys.stderr.write(log_text(log.redact(line)) + "\n")
    sys.stderr.flush()


def _check_template(template: Path, workspace: Path) -> None:
    """A template is a regular file inside the workspace, not a link, not under .git/.

    Its text goes into a public comment: a path such as /proc/self/environ, a link
    out of the checkout or to ``.git/config`` (where actions/checkout keeps the token,
    base64-encoded) would publish whatever the runner's files hold.
    """
    shown = str(template)
    fix = "keep the template in the repository (for example .github/leaderboard.md.j2)"
    if template.is_symlink():
        raise UsageError(f"template: {shown!r} is a symbolic link; {fix}, as a file")
    if not template.is_file():
        raise UsageError(f"template: no such file {shown!r}")
    root = workspace.resolve()
    real = template.resolve()
    if not real.is_relative_to(root):
        raise UsageError(f"template: {shown!r} is outside the workspace; {fix}")
    if ".git" in real.relative_to(root).parts:
        raise UsageError(
            f"template: {shown!r} lies under .git/, which holds the checkout's "
            f"credentials; {fix}"
        )
    lexical = Path(os.path.abspath(template))
    if not lexical.is_relative_to(os.path.abspath(workspace)) or lexical.relative_to(
        os.path.abspath(workspace)
    ) != real.relative_to(root):
        # A folder on the way is a link: the file is not where the input says.
        raise UsageError(f"template: {shown!r} is reached through a link; {fix}")


@contextlib.contextmanager
def _files_logged(log: Log | None) -> Iterator[None]:
    """Show the loader's "read FILE: N records" lines in the runner log."""
    if log is None:
        yield
        return
    logger = logging.getLogger("leaderboard.inputs")
    handler = _LogHandler(log)
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


class _LogHandler(logging.Handler):
    def __init__(self, log: Log) -> None:
        super().__init__(logging.INFO)
        self.log = log

    def emit(self, record: logging.LogRecord) -> None:
        self.log.info(record.getMessage())


def compute_report(settings: Settings, choice: Choice | None = None) -> Report:
    """Load the results and build the report the inputs ask for.

    Raises
    ------
    LeaderboardError
        Bad input (`InputError`) or settings the data contradicts (`UsageError`).
    """
    return _compute(settings, choice)[0]


def _compute(
    settings: Settings, choice: Choice | None, log: Log | None = None
) -> tuple[Report, list[EvalRun]]:
    with _files_logged(log):
        runs, notes = load_runs_noting(
            settings.results,
            format=settings.format,
            root=settings.workspace,
            metrics=settings.metric,
            task_weights=settings.task_weights,
        )
    second = choice is not None and choice.runs is not None
    # `candidates` narrow a gate; with history-branch there is none on a push, or when
    # no kept run could be read.
    gated = settings.baseline is not None or second
    report = build_report(
        runs,
        baseline=settings.baseline,
        candidates=(list(settings.candidates) or None) if gated else None,
        confidence=settings.confidence,
        resamples=settings.resamples,
        seed=settings.seed,
        margin=settings.margin,
        gate_categories=settings.gate_categories,
        baseline_runs=choice.runs if choice is not None and second else None,
        baseline_run=choice.run if choice is not None and second else None,
    )
    warnings = [*notes, *(choice.notes if choice else ()), *report.warnings]
    report = report.model_copy(update={"warnings": list(dict.fromkeys(warnings))})
    if choice is not None and choice.note is not None:
        gate = report.gate.model_copy(
            update={"status": "no_baseline_run", "note": choice.note}
        )
        report = report.model_copy(update={"gate": gate})
    return report, runs


def _redacted(report: Report, log: Log) -> Report:
    """`report` with every secret (and its encoded forms) in any string replaced."""
    text = report.model_dump_json()
    clean = log.redact(text)
    return report if clean == text else Report.model_validate_json(clean)


def _context(settings: Settings, target: Target) -> CommentContext:
    return CommentContext(
        head_sha=target.head_sha,
        run_url=settings.run_url,
        header=settings.comment_header,
        summary_url=settings.run_url,
        docs_url=settings.docs_url,
        workspace=str(settings.workspace.resolve()),
    )


def _write_report(settings: Settings, report: Report) -> Path:
    """Write the JSON report inside the workspace, through a temporary file.

    A committed symbolic link at the path is replaced, never written through (it could
    point anywhere on the runner); a path outside the workspace, or whose folders lead
    out of it through links, is refused.
    """
    path = settings.json_report or settings.default_report_path()
    shown = str(path)
    root = settings.workspace.resolve()
    fix = "give a path relative to the workspace, such as out/leaderboard.json"
    if not _inside(path.parent, settings.workspace):
        raise UsageError(f"json-report: {shown!r} is outside the workspace; {fix}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.parent.resolve().is_relative_to(root):  # raced, or a link
            raise UsageError(f"json-report: {shown!r} is outside the workspace; {fix}")
        if path.is_dir() and not path.is_symlink():
            raise IsADirectoryError(errno.EISDIR, "Is a directory")
        handle, temp = tempfile.mkstemp(prefix=".leaderboard-", dir=path.parent)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(report.model_dump_json(indent=2) + "\n")
            os.chmod(temp, 0o644)
            os.replace(temp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temp)
            raise
    except OSError as exc:
        raise UsageError(f"json-report: cannot write {shown!r}: {exc.strerror}") from None
    _give_to_workspace_owner(settings.workspace, path)
    return path


def _inside(folder: Path, workspace: Path) -> bool:
    """Whether `folder` lies in `workspace`, by name and after links are followed.

    A folder yet to be made is judged by its nearest existing ancestor.
    """
    lexical = Path(os.path.abspath(folder))
    if not lexical.is_relative_to(os.path.abspath(workspace)):
        return False
    probe = lexical
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    return probe.resolve().is_relative_to(workspace.resolve())


def _give_to_workspace_owner(workspace: Path, path: Path) -> None:
    """A container action runs as root: hand the file to the job's user, if we can."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return
    try:
        owner = workspace.stat()
        if (owner.st_uid, owner.st_gid) != (0, 0) and path.resolve().is_relative_to(
            workspace.resolve()
        ):
            os.chown(path, owner.st_uid, owner.st_gid)
    except OSError:
        pass


def _display(settings: Settings, path: Path) -> str:
    """The report's path for the ``report`` output.

    Relative to the workspace when inside it: the container sees the workspace at
    ``/github/workspace``, the job's later steps at ``$GITHUB_WORKSPACE``, and a
    relative path means the same file to both.
    """
    try:
        return str(path.relative_to(settings.workspace))
    except ValueError:
        return str(path)


def _post(
    settings: Settings, commenter: Commenter | None, target: Target, body: str, log: Log
) -> str | None:
    """Post or update the sticky comment; warn (once) and return None if that fails."""
    if target.pr_number is None:
        log.info(
            f"event {settings.event_name or '(none)'}: no pull request, so no comment "
            "(job summary and outputs only)"
        )
        return None
    if not settings.comment:
        log.info(f"comment: false, so no comment on #{target.pr_number}")
        return None
    if commenter is None:
        log.warning(
            f"comment not posted on #{target.pr_number}: no github-token or "
            "GITHUB_REPOSITORY; the job summary has the report",
            title="leaderboard: comment not posted",
        )
        return None
    from leaderboard.action.comments import CommentError  # noqa: PLC0415 - keeps PyGithub lazy

    # Passed only when needed, so that commenters written before it keep working.
    check = {"require_head": True} if target.unconfirmed else {}
    try:
        url = commenter.upsert(
            pr_number=target.pr_number,
            header=settings.comment_header,
            body=body,
            head_sha=target.head_sha,
            run_id=target.run_id,
            **check,
        )
    except CommentError as exc:
        log.warning(
            f"comment not posted on #{target.pr_number}: {exc}. The job summary and the "
            "outputs have the report; for pull requests from forks see the two-workflow "
            "recipe (examples/workflows/leaderboard-fork-safe-*.yml)",
            title="leaderboard: comment not posted",
        )
        return None
    except Exception:  # a bug while commenting must not hide the gate
        _print_traceback(log)
        log.warning(
            f"comment not posted on #{target.pr_number}: internal error (a bug in "
            "leaderboard-action; traceback above). The job summary and the outputs have "
            "the report",
            title="leaderboard: comment not posted",
        )
        return None
    log.info(f"comment: {url}")
    return url


def _store(
    settings: Settings,
    event: Mapping[str, Any],
    *,
    git: Api,
    report: Report,
    runs: list[EvalRun],
    log: Log,
) -> None:
    """Keep a push's run; a failure, even a bug, is one warning, never the job's status."""
    try:
        drift = store_push(settings, event, api=git, report=report, runs=runs, log=log)
    except Exception:  # a bug while storing must not change the gate's exit status
        _print_traceback(log)
        log.warning(
            "run not stored: internal error (a bug in leaderboard-action; traceback above)",
            title="leaderboard: history",
        )
        return
    if drift:
        append_summary(settings.summary_path, log.redact(drift))


def _log_verdict(report: Report, log: Log, *, failing: bool) -> None:
    data = report.data
    log.info(
        f"leaderboard: {data.models} models, {data.tasks} tasks, {data.records} records; "
        f"intervals at {report.settings.confidence:.10g}"
    )
    for row in report.leaderboard[:LOG_ROWS]:
        log.info(
            f"  {row.rank}. {row.model_id}: {row.mean_score:.4f} "
            f"[{row.mean_ci_lo:.4f}, {row.mean_ci_hi:.4f}]"
        )
    if len(report.leaderboard) > LOG_ROWS:
        log.info(f"  ... {len(report.leaderboard) - LOG_ROWS} more in the job summary")
    for note in report.warnings:
        log.warning(note, title="leaderboard: data")
    gate = report.gate
    if gate.baseline is None:
        log.info("gate: none (no baseline)")
        return
    for c in gate.comparisons:
        line = (
            f"{c.candidate} - {c.baseline} ({c.scope}): {c.diff_mean:+.4f} "
            f"[{c.ci_lo:+.4f}, {c.ci_hi:+.4f}] at {c.confidence:.10g}, "
            f"margin {c.margin:.10g}"
        )
        if c.regressed and failing:
            log.error(f"regression: {line}", title="leaderboard: regression")
        elif c.regressed:
            log.warning(
                f"regression: {line} (fail-on-regression: false)",
                title="leaderboard: regression",
            )
        elif c.status == "undetermined":
            log.warning(f"gate: {line}: cannot tell: {c.note}", title="leaderboard: gate")
        else:
            log.info(f"gate: {line}: no regression")


def _make_commenter(settings: Settings) -> Commenter | None:
    if not settings.github_token or not settings.repository:
        return None
    from leaderboard.action.comments import GitHubCommenter  # noqa: PLC0415 - keeps PyGithub lazy

    return GitHubCommenter(
        token=settings.github_token,
        api_url=settings.api_url,
        repository=settings.repository,
        bot_login=settings.bot_login,
    )


def _bool(value: bool) -> str:
    return "true" if value else "false"
