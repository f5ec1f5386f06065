"""The report: the pydantic models behind the JSON report (schema_version 1).

These models are the contract of ../CONTRACT.md section 3. Field names here are
public: add freely, rename nothing.

The annotations are evaluated where they are written (no ``from __future__ import
annotations``): pydantic then reads the types themselves instead of compiling each
annotation's text into a forward reference and evaluating it (176 of them, about 4 ms
of every start). A model is written after the models its fields name.
"""

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator


def _no_items() -> list[Any]:
    """A fresh empty list, the default of the list fields.

    Not the builtin `list`: pydantic reads a default factory's signature, and a
    builtin's is parsed from its text (tokenize's patterns compiled on the first one,
    about 5 ms of every start); a function's is read directly.
    """
    return []


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Interval(_Model):
    """A two-sided interval at the report's `confidence`."""

    lo: float
    hi: float


class LeaderboardRow(_Model):
    """One model's line of the leaderboard."""

    rank: int = Field(description="1 = best mean score; ties share no rank")
    model_id: str
    mean_score: float = Field(description="weighted mean of the task scores")
    mean_ci_lo: float
    mean_ci_hi: float
    win_rate: float = Field(
        description="share of its tasks (weighted by `weight`) on which the model has "
        "the top score; a tie is a full win for every tied model"
    )
    tasks_completed: int
    tasks_total: int = Field(
        description="tasks present in the whole run (with a baseline run: in the "
        "model's own run)"
    )
    complete: bool = Field(
        description="false when the model misses tasks or items of its run"
    )
    missing_tasks: list[str] = Field(default_factory=_no_items)
    units: int = Field(description="resampling units behind the interval")
    rank_lo: int = Field(
        description="best plausible rank: 1 + the models significantly better "
        "(their pairwise interval excludes zero)"
    )
    rank_hi: int = Field(
        description="worst plausible rank: the number of models minus those "
        "significantly worse"
    )
    categories: dict[str, float] = Field(default_factory=dict)
    category_intervals: dict[str, Interval] = Field(default_factory=dict)
    measures: dict[str, float] = Field(
        default_factory=dict,
        description="mean `cost`, `latency` (seconds) and `tokens` per item (tasks "
        "weighted like the score), for the measures the model's records carry",
    )
    metrics: dict[str, float] = Field(
        default_factory=dict,
        description="mean of each secondary quality metric the records carry (a "
        "framework's other scorers, or records differing only in `metric_name`)",
    )


class PairwiseDiff(_Model):
    """`model_a - model_b` on the units both share, with a paired interval."""

    model_a: str
    model_b: str
    diff_mean: float
    ci_lo: float
    ci_hi: float
    significant: bool = Field(description="the interval excludes zero")
    shared_tasks: int = 0
    shared_units: int = 0


ComparisonStatus = Literal["regressed", "no_regression", "undetermined"]


class Flips(_Model):
    """Items whose pass/fail outcome changed between baseline and candidate."""

    pass_to_fail: int = Field(
        description="items the baseline passed and the candidate failed"
    )
    fail_to_pass: int = Field(
        description="items the baseline failed and the candidate passed"
    )
    shared_items: int = Field(description="items both models were scored on")
    noise_each_way: int | None = Field(
        default=None,
        description="flips no change would give in each direction: with one sample "
        "per item, half of the items that flipped (both directions are equal under "
        "no change), halves rounded up; with epochs, the mean of "
        "`noise_pass_to_fail` and `noise_fail_to_pass`, rounded",
    )
    beyond_noise: bool | None = Field(
        default=None,
        description="the two directions differ beyond noise: McNemar's exact test at "
        "the level of the comparison this belongs to (its `confidence`); with epochs, "
        "the exact test conditional on each item's passes over both runs, at the "
        "same level",
    )
    noise_from: Literal["directions", "epochs"] | None = Field(
        default=None,
        description='how noise was estimated: "directions" (one sample per item: half '
        'of the flips each way) or "epochs" (several pass/fail samples per item: the '
        "within-item variation they show, both runs' samples pooled)",
    )
    noise_pass_to_fail: float | None = Field(
        default=None,
        description="with epochs: pass -> fail flips expected with no change, given "
        "each item's passes over both runs (unbiased under no change); null otherwise",
    )
    noise_fail_to_pass: float | None = Field(
        default=None,
        description="with epochs: fail -> pass flips expected with no change, as "
        "`noise_pass_to_fail`; null otherwise",
    )
    rule: str = Field(
        default="pass: score 1, fail: score 0",
        description="how an item's outcome is read: with repeated samples (epochs) "
        "of pass/fail scores, an item passes when the mean over its samples is at "
        "least 0.5",
    )


