"""Every text a run publishes, rendered in one call from one report.

`render_texts` turns a `Report` (its `verdict` decided once by the statistics) into the
pull request comment, the job summary, the commit status description, the log's lines
and the step outputs the verdict decides; `render_failed` does the same for a run that
made no report. The shells only deliver these texts: none of them words a verdict.
"""

from __future__ import annotations

import pathlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from leaderboard.render.comment import CommentContext, render_failure, render_with_fallback
from leaderboard.render.plain import (
    LogLine,
    failure_description,
    log_lines,
    status_description,
    verdict_outputs,
)
from leaderboard.report import Report

__all__ = ["State", "Texts", "above_footer", "render_failed", "render_texts"]

#: The commit status's state: ``failure`` exactly when the step fails on the gate,
#: ``error`` when no report was made.
State = Literal["success", "failure", "error"]


@dataclass(frozen=True)
class Texts:
    """What one run says, on every surface.

    Attributes
    ----------
    comment : str
        The pull request comment's markdown.
    summary : str
        The job summary's markdown (the drift table of the kept history included).
    status : str
        The commit status description (plain text, at most 140 characters).
    state : str
        The commit status state: ``success``, ``failure`` or ``error``.
    log : tuple of LogLine
        The runner log's lines (the shell's logger escapes and annotates them).
    outputs : mapping of str to str
        The step outputs the verdict decides.
    template_error : str or None
        Why a user template was not used (the built-in one was), or None.
    """

    comment: str
    summary: str
    status: str
    state: State
    log: tuple[LogLine, ...] = ()
    outputs: Mapping[str, str] = field(default_factory=dict)
    template_error: str | None = None


def above_footer(summary: str, extra: Sequence[str]) -> str:
    """`summary` with `extra` sections placed before its last ``<sub>`` footer line."""
    if not extra:
        return summary
    added = "\n\n".join(e.strip("\n") for e in extra) + "\n\n"
    cut = summary.rfind("\n<sub>")
    if cut < 0:
        return summary.rstrip("\n") + "\n\n" + added
    return summary[: cut + 1] + added + summary[cut + 1 :]


def render_texts(
    report: Report,
    context: CommentContext | None = None,
    *,
    failing: bool,
    fail_on_regression: bool = True,
    log_notes: Mapping[str, str] | None = None,
    template: pathlib.Path | None = None,
    refused: str | None = None,
    summary_extra: Sequence[str] = (),
) -> Texts:
    """Every text of `report`, from its `verdict`.

    Parameters
    ----------
    report : Report
        The report; its ``verdict`` (``accepted`` included) is what every text tells.
    context : CommentContext, optional
        Head commit, links, header.
    failing : bool
        Whether the step fails (exit status 1): the commit status is ``failure``
        exactly then.
    fail_on_regression : bool
        Whether a regression fails the step (the log's line is an error, else a
        warning); an accepted one never does.
    log_notes : mapping of str to str, optional
        What the shell adds to the log's verdict line, by state (its option names).
    template : pathlib.Path, optional
        A user template for the comment and the summary (the built-in one if it fails).
    refused : str, optional
        Why the shell refused the template without reading it.
    summary_extra : sequence of str
        Markdown sections placed above the summary's footer (the drift table).
    """
    comment, error = render_with_fallback(
        report, context, template=template, refused=refused
    )
    summary, _ = render_with_fallback(
        report, context, template=template, target="summary", refused=refused
    )
    return Texts(
        comment=comment,
        summary=above_footer(summary, summary_extra),
        status=status_description(report),
        state="failure" if failing else "success",
        log=tuple(log_lines(report, failing=fail_on_regression, notes=log_notes)),
        outputs=verdict_outputs(report),
        template_error=error,
    )


def render_failed(message: str, context: CommentContext | None = None) -> Texts:
    """The texts of a run that made no report: the comment and summary say why, the
    commit status is ``error`` ("could not be computed"), no verdict output."""
    body = render_failure(message, context)
    return Texts(comment=body, summary=body, status=failure_description(), state="error")
