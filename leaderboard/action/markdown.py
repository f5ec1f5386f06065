"""The comment's and the job summary's markdown, from the report and the user's template.

A user template that cannot be used (refused by `workspace.check_template`, or failing
to render) never hides the gate: both fall back to the built-in template, which names
the template's error, and one warning says so. What any template renders is redacted
(it may spell the token itself).
"""

from __future__ import annotations

from leaderboard.action.event import Target
from leaderboard.action.runner import Log
from leaderboard.action.settings import Settings
from leaderboard.action.workspace import check_template
from leaderboard.errors import UsageError
from leaderboard.render import CommentContext, render_with_fallback
from leaderboard.report import Report

__all__ = ["comment_context", "render_markdown"]


def render_markdown(
    settings: Settings, report: Report, context: CommentContext, log: Log
) -> tuple[str, str]:
    """The comment's and the summary's markdown, redacted.

    Returns
    -------
    tuple of str
        The comment, the job summary.
    """
    template, refused = settings.template, None
    if template is not None:
        try:
            check_template(template, settings.workspace)
        except UsageError as exc:  # a broken template never hides the gate
            refused = str(exc)  # named in the fallback comment; the file is never read
    comment, error = render_with_fallback(
        report, context, template=template, refused=refused
    )
    summary, _ = render_with_fallback(
        report, context, template=template, target="summary", refused=refused
    )
    if error is not None:
        log.warning(
            f"{log.redact(error)}; the comment and summary use the built-in "
            "template (the gate is unaffected)",
            title="leaderboard: template not used",
        )
    return log.redact(comment), log.redact(summary)


def comment_context(
    settings: Settings, target: Target, *, accepted_by: str | None = None
) -> CommentContext:
    """What the templates know besides the report: the commit, links, the header.

    `accepted_by` is the accept label the pull request carries (a regression accepted).
    """
    return CommentContext(
        accepted_by=accepted_by,
        head_sha=target.head_sha,
        run_url=settings.run_url,
        header=settings.comment_header,
        summary_url=settings.run_url,
        docs_url=settings.docs_url,
        workspace=str(settings.workspace.resolve()),
    )