class ItemAnswers(_Model):
    """An item's input and what each side answered, as the result files hold them:
    each text its first line, at most 160 characters (a cut ends with ``…``);
    null where the files hold none."""

    input: str | None = Field(default=None, description="the item's input")
    baseline: str | None = Field(default=None, description="the baseline's answer")
    candidate: str | None = Field(default=None, description="the candidate's answer")


FlakyWhy = Literal["epochs", "history"]


class ItemMove(_Model):
    """One item's scores in both runs, for the items that dropped most."""

    task: str
    item_id: str
    baseline_score: float = Field(description="the baseline's mean over its samples")
    candidate_score: float = Field(description="the candidate's mean over its samples")
    baseline_samples: int = 1
    candidate_samples: int = 1
    answers: ItemAnswers | None = Field(
        default=None,
        description="only when outputs are shown (`show-outputs`, --show-outputs) and "
        "the result files hold any: the item's input and both answers (with several "
        "samples, the first sample's)",
    )
    flaky: bool = Field(
        default=False,
        description="the item's outcome differs between runs with no change: its "
        "epochs disagree within one run, or its result differs across the kept runs "
        "of the same model (`flaky_why` says which; docs/gate-against-main.md)",
    )
    flaky_why: list[FlakyWhy] = Field(
        default_factory=_no_items,
        description='"epochs": pass and fail samples within the baseline\'s or the '
        'candidate\'s run; "history": different outcomes across the kept runs read',
    )


class FlakyItem(ItemMove):
    """A pass/fail item whose outcome differs between runs with no change: an
    `ItemMove` (``flaky`` true, ``flaky_why`` the evidence) whether it moved or not."""

    flipped: bool = Field(
        description="its outcome (pass at a mean of 0.5 or more) differs between the "
        "baseline and the candidate"
    )
    history: list[float] = Field(
        default_factory=_no_items,
        description="with history-branch: the item's mean score in each kept run read "
        "that holds it, oldest first (the baseline's run last)",
    )


class ScopeDiff(_Model):
    """`candidate - baseline` within one category or task: where a comparison moved.

    ``ci_lo``/``ci_hi`` are paired and at the report's `confidence` on their own (no
    family adjustment); ``family_ci_lo``/``family_ci_hi`` are adjusted for all
    breakdown entries of the comparison, decide `moved`, and are what the comment
    shows.
    """

    scope: str = Field(description='"category:<name>" or "task:<id>"')
    diff_mean: float
    ci_lo: float = Field(description="unadjusted, at the report's confidence")
    ci_hi: float = Field(description="unadjusted, at the report's confidence")
    family_ci_lo: float = Field(
        description="adjusted for all breakdown entries of this comparison (max-T "
        "over the shared replicates, or Sidak's level for disjoint strata)",
    )
    family_ci_hi: float = Field(description="adjusted, as `family_ci_lo`")
    shared_units: int = 0
    moved: bool = Field(
        default=False,
        description="exactly when the adjusted interval (`family_ci_lo`, "
        "`family_ci_hi`) excludes 0: a move beyond noise",
    )


class EpochAdvice(_Model):
    """With several samples per item: where the variance of the difference comes from,
    and what one more epoch or twice the items would make the detectable drop."""

    within_share: float = Field(
        description="share of the difference's variance from generation noise within "
        "items (the samples' own spread)"
    )
    between_share: float = Field(description="share from the items themselves")
    samples_per_item: float = Field(description="mean samples per item and model")
    detectable_one_more_epoch: float = Field(
        description="the detectable drop with one more sample of every item"
    )
    detectable_twice_items: float = Field(
        description="the detectable drop with twice the items (of the same kind)"
    )


