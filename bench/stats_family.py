"""Families held by max-T (issue 23): rank ranges, the gate's candidates, power.

Seeded simulations through `build_report`, each report next to an *oracle* on the same
draws: the test no bootstrap can improve on, the true standard errors (known from the
generator's item probabilities) and the exact max-T critical value of the true
correlation. A rate that is off in the report and equally off in the oracle comes from
the draws (Monte Carlo noise of a short run), not from the method.

- ``ranks``: 9 identical models on 200 pass/fail items (2 tasks of 100, Beta(2, 2)
  difficulty); the share of reports where all nine share the rank range 1-9, and the
  share of oracle draws where no pair is beyond the studentized range.
- ``gate``: a baseline and 4 candidates of equal truth on 300 shared items (3 tasks),
  each candidate keeping the baseline's answer on a share of items and redrawing the
  rest; the share of reports whose gate regressed (nominal 2.5%), the max-T report and
  Bonferroni's intervals from the same replicates.
- ``power``: the same designs with the first candidate dropping 0.09 (correlation of
  the candidates' differences 0.5 with fresh answers, 0.82 when the candidates share
  one new model's answers on 80% of items): how often each adjustment catches it.

``nice .venv/bin/python bench/stats_family.py [SIMS] [ranks]`` (default 3,000 a cell;
about 90 s a cell at 999 resamples on one core; ``ranks``: the first cell only).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

import leaderboard.stats.build as build_module
import leaderboard.stats.gate as gate_module
from leaderboard import EvalRun, build_report
from leaderboard.stats.bootstrap import percentile_intervals
from leaderboard.stats.quantiles import norm_ppf, t_ppf

ALPHA = 0.05
Seen = dict[str, Any]


def spy(module: Any, name: str, seen: Seen) -> None:
    """Keep the arguments of ``module.name`` on each call (the replicates it reads)."""
    real = getattr(module, name)

    def wrapped(*args: Any, **kw: Any) -> Any:
        seen["args"], seen["kw"] = args, kw
        return real(*args, **kw)

    setattr(module, name, wrapped)


def max_abs_quantile(corr: np.ndarray, alpha: float, draws: int = 400_000) -> float:
    """The exact (to Monte Carlo) 1 - alpha quantile of max |Z|, Z ~ N(0, corr)."""
    vals, vecs = np.linalg.eigh(corr)
    root = vecs * np.sqrt(np.clip(vals, 0, None))
    z = np.random.default_rng(1).standard_normal((draws, corr.shape[0])) @ root.T
    return float(np.quantile(np.abs(z).max(axis=1), 1 - alpha))


def rate(hits: int, sims: int) -> str:
    p = hits / sims
    return f"{p:.2%} ± {math.sqrt(p * (1 - p) / sims):.2%}"


def ranks(sims: int, resamples: int) -> None:
    pairs = [(a, b) for a in range(9) for b in range(a + 1, 9)]
    ia, ib = np.array(pairs).T
    corr = (
        np.array(
            [
                [(a == c) + (b == e) - (a == e) - (b == c) for c, e in pairs]
                for a, b in pairs
            ]
        )
        / 2.0
    )
    c_true = max_abs_quantile(corr, ALPHA)
    seen: Seen = {}
    spy(build_module, "_pairwise", seen)
    shared = oracle = floor = ends = 0
    for s in range(sims):
        rng = np.random.default_rng([27, s])
        p = rng.beta(2.0, 2.0, 200)
        x = (rng.random((9, 200)) < p).astype(float)
        runs = [
            EvalRun(f"m{k}", f"t{i // 100}", float(x[k, i]), item_id=i % 100)
            for k in range(9)
            for i in range(200)
        ]
        rows = build_report(runs, resamples=resamples, seed=s).leaderboard
        shared += all(r.rank_lo == 1 and r.rank_hi == 9 for r in rows)
        f, e = tails(seen["kw"])
        floor += f
        ends += e
        v = 2 * p * (1 - p)
        se = math.sqrt(0.25 * (v[:100].sum() + v[100:].sum())) / 100
        means = x.reshape(9, 2, 100).mean(axis=(1, 2))
        oracle += bool((np.abs(means[ia] - means[ib]) / se <= c_true).all())
    print(
        f"| ranks, 9 identical models | {resamples} | {sims} | shared 1-9: "
        f"{rate(shared, sims)} | oracle: {rate(oracle, sims)} | any pair decided by "
        f"the t-floor alone {rate(floor, sims)}, by the percentile ends alone "
        f"{rate(ends, sims)} |",
        flush=True,
    )


def tails(kw: dict[str, Any]) -> tuple[bool, bool]:
    """Would any pair of the rank family be decided by the t-interval alone, or by the
    t-scaled percentile ends alone (the two halves of `intervals_at`)?"""
    ia = np.array([p[2] for p in kw["pairs"]])
    ib = np.array([p[3] for p in kw["pairs"]])
    est, reps, each = kw["est"], kw["reps"], kw["family_alpha"]
    d, dr, df = est[ia] - est[ib], reps[:, ia] - reps[:, ib], kw["rep"].diff_df(ia, ib)
    t = np.array([t_ppf(1 - each / 2, float(v)) for v in df])
    floor = bool((np.abs(d) > t * dr.std(axis=0, ddof=1)).any())
    q = np.quantile(dr, [each / 2, 1 - each / 2], axis=0)
    c = t / norm_ppf(1 - each / 2)
    ends = bool(((d + c * (q[0] - d) > 0) | (d + c * (q[1] - d) < 0)).any())
    return floor, ends


def kept_answers(keep: float) -> Callable[..., tuple[list[np.ndarray], np.ndarray]]:
    """Candidates keeping the baseline's answer on `keep` of items; per-item covariance
    of two differences ``M u`` with ``M`` diag ``2(1-keep)``, off ``(1-keep)^2``."""

    def make(
        rng: np.random.Generator, p: np.ndarray, base: np.ndarray, n: int
    ) -> tuple[list[np.ndarray], np.ndarray]:
        out = []
        for _ in range(n):
            kept = rng.random(p.size) < keep
            out.append(np.where(kept, base, rng.random(p.size) < p))
        m = np.full((n, n), (1 - keep) ** 2)
        np.fill_diagonal(m, 2 * (1 - keep))
        return out, m

    return make


def shared_new(share: float) -> Callable[..., tuple[list[np.ndarray], np.ndarray]]:
    """Candidates answering as one new model on `share` of items, else on their own:
    ``M`` diag 2, off ``1 + share^2`` (correlation ``(1 + share^2) / 2``)."""

    def make(
        rng: np.random.Generator, p: np.ndarray, base: np.ndarray, n: int
    ) -> tuple[list[np.ndarray], np.ndarray]:
        new = rng.random(p.size) < p
        out = []
        for _ in range(n):
            own = rng.random(p.size) < share
            out.append(np.where(own, new, rng.random(p.size) < p))
        m = np.full((n, n), 1 + share**2)
        np.fill_diagonal(m, 2.0)
        return out, m

    return make


def gate(
    label: str,
    make: Callable[..., tuple[list[np.ndarray], np.ndarray]],
    sims: int,
    *,
    n: int = 4,
    drop: float = 0.0,
    resamples: int = 999,
) -> None:
    seen: Seen = {}
    spy(gate_module, "family_intervals", seen)
    fired = bonf = oracle = 0
    each = []
    c_true = None
    for s in range(sims):
        rng = np.random.default_rng([25, s])
        p = rng.beta(2.0, 1.5, 300)
        base = rng.random(300) < p
        cands, m = make(rng, p, base, n)
        if drop:  # the first candidate fails where it passed, with chance drop / p
            lost = rng.random(300) < np.minimum(1.0, drop / p)
            cands[0] = cands[0] & ~lost
        runs = [
            EvalRun(name, f"t{i // 100}", float(ans[i]), item_id=i % 100)
            for name, ans in [("base", base), *((f"c{k}", c) for k, c in enumerate(cands))]
            for i in range(300)
        ]
        g = build_report(runs, baseline="base", resamples=resamples, seed=s).gate
        diff, reps, df, alpha = seen["args"]
        _, hi = percentile_intervals(diff, reps.copy(), df, alpha / n)
        first = [c.candidate for c in g.comparisons].index("c0")
        if drop:
            fired += g.comparisons[first].regressed
            bonf += bool(hi[first] < 0)
        else:
            fired += g.regressed
            bonf += bool((hi < 0).any())
            if c_true is None:
                c_true = max_abs_quantile(m / m[0, 0], ALPHA)
            se = math.sqrt(m[0, 0] * (p * (1 - p)).sum()) / 300
            d = np.array([c.astype(float).mean() - base.mean() for c in cands])
            oracle += bool((d / se < -c_true).any())
        each.append(g.comparisons[first].confidence)
    tail = f"oracle {rate(oracle, sims)}" if not drop else f"drop {drop} of c0 caught"
    print(
        f"| {label} | {n} | {sims} | max-T {rate(fired, sims)} | Bonferroni "
        f"{rate(bonf, sims)} | {tail} | per-comparison confidence "
        f"{np.mean(each):.4f} (Bonferroni {1 - ALPHA / n:.4f}) |",
        flush=True,
    )


def main() -> None:
    sims = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    if sys.argv[2:] == ["ranks"]:  # the rank cell only
        ranks(sims, 999)
        return
    ranks(sims, 999)
    ranks(sims, 10_000)
    gate("keep 70% of the baseline's answers", kept_answers(0.7), sims)
    gate("keep 70%, one candidate", kept_answers(0.7), sims, n=1)
    gate("fresh answers (independent given the items)", kept_answers(0.0), sims)
    gate("share one new model's answers on 80%", shared_new(0.8), sims)
    gate("fresh answers, power", kept_answers(0.0), sims, drop=0.09)
    gate("share one new model on 80%, power", shared_new(0.8), sims, drop=0.09)


if __name__ == "__main__":
    main()
