"""What the statistics are asked for: one frozen request, checked once.

`Request` holds the statistics' whole input: the runs, the baseline (a type of its
own: a model of the same run, a second run, or a baseline run that could not be
read), the candidates, the level, the margin, the guardrails, the anchor run, the
resamples and the seed. Both shells (the command line and the action) build one and
hand it to `leaderboard.stats.report_for`; `build_report`'s keywords (CONTRACT.md
section 2) build one with `request`. Its checks run once, when it is made; the limits
they apply are defined here and nowhere else (`LIMITS`), and the shells read their
settings through the same ones (`Limit.read_float`, `Limit.read_int`), so that a value
one shell accepts the statistics never refuse, and both refuse a value in one wording.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from leaderboard.errors import UsageError
from leaderboard.inputs import EvalRun
from leaderboard.report import BaselineRun
from leaderboard.stats.anchor import ANCHOR_LABEL
from leaderboard.stats.guardrails import Guardrail, check_guardrails
from leaderboard.stats.ruled_out import DEFAULT_MAX_DROP, check_max_drop
from leaderboard.stats.two_runs import check_missing

__all__ = [
    "LIMITS",
    "MAX_RESAMPLES",
    "MAX_SEED",
    "MIN_RESAMPLES",
    "AnchorRun",
    "Baseline",
    "Limit",
    "MissingBaseline",
    "ModelBaseline",
    "Request",
    "RunBaseline",
    "check_settings",
    "request",
]

MIN_RESAMPLES = 100
#: Most bootstrap resamples a shell may ask for (time and memory stay bounded).
MAX_RESAMPLES = 1_000_000
MAX_SEED = 2**63 - 1


_SCORES = "scores lie in [0, 1]"


@dataclass(frozen=True)
class Limit:
    """The range of one numeric setting: ``low`` to ``high``, each end open or closed
    (``high`` infinite: no upper end), and how a shell refuses a value outside it.

    Both shells read a setting's text through `read_float` or `read_int`, each with
    its own name for the setting, so that a range and the words of its refusal are
    defined once: ``NAME: must be between 0 and 1 (exclusive), got '1.5'``.
    """

    low: float
    high: float
    low_open: bool = False
    high_open: bool = False
    #: Why the range is what it is, said after it (``scores lie in [0, 1]``).
    note: str = ""

    def holds(self, value: float) -> bool:
        """Whether `value` is a finite number inside the range."""
        if not math.isfinite(value):
            return False
        above = value > self.low if self.low_open else value >= self.low
        below = value < self.high if self.high_open else value <= self.high
        return above and below

    @property
    def words(self) -> str:
        """The range in words, e.g. ``at least 0 and below 1 (scores lie in [0, 1])``."""
        low, high = _plain(self.low), _plain(self.high)
        if math.isinf(self.high):
            text = f"above {low}" if self.low_open else f"at least {low}"
        elif self.low_open and self.high_open:
            text = f"between {low} and {high} (exclusive)"
        elif self.low_open:
            text = f"above {low} and at most {high}"
        elif self.high_open:
            text = f"at least {low} and below {high}"
        else:
            text = f"between {low} and {high}"
        return f"{text} ({self.note})" if self.note else text

    def refusal(self, name: str, raw: str) -> UsageError:
        """The error for `raw`, given as setting `name`, outside the range."""
        return UsageError(f"{name}: must be {self.words}, got {raw!r}")

    def read_float(self, name: str, raw: str) -> float:
        """`raw` as a number inside the range, or an error naming `name`."""
        try:
            value = float(raw)
        except ValueError:
            raise UsageError(f"{name}: must be a number, got {raw!r}") from None
        if not self.holds(value):
            raise self.refusal(name, raw)
        return value

    def read_int(self, name: str, raw: str) -> int:
        """`raw` as a whole number (decimal digits) inside the range, or an error."""
        try:
            value = int(raw, 10)
        except ValueError:
            raise UsageError(f"{name}: must be an integer, got {raw!r}") from None
        if not self.holds(value):
            raise self.refusal(name, raw)
        return value


def _plain(value: float) -> str:
    """A range's end as people write it: ``0``, ``1``, ``1000000``, ``0.5``."""
    if isinstance(value, int) or (math.isfinite(value) and value.is_integer()):
        return str(int(value))
    return f"{value:g}"


