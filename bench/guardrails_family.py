"""The whole gate's false regressions with the score and 1, 2 or 4 guardrails.

A seeded simulation for docs/statistics.md ("One level for each statement"). One
model, paired items, every member of the gate exactly at its boundary:

- the score: pass/fail items, the candidate's true mean 0.02 below the baseline's,
  gated at ``margin`` 0.02;
- cost, latency, tokens: independent log-normal measures (log-sd 1 between items,
  0.3 between two runs of one item), true ratio of means 1.10, each guarded at +10%;
- the fourth guardrail, a secondary pass/fail metric ``second``, true drop 0.02,
  guarded at -0.02.

Each draw is judged through `build_report` itself with the first 1, 2 and 4 of those
guardrails (the same draw each time). A false regression of the gate is
``gate.regressed``; its bound is ``gate.bound``: ``(1 - confidence) / 2`` for the score
block plus as much for the guardrail block, 0.05 at 95%. The score block alone is
held at 0.025 whatever the guardrails (the score's own verdict is asserted identical
across the three reports of a draw).

Run: ``nice python bench/guardrails_family.py [--reps 2000] [--items 30 300]
[--resamples 1000]``.
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
GUARDS = [
    Guardrail("cost", RATIO - 1),
    Guardrail("latency", RATIO - 1),
    Guardrail("tokens", RATIO - 1),
    Guardrail("second", MARGIN),
]
SIZES = (1, 2, 4)


def _pass_fail(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """(candidate, baseline) pass/fail items, the candidate's true mean 0.02 lower."""
    passed_b = rng.random(n) < 0.7
    # 0.8 * 0.7 + 0.2 * 0.6 = 0.68
    passed_c = np.where(rng.random(n) < 0.8, passed_b, rng.random(n) < 0.6)
    return passed_c, passed_b


def draw(n: int, seed: int) -> tuple[list[EvalRun], list[EvalRun]]:
    """(candidate run, baseline run) of one model, every member at its boundary."""
    rng = np.random.default_rng(seed)
    score = _pass_fail(rng, n)
    second = _pass_fail(rng, n)
    measures = {}
    for name in ("cost", "latency", "tokens"):
        x = rng.normal(0, SIGMA, n)
        base = np.exp(x + TAU * rng.normal(size=n))
        cand = np.exp(x + math.log(RATIO) + TAU * rng.normal(size=n))
        measures[name] = (cand, base)

    def run(side: int) -> list[EvalRun]:
        return [
            EvalRun(
                "m",
                "t",
                float(score[side][i]),
                item_id=str(i),
                cost=float(measures["cost"][side][i]),
                latency=float(measures["latency"][side][i]),
                tokens=float(measures["tokens"][side][i]),
                metrics=(("second", float(second[side][i])),),
            )
            for i in range(n)
        ]

    return run(0), run(1)


def one(n: int, seed: int, resamples: int) -> dict[int, tuple[bool, bool, bool, float]]:
    """For 1, 2, 4 guardrails: (gate, score, guardrail block regressed, gate.bound)."""
    runs, base = draw(n, seed)
    common = {"baseline_runs": base, "resamples": resamples, "seed": seed}
    out = {}
    score = None
    for k in SIZES:
        gate = build_report(runs, margin=MARGIN, guardrails=GUARDS[:k], **common).gate
        assert gate.guardrail_family_size == k
        assert [c.measure for c in gate.comparisons] == [
            "score",
            *(g.name for g in GUARDS[:k]),
        ]
        first = gate.comparisons[0]
        assert score is None or first == score  # guardrails never move the score
        score = first
        guards = any(c.regressed for c in gate.comparisons[1:])
        out[k] = (gate.regressed, first.regressed, guards, gate.bound)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=2000)
    parser.add_argument("--items", type=int, nargs="+", default=[30, 300])
    parser.add_argument("--resamples", type=int, default=1000)
    args = parser.parse_args()
    start = time.perf_counter()
    print(
        f"{args.reps} draws a cell, {args.resamples} resamples each; every member at "
        "its boundary; confidence 0.95"
    )
    print(
        "| items | guardrails | score block (bound 0.025) | guardrail block (bound "
        "0.025) | whole gate | gate.bound |"
    )
    print("|---|---|---|---|---|---|")
    for n in args.items:
        got = [one(n, s, args.resamples) for s in range(args.reps)]
        for k in SIZES:
            gate = [g[k][0] for g in got]
            score = [g[k][1] for g in got]
            guards = [g[k][2] for g in got]
            (bound,) = {g[k][3] for g in got}

            def rate(hits: list[bool]) -> str:
                p = float(np.mean(hits))
                return f"{p:.4f} ± {math.sqrt(p * (1 - p) / len(hits)):.4f}"

            print(
                f"| {n} | {k} | {rate(score)} | {rate(guards)} | {rate(gate)} "
                f"| {bound:.3f} |"
            )
        sys.stdout.flush()
    print(f"{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
