"""The gate's part of the view: its table rows, the "where" sections and its plot.

A reviewer's questions, in order: did it get worse (the verdict line), by how much and
how sure (the gate table: `candidate - baseline` with its family-adjusted interval),
could this suite tell (the smallest drop each comparison detects), and where (per
category paired differences, unadjusted, and items that flipped pass/fail).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from leaderboard.render.diffplot import DiffRow, difference_plot
from leaderboard.render.escape import code_fence, html_text, md_text, truncate
from leaderboard.render.flakyview import (
    flaky_lines,
    flaky_mark,
    flaky_summary,
    item_score,
)
from leaderboard.render.numbers import count, num, pct
from leaderboard.render.verdict import (
    STATUS_MARK,
    baseline_run_text,
    esc_id,
    named_comparison,
    scope_text,
)
from leaderboard.report import Flips, Gate, GateComparison, ItemMove, Report, ScopeDiff

__all__ = [
    "GateRowView",
    "WhereRowView",
    "WhereView",
    "gate_line",
    "gate_notes",
    "gate_plot",
    "gate_rows",
    "item_lines",
    "where_views",
]

WHERE_CANDIDATES = 3  # candidates that get a "where" section
WHERE_ROWS = 5  # categories shown per candidate
WHERE_ITEMS = 5  # items that dropped most, shown per candidate


@dataclass(frozen=True)
class GateRowView:
    """One line of the gate table; ``label`` is the candidate (and scope), escaped."""

    mark: str  # 🔴, 🟢 or 🟡
    label: str
    diff: float
    lo: float
    hi: float
    mdr: float | None  # None: cannot be estimated
    status: str
    interval: bool = True  # False: no spread could be estimated, none is shown


@dataclass(frozen=True)
class WhereRowView:
    category: str
    diff: float
    lo: float  # the adjusted interval (`ScopeDiff.family_ci_lo`), which decides `moved`
    hi: float
    moved: bool = False  # beyond noise, family-wise over the comparison's rows
    # no spread could be estimated (the unadjusted interval is the whole range too)
    too_few: bool = False
    # the adjusted interval is the whole range a difference of scores can take
    # ([-1, 1]): it says nothing, so none is shown; ``units`` says how few there were
    unbounded: bool = False
    units: str = ""


@dataclass(frozen=True)
class WhereView:
    """Where one candidate moved: ``summary`` is HTML-escaped (it sits in <summary>)."""

    summary: str
    open: bool
    rows: list[WhereRowView]
    flips: str | None
    items: list[str] = field(default_factory=list)  # escaped markdown, one an item
    answers: list[AnswerView] = field(default_factory=list)
    # flaky items (`leaderboard.render.flakyview`): the list's heading, and its lines
    flaky_summary: str | None = None
    flaky: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class AnswerView:
    """What one item of "dropped most" was asked and answered, each escaped markdown
    on one line (``NOT_HELD`` where the result files hold no text)."""

    item: str
    input: str
    baseline: str
    candidate: str


#: What an answer reads when the result files hold none for it.
NOT_HELD = "(not in the result files)"
#: What an empty answer reads.
EMPTY = "(empty)"


def _label(c: GateComparison, scoped: bool) -> str:
    cand = esc_id(c.candidate)
    return f"{cand} · {scope_text(c.scope)}" if scoped and c.scope != "overall" else cand


def _mdr(c: GateComparison) -> float | None:
    m = c.min_detectable_regression
    return None if m is None or not m < 1.0 else m


#: How the gate's comparisons are listed: regressed, then cannot tell, then passed.
_STATUS_ORDER = {"regressed": 0, "undetermined": 1, "no_regression": 2}


def _worst_first(c: GateComparison) -> tuple[int, float]:
    """Sort key: by status (`_STATUS_ORDER`), then by the interval's lower bound."""
    return _STATUS_ORDER.get(c.status, 3), c.ci_lo


