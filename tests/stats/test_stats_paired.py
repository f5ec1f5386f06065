"""The floor under a paired pass/fail difference (leaderboard/stats/paired.py).

Closed forms of Tango's score interval, the collapse it prevents (two runs
that agree on every item read green at [0, 0] before it), and seeded simulations of
what "no regression" must mean: with a true drop larger than max-drop, a green is a
false pass, and it stays at or under the one-sided level when few items differ.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from leaderboard import EvalRun, build_report
from leaderboard.stats.completion import Discordant
from leaderboard.stats.paired import tango_interval
from leaderboard.stats.quantiles import norm_ppf, t_ppf


def _score(diff: float, n: float, b: float, c: float) -> float:
    """Tango's statistic written out here from Fagerland, Lydersen & Laake (2014),
    eq. (9)-(10), independently of leaderboard.stats.paired."""
    w = -b - c + (2 * n - b + c) * diff
    p21 = (math.sqrt(w * w - 8 * n * (-c * diff * (1 - diff))) - w) / (4 * n)
    return (b - c - n * diff) / math.sqrt(n * (2 * p21 + diff * (1 - diff)))


@pytest.mark.parametrize("n", [10, 24, 60, 1000])
def test_tango__no_discordant_pair_allows_z2_over_n_plus_z2(n: int) -> None:
    z = 1.96
    lo, hi = tango_interval(0.0, 0.0, n, z)
    assert lo == pytest.approx(-z * z / (n + z * z), rel=1e-12)
    assert hi == pytest.approx(z * z / (n + z * z), rel=1e-12)


@pytest.mark.parametrize(
    ("b", "c", "n"), [(1, 7, 21), (0, 5, 40), (12, 3, 100), (26, 0, 50), (40, 38, 500)]
)
def test_tango__each_end_solves_the_score_equation(b: int, c: int, n: int) -> None:
    z = norm_ppf(0.975)
    lo, hi = tango_interval(float(b), float(c), n, z)
    assert lo < (b - c) / n < hi
    assert _score(lo, n, b, c) == pytest.approx(z, abs=1e-6)
    assert _score(hi, n, b, c) == pytest.approx(-z, abs=1e-6)


def test_tango__covers_at_its_level_when_few_pairs_differ() -> None:
    """Seeded coverage: 40 pairs, 5% candidate-only and 2% baseline-only (true
    difference 0.03), 4,000 draws."""
    rng = np.random.default_rng(7)
    n, pb, pc, sims = 40, 0.05, 0.02, 4000
    z = norm_ppf(0.975)
    counts = rng.multinomial(n, [pb, pc, 1 - pb - pc], size=sims)
    cover = 0
    width = 0.0
    for b, c, _ in counts:
        lo, hi = tango_interval(float(b), float(c), n, z)
        cover += lo <= pb - pc <= hi
        width += hi - lo
    se_mc = math.sqrt(0.95 * 0.05 / sims)
    assert cover / sims >= 0.95 - 2 * se_mc
    # and not by being wide: a Wald interval at the true shares is 0.16 wide here
    wald = 2 * z * math.sqrt((pb + pc - (pb - pc) ** 2) / n)
    assert width / sims < 1.5 * wald


def _pair(
    rng: np.random.Generator, n: int, *, both: float, base_only: float, cand_only: float
) -> list[EvalRun]:
    """Two runs on ``n`` pass/fail items: each item's (baseline, candidate) outcome
    drawn from the joint shares given (the rest fail in both)."""
    u = rng.random(n)
    base = u < both + base_only
    cand = (u < both) | ((u >= both + base_only) & (u < both + base_only + cand_only))
    out = []
    for i in range(n):
        out.append(EvalRun("m", "t", float(cand[i]), item_id=i))
        out.append(EvalRun("base", "t", float(base[i]), item_id=i))
    return out


def test_identical_runs__cannot_tell_instead_of_green_at_zero() -> None:
    runs = _pair(np.random.default_rng(1), 24, both=0.5, base_only=0.0, cand_only=0.0)
    (c,) = build_report(runs, baseline="base", resamples=999).gate.comparisons
    assert c.diff_mean == 0.0
    assert c.status == "undetermined"  # was no_regression at [0.000, 0.000]
    t = t_ppf(0.975, 23)  # 24 items, one task: 23 degrees of freedom
    assert (c.ci_lo, c.ci_hi) == pytest.approx(
        (-t * t / (24 + t * t), t * t / (24 + t * t))
    )
    assert c.units_needed is not None
    assert c.units_needed > 24


def test_identical_runs_on_many_items__green() -> None:
    runs = _pair(np.random.default_rng(2), 400, both=0.5, base_only=0.0, cand_only=0.0)
    (c,) = build_report(runs, baseline="base", resamples=999).gate.comparisons
    assert c.status == "no_regression"  # 400 agreements rule out a drop of 0.05
    t = t_ppf(0.975, 399)
    assert c.ci_lo == pytest.approx(-t * t / (400 + t * t))


@pytest.mark.slow  # 400 reports through the pipeline
def test_a_true_drop_beyond_max_drop_rarely_reads_green() -> None:
    """40 items, 6% pass -> fail and none fail -> pass: a true drop of 0.06, beyond
    the default max-drop 0.05, so every green is a false pass; the one-sided level is
    2.5%. Without the floor no discordant item gives [0, 0] and one gives a lower end
    near -0.05 (measured in docs/statistics.md)."""
    sims = 400
    green = 0
    for s in range(sims):
        runs = _pair(
            np.random.default_rng([31, s]), 40, both=0.4, base_only=0.06, cand_only=0.0
        )
        (c,) = build_report(runs, baseline="base", resamples=499, seed=s).gate.comparisons
        green += c.status == "no_regression"
    assert green / sims <= 0.025 + 2 * math.sqrt(0.025 * 0.975 / sims)


def _counts(n: int, cand_scored: int, base_scored: int) -> Discordant:
    """One task's completion counts where each side's unscored units are all scored by
    the other (every discordant unit one way, or none)."""
    return Discordant(
        attempted=n,
        candidate_scored=cand_scored,
        baseline_scored=base_scored,
        baseline_only=max(base_scored - cand_scored, 0),
        candidate_only=max(cand_scored - base_scored, 0),
        tasks=1,
    )


def test_completion__the_lower_end_reaches_past_the_estimate() -> None:
    # the real devstral pair's counts: 26 discordant units, all against the candidate
    lo, hi = _counts(50, 24, 50).interval(0.025)
    assert hi < 0  # the exact test's end: it rejects
    assert lo < -0.52 - 0.1  # the conditional end alone was -0.52, the estimate
    assert _score(lo, 50, 0, 26) == pytest.approx(norm_ppf(0.975), abs=1e-6)


def test_completion__every_discordant_unit_for_the_candidate__the_upper_end_too() -> None:
    lo, hi = _counts(50, 50, 24).interval(0.025)
    assert lo > 0  # no regression: the conditional lower end is kept
    assert hi > 0.52 + 0.1  # the conditional end alone was 0.52, the estimate
    assert _score(hi, 50, 26, 0) == pytest.approx(-norm_ppf(0.975), abs=1e-6)


def test_completion__no_discordant_unit__tangos_interval_about_zero() -> None:
    d = _counts(10, 7, 7)
    z = norm_ppf(0.975)
    assert d.interval(0.025) == pytest.approx((-z * z / (10 + z * z), z * z / (10 + z * z)))


def test_flat_partial_scores__no_green_either() -> None:
    """Items scored 0.5 in both runs (epochs that disagree the same way in each): the
    differences are all 0 though the scores are not pass/fail; 30 such agreements
    cannot rule out a drop of 0.05 any more than 30 pass/fail ones."""
    runs = []
    for i in range(30):
        for m in ("m", "base"):
            runs.append(EvalRun(m, "t", 0.5 if i % 2 else 1.0, item_id=i))
    (c,) = build_report(runs, baseline="base", resamples=499).gate.comparisons
    assert c.status == "undetermined"
    t = t_ppf(0.975, 29)
    assert c.ci_lo == pytest.approx(-t * t / (30 + t * t))
