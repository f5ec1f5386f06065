"""The exit status, for the command line and the action alike (CONTRACT.md section 4).

0 report made and no regression that fails the run; 1 a gated comparison regressed
and the run fails on it (``fail-on-regression``, not accepted by ``accept-label``), or
the gate cannot tell and ``fail-on-undetermined`` asks to fail; 2 bad input or usage
(`leaderboard.errors.LeaderboardError`); 3 a bug (the action only; its traceback is
printed). Every rule that turns a verdict into a status lives in `exit_status`: both
shells call it, and a publisher never changes what it returned.
"""

from __future__ import annotations

from leaderboard.errors import EXIT_BUG, EXIT_OK, EXIT_REGRESSED, EXIT_USAGE
from leaderboard.report import Report

__all__ = [
    "EXIT_BUG",
    "EXIT_OK",
    "EXIT_REGRESSED",
    "EXIT_USAGE",
    "exit_status",
    "out_of_memory",
]


def exit_status(
    report: Report, *, fail_on_regression: bool = True, fail_on_undetermined: bool = False
) -> int:
    """The status of a run that made `report`.

    Parameters
    ----------
    report : Report
        The computed report; a regression its verdict records as accepted
        (CONTRACT.md section 9) does not fail.
    fail_on_regression : bool
        Whether a regression fails the run (the action's ``fail-on-regression``; the
        command line always fails on one).
    fail_on_undetermined : bool
        Whether a gate that cannot tell fails the run (``fail-on-undetermined``).

    Returns
    -------
    int
        `EXIT_REGRESSED` when the gate regressed and the run fails on it, or the gate
        is undetermined and `fail_on_undetermined` is true; else `EXIT_OK` (by default
        an undetermined gate, or no baseline run, alone passes).
    """
    accepted = report.verdict.accepted
    if report.gate.regressed and fail_on_regression and not accepted:
        return EXIT_REGRESSED
    if report.gate.status == "undetermined" and fail_on_undetermined:
        return EXIT_REGRESSED
    return EXIT_OK


def out_of_memory(resamples: str, split: str) -> str:
    """The exit-2 message when the results do not fit in memory.

    `resamples` is the shell's name of the setting (``--resamples``, ``resamples``),
    `split` what the results may be split into (``reports``, ``leaderboards
    (comment-header)``).
    """
    return (
        "ran out of memory: the results are larger than this machine can hold; lower "
        f"{resamples}, compare fewer models, or split the results into several {split}"
    )
