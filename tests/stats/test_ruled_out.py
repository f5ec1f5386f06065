"""Green means a drop is ruled out (CONTRACT.md section 13): the three states, the
planning figure, and what it promises, by seeded simulation."""

from __future__ import annotations

import math

import numpy as np
import pytest

from leaderboard import EvalRun, LeaderboardError, build_report
from leaderboard.report import EpochAdvice
from leaderboard.stats.quantiles import norm_ppf, t_ppf
from leaderboard.stats.ruled_out import about, check_max_drop, needed


def _pair(n: int, seed: int, drop: float = 0.0) -> tuple[list[EvalRun], list[EvalRun]]:
    """Two runs of one model on `n` binary items, each its own draws."""
    rng = np.random.default_rng(seed)
    p = rng.beta(0.8, 0.6, n)
    a = rng.random(n) < np.clip(p - drop, 0, 1)
    b = rng.random(n) < p
    run = [EvalRun("m", "t", float(s), item_id=i) for i, s in enumerate(a)]
    base = [EvalRun("m", "t", float(s), item_id=i) for i, s in enumerate(b)]
    return run, base


def test_about__two_figures_rounded_up() -> None:
    assert [about(x) for x in (7.2, 99.0, 100.0, 101.0, 1012.4, 23_001.0)] == [
        8,
        99,
        100,
        110,
        1100,
        24_000,
    ]


def test_needed__closed_form_from_the_interval_width() -> None:
    # w = 0.26 at t_{0.975, 20}: SE = w / t; target SE = 0.05 / (z_0.975 + z_0.80)
    se = 0.26 / t_ppf(0.975, 20)
    target = 0.05 / (norm_ppf(0.975) + norm_ppf(0.80))
    want = 21 * (se / target) ** 2
    got = needed(estimate=-0.14, ci_lo=-0.40, df=20, alpha=0.05, units=21, max_drop=0.05)
    assert want <= got.units <= want * 1.1
    assert got.epochs is None


def test_needed__epochs_named_only_when_they_alone_would_do_it() -> None:
    # nearly all the variance is generation noise: more samples per item do it
    noisy = EpochAdvice(
        within_share=0.95,
        between_share=0.05,
        samples_per_item=2.0,
        detectable_one_more_epoch=0.1,
        detectable_twice_items=0.1,
    )
    plan = {"estimate": 0.0, "ci_lo": -0.08, "df": 199, "alpha": 0.05, "units": 200}
    got = needed(**plan, max_drop=0.05, epochs=noisy)
    ratio = (0.08 / t_ppf(0.975, 199) / (0.05 / (norm_ppf(0.975) + norm_ppf(0.8)))) ** 2
    assert got.epochs == math.ceil(2 * 0.95 * ratio / (1 - 0.05 * ratio))
    # per sample drawn, more items are never worse: the epochs are the lever for a
    # fixed benchmark, not a saving in samples
    assert 200 * got.epochs >= got.units * 2
    # the items themselves vary: no number of samples per item would do it
    between = noisy.model_copy(update={"within_share": 0.2, "between_share": 0.8})
    got = needed(**plan, max_drop=0.05, epochs=between)
    assert got.epochs is None


@pytest.mark.parametrize("bad", [0, 0.0, -0.1, 1.5, math.nan, math.inf, True, "0.05"])
def test_check_max_drop__refuses_out_of_range(bad: object) -> None:
    with pytest.raises(LeaderboardError, match="`max_drop` must be a number in"):
        check_max_drop(bad, 0.0)


def test_max_drop__never_below_the_margin() -> None:
    run, base = _pair(300, seed=1)
    report = build_report(run, baseline_runs=base, resamples=500, margin=0.1, max_drop=0.05)
    assert report.settings.max_drop == 0.1
    assert report.gate.comparisons[0].max_drop == 0.1


def test_three_states__decided_by_the_lower_end_against_max_drop() -> None:
    run, base = _pair(400, seed=2)
    first = build_report(run, baseline_runs=base, resamples=1000, seed=0)
    (c,) = first.gate.comparisons
    assert c.ci_hi > 0  # no regression is shown, either way
    lo = c.ci_lo
    assert lo < 0
    above = build_report(run, baseline_runs=base, resamples=1000, max_drop=-lo + 1e-9)
    below = build_report(run, baseline_runs=base, resamples=1000, max_drop=-lo - 1e-6)
    assert above.gate.status == "no_regression"
    assert above.verdict.ruled_out == pytest.approx(-lo)
    assert above.verdict.units_needed is None
    assert below.gate.status == "undetermined"
    assert below.verdict.state == "cannot_tell"
    assert below.verdict.units_needed is not None
    assert below.verdict.unit_kind == "item"
    assert below.gate.comparisons[0].interval
    assert "is not ruled out; about" in (below.gate.comparisons[0].note or "")


def test_a_planted_drop_still_regresses_and_a_gain_is_an_improvement() -> None:
    run, base = _pair(2000, seed=3, drop=0.15)
    report = build_report(run, baseline_runs=base, resamples=1000)
    assert report.gate.status == "regressed"
    gain = build_report(base, baseline_runs=run, resamples=1000)
    assert gain.gate.status == "no_regression"
    assert gain.verdict.improved


def test_units_needed__rules_out_max_drop_about_80_percent_of_the_time() -> None:
    """The promise of the planning figure: at `units_needed` items and no change, the
    interval rules out 0.05 in about 80% of the reports (seeded, 150 reports)."""
    run, base = _pair(150, seed=4)
    small = build_report(run, baseline_runs=base, resamples=1000)
    assert small.verdict.state == "cannot_tell"
    n = small.verdict.units_needed
    assert n is not None
    assert 150 < n < 5000
    sims = 150
    green = 0
    for s in range(sims):
        r, b = _pair(n, seed=100 + s)
        green += build_report(r, baseline_runs=b, resamples=500, seed=s).gate.status == (
            "no_regression"
        )
    # 80% +- 3.3 (binomial SE at 150 reports) and the figure's own spread from
    # estimating the SE on 150 items: 65-93% allowed
    assert 0.65 <= green / sims <= 0.93, green / sims
