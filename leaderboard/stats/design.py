"""From records to the resampling design: models, strata, units and their arrays.

Task-level data (no ``item_id``): one stratum whose units are the tasks; a unit's
numerator is ``weight * score`` and its denominator ``weight``. Item-level data: one
stratum per task whose units are its items, or its clusters when ``cluster`` is given;
repeated ``sample``s of an item are averaged first. A model's missing data are zeros in
numerator and denominator. Everything is sorted (models, tasks, units) so that the
arrays depend on the set of records only, never on their order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from operator import attrgetter
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from leaderboard.errors import InputError
from leaderboard.inputs import EvalRun

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]
BoolArray = npt.NDArray[np.bool_]
Key = tuple[int, int | str]


def _key(value: int | str) -> Key:
    """Sort key for ids that may be integers or strings."""
    return (0, value) if isinstance(value, int) else (1, value)


_FIELDS = (
    "model_id",
    "task_id",
    "item_id",
    "sample",
    "weight",
    "category",
    "cluster",
    "score",
)


class _Columns(NamedTuple):
    """The records' fields as columns (tuples), in record order."""

    model: tuple[str, ...]
    task: tuple[str, ...]
    item: tuple[int | str | None, ...]
    sample: tuple[int | None, ...]
    weight: tuple[float, ...]
    category: tuple[str, ...]
    cluster: tuple[int | str | None, ...]
    score: tuple[float, ...]


def _describe(i: int, run: EvalRun) -> str:
    item = "" if run.item_id is None else f", item_id={run.item_id!r}"
    return f"(model_id={run.model_id!r}, task_id={run.task_id!r}{item})"


@dataclass(frozen=True)
class Design:
    """The canonical arrays behind every estimate.

    Items are the smallest observations: (task, item) pairs for item-level data, tasks
    for task-level data. ``scores[i, m]`` is model m's score on item i (its samples
    averaged), valid where ``present[i, m]``. Items map to units (``item_unit``), units
    to strata (``unit_stratum``); units are sorted by stratum, which ``starts`` slices.
    """

    models: list[str]
    tasks: list[str]
    task_category: list[str]
    task_weight: FloatArray
    unit_kind: str  # "task", "item" or "cluster"
    scores: FloatArray  # (I, M)
    present: BoolArray  # (I, M)
    item_weight: FloatArray  # (I,) task weight for task-level data, 1 for items
    item_task: IntArray  # (I,)
    item_unit: IntArray  # (I,)
    unit_stratum: IntArray  # (N,)
    starts: IntArray  # (H + 1,)
    stratum_weight: FloatArray  # (H,)
    records: int
    n_items: int
    n_clusters: int
    samples_max: int
    # cluster ids found in more than one task: clusters are nested within tasks, so
    # each task's part of such a cluster is resampled on its own (a warning says so)
    spanning_clusters: list[str] = field(default_factory=list)
    # repeated samples (epochs): samples per (item, model) and the variance of each
    # item mean from its samples, s^2 / k (NaN with one sample); None without epochs
    sample_count: IntArray | None = None
    mean_var: FloatArray | None = None
    # (task, item_id) of each item row (item_id None for task-level data)
    item_keys: list[tuple[str, int | str | None]] = field(default_factory=list)
    # every record's score is 0 or 1 (before samples are averaged)
    binary_records: bool = False

    @property
    def item_level(self) -> bool:
        return self.unit_kind != "task"

    @property
    def categories(self) -> list[str]:
        return sorted(set(self.task_category))

    @property
    def item_category(self) -> npt.NDArray[np.object_]:
        """Each item's category, (I,) (an item's category is its task's)."""
        return np.array(self.task_category, dtype=object)[self.item_task]

    def column(
        self, model: int, mask: BoolArray | None = None
    ) -> tuple[FloatArray, FloatArray]:
        """Unit numerators and denominators of ``model`` on the items in ``mask``."""
        use = self.present[:, model] if mask is None else self.present[:, model] & mask
        w = np.where(use, self.item_weight, 0.0)
        n_units = self.unit_stratum.shape[0]
        num = np.bincount(
            self.item_unit, weights=w * self.scores[:, model], minlength=n_units
        )
        den = np.bincount(self.item_unit, weights=w, minlength=n_units)
        return num.astype(np.float64), den.astype(np.float64)

    def task_scores(self) -> FloatArray:
        """(T, M) task scores, NaN where a model has no item of the task."""
        n_tasks, n_models = len(self.tasks), len(self.models)
        num = np.zeros((n_tasks, n_models))
        den = np.zeros((n_tasks, n_models))
        w = self.present.astype(np.float64)
        np.add.at(num, self.item_task, w * self.scores)
        np.add.at(den, self.item_task, w)
        with np.errstate(invalid="ignore", divide="ignore"):
            out: FloatArray = np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)
        return out


