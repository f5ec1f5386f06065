"""The commit status: the gate's verdict with its numbers, in the pull request's checks.

What the reviewer sees next to the merge button (CONTRACT.md section 9): context
``leaderboard`` (``leaderboard/<comment-header>`` for another header), state
``failure`` exactly when the step fails on the gate, and a description of at most 140
characters that GitHub shows as plain text::

    regressed: −0.081 [−0.137, −0.031] vs main@abc1234
    no regression: +0.004 [−0.020, 0.028] vs main@abc1234, detects 0.033
    cannot tell: +0.000, no interval vs main@abc1234, not a pass: task biology holds…
    no baseline run, nothing was checked for a regression: A run is kept on leaderbo…
    accepted by label accept-regression: −0.081 [−0.137, −0.031] vs main@abc1234

Only text and decisions here; `leaderboard.action.commit_status` sends it (PyGithub).
"""

# The examples show the minus sign (U+2212) GitHub displays: the point of the docstring.
# ruff: noqa: RUF002

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from leaderboard.render import headline
from leaderboard.report import GateComparison, Report

__all__ = [
    "DEFAULT_CONTEXT",
    "MAX_DESCRIPTION_CHARS",
    "StatusPlan",
    "accepted_by",
    "describe",
    "plan_status",
    "status_context",
]

DEFAULT_CONTEXT = "leaderboard"
MAX_DESCRIPTION_CHARS = 140  # GitHub refuses a longer description (422)
MINUS = "\N{MINUS SIGN}"
ELLIPSIS = "\N{HORIZONTAL ELLIPSIS}"
_ID_STEPS = (60, 32, 16)  # the lengths ids are cut to, in turn, until the text fits


@dataclass(frozen=True)
class StatusPlan:
    """One commit status as it will be sent."""

    context: str
    state: Literal["success", "failure"]
    description: str
    target_url: str | None


def status_context(header: str) -> str:
    """``leaderboard``, or ``leaderboard/<header>`` for another ``comment-header``."""
    header = _plain(header)
    return DEFAULT_CONTEXT if header == DEFAULT_CONTEXT else f"{DEFAULT_CONTEXT}/{header}"


def accepted_by(labels: Iterable[str], accept_label: str | None) -> str | None:
    """The accept label if the pull request carries it (names compare as GitHub does,
    ignoring case), else None; None too when ``accept_label`` is off."""
    if not accept_label:
        return None
    wanted = accept_label.strip().lower()
    return accept_label if any(name.strip().lower() == wanted for name in labels) else None


def plan_status(
    report: Report,
    *,
    header: str,
    failing: bool,
    accepted: str | None = None,
    target_url: str | None = None,
) -> StatusPlan:
    """The status for ``report``.

    Parameters
    ----------
    report : Report
        The report the comment shows.
    header : str
        ``comment-header``; it names the context.
    failing : bool
        Whether the step fails on the gate (exit status 1): the state is ``failure``
        exactly then.
    accepted : str, optional
        The accept label the pull request carries, when a regression was accepted.
    target_url : str, optional
        Where the status links to: the comment, else the workflow run.
    """
    return StatusPlan(
        context=status_context(header),
        state="failure" if failing else "success",
        description=describe(report, accepted=accepted),
        target_url=target_url,
    )


def describe(report: Report, *, accepted: str | None = None) -> str:
    """The verdict and its numbers in at most 140 characters of plain text.

    Ids are cut (with "…") until the text fits; as a last resort the text itself.
    """
    for limit in (None, *_ID_STEPS):
        text = _describe(report, accepted, limit)
        if len(text) <= MAX_DESCRIPTION_CHARS:
            return text
    return text[: MAX_DESCRIPTION_CHARS - 1] + ELLIPSIS


def _no_comparison(report: Report) -> str:
    gate = report.gate
    if gate.status == "off":
        return "no gate: no baseline was set, nothing was checked"
    if gate.status == "no_baseline_run":
        # The note says which case: nothing kept for the base, a kept run that could
        # not be read, no token (`leaderboard.action.baseline`); the words are its own.
        return _with_reason(
            "no baseline run, nothing was checked for a regression", gate.note
        )
    if gate.status == "undetermined":
        return _with_reason("cannot tell, not a pass", gate.note or "nothing compared")
    return "no regression: no candidate was compared"


def _describe(report: Report, accepted: str | None, limit: int | None) -> str:
    gate = report.gate
    c = headline(report) if gate.status not in ("off", "no_baseline_run") else None
    if c is None:
        return _no_comparison(report)
    vs = _versus(report, c, limit)
    who = _who(report, c, limit)
    same = sum(1 for x in gate.comparisons if x.status == c.status and x is not c)
    if c.status == "regressed":
        more = f" (and {same} more)" if same else ""
        lead = f"accepted by label {_plain(accepted)}" if accepted else "regressed"
        return f"{lead}: {who}{_signed(c.diff_mean)} {_ci(c)} vs {vs}{more}"
    if c.status == "undetermined":
        text = f"cannot tell: {who}{_signed(c.diff_mean)}, no interval vs {vs}, not a pass"
        return _with_reason(text, c.note)
    detects = _detects(c.min_detectable_regression)
    return f"no regression: {who}{_signed(c.diff_mean)} {_ci(c)} vs {vs}{detects}"


def _versus(report: Report, c: GateComparison, limit: int | None) -> str:
    """``main@abc1234`` for a baseline run, else the baseline model's id."""
    run = report.gate.baseline_run
    if run is not None:
        label = _cut(run.label, limit)
        commit = run.commit or ""
        if re.fullmatch(r"[0-9a-fA-F]{7,64}", commit):
            return f"{label}@{commit[:7]}"
        return label
    return _cut(c.baseline, limit)


def _who(report: Report, c: GateComparison, limit: int | None) -> str:
    """The candidate (and scope) when the gate holds more than one of them."""
    pairs = {(x.candidate, x.scope) for x in report.gate.comparisons}
    if len(pairs) <= 1:
        return ""
    scope = "" if c.scope == "overall" else f" ({_cut(c.scope, limit)})"
    return f"{_cut(c.candidate, limit)}{scope} "


def _with_reason(text: str, reason: str | None) -> str:
    """``text: reason``, the reason cut to what is left of the 140 characters."""
    room = MAX_DESCRIPTION_CHARS - len(text) - 2
    if not reason or room < 12:
        return text
    return f"{text}: {_cut(reason, room)}"


def _detects(mdr: float | None) -> str:
    if mdr is None or not math.isfinite(mdr) or mdr >= 1.0:
        return ""
    return f", detects {_num(mdr)}"


def _num(x: float) -> str:
    if not math.isfinite(x):
        return "n/a"
    text = f"{x:.3f}"
    return MINUS + text[1:] if text.startswith("-") else text


def _signed(x: float) -> str:
    if not math.isfinite(x):
        return "n/a"
    text = f"{x:+.3f}"
    return MINUS + text[1:] if text.startswith("-") else text


def _ci(c: GateComparison) -> str:
    return f"[{_num(c.ci_lo)}, {_num(c.ci_hi)}]"


def _plain(text: str | None) -> str:
    """One line of visible text: control characters and runs of spaces become one space."""
    return re.sub(r"[\s\x00-\x1f\x7f]+", " ", text or "").strip()


def _cut(text: str, limit: int | None) -> str:
    text = _plain(text)
    if limit is None or len(text) <= limit:
        return text
    return text[: limit - 1] + ELLIPSIS
