"""Input records: `EvalRun`, one score of one model on one task or item, and their order."""

from __future__ import annotations

import contextlib
import contextvars
import math
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from operator import attrgetter
from typing import Any

from leaderboard.errors import InputError

DEFAULT_CATEGORY = "general"

# What no id or name read from an input may hold (`bad_character`).
_BAD_CHARS = {
    "Cc": "a control character",
    "Cs": "a lone surrogate (not a character)",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
}


def bad_character(value: str) -> str | None:
    """``U+001B, a control character``: the first character `value` may not hold.

    The one rule of every id and name read from an input (model, task, category,
    metric and secondary metric names, item and cluster ids): no control character,
    lone surrogate or line or paragraph separator, which would break the report's
    lines, the comment and the log. None when `value` holds none.
    """
    if value.isprintable():
        return None
    for char in value:
        kind = _BAD_CHARS.get(unicodedata.category(char))
        if kind is not None:
            return f"U+{ord(char):04X}, {kind}"
    return None


#: Largest integer an input's number may be (2**53: where floats stop counting by one).
MAX_INTEGER = 2**53


def finite_number(value: object) -> float | None:
    """The one numeric check of every number read from an input or a framework's file.

    A boolean is 0/1, an integer (never a boolean) counts when within
    ±`MAX_INTEGER`, a float when finite; anything else (a string, an integer of
    hundreds of digits, NaN, an infinity, null) is None. Never raises.
    """
    if value is True or value is False:
        return float(value)
    if type(value) is int:
        return float(value) if -MAX_INTEGER <= value <= MAX_INTEGER else None
    if type(value) is float:
        return value if math.isfinite(value) else None
    return None


