"""Task-level records with few tasks, under the three states (issue 28): measured.

Two models of equal true mean, one score per task (lm-eval aggregates, HELM
summaries); per-task differences of mean 0 from a centred Gamma(0.5) (scale 0.1:
right-skewed, a few tasks gain much, most lose a little), a centred 0.25 * Beta(0.5, 4)
(right-skewed, bounded) and a normal (sd 0.05), at 2, 3, 5, 10 and 20 tasks. Per cell,
over SIMS simulations: the share of reports green, cannot tell and regressed through
the pipeline (`build_report`, 999 resamples a report), and beside it the paired
t-test's one-sided false regressions at 2.5% on the same draws (scipy, no code shared
with the package). ``nice -n 10 .venv/bin/python bench/ruled_out_tasks.py [SIMS]``
(default 1,000 a cell).
"""

from __future__ import annotations

import math
import sys

import numpy as np
from ruled_out import share as _share  # bench/ruled_out.py, beside this file
from scipy import stats

from leaderboard import EvalRun, build_report

SHAPES = {
    "centred Gamma(0.5)": lambda r, n: r.gamma(0.5, 0.1, n) - 0.05,
    "centred 0.25 Beta(0.5, 4)": lambda r, n: 0.25 * (r.beta(0.5, 4.0, n) - 0.5 / 4.5),
    "normal": lambda r, n: r.normal(0.0, 0.05, n),
}
TASKS = (2, 3, 5, 10, 20)


def cell(shape: str, n: int, sims: int) -> tuple[dict[str, int], int]:
    out = {"no_regression": 0, "undetermined": 0, "regressed": 0}
    t_fired = 0
    for s in range(sims):
        r = np.random.default_rng([28, n, s, len(shape)])
        base = r.uniform(0.3, 0.6, n)
        cand = np.clip(base + SHAPES[shape](r, n), 0.0, 1.0)
        runs = [EvalRun("base", f"t{t}", float(base[t])) for t in range(n)] + [
            EvalRun("cand", f"t{t}", float(cand[t])) for t in range(n)
        ]
        gate = build_report(runs, baseline="base", resamples=999, seed=s).gate
        out[gate.status] += 1
        d = cand - base
        sd = float(d.std(ddof=1))
        if sd > 0:
            hi = d.mean() + stats.t.ppf(0.975, n - 1) * sd / math.sqrt(n)
            t_fired += bool(hi < 0)
    return out, t_fired


def main(sims: int) -> None:
    print(f"task-level, no change, {sims:,} simulations a cell\n")
    print(
        "| differences | tasks | green | cannot tell | regressed | "
        "paired t-test regressed |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for shape in SHAPES:
        for n in TASKS:
            out, t_fired = cell(shape, n, sims)
            print(
                f"| {shape} | {n} | {_share(out['no_regression'], sims)} | "
                f"{_share(out['undetermined'], sims)} | {_share(out['regressed'], sims)} | "
                f"{_share(t_fired, sims)} |",
                flush=True,
            )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