#: Every numeric setting's range, and with it the words both shells refuse a value in.
LIMITS = {
    "confidence": Limit(0.0, 1.0, low_open=True, high_open=True),
    "margin": Limit(0.0, 1.0, high_open=True, note=_SCORES),  # the score's scale
    "anchor_margin": Limit(0.0, 1.0, high_open=True, note=_SCORES),
    "max_drop": Limit(0.0, 1.0, low_open=True, note=_SCORES),  # raised to the margin
    "resamples": Limit(MIN_RESAMPLES, MAX_RESAMPLES),
    "seed": Limit(0, MAX_SEED),
}


def _number(value: object) -> bool:
    return not isinstance(value, bool) and isinstance(value, (int, float, np.floating))


def _integer(value: object) -> bool:
    return not isinstance(value, bool) and isinstance(value, (int, np.integer))


def check_settings(confidence: float, resamples: int, seed: int, margin: float) -> None:
    """Validate the numeric settings against `LIMITS`; messages name the parameter."""
    if not _number(confidence) or not LIMITS["confidence"].holds(confidence):
        raise UsageError(
            f"`confidence` must lie strictly between 0 and 1, got {confidence!r}"
        )
    if not _integer(resamples):
        raise UsageError(f"`resamples` must be an integer, got {resamples!r}")
    if resamples < MIN_RESAMPLES:
        raise UsageError(
            f"`resamples` must be at least {MIN_RESAMPLES} (10000 recommended), "
            f"got {resamples}"
        )
    if resamples > MAX_RESAMPLES:
        raise UsageError(f"`resamples` must be at most {MAX_RESAMPLES}, got {resamples}")
    if not _integer(seed) or not LIMITS["seed"].holds(seed):
        raise UsageError(
            f"`seed` must be a non-negative integer up to 2**63 - 1, got {seed!r}"
        )
    if not _number(margin) or not LIMITS["margin"].holds(margin):
        raise UsageError(
            f"`margin` must be a finite number >= 0 and below 1 (scores lie in [0, 1]), "
            f"got {margin!r}"
        )


@dataclass(frozen=True)
class ModelBaseline:
    """The candidates are gated against `model`, a model of the same run."""

    model: str


@dataclass(frozen=True)
class RunBaseline:
    """A second run is the baseline: each model is gated against its own row of it.

    ``model_map`` is ``{NEW: OLD}``: model NEW of the results against OLD of `runs`.
    ``history``: the kept runs read for flaky items (`leaderboard.stats.flaky`),
    oldest first, `runs` itself last; empty when the baseline is not a kept run.
    """

    runs: tuple[EvalRun, ...]
    run: BaselineRun | None = None
    model_map: Mapping[str, str] | None = None
    history: tuple[tuple[EvalRun, ...], ...] = ()

    def __post_init__(self) -> None:
        if self.run is not None and not isinstance(self.run, BaselineRun):
            raise UsageError(
                f"`baseline_run` must be a BaselineRun, got {type(self.run).__name__}"
            )


@dataclass(frozen=True)
class MissingBaseline:
    """A baseline run was asked for and none could be read; `note` says why."""

    note: str

    def __post_init__(self) -> None:
        check_missing(self.note, None, None)


#: What the candidates are gated against; None: no gate.
Baseline = ModelBaseline | RunBaseline | MissingBaseline | None


@dataclass(frozen=True)
class AnchorRun:
    """An anchor run: every model is also gated against its own row at `margin`."""

    runs: tuple[EvalRun, ...]
    margin: float = 0.0
    label: str = ANCHOR_LABEL

    def __post_init__(self) -> None:
        if not _number(self.margin) or not LIMITS["anchor_margin"].holds(self.margin):
            raise UsageError(
                f"`anchor_margin` must be a number in [0, 1), got {self.margin!r}"
            )