@dataclass(frozen=True, slots=True)
class EvalRun:
    """One score of one model on one task, or on one item of a task.

    Fields follow the input contract (CONTRACT.md section 1). ``score`` must lie in
    [0, 1]; booleans count as 0/1. ``item_id`` present makes the record item-level;
    ``cluster`` groups items that are not independent; ``sample`` numbers repeated
    samples (epochs) of one item.

    ``cost`` (any unit), ``latency`` (seconds) and ``tokens`` are optional measures of
    the same evaluation, each a finite number >= 0 (CONTRACT.md section 8).
    ``metrics`` holds the record's other quality metrics as sorted ``(name, score)``
    pairs, each score in [0, 1]: a framework log that scores an item with several
    scorers keeps the primary one as ``score`` and the rest here, where guardrails
    read them.

    ``error`` set (a short text: what went wrong) makes the record an *errored
    unit*: attempted and not scored (CONTRACT.md section 13). Its ``score`` is NaN
    (given as None or NaN); the statistics count it in the ``completion``
    comparison only, never as a score.

    ``input`` and ``output`` are optional text: the item's input (its first line) and
    what the model answered, each kept as one short line (`answer_line`) however long
    the file's text is, and shown beside the items that dropped most when the shell
    shows outputs.
    """

    model_id: str
    task_id: str
    score: float
    metric_name: str | None = None
    category: str = DEFAULT_CATEGORY
    weight: float = 1.0
    item_id: str | int | None = None
    cluster: str | int | None = None
    sample: int | None = None
    cost: float | None = None
    latency: float | None = None
    tokens: float | None = None
    metrics: tuple[tuple[str, float], ...] = ()
    error: str | None = None
    input: str | None = None
    output: str | None = None

    def __post_init__(self) -> None:
        score, weight, item, cluster = self.score, self.weight, self.item_id, self.cluster
        if (  # the common case, checked cheaply: a million records load in seconds
            type(score) is float
            and 0.0 <= score <= 1.0
            and type(weight) is float
            and 0.0 < weight < math.inf
            and type(self.model_id) is str
            and self.model_id != ""
            and type(self.task_id) is str
            and self.task_id != ""
            and type(self.category) is str
            and self.category != ""
            and (item is None or type(item) is str)
            and (cluster is None or type(cluster) is str)
            and (self.sample is None or type(self.sample) is int)
            and _plain_measure(self.cost)
            and _plain_measure(self.latency)
            and _plain_measure(self.tokens)
            and (not self.metrics or _plain_metrics(self.metrics))
            and self.error is None
        ):
            if self.input is not None or self.output is not None:
                self._validate_texts()
            return
        self._validate()

    def _validate(self) -> None:  # noqa: PLR0912 - one check per field
        for name in ("model_id", "task_id"):
            value = getattr(self, name)
            if not isinstance(value, str) or value == "":
                raise InputError(
                    f"must be a non-empty string, got {_short(value)}",
                    field=name,
                    fix="give every record a model_id and a task_id",
                )
        score = self.score
        if self.error is not None:
            self._validate_error()
        elif isinstance(score, bool):
            object.__setattr__(self, "score", float(score))
        elif isinstance(score, int) and not 0 <= score <= 1:
            raise InputError(
                f"must lie in [0, 1], got {_short(score)}",
                field="score",
                fix="normalise scores to fractions in [0, 1]: divide percentages by 100",
            )
        elif not isinstance(score, (int, float)) or not math.isfinite(score):
            raise InputError(
                f"must be a finite number in [0, 1], got {_short(score)}",
                field="score",
                fix="normalise scores to [0, 1]",
            )
        else:
            object.__setattr__(self, "score", float(score))
        if self.error is None and not 0.0 <= self.score <= 1.0:
            raise InputError(
                f"must lie in [0, 1], got {self.score!r}",
                field="score",
                fix="normalise scores to fractions in [0, 1]: divide percentages by 100",
            )
        weight = self.weight
        if (
            isinstance(weight, bool)
            or not isinstance(weight, (int, float))
            or (isinstance(weight, int) and weight > 2**1000)
            or not math.isfinite(weight)
            or weight <= 0
        ):
            raise InputError(
                f"must be a finite number > 0, got {_short(weight)}",
                field="weight",
                fix="drop the field for weight 1",
            )
        object.__setattr__(self, "weight", float(weight))
        if not isinstance(self.category, str) or self.category == "":
            raise InputError(
                f"must be a non-empty string, got {_short(self.category)}",
                field="category",
                fix=f"drop the field for {DEFAULT_CATEGORY!r}",
            )
        for name in ("item_id", "cluster"):
            value = getattr(self, name)
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, (str, int))
            ):
                raise InputError(
                    f"must be a string or an integer, got {_short(value)}",
                    field=name,
                    fix="use a string or integer id",
                )
        if self.sample is not None and (
            isinstance(self.sample, bool) or not isinstance(self.sample, int)
        ):
            raise InputError(
                f"must be an integer, got {_short(self.sample)}",
                field="sample",
                fix="number repeated samples 0, 1, 2, ...",
            )
        for name in MEASURES:
            value = getattr(self, name)
            if value is None:
                continue
            if (
                isinstance(value, bool)
                or not isinstance(value, (int, float))
                or (isinstance(value, int) and value > 2**1000)
                or not math.isfinite(value)
                or value < 0
            ):
                raise InputError(
                    f"must be a finite number >= 0, got {_short(value)}",
                    field=name,
                    fix=f"give {MEASURE_UNITS[name]}, or drop the field",
                )
            object.__setattr__(self, name, float(value))
        self._validate_metrics()
        self._validate_texts()

    def _validate_texts(self) -> None:
        for name in TEXTS:
            value = getattr(self, name)
            if value is not None and not isinstance(value, str):
                raise InputError(
                    f"must be a string, got {_short(value)}",
                    field=name,
                    fix=f"write `{name}` as text, or drop the field",
                )
            object.__setattr__(self, name, answer_line(value))

    def _validate_error(self) -> None:
        error, score = self.error, self.score
        if not isinstance(error, str) or not error_message(error):
            raise InputError(
                f"must be a non-empty text saying what went wrong, got {_short(error)}",
                field="error",
                fix="give the error's message, or drop the field on a scored record",
            )
        if score is not None and not (isinstance(score, float) and math.isnan(score)):
            raise InputError(
                f"an errored record (with `error`) has no score, got {_short(score)}",
                field="score",
                fix='give "score": null on a record with an error (an errored item is '
                "attempted, not scored), or drop `error` if it was scored",
            )
        object.__setattr__(self, "score", math.nan)
        object.__setattr__(self, "error", error_message(error))

    def _validate_metrics(self) -> None:
        metrics = self.metrics
        if not isinstance(metrics, tuple):
            metrics = tuple(metrics)
        out = []
        for pair in metrics:
            name, value = pair
            if not isinstance(name, str) or name == "":
                raise InputError(
                    f"must name each metric with a non-empty string, got {_short(name)}",
                    field="metrics",
                    fix="give each secondary metric a name",
                )
            if (bad := bad_character(name)) is not None:
                raise InputError(
                    f"metric name {name[:60]!r} contains {bad}",
                    field="metrics",
                    fix="remove newlines, tabs and other invisible characters from "
                    "metric names",
                )
            if (
                isinstance(value, bool)
                or (found := finite_number(value)) is None
                or not 0 <= found <= 1
            ):
                raise InputError(
                    f"metric {name!r} must lie in [0, 1], got {_short(value)}",
                    field="metrics",
                    fix="normalise every metric's score to [0, 1]",
                )
            out.append((name, float(value)))
        out.sort()
        if len({n for n, _ in out}) != len(out):
            raise InputError(
                "names one metric twice",
                field="metrics",
                fix="keep one score per metric",
            )
        object.__setattr__(self, "metrics", tuple(out))


