"""`floors.beta_ppf` by Newton's method, against the bisection it replaced (issue 31).

The binary models' Clopper-Pearson ends are beta quantiles; bisection took 60
evaluations of the incomplete beta function for each (at 200 models a third of the
report's time). Newton's method inside the same bracket gives the same quantile to
rounding, in a handful of evaluations.
"""

from __future__ import annotations

import random

import pytest

from leaderboard.stats import floors
from leaderboard.stats.quantiles import betainc


def _bisection(q: float, a: float, b: float) -> float:
    lo, hi = 0.0, 1.0
    for _ in range(60):
        mid = (lo + hi) / 2.0
        if betainc(a, b, mid) < q:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2.0


def _cases(n: int) -> list[tuple[float, float, float]]:
    rng = random.Random(31)
    out = []
    for _ in range(n):
        size = rng.choice([2, 5, 20, 100, 1_000, 10_000])
        k = rng.uniform(0.0, size)  # effective sizes: real successes and trials
        upper = rng.random() < 0.5
        a, b = (k + 1.0, size - k) if upper else (k, size - k + 1.0)
        a, b = max(a, 1e-3), max(b, 1e-3)
        q = rng.choice([0.025, 0.975, 0.005, 0.995, 0.0005, rng.random()])
        out.append((q, a, b))
    return out


def test_beta_ppf__the_bisections_quantile_to_rounding() -> None:
    for q, a, b in _cases(3_000):
        assert floors.beta_ppf(q, a, b) == pytest.approx(_bisection(q, a, b), abs=1e-13)


def test_beta_ppf__a_few_evaluations(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = 0

    def counted(a: float, b: float, x: float) -> float:
        nonlocal calls
        calls += 1
        return betainc(a, b, x)

    monkeypatch.setattr(floors, "betainc", counted)
    each = []
    for q, a, b in _cases(500):
        calls = 0
        floors.beta_ppf(q, a, b)
        each.append((calls, min(a, b) >= 1.0))
    # a density finite at both ends: about 13 on these cases, 9 on the 200-model
    # benchmark's (bisection: 60 each);
    # one that diverges at an end may bisect throughout, never more than it did
    assert sum(c for c, finite in each if finite) / sum(f for _, f in each) <= 16
    assert max(c for c, _ in each) <= 64


@pytest.mark.parametrize("n", [1, 2, 20, 1_000])
def test_beta_ppf__closed_forms(n: int) -> None:
    # Beta(n, 1): x^n, so the q quantile is q^(1/n); Beta(1, n): 1 - (1 - q)^(1/n)
    for q in (0.025, 0.5, 0.975):
        assert floors.beta_ppf(q, float(n), 1.0) == pytest.approx(q ** (1 / n), abs=1e-14)
        want = 1.0 - (1.0 - q) ** (1 / n)
        assert floors.beta_ppf(q, 1.0, float(n)) == pytest.approx(want, abs=1e-14)