def gate_rows(comps: list[GateComparison]) -> list[GateRowView]:
    """The gate table: regressed first, then cannot tell, then by lower bound."""
    scoped = any(c.scope != "overall" for c in comps)
    ranked = sorted(comps, key=_worst_first)
    return [
        GateRowView(
            mark=STATUS_MARK.get(c.status, "⚪"),
            label=_label(c, scoped),
            diff=c.diff_mean,
            lo=c.ci_lo,
            hi=c.ci_hi,
            mdr=_mdr(c),
            status=c.status,
            interval=c.interval,
        )
        for c in ranked
    ]


def gate_notes(report: Report, comps: list[GateComparison]) -> list[str]:
    """Why comparisons cannot tell or have no detectable drop, one line each; the
    first line already says it for the undetermined comparison it names."""
    first = named_comparison(report)
    said = first if first is not None and first.status == "undetermined" else None
    scoped = any(c.scope != "overall" for c in comps)
    return (
        [
            f"{STATUS_MARK.get(c.status, '⚪')} {_label(c, scoped)}: "
            f"{md_text(truncate(c.note, 500))}."
            for c in comps
            if c.note and c is not said
        ]
        + [
            f"⚠️ {_label(c, scoped)}: {md_text(truncate(c.skew_caveat, 500))}."
            for c in comps
            if c.skew_caveat
        ][:WHERE_CANDIDATES]
        + [epochs_text(c, scoped) for c in comps if c.epochs is not None][:WHERE_CANDIDATES]
    )


def epochs_text(c: GateComparison, scoped: bool) -> str:
    """Where the variance of a difference comes from, and what would detect more."""
    e = c.epochs
    assert e is not None
    return (
        f"{_label(c, scoped)}: {pct(e.within_share)} of this difference's variance is "
        f"generation noise within items ({e.samples_per_item:.3g} samples per item), "
        f"{pct(e.between_share)} comes from the items; one more epoch would detect "
        f"drops of {num(e.detectable_one_more_epoch)}, twice the items "
        f"{num(e.detectable_twice_items)} (80% of the time)."
    )


def bound_text(gate: Gate) -> str:
    """``a false regression anywhere in the gate: at most 5% (2.5% the score, 2.5% the
    guardrails); `` from `Gate.bound`, or "" when nothing is gated."""
    if gate.bound <= 0:
        return ""
    split = ""
    if gate.guardrail_family_size:
        half = pct(gate.bound / 2)
        split = f" ({half} the score, {half} the guardrails)"
    return f"a false regression anywhere in the gate: at most {pct(gate.bound)}{split}; "


def gate_line(gate: Gate, confidence: float) -> str:
    """The sentence above the gate table: against what, how sure, what margin."""
    m = gate.family_size
    base = esc_id(gate.baseline) if gate.baseline is not None else "?"
    each = gate.comparisons[0].confidence if gate.comparisons else confidence
    together = "both" if m == 2 else f"all {count(m)}"
    if m > 1 and gate.adjustment == "bonferroni":
        level = (
            f"{pct(each)} intervals each, so {together} hold together at "
            f"{pct(confidence)} (Bonferroni)"
        )
    elif m > 1 and gate.adjustment == "max-t":
        level = (
            f"{pct(each)} intervals each, so {together} hold together at "
            f"{pct(confidence)} (max-T over the shared resamples)"
        )
    else:
        level = f"{pct(each)} interval"
    margin = gate.comparisons[0].margin if gate.comparisons else 0.0
    tol = f"; a drop counts beyond the margin of {num(margin)}" if margin else ""
    if gate.baseline_run is not None:  # two runs: the models in one run only are
        # listed by the baseline-run line under the gate
        base = f"its own row in the baseline run **{esc_id(gate.baseline_run.label)}**"
    else:
        base = f"**{base}**"
    if gate.anchor is not None:
        budget = next((c.margin for c in gate.comparisons if c.scope == "anchor"), 0.0)
        tol += (
            f"; each model also against its own row of the anchor run "
            f"**{esc_id(gate.anchor)}**, with a budget of {num(budget)} since then"
        )
    line = (
        f"**Gate**: candidate \N{MINUS SIGN} {base}, {level}{tol}; "
        f"{bound_text(gate)}*detects drops of* X: a drop of X is caught 80% of the time."
    )
    return line + baseline_run_text(gate)