def _plain_measure(value: object) -> bool:
    """Whether `value` is a measure `EvalRun._validate` keeps as it is: None, or a
    float in [0, inf) (NaN compares false)."""
    return value is None or (type(value) is float and 0.0 <= value < math.inf)


def _plain_metrics(metrics: object) -> bool:
    """Whether `metrics` is already what `EvalRun._validate_metrics` makes of it: a
    tuple of ``(name, score)`` tuples, names printable, non-empty and strictly
    increasing (sorted, none twice), scores floats in [0, 1]. Anything else takes
    the full check, which words the problem or normalises the value."""
    if type(metrics) is not tuple:
        return False
    previous = ""
    for pair in metrics:
        if type(pair) is not tuple or len(pair) != 2:
            return False
        name, value = pair
        if (
            type(name) is not str
            or not previous < name
            or not name.isprintable()
            or type(value) is not float
            or not 0.0 <= value <= 1.0
        ):
            return False
        previous = name
    return True


#: Characters of an errored record's ``error`` text kept (the rest is cut).
ERROR_CHARS = 200


def error_message(text: str) -> str:
    """An error's text as a record keeps it: one line of printable characters (a
    traceback's line breaks and tabs become spaces), at most `ERROR_CHARS` long."""
    line = "".join(c if c.isprintable() else " " for c in text[: 4 * ERROR_CHARS])
    return " ".join(line.split())[:ERROR_CHARS]


#: The optional measures a record may carry beside its score (CONTRACT.md section 8).
MEASURES = ("cost", "latency", "tokens")
MEASURE_UNITS = {
    "cost": "a cost >= 0 (any unit, the same in every record)",
    "latency": "a latency in seconds >= 0",
    "tokens": "a token count >= 0",
}


#: The optional text a record may carry: the item's input and the model's answer.
TEXTS = ("input", "output")
#: Characters kept of one input or answer: its first line, cut (`answer_line`).
MAX_ANSWER = 160
# Characters of a text looked at for its first line: what is kept never grows with it.
_SCAN = 4 * MAX_ANSWER
# Control, format (bidi), private-use, surrogate and separator characters: shown as a
# space, so that no text read from a file breaks a line or reorders one.
_HIDDEN = frozenset(("Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"))


def answer_line(value: str | None) -> str | None:
    """`value` as one short line: its first non-blank line, at most `MAX_ANSWER`
    characters, invisible and control characters made spaces, runs of spaces one;
    ``…`` marks text left out (a cut line, or lines after it). Idempotent; None stays
    None, and an empty answer stays empty (the model answered nothing).

    Only the first few hundred characters are looked at, so the kept text is bounded
    whatever the file holds.
    """
    if value is None:
        return None
    head = value[:_SCAN]
    more = len(value) > _SCAN
    lines = head.lstrip().splitlines()
    first = lines[0] if lines else ""
    more = more or len(lines) > 1
    if not first.isprintable():
        first = "".join(" " if unicodedata.category(c) in _HIDDEN else c for c in first)
    line = " ".join(first.split())
    if line.endswith("…") and len(line) == MAX_ANSWER:
        return line  # already cut
    if len(line) > MAX_ANSWER - 1 or (more and len(line) > MAX_ANSWER - 2):
        return line[: MAX_ANSWER - 1].rstrip() + "…"
    return f"{line} …" if more and line else line


