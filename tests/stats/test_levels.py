"""One level for each statement (CONTRACT.md section 12): guardrails never weaken the
score; the whole gate states its bound on false regressions."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import numpy as np
import pytest

from leaderboard import EvalRun, build_report
from leaderboard.inputs import load_runs_noting
from leaderboard.report import GateComparison
from leaderboard.stats.guardrails import Guardrail
from leaderboard.stats.noise import mcnemar_p

ROOT = Path(__file__).resolve().parents[2]
METERED = ROOT / "tests" / "fixtures" / "promptfoo" / "guardrails-0.121.20"
GUARDS = [Guardrail("cost", 0.10), Guardrail("latency", 0.20), Guardrail("tokens", 0.10)]


def _derived_baseline(runs: list[EvalRun]) -> list[EvalRun]:
    """A baseline run made from the candidate's own records: two items' outcomes
    turned over and every measure rescaled by seeded noise, so that the score's
    interval is not degenerate."""
    rng = np.random.default_rng(27)
    out = []
    for i, r in enumerate(sorted(runs, key=lambda r: str(r.item_id))):
        noise = math.exp(float(rng.normal(-0.1, 0.3)))
        out.append(
            dataclasses.replace(
                r,
                score=1.0 - r.score if i in {1, 4} else r.score,
                cost=None if r.cost is None else r.cost * noise,
                latency=None if r.latency is None else r.latency * noise,
                tokens=None if r.tokens is None else round(r.tokens * noise),
            )
        )
    return out


def _score_view(comps: list[GateComparison]) -> list[tuple[object, ...]]:
    return [
        (c.candidate, c.baseline, c.scope, c.ci_lo, c.ci_hi, c.status, c.confidence)
        for c in comps
        if c.measure == "score"
    ]


@pytest.mark.parametrize("baseline", ["recorded", "derived"])
def test_guardrails__change_no_score_interval_or_verdict_on_a_metered_promptfoo_run(
    baseline: str,
) -> None:
    cand, _ = load_runs_noting(METERED / "candidate.json")
    assert all(r.cost and r.latency and r.tokens for r in cand)  # all three measured
    if baseline == "recorded":
        base, _ = load_runs_noting(METERED / "baseline.json")
    else:
        base = _derived_baseline(cand)
    plain = build_report(cand, baseline_runs=base, resamples=2000, seed=5).gate
    guarded = build_report(
        cand, baseline_runs=base, resamples=2000, seed=5, guardrails=GUARDS
    ).gate
    scores = _score_view(plain.comparisons)
    assert scores  # a score comparison to compare
    assert _score_view(guarded.comparisons) == scores
    assert [c for c in guarded.comparisons if c.measure == "score"] == [
        c for c in plain.comparisons if c.measure == "score"
    ]
    assert guarded.family_size == plain.family_size
    assert guarded.adjustment == plain.adjustment
    assert guarded.guardrail_family_size == len(GUARDS)
    # the second budget: Bonferroni over the three guardrail comparisons
    levels = [c.confidence for c in guarded.comparisons if c.measure != "score"]
    assert levels == pytest.approx([1 - 0.05 / 3] * 3)
    assert plain.bound == pytest.approx(0.025)
    assert guarded.bound == pytest.approx(0.05)
    if baseline == "derived":
        [score] = [c for c in plain.comparisons if c.measure == "score"]
        assert score.ci_lo < score.ci_hi  # a real interval, not a point


def test_gate_bound__zero_when_nothing_is_gated_and_per_block_otherwise() -> None:
    runs = [
        EvalRun(m, f"t{t}", s, item_id=str(i))
        for m, shift in (("a", 0.0), ("b", 0.1))
        for t in range(3)
        for i, s in enumerate(np.clip(np.linspace(0.2, 0.8, 8) + shift, 0, 1).tolist())
    ]
    assert build_report(runs, resamples=200).gate.bound == 0.0
    gated = build_report(runs, baseline="a", resamples=200, confidence=0.9).gate
    assert gated.bound == pytest.approx(0.05)


def _flip_runs(
    model: str, flips: tuple[int, int], items: int = 60, shift: int = 0
) -> list[EvalRun]:
    """`items` pass/fail items of one task; against `base` (passes the first half),
    `flips` = (pass -> fail, fail -> pass), on items `shift` onwards in each half."""
    down, up = flips
    half = items // 2
    scores = [0.0 if shift <= i < shift + down else 1.0 for i in range(half)]
    scores += [1.0 if shift <= i < shift + up else 0.0 for i in range(items - half)]
    return [EvalRun(model, "t", s, item_id=str(i)) for i, s in enumerate(scores)]


def test_flips__tested_at_the_comparisons_own_level_not_the_reports() -> None:
    # 12 -> 3: McNemar p = 0.035, below 0.05 but above each comparison's adjusted alpha
    base = _flip_runs("base", (0, 0))
    runs = base + _flip_runs("c1", (12, 3)) + _flip_runs("c2", (12, 3), shift=15)
    gate = build_report(runs, baseline="base", resamples=2000).gate
    assert gate.family_size == 2
    for c in gate.comparisons:
        assert c.flips is not None
        assert (c.flips.pass_to_fail, c.flips.fail_to_pass) == (12, 3)
        alpha_each = 1.0 - c.confidence
        assert alpha_each < mcnemar_p(12, 3) < 0.05
        assert c.flips.beyond_noise is False  # at the report's 95% it would be True
        assert c.flips.noise_each_way == 8  # half of the 15 flips, halves up
    alone = build_report(base + _flip_runs("c1", (12, 3)), baseline="base", resamples=2000)
    [c] = alone.gate.comparisons
    assert c.confidence == pytest.approx(0.95)
    assert c.flips is not None
    assert c.flips.beyond_noise is True  # one comparison: its level is 95%


def _boundary_pair(n: int, seed: int) -> tuple[list[EvalRun], list[EvalRun]]:
    """bench/guardrails_family.py's draw, written here: the score 0.02 below the
    baseline (margin 0.02), cost and latency at a true ratio of 1.10 (+10%)."""
    rng = np.random.default_rng([27, 2, seed])
    passed_b = rng.random(n) < 0.7
    passed_c = np.where(rng.random(n) < 0.8, passed_b, rng.random(n) < 0.6)  # 0.68
    measures = []
    for _ in range(2):
        x = rng.normal(0, 1.0, n)
        base = np.exp(x + 0.3 * rng.normal(size=n))
        cand = np.exp(x + math.log(1.10) + 0.3 * rng.normal(size=n))
        measures.append((cand, base))

    def run(passed: np.ndarray, side: int) -> list[EvalRun]:
        return [
            EvalRun(
                "m",
                "t",
                float(passed[i]),
                item_id=str(i),
                cost=float(measures[0][side][i]),
                latency=float(measures[1][side][i]),
            )
            for i in range(n)
        ]

    return run(passed_c, 0), run(passed_b, 1)


def test_gate__false_regressions_at_every_boundary_within_gate_bound() -> None:
    """Seeded, small: the score and two guardrails all at their boundaries; the whole
    gate's false regressions stay within `gate.bound` plus three standard errors,
    the score's within its own block's half of it."""
    sims, gate_hits, score_hits = 400, 0, 0
    guards = [Guardrail("cost", 0.10), Guardrail("latency", 0.10)]
    bounds = set()
    for s in range(sims):
        runs, base = _boundary_pair(80, s)
        gate = build_report(
            runs, baseline_runs=base, margin=0.02, guardrails=guards, resamples=300, seed=s
        ).gate
        bounds.add(round(gate.bound, 12))
        gate_hits += gate.regressed
        score_hits += gate.comparisons[0].regressed
    assert bounds == {0.05}

    def limit(p: float) -> float:
        return p + 3 * math.sqrt(p * (1 - p) / sims)

    assert gate_hits / sims <= limit(0.05)
    assert score_hits / sims <= limit(0.025)
    assert gate_hits > 0  # at the boundary the gate does trip now and then