def flips_text(f: Flips | None, level: float | None = None) -> str | None:
    """ "12 items went pass → fail, 3 fail → pass (of 400 scored for both); noise
    alone gives about 8 each way, ..." (`leaderboard.stats.noise`); `level`: the
    confidence of the comparison the flips belong to, the level of the test."""
    if f is None:
        return None
    epochs = f.rule != Flips.model_fields["rule"].default
    how = "; an item passes when half its epochs or more pass" if epochs else ""
    text = (
        f"{count(f.pass_to_fail)} item{'s' * (f.pass_to_fail != 1)} went pass → fail, "
        f"{count(f.fail_to_pass)} fail → pass (of {count(f.shared_items)} scored for "
        f"both{how})"
    )
    if f.noise_each_way is None or f.pass_to_fail + f.fail_to_pass == 0:
        return text
    test = "McNemar"
    if f.noise_from == "epochs" and f.noise_pass_to_fail is not None:
        test = "exact test on the epochs"
        down, up = round(f.noise_pass_to_fail), round(f.noise_fail_to_pass or 0.0)
        if down == up:
            text += f"; the epochs give about {count(down)} each way from noise alone"
        else:
            text += (
                f"; the epochs give about {count(down)} pass → fail and {count(up)} "
                "fail → pass from noise alone"
            )
    else:
        text += f"; noise alone gives about {count(f.noise_each_way)} each way"
    if level is not None:
        test += f" at {pct(level)}"
    extra = abs(f.pass_to_fail - f.fail_to_pass)
    way = "pass → fail" if f.pass_to_fail > f.fail_to_pass else "fail → pass"
    if f.beyond_noise:
        return text + f", and the {count(extra)} extra {way} are beyond it ({test})"
    return text + f", and the difference between the two ways is within noise ({test})"


def item_lines(items: list[ItemMove], limit: int = WHERE_ITEMS) -> list[str]:
    """``arith-014: 3/3 → 0/3`` for each item that dropped most, ids escaped; at most
    `limit`, then a line saying the JSON report lists more."""
    out = []
    for it in items[:limit]:
        name = esc_id(truncate(it.item_id, 80))
        if it.task not in it.item_id:
            name += f" ({esc_id(truncate(it.task, 60))})"
        out.append(
            f"{name}: {item_score(it.baseline_score, it.baseline_samples)} → "
            f"{item_score(it.candidate_score, it.candidate_samples)}" + flaky_mark(it)
        )
    if len(items) > limit:
        out.append(f"… and more: the JSON report lists {count(len(items))} (`worst_items`)")
    return out


def _answer_text(text: str | None) -> str:
    if text is None:
        return NOT_HELD
    return md_text(text) if text else EMPTY


def answer_views(items: list[ItemMove], limit: int = WHERE_ITEMS) -> list[AnswerView]:
    """The input and both answers of each item `item_lines` shows that has any."""
    return [
        AnswerView(
            item=esc_id(truncate(it.item_id, 80)),
            input=_answer_text(it.answers.input),
            baseline=_answer_text(it.answers.baseline),
            candidate=_answer_text(it.answers.candidate),
        )
        for it in items[:limit]
        if it.answers is not None
    ]


def _one_row_per_place(scopes: list[ScopeDiff]) -> list[ScopeDiff]:
    """Leave out a category's row when it is one task, whose own row says the same.

    The report does not map categories to tasks; a category of one task has the same
    units, difference and interval as that task (the same replicates), which is how it
    is recognised here.
    """
    tasks = [s for s in scopes if s.scope.startswith("task:")]
    out = []
    for s in scopes:
        if s.scope.startswith("category:"):
            same = [
                t
                for t in tasks
                if t.shared_units == s.shared_units
                and abs(t.diff_mean - s.diff_mean) < 1e-12
                and abs(t.ci_lo - s.ci_lo) < 1e-12
                and abs(t.ci_hi - s.ci_hi) < 1e-12
            ]
            if same:
                continue
        out.append(s)
    return out


