"""From the settings to the report: load the results, gate, redact.

The statistics decide every state of the gate, including ``no_baseline_run`` when the
kept history has no readable run (`leaderboard.action.history.baseline` says why in the
note); this module only hands them what the shell found.
"""

from __future__ import annotations

from leaderboard.action.event import Event
from leaderboard.action.history.anchor import find_anchor
from leaderboard.action.history.baseline import Choice, read_runs
from leaderboard.action.history.gitdata import Api
from leaderboard.action.runner import Log, loader_lines
from leaderboard.action.settings import Settings
from leaderboard.errors import UsageError
from leaderboard.inputs import EvalRun
from leaderboard.report import BaselineRun, Report
from leaderboard.stats import (
    BASELINE_MAP,
    GUARDRAIL,
    AnchorRun,
    Baseline,
    MissingBaseline,
    ModelBaseline,
    Request,
    RunBaseline,
    report_for,
)
from leaderboard.stats.anchor import ANCHOR_LABEL

__all__ = ["INPUT_NAMES", "compute_report", "redacted", "report_and_runs"]

#: The action's names of the settings the statistics name neutrally in their errors.
INPUT_NAMES = {GUARDRAIL: "guardrails", BASELINE_MAP: "baseline-map"}


def compute_report(settings: Settings, choice: Choice | None = None) -> Report:
    """Load the results and build the report the inputs ask for.

    Raises
    ------
    LeaderboardError
        Bad input (`InputError`) or settings the data contradicts (`UsageError`).
    """
    return report_and_runs(settings, choice)[0]


def report_and_runs(
    settings: Settings,
    choice: Choice | None,
    log: Log | None = None,
    *,
    event: Event | None = None,
    api: Api | None = None,
) -> tuple[Report, list[EvalRun]]:
    """The report and the records it was built from (a push stores them).

    With `log`, the loader's "read FILE: N records" lines go to the runner log. With
    `event` and `api` too, the ``anchor`` input's run is read from the kept history
    (`leaderboard.action.history.anchor`) and every model is also gated against it.
    """
    show_outputs = (event or Event()).shows_outputs(settings.show_outputs)
    with loader_lines(log):
        runs, notes = read_runs(settings, settings.results, texts=show_outputs)
    found = (
        find_anchor(settings, event, api, log)
        if event is not None and api is not None and log is not None
        else None
    )
    anchor = (
        AnchorRun(tuple(found.runs), settings.anchor_margin, found.label or ANCHOR_LABEL)
        if found is not None and found.runs is not None
        else None
    )
    second = choice is not None and choice.runs is not None
    # `candidates` narrow a gate; with history-branch there is none on a push, or when
    # no kept run could be read.
    gated = settings.baseline is not None or second
    try:
        report = _build(
            settings,
            runs,
            choice,
            second=second,
            gated=gated,
            anchor=anchor,
            show_outputs=show_outputs,
        )
    except UsageError as exc:  # the statistics name a setting neutrally; this is the
        raise exc.naming(INPUT_NAMES) from None  # action's name for it
    missing = [found.note] if found is not None and found.note else []
    warnings = [*notes, *(choice.notes if choice else ()), *missing, *report.warnings]
    report = report.model_copy(update={"warnings": list(dict.fromkeys(warnings))})
    return report, runs


def _build(
    settings: Settings,
    runs: list[EvalRun],
    choice: Choice | None,
    *,
    second: bool,
    gated: bool,
    anchor: AnchorRun | None,
    show_outputs: bool = False,
) -> Report:
    baseline: Baseline = None
    if choice is not None and second and choice.runs is not None:
        pairs = dict(settings.baseline_map) or None
        baseline = RunBaseline(
            tuple(choice.runs),
            _trimmed(choice.run, runs, choice.runs, pairs),
            pairs,
            history=choice.history,
        )
    elif choice is not None and choice.note is not None:
        baseline = MissingBaseline(choice.note)
    elif settings.baseline is not None:
        baseline = ModelBaseline(settings.baseline)
    return report_for(
        Request(
            runs=tuple(runs),
            baseline=baseline,
            candidates=(tuple(settings.candidates) or None) if gated else None,
            confidence=settings.confidence,
            resamples=settings.resamples,
            seed=settings.seed,
            margin=settings.margin,
            max_drop=settings.max_drop,
            gate_categories=settings.gate_categories,
            guardrails=settings.guardrails,
            anchor=anchor,
            show_outputs=show_outputs,
        )
    )


def redacted(report: Report, log: Log) -> Report:
    """`report` with every secret (and its encoded forms) in any string replaced.

    Ids come from artifacts: one equal to the token is redacted before markdown
    escaping could disguise it (``ghs\\_...``), and the JSON report never holds it.
    """
    text = report.model_dump_json()
    clean = log.redact(text)
    return report if clean == text else Report.model_validate_json(clean)


def _trimmed(
    run: BaselineRun | None,
    runs: list[EvalRun],
    base: list[EvalRun],
    pairs: dict[str, str] | None,
) -> BaselineRun | None:
    """The baseline run with its trend cut to the models this run can be gated on.

    The kept index holds every model of every kept run; the chart draws the models
    this run holds (or maps to: `baseline-map`, or the only model of each run), so
    the report carries only theirs.
    """
    if run is None or not run.trend:
        return run
    own = {r.model_id for r in runs} | set((pairs or {}).values())
    theirs = {r.model_id for r in base}
    if len(own) == 1 and len(theirs) == 1:  # paired without a map
        own |= theirs
    trend = [
        p.model_copy(update={"models": {m: v for m, v in p.models.items() if m in own}})
        for p in run.trend
    ]
    return run.model_copy(update={"trend": trend})
