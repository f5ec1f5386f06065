"""The view model: what templates see of a `Report`, every artifact string pre-escaped.

Templates never receive the `Report` itself. Every model, task and category id and every
warning reaches them already passed through `escape.md_text`, so neither the
built-in template nor a user's can forget to escape. Numbers stay numbers; the filters
`num`, `signed`, `pct`, `ci` and `count` (registered in every environment) format them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from leaderboard.render.escape import (
    code_fence,
    html_text,
    md_text,
    safe_url,
    truncate,
)
from leaderboard.render.gateview import (
    GateRowView,
    WhereView,
    gate_line,
    gate_notes,
    gate_plot,
    gate_rows,
    where_views,
)
from leaderboard.render.guardview import guardrail_lines, score_only
from leaderboard.render.numbers import count, pct
from leaderboard.render.plot import PlotRow, forest_plot
from leaderboard.render.trend import pr_trend
from leaderboard.render.verdict import (
    ID_LIMIT,
    STATUS_MARK,
    baseline_run_line,
    esc_id,
    scope_text,
    settings_line,
    short_sha,
    verdict,
)
from leaderboard.report import GateComparison, LeaderboardRow, PairwiseDiff, Report

__all__ = ["ID_LIMIT", "Options", "View", "build_view", "esc_id", "short_sha"]

PLOT_FOLD = 25  # fold the plot in <details> above this many models
DIFF_PLOT_MAX = 20  # the gate's difference plot for at most this many comparisons


# --- the view ------------------------------------------------------------------------


@dataclass(frozen=True)
class Options:
    """Which parts of the report to show; `comment` shrinks these to fit."""

    target: str = "comment"  # "comment" or "summary"
    pairwise: bool = True
    categories: bool = True
    plot: bool = True
    gate_rows: str = "all"  # "all", "regressed" or "none"
    top: int | None = None  # show only the best `top` leaderboard rows
    warnings: bool = True
    max_ties: int = 200
    answers: bool = True  # what the items that dropped most answered
    max_warnings: int = 10
    warning_chars: int = 500


@dataclass(frozen=True)
class RowView:
    rank: int
    model: str
    mean: float
    lo: float
    hi: float
    win_rate: float
    tasks: str
    complete: bool
    missing: str
    rank_range: str
    marks: str
    categories: list[float | None]
    baseline: bool
    regressed: bool
    rank_text: str = ""  # the one rank column: "3", or "1\N{EN DASH}2" when unsure


@dataclass(frozen=True)
class TieView:
    model_a: str
    model_b: str
    diff: float
    lo: float
    hi: float


@dataclass(frozen=True)
class ComparisonView:
    candidate: str
    baseline: str
    scope: str
    diff: float
    lo: float
    hi: float
    confidence: float
    margin: float
    mdr: float | None  # None: cannot be estimated, or no drop within the score range
    regressed: bool
    status: str  # "regressed", "no_regression" or "undetermined" ("cannot tell")
    note: str | None  # escaped markdown: why undetermined, what would determine it
    mark: str = "🟢"  # 🔴, 🟢 or 🟡


@dataclass(frozen=True)
class View:
    """Everything a template may use, as ``view``. Strings are markdown, already escaped.

    A user template (the ``template`` input) gets exactly this. The main parts:
    ``verdict`` (the first line, complete), ``rows`` (`RowView`: ``rank``, ``model``,
    ``mean``, ``lo``, ``hi``, ``win_rate``, ``tasks``, ``rank_range``, ``marks``,
    ``categories`` values in the order of ``categories``), ``extra_rows`` (the
    baseline and regressed candidates below a cut), ``plot`` (a fenced code block or
    None), ``ties`` (`TieView`), ``comparisons`` (`ComparisonView`: ``candidate``,
    ``scope``, ``diff``, ``lo``, ``hi``, ``confidence``, ``margin``, ``mdr`` (None:
    not estimable), ``regressed``, ``status``, ``note``, ``mark``), ``warnings``,
    ``settings_line``, ``data_line``, ``omitted`` (what was left out to fit the size
    limit) with ``full_report`` (where to find it), and ``footer``. The gate as the
    built-in template shows it: ``gate_status`` (`Gate.status`), ``gate_line``,
    ``gate_rows`` (`GateRowView`), ``gate_notes`` (why a comparison cannot tell or has
    no detectable drop), ``guardrails`` (one line per guarded measure, and per
    measure shown but not gated), ``gate_plot`` (the difference plot), ``where``
    (`WhereView`, per-category moves and pass/fail flips, flaky items; its
    ``summary`` is HTML-escaped for ``<summary>``, as is ``gate_baseline_html``),
    ``trend`` (the kept runs' chart and table, a ``<details>`` block, or None) and
    ``docs_url``.
    Numbers are floats: format them with the filters ``num``, ``signed``,
    ``pct``, ``ci`` (``{{ row.lo | ci(row.hi) }}``) and ``count``.
    """

    target: str
    verdict: str
    status: str  # "regression", "no-regression", "undetermined" or "no-gate"
    header: str
    head_sha: str | None
    run_url: str | None
    summary_url: str | None
    confidence: float
    interval_header: str
    resamples: int
    seed: int
    margin: float
    method: str
    unit: str
    settings_line: str
    rows: list[RowView]
    extra_rows: list[RowView]
    rows_omitted: int
    incomplete: list[RowView]
    plot: str | None
    fold_plot: bool
    pairs_total: int
    ties_total: int
    ties: list[TieView]
    categories: list[str]
    gate_baseline: str | None
    baseline_run_line: str | None
    gate_regressed: bool
    gate_adjustment: str
    gate_adjustment_text: str
    gate_family_size: int
    gate_total: int
    comparisons: list[ComparisonView]
    warnings: list[str]
    warnings_omitted: int
    omitted: list[str]
    full_report: str
    footer: str
    data_line: str
    shown: dict[str, bool] = field(default_factory=dict)
    gate_status: str = "off"  # Gate.status
    gate_line: str = ""
    gate_rows: list[GateRowView] = field(default_factory=list)
    gate_notes: list[str] = field(default_factory=list)  # escaped markdown, one a line
    gate_plot: str | None = None
    gate_baseline_html: str | None = None  # for <summary>: HTML-escaped
    where: list[WhereView] = field(default_factory=list)
    show_tasks: bool = False  # some model is incomplete: the Tasks column says which
    docs_url: str | None = None
    guardrails: list[str] = field(default_factory=list)  # one line per guarded measure
    # the kept history's trend (`leaderboard.render.trend`): charts, table, step
    # changes, folded in <details>; None without a kept baseline run of 2+ runs
    trend: str | None = None


_STATUS = {
    "off": "no-gate",
    "no_baseline_run": "no-gate",
    "regressed": "regression",
    "no_regression": "no-regression",
}


def _row(
    r: LeaderboardRow, cats: list[str], base: str | None, regressed: set[str]
) -> RowView:
    is_base = r.model_id == base
    marks = " (baseline)" if is_base else ""
    if r.model_id in regressed:
        marks += " 🔴"
    tasks = f"{r.tasks_completed}/{r.tasks_total}" + ("" if r.complete else " ⚠️")
    missing = ", ".join(esc_id(t) for t in r.missing_tasks[:5])
    if len(r.missing_tasks) > 5:
        missing += f" and {len(r.missing_tasks) - 5} more"
    if not r.complete and not missing:
        missing = "some items"
    rank_range = (
        str(r.rank_lo) if r.rank_lo == r.rank_hi else f"{r.rank_lo}\N{EN DASH}{r.rank_hi}"
    )
    return RowView(
        rank_text=rank_range,
        rank=r.rank,
        model=esc_id(r.model_id),
        mean=r.mean_score,
        lo=r.mean_ci_lo,
        hi=r.mean_ci_hi,
        win_rate=r.win_rate,
        tasks=tasks,
        complete=r.complete,
        missing=missing,
        rank_range=rank_range,
        marks=marks,
        categories=[r.categories.get(c) for c in cats],
        baseline=is_base,
        regressed=r.model_id in regressed,
    )


def _comparison(c: GateComparison) -> ComparisonView:
    return ComparisonView(
        candidate=esc_id(c.candidate),
        baseline=esc_id(c.baseline),
        scope=scope_text(c.scope),
        diff=c.diff_mean,
        lo=c.ci_lo,
        hi=c.ci_hi,
        confidence=c.confidence,
        margin=c.margin,
        mdr=c.min_detectable_regression,
        regressed=c.regressed,
        status=c.status,
        note=md_text(c.note) if c.note else None,
        mark=STATUS_MARK.get(c.status, "⚪"),
    )


def _tie(p: PairwiseDiff, baseline: str | None) -> TieView:
    """A pair that cannot be told apart; with the baseline in it, as other - baseline
    (the gate's sign), else best-ranked first."""
    if p.model_a == baseline:
        return TieView(
            esc_id(p.model_b), esc_id(p.model_a), -p.diff_mean, -p.ci_hi, -p.ci_lo
        )
    return TieView(esc_id(p.model_a), esc_id(p.model_b), p.diff_mean, p.ci_lo, p.ci_hi)


def _plot(report: Report, rows: list[LeaderboardRow]) -> str:
    base = report.gate.baseline
    base_mean = next((r.mean_score for r in report.leaderboard if r.model_id == base), None)
    regressed = {c.candidate for c in report.gate.comparisons if c.regressed}
    plot_rows = [
        PlotRow(
            r.model_id + (" (regressed)" if r.model_id in regressed else ""),
            r.mean_score,
            r.mean_ci_lo,
            r.mean_ci_hi,
            r.rank,
            r.model_id == base,
        )
        for r in rows
    ]
    label = f"{pct(report.settings.confidence)} interval"
    plot = forest_plot(plot_rows, baseline=base_mean, interval_label=label)
    return code_fence(plot).rstrip("\n")


def _full_report(target: str, summary_url: str | None, run_url: str | None) -> str:
    if target == "summary":
        return "the JSON report (the `json-report` output of the action, `--json` locally)"
    if summary_url:
        where = f"[the job summary]({summary_url})"
    elif run_url:
        where = f"the job summary of [this workflow run]({run_url})"
    else:
        where = "the job summary of this workflow run"
    return f"{where} and the JSON report (`json-report`)"


def _n(n: int, what: str) -> str:
    """``1 model``, ``2 models``."""
    return f"{count(n)} {what}{'s' * (n != 1)}"


def _sections_omitted(
    report: Report, opt: Options, ties: int, ties_all: int, cats: int
) -> list[str]:
    """What `opt` leaves out of the sections `report` has: the undecided pairs, the
    answers, the means per category, the interval plot."""
    omitted: list[str] = []
    if not opt.pairwise and report.pairwise:
        omitted.append("the table of models that cannot be told apart")
    elif ties < ties_all:
        omitted.append(f"{count(ties_all - ties)} of the undecided pairs")
    if not opt.answers and any(
        i.answers is not None for c in report.gate.comparisons for i in c.worst_items
    ):
        omitted.append("what the items that dropped most answered")
    if not opt.categories and cats > 1:
        omitted.append("the means per category")
    if not opt.plot and report.leaderboard:
        omitted.append("the interval plot" + _trend_left_out(report))
    return omitted


def _trend_left_out(report: Report) -> str:
    """What leaving out the plots also leaves out: the kept runs' trend, if any."""
    return "" if pr_trend(report) is None else " and the trend of the kept runs"


def build_view(
    report: Report,
    *,
    head_sha: str | None = None,
    run_url: str | None = None,
    summary_url: str | None = None,
    header: str = "leaderboard",
    options: Options | None = None,
    docs_url: str | None = None,
    accepted_by: str | None = None,
) -> View:
    """Build the escaped view of `report` that templates render.

    Parameters
    ----------
    report : Report
        The report; its ids are untrusted.
    head_sha, run_url, summary_url, header, docs_url, accepted_by
        What `leaderboard.render.comment.CommentContext` holds.
    options : Options, optional
        Which parts to show (all by default).

    Returns
    -------
    View
        Strings escaped for markdown, numbers as numbers.
    """
    opt = options or Options()
    guardrails = guardrail_lines(report.gate, esc_id)
    first_line = verdict(
        report,
        short_sha(head_sha),
        safe_url(run_url),
        esc_id(truncate(header, 100)),
        accepted_by=accepted_by,
    )
    report = score_only(report)
    sha = short_sha(head_sha)
    run = safe_url(run_url)
    summary = safe_url(summary_url)
    head = esc_id(truncate(header, 100))
    gate = report.gate
    cats = sorted({c for r in report.leaderboard for c in r.categories})
    regressed = {c.candidate for c in gate.comparisons if c.regressed}
    kept = {c.baseline for c in gate.comparisons if c.regressed}  # their baseline rows
    rows_all = report.leaderboard
    shown_rows = rows_all if opt.top is None else rows_all[: opt.top]
    extra = [
        r
        for r in rows_all[len(shown_rows) :]
        if r.model_id == gate.baseline or r.model_id in regressed or r.model_id in kept
    ]
    omitted_rows = len(rows_all) - len(shown_rows) - len(extra)
    ties_all = [p for p in report.pairwise if not p.significant]
    ties = ties_all[: opt.max_ties] if opt.pairwise else []
    if opt.gate_rows == "all":
        comps = gate.comparisons
    elif opt.gate_rows == "regressed":
        comps = [c for c in gate.comparisons if c.regressed]
    else:
        comps = []
    warns = report.warnings[: opt.max_warnings] if opt.warnings else []

    omitted = _sections_omitted(report, opt, len(ties), len(ties_all), len(cats))
    if len(comps) < len(gate.comparisons):
        left = len(gate.comparisons) - len(comps)
        omitted.append(f"{count(left)} gate comparison{'s' * (left != 1)}")
    if omitted_rows:
        omitted.append(
            f"{count(omitted_rows)} of {count(len(rows_all))} leaderboard rows"
            f" (the best {count(len(shown_rows))} are shown)"
        )
    if len(warns) < len(report.warnings):
        omitted.append(f"{count(len(report.warnings) - len(warns))} warnings")

    d = report.data
    data_line = (
        f"{_n(d.models, 'model')} · {_n(d.tasks, 'task')} · {_n(d.records, 'record')}"
    )
    if d.items:
        data_line += f" · {_n(d.items, 'item')}"
    if d.clusters:
        data_line += f" · {_n(d.clusters, 'cluster')}"
    row_views = [_row(r, cats, gate.baseline, regressed) for r in shown_rows]
    extra_views = [_row(r, cats, gate.baseline, regressed) for r in extra]
    return View(
        target=opt.target,
        verdict=first_line,
        status=_STATUS.get(gate.status, "undetermined"),
        header=head,
        head_sha=sha,
        run_url=run,
        summary_url=summary,
        confidence=report.settings.confidence,
        interval_header=f"{pct(report.settings.confidence)} interval",
        resamples=report.settings.resamples,
        seed=report.settings.seed,
        margin=report.settings.margin,
        method=md_text(report.settings.method),
        unit=md_text(report.settings.unit),
        settings_line=settings_line(report),
        rows=row_views,
        extra_rows=extra_views,
        rows_omitted=omitted_rows,
        incomplete=[r for r in row_views + extra_views if not r.complete],
        plot=_plot(report, shown_rows + extra) if opt.plot and rows_all else None,
        fold_plot=len(shown_rows) + len(extra) > PLOT_FOLD,
        pairs_total=len(report.pairwise),
        ties_total=len(ties_all),
        ties=[_tie(p, gate.baseline) for p in ties],
        categories=[esc_id(c) for c in cats] if opt.categories and len(cats) > 1 else [],
        gate_baseline=esc_id(gate.baseline)
        if gate.baseline is not None
        else (
            f"each model's own row in the baseline run {esc_id(gate.baseline_run.label)}"
            if gate.baseline_run is not None
            else None
        ),
        baseline_run_line=baseline_run_line(report),
        gate_regressed=gate.regressed,
        gate_adjustment=gate.adjustment,
        gate_adjustment_text=(
            "each at a Bonferroni-adjusted confidence level"
            if gate.adjustment == "bonferroni"
            else "each at one confidence level from a max-T over the shared resamples"
            if gate.adjustment == "max-t"
            else "no adjustment for multiple comparisons"
        ),
        gate_family_size=gate.family_size,
        gate_total=len(gate.comparisons),
        comparisons=[_comparison(c) for c in comps],
        warnings=[md_text(truncate(w, opt.warning_chars)) for w in warns],
        warnings_omitted=len(report.warnings) - len(warns),
        omitted=omitted,
        full_report=_full_report(opt.target, summary, run),
        footer=md_text(report.generator),
        data_line=data_line,
        shown={
            "pairwise": opt.pairwise,
            "categories": opt.categories,
            "plot": opt.plot,
            "answers": opt.answers,
        },
        gate_status=gate.status,
        guardrails=guardrails,
        gate_line=gate_line(gate, report.settings.confidence) if gate.comparisons else "",
        gate_rows=gate_rows(comps),
        gate_notes=gate_notes(report, comps),
        gate_plot=gate_plot(comps, report.settings.margin)
        if opt.plot and len(comps) <= DIFF_PLOT_MAX
        else None,
        gate_baseline_html=html_text(truncate(gate.baseline, 80))
        if gate.baseline is not None
        else None,
        where=where_views(
            comps,
            report.settings.confidence,
            answers=opt.answers,
            unit=report.settings.unit,
        )
        if opt.categories
        else [],
        show_tasks=any(not r.complete for r in row_views + extra_views),
        docs_url=safe_url(docs_url),
        trend=pr_trend(report) if opt.plot else None,
    )
