"""Where the verdict goes: publishers behind one interface, run in order.

A `Publisher` gets the `Outcome` (the report, the rendered markdown, the exit status)
and the step outputs published so far (a later publisher may link the comment), and
returns the outputs it adds. `publish_all` runs them; a publisher that fails, even
with a bug, is one warning and never changes the exit status, which `Outcome` carries
already decided (`leaderboard.action.policy`).

The runner log, the job summary and the step outputs are here; the pull request's
comment is `leaderboard.action.post`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from leaderboard.action.runner import Log, append_summary, print_traceback, write_outputs
from leaderboard.action.settings import Settings
from leaderboard.action.workspace import display_path
from leaderboard.report import Report

__all__ = [
    "Outcome",
    "Outputs",
    "Publisher",
    "Summary",
    "VerdictLog",
    "above_footer",
    "publish_all",
]

LOG_ROWS = 25  # leaderboard rows printed in the log; the summary has them all


@dataclass(frozen=True)
class Outcome:
    """What one run of the action has to say.

    Attributes
    ----------
    report : Report or None
        The report; None when it could not be computed (`failure` says why).
    comment : str
        The pull request comment's markdown (redacted).
    summary : str
        The job summary's markdown (redacted).
    status : int
        The exit status, decided before publishing.
    report_path : pathlib.Path or None
        The JSON report written in the workspace.
    failure : str or None
        Why no report was made (an ``::error::`` has said so), or None.
    accepted : str or None
        The ``accept-label`` that accepted the regression, or None.
    """

    report: Report | None
    comment: str
    summary: str
    status: int
    report_path: Path | None = None
    failure: str | None = None
    accepted: str | None = None


class Publisher(Protocol):
    """One destination of the verdict."""

    @property
    def what(self) -> str:
        """Named in the warning when publishing fails ("comment", "job summary")."""
        ...

    def publish(self, outcome: Outcome, published: Mapping[str, str]) -> dict[str, str]:
        """Publish `outcome`; return the step outputs this adds (may be empty).

        `published` holds the outputs of the publishers before it. Expected failures
        (GitHub refused, no permission) are this publisher's to report, once; an
        exception that escapes is a bug, which `publish_all` turns into one warning.
        """
        ...


def publish_all(
    publishers: Sequence[Publisher], outcome: Outcome, log: Log
) -> dict[str, str]:
    """Run each publisher in order; return every output they added."""
    published: dict[str, str] = {}
    for publisher in publishers:
        try:
            published.update(publisher.publish(outcome, published))
        except Exception:  # a bug while publishing must not hide or change the gate
            print_traceback(log)
            log.warning(
                f"{publisher.what} not published: internal error (a bug in "
                "leaderboard-action; traceback above)",
                title=f"leaderboard: {publisher.what} not published",
            )
    return published


@dataclass(frozen=True)
class VerdictLog:
    """The leaderboard's top rows, the data's warnings and each comparison, in the log."""

    settings: Settings
    log: Log
    what: str = "log"

    def publish(self, outcome: Outcome, published: Mapping[str, str]) -> dict[str, str]:
        """Print the verdict lines; a regression that fails the step is an error."""
        if outcome.report is not None:
            _log_verdict(
                outcome.report,
                self.log,
                failing=self.settings.fail_on_regression,
                accepted=outcome.accepted,
                undetermined_fails=self.settings.fail_on_undetermined,
            )
        return {}


@dataclass(frozen=True)
class Summary:
    """The job summary (``GITHUB_STEP_SUMMARY``)."""

    settings: Settings
    what: str = "job summary"
    #: Sections added by publishers before it (the kept history's drift table),
    #: placed above the summary's footer line.
    extra: list[str] | None = None

    def publish(self, outcome: Outcome, published: Mapping[str, str]) -> dict[str, str]:
        """Append the summary's markdown, any `extra` above its footer."""
        append_summary(
            self.settings.summary_path, above_footer(outcome.summary, self.extra)
        )
        return {}


def above_footer(summary: str, extra: Sequence[str] | None) -> str:
    """`summary` with `extra` sections placed before its last ``<sub>`` footer line."""
    if not extra:
        return summary
    added = "\n\n".join(e.strip("\n") for e in extra) + "\n\n"
    cut = summary.rfind("\n<sub>")
    if cut < 0:
        return summary.rstrip("\n") + "\n\n" + added
    return summary[: cut + 1] + added + summary[cut + 1 :]


@dataclass(frozen=True)
class Outputs:
    """The step outputs (``GITHUB_OUTPUT``), written last, once.

    With a report: ``regressed``, ``accepted``, ``gate-status``, ``report`` and
    ``comment-url`` (empty when no comment was posted); without one, only a
    ``comment-url`` that was posted.
    """

    settings: Settings
    what: str = "step outputs"

    def publish(self, outcome: Outcome, published: Mapping[str, str]) -> dict[str, str]:
        """Write the outputs of the report and of the publishers before."""
        outputs: dict[str, str] = {}
        if outcome.report is not None:
            outputs["regressed"] = "true" if outcome.report.gate.regressed else "false"
            outputs["accepted"] = "true" if outcome.accepted else "false"
            outputs["gate-status"] = outcome.report.gate.status
            if outcome.report_path is not None:
                outputs["report"] = display_path(self.settings, outcome.report_path)
            outputs["comment-url"] = ""
        outputs.update({k: v for k, v in published.items() if v or outcome.report})
        write_outputs(self.settings.output_path, outputs)
        return {}


def _log_verdict(
    report: Report,
    log: Log,
    *,
    failing: bool,
    accepted: str | None = None,
    undetermined_fails: bool = False,
) -> None:
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
        if c.regressed and accepted:
            log.warning(
                f"regression: {line} (accepted by label {accepted!r})",
                title="leaderboard: regression accepted",
            )
        elif c.regressed and failing:
            log.error(f"regression: {line}", title="leaderboard: regression")
        elif c.regressed:
            log.warning(
                f"regression: {line} (fail-on-regression: false)",
                title="leaderboard: regression",
            )
        elif c.status == "undetermined":
            log.info(f"gate: {line}: cannot tell: {c.note}")
        else:
            log.info(f"gate: {line}: no regression")
    if gate.status == "undetermined":  # one annotation, however many cannot tell
        why = gate.note or next(
            (c.note for c in gate.comparisons if c.status == "undetermined" and c.note),
            "the data cannot tell",
        )
        log.warning(
            f"gate cannot tell: {why}; not a pass (fail-on-undetermined: "
            f"{'true' if undetermined_fails else 'false'})",
            title="leaderboard: gate undetermined",
        )