class GateComparison(_Model):
    """One gated comparison: `candidate - baseline`, or a guardrail's.

    For `measure` ``cost``, ``latency`` or ``tokens`` (lower is better) the interval is
    the relative change of the paired ratio of means, ``candidate / baseline - 1``,
    and it regresses when ``ci_lo > margin`` (the tolerated relative increase).
    """

    candidate: str
    baseline: str
    scope: str = Field(
        description='"overall", "category:<name>", or "anchor" (the model against its '
        "own row of the anchor run, at the anchor margin)"
    )
    measure: str = Field(
        default="score",
        description='"score" for the primary score; "completion" for the share of '
        "the units both runs attempted that each one scored (an errored unit is "
        "attempted, not scored; diff_mean is the candidate's share minus the "
        'baseline\'s); "cost", "latency", "tokens" or a secondary metric\'s name for '
        "a guardrail",
    )
    direction: Literal["higher_is_better", "lower_is_better"] = Field(
        default="higher_is_better",
        description="lower_is_better for cost, latency and tokens",
    )
    relative: bool = Field(
        default=False,
        description="true: diff_mean, ci_lo and ci_hi are relative changes of the "
        "ratio of means (0.31 = 31% more), and `margin` the tolerated increase",
    )
    candidate_mean: float | None = Field(
        default=None, description="the candidate's mean of the measure (guardrails)"
    )
    baseline_mean: float | None = Field(
        default=None, description="the baseline's mean of the measure (guardrails)"
    )
    diff_mean: float
    ci_lo: float
    ci_hi: float
    confidence: float = Field(
        description="level of this interval after the family adjustment"
    )
    margin: float
    regressed: bool = Field(
        description="the whole interval lies below -margin (lower_is_better: above +margin)"
    )
    min_detectable_regression: float | None = Field(
        description="smallest true drop this suite detects with 80% power; null when "
        "it cannot be estimated or no drop within the score range would be detected"
    )
    shared_tasks: int = 0
    shared_units: int = 0
    status: Literal["regressed", "no_regression", "undetermined"] = Field(
        default="no_regression",
        description='"undetermined": the data cannot tell (never shown as a pass): '
        "either no spread can be estimated (`interval` false), or, for the score, "
        "the interval neither lies below -margin nor rules out a drop of `max_drop`; "
        '"no_regression" for the score only when ci_lo >= -max_drop; '
        '"regressed" exactly when `regressed`',
    )
    interval: bool = Field(
        default=True,
        description="false when no spread can be estimated: ci_lo and ci_hi are then "
        "the whole range, and no interval is shown",
    )
    max_drop: float | None = Field(
        default=None,
        description="score comparisons: the drop a pass must rule out (the report's "
        "max_drop, never below this comparison's margin); null for guardrails",
    )
    units_needed: int | None = Field(
        default=None,
        description="a score comparison that cannot tell: about how many units "
        "(items, clusters or tasks: settings.unit) of the same spread would rule out "
        "`max_drop` 80% of the time if nothing changed; null otherwise",
    )
    epochs_needed: int | None = Field(
        default=None,
        description="with several samples per item, when more samples alone can do "
        "it: about how many samples per item, on the same items, would rule out "
        "`max_drop` 80% of the time if nothing changed; null otherwise",
    )
    note: str | None = Field(
        default=None,
        description="why the comparison is undetermined, or why no detectable drop "
        "is given, and what would change it",
    )
    flips: Flips | None = Field(
        default=None,
        description="item-level data with pass/fail (0/1) scores: items that changed "
        "outcome; null otherwise",
    )
    skew_caveat: str | None = Field(
        default=None,
        description="task-level records whose per-task differences are strongly "
        "right-skewed: the gate's level is not held, and this says so",
    )
    epochs: EpochAdvice | None = Field(
        default=None,
        description="with several samples per item: the variance shares and what one "
        "more epoch or twice the items would detect; null with one sample per item",
    )
    worst_items: list[ItemMove] = Field(
        default_factory=_no_items,
        description="item-level data: the items whose score dropped most (candidate "
        "below baseline), largest drop first, at most 10",
    )
    flaky_items: list[FlakyItem] = Field(
        default_factory=_no_items,
        description="pass/fail item-level data, an overall comparison: the shared items "
        "whose outcome differs between runs with no change (epochs that disagree, or "
        "kept runs of the same model that differ), flipped ones first, at most 50",
    )
    flaky_runs: int = Field(
        default=0,
        description="kept runs of the baseline's model read for `flaky_items` (the "
        "baseline's run included); 0 without history-branch",
    )
    breakdown: list[ScopeDiff] = Field(
        default_factory=_no_items,
        description="for an overall comparison: the paired difference within each "
        "category (when several) and, for item-level data, each task; at the report's "
        "confidence, unadjusted; largest drop first",
    )

    @model_validator(mode="before")
    @classmethod
    def _status_from_regressed(cls, data: object) -> object:
        # `regressed` decides: status "regressed" exactly when it is true.
        if (
            isinstance(data, dict)
            and "interval" not in data
            and data.get("status") == "undetermined"
            and data.get("ci_lo", 0.0) <= -1.0
            and data.get("ci_hi", 0.0) >= 1.0
        ):  # the whole range: no spread was estimated, there is no interval
            data = {**data, "interval": False}
        if isinstance(data, dict) and "regressed" in data:
            status = data.get("status")
            if data["regressed"]:
                status = "regressed"
            elif status in (None, "regressed"):
                status = "no_regression"
            data = {**data, "status": status}
        return data


