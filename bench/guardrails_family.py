"""The gate's false-alarm rate with several guardrails: today's family vs full confidence.

A seeded simulation for docs/statistics.md ("How sure, with several guardrails"). One
model, paired items, every member of the gate exactly at its boundary:

- the score: pass/fail items, the candidate's true mean 0.02 below the baseline's,
  gated at ``margin`` 0.02;
- cost and latency: independent log-normal measures (log-sd 1 between items, 0.3
  between two runs of one item), true ratio of means 1.10, each guarded at +10%.

Each draw is judged twice, through `build_report` itself:

(a) today: ``guardrails=[cost:+10%, latency:+10%]``, the family of three sharing the
    gate's level (each interval at 1 - 0.05/3); a false alarm is ``gate.regressed``;
(b) full confidence each: no guardrail, so the score is gated at 95% and cost and
    latency are reported in ``gate.not_gated`` at 95%; a false alarm is the score
    regressing or either 95% ratio interval lying wholly above +10%.

The nominal rate of a false alarm of the gate is 2.5% (one side of 95%).

Run: ``nice python bench/guardrails_family.py [--reps 3000] [--items 200]``.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from leaderboard import EvalRun, build_report
from leaderboard.stats.guardrails import Guardrail

SIGMA, TAU, MARGIN, RATIO = 1.0, 0.3, 0.02, 1.10


def draw(n: int, seed: int) -> tuple[list[EvalRun], list[EvalRun]]:
    """(candidate run, baseline run) of one model, every member at its boundary."""
    rng = np.random.default_rng(seed)
    passed_b = rng.random(n) < 0.7
    # 0.8 * 0.7 + 0.2 * 0.6 = 0.68: the candidate's true mean is 0.02 lower
    passed_c = np.where(rng.random(n) < 0.8, passed_b, rng.random(n) < 0.6)
    measures = {}
    for name in ("cost", "latency"):
        x = rng.normal(0, SIGMA, n)
        base = np.exp(x + TAU * rng.normal(size=n))
        cand = np.exp(x + math.log(RATIO) + TAU * rng.normal(size=n))
        measures[name] = (cand, base)

    def run(passed: np.ndarray, side: int) -> list[EvalRun]:
        return [
            EvalRun(
                "m",
                "t",
                float(passed[i]),
                item_id=str(i),
                cost=float(measures["cost"][side][i]),
                latency=float(measures["latency"][side][i]),
            )
            for i in range(n)
        ]

    return run(passed_c, 0), run(passed_b, 1)


def one(n: int, seed: int, resamples: int) -> tuple[bool, bool, list[bool], list[bool]]:
    """(a) regressed, (b) regressed, and each member's alarm under (a) and (b)."""
    runs, base = draw(n, seed)
    common = {"baseline_runs": base, "resamples": resamples, "seed": seed}
    guards = [Guardrail("cost", RATIO - 1), Guardrail("latency", RATIO - 1)]
    family = build_report(runs, margin=MARGIN, guardrails=guards, **common).gate
    alone = build_report(runs, margin=MARGIN, **common).gate
    assert family.family_size == 3
    assert [c.measure for c in family.comparisons] == [
        "score",
        "cost",
        "latency",
    ]
    assert [c.measure for c in alone.not_gated] == ["cost", "latency"]
    assert {c.confidence for c in [*alone.comparisons, *alone.not_gated]} == {0.95}
    a = [c.regressed for c in family.comparisons]  # score, cost, latency
    b = [alone.comparisons[0].regressed]
    b += [c.ci_lo > RATIO - 1 for c in alone.not_gated]  # cost, latency at 95%
    return family.regressed, any(b), a, b


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=3000)
    parser.add_argument("--items", type=int, default=200)
    parser.add_argument("--resamples", type=int, default=1000)
    args = parser.parse_args()
    start = time.perf_counter()
    got = [one(args.items, s, args.resamples) for s in range(args.reps)]
    reps = len(got)

    def rate(hits: list[bool]) -> str:
        p = float(np.mean(hits))
        return f"{p:.4f} ± {math.sqrt(p * (1 - p) / reps):.4f}"

    print(f"{args.items} paired items, {reps} draws, {args.resamples} resamples each")
    print(f"(a) today's family (each at 1 - 0.05/3): gate {rate([g[0] for g in got])}")
    print(f"(b) full confidence each (95%):          gate {rate([g[1] for g in got])}")
    for k, name in enumerate(("score", "cost", "latency")):
        print(
            f"    {name:8s} (a) {rate([g[2][k] for g in got])}"
            f"   (b) {rate([g[3][k] for g in got])}"
        )
    print(f"{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
