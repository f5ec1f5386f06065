"""Few discordant items: what the floor under a paired pass/fail difference changes.

Two runs of one model on N pass/fail items that disagree on few of them (a model run
at temperature 0, a small change): each item falls in one of four cells, passed by
both (40%), by the baseline only (``base_only``), by the candidate only
(``cand_only``), or by neither. Through the whole pipeline (`leaderboard.build_report`
against a baseline model, 999 resamples a report) with and without the floor of
`leaderboard.stats.paired` (replaced by a no-op in this process), per cell the share
of reports that are green (no regression: a drop of 0.05 ruled out), cannot tell and
regressed, with Monte Carlo standard errors. Cells:

- a true drop of 0.06 (6% baseline-only, none candidate-only): every green is a false
  pass, to be held at the one-sided 2.5%;
- no change with 1% flips each way: green is right, and how often it is reached is
  the price of the floor.

``nice -n 10 .venv/bin/python bench/paired_floor.py [SIMS]`` (default 1,000 a cell).
"""

from __future__ import annotations

import math
import sys

import numpy as np

import leaderboard.stats.gate as gate_module
from leaderboard import EvalRun, build_report

CELLS = (
    ("true drop 0.06", 0.06, 0.0),
    ("no change, 1% flips each way", 0.01, 0.01),
)
SIZES = (40, 100, 400)


def _runs(
    rng: np.random.Generator, n: int, base_only: float, cand_only: float
) -> list[EvalRun]:
    u = rng.random(n)
    both = 0.4
    base = u < both + base_only
    cand = (u < both) | ((u >= both + base_only) & (u < both + base_only + cand_only))
    out = []
    for i in range(n):
        out.append(EvalRun("cand", "t", float(cand[i]), item_id=i))
        out.append(EvalRun("base", "t", float(base[i]), item_id=i))
    return out


def _cell(n: int, base_only: float, cand_only: float, sims: int) -> list[float]:
    counts = {"no_regression": 0, "undetermined": 0, "regressed": 0}
    for s in range(sims):
        runs = _runs(np.random.default_rng([41, n, s]), n, base_only, cand_only)
        (c,) = build_report(runs, baseline="base", resamples=999, seed=s).gate.comparisons
        counts[c.status] += 1
    return [counts[k] / sims for k in ("no_regression", "undetermined", "regressed")]


def main() -> None:
    sims = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    floor = gate_module.paired_binary_floor
    print(f"{sims} simulations a cell; shares green / cannot tell / regressed (± 1 SE)")
    for name, base_only, cand_only in CELLS:
        for n in SIZES:
            row = []
            for label, fn in (("floor", floor), ("no floor", lambda *a, **k: False)):
                gate_module.paired_binary_floor = fn
                shares = _cell(n, base_only, cand_only, sims)
                se = math.sqrt(max(shares[0] * (1 - shares[0]), 1e-12) / sims)
                green, unsure, red = shares
                row.append(f"{label}: {green:.1%} ± {se:.1%} / {unsure:.1%} / {red:.1%}")
            gate_module.paired_binary_floor = floor
            print(f"{name:30s} n={n:4d}  " + "  |  ".join(row), flush=True)


if __name__ == "__main__":
    main()