class KeptMean(_Model):
    """One model's mean and interval in one kept run (as the history's index holds it)."""

    mean: float
    lo: float
    hi: float


class TrendPoint(_Model):
    """One kept run of the history branch, as the trend chart reads it."""

    commit: str = Field(description="the commit the run was stored for")
    stored_at: str | None = None
    models: dict[str, KeptMean] = Field(
        default_factory=dict,
        description="model id (of the kept run) -> its mean and interval",
    )


class BaselineRun(_Model):
    """The second run the gate compares with, when the baseline is a whole run.

    With a baseline run, each model id present in both runs is gated against its own
    row of that run, named ``"<model_id> @ <label>"`` in the leaderboard and the gate.
    """

    label: str = Field(
        description='name of the baseline run, appended to its model ids as " @ <label>"'
    )
    source: Literal["results", "history"] = Field(
        description='"results": files given as baseline-results; '
        '"history": the run stored for a commit of the history branch'
    )
    branch: str | None = Field(
        default=None, description="branch the baseline run was made on, when known"
    )
    commit: str | None = Field(
        default=None, description="commit the baseline run was made for, when known"
    )
    stored_at: str | None = Field(
        default=None, description="when the run was stored (ISO 8601, UTC), when known"
    )
    commits_behind: int | None = Field(
        default=None,
        description="first-parent commits between the stored run and the base commit",
    )
    trend: list[TrendPoint] = Field(
        default_factory=_no_items,
        description="history: the kept runs up to the baseline's, oldest first (at most "
        "12), each with the mean and interval of the models this run also holds; "
        "what the comment's trend chart draws",
    )


class ModelChange(_Model):
    """A candidate gated against a baseline-run model of another id."""

    candidate: str = Field(description="model id in the results")
    baseline_model: str = Field(description="model id in the baseline run")
    how: Literal["only_model", "baseline_map"] = Field(
        description='"only_model": each run holds one model id and they differ; '
        '"baseline_map": paired by `--baseline-map NEW=OLD`'
    )


GateStatus = Literal["regressed", "no_regression", "undetermined", "off", "no_baseline_run"]


