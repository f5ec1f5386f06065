"""Skewed task-level differences: the gate's false alarms at 3-20 tasks (issue 23).

Two models of equal true mean with task-level records; per-task differences of mean 0
drawn from a normal, a right-skewed (centred exponential: a few tasks gain much, most
lose a little) and a left-skewed shape, at 3, 5, 10 and 20 tasks. Prints, per cell, the
share of reports whose gate regressed (nominal 2.5%) and the share that carried the
skew caveat. Slow: ``.venv/bin/python bench/skew.py [SIMS]`` (default 2,000 per cell).
"""

from __future__ import annotations

import sys

import numpy as np

from leaderboard import EvalRun, build_report

SHAPES = {
    "normal": lambda r, n: r.normal(0.0, 0.05, n),
    "right-skewed": lambda r, n: r.exponential(0.05, n) - 0.05,
    "left-skewed": lambda r, n: 0.05 - r.exponential(0.05, n),
}


def cell(shape: str, n: int, sims: int) -> tuple[float, float]:
    fired = warned = 0
    for s in range(sims):
        r = np.random.default_rng([41, n, s, len(shape)])
        base = r.uniform(0.4, 0.6, n)
        cand = np.clip(base + SHAPES[shape](r, n), 0.0, 1.0)
        runs = [EvalRun("base", f"t{t}", float(base[t])) for t in range(n)] + [
            EvalRun("cand", f"t{t}", float(cand[t])) for t in range(n)
        ]
        c = build_report(runs, baseline="base", resamples=999, seed=s).gate.comparisons[0]
        fired += c.regressed
        warned += c.skew_caveat is not None
    return fired / sims, warned / sims


def main() -> None:
    sims = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    print(f"| differences | tasks | false alarms | caveat shown |  ({sims} sims each)")
    for shape in SHAPES:
        for n in (3, 5, 10, 20):
            fa, warn = cell(shape, n, sims)
            se = (fa * (1 - fa) / sims) ** 0.5
            print(f"| {shape} | {n} | {fa:.2%} ± {se:.2%} | {warn:.0%} |", flush=True)


if __name__ == "__main__":
    main()
