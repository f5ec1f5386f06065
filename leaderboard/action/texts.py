"""Every text of a run, from the report and the user's template, redacted.

The texts come from one call (`leaderboard.render.render_texts`); this module only
hands it what the action knows (the commit, the links, the user template once the
workspace has vouched for it, the action's own option names for the log) and redacts
what comes back. A user template that cannot be used (refused by
`workspace.check_template`, or failing to render) never hides the gate: the comment and
the summary fall back to the built-in template, which names the error, and one warning
says so. What any template renders is redacted (it may spell the token itself).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from leaderboard.action.event import Target
from leaderboard.action.runner import Log
from leaderboard.action.settings import Settings
from leaderboard.action.workspace import check_template
from leaderboard.errors import UsageError
from leaderboard.render import (
    CommentContext,
    Texts,
    render_failed,
    render_texts,
)
from leaderboard.report import Report

__all__ = ["comment_context", "failure_texts", "report_texts"]


def report_texts(
    settings: Settings,
    report: Report,
    target: Target,
    log: Log,
    *,
    failing: bool,
    summary_extra: Sequence[str] = (),
) -> Texts:
    """Every text the publishers deliver for `report`, redacted.

    `failing`: the step fails (exit status 1), which the commit status's state says.
    """
    template, refused = settings.template, None
    if template is not None:
        try:
            check_template(template, settings.workspace)
        except UsageError as exc:  # a broken template never hides the gate
            refused = str(exc)  # named in the fallback comment; the file is never read
    texts = render_texts(
        report,
        comment_context(settings, target),
        failing=failing,
        fail_on_regression=settings.fail_on_regression,
        log_notes={
            "regressed": ""
            if settings.fail_on_regression
            else " (fail-on-regression: false)",
            "cannot_tell": " (fail-on-undetermined: "
            f"{'true' if settings.fail_on_undetermined else 'false'})",
        },
        template=template,
        refused=refused,
        summary_extra=summary_extra,
    )
    if texts.template_error is not None:
        log.warning(
            f"{log.redact(texts.template_error)}; the comment and summary use the "
            "built-in template (the gate is unaffected)",
            title="leaderboard: template not used",
        )
    return _redacted(texts, log)


def failure_texts(settings: Settings, target: Target, message: str, log: Log) -> Texts:
    """The texts of a run that made no report (`message` says why), redacted."""
    return _redacted(render_failed(message, comment_context(settings, target)), log)


def _redacted(texts: Texts, log: Log) -> Texts:
    return replace(
        texts,
        comment=log.redact(texts.comment),
        summary=log.redact(texts.summary),
        status=log.redact(texts.status),
        log=tuple(replace(line, text=log.redact(line.text)) for line in texts.log),
        outputs={k: log.redact(v) for k, v in texts.outputs.items()},
    )


def comment_context(settings: Settings, target: Target) -> CommentContext:
    """What the templates know besides the report: the commit, links, the header."""
    return CommentContext(
        head_sha=target.head_sha,
        run_url=settings.run_url,
        header=settings.comment_header,
        summary_url=settings.run_url,
        docs_url=settings.docs_url,
        workspace=str(settings.workspace.resolve()),
    )
