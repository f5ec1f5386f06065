"""Guardrails: parsing, the paired ratio of means, the family, and a seeded calibration."""

from __future__ import annotations

import math

import numpy as np
import pytest

from leaderboard import EvalRun, build_report
from leaderboard.errors import InputError, UsageError
from leaderboard.inputs import merge_metrics
from leaderboard.stats.guardrails import Guardrail, parse_guardrail


def _pair(
    n: int,
    ratio: float,
    *,
    seed: int,
    sigma: float = 1.0,
    tau: float = 0.3,
    clusters: int = 0,
) -> tuple[list[EvalRun], list[EvalRun]]:
    """Two runs of model ``m``: log-normal costs, the candidate's ``ratio`` times."""
    rng = np.random.default_rng(seed)
    x = rng.normal(0, sigma, n)
    if clusters:
        x = 0.6 * x + np.repeat(rng.normal(0, 0.8 * sigma, clusters), n // clusters)
    base = np.exp(x + tau * rng.normal(size=n))
    cand = np.exp(x + math.log(ratio) + tau * rng.normal(size=n))
    score = (rng.random(n) < 0.7).astype(float)
    second = (rng.random(n) < 0.6).astype(float)

    def run(costs: np.ndarray) -> list[EvalRun]:
        return [
            EvalRun(
                "m",
                "t",
                float(score[i]),
                item_id=str(i),
                cluster=str(i // (n // clusters)) if clusters else None,
                cost=float(costs[i]),
                latency=float(costs[i]) * 3,
                metrics=(("second", float(second[i])),),
            )
            for i in range(n)
        ]

    return run(cand), run(base)


# ------------------------------------------------------------------------ parsing


@pytest.mark.parametrize(
    ("spec", "name", "tolerance"),
    [
        ("cost:+10%", "cost", 0.10),
        ("latency:25%", "latency", 0.25),
        (" tokens : +0.5% ", "tokens", 0.005),
        ("faithfulness:-0.02", "faithfulness", 0.02),
        ("exact_match,flexible-extract:0.05", "exact_match,flexible-extract", 0.05),
    ],
)
def test_parse_guardrail__reads_name_and_tolerance(
    spec: str, name: str, tolerance: float
) -> None:
    g = parse_guardrail(spec)
    assert g.name == name
    assert g.tolerance == pytest.approx(tolerance)
    assert g.relative == (name in {"cost", "latency", "tokens"})


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("cost", "expected NAME:TOLERANCE"),
        ("cost:", "expected NAME:TOLERANCE"),
        (":+10%", "expected NAME:TOLERANCE"),
        ("cost:0.1", "takes a relative increase such as +10%"),
        ("cost:-10%", "takes a relative increase such as +10%"),
        ("faithfulness:+10%", "takes an absolute drop such as -0.02"),
        ("faithfulness:-1.5", "the whole score range"),
    ],
)
def test_parse_guardrail__bad_spec_is_one_clear_usage_error(spec: str, says: str) -> None:
    with pytest.raises(UsageError, match=r"^guardrail: ") as info:
        parse_guardrail(spec)  # neutral: each shell passes its own option name
    assert says in str(info.value)
    with pytest.raises(UsageError, match=r"^--guardrail: ") as info:
        parse_guardrail(spec, "--guardrail")
    assert says in str(info.value)
    assert "\n" not in str(info.value)


# ---------------------------------------------------------------- the ratio interval


def test_ratio_interval__matches_the_delta_method_at_1000_items() -> None:
    runs, base = _pair(1000, 1.2, seed=5)
    report = build_report(runs, baseline_runs=base, resamples=4000, seed=1)
    [cost] = [c for c in report.gate.not_gated if c.measure == "cost"]
    c = np.array([r.cost for r in runs], dtype=float)
    b = np.array([r.cost for r in base], dtype=float)
    ratio = c.mean() / b.mean()
    assert cost.diff_mean == pytest.approx(ratio - 1.0, rel=1e-9)
    # delta method: log R = log mean c - log mean b, SE from the paired residuals
    resid = c / c.mean() - b / b.mean()
    se = resid.std(ddof=1) / math.sqrt(resid.size)
    half = (math.log1p(cost.ci_hi) - math.log1p(cost.ci_lo)) / 2
    assert half == pytest.approx(1.96 * se, rel=0.08)
    assert cost.relative
    assert cost.direction == "lower_is_better"
    assert cost.confidence == pytest.approx(0.95)
    assert not cost.regressed