@dataclass(frozen=True)
class Request:
    """Everything the statistics are asked for, checked when it is made.

    Attributes
    ----------
    runs : tuple of EvalRun
        The results (CONTRACT.md section 1).
    baseline : ModelBaseline, RunBaseline, MissingBaseline or None
        What the candidates are gated against; None: no gate.
    candidates : tuple of str or None
        The gated models; None: every model but the baseline (with a `RunBaseline`,
        every model id in both runs).
    confidence, resamples, seed, margin
        The level of every interval and of the gate's family, the bootstrap
        replicates, their seed, the tolerated drop (`LIMITS`).
    max_drop : float
        The drop a score comparison must rule out to pass (CONTRACT.md section 13),
        in (0, 1]; raised to `margin` when below it.
    gate_categories : bool
        Also gate every category.
    guardrails : tuple of Guardrail
        Measures gated beside the score (checked: no name twice).
    anchor : AnchorRun or None
        The anchor run, one more member of the gate's family per model.
    show_outputs : bool
        Give the items that dropped most the input and answers their records carry
        (`leaderboard.stats.answers`); off, the report holds no answers.

    Raises
    ------
    UsageError
        A setting outside `LIMITS`, guardrails that clash, a baseline of a wrong type.
    """

    runs: tuple[EvalRun, ...]
    baseline: Baseline = None
    candidates: tuple[str, ...] | None = None
    confidence: float = 0.95
    resamples: int = 10_000
    seed: int = 0
    margin: float = 0.0
    max_drop: float = DEFAULT_MAX_DROP
    gate_categories: bool = False
    guardrails: tuple[Guardrail, ...] = field(default=())
    anchor: AnchorRun | None = None
    show_outputs: bool = False

    def __post_init__(self) -> None:
        check_settings(self.confidence, self.resamples, self.seed, self.margin)
        object.__setattr__(self, "max_drop", check_max_drop(self.max_drop, self.margin))
        if self.baseline is not None and not isinstance(
            self.baseline, (ModelBaseline, RunBaseline, MissingBaseline)
        ):
            raise UsageError(
                "`baseline` must be a ModelBaseline, RunBaseline or MissingBaseline, "
                f"got {type(self.baseline).__name__}"
            )
        object.__setattr__(self, "guardrails", tuple(check_guardrails(self.guardrails)))


def request(
    runs: Iterable[EvalRun],
    *,
    baseline: str | None = None,
    candidates: Sequence[str] | None = None,
    confidence: float = 0.95,
    resamples: int = 10000,
    seed: int = 0,
    margin: float = 0.0,
    max_drop: float = DEFAULT_MAX_DROP,
    gate_categories: bool = False,
    baseline_runs: Iterable[EvalRun] | None = None,
    baseline_run: BaselineRun | None = None,
    baseline_missing: str | None = None,
    guardrails: Sequence[Guardrail] = (),
    anchor_runs: Iterable[EvalRun] | None = None,
    anchor_margin: float = 0.0,
    anchor_label: str = ANCHOR_LABEL,
    baseline_map: Mapping[str, str] | None = None,
    show_outputs: bool = False,
) -> Request:
    """The `Request` of `build_report`'s keywords (the same names and meaning).

    Raises
    ------
    UsageError
        As `Request`, and for keywords that exclude each other: `baseline` with
        `baseline_runs`, `baseline_missing` with either, `baseline_run` or
        `baseline_map` without `baseline_runs`.
    """
    check_settings(confidence, resamples, seed, margin)
    check_missing(baseline_missing, baseline, baseline_runs)
    guards = tuple(check_guardrails(guardrails))
    chosen: Baseline = None
    if baseline_missing is not None:
        chosen = MissingBaseline(baseline_missing)
    elif baseline_runs is None:
        if baseline_map:
            raise UsageError(
                "`baseline_map` pairs models of the results with models of "
                "`baseline_runs`; give the baseline run's records too"
            )
        if baseline_run is not None:
            raise UsageError(
                "`baseline_run` describes `baseline_runs`; give the baseline run's "
                "records as `baseline_runs` too"
            )
        chosen = None if baseline is None else ModelBaseline(baseline)
    elif baseline is not None:
        raise UsageError(
            "`baseline` and `baseline_runs` exclude each other: use `baseline_runs` to "
            "gate each model against its own row of a second run, or `baseline` to gate "
            "the models of one run against one of them"
        )
    else:
        chosen = RunBaseline(tuple(baseline_runs), baseline_run, baseline_map)
    if isinstance(candidates, str):
        candidates = [candidates]
    return Request(
        runs=tuple(runs),
        baseline=chosen,
        candidates=None if candidates is None else tuple(candidates),
        confidence=confidence,
        resamples=resamples,
        seed=seed,
        margin=margin,
        max_drop=max_drop,
        gate_categories=gate_categories,
        guardrails=guards,
        anchor=None
        if anchor_runs is None
        else AnchorRun(tuple(anchor_runs), anchor_margin, anchor_label),
        show_outputs=bool(show_outputs),
    )
