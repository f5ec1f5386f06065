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
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from leaderboard.errors import InputError
from leaderboard.records import EvalRun

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]
BoolArray = npt.NDArray[np.bool_]
Key = tuple[int, int | str]


def _key(value: int | str) -> Key:
    """Sort key for ids that may be integers or strings."""
    return (0, value) if isinstance(value, int) else (1, value)


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

    @property
    def item_level(self) -> bool:
        return self.unit_kind != "task"

    @property
    def categories(self) -> list[str]:
        return sorted(set(self.task_category))

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
    task_weight: dict[str, float] = {}
    task_cat: dict[str, str] = {}
    item_cluster: dict[tuple[str, int | str], int | str | None] = {}
    seen: set[tuple[str, str, object, object]] = set()
    no_sample: dict[tuple[str, str, object], bool] = {}
    acc: dict[tuple[str, str, int | str | None], list[float]] = {}
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
                fix="remove the duplicate, or number repeated samples with `sample`",
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
        if item_level:
            assert run.item_id is not None
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
        a = acc.setdefault(ikey, [0.0, 0.0])
        a[0] += run.score
        a[1] += 1.0
    return _layout(
        runs,
        item_level=item_level,
        task_weight=task_weight,
        task_cat=task_cat,
        item_cluster=item_cluster,
        acc=acc,
    )


def _layout(
    runs: Sequence[EvalRun],
    *,
    item_level: bool,
    task_weight: dict[str, float],
    task_cat: dict[str, str],
    item_cluster: dict[tuple[str, int | str], int | str | None],
    acc: dict[tuple[str, str, int | str | None], list[float]],
) -> Design:
    models = sorted({r.model_id for r in runs})
    tasks = sorted(task_weight)
    m_index = {m: j for j, m in enumerate(models)}
    t_index = {t: j for j, t in enumerate(tasks)}
    tw = np.array([task_weight[t] for t in tasks])
    clustered = item_level and any(c is not None for c in item_cluster.values())
    if item_level:
        items = sorted(item_cluster, key=lambda k: (t_index[k[0]], _key(k[1])))
        ikeys: list[tuple[str, int | str | None]] = list(items)
        item_task = np.array([t_index[t] for t, _ in items], dtype=np.intp)
        unit_keys: list[tuple[int, tuple[int, Key]]] = []
        for t, it in items:
            cl = item_cluster[(t, it)]
            ukey = (1, _key(it)) if cl is None else (0, _key(cl))
            unit_keys.append((t_index[t], ukey))
        uniq = sorted(set(unit_keys))
        u_index = {u: j for j, u in enumerate(uniq)}
        item_unit = np.array([u_index[u] for u in unit_keys], dtype=np.intp)
        unit_stratum = np.array([u[0] for u in uniq], dtype=np.intp)
        n_strata = len(tasks)
        item_weight = np.ones(len(items))
        stratum_weight = tw
        n_clusters = len({u for u in uniq if u[1][0] == 0}) if clustered else 0
    else:
        ikeys = [(t, None) for t in tasks]
        item_task = np.arange(len(tasks), dtype=np.intp)
        item_unit = item_task.copy()
        unit_stratum = np.zeros(len(tasks), dtype=np.intp)
        n_strata = 1
        item_weight = tw
        stratum_weight = np.ones(1)
        n_clusters = 0
    i_index = {k: j for j, k in enumerate(ikeys)}
    scores = np.zeros((len(ikeys), len(models)))
    present = np.zeros((len(ikeys), len(models)), dtype=bool)
    samples_max = 1
    for (m, t, iid), (total, count) in acc.items():
        row = i_index[(t, iid)]
        scores[row, m_index[m]] = total / count
        present[row, m_index[m]] = True
        samples_max = max(samples_max, int(count))
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
        records=len(runs),
        n_items=len(ikeys) if item_level else 0,
        n_clusters=n_clusters,
        samples_max=samples_max,
    )
