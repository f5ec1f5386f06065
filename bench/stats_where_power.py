"""'Where it moved' against an oracle (issue 28): power and false alarms of the rows.

A generator of its own (not the tests'): 14 tasks of 50 pass/fail items, each item's
probability of passing drawn from a difficulty distribution (``uniform``: U(0, 1);
``beta``: Beta(1.5, 1)); two runs of one model, each run its own draws; the candidate
loses ``DROP`` on every item of task 0 (its probability ``max(0, p - DROP)``), or
nothing (no change). Optionally the tasks fall in 3 categories (task ``t`` in ``c{t%3}``),
whose rows join the family.

On the same draws, per report:

- the report: the share of reports where task 0 is marked moved (drop) and where any
  row is (no change), from `build_report`'s breakdown;
- the method before issue 28's change, from the same replicates: every adjusted
  interval the t-scaled percentile interval at the family level (`intervals_at`), as
  `leaderboard.stats.where.breakdowns` did;
- the oracle: a two-sided z-test per task with the TRUE standard error (from the
  generator's probabilities), Šidák-adjusted over the 14 tasks.

``nice .venv/bin/python bench/stats_where_power.py SIMS RESAMPLES DIST [CATEGORIES]``
(DIST ``uniform`` or ``beta``; CATEGORIES 1 or 3, default 1).
"""

from __future__ import annotations

import math
import sys
from typing import Any

import numpy as np

import leaderboard.stats.where as where_module
from leaderboard import EvalRun, build_report
from leaderboard.stats.bootstrap import intervals_at
from leaderboard.stats.quantiles import norm_ppf

ALPHA = 0.05
TASKS, ITEMS, DROP = 14, 50, 0.3


def draws(
    rng: np.random.Generator, dist: str, drop: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Baseline and candidate pass/fail (tasks x items) and each task's true SE."""
    shape = (TASKS, ITEMS)
    p = rng.random(shape) if dist == "uniform" else rng.beta(1.5, 1.0, shape)
    q = p.copy()
    q[0] = np.maximum(0.0, p[0] - drop)
    base = rng.random(shape) < p
    cand = rng.random(shape) < q
    se = np.sqrt((p * (1 - p)).sum(axis=1) + (q * (1 - q)).sum(axis=1)) / ITEMS
    return base, cand, se


def runs_of(base: np.ndarray, cand: np.ndarray, categories: int) -> list[EvalRun]:
    out = []
    for t in range(TASKS):
        cat = f"c{t % categories}" if categories > 1 else "general"
        for i in range(ITEMS):
            for model, x in (("m", cand), ("base", base)):
                out.append(
                    EvalRun(model, f"t{t:02d}", float(x[t, i]), item_id=i, category=cat)
                )
    return out


class Spy:
    """Keeps what `breakdowns` hands `group_levels` (the rows' replicates) and the
    level it returns, to rebuild the earlier method's intervals from them."""

    def __init__(self) -> None:
        self.seen: dict[str, Any] = {}
        self.real = where_module.group_levels
        where_module.group_levels = self  # type: ignore[assignment]

    def __call__(self, *args: Any, **kw: Any) -> list[float]:
        out: list[float] = self.real(*args, **kw)
        est, reps, df = args[0], args[1], args[2]
        self.seen = {
            "est": est.copy(),
            "reps": reps.copy(),
            "df": np.array(df),
            "a": out[0],
        }
        return out

    def before(self) -> np.ndarray:
        """Moved, row by row, under the earlier rule (percentile at the family level)."""
        s = self.seen
        _, (flo, fhi) = intervals_at(
            s["est"],
            s["reps"],
            s["df"],
            [ALPHA, s["a"]],
            bounds=(-1.0, 1.0),
            overwrite=True,
        )
        moved: np.ndarray = (flo > 0) | (fhi < 0)
        return moved


def rate(x: np.ndarray) -> str:
    p = float(x.mean())
    return f"{p:.1%} ± {math.sqrt(p * (1 - p) / x.size):.1%}"


def paired(a: np.ndarray, b: np.ndarray) -> str:
    d = a.astype(float) - b.astype(float)
    return f"{d.mean():+.1%} ± {d.std(ddof=1) / math.sqrt(d.size):.1%}"


def cell(sims: int, resamples: int, dist: str, categories: int, drop: float) -> None:
    spy = Spy()
    crit = -norm_ppf((1.0 - (1.0 - ALPHA) ** (1.0 / TASKS)) / 2.0)
    rep, old, orc = np.zeros(sims, bool), np.zeros(sims, bool), np.zeros(sims, bool)
    for s in range(sims):
        rng = np.random.default_rng([2028, int(drop > 0), s])
        base, cand, se = draws(rng, dist, drop)
        report = build_report(
            runs_of(base, cand, categories), baseline="base", resamples=resamples, seed=s
        )
        rows = report.gate.comparisons[0].breakdown
        before = spy.before()
        order = [r.scope for r in rows]
        z = np.abs(cand.mean(axis=1) - base.mean(axis=1)) / se
        if drop:
            rep[s] = any(r.moved for r in rows if r.scope == "task:t00")
            # the spied rows are in plan order: categories first, then tasks t00...
            old[s] = bool(before[len(order) - TASKS])
            orc[s] = bool(z[0] > crit)
        else:
            rep[s] = any(r.moved for r in rows)
            old[s] = bool(before.any())
            orc[s] = bool((z > crit).any())
    what = "task 0 moved" if drop else "any row moved"
    print(
        f"| {dist} | {categories} | {resamples} | {sims} | {what} | report {rate(rep)} | "
        f"before {rate(old)} | oracle {rate(orc)} | report - oracle {paired(rep, orc)} | "
        f"report - before {paired(rep, old)} |",
        flush=True,
    )


def main() -> None:
    sims, resamples, dist = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    categories = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    if dist not in ("uniform", "beta"):
        raise SystemExit("DIST: uniform or beta")
    for drop in (DROP, 0.0):
        cell(sims, resamples, dist, categories, drop)


if __name__ == "__main__":
    main()
