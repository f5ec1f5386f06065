"""A skew-aware alternative measured beside the gate (issue 23, item 6): bootstrap-t.

The studentized bootstrap over tasks (Efron & Tibshirani 1993, ch. 12; Hall 1992) of
the mean per-task difference, two-sided 95%, against the report's gate on the same
draws: false alarms under the shapes of bench/skew.py, and power at a true drop of one
standard deviation of the differences (normal shape). Not adopted; see
docs/statistics.md. ``.venv/bin/python bench/skew_boot_t.py [SIMS]``.
"""

from __future__ import annotations

import sys

import numpy as np

from leaderboard import EvalRun, build_report

SD = 0.05
SHAPES = {
    "normal": lambda r, n: r.normal(0.0, SD, n),
    "right-skewed": lambda r, n: r.exponential(SD, n) - SD,
}


def boot_t_regressed(d: np.ndarray, rng: np.random.Generator, b: int = 999) -> bool:
    n = d.size
    idx = rng.integers(0, n, (b, n))
    x = d[idx]
    m, s = x.mean(axis=1), x.std(axis=1, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (m - d.mean()) / (s / np.sqrt(n))
    t = np.nan_to_num(t, nan=0.0, posinf=1e9, neginf=-1e9)  # s* = 0: no spread drawn
    hi = d.mean() - np.quantile(t, 0.025) * d.std(ddof=1) / np.sqrt(n)
    return bool(hi < 0)


def cell(shape: str, n: int, sims: int, shift: float) -> tuple[float, float]:
    gate = boot = 0
    for s in range(sims):
        r = np.random.default_rng([43, n, s, len(shape)])
        base = r.uniform(0.4, 0.6, n)
        diffs = SHAPES[shape](r, n) + shift
        cand = np.clip(base + diffs, 0.0, 1.0)
        runs = [EvalRun("base", f"t{t}", float(base[t])) for t in range(n)] + [
            EvalRun("cand", f"t{t}", float(cand[t])) for t in range(n)
        ]
        gate += build_report(runs, baseline="base", resamples=999, seed=s).gate.regressed
        boot += boot_t_regressed(cand - base, r)
    return gate / sims, boot / sims


def main() -> None:
    sims = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    print(f"| differences | tasks | gate | bootstrap-t |  ({sims} sims each)")
    for shape, shift in (("right-skewed", 0.0), ("normal", 0.0), ("normal", -SD)):
        for n in (3, 5, 10, 20):
            g, bt = cell(shape, n, sims, shift)
            what = "power at -1 SD" if shift else "false alarms"
            print(f"| {shape}, {what} | {n} | {g:.2%} | {bt:.2%} |", flush=True)


if __name__ == "__main__":
    main()