def _same(kind: str, task: str, first: object, run: EvalRun, *, i: int, field: str) -> None:
    raise InputError(
        f"{kind} {task!r} has {field} {first!r} in one record and "
        f"{getattr(run, field)!r} in {_describe(i, run)}",
        record=i + 1,
        field=field,
        fix=f"give every record of a {kind} the same {field}",
    )


def build_design(runs: Sequence[EvalRun]) -> Design:
    """Validate ``runs`` and lay them out as canonical arrays.

    The checks run as set operations; only when one fails does a record-by-record
    pass (`_diagnose`) find the first offending record for the message.

    Raises
    ------
    InputError
        No records; two records for one (model, task[, item[, sample]]); item-level and
        task-level records mixed; a task whose records disagree on ``weight`` or
        ``category``; an item whose records disagree on ``cluster``.
    """
    if len(runs) == 0:
        raise InputError("no records", fix="give at least one record")
    item_level = runs[0].item_id is not None
    cols = _Columns(*(tuple(map(attrgetter(f), runs)) for f in _FIELDS))
    n = len(runs)
    tasks = set(cols.task)
    items = set(zip(cols.task, cols.item, strict=True))
    one_cat = set(cols.category)
    if len(one_cat) == 1:  # the common case: one category, every task in it
        cat_pairs = {(t, next(iter(one_cat))) for t in tasks}
    else:
        cat_pairs = set(zip(cols.task, cols.category, strict=True))
    n_none = cols.item.count(None)
    ok = n_none in {0, n} and len(cat_pairs) == len(tasks)
    cats = dict(cat_pairs)
    if cols.weight.count(1.0) == n:  # the common case: no weights given
        weights = dict.fromkeys(tasks, 1.0)
    else:
        weight_pairs = set(zip(cols.task, cols.weight, strict=True))
        ok = ok and len(weight_pairs) == len(tasks)
        weights = dict(weight_pairs)
    if cols.sample.count(None) != n:  # repeated samples (else duplicates show in _layout)
        mti = set(zip(cols.model, cols.task, cols.item, strict=True))
        no_sample = [x is None for x in cols.sample]
        ok = (
            ok
            and len(set(zip(cols.model, cols.task, cols.item, cols.sample, strict=True)))
            == n
            and len(set(zip(cols.model, cols.task, cols.item, no_sample, strict=True)))
            == len(mti)
        )
    if cols.cluster.count(None) == n:
        item_cluster: dict[tuple[str, int | str], int | str | None] = {
            (t, i): None for t, i in items if i is not None
        }
    else:
        clusters = set(zip(cols.task, cols.item, cols.cluster, strict=True))
        ok = ok and len(clusters) == len(items)
        item_cluster = {(t, i): c for t, i, c in clusters if i is not None}
    if not ok:
        _diagnose(runs)
    design = _layout(
        runs,
        cols,
        item_level=item_level,
        task_weight=weights,
        task_cat=cats,
        item_cluster=item_cluster,
    )
    cluster_tasks: dict[int | str, set[str]] = {}
    for (t, _), c in item_cluster.items():
        if c is not None:
            cluster_tasks.setdefault(c, set()).add(t)
    spanning = sorted((c for c, ts in cluster_tasks.items() if len(ts) > 1), key=_key)
    if spanning:
        return replace(design, spanning_clusters=[str(c) for c in spanning])
    return design


