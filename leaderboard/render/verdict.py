"""The verdict line and the settings line, and how ids and commits are shown in them.

The verdict follows the report's own states (`Gate.status`, `GateComparison.status`)
and never recomputes them, so the comment always agrees with the JSON report. Every
difference is `candidate - baseline`.
"""

from __future__ import annotations

import functools
import math

from leaderboard.render.escape import md_text, md_with_code, truncate
from leaderboard.render.guardview import guardrail_verdict, score_only
from leaderboard.render.numbers import ci, count, num, pct, signed
from leaderboard.report import Gate, GateComparison, Report

__all__ = [
    "ID_LIMIT",
    "STATUS_MARK",
    "baseline_run_line",
    "baseline_run_text",
    "below_text",
    "detects_text",
    "esc_id",
    "headline",
    "model_change_text",
    "scope_text",
    "settings_line",
    "short_sha",
    "tolerated_text",
    "verdict",
]

ID_LIMIT = 256  # characters of an id shown; the JSON report keeps every id whole
VERDICT_ID_LIMIT = 80  # characters of an id in the verdict line
VERDICT_ID_LIST = 20  # ungated models named in the baseline-run line


@functools.lru_cache(maxsize=4096)
def esc_id(s: str) -> str:
    """Escape an artifact id for markdown, cut to `ID_LIMIT` characters.

    A blank id shows as "(blank id)"; spaces at either end show as "␣", so that an id
    keeps its place in bold text (``**id**``) and differs visibly from its trimmed twin.
    """
    if not s.strip():
        return "(blank id)"
    s = truncate(s, ID_LIMIT)
    core = s.strip()
    start = s.index(core[0])
    end = start + len(core)
    visible = "\N{OPEN BOX}" * start + core + "\N{OPEN BOX}" * (len(s) - end)
    return md_text(visible)


def _short_id(s: str) -> str:
    return esc_id(truncate(s, VERDICT_ID_LIMIT))


def short_sha(sha: str | None) -> str | None:
    """``abc1234`` in a code span for a hex sha; other text escaped; None stays None."""
    if not sha:
        return None
    if all(c in "0123456789abcdefABCDEF" for c in sha) and len(sha) >= 7:
        return f"`{sha[:7]}`"
    return md_text(truncate(sha, 40))


def scope_text(scope: str) -> str:
    """``category math`` / ``task mmlu/biology`` / ``overall``, ids escaped."""
    for kind in ("category", "task"):
        if scope.startswith(kind + ":"):
            return f"{kind} " + esc_id(scope.removeprefix(kind + ":"))
    return esc_id(scope)


def baseline_run_text(gate: Gate) -> str:
    """Which stored run the models were gated against, for a kept-history baseline."""
    run = gate.baseline_run
    if run is None or run.source != "history":
        return ""
    parts = [f"the run stored for {short_sha(run.commit) or '?'}"]
    if run.branch:
        parts.append(f"on `{md_text(truncate(run.branch, 100))}`")
    if run.commits_behind:
        plural = "s" * (run.commits_behind != 1)
        parts.append(f"{run.commits_behind} commit{plural} behind the base")
    elif run.commits_behind == 0:
        parts.append("the base commit itself")
    if run.stored_at:
        parts.append(
            f"stored {md_text(run.stored_at.replace('T', ' ').replace('Z', ' UTC'))}"
        )
    return " Baseline: " + ", ".join(parts) + "."


STATUS_MARK = {
    "regressed": "🔴",
    "no_regression": "🟢",
    "undetermined": "🟡",
    "off": "⚪",
    "no_baseline_run": "⚪",
}


def detects_text(mdr: float | None) -> str:
    """What the suite can see: "detects drops of 0.033 or more 80% of the time", or
    why not (a drop of exactly that size is caught 80% of the time, larger ones more
    often)."""
    if mdr is None or not math.isfinite(mdr) or mdr >= 1.0:
        return "the smallest drop it detects cannot be estimated"
    return f"this suite detects drops of {num(mdr)} or more 80% of the time"


def below_text(margin: float) -> str:
    """The line a regression lies below: "0" or "-0.010"."""
    return "0" if margin == 0 else num(-margin)


def headline(report: Report) -> GateComparison | None:
    """The comparison the first line names.

    Regressed: the first regressed comparison (overall before categories); cannot
    tell: the first undetermined one; otherwise the comparison closest to regressing
    (lowest lower bound, overall scopes first).
    """
    comps = report.gate.comparisons
    if not comps:
        return None
    for status in ("regressed", "undetermined"):
        hits = [c for c in comps if c.status == status]
        if hits:
            return min(hits, key=lambda c: (c.scope != "overall", c.ci_hi))
    return min(comps, key=lambda c: (c.scope != "overall", c.ci_lo))


def _pair(c: GateComparison) -> str:
    scope = "" if c.scope == "overall" else f" ({scope_text(c.scope)})"
    return f"**{_short_id(c.candidate)}**{scope} vs **{_short_id(c.baseline)}**"


def _nothing_compared(
    report: Report, lead: str, at: str, link: str, note: str | None
) -> str:
    """The first line when a gate was asked for but holds no comparison."""
    gate = report.gate
    if gate.status == "undetermined":  # e.g. no model id in both runs
        why = note or "no comparison could be made"
        return f"{lead} **Cannot tell**{at}: {why}; no model was gated. Not a pass.{link}"
    base = _short_id(gate.baseline or "")
    return (
        f"{lead} **No regression**{at}: no candidate was compared against **{base}**.{link}"
    )


