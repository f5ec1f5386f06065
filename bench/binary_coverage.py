"""Per-model intervals of binary means (issue 28): coverage and upper ends, measured.

One model, N binary items (N = 20, 50, 100, 200, 500), each passing with probability
p (0.5, 0.9, 0.97), one task, the items its units. Per cell, over SIMS simulations:
the share of the model's 95% intervals that hold p, and the share that reach 1
though some item failed, through the pipeline as shipped (`build_report`, 999
resamples a report: Clopper-Pearson for binary means) and as before issue 28 (the
t-scaled percentile bootstrap with Wilson's floor, `leaderboard.stats.floors.wilson_floor`
put back in its place); beside them, the exact Clopper-Pearson interval from scipy's
beta quantiles on the same draws (no code shared with the package).
``nice -n 10 .venv/bin/python bench/binary_coverage.py [SIMS]`` (default 1,000).
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
from ruled_out import share  # bench/ruled_out.py, beside this file
from scipy import stats

from leaderboard import EvalRun, build_report
from leaderboard.stats import build
from leaderboard.stats.floors import exact_binary, wilson_floor

ITEMS = (20, 50, 100, 200, 500)
RATES = (0.5, 0.9, 0.97)


def _before(lo: Any, hi: Any, **kw: Any) -> Any:
    """The pre-issue-28 interval: Wilson's floor under every binary or flat mean."""
    kw.pop("independent_items", None)
    applies = kw.pop("binary") | kw.pop("flat")
    return wilson_floor(lo, hi, applies=applies, **kw)


def _interval(runs: list[EvalRun], seed: int, shipped: bool) -> tuple[float, float]:
    build.exact_binary = exact_binary if shipped else _before  # type: ignore[assignment]
    try:
        row = build_report(runs, resamples=999, seed=seed).leaderboard[0]
    finally:
        build.exact_binary = exact_binary  # type: ignore[assignment]
    assert row.mean_ci_lo is not None
    assert row.mean_ci_hi is not None
    return row.mean_ci_lo, row.mean_ci_hi


def cell(n: int, p: float, sims: int) -> dict[str, int]:
    out = dict.fromkeys(("ship", "before", "scipy", "ship_1", "before_1", "scipy_1"), 0)
    for s in range(sims):
        x = np.random.default_rng([2842, n, s, round(p * 100)]).random(n) < p
        runs = [EvalRun("m", "t", float(v), item_id=i) for i, v in enumerate(x)]
        k = int(x.sum())
        lo_c = 0.0 if k == 0 else float(stats.beta.ppf(0.025, k, n - k + 1))
        hi_c = 1.0 if k == n else float(stats.beta.ppf(0.975, k + 1, n - k))
        for name, (lo, hi) in (
            ("ship", _interval(runs, s, True)),
            ("before", _interval(runs, s, False)),
            ("scipy", (lo_c, hi_c)),
        ):
            out[name] += lo <= p <= hi
            out[name + "_1"] += k < n and hi >= 1.0
    return out


def main(sims: int) -> None:
    print(f"binary items, one model, 95% intervals, {sims:,} simulations a cell\n")
    print(
        "| items | p | coverage: shipped | coverage: before | Clopper-Pearson (scipy) | "
        "reaches 1 though an item failed: shipped / before |"
    )
    print("|---:|---:|---:|---:|---:|---:|")
    for n in ITEMS:
        for p in RATES:
            o = cell(n, p, sims)
            print(
                f"| {n} | {p} | {share(o['ship'], sims)} | {share(o['before'], sims)} | "
                f"{share(o['scipy'], sims)} | {share(o['ship_1'], sims)} / "
                f"{share(o['before_1'], sims)} |",
                flush=True,
            )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