# Whether the readers keep what they read of inputs and answers (`keeping_texts`).
_KEEP_TEXTS = contextvars.ContextVar("keep_texts", default=False)


@contextlib.contextmanager
def keeping_texts(keep: bool = True) -> Iterator[None]:
    """Within the block, the readers keep inputs and answers (`kept_text`); outside
    it they keep none, so that texts no one shows cost no memory."""
    token = _KEEP_TEXTS.set(keep)
    try:
        yield
    finally:
        _KEEP_TEXTS.reset(token)


def kept_text(value: str | None) -> str | None:
    """What a reader keeps of an input or answer it read: `answer_line` within
    `keeping_texts`, else None."""
    if value is None or not _KEEP_TEXTS.get():
        return None
    return answer_line(value)


def keeps_texts() -> bool:
    """Whether the readers keep inputs and answers now (`keeping_texts`)."""
    return _KEEP_TEXTS.get()


_SETTERS = tuple(
    EvalRun.__dict__[name].__set__
    for name in (
        "model_id",
        "task_id",
        "score",
        "metric_name",
        "category",
        "weight",
        "item_id",
        "cluster",
        "sample",
        "cost",
        "latency",
        "tokens",
        "metrics",
        "error",
        "input",
        "output",
    )
)


def checked_run(  # noqa: PLR0917 - the fields of EvalRun, in order
    model_id: str,
    task_id: str,
    score: float,
    metric_name: str | None,
    category: str,
    weight: float,
    item_id: str | int | None,
    cluster: str | int | None,
    sample: int | None,
    *,
    input: str | None = None,
    output: str | None = None,
) -> EvalRun:
    """An `EvalRun` from values a reader has already checked, without re-checking
    (`new_run` starts from it and checks after).

    For the JSON Lines reader's common path only (a million records load in
    seconds): the caller guarantees what `EvalRun.__post_init__` checks, and that
    ``item_id`` and ``cluster`` are strings; ``input`` and ``output`` (strings or
    None) are cut to one short line here (`answer_line`).
    """
    run = _new(EvalRun)
    s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15 = _SETTERS
    s0(run, model_id)
    s1(run, task_id)
    s2(run, score)
    s3(run, metric_name)
    s4(run, category)
    s5(run, weight)
    s6(run, item_id)
    s7(run, cluster)
    s8(run, sample)
    s9(run, None)
    s10(run, None)
    s11(run, None)
    s12(run, ())
    s13(run, None)
    s14(run, kept_text(input))
    s15(run, kept_text(output))
    return run


def record_setters() -> tuple[Any, ...]:
    """The setters of `EvalRun`'s slots, in the order of its fields, for a reader that
    builds records a field at a time (`jsonl_blocks`): each sets its slot on a record
    that `object.__new__` made, without the frozen class's checks, which the caller
    has made."""
    return _SETTERS


_new = object.__new__
_AFTER_IDS = _SETTERS[9:]  # cost ... output: what `checked_run` leaves empty


