"""The verdict in plain text: the commit status description, the log's verdict lines,
the step outputs.

Each is rendered from `Report.verdict`, with the comment's first line's numbers
(`leaderboard.render.verdict.verdict_numbers`) and its measure named, so the merge box,
the log and the comment never disagree. Examples of the status description (at most
140 characters, GitHub shows it as plain text)::

    regressed: score -0.081 [-0.137, -0.031] vs main@abc1234
    regressed: latency +46% [+28%, +66%], over +10% vs main@abc1234
    no regression: score +0.004 [-0.020, 0.028] vs main@abc1234, detects 0.033
    cannot tell: score +0.000, no interval vs main@abc1234, not a pass: task bio…
    accepted by label accept-regression: score -0.081 [-0.137, -0.031] vs main

Every artifact string passes `plain_text` (no control, bidi or line-break character
survives); the log's lines are escaped once more by the shell's logger.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from leaderboard.render.escape import plain_text
from leaderboard.render.numbers import num, pct, signed
from leaderboard.render.verdict import (
    has_interval,
    improved_text,
    measure_word,
    not_ruled_out_text,
    ruled_out_text,
    tolerance_text,
    verdict_numbers,
)
from leaderboard.report import Report, Verdict

__all__ = [
    "MAX_DESCRIPTION_CHARS",
    "LogLine",
    "failure_description",
    "log_lines",
    "status_description",
    "verdict_outputs",
    "verdict_text",
]

MAX_DESCRIPTION_CHARS = 140  # GitHub refuses a longer description (422)
ELLIPSIS = "\N{HORIZONTAL ELLIPSIS}"
_ID_STEPS = (None, 60, 32, 16)  # the lengths ids are cut to, in turn, until it fits
LOG_ROWS = 25  # leaderboard rows printed in the log; the summary has them all

Level = Literal["info", "warning", "error"]


@dataclass(frozen=True)
class LogLine:
    """One line of the runner log: its level, text, and annotation title."""

    level: Level
    text: str
    title: str | None = None


def _cut(text: str | None, limit: int | None) -> str:
    text = plain_text(text)
    if limit is None or len(text) <= limit:
        return text
    return text[: limit - 1] + ELLIPSIS


def _versus(report: Report, limit: int | None) -> str:
    """``main@abc1234`` for a baseline run, else the baseline model's id."""
    run = report.gate.baseline_run
    if run is not None:
        label = _cut(run.label, limit)
        commit = run.commit or ""
        if re.fullmatch(r"[0-9a-fA-F]{7,64}", commit):
            return f"{label}@{commit[:7]}"
        return label
    return _cut(report.verdict.baseline or report.gate.baseline, limit)


def _who(report: Report, limit: int | None) -> str:
    """The candidate (and scope) when the gate holds more than one of them."""
    v = report.verdict
    pairs = {(x.candidate, x.scope) for x in report.gate.comparisons}
    if len(pairs) <= 1:
        return ""
    scope = "" if v.scope in (None, "overall") else f" ({_cut(v.scope, limit)})"
    return f"{_cut(v.candidate, limit)}{scope} "


def _what(v: Verdict, limit: int | None) -> str:
    return measure_word(v.measure, lambda s: _cut(s, limit))


def _with_reason(text: str, reason: str | None, room_for: int) -> str:
    """``text: reason``, the reason cut to what is left of the characters."""
    room = room_for - len(text) - 2
    if not reason or room < 12:
        return text
    return f"{text}: {_cut(reason, room)}"


def _more(v: Verdict) -> str:
    return f" (and {v.others} more)" if v.others else ""


def verdict_text(report: Report, *, limit: int | None = None) -> str:  # noqa: PLR0911
    """The verdict in one line of plain text, ids cut to `limit` characters."""
    v = report.verdict
    gate = report.gate
    if v.state == "no_gate":
        return "no gate: no baseline was set, nothing was checked"
    if v.measure is None:
        if gate.status == "no_baseline_run":
            return _with_reason(
                "no baseline run, nothing was checked for a regression",
                v.reason,
                MAX_DESCRIPTION_CHARS,
            )
        if v.state == "cannot_tell":
            return _with_reason(
                "cannot tell, not a pass",
                v.reason or "nothing compared",
                MAX_DESCRIPTION_CHARS,
            )
        return "no regression: no candidate was compared"
    head = f"{_who(report, limit)}{_what(v, limit)}"
    vs = _versus(report, limit)
    if v.state == "regressed":
        lead = f"accepted by label {_cut(v.accepted, 50)}" if v.accepted else "regressed"
        over = f", {tolerance_text(v).removeprefix('wholly ')}" if v.unit == "%" else ""
        return f"{lead}: {head} {verdict_numbers(v)}{over} vs {vs}{_more(v)}"
    if v.state == "cannot_tell":
        numbers = (
            verdict_numbers(v) if has_interval(v) else f"{signed(v.estimate)}, no interval"
        )
        text = f"cannot tell: {head} {numbers} vs {vs}{_more(v)}, not a pass"
        return _with_reason(
            text, not_ruled_out_text(v, short=True) or v.reason, MAX_DESCRIPTION_CHARS
        )
    detects = _detects(v.detectable_drop) if v.measure == "score" else ""
    gain = ", improved beyond noise" if improved_text(v) else ""
    return f"no regression: {head} {verdict_numbers(v)} vs {vs}{_more(v)}{gain}{detects}"


