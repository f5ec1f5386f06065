"""Green means a drop is ruled out: no-change pull requests, measured (issue 28).

Two runs of one model on the same N binary items, each item's pass probability from a
Beta(0.8, 0.6) (hard and easy items), each run its own draws: nothing changed. Per cell
(N = 50, 200, 1,000, 5,000), over SIMS simulations, the share of reports that are
green (``no_regression``: the interval rules out a drop of max-drop 0.05), cannot tell
and regressed, through the whole pipeline (`leaderboard.build_report` with
``baseline_runs``, 1,000 resamples a report to keep the run short), with Monte Carlo
standard errors.

Beside it, an independent check on the same draws that shares no code with the
package: the paired t-interval of the item differences at 95% (Student's t from
scipy) and the same three-state rule (regressed when the upper end is below 0, green
when the lower end is at or above -0.05). The two should agree within noise.

``nice -n 10 .venv/bin/python bench/ruled_out.py [SIMS]`` (default 1,000 a cell;
about 25 minutes on two shared cores).
"""

from __future__ import annotations

import math
import sys

import numpy as np
from scipy import stats

from leaderboard import EvalRun, build_report

MAX_DROP = 0.05
CELLS = (50, 200, 1000, 5000)


def _runs(scores: np.ndarray) -> list[EvalRun]:
    return [
        EvalRun(model_id="m", task_id="t", item_id=i, score=float(s))
        for i, s in enumerate(scores)
    ]


def independent_state(a: np.ndarray, b: np.ndarray) -> str:
    """The paired t-interval's state: no code shared with the package."""
    d = a - b
    n = len(d)
    sd = float(d.std(ddof=1))
    half = float(stats.t.ppf(0.975, n - 1)) * sd / math.sqrt(n)
    lo, hi = d.mean() - half, d.mean() + half
    if hi < 0:
        return "regressed"
    if lo >= -MAX_DROP:
        return "no_regression"
    return "undetermined"


def cell(n: int, sims: int, seed: int) -> tuple[dict[str, int], dict[str, int], float]:
    rng = np.random.default_rng(seed)
    ours = {"no_regression": 0, "undetermined": 0, "regressed": 0}
    ref = dict(ours)
    needed: list[int] = []
    for s in range(sims):
        p = rng.beta(0.8, 0.6, n)
        a = (rng.random(n) < p).astype(float)
        b = (rng.random(n) < p).astype(float)
        r = build_report(_runs(a), baseline_runs=_runs(b), resamples=1000, seed=s)
        ours[r.gate.status] += 1
        ref[independent_state(a, b)] += 1
        if r.verdict.units_needed is not None:
            needed.append(r.verdict.units_needed)
    return ours, ref, float(np.median(needed)) if needed else float("nan")


def share(k: int, sims: int) -> str:
    """``12.3% ± 1.0``: a share of `sims` simulations with its Monte Carlo SE."""
    p = k / sims
    return f"{100 * p:.1f}% ± {100 * math.sqrt(p * (1 - p) / sims):.1f}"


def main(sims: int) -> None:
    print(f"no-change pull requests, binary items, {sims:,} simulations a cell\n")
    print(
        "| items | green | cannot tell | regressed | paired t: green / cannot tell / "
        "regressed | median items needed (cannot tell) |"
    )
    print("|---:|---:|---:|---:|---:|---:|")
    for i, n in enumerate(CELLS):
        ours, ref, med = cell(n, sims, seed=1000 * (i + 1))
        r = " / ".join(
            share(ref[k], sims) for k in ("no_regression", "undetermined", "regressed")
        )
        print(
            f"| {n:,} | {share(ours['no_regression'], sims)} | "
            f"{share(ours['undetermined'], sims)} | {share(ours['regressed'], sims)} | "
            f"{r} | {med:,.0f} |",
            flush=True,
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