def new_run(  # noqa: PLR0917 - the fields of EvalRun, in order
    model_id: str,
    task_id: str,
    score: float,
    metric_name: str | None = None,
    category: str = DEFAULT_CATEGORY,
    weight: float = 1.0,
    item_id: str | int | None = None,
    cluster: str | int | None = None,
    sample: int | None = None,
    cost: float | None = None,
    latency: float | None = None,
    tokens: float | None = None,
    metrics: tuple[tuple[str, float], ...] = (),
    error: str | None = None,
    input: str | None = None,
    output: str | None = None,
) -> EvalRun:
    """``EvalRun(...)`` of the same fields, checked the same way (`__post_init__`),
    at a third of the cost: the slots are set directly, where the frozen dataclass's
    ``__init__`` sets each through ``object.__setattr__`` by name. For readers that
    build a record a row (promptfoo)."""
    run = checked_run(
        model_id, task_id, score, metric_name, category, weight, item_id, cluster, sample
    )
    s9, s10, s11, s12, s13, s14, s15 = _AFTER_IDS
    s9(run, cost)
    s10(run, latency)
    s11(run, tokens)
    s12(run, metrics)
    s13(run, error)
    s14(run, input)  # as given: the check below cuts it (`answer_line`)
    s15(run, output)
    run.__post_init__()
    return run


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _item_key(run: EvalRun) -> str:
    return "" if run.item_id is None else str(run.item_id)


def _sample_key(run: EvalRun) -> int:
    return -1 if run.sample is None else run.sample


def canonical_sort(runs: list[EvalRun]) -> None:
    """Sort `runs` in place by (model_id, task_id, item_id, sample), absent first.

    Four stable sorts on one attribute each, so no key tuples are built for a million
    records.
    """
    samples = set(map(_SAMPLE, runs))
    if samples != {None}:  # most runs have no repeated samples: nothing to order
        runs.sort(key=_sample_key)
    items = set(map(_ITEM, runs))
    if None in items or any(type(item) is not str for item in items):
        runs.sort(key=_item_key)
    else:  # every record is item-level with a string id: sort on it directly
        runs.sort(key=_ITEM)
    runs.sort(key=attrgetter("task_id"))
    runs.sort(key=attrgetter("model_id"))


_SAMPLE = attrgetter("sample")
_ITEM = attrgetter("item_id")


_METRIC = attrgetter("metric_name")


def merge_metrics(runs: list[EvalRun], preferred: Sequence[str] = ()) -> list[EvalRun]:
    """Fold records that differ only in ``metric_name`` into one record per evaluation.

    Records of one (model, task, item, sample) with distinct metric names are several
    metrics of the same evaluation, not duplicates (CONTRACT.md section 8). The one
    whose metric comes first in `preferred` (the ``metric`` input) stays the record,
    its ``score`` the primary score; the others move into its ``metrics``, and a
    measure it lacks is taken from them. Runs with at most one metric name, or no
    such groups, come back unchanged (the same list).

    Raises
    ------
    InputError
        A group whose metrics include none of `preferred`: the message lists them.
    """
    names = set(map(_METRIC, runs))
    if len(names) <= 1:
        return runs
    groups: dict[tuple[str, str, object, object, int], list[EvalRun]] = {}
    for run in runs:
        # an errored unit has no metric to fold: it stays a record of its own (and a
        # scored record of the same evaluation is refused as its duplicate later)
        alone = id(run) if run.error is not None else 0
        key = (run.model_id, run.task_id, run.item_id, run.sample, alone)
        groups.setdefault(key, []).append(run)
    if len(groups) == len(runs):
        return runs
    out: list[EvalRun] = []
    for group in groups.values():
        metric_names = [r.metric_name for r in group]
        if len(group) == 1 or None in metric_names or len(set(metric_names)) < len(group):
            out.extend(group)  # a true duplicate: refused with its place later
            continue
        primary = next(
            (r for want in preferred for r in group if r.metric_name == want), None
        )
        if primary is None:
            first = group[0]
            held = ", ".join(sorted(n for n in metric_names if n is not None))
            raise InputError(
                f"(model_id={first.model_id!r}, task_id={first.task_id!r}) has "
                f"several metrics for one evaluation: {held}",
                field="metric_name",
                fix="name the primary score with --metric (action input `metric`); "
                "the others become metrics a guardrail can gate",
            )
        extra = dict(primary.metrics)
        measures = {name: getattr(primary, name) for name in MEASURES}
        for r in group:
            if r is primary:
                continue
            extra[str(r.metric_name)] = r.score
            extra.update(r.metrics)
            for name in MEASURES:
                if measures[name] is None:
                    measures[name] = getattr(r, name)
        out.append(replace(primary, metrics=tuple(sorted(extra.items())), **measures))
    return out
