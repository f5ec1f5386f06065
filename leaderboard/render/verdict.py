"""The verdict line and the settings line, and how ids and commits are shown in them.

The verdict follows the report's own states (`Gate.status`, `GateComparison.status`)
and never recomputes them, so the comment always agrees with the JSON report. Every
difference is `candidate - baseline`.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable

from leaderboard.render.escape import md_text, md_with_code, truncate
from leaderboard.render.numbers import count, num, pct, signed, signed_pct
from leaderboard.report import Gate, GateComparison, Report, Verdict

__all__ = [
    "ID_LIMIT",
    "STATUS_MARK",
    "baseline_run_line",
    "baseline_run_text",
    "below_text",
    "detects_text",
    "esc_id",
    "has_interval",
    "improved_text",
    "measure_word",
    "model_change_text",
    "named_comparison",
    "not_ruled_out_text",
    "others_text",
    "ruled_out_text",
    "scope_text",
    "settings_line",
    "short_sha",
    "tolerance_text",
    "tolerated_text",
    "verdict",
    "verdict_numbers",
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


MEASURE_WORDS = frozenset({"score", "completion", "cost", "latency", "tokens"})


def measure_word(measure: str | None, esc: Callable[[str], str] = md_text) -> str:
    """The measure in a reviewer's words: ``score``, ``cost``, ``latency``, ``tokens``,
    ``completion``, or ``metric <name>`` (the name through `esc`)."""
    if measure is None:
        return "score"
    if measure in MEASURE_WORDS:
        return measure
    return "metric " + esc(truncate(measure, 80))


def verdict_numbers(v: Verdict) -> str:
    """``-0.081 [-0.137, -0.031]``, or for a ratio ``+46% [+28%, +66%]``: the verdict's
    estimate and interval, the same text on every surface."""
    if v.unit == "%":
        return f"{signed_pct(v.estimate)} [{signed_pct(v.ci_lo)}, {signed_pct(v.ci_hi)}]"
    return f"{signed(v.estimate)} [{num(v.ci_lo)}, {num(v.ci_hi)}]"


def has_interval(v: Verdict) -> bool:
    """False for a comparison that cannot tell for want of any spread (its interval is
    the whole range): it is stated without one."""
    if v.state != "cannot_tell":
        return True
    return v.ruled_out is not None


def tolerance_text(v: Verdict) -> str:
    """What a regression lies beyond: ``wholly below 0``, ``wholly below -0.010``,
    ``wholly over the tolerated +10%``."""
    if v.unit == "%":
        return f"wholly over the tolerated {signed_pct(v.tolerance)}"
    return f"wholly below {below_text(v.tolerance or 0.0)}"


def ruled_out_text(v: Verdict) -> str:
    """``a drop larger than 0.031 is ruled out`` (a ratio: an increase), or ""."""
    if v.ruled_out is None:
        return ""
    if v.unit == "%":
        return f"an increase larger than {signed_pct(v.ruled_out)} is ruled out"
    if v.ruled_out == 0:
        return "any drop is ruled out"
    return f"a drop larger than {num(v.ruled_out)} is ruled out"


def not_ruled_out_text(v: Verdict, *, short: bool = False) -> str:
    """``a drop as large as 0.407 is not ruled out; about 1,300 items would rule out
    0.050`` (and the samples per item, when they alone would do it), or "" when the
    verdict is not a score comparison that cannot tell with an interval. `short`: the
    commit status's words (``a drop of 0.407 not ruled out, ~1,300 items would rule
    out 0.050``), to fit its 140 characters."""
    if v.state != "cannot_tell" or v.units_needed is None or v.ruled_out is None:
        return ""
    kind = (v.unit_kind or "item") + ("s" if v.units_needed != 1 else "")
    if short:
        return (
            f"a drop of {num(v.ruled_out)} not ruled out, ~"
            f"{count(v.units_needed)} {kind} would rule out {num(v.max_drop)}"
        )
    text = (
        f"a drop as large as {num(v.ruled_out)} is not ruled out; about "
        f"{count(v.units_needed)} {kind} would rule out {num(v.max_drop)}"
    )
    if v.epochs_needed is not None:
        text += f", or about {count(v.epochs_needed)} samples per item on the same items"
    return text


LARGE_GAIN = 0.10  # a gain this large (0-1 scale) beyond noise is worth a look


def improved_text(v: Verdict) -> str:
    """``an improvement beyond noise`` for a score interval wholly above 0; a large
    one is flagged as worth a look (a broken answer extractor or grader, or leaked
    answers, show up as sudden gains). Never a failure."""
    if not v.improved:
        return ""
    if (v.estimate or 0.0) >= LARGE_GAIN:
        return (
            "an improvement beyond noise, large and sudden enough to be worth a look "
            "(a changed grader or answer extractor shows up this way)"
        )
    return "an improvement beyond noise"


OTHERS_WORDS = {
    "regressed": "regressed",
    "no_regression": "with no regression",
    "cannot_tell": "that cannot tell",
}


def others_text(v: Verdict) -> str:
    """`` (and 2 more regressed)``: how many more comparisons share the state."""
    if not v.others or v.state not in OTHERS_WORDS:
        return ""
    return f" (and {count(v.others)} more {OTHERS_WORDS[v.state]})"


def _pair(v: Verdict) -> str:
    scope = v.scope or "overall"
    where = "" if scope == "overall" else f" ({scope_text(scope)})"
    return f"**{_short_id(v.candidate or '')}**{where} vs **{_short_id(v.baseline or '')}**"


def model_change_text(gate: Gate, candidate: str | None) -> str:
    """`` (model changed: **A** → **B**)`` when `candidate` is a renamed model."""
    for change in gate.model_changes:
        if candidate is not None and change.candidate == candidate:
            return (
                f" (model changed: **{_short_id(change.baseline_model)}** → "
                f"**{_short_id(change.candidate)}**)"
            )
    return ""


def tolerated_text(v: Verdict) -> str:
    """``, within the tolerated drop of 0.050`` for a drop that only the margin excuses."""
    if v.unit == "" and (v.tolerance or 0.0) > 0 and (v.ci_hi or 0.0) < 0:
        return f", within the tolerated drop of {num(v.tolerance)}"
    return ""


def _why(text: str | None, default: str) -> str:
    return md_with_code(truncate(text, 300)).rstrip(".") if text else default


def _gate_only(report: Report, lead: str, at: str, link: str) -> str:
    """The first line when no comparison decides the state (the gate's own)."""
    v, gate = report.verdict, report.gate
    if gate.status == "no_baseline_run":
        # One title for "none stored yet" and "stored but unreadable": the reason says
        # which (action/history/baseline.py words each), so neither is mistaken for the
        # other.
        why = _why(v.reason, "nothing is stored for the base branch yet")
        return (
            f"{lead} **No baseline run**{at}: {why}; no model was checked for a "
            f"regression.{link}"
        )
    if v.state == "cannot_tell":
        why = _why(v.reason, "no comparison could be made")
        return f"{lead} **Cannot tell**{at}: {why}; no model was gated. Not a pass.{link}"
    base = _short_id(gate.baseline or "")
    return (
        f"{lead} **No regression**{at}: no candidate was compared against **{base}**.{link}"
    )


def verdict(
    report: Report,
    sha: str | None,
    run: str | None,
    header: str,
    *,
    accepted_by: str | None = None,
) -> str:
    """The first line of the comment and of the job summary, from `report.verdict`.

    The same comparison, numbers and measure as the commit status and the log
    (`leaderboard.render.plain`); ``accepted_by`` is the accept label when the
    report's verdict does not carry it already.
    """
    v = report.verdict
    gate = report.gate
    at = f" for {sha}" if sha else ""
    prefix = f"**{header}** · " if header != "leaderboard" else ""
    link = f" ([workflow run]({run}))" if run else ""
    lead = prefix + STATUS_MARK.get(gate.status, "⚪")
    if v.state == "no_gate":
        return (
            f"{lead} **No gate**{at}: no baseline was set, so no model was checked "
            f"for a regression.{link}"
        )
    if v.measure is None:
        return _gate_only(report, lead, at, link)
    at += model_change_text(gate, v.candidate)
    what = measure_word(v.measure)
    detects = f"; {detects_text(v.detectable_drop)}" if v.measure == "score" else ""
    more = others_text(v)
    if v.state == "regressed":
        title = "Regression"
        accepted = v.accepted or accepted_by
        if accepted:
            title = f"Regression accepted by label “{md_text(truncate(accepted, 50))}”"
        return (
            f"{lead} **{title}**{at}: {_pair(v)}, {what} {verdict_numbers(v)}, "
            f"{tolerance_text(v)}{more}{detects}.{link}"
        )
    if v.state == "cannot_tell":
        not_ruled = not_ruled_out_text(v)
        if not_ruled:
            return (
                f"{lead} **Cannot tell**{at}: {_pair(v)}, {what} {verdict_numbers(v)}: "
                f"{not_ruled}{more}. Not a pass.{link}"
            )
        why = _why(v.reason, "the data cannot tell")
        numbers = (
            verdict_numbers(v) if has_interval(v) else f"{signed(v.estimate)}, no interval"
        )
        return (
            f"{lead} **Cannot tell**{at}: {_pair(v)}, {what} {numbers} ({why}){more}"
            f"{detects}. Not a pass.{link}"
        )
    ruled = ruled_out_text(v)
    gain = improved_text(v)
    return (
        f"{lead} **No regression**{at}: {_pair(v)}, {what} {verdict_numbers(v)}"
        f"{tolerated_text(v)}{more}{'; ' + ruled if ruled else ''}"
        f"{'; ' + gain if gain else ''}{detects}.{link}"
    )


def named_comparison(report: Report) -> GateComparison | None:
    """The gate comparison `report.verdict` names, or None."""
    v = report.verdict
    if v.measure is None:
        return None
    return next(
        (
            c
            for c in report.gate.comparisons
            if (c.candidate, c.baseline, c.scope, c.measure)
            == (v.candidate, v.baseline, v.scope, v.measure)
        ),
        None,
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