def where_views(
    comps: list[GateComparison],
    confidence: float,
    *,
    answers: bool = True,
    unit: str = "item",
) -> list[WhereView]:
    """Per-category moves of the overall comparisons, regressed and lowest first;
    with `answers`, what the items that dropped most answered (when the report
    holds it); `unit` (`Settings.unit`) names what a row's ``shared_units`` count."""
    overall = [
        c
        for c in comps
        if c.scope == "overall"
        and (c.breakdown or c.flips or c.worst_items or c.flaky_items)
    ]
    overall.sort(key=_worst_first)
    out = []
    for c in overall[:WHERE_CANDIDATES]:
        # moved rows first, then the largest of those within noise; a category that
        # is one task is shown once, as its task
        places = _one_row_per_place(c.breakdown)
        moved = sorted(places, key=lambda s: (not s.moved, -abs(s.diff_mean)))
        moved = moved[:WHERE_ROWS]
        moved.sort(key=lambda s: (not s.moved, s.diff_mean))
        n_moved = sum(s.moved for s in places)
        rows_total = len(places)
        cand = html_text(truncate(c.candidate, 80))
        kinds = {s.scope.split(":", 1)[0] for s in moved}
        what = (
            "per category and task"
            if len(kinds) > 1
            else f"per {kinds.pop()}"
            if kinds
            else "per item"
        )
        out.append(
            WhereView(
                summary=(
                    f"Where {cand} moved ({what}): {_moved_text(n_moved, rows_total)}"
                    f" (adjusted intervals: all {count(rows_total)} hold together at "
                    f"{pct(confidence)}, max-T)"
                    if rows_total
                    else f"Where {cand} moved ({what})"
                ),
                open=c.status == "regressed",
                rows=[
                    WhereRowView(  # the adjusted interval: the one `moved` reads
                        scope_text(s.scope),
                        s.diff_mean,
                        s.family_ci_lo,
                        s.family_ci_hi,
                        s.moved,
                        s.ci_lo <= -1 and s.ci_hi >= 1,
                        s.family_ci_lo <= -1 and s.family_ci_hi >= 1,
                        f"{count(s.shared_units)} {unit}{'s' * (s.shared_units != 1)}",
                    )
                    for s in moved
                ],
                flips=flips_text(c.flips, c.confidence),
                items=item_lines(c.worst_items),
                answers=answer_views(c.worst_items) if answers else [],
                flaky_summary=flaky_summary(c),
                flaky=flaky_lines(c),
            )
        )
    return out


def _moved_text(n_moved: int, total: int) -> str:
    if n_moved == 0:
        return "no row moved beyond noise"
    return f"{count(n_moved)} of {count(total)} moved beyond noise"


def gate_plot(comps: list[GateComparison], margin: float) -> str | None:
    """The difference plot of the gate's comparisons, fenced; None without any."""
    if not any(c.interval for c in comps):
        return None
    scoped = any(c.scope != "overall" for c in comps)
    order = {"regressed": 0, "undetermined": 1, "no_regression": 2}
    comps = sorted(comps, key=lambda c: (order.get(c.status, 3), c.ci_lo))  # as the table
    rows = [
        DiffRow(
            label=c.candidate
            + (
                ""
                if not scoped or c.scope == "overall"
                else " · " + c.scope.removeprefix("category:")
            ),
            diff=c.diff_mean,
            lo=c.ci_lo if c.interval else None,
            hi=c.ci_hi if c.interval else None,
        )
        for c in comps
    ]
    level = {c.confidence for c in comps}
    label = f"{pct(level.pop())} interval" if len(level) == 1 else "interval"
    return code_fence(difference_plot(rows, margin=margin, interval_label=label)).rstrip(
        "\n"
    )