def test_guardrail__regresses_only_when_the_whole_interval_is_over_tolerance() -> None:
    runs, base = _pair(200, 1.6, seed=2)
    g = [Guardrail("cost", 0.10)]
    report = build_report(runs, baseline_runs=base, resamples=2000, guardrails=g)
    [cost] = [c for c in report.gate.comparisons if c.measure == "cost"]
    assert cost.ci_lo > 0.10
    assert cost.regressed
    assert cost.status == "regressed"
    assert report.gate.regressed
    assert report.gate.status == "regressed"
    [score] = [c for c in report.gate.comparisons if c.measure == "score"]
    assert not score.regressed  # the gate fails on the guardrail alone
    loose = build_report(
        runs, baseline_runs=base, resamples=2000, guardrails=[Guardrail("cost", 2.0)]
    )
    [cost2] = [c for c in loose.gate.comparisons if c.measure == "cost"]
    assert cost2.ci_lo <= 2.0
    assert not cost2.regressed
    assert not loose.gate.regressed


def test_guardrails__a_second_budget_bonferroni_the_score_keeps_its_level() -> None:
    runs, base = _pair(100, 1.0, seed=3)
    plain = build_report(runs, baseline_runs=base, resamples=1000)
    assert plain.gate.family_size == 1
    assert plain.gate.guardrail_family_size == 0
    assert plain.gate.bound == pytest.approx(0.025)
    guarded = build_report(
        runs,
        baseline_runs=base,
        resamples=1000,
        guardrails=[Guardrail("cost", 0.1), Guardrail("second", 0.02)],
    )
    assert guarded.gate.family_size == 1  # the score's family, as without guardrails
    assert guarded.gate.guardrail_family_size == 2
    assert guarded.gate.adjustment == "none"
    assert guarded.gate.bound == pytest.approx(0.05)  # two blocks of 0.025
    levels = [c.confidence for c in guarded.gate.comparisons]
    assert levels == pytest.approx([0.95, 1 - 0.05 / 2, 1 - 0.05 / 2])
    assert guarded.gate.comparisons[0] == plain.gate.comparisons[0]
    assert [c.measure for c in guarded.gate.comparisons] == ["score", "cost", "second"]
    # latency is carried but not guarded: reported, never gated
    assert [c.measure for c in guarded.gate.not_gated] == ["latency"]
    assert guarded.settings.guardrails == {"cost": 0.1, "second": 0.02}
    row = guarded.leaderboard[0]
    assert set(row.measures) == {"cost", "latency"}
    assert set(row.metrics) == {"second"}


def test_unguarded_metric__its_means_equal_the_guarded_ones_without_resampling() -> None:
    """A secondary metric no guardrail names shows only its means (computed with no
    resample drawn): they are the record means, and the same as when it is guarded."""
    runs, base = _pair(60, 1.0, seed=5)
    plain = build_report(runs, baseline_runs=base, resamples=500)
    guarded = build_report(
        runs, baseline_runs=base, resamples=500, guardrails=[Guardrail("second", 0.02)]
    )
    want = float(np.mean([dict(r.metrics)["second"] for r in runs]))
    for report in (plain, guarded):
        [row] = [r for r in report.leaderboard if r.model_id == "m"]
        assert row.metrics["second"] == pytest.approx(want, abs=1e-12)
    assert [r.metrics for r in plain.leaderboard] == [
        r.metrics for r in guarded.leaderboard
    ]


def test_metric_guardrail__is_calibrated_like_the_primary_score() -> None:
    """A metric equal to the score gives the primary's interval exactly."""
    runs, base = _pair(80, 1.0, seed=4)

    def copy_score(rs: list[EvalRun]) -> list[EvalRun]:
        return [
            EvalRun(
                r.model_id,
                r.task_id,
                r.score,
                item_id=r.item_id,
                metrics=(("same", r.score),),
            )
            for r in rs
        ]

    report = build_report(
        copy_score(runs),
        baseline_runs=copy_score(base),
        resamples=2000,
        guardrails=[Guardrail("same", 0.0)],
    )
    score, same = report.gate.comparisons
    assert same.measure == "same"
    assert same.direction == "higher_is_better"
    assert (same.diff_mean, same.ci_lo, same.ci_hi) == pytest.approx(
        (score.diff_mean, score.ci_lo, score.ci_hi), abs=1e-12
    )