def _diagnose(runs: Sequence[EvalRun]) -> None:
    """Raise the `InputError` for the first record that breaks a check."""
    item_level = runs[0].item_id is not None
    task_weight: dict[str, float] = {}
    task_cat: dict[str, str] = {}
    item_cluster: dict[tuple[str, int | str], int | str | None] = {}
    seen: set[tuple[str, str, object, object]] = set()
    no_sample: dict[tuple[str, str, object], bool] = {}
    for i, run in enumerate(runs):
        if (run.item_id is not None) != item_level:
            raise InputError(
                f"{_describe(i, run)} is "
                f"{'item' if run.item_id is not None else 'task'}-level but record 1 "
                f"{_describe(0, runs[0])} is not",
                record=i + 1,
                field="item_id",
                fix="give every record an item_id, or none (one record per model and task)",
            )
        key = (run.model_id, run.task_id, run.item_id, run.sample)
        if key in seen:
            what = "(model, task, item, sample)" if item_level else "(model, task)"
            raise InputError(
                f"a second record for the same {what} {_describe(i, run)}",
                record=i + 1,
                field="item_id" if item_level else "task_id",
                fix="remove the duplicate, number repeated samples with `sample`, or "
                "give a second run of the same model as `baseline_runs`",
            )
        seen.add(key)
        ikey = (run.model_id, run.task_id, run.item_id)
        has = run.sample is None
        if no_sample.setdefault(ikey, has) != has:
            raise InputError(
                f"{_describe(i, run)} mixes records with and without `sample`",
                record=i + 1,
                field="sample",
                fix="number every sample of a repeated item",
            )
        w = task_weight.setdefault(run.task_id, run.weight)
        if w != run.weight:
            _same("task", run.task_id, w, run, i=i, field="weight")
        c = task_cat.setdefault(run.task_id, run.category)
        if c != run.category:
            _same("task", run.task_id, c, run, i=i, field="category")
        if run.item_id is not None:
            ck = (run.task_id, run.item_id)
            cl = item_cluster.setdefault(ck, run.cluster)
            if cl != run.cluster:
                raise InputError(
                    f"item {run.item_id!r} of task {run.task_id!r} has cluster {cl!r} in "
                    f"one record and {run.cluster!r} in {_describe(i, run)}",
                    record=i + 1,
                    field="cluster",
                    fix="give every record of an item the same cluster",
                )
    raise AssertionError("a check failed but no record breaks it")  # pragma: no cover


def _mean_var(
    flat: IntArray, vals: FloatArray, count: IntArray, total: FloatArray, mean: FloatArray
) -> FloatArray | None:
    """The variance of each item mean from its samples, ``s^2 / k`` (NaN at ``k = 1``);
    None without repeated samples (epochs)."""
    if count.max() <= 1:
        return None
    sq = np.bincount(flat, weights=vals * vals, minlength=count.size).reshape(count.shape)
    dev = np.maximum(sq - total * mean, 0.0)
    out: FloatArray = np.divide(
        dev, count * (count - 1.0), out=np.full(count.shape, np.nan), where=count > 1
    )
    return out


def _codes(values: set[int | str]) -> dict[int | str, int]:
    """Each id's rank in the `_key` order (integers first, then strings)."""
    ints = sorted(v for v in values if isinstance(v, int))
    strs = sorted(v for v in values if isinstance(v, str))
    ordered: list[int | str] = [*ints, *strs]
    return {v: j for j, v in enumerate(ordered)}


class _Items(NamedTuple):
    """Items sorted by (task, item id), and the resampling units they belong to."""

    keys: list[tuple[str, int | str | None]]  # (task, item id), sorted
    task: IntArray  # each item's task
    unit: IntArray  # each item's unit
    unit_stratum: IntArray  # each unit's stratum (its task)
    n_clusters: int
    code: dict[int | str, int]  # item id -> its rank among the ids
    sorted_code: npt.NDArray[np.int64]  # each item's task * width + code, ascending
    width: int

    def rows(self, task: IntArray, item: Sequence[int | str | None]) -> IntArray:
        """The item of each record (item-level: no id is None): its row in the layout."""
        look = self.code.__getitem__
        code = np.fromiter((look(i) for i in item if i is not None), np.int64, len(item))
        found: IntArray = np.searchsorted(self.sorted_code, task * self.width + code)
        return found


