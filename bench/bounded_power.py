"""What the betting interval costs on task-level records (issue 28): power, measured.

Two models, one score per task; each task's difference is a true drop plus normal
noise (sd 0.05), at 5, 10, 20 and 40 tasks and drops of 0.05, 0.10 and 0.30 (and no
drop at 40 tasks).
Per cell, over SIMS simulations: the share of reports that regress through the
pipeline as shipped (`build_report`, 999 resamples a report; the betting interval
below `T_TRUSTED_UNITS` tasks or at strong skew), with the t-scaled bootstrap alone
(today's method before issue 28: the rule switched off), and the paired t-test's
one-sided rejections at 2.5% on the same draws (scipy, no code shared with the
package); and the share green as shipped and with the bootstrap alone.
Also the shipped rule's false regressions at 40 tasks for the skewed shapes of
bench/ruled_out_tasks.py (where the t-interval may be chosen by the skew rule).
``nice -n 10 .venv/bin/python bench/bounded_power.py [SIMS]`` (default 1,000).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable

import numpy as np
from ruled_out import share  # bench/ruled_out.py, beside this file
from scipy import stats

from leaderboard import EvalRun, build_report
from leaderboard.stats import bounded

TASKS = (5, 10, 20, 40)
DROPS = (0.05, 0.10, 0.30)
NO_CHANGE_AT = 40  # no change is measured at 2-20 tasks by bench/ruled_out_tasks.py


def _runs(base: np.ndarray, cand: np.ndarray) -> list[EvalRun]:
    n = base.size
    return [EvalRun("base", f"t{t}", float(base[t])) for t in range(n)] + [
        EvalRun("cand", f"t{t}", float(cand[t])) for t in range(n)
    ]


def _status(runs: list[EvalRun], seed: int, shipped: bool) -> str:
    saved = bounded.T_TRUSTED_UNITS, bounded.EDGEWORTH_TOLERANCE
    if not shipped:
        bounded.T_TRUSTED_UNITS, bounded.EDGEWORTH_TOLERANCE = 0, math.inf
    try:
        return build_report(runs, baseline="base", resamples=999, seed=seed).gate.status
    finally:
        bounded.T_TRUSTED_UNITS, bounded.EDGEWORTH_TOLERANCE = saved


def _t_rejects(d: np.ndarray) -> bool:
    n = d.size
    sd = float(d.std(ddof=1))
    return sd > 0 and d.mean() + stats.t.ppf(0.975, n - 1) * sd / math.sqrt(n) < 0


def power_cell(n: int, drop: float, sims: int) -> dict[str, int]:
    out = dict.fromkeys(("ship_reg", "boot_reg", "t_reg", "ship_green", "boot_green"), 0)
    for s in range(sims):
        r = np.random.default_rng([2840, n, s, round(drop * 100)])
        base = r.uniform(0.4, 0.7, n)
        cand = np.clip(base - drop + r.normal(0.0, 0.05, n), 0.0, 1.0)
        runs = _runs(base, cand)
        ship, boot = _status(runs, s, True), _status(runs, s, False)
        out["ship_reg"] += ship == "regressed"
        out["boot_reg"] += boot == "regressed"
        out["ship_green"] += ship == "no_regression"
        out["boot_green"] += boot == "no_regression"
        out["t_reg"] += _t_rejects(cand - base)
    return out


SKEWED: dict[str, Callable[[np.random.Generator, int], np.ndarray]] = {
    "centred Gamma(0.5)": lambda r, n: r.gamma(0.5, 0.1, n) - 0.05,
    "centred 0.25 Beta(0.5, 4)": lambda r, n: 0.25 * (r.beta(0.5, 4.0, n) - 0.5 / 4.5),
}


def skew_cell(shape: str, n: int, sims: int) -> tuple[int, int]:
    reg = t_reg = 0
    for s in range(sims):
        r = np.random.default_rng([2841, n, s, len(shape)])
        base = r.uniform(0.3, 0.6, n)
        cand = np.clip(base + SKEWED[shape](r, n), 0.0, 1.0)
        reg += _status(_runs(base, cand), s, True) == "regressed"
        t_reg += _t_rejects(cand - base)
    return reg, t_reg


def main(sims: int) -> None:
    print(f"task-level power, normal differences (sd 0.05), {sims:,} simulations a cell\n")
    print(
        "| tasks | true drop | regressed: shipped | regressed: bootstrap alone | "
        "paired t-test | green: shipped | green: bootstrap alone |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for n in TASKS:
        for drop in ((0.0,) if n == NO_CHANGE_AT else ()) + DROPS:
            o = power_cell(n, drop, sims)
            print(
                f"| {n} | {drop:.2f} | {share(o['ship_reg'], sims)} | "
                f"{share(o['boot_reg'], sims)} | {share(o['t_reg'], sims)} | "
                f"{share(o['ship_green'], sims)} | {share(o['boot_green'], sims)} |",
                flush=True,
            )
    print(f"\nno change, skewed, 40 tasks, shipped rule, {sims:,} simulations a cell\n")
    print("| differences | tasks | regressed: shipped | paired t-test |")
    print("|---|---:|---:|---:|")
    for shape in SKEWED:
        reg, t_reg = skew_cell(shape, 40, sims)
        print(f"| {shape} | 40 | {share(reg, sims)} | {share(t_reg, sims)} |", flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