def test_guardrail__on_a_measure_no_record_carries_is_a_usage_error() -> None:
    runs, base = _pair(20, 1.0, seed=1)
    with pytest.raises(UsageError, match=r"^guardrail tokens: no record carries") as info:
        build_report(runs, baseline_runs=base, guardrails=[Guardrail("tokens", 0.1)])
    assert info.value.subject == "guardrail"  # a shell names its own option
    assert str(info.value.naming({"guardrail": "--guardrail"})).startswith(
        "--guardrail tokens: no record carries `tokens`"
    )
    with pytest.raises(UsageError, match=r"no record carries a metric 'nope'.*second"):
        build_report(runs, baseline_runs=base, guardrails=[Guardrail("nope", 0.1)])
    with pytest.raises(UsageError, match="guarded twice"):
        build_report(
            runs,
            baseline_runs=base,
            guardrails=[Guardrail("cost", 0.1), Guardrail("cost", 0.2)],
        )


def test_guardrail__a_zero_mean_is_undetermined_not_a_pass() -> None:
    runs = [EvalRun("m", "t", 1.0, item_id=str(i), cost=0.0) for i in range(10)]
    base = [EvalRun("m", "t", 1.0, item_id=str(i), cost=0.0) for i in range(10)]
    report = build_report(
        runs, baseline_runs=base, resamples=200, guardrails=[Guardrail("cost", 0.1)]
    )
    [cost] = [c for c in report.gate.comparisons if c.measure == "cost"]
    assert cost.status == "undetermined"
    assert "mean cost of 0" in (cost.note or "")
    assert report.gate.status == "undetermined"
    assert not report.gate.regressed


def test_guardrail__same_seed_same_numbers_and_record_order_free() -> None:
    runs, base = _pair(60, 1.3, seed=8)
    g = [Guardrail("cost", 0.1)]
    one = build_report(runs, baseline_runs=base, resamples=500, seed=4, guardrails=g)
    two = build_report(
        runs[::-1], baseline_runs=base[::-1], resamples=500, seed=4, guardrails=g
    )
    assert one.model_dump() == two.model_dump()


def test_calibration__ratio_coverage_and_false_alarms_at_the_boundary() -> None:
    """250 seeded pairs of 100 log-normal items at a true ratio of 1.10 (bench/ has
    the 1,000-run tables): the 95% interval covers, and is wholly above +10% rarely."""
    cover = alarm = 0
    reps = 250
    for s in range(reps):
        runs, base = _pair(100, 1.10, seed=1000 + s)
        report = build_report(runs, baseline_runs=base, resamples=500, seed=s)
        [cost] = [c for c in report.gate.not_gated if c.measure == "cost"]
        # the true ratio of means is 1.10: both runs have the same noise law
        cover += cost.ci_lo <= 0.10 <= cost.ci_hi
        alarm += cost.ci_lo > 0.10
    assert cover / reps >= 0.92
    assert alarm / reps <= 0.045


# --------------------------------------------------------- several metrics per item


def test_merge_metrics__records_differing_only_in_metric_name_are_one_evaluation() -> None:
    runs = [
        EvalRun("m", "t", 0.5, metric_name="relevancy", item_id="1", cost=0.2),
        EvalRun("m", "t", 0.9, metric_name="faithfulness", item_id="1"),
        EvalRun("m", "t", 0.7, metric_name="relevancy", item_id="2"),
        EvalRun("m", "t", 0.1, metric_name="faithfulness", item_id="2", latency=1.5),
    ]
    merged = merge_metrics(runs, ["faithfulness"])
    assert [(r.item_id, r.metric_name, r.score) for r in merged] == [
        ("1", "faithfulness", 0.9),
        ("2", "faithfulness", 0.1),
    ]
    assert merged[0].metrics == (("relevancy", 0.5),)
    assert merged[0].cost == 0.2
    assert merged[1].metrics == (("relevancy", 0.7),)
    assert merged[1].latency == 1.5
    with pytest.raises(InputError, match="several metrics for one evaluation") as info:
        merge_metrics(runs)
    assert "faithfulness, relevancy" in str(info.value)
    assert "--metric" in str(info.value)


def test_merge_metrics__a_true_duplicate_is_left_for_the_duplicate_check() -> None:
    runs = [EvalRun("m", "t", 0.5, item_id="1"), EvalRun("m", "t", 0.6, item_id="1")]
    assert merge_metrics(runs) is runs
    with pytest.raises(InputError, match="second record"):
        build_report(runs)