def _detects(mdr: float | None) -> str:
    if mdr is None or not math.isfinite(mdr) or mdr >= 1.0:
        return ""
    return f", detects {num(mdr)}"


def status_description(report: Report) -> str:
    """The commit status description: `verdict_text` in at most 140 characters.

    Ids are cut (with "…") until the text fits; as a last resort the text itself.
    """
    text = ""
    for limit in _ID_STEPS:
        text = verdict_text(report, limit=limit)
        if len(text) <= MAX_DESCRIPTION_CHARS:
            return text
    return text[: MAX_DESCRIPTION_CHARS - 1] + ELLIPSIS


def failure_description() -> str:
    """The commit status of a run that made no report (exit 2 or 3)."""
    return "could not be computed: the leaderboard made no report (see the job log)"


def _comparison_line(report: Report) -> list[LogLine]:
    """One line per gated comparison, its measure named, its level in percent."""
    out = []
    for c in report.gate.comparisons:
        scale, unit = (100.0, "%") if c.relative else (1.0, "")
        numbers = (
            f"{c.diff_mean * scale:+.4f}{unit} [{c.ci_lo * scale:+.4f}{unit}, "
            f"{c.ci_hi * scale:+.4f}{unit}]"
        )
        tol = (
            f"tolerated {c.margin * scale:+.4g}{unit}"
            if c.relative
            else (f"margin {c.margin:.4g}")
        )
        state = {
            "regressed": "regressed",
            "no_regression": "no regression",
            "undetermined": f"cannot tell: {c.note}",
        }[c.status]
        out.append(
            LogLine(
                "info",
                f"  {c.candidate} - {c.baseline} ({c.scope}), "
                f"{measure_word(c.measure, str)}: {numbers} at {pct(c.confidence)}, "
                f"{tol}: {state}",
            )
        )
    return out


def log_lines(
    report: Report, *, failing: bool, notes: Mapping[str, str] | None = None
) -> list[LogLine]:
    """What the runner log says: the data, the top rows, the warnings, the verdict
    (one line, the same as the commit status; an annotation when it is not a pass),
    and each gated comparison with its measure and level.

    `failing`: a regression fails the step (an error, else a warning). `notes`: what
    the shell adds after the verdict line, by state (its own option names).
    """
    data = report.data
    out = [
        LogLine(
            "info",
            f"leaderboard: {_counted(data.models, 'model')}, "
            f"{_counted(data.tasks, 'task')}, {_counted(data.records, 'record')}; "
            f"intervals at {pct(report.settings.confidence)}",
        )
    ]
    for row in report.leaderboard[:LOG_ROWS]:
        out.append(
            LogLine(
                "info",
                f"  {row.rank}. {row.model_id}: {row.mean_score:.4f} "
                f"[{row.mean_ci_lo:.4f}, {row.mean_ci_hi:.4f}]",
            )
        )
    if len(report.leaderboard) > LOG_ROWS:
        more = len(report.leaderboard) - LOG_ROWS
        out.append(LogLine("info", f"  ... {more} more in the job summary"))
    out += [LogLine("warning", note, "leaderboard: data") for note in report.warnings]
    v = report.verdict
    line = f"verdict: {verdict_text(report)}{(notes or {}).get(v.state, '')}"
    if v.state == "regressed" and v.accepted:
        out.append(LogLine("warning", line, "leaderboard: regression accepted"))
    elif v.state == "regressed":
        level: Level = "error" if failing else "warning"
        out.append(LogLine(level, line, "leaderboard: regression"))
    elif report.gate.status == "undetermined":  # one annotation (CONTRACT.md 7)
        out.append(LogLine("warning", line, "leaderboard: gate undetermined"))
    else:
        out.append(LogLine("info", line))
    ruled = ruled_out_text(v)
    if ruled and v.state == "no_regression":
        out.append(LogLine("info", f"  {ruled} at {pct(v.level)}"))
    gain = improved_text(v)
    if gain and v.state == "no_regression":
        out.append(LogLine("info", f"  {gain}"))
    return out + _comparison_line(report)


def verdict_outputs(report: Report) -> Mapping[str, str]:
    """The step outputs the verdict decides: ``regressed``, ``accepted``,
    ``gate-status``, ``verdict`` (its state) and ``verdict-text`` (the status line)."""
    v = report.verdict
    return {
        "regressed": "true" if report.gate.regressed else "false",
        "accepted": "true" if v.accepted else "false",
        "gate-status": report.gate.status,
        "verdict": v.state,
        "verdict-text": status_description(report),
    }


def _counted(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"
