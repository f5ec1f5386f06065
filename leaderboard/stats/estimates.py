"""Which estimates the report needs, laid out as columns for the bootstrap engine.

An estimate is a model's weighted mean over the tasks it completed, optionally
restricted to one category and/or to the items it shares with a partner model (for
paired comparisons: "compare only shared units"). `EstimatePlan` registers them,
dedupes identical ones (a complete pair needs no restricted copy), runs the engine once
and hands back every estimate's replicates.
"""

from __future__ import annotations

import numpy as np

from leaderboard.errors import InputError, UsageError
from leaderboard.inputs import EvalRun
from leaderboard.stats.bootstrap import (
    BLOCK,
    COUNT_BYTES,
    Replicates,
    stratified_replicates,
)
from leaderboard.stats.design import BoolArray, Design, FloatArray

EstimateKey = tuple[int, int | None, str | None, int | None]
#: Memory the bootstrap may hold (data columns and replicate store together), and
#: the data columns alone (checked as they are made, so at most this is allocated
#: before a refusal).
MAX_BOOTSTRAP_BYTES = 2**30
MAX_COLUMN_BYTES = 256 * 2**20
MIN_RESAMPLES_HINT = 100


class EstimatePlan:
    """Register estimates, then `run` the engine once for all of them."""

    def __init__(self, design: Design) -> None:
        self.design = design
        self._col_index: dict[tuple[int, int | None, str | None], int] = {}
        self._nums: list[FloatArray] = []
        self._dens: list[FloatArray] = []
        self._out_index: dict[tuple[int, bytes], int] = {}
        self._out_col: list[int] = []
        self._out_weight: list[FloatArray] = []
        self._by_key: dict[EstimateKey, int] = {}
        self._by_weights: dict[tuple[int, str | None, int | None], int] = {}
        self._complete: BoolArray = np.asarray(design.present.all(axis=0))
        self._den_sums: dict[int, FloatArray] = {}
        self._units_with_data: dict[int, FloatArray] = {}
        self.result: Replicates | None = None
        d = design
        self._item_category = d.item_category
        self._n_units = d.unit_stratum.shape[0]

    def _mask(
        self, model: int, partner: int | None, category: str | None
    ) -> BoolArray | None:
        d = self.design
        mask: BoolArray | None = None
        if partner is not None:
            mask = d.present[:, partner]
        if category is not None and not d.item_level:
            in_cat: BoolArray = self._item_category == category
            mask = in_cat if mask is None else mask & in_cat
        return mask

    def _column(self, model: int, partner: int | None, category: str | None) -> int:
        d = self.design
        if partner is not None and (
            self._complete[partner]
            or not (d.present[:, model] & ~d.present[:, partner]).any()
        ):
            partner = None  # the partner has every item this model has: no restriction
        if d.item_level or len(d.categories) == 1:
            category = None  # item-level: categories select strata, not units
        key = (model, partner, category)
        if key not in self._col_index:
            self._check_room(columns=len(self._nums) + 1)
            num, den = d.column(model, self._mask(model, partner, category))
            self._col_index[key] = len(self._nums)
            self._nums.append(num)
            self._dens.append(den)
        return self._col_index[key]

    def add(
        self,
        model: int,
        partner: int | None = None,
        category: str | None = None,
        task: int | None = None,
    ) -> int:
        """Register an estimate; returns its index into the result's columns.

        ``task`` (item-level data only) restricts the estimate to one task's stratum.
        """
        if partner is not None and self._complete[partner]:
            partner = None  # no restriction (`_column`): the same estimate as without
        key = (model, partner, category, task)
        if key in self._by_key:
            return self._by_key[key]
        d = self.design
        if task is not None and not d.item_level:
            raise ValueError("a per-task estimate needs item-level data")
        col = self._column(model, partner, category)
        wkey = (col, category if d.item_level else None, task)
        if wkey in self._by_weights:
            self._by_key[key] = self._by_weights[wkey]
            return self._by_key[key]
        w = np.where(self._stratum_den(col) > 0, d.stratum_weight, 0.0)
        if d.item_level and category is not None:
            w = np.where(np.array(d.task_category) == category, w, 0.0)
        if task is not None:
            w = np.where(np.arange(w.shape[0]) == task, w, 0.0)
        total = w.sum()
        w = w / total if total > 0 else w
        okey = (col, w.tobytes())
        if okey not in self._out_index:
            self._out_index[okey] = len(self._out_col)
            self._out_col.append(col)
            self._out_weight.append(w)
        self._by_key[key] = self._by_weights[wkey] = self._out_index[okey]
        return self._by_key[key]

    def _stratum_den(self, col: int) -> FloatArray:
        """(H,) each stratum's sum of column `col`'s denominators (computed once)."""
        if col not in self._den_sums:
            d = self.design
            sums = np.bincount(
                d.unit_stratum, weights=self._dens[col], minlength=d.starts.shape[0] - 1
            )
            self._den_sums[col] = sums.astype(np.float64)
        return self._den_sums[col]

    def units(self, index: int) -> int:
        """Units with data behind estimate ``index``."""
        col = self._out_col[index]
        if col not in self._units_with_data:  # (H,) per stratum, counted once
            d = self.design
            held = np.bincount(
                d.unit_stratum, weights=self._dens[col] > 0, minlength=d.starts.shape[0] - 1
            )
            self._units_with_data[col] = held.astype(np.float64)
        return int(self._units_with_data[col][self._out_weight[index] > 0].sum())

    def arrays(self, index: int) -> tuple[FloatArray, FloatArray, FloatArray]:
        """Unit numerators, denominators and stratum weights behind estimate ``index``."""
        col = self._out_col[index]
        return self._nums[col], self._dens[col], self._out_weight[index]

    def _check_room(self, *, columns: int, resamples: int = 0) -> None:
        """Refuse, before allocating, what would exceed `MAX_BOOTSTRAP_BYTES`.

        The engine holds each column's numerators and denominators (units x columns
        x 2 x 8 bytes), the replicate store (estimates x resamples x 8 bytes), the
        stratum weights (strata x estimates x 8), one block's sums (`BLOCK` x
        estimates x 8, twice) and the resample counts being drawn (at most
        `COUNT_BYTES`, whatever a stratum's size). Models missing different items
        each need their own column per partner, so data and store grow with the
        square of the models.
        """
        data = columns * self._n_units * 16
        estimates = len(self._out_col)
        strata = self.design.starts.shape[0] - 1
        engine = COUNT_BYTES + estimates * (strata + 2 * BLOCK) * 8 if resamples else 0
        held = data + engine + estimates * resamples * 8
        if held <= MAX_BOOTSTRAP_BYTES and data <= MAX_COLUMN_BYTES:
            return
        models = len(self.design.models)
        if resamples and data <= MAX_COLUMN_BYTES:
            fits = (MAX_BOOTSTRAP_BYTES - data - engine) // max(1, estimates * 8)
            hint = (
                f"lower resamples to {fits:,} or fewer (at least {MIN_RESAMPLES_HINT}), "
                "or compare fewer models or categories in one report"
            )
        else:
            hint = (
                "compare fewer models in one report, or give every model the same "
                "items (each model missing different items needs its own copy of "
                "the data per partner)"
            )
        raise UsageError(
            f"the bootstrap would need {held / 2**30:.1f} GiB for {models:,} models, "
            f"{columns:,} data columns of {self._n_units:,} units and "
            f"{len(self._out_col):,} estimates x {resamples:,} resamples, over the "
            f"limit of {MAX_BOOTSTRAP_BYTES // 2**30} GiB "
            f"({MAX_COLUMN_BYTES // 2**20} MiB of data columns): {hint}"
        )

    def run(self, *, resamples: int, seed: int) -> Replicates:
        """Draw the shared replicates for every registered estimate."""
        d = self.design
        self._check_room(columns=len(self._nums), resamples=resamples)
        self.result = stratified_replicates(
            np.stack(self._nums, axis=1),
            np.stack(self._dens, axis=1),
            d.starts,
            np.array(self._out_col, dtype=np.intp),
            np.stack(self._out_weight, axis=1),
            resamples=resamples,
            seed=seed,
            # item-level strata are tasks; lone ones collapse within their category
            category=d.task_category if d.item_level else None,
            power=1.0 if d.item_level else 2.0,  # clusters of items; weighted tasks
        )
        return self.result


#: Most models and categories one report compares (the comment shows every pair).
MAX_MODELS = 500
MAX_CATEGORIES = 200


def check_sizes(runs: list[EvalRun], *, runs_joined: int = 1) -> None:
    """Refuse more models or categories than a report can show, before any work.

    `runs_joined` is 2 for a two-run report (each run already checked on its own):
    `MAX_MODELS` counts the models of one run, so 260 models in each run pass.
    """
    models = {run.model_id for run in runs}
    if len(models) > MAX_MODELS * runs_joined:
        raise InputError(
            f"the records name {len(models):,} models; one report compares at most "
            f"{MAX_MODELS} (it shows every pair)",
            field="model_id",
            fix="split the models into several reports (each its own comment), or "
            "check that model_id does not hold a per-record value",
        )
    categories = {run.category for run in runs}
    if len(categories) > MAX_CATEGORIES:
        raise InputError(
            f"the records name {len(categories):,} categories; one report shows at "
            f"most {MAX_CATEGORIES}",
            field="category",
            fix="group tasks into fewer categories, or check that category does not "
            "hold a per-task or per-item value",
        )
