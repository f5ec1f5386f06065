"""The verdict line and the settings line, and how ids and commits are shown in them.

The verdict follows the report's own flags (`GateComparison.regressed`, `Gate.regressed`)
and never recomputes them, so the comment always agrees with the JSON report.
"""

from __future__ import annotations

import functools
import math

from leaderboard.render.escape import md_text, truncate
from leaderboard.render.numbers import ci, count, num, pct, signed
from leaderboard.report import GateComparison, Report

__all__ = [
    "ID_LIMIT",
    "baseline_run_line",
    "esc_id",
    "scope_text",
    "settings_line",
    "short_sha",
    "verdict",
]

ID_LIMIT = 256  # characters of an id shown; the JSON report keeps every id whole
VERDICT_NAMES = 3  # regressed candidates named in the verdict line
VERDICT_SCOPES = 2  # regressed scopes named per candidate
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
    if scope.startswith("category:"):
        return "category " + esc_id(scope.removeprefix("category:"))
    return esc_id(scope)


def baseline_run_text(report: Report) -> str:
    """Which stored run the models were gated against, for a kept-history baseline."""
    run = report.gate.baseline_run
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


def verdict(report: Report, sha: str | None, run: str | None, header: str) -> str:
    line = _verdict(report, sha, run, header)
    said = baseline_run_text(report)
    link = f" ([workflow run]({run}))" if run else ""
    if said and link and line.endswith(link):  # the run's link stays last
        return line[: -len(link)] + said + link
    return line + said


def _not_gated(report: Report, prefix: str, at: str, link: str) -> str | None:
    """The verdict when nothing was gated: no baseline, none readable, none shared."""
    gate = report.gate
    if gate.status == "no_baseline_run":
        note = md_text(gate.note or "no baseline run could be read")
        return f"{prefix}⚪ **No baseline run**{at}: {note} No model was gated.{link}"
    if gate.baseline is None and gate.baseline_run is None:
        return (
            f"{prefix}⚪ **No gate**{at}: no baseline was set, so no model was checked "
            f"for a regression.{link}"
        )
    if gate.status == "undetermined" and not gate.comparisons:
        note = f": {md_text(gate.note)}" if gate.note else ""
        return f"{prefix}⚪ **Not gated**{at}{note}.{link}"
    return None


def _verdict(report: Report, sha: str | None, run: str | None, header: str) -> str:
    gate = report.gate
    at = f" for {sha}" if sha else ""
    prefix = f"**{header}** · " if header != "leaderboard" else ""
    link = f" ([workflow run]({run}))" if run else ""
    early = _not_gated(report, prefix, at, link)
    if early is not None:
        return early
    run_label = gate.baseline_run.label if gate.baseline_run is not None else None
    margin = report.settings.margin
    margin_text = f", margin {num(margin)}" if margin else ""
    if run_label is not None:
        base = f"its own row in the baseline run **{_short_id(run_label)}**"
        against = "no model"
    else:
        base = f"**{_short_id(gate.baseline or '')}**"
        against = "no candidate"
    regressed = [c for c in gate.comparisons if c.regressed]
    if regressed:
        by_candidate: dict[str, list[GateComparison]] = {}
        for c in regressed:
            by_candidate.setdefault(c.candidate, []).append(c)
        parts = []
        for cand, comps in list(by_candidate.items())[:VERDICT_NAMES]:
            scopes = ", ".join(
                f"{scope_text(c.scope)}: {signed(c.diff_mean)} {ci(c.ci_lo, c.ci_hi)}"
                for c in comps[:VERDICT_SCOPES]
            )
            if len(comps) > VERDICT_SCOPES:
                scopes += f", and {len(comps) - VERDICT_SCOPES} more"
            parts.append(
                f"**{_short_id(cand)}** is below **{_short_id(comps[0].baseline)}** "
                f"({scopes})"
            )
        more = len(by_candidate) - VERDICT_NAMES
        tail = f"; and {more} more candidate{'s' * (more != 1)}" if more > 0 else ""
        conf = regressed[0].confidence
        level = (
            f"{pct(conf)} family-wise intervals"
            if all(c.confidence == conf for c in regressed)
            else "family-wise intervals"
        )
        return (
            f"{prefix}🔴 **Regression**{at}: {'; '.join(parts)}{tail}; {level}"
            f"{margin_text}.{link}"
        )
    n = len(gate.comparisons)
    undetermined = [c for c in gate.comparisons if c.status == "undetermined"]
    if undetermined:
        k = len(undetermined)
        first = undetermined[0]
        why = md_text(first.note) if first.note else "no spread can be estimated"
        return (
            f"{prefix}❔ **Cannot tell**{at}: {k} of {n} comparison{'s' * (n != 1)} "
            f"against {base} cannot be determined from these data "
            f"(**{_short_id(first.candidate)}**, {scope_text(first.scope)}: {why})."
            f"{link}"
        )
    if n == 0:
        return (
            f"{prefix}🟢 **No regression**{at}: {against} was compared against "
            f"{base}.{link}"
        )
    return (
        f"{prefix}🟢 **No regression**{at}: {against} is reliably worse than "
        f"{base} ({n} comparison{'s' * (n != 1)}{margin_text}).{link}"
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
    s = report.settings
    gate = report.gate
    parts = [
        f"{pct(s.confidence)} intervals",
        f"{count(s.resamples)} resamples",
        f"seed {s.seed}",
        f"margin {num(s.margin)}",
        f"method: {md_text(s.method)}",
        f"unit: {md_text(s.unit)}",
    ]
    line = "**Settings**: " + " · ".join(parts) + "."
    if gate.status == "no_baseline_run":
        return line + " No gate: no baseline run could be read."
    if gate.baseline is None and gate.baseline_run is None:
        return line + " No gate: set a baseline to check for regressions."
    adj = "Bonferroni-adjusted" if gate.adjustment == "bonferroni" else "unadjusted"
    plural = "s" * (gate.family_size != 1)
    line += f" Gate: {count(gate.family_size)} comparison{plural}, {adj}."
    mdrs = [
        c.min_detectable_regression
        for c in gate.comparisons
        if c.scope == "overall"
        and c.min_detectable_regression is not None
        and math.isfinite(c.min_detectable_regression)
    ]
    if mdrs:
        line += (
            f" This suite detects drops of {num(max(mdrs))} or more with 80% power; "
            "smaller drops can pass unnoticed."
        )
    return line
