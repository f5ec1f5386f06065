"""The one verdict: which comparison decides the first line, and in which state.

Every surface a reviewer reads (the comment's and the job summary's first line, the
commit status, the log's verdict lines, the step outputs) is rendered from the
`Verdict` this module computes once from the gate (CONTRACT.md section 11), so none of
them can name another comparison or other numbers than the rest.

The state follows `Gate.status`; the comparison named is the one that decides it:

- ``regressed``: a regressed score comparison if there is one (overall before
  categories, the one lying furthest below first), else the first regressed guardrail
  in report order;
- ``cannot_tell``: the first undetermined comparison (score before guardrails,
  overall first; for the score either no spread can be estimated or its interval
  rules out neither a regression nor a drop of ``max_drop``), or none when the gate
  as a whole cannot tell (nothing stored for the base branch, no model id in both
  runs);
- ``no_regression``: the score comparison closest to regressing (lowest lower end,
  overall scopes first);
- ``no_gate``: no baseline was asked for.
"""

from __future__ import annotations

from leaderboard.report import Gate, GateComparison, Report, Verdict, VerdictState

__all__ = ["accept", "decide", "verdict_state"]

_STATE: dict[str, VerdictState] = {
    "regressed": "regressed",
    "no_regression": "no_regression",
    "undetermined": "cannot_tell",
    "no_baseline_run": "cannot_tell",
    "off": "no_gate",
}


def verdict_state(status: str) -> VerdictState:
    """The verdict's state for a `Gate.status` or a `GateComparison.status`."""
    return _STATE[status]


def _overall_first(c: GateComparison) -> bool:
    return c.scope != "overall"


def _named(gate: Gate) -> GateComparison | None:  # noqa: PLR0911 - one per state
    """The comparison that decides `gate`'s state, or None."""
    comps = gate.comparisons
    if gate.status in ("off", "no_baseline_run") or not comps:
        return None
    score = [c for c in comps if c.measure == "score"]
    others = [c for c in comps if c.measure != "score"]
    if gate.status == "regressed":
        hits = [c for c in score if c.regressed]
        if hits:
            return min(hits, key=lambda c: (_overall_first(c), c.ci_hi))
        return next(c for c in others if c.regressed)
    if gate.status == "undetermined":
        for group in (score, others):
            hits = [c for c in group if c.status == "undetermined"]
            if hits:
                return min(hits, key=_overall_first)
        return None
    if not score:
        return None
    return min(score, key=lambda c: (_overall_first(c), c.ci_lo))


def decide(gate: Gate, unit_kind: str = "item") -> Verdict:
    """The verdict of `gate`: its state and the comparison that decides it.

    `unit_kind` names what a comparison's `units_needed` counts (the report's unit).
    """
    state = verdict_state(gate.status)
    c = _named(gate)
    if c is None:
        return Verdict(state=state, reason=gate.note)
    scale = 100.0 if c.relative else 1.0
    lo, hi = c.ci_lo * scale, c.ci_hi * scale
    lower_better = c.direction == "lower_is_better"
    ruled_out: float | None = None
    if c.status == "no_regression" or (c.measure == "score" and c.interval):
        ruled_out = max(0.0, hi if lower_better else -lo)
    reason = c.note if c.note else (gate.note if state == "cannot_tell" else None)
    same = sum(
        1 for x in gate.comparisons if x is not c and verdict_state(x.status) == state
    )
    return Verdict(
        state=state,
        measure=c.measure,
        candidate=c.candidate,
        baseline=c.baseline,
        scope=c.scope,
        estimate=c.diff_mean * scale,
        ci_lo=lo,
        ci_hi=hi,
        unit="%" if c.relative else "",
        level=c.confidence,
        tolerance=c.margin * scale,
        ruled_out=ruled_out,
        detectable_drop=c.min_detectable_regression,
        reason=reason,
        others=same,
        max_drop=c.max_drop,
        units_needed=c.units_needed,
        unit_kind=unit_kind if c.units_needed is not None else None,
        epochs_needed=c.epochs_needed,
        improved=c.measure == "score" and c.interval and c.ci_lo > 0,
    )


def accept(report: Report, label: str | None) -> Report:
    """`report` with its regression accepted by `label` (the pull request carries it).

    Only a regression can be accepted: any other verdict is returned unchanged.
    """
    if not label or report.verdict.state != "regressed":
        return report
    verdict = report.verdict.model_copy(update={"accepted": label})
    return report.model_copy(update={"verdict": verdict})
