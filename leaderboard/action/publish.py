"""Where the verdict goes: publishers behind one interface, run in order.

Everything a publisher delivers is computed and rendered before the first one runs
(`Outcome`: the report, every text from `leaderboard.render.render_texts`, the exit
status). A publisher only delivers; none reads another's result, except the links
`publish_all` hands on (the comment's URL, for the commit status's target and the
``comment-url`` output). `publish_all` is the one boundary where a bug while
publishing becomes one warning: it never changes the exit status, which `Outcome`
carries already decided (`leaderboard.exits`).

The runner log, the job summary and the step outputs are here; the comment is
`leaderboard.action.comment.publisher`, the commit status
`leaderboard.action.status.publisher`, the kept history `leaderboard.action.history.store`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from leaderboard.action.runner import Log, append_summary, print_traceback, write_outputs
from leaderboard.action.settings import Settings
from leaderboard.action.workspace import display_path
from leaderboard.render import Texts
from leaderboard.report import Report

__all__ = [
    "Links",
    "Outcome",
    "Outputs",
    "Publisher",
    "Summary",
    "VerdictLog",
    "output_values",
    "publish_all",
]

#: The links publishers hand on (``comment-url``): data, never a publisher's state.
Links = Mapping[str, str]


@dataclass(frozen=True)
class Outcome:
    """What one run of the action has to say, all of it decided before publishing.

    Attributes
    ----------
    report : Report or None
        The report (its verdict's ``accepted`` included); None when it could not be
        computed (`failure` says why).
    texts : Texts
        Every text the publishers deliver (redacted).
    status : int
        The exit status, decided before publishing.
    report_path : pathlib.Path or None
        The JSON report written in the workspace.
    failure : str or None
        Why no report was made (an ``::error::`` has said so), or None.
    """

    report: Report | None
    texts: Texts
    status: int
    report_path: Path | None = None
    failure: str | None = None


class Publisher(Protocol):
    """One destination of the verdict."""

    @property
    def what(self) -> str:
        """Named in the warning when publishing fails ("comment", "job summary")."""
        ...

    def publish(self, outcome: Outcome, links: Links) -> dict[str, str]:
        """Deliver `outcome`; return the links this adds (``comment-url``), if any.

        `links` holds the links of the publishers before it. Expected failures
        (GitHub refused, no permission) are this publisher's to report, once; an
        exception that escapes is a bug, which `publish_all` turns into one warning.
        """
        ...


def publish_all(publishers: Sequence[Publisher], outcome: Outcome, log: Log) -> None:
    """Run each publisher in order, handing on the links they add.

    The one place where a bug while publishing is caught: its traceback and one
    warning, and the next publisher still runs.
    """
    links: dict[str, str] = {}
    for publisher in publishers:
        try:
            links.update(publisher.publish(outcome, links))
        except Exception:  # the boundary: a bug while publishing must not hide the gate
            print_traceback(log)
            log.warning(
                f"{publisher.what} not published: internal error (a bug in "
                "leaderboard-action; traceback above)",
                title=f"leaderboard: {publisher.what} not published",
            )


@dataclass(frozen=True)
class VerdictLog:
    """The log's lines (`leaderboard.render.plain.log_lines`), as annotations where
    they say so."""

    log: Log
    what: str = "log"

    def publish(self, outcome: Outcome, links: Links) -> dict[str, str]:
        """Print the rendered lines."""
        for line in outcome.texts.log:
            if line.level == "error":
                self.log.error(line.text, title=line.title)
            elif line.level == "warning":
                self.log.warning(line.text, title=line.title)
            else:
                self.log.info(line.text)
        return {}


@dataclass(frozen=True)
class Summary:
    """The job summary (``GITHUB_STEP_SUMMARY``)."""

    settings: Settings
    what: str = "job summary"

    def publish(self, outcome: Outcome, links: Links) -> dict[str, str]:
        """Append the rendered summary."""
        append_summary(self.settings.summary_path, outcome.texts.summary)
        return {}


@dataclass(frozen=True)
class Outputs:
    """The step outputs (``GITHUB_OUTPUT``), written last, once.

    With a report: the verdict's outputs (``regressed``, ``accepted``, ``gate-status``,
    ``verdict``, ``verdict-text``), ``report`` and ``comment-url`` (empty when no
    comment was posted); without one, only a ``comment-url`` that was posted.
    """

    settings: Settings
    what: str = "step outputs"

    def publish(self, outcome: Outcome, links: Links) -> dict[str, str]:
        """Write the rendered outputs, the report's path and the comment's link."""
        outputs = output_values(self.settings, outcome, links)
        write_outputs(self.settings.output_path, outputs)
        return {}


def output_values(settings: Settings, outcome: Outcome, links: Links) -> dict[str, str]:
    """Every step output of `outcome`: the rendered ones, ``report``, ``comment-url``."""
    outputs: dict[str, str] = dict(outcome.texts.outputs)
    if outcome.report is not None:
        if outcome.report_path is not None:
            outputs["report"] = display_path(settings, outcome.report_path)
        outputs["comment-url"] = links.get("comment-url", "")
    elif links.get("comment-url"):
        outputs["comment-url"] = links["comment-url"]
    return outputs