def _item_units(
    t_index: dict[str, int],
    item_cluster: dict[tuple[str, int | str], int | str | None],
    *,
    clustered: bool,
) -> _Items:
    """Items sorted by (task, item id), and the resampling units they belong to.

    A unit is an item, or its cluster when it has one (clusters first, then lone items,
    each in the `_key` order of its id, within each task). The orders are those of
    sorting the keys as tuples, computed on integer codes (ranks of the ids).
    """
    keys: list[tuple[str, int | str]] = list(item_cluster)
    n = len(keys)
    task = np.fromiter((t_index[t] for t, _ in keys), np.intp, n)
    item_code = _codes({it for _, it in keys})
    icode = np.fromiter((item_code[it] for _, it in keys), np.intp, n)
    order = np.lexsort((icode, task))
    sorted_keys = [keys[j] for j in order.tolist()]
    ikeys: list[tuple[str, int | str | None]] = list(sorted_keys)
    item_task = task[order]
    w_items = len(item_code) + 1
    sorted_code = item_task.astype(np.int64) * w_items + icode[order]
    if not clustered:  # every item its own unit, in the items' order
        unit = np.arange(n, dtype=np.intp)
        return _Items(
            ikeys, item_task, unit, item_task.copy(), 0, item_code, sorted_code, w_items
        )
    cl = [item_cluster[k] for k in sorted_keys]
    cluster_code = _codes({c for c in cl if c is not None})
    lone = np.fromiter((c is None for c in cl), np.bool_, n)
    code = np.where(
        lone,
        icode[order],
        np.fromiter((-1 if c is None else cluster_code[c] for c in cl), np.intp, n),
    )
    width = max(len(item_code), len(cluster_code)) + 1
    # (task, lone, code) as one integer: clusters (lone 0) sort before lone items
    composite = (item_task.astype(np.int64) * 2 + lone) * width + code
    uniq, item_unit = np.unique(composite, return_inverse=True)
    unit_stratum = (uniq // (2 * width)).astype(np.intp)
    n_clusters = int(((uniq // width) % 2 == 0).sum())
    return _Items(
        ikeys,
        item_task,
        item_unit.reshape(-1).astype(np.intp),
        unit_stratum,
        n_clusters,
        item_code,
        sorted_code,
        w_items,
    )


def _layout(
    runs: Sequence[EvalRun],
    cols: _Columns,
    *,
    item_level: bool,
    task_weight: dict[str, float],
    task_cat: dict[str, str],
    item_cluster: dict[tuple[str, int | str], int | str | None],
) -> Design:
    models = sorted(set(cols.model))
    tasks = sorted(task_weight)
    m_index = {m: j for j, m in enumerate(models)}
    t_index = {t: j for j, t in enumerate(tasks)}
    tw = np.array([task_weight[t] for t in tasks])
    # Only ratios of weights matter. Scale them by a power of two (exact: ordinary
    # weights give bit-identical numbers) so that the largest is below 1 and sums of
    # huge weights (up to 1.8e308 each) cannot overflow; a weight that underflows
    # relative to the largest keeps the smallest normal value, so its task stays present.
    tw = np.maximum(np.ldexp(tw, -int(np.frexp(tw.max())[1])), np.finfo(np.float64).tiny)
    clustered = item_level and any(c is not None for c in item_cluster.values())
    if item_level:
        laid = _item_units(t_index, item_cluster, clustered=clustered)
        ikeys, item_task, item_unit = laid.keys, laid.task, laid.unit
        unit_stratum, n_clusters = laid.unit_stratum, laid.n_clusters
        n_strata = len(tasks)
        item_weight = np.ones(len(ikeys))
        stratum_weight = tw
    else:
        ikeys = [(t, None) for t in tasks]
        item_task = np.arange(len(tasks), dtype=np.intp)
        item_unit = item_task.copy()
        unit_stratum = np.zeros(len(tasks), dtype=np.intp)
        n_strata = 1
        item_weight = tw
        stratum_weight = np.ones(1)
        n_clusters = 0
    shape = (len(ikeys), len(models))
    n = len(cols.model)
    if item_level:  # integer codes: no dictionary of a million (task, item) tuples
        rec_task = np.fromiter(map(t_index.__getitem__, cols.task), np.int64, n)
        rows = laid.rows(rec_task, cols.item)
    else:
        rows = np.fromiter(map(t_index.__getitem__, cols.task), np.intp, n)
    mcols = np.fromiter(map(m_index.__getitem__, cols.model), np.intp, n)
    vals = np.fromiter(cols.score, np.float64, n)
    flat = rows * shape[1] + mcols
    count = np.bincount(flat, minlength=shape[0] * shape[1]).reshape(shape)
    if cols.sample.count(None) == n and count.max() > 1:
        _diagnose(runs)  # a duplicate (model, task, item)
    if count.max() > 1:
        # Repeated samples: floating-point sums depend on the order of their terms, so
        # each cell's samples are summed in a canonical (sorted) order, not record order.
        canon = np.lexsort((vals, flat))
        flat, vals = flat[canon], vals[canon]
    total = np.bincount(flat, weights=vals, minlength=shape[0] * shape[1]).reshape(shape)
    present = count > 0
    scores = np.divide(total, count, out=np.zeros(shape), where=present)
    samples_max = max(1, int(count.max()))
    starts = np.searchsorted(unit_stratum, np.arange(n_strata + 1)).astype(np.intp)
    return Design(
        models=models,
        tasks=tasks,
        task_category=[task_cat[t] for t in tasks],
        task_weight=tw,
        unit_kind="cluster" if clustered else ("item" if item_level else "task"),
        scores=scores,
        present=present,
        item_weight=item_weight,
        item_task=item_task,
        item_unit=item_unit,
        unit_stratum=unit_stratum,
        starts=starts,
        stratum_weight=stratum_weight,
        sample_count=count if count.max() > 1 else None,
        mean_var=_mean_var(flat, vals, count, total.astype(np.float64), scores),
        records=n,
        n_items=len(ikeys) if item_level else 0,
        n_clusters=n_clusters,
        samples_max=samples_max,
        item_keys=list(ikeys),
        binary_records=bool(np.isin(vals, (0.0, 1.0)).all()),
    )


def measure_design(d: Design, runs: Sequence[EvalRun], values: Sequence[float]) -> Design:
    """`d` with another value in place of each record's score: a measure's design.

    `runs` are the records `d` was built from and `values` one number per record
    (NaN: the record lacks the measure). The items, units, strata and weights stay
    those of `d`, so the engine resamples exactly the same units with the same seed;
    ``scores[i, m]`` is the mean of the model's values on item ``i`` over the samples
    that carry one, ``present`` where any does.
    """
    cols = _Columns(*(tuple(map(attrgetter(f), runs)) for f in _FIELDS))
    task_weight = dict(zip(cols.task, cols.weight, strict=True))
    task_cat = dict(zip(cols.task, cols.category, strict=True))
    item_cluster: dict[tuple[str, int | str], int | str | None] = {
        (t, i): c
        for t, i, c in zip(cols.task, cols.item, cols.cluster, strict=True)
        if i is not None
    }
    vals = np.asarray(values, dtype=np.float64)
    has = ~np.isnan(vals)

    def laid(column: FloatArray) -> Design:
        return _layout(
            runs,
            cols._replace(score=tuple(column.tolist())),
            item_level=d.item_level,
            task_weight=task_weight,
            task_cat=task_cat,
            item_cluster=item_cluster,
        )

    total = laid(np.where(has, vals, 0.0))
    share = laid(has.astype(np.float64))
    present = d.present & (share.scores > 0)
    scores = np.divide(
        total.scores, share.scores, out=np.zeros_like(total.scores), where=present
    )
    return replace(d, scores=scores, present=present)
