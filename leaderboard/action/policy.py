"""The exit status: one function of the report and the settings (CONTRACT.md section 4).

0 report made and no regression that fails the step; 1 a gated comparison regressed,
``fail-on-regression`` is true and no ``accept-label`` accepts it, or the gate cannot
tell and ``fail-on-undetermined`` is true; 2 bad input or configuration; 3 a bug.
Every rule that turns a verdict into a status lives in `exit_status`: a publisher never
changes it (the commit status follows it).
"""

from __future__ import annotations

from leaderboard.action.settings import Settings
from leaderboard.report import Report

__all__ = [
    "EXIT_BUG",
    "EXIT_OK",
    "EXIT_REGRESSED",
    "EXIT_USAGE",
    "OUT_OF_MEMORY",
    "exit_status",
]

EXIT_OK, EXIT_REGRESSED, EXIT_USAGE, EXIT_BUG = 0, 1, 2, 3
#: The exit-2 message when the results do not fit in the runner's memory.
OUT_OF_MEMORY = (
    "ran out of memory: the results are larger than this runner can hold; lower "
    "resamples, compare fewer models, or split the results into several leaderboards "
    "(comment-header)"
)


def exit_status(report: Report, settings: Settings) -> int:
    """The step's status for a report that was made.

    Parameters
    ----------
    report : Report
        The computed report.
    settings : Settings
        ``fail-on-regression`` decides whether a regression fails the step,
        ``fail-on-undetermined`` whether a gate that cannot tell does. A regression
        the report's verdict records as accepted (CONTRACT.md section 9) does not.

    Returns
    -------
    int
        `EXIT_REGRESSED` when the gate regressed and the step fails on it, or the
        gate is undetermined and ``fail-on-undetermined`` is true; else `EXIT_OK` (by
        default an undetermined gate, or no baseline run, alone passes).
    """
    accepted = report.verdict.accepted
    if report.gate.regressed and settings.fail_on_regression and not accepted:
        return EXIT_REGRESSED
    if report.gate.status == "undetermined" and settings.fail_on_undetermined:
        return EXIT_REGRESSED
    return EXIT_OK
