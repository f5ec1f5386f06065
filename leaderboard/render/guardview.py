"""Guardrails in the comment: one line per guarded or carried measure.

A guardrail's comparison (`GateComparison` with `measure` other than ``score``) is
never shown in the score's gate table: it has its own line (the ``completion``
comparison too, in its own words), with the candidate's and
the baseline's means, the relative change (cost, latency, tokens) or the difference (a
metric) and its interval. Measures the runs carry that no guardrail names are shown
the same way, marked "not gated".
"""

from __future__ import annotations

import math
from collections.abc import Callable

from leaderboard.render.escape import md_text, truncate
from leaderboard.render.numbers import ci, num, signed, signed_pct
from leaderboard.report import Gate, GateComparison, Report

__all__ = [
    "guardrail_lines",
    "measure_label",
    "rel",
    "score_only",
]

_LABELS = {"cost": "Cost", "latency": "Latency", "tokens": "Tokens"}
_UNITS = {"latency": " s", "cost": "", "tokens": ""}
_MARK = {"regressed": "🔴", "no_regression": "🟢", "undetermined": "🟡"}
SHOWN = 20  # guardrail lines at most; the JSON report has them all


def measure_label(name: str) -> str:
    """``Cost``, ``Latency``, ``Tokens``, or a metric's name escaped in a code span."""
    if name in _LABELS:
        return _LABELS[name]
    return "metric " + md_text(truncate(name, 80))


def rel(x: float | None) -> str:
    """``+31%``, ``-4.2%``: a relative change with its sign; "n/a" when not finite."""
    if x is None or not math.isfinite(x) or abs(x) > 1e6:
        return "n/a"
    return signed_pct(100 * x)


def _change(c: GateComparison) -> str:
    if c.status == "undetermined":
        return f"{rel(c.diff_mean) if c.relative else signed(c.diff_mean)} (cannot tell)"
    if c.relative:
        return f"{rel(c.diff_mean)} [{rel(c.ci_lo)},\u00a0{rel(c.ci_hi)}]"
    return f"{signed(c.diff_mean)} {ci(c.ci_lo, c.ci_hi)}"


def _tolerated(c: GateComparison) -> str:
    return rel(c.margin) if c.relative else num(-c.margin)


def _means(c: GateComparison) -> str:
    unit = _UNITS.get(c.measure, "")
    if c.measure == "tokens":
        return f"{num(c.candidate_mean, 0)} vs {num(c.baseline_mean, 0)}"
    if c.measure in _UNITS:  # costs of a cent or less keep their digits
        return f"{_sig(c.candidate_mean)}{unit} vs {_sig(c.baseline_mean)}{unit}"
    return f"{num(c.candidate_mean)} vs {num(c.baseline_mean)}"


def _sig(x: float | None) -> str:
    """Three significant digits: ``2.41``, ``0.00421``, ``1.2e-05``."""
    if x is None or not math.isfinite(x):
        return "n/a"
    return f"{x:.3g}"


def _pair(c: GateComparison, esc: Callable[[str], str]) -> str:
    return f"**{esc(c.candidate)}** vs **{esc(c.baseline)}**"


def score_only(report: Report) -> Report:
    """`report` with only the primary score's comparisons in ``gate.comparisons``."""
    gate = report.gate
    if all(c.measure == "score" for c in gate.comparisons):
        return report
    kept = [c for c in gate.comparisons if c.measure == "score"]
    return report.model_copy(update={"gate": gate.model_copy(update={"comparisons": kept})})


def guarded(gate: Gate) -> list[GateComparison]:
    """The guardrail comparisons of `gate`, in their report order."""
    return [c for c in gate.comparisons if c.measure != "score"]


def guardrail_lines(gate: Gate, esc: Callable[[str], str]) -> list[str]:
    """One line per guardrail comparison, then per measure shown but not gated."""
    out = []
    for c in guarded(gate)[:SHOWN]:
        mark = _MARK.get(c.status, "⚪")
        if c.measure == "completion":
            out.append(_completion_line(c, esc, mark))
            continue
        verdict = {
            "regressed": "over the tolerance" if c.relative else "below the tolerance",
            "no_regression": "within the tolerance or not shown to exceed it",
            "undetermined": md_text(truncate(c.note or "the data cannot tell", 200)),
        }[c.status]
        out.append(
            f"{mark} {measure_label(c.measure)} (guardrail, tolerated {_tolerated(c)}): "
            f"{_pair(c, esc)}: {_means(c)}, {_change(c)}; {verdict}"
        )
    for c in gate.not_gated[:SHOWN]:
        out.append(
            f"⚪ {measure_label(c.measure)} (not gated): {_pair(c, esc)}: "
            f"{_means(c)}, {_change(c)}"
        )
    return out


def _completion_line(c: GateComparison, esc: Callable[[str], str], mark: str) -> str:
    """The completion comparison: the shares scored of what both runs attempted."""
    verdict = (
        "the candidate scores fewer beyond noise"
        if c.regressed
        else "not fewer beyond noise"
    )
    why = md_text(truncate(c.note, 300)) if c.note else ""
    return (
        f"{mark} Completion (the share scored of the units both runs attempted; an "
        f"errored unit is not scored): {_pair(c, esc)}: {_means(c)}, {_change(c)}; "
        f"{verdict}{'. ' + why if why else ''}"
    )
