"""Which of a task's scores the readers keep, and how each maps to [0, 1].

Two rules shared by the framework readers (docs/frameworks.md gives them per
framework):

- **One score per task.** A framework often reports several numbers for one task
  (lm-eval: ``acc`` and ``acc_norm``; ``exact_match`` under two filters; Inspect:
  several scorers; promptfoo: pass/fail, the assertion score, named scores). Treating
  each as its own task would make the interval measure how much the variants disagree
  and count one task several times in a gate. A reader keeps one: the first of the
  user's preferences (`ReadOptions.metrics`) that the task reports, else the
  framework's primary one (documented per reader), and names the others it left out
  of the score; those with a value on [0, 1] are kept as the record's secondary
  ``metrics``, for guardrails.
- **Scale by metric, never by value.** A metric of known range (`KNOWN_RANGES`) is
  mapped linearly onto [0, 1] whatever its value: ``mcc`` from [-1, 1], sacrebleu's
  and EQ-Bench's 0-100 scores divided by 100. A metric of unknown range is taken to be
  in [0, 1]; a value outside it leaves that task out with a warning naming the
  metric, so one metric never refuses a run.

`Notes` collects what a reader kept, rescaled or left out and tells it once per file
and kind as a `FormatWarning`.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Sequence, Sized
from dataclasses import dataclass

from leaderboard.errors import InputError, UsageError
from leaderboard.inputs.frameworks._common import (
    DefaultChoice,
    FormatWarning,
    finite_number,
)
from leaderboard.inputs.reading import MAX_RECORDS

#: Values of `ReadOptions.task_weights` (the ``task-weights`` input).
TASK_WEIGHTS = ("equal", "items")

# (low, high) of metrics whose documented range is not [0, 1], keyed by the metric's
# aggregation (lm-eval's `metric_list`) or its name. Mapped by (v - low) / (high - low).
KNOWN_RANGES: dict[str, tuple[float, float]] = {
    # Matthews correlation (sklearn.metrics.matthews_corrcoef): -1 to 1.
    "mcc": (-1.0, 1.0),
    # sacrebleu's `.score`, which the harness's bleu/chrf aggregations return: 0-100.
    "bleu": (0.0, 100.0),
    "chrf": (0.0, 100.0),
    "chrf++": (0.0, 100.0),
    "sacrebleu": (0.0, 100.0),
    # truthfulqa_gen's best-of scores (sacrebleu / rouge_score x 100): 0-100.
    "bleu_max": (0.0, 100.0),
    "rouge1_max": (0.0, 100.0),
    "rouge2_max": (0.0, 100.0),
    "rougeL_max": (0.0, 100.0),
    # EQ-Bench (lm-eval task eq_bench): a 0-100 score and a percentage.
    "eqbench": (0.0, 100.0),
    "percent_parseable": (0.0, 100.0),
}

# Task-specific ranges where one metric name means different scales in different
# tasks: the squad_v2 metric (HF `evaluate`) reports exact and f1 in percent, while
# `f1` elsewhere in the harness is a fraction.
TASK_RANGES: dict[str, dict[str, tuple[float, float]]] = {
    "squadv2": dict.fromkeys(
        (
            "exact",
            "f1",
            "HasAns_exact",
            "HasAns_f1",
            "NoAns_exact",
            "NoAns_f1",
            "best_exact",
            "best_f1",
        ),
        (0.0, 100.0),
    ),
}

#: Metrics that are lower-is-better by definition, for files that do not say so
#: (lm-eval 0.3 wrote no ``higher_is_better``).
LOWER_IS_BETTER = frozenset(
    {
        "ppl",
        "perplexity",
        "word_perplexity",
        "byte_perplexity",
        "bits_per_byte",
        "ter",
        "brier_score",
        "likelihood_difference",
    }
)


@dataclass(frozen=True, slots=True)
class ReadOptions:
    """What the user chose about reading frameworks' files.

    Attributes
    ----------
    metrics : tuple of str
        Preferred metrics, most preferred first: for each task the first one the task
        reports is kept (``acc_norm``; with an lm-eval filter,
        ``exact_match,flexible-extract``; an Inspect scorer's name; promptfoo's
        ``pass``, ``score`` or a named score).
        Empty: each reader's documented primary metric.
    task_weights : {"equal", "items"}
        ``equal``: every task counts the same in a model's mean (unless records give a
        ``weight``). ``items``: a task counts by its number of items, so the mean is
        the pooled item mean, as lm-eval's size-weighted group scores.
    model_id : str or None
        The model id for results whose files name no model (the ``model-id`` input):
        a reader that would fall back to its documented default id (deepeval's
        ``deepeval``, SWE-bench's ``agent``) or refuse (lighteval without
        ``model_name``) uses this instead. An id a file does name is never replaced;
        HELM, EvalScope and LiveCodeBench always name one (``adapter_spec.model``, the
        folder). None: the documented defaults.
    limit : int
        How many records the file may still add to the run (`MAX_RECORDS` less what
        the files before it brought): a reader refuses the one past it as it reads
        (`_common.RunList`, `_common.check_room`), before building the rest.
    """

    metrics: tuple[str, ...] = ()
    task_weights: str = "equal"
    model_id: str | None = None
    limit: int = MAX_RECORDS


#: Distinct metric names one file may hold (HELM's statistics, lighteval's, EvalScope's,
#: a record's secondary metrics): real ones hold tens; thousands are no eval's output.
MAX_METRIC_NAMES = 1_000


def check_metric_names(names: Sized, shown: str, field: str) -> None:
    """Refuse a file that holds more than `MAX_METRIC_NAMES` distinct metric names."""
    if len(names) > MAX_METRIC_NAMES:
        raise InputError(
            f"holds {len(names):,} distinct metric names; a file may hold at most "
            f"{MAX_METRIC_NAMES:,}",
            file=shown,
            field=field,
            fix="check that the file is what the eval framework wrote: a name per item "
            "or per task is no metric",
        )


#: Longest `ReadOptions.model_id` accepted (the records' own ids have no bound; this
#: one comes from a command line or a workflow file).
MAX_MODEL_ID = 200


def check_model_id(name: str, raw: str) -> str | None:
    """Validate the ``model-id`` setting: empty (the readers' defaults) or an id.

    Parameters
    ----------
    name : str
        The setting as the user wrote it (``--model-id``, ``model-id``), for the message.
    raw : str
        Its value.

    Returns
    -------
    str or None
        The id with surrounding blanks removed; None when empty.

    Raises
    ------
    UsageError
        An id with a control character or longer than `MAX_MODEL_ID`.
    """
    value = raw.strip()
    if not value:
        return None
    if not value.isprintable() or len(value) > MAX_MODEL_ID:
        raise UsageError(
            f"{name}: must be a printable model id of at most {MAX_MODEL_ID} "
            f"characters, got {value[:60]!r}"
        )
    return value


def choose(available: Sequence[str], preferred: Iterable[str]) -> str:
    """The first of `preferred` among `available`, else ``available[0]``.

    A preference names a metric (``acc``) or a metric and filter (``acc,none``); a
    bare metric matches the first of its filters in `available` order.

    Parameters
    ----------
    available : sequence of str
        The task's candidate keys in the framework's order, non-empty; lm-eval keys are
        ``"<metric>,<filter>"``.
    preferred : iterable of str
        The user's preferences, most preferred first.
    """
    for want in preferred:
        for key in available:
            if key == want or key.partition(",")[0] == want:
                return key
    return available[0]


def matches(available: Iterable[str], preferred: Iterable[str]) -> bool:
    """Whether any of `preferred` names one of `available` (as `choose` matches)."""
    keys = list(available)
    return any(
        key == want or key.partition(",")[0] == want for want in preferred for key in keys
    )


def refuse_unmatched(
    held: Iterable[str], preferred: Sequence[str], shown: str, hint: str = ""
) -> InputError:
    """The error for `metric` preferences that name nothing a file holds."""
    names = list(dict.fromkeys(held))
    listed = ", ".join(names[:20]) + (", ..." if len(names) > 20 else "")
    wanted = ", ".join(preferred)
    return InputError(
        f"--metric {wanted}: names nothing this file holds{hint}; it holds: "
        f"{listed or '(no metric)'}",
        file=shown,
        field="metric",
        fix="give one of the metrics it holds (repeat --metric, or list several in the "
        "`metric` input, to give fallbacks)",
    )


def known_range(metric: str, task: str = "") -> tuple[float, float] | None:
    """The documented (low, high) range of `metric` when it is not [0, 1], else None."""
    for prefix, ranges in TASK_RANGES.items():
        if task.startswith(prefix) and metric in ranges:
            return ranges[metric]
    return KNOWN_RANGES.get(metric)


def to_unit(value: object, scale: tuple[float, float] | None) -> float | None:
    """`value` mapped onto [0, 1] from `scale` (None: already [0, 1]).

    Booleans are 0/1. Returns None for what `finite_number` refuses (a non-number, a
    non-finite number, an integer of hundreds of digits), or a value outside the
    scale (the caller names the metric and leaves the task out).
    """
    found = finite_number(value)
    if found is None:
        return None
    if value is True or value is False:
        return found
    low, high = scale if scale is not None else (0.0, 1.0)
    if not low <= found <= high:
        return None
    return (found - low) / (high - low)


class Notes:
    """What a reader changed or left out, told once per file as `FormatWarning`s."""

    OTHERS = (
        "one score per task; left out of the score (choose with the `metric` input "
        "or --metric; those valued on [0, 1] per item or task are kept for --guardrail)"
    )
    FALLBACK = "none of the preferred metrics reported; kept the primary one"
    RESCALED = "mapped onto [0, 1] from the metric's documented range"
    LOWER = "left out, lower-is-better (the leaderboard ranks higher scores first)"
    RANGE = "task left out, a metric of no known scale outside [0, 1]"
    CORPUS = (
        "task left out, a corpus-level metric has no per-document score (read the "
        "results file for it, or choose a mean metric with --metric)"
    )
    EMPTY = "left out, no metric the leaderboard can rank"
    GROUPS = "group means differ"

    def __init__(self, shown: str) -> None:
        self.shown = shown
        self.found: dict[str, list[str]] = {}
        self._seen: set[tuple[str, str]] = set()  # membership in constant time

    def add(self, kind: str, what: str) -> None:
        if (kind, what) not in self._seen:
            self._seen.add((kind, what))
            self.found.setdefault(kind, []).append(what)

    def warn(self) -> None:
        for kind, names in self.found.items():
            grouped = (self.OTHERS, self.LOWER, self.FALLBACK)
            listed = compact(names) if kind in grouped else None
            text = (
                names[0] if kind == self.GROUPS else f"{kind}: {listed or ', '.join(names)}"
            )
            if kind == self.OTHERS:
                warnings.warn(DefaultChoice(self.shown, text), stacklevel=4)
            else:
                warnings.warn(f"{self.shown}: {text}", FormatWarning, stacklevel=4)


def compact(names: list[str], listed: int = 3) -> str:
    """``"<task> <key>"`` notes grouped by key: ``acc_norm in 57 tasks (a, b, c, ...)``."""
    by_key: dict[str, list[str]] = {}
    for name in names:
        task, _, key = name.rpartition(" ")
        by_key.setdefault(key, []).append(task)
    parts = []
    for key, tasks in by_key.items():
        shown = [t for t in tasks if t]
        if len(shown) <= listed:
            parts.append(f"{key} in {', '.join(shown)}" if shown else key)
        else:
            more = ", ".join(shown[:listed])
            parts.append(f"{key} in {len(shown)} tasks ({more}, ...)")
    return ", ".join(parts)