def model_change_text(gate: Gate, c: GateComparison | None) -> str:
    """`` (model changed: **A** → **B**)`` when `c`'s candidate is a renamed model."""
    if c is None:
        return ""
    for change in gate.model_changes:
        if change.candidate == c.candidate:
            return (
                f" (model changed: **{_short_id(change.baseline_model)}** → "
                f"**{_short_id(change.candidate)}**)"
            )
    return ""


def tolerated_text(c: GateComparison) -> str:
    """``, within the tolerated drop of 0.050`` for a drop that only the margin excuses."""
    if c.margin > 0 and c.ci_hi < 0 and not c.regressed:
        return f", within the tolerated drop of {num(c.margin)}"
    return ""


def verdict(  # noqa: PLR0911 - one line per gate state
    report: Report,
    sha: str | None,
    run: str | None,
    header: str,
    *,
    accepted_by: str | None = None,
) -> str:
    """The first line: the gate's state, the pair, the difference, what it could see.

    One line for each `Gate.status`; the numbers are `candidate - baseline` of the
    comparison `headline` picks, with its (family-adjusted) interval. With
    ``accepted_by`` (the accept label the pull request carries) a regression reads
    "Regression accepted by label …".
    """
    gate = report.gate
    at = f" for {sha}" if sha else ""
    prefix = f"**{header}** · " if header != "leaderboard" else ""
    link = f" ([workflow run]({run}))" if run else ""
    if gate.regressed and not any(
        c.regressed for c in gate.comparisons if c.measure == "score"
    ):
        return guardrail_verdict(gate, _short_id, at, link, prefix, accepted_by=accepted_by)
    report = score_only(report)
    gate = report.gate
    status = gate.status
    mark = STATUS_MARK.get(status, "⚪")
    note = md_with_code(truncate(gate.note, 300)).rstrip(".") if gate.note else None
    if status == "off":
        return (
            f"{prefix}{mark} **No gate**{at}: no baseline was set, so no model was "
            f"checked for a regression.{link}"
        )
    if status == "no_baseline_run":
        # One title for "none stored yet" and "stored but unreadable": the note says
        # which (action/baseline.py words each), so neither is mistaken for the other.
        why = note or "nothing is stored for the base branch yet"
        return (
            f"{prefix}{mark} **No baseline run**{at}: {why}; no model was "
            f"checked for a regression.{link}"
        )
    c = headline(report)
    if c is None:
        return _nothing_compared(report, prefix + mark, at, link, note)
    at += model_change_text(gate, c)
    same = [x for x in gate.comparisons if x.status == c.status and x is not c]
    diff = f"{signed(c.diff_mean)} {ci(c.ci_lo, c.ci_hi)}"
    if c.status == "regressed":
        more = f" (and {len(same)} more)" if same else ""
        what = "Regression"
        if accepted_by:
            what = f"Regression accepted by label “{md_text(truncate(accepted_by, 50))}”"
        return (
            f"{prefix}{mark} **{what}**{at}: {_pair(c)}: {diff}, wholly below "
            f"{below_text(c.margin)}{more}; {detects_text(c.min_detectable_regression)}."
            f"{link}"
        )
    if c.status == "undetermined":
        why = md_with_code(truncate(c.note, 300)) if c.note else "the data cannot tell"
        return (
            f"{prefix}{mark} **Cannot tell**{at}: {_pair(c)}: {signed(c.diff_mean)}, "
            f"no interval ({why}); {detects_text(c.min_detectable_regression)}. "
            f"Not a pass.{link}"
        )
    n = len(gate.comparisons)
    lowest = f" (the lowest of {n})" if n > 1 else ""
    return (
        f"{prefix}{mark} **No regression**{at}: {_pair(c)}: {diff}{lowest}"
        f"{tolerated_text(c)}; "
        f"{detects_text(c.min_detectable_regression)}.{link}"
    )


def baseline_run_line(report: Report) -> str | None:
    """Which run is the baseline, and the models in one run only; None without one."""
    run = report.gate.baseline_run
    if run is None:
        return None
    where = [
        f"branch {md_text(truncate(run.branch, 100))}" if run.branch else "",
        f"commit {short_sha(run.commit)}" if run.commit else "",
    ]
    origin = "" if not any(where) else " (" + ", ".join(w for w in where if w) + ")"
    label = _short_id(run.label)
    line = (
        f"**Baseline run**: **{label}**{origin}. Its rows are the ids ending in "
        f"“{md_text(' @ ')}{label}”; each model in both runs is gated against its own row."
    )
    ungated = report.gate.ungated
    if ungated:
        shown = ", ".join(_short_id(m) for m in ungated[:VERDICT_ID_LIST])
        more = len(ungated) - VERDICT_ID_LIST
        tail = f" and {count(more)} more" if more > 0 else ""
        line += f" Not gated (in one run only): {shown}{tail}."
    return line


def settings_line(report: Report) -> str:
    """How the numbers were made, for the folded settings."""
    s = report.settings
    parts = [
        f"{pct(s.confidence)} intervals",
        f"{count(s.resamples)} resamples",
        f"seed {s.seed}",
        f"margin {num(s.margin)}",
        f"method: {md_text(s.method)}",
        f"unit: {md_text(s.unit)}",
    ]
    return " · ".join(parts)