class Gate(_Model):
    baseline: str | None = Field(
        description="the baseline model id within one run; with a baseline run, that "
        "run's label (each comparison then names its own baseline row, "
        '"<model_id> @ <label>"); null: no baseline'
    )
    regressed: bool
    adjustment: Literal["max-t", "bonferroni", "none"] = Field(
        default="max-t",
        description="how the score's family (the score and anchor comparisons, "
        '`family_size` of them) holds `confidence`: "max-t" (one level for every '
        "comparison, from the maximum of their standardized bootstrap deviations, "
        'never below Bonferroni\'s), "bonferroni", or "none" (a family of one); '
        "guardrails never change it: they hold a budget of their own "
        "(`guardrail_family_size`)",
    )
    family_size: int = Field(
        default=0,
        description="the score's family: the gated score comparisons (anchor "
        "comparisons included) that hold `confidence` together; the same with or "
        "without guardrails",
    )
    guardrail_family_size: int = Field(
        default=0,
        description="the guardrail comparisons gated: together they share a second "
        "budget of 1 - confidence (Bonferroni: each at 1 - (1 - confidence) / this "
        "count); 0 without guardrails",
    )
    completion_family_size: int = Field(
        default=0,
        description="the completion comparisons gated (one per gated pair whose runs "
        "hold an errored unit): together they share a budget of 1 - confidence, each "
        "an exact one-sided test at (1 - confidence) / (2 x this count); 0 without "
        "errored units",
    )
    bound: float = Field(
        default=0.0,
        description="the whole gate's bound on the chance of any false regression: "
        "(1 - confidence) / 2 per block of comparisons, the score block plus the "
        "completion block when any unit errored, plus the guardrail block when there "
        "are guardrails; 0 when nothing is gated",
    )
    comparisons: list[GateComparison] = Field(default_factory=_no_items)
    status: GateStatus = Field(
        description='"off": no gate asked for; "no_baseline_run": a baseline run was '
        "asked for (the kept history) and none could be read, so nothing was gated; "
        '"regressed": a comparison regressed (exactly when `regressed`); else '
        '"undetermined": a comparison, or the gate itself, cannot be determined from '
        'the data (never a pass; see `note`); else "no_regression". Left out on '
        "construction, it follows from the comparisons, `baseline` and `baseline_run`"
    )
    note: str | None = Field(
        default=None, description="why, when status says no gate or undetermined"
    )
    ungated: list[str] = Field(
        default_factory=_no_items,
        description="with a baseline run: leaderboard ids of the models present in "
        "only one of the two runs, shown but not gated",
    )
    baseline_run: BaselineRun | None = Field(
        default=None, description="the second run the models are gated against"
    )
    not_gated: list[GateComparison] = Field(
        default_factory=_no_items,
        description="measures the runs carry (cost, latency, tokens) that no guardrail "
        "names: each gated pair's comparison at the report's confidence, reported, "
        "never gated (`regressed` is always false)",
    )
    anchor: str | None = Field(
        default=None,
        description="label of the anchor run: each model is also gated against its own "
        'row "<model_id> @ <label>" of it at the anchor margin (comparisons with scope '
        '"anchor"); null: no anchor',
    )
    model_changes: list[ModelChange] = Field(
        default_factory=_no_items,
        description="with a baseline run: candidates gated against a baseline-run "
        "model of another id (a renamed model)",
    )
    differences: list[str] = Field(
        default_factory=_no_items,
        description="with a baseline run: how the two runs differ in what they hold "
        "(tasks scored by different metrics and left out, epochs, item sets), one "
        "sentence each",
    )
    left_out_tasks: list[str] = Field(
        default_factory=_no_items,
        description="with a baseline run: tasks not compared because their metric "
        "differs between the runs",
    )

    @model_validator(mode="before")
    @classmethod
    def _default_status(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("status") is None:
            comps = data.get("comparisons") or []
            if data.get("regressed"):
                status = "regressed"
            elif any(
                (c.get("status") if isinstance(c, dict) else getattr(c, "status", None))
                == "undetermined"
                for c in comps
            ):
                status = "undetermined"
            elif data.get("baseline") is not None or data.get("baseline_run"):
                status = "no_regression"
            else:
                status = "off"
            data = {**data, "status": status}
        return data

    @model_validator(mode="after")
    def _status_agrees(self) -> "Gate":
        if self.regressed != (self.status == "regressed"):
            raise ValueError(
                f"status {self.status!r} disagrees with regressed={self.regressed}"
            )
        return self

    @model_validator(mode="before")
    @classmethod
    def _status_from_comparisons(cls, data: object) -> object:
        # "regressed" exactly when `regressed`; "off", "no_baseline_run" and
        # "undetermined" as given; otherwise derived from the comparisons (a
        # two-run gate has comparisons whatever `baseline` says) and the baseline.
        if not isinstance(data, dict):
            return data
        given = data.get("status")
        undetermined = any(
            (c.status if isinstance(c, GateComparison) else c.get("status"))
            == "undetermined"
            for c in data.get("comparisons", [])
        )
        if data.get("regressed"):
            status = "regressed"
        elif given in ("off", "no_baseline_run", "undetermined"):
            status = given
        elif undetermined:
            status = "undetermined"
        elif data.get("baseline") is None and not data.get("comparisons"):
            status = "off"
        else:
            status = "no_regression"
        return {**data, "status": status}


VerdictState = Literal["regressed", "no_regression", "cannot_tell", "no_gate"]


class Verdict(_Model):
    """The one verdict every surface tells (CONTRACT.md section 11).

    Computed once from the gate (`leaderboard.stats.verdict.decide`); the comment's
    first line, the job summary's, the commit status, the log's verdict lines and the
    step outputs are all rendered from it. Its `state` follows `Gate.status`
    (``off``: ``no_gate``; ``undetermined`` and ``no_baseline_run``: ``cannot_tell``);
    the comparison it names is the one that decides that state.
    """

    state: VerdictState = Field(
        default="no_gate",
        description='"regressed", "no_regression", "cannot_tell" (never a pass) or '
        '"no_gate" (no baseline was asked for)',
    )
    measure: str | None = Field(
        default=None,
        description='what the named comparison measures: "score", "completion", or a '
        "guardrail's name (cost, latency, tokens, a metric); null when no comparison "
        "decides the state",
    )
    candidate: str | None = None
    baseline: str | None = None
    scope: str | None = Field(
        default=None,
        description='the comparison\'s scope ("overall", "category:<name>", "anchor")',
    )
    estimate: float | None = Field(
        default=None,
        description='candidate - baseline, or for a ratio (unit "%") the relative '
        "change in percent (45.6 = 45.6% more)",
    )
    ci_lo: float | None = Field(default=None, description="in the unit of `estimate`")
    ci_hi: float | None = Field(default=None, description="in the unit of `estimate`")
    unit: Literal["", "%"] = Field(
        default="",
        description='"" for a difference of scores (0-1 scale), "%" for a ratio',
    )
    level: float | None = Field(
        default=None, description="the confidence of that interval (family-adjusted)"
    )
    tolerance: float | None = Field(
        default=None,
        description='the drop ("%": the increase) tolerated before a regression '
        "counts, in the unit of `estimate`",
    )
    ruled_out: float | None = Field(
        default=None,
        description='the interval rules out a drop ("%": an increase) larger than '
        "this, in the unit of `estimate`; null when regressed or without an interval",
    )
    max_drop: float | None = Field(
        default=None,
        description="score: the drop a pass must rule out (a cannot-tell states "
        "that it is not ruled out); null for other measures",
    )
    units_needed: int | None = Field(
        default=None,
        description="cannot tell: about how many units (`unit_kind`) would rule out "
        "`max_drop` 80% of the time if nothing changed; null otherwise",
    )
    unit_kind: str | None = Field(
        default=None, description='"item", "cluster" or "task": what `units_needed` counts'
    )
    epochs_needed: int | None = Field(
        default=None,
        description="cannot tell, several samples per item: about how many samples "
        "per item on the same items would do it, when they alone can; else null",
    )
    improved: bool = Field(
        default=False,
        description="the score's interval lies wholly above 0: an improvement beyond "
        "noise (never a failure)",
    )
    detectable_drop: float | None = Field(
        default=None,
        description="smallest true drop the suite detects 80% of the time (score "
        "differences only); null when it cannot be estimated",
    )
    reason: str | None = Field(
        default=None,
        description="why it cannot tell, or why no detectable drop is given, in plain "
        "words (no option names: each shell adds its own)",
    )
    accepted: str | None = Field(
        default=None,
        description="the accept label that accepted this regression, or null",
    )
    others: int = Field(
        default=0, description="how many more gated comparisons share `state`"
    )


class ReportSettings(_Model):
    confidence: float
    resamples: int
    seed: int
    margin: float
    max_drop: float = Field(
        default=0.05,
        description="a score comparison passes only when its interval rules out a "
        "drop of this much (never below margin); otherwise it cannot tell",
    )
    method: str = Field(description="how the intervals are computed")
    unit: Literal["task", "item", "cluster"] = Field(
        description="what the bootstrap resamples"
    )
    baseline: str | None = None
    baseline_label: str | None = Field(
        default=None,
        description="label of the baseline run; null when there is no baseline run",
    )
    candidates: list[str] = Field(default_factory=_no_items)
    gate_categories: bool = False
    guardrails: dict[str, float] = Field(
        default_factory=dict,
        description="guarded measure -> tolerance: a relative increase for cost, "
        "latency and tokens (0.1 = +10%), an absolute drop for a metric (0.02)",
    )
    show_outputs: bool = Field(
        default=False,
        description="whether the items that dropped most carry what was answered "
        "(`worst_items[].answers`); false: the report holds no input or answer",
    )


class DataSummary(_Model):
    records: int
    models: int
    tasks: int
    categories: list[str]
    items: int = Field(description="distinct (task, item) pairs; 0 for task-level data")
    clusters: int = Field(description="distinct (task, cluster) pairs; 0 when unclustered")
    samples_per_item_max: int = 1


class Report(_Model):
    schema_version: Literal[1] = 1
    generator: str = Field(description="leaderboard-action and its version")
    settings: ReportSettings
    data: DataSummary
    leaderboard: list[LeaderboardRow]
    pairwise: list[PairwiseDiff]
    gate: Gate
    verdict: Verdict = Field(
        default_factory=Verdict,
        description="the comparison that decides the first line, and its state "
        "(CONTRACT.md section 11)",
    )
    warnings: list[str] = Field(default_factory=_no_items)
