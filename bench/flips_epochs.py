"""Flips in context with epochs: noise estimate and "beyond noise" measured (issue 23).

Two runs over the same items, each item's pass probability from a Beta(0.8, 0.6)
(difficult and easy items, a few near 1/2), k pass/fail samples (epochs) per item and
run; an item passes a run when at least half its samples pass. Per cell, over SIMS
simulations:

- no change (both runs from the same probabilities): mean observed flips each way,
  mean noise estimate each way (epochs: `epoch_flip_chances`; one sample: the smaller
  direction), their ratio, and the share of reports "beyond noise" (nominal 5% at
  confidence 0.95);
- a drop (candidate's log-odds lower by DROP on every item): the share "beyond noise"
  (power) and the noise estimate against the baseline's own noise (the flips two
  baseline runs with these epochs would give each way, from the true probabilities).

Prints a markdown table with Monte Carlo standard errors. Runs the noise functions on
counts directly (the pipeline's part, counting the verdicts, is tested in
tests/stats/test_stats_flips_epochs.py). ``nice .venv/bin/python bench/flips_epochs.py
[SIMS]`` (default 2,000 per cell; about a minute).
"""

from __future__ import annotations

import math
import sys

import numpy as np

from leaderboard.stats.noise import (
    epoch_flip_chances,
    flip_surplus_p,
    mcnemar_p,
    noise_each_way,
)

ALPHA = 0.05


def _verdict_chance(p: np.ndarray, k: int) -> np.ndarray:
    """P(at least half of k Bernoulli(p) samples pass)."""
    need = math.ceil(k / 2)
    return sum(math.comb(k, j) * p**j * (1 - p) ** (k - j) for j in range(need, k + 1))


def one(
    rng: np.random.Generator, n: int, kb: int, kc: int, drop: float
) -> tuple[int, int, float, float, bool]:
    p = rng.beta(0.8, 0.6, n)
    logit = np.log(p / (1 - p))
    pc = 1 / (1 + np.exp(-(logit - drop)))
    xb, xc = rng.binomial(kb, p), rng.binomial(kc, pc)
    bp, cp = 2 * xb >= kb, 2 * xc >= kc
    a, b = int((bp & ~cp).sum()), int((~bp & cp).sum())
    qb, qc = _verdict_chance(p, kb), _verdict_chance(p, kc)
    # the baseline's own noise each way: two runs of the baseline's probabilities
    own = float((qb * (1 - qc) + (1 - qb) * qc).sum()) / 2
    if kb == kc == 1:
        return a, b, float(noise_each_way(a, b)), own, mcnemar_p(a, b) < ALPHA
    kk_b, kk_c = np.full(n, kb, dtype=np.intp), np.full(n, kc, dtype=np.intp)
    pf, fp = epoch_flip_chances((xb, kk_b, xc, kk_c))
    est = float(pf.sum() + fp.sum()) / 2
    return a, b, est, own, flip_surplus_p(pf, fp, a - b) < ALPHA


def cell(n: int, kb: int, kc: int, drop: float, sims: int) -> dict[str, float]:
    rows = np.array(
        [
            one(
                np.random.default_rng([23, 2, n, kb, kc, int(drop * 100), s]),
                n,
                kb,
                kc,
                drop,
            )
            for s in range(sims)
        ],
        dtype=np.float64,
    )
    observed = (rows[:, 0] + rows[:, 1]) / 2
    est = rows[:, 2]
    ratio = est.mean() / observed.mean()
    # delta-method SE of a ratio of means
    cov = np.cov(est, observed)
    se_ratio = ratio * math.sqrt(
        (
            cov[0, 0] / est.mean() ** 2
            + cov[1, 1] / observed.mean() ** 2
            - 2 * cov[0, 1] / (est.mean() * observed.mean())
        )
        / sims
    )
    fired = rows[:, 4].mean()
    return {
        "observed": float(observed.mean()),
        "estimate": float(est.mean()),
        "ratio": float(ratio),
        "se_ratio": float(se_ratio),
        "own": float(rows[:, 3].mean()),
        "fired": float(fired),
        "se_fired": math.sqrt(fired * (1 - fired) / sims),
    }


def main() -> None:
    sims = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    print(f"{sims} simulations a cell\n")
    print(
        "| epochs (base, PR) | items | no change: observed / estimate each way | "
        "ratio | beyond noise | drop 0.5: beyond noise | drop 0.5: estimate / own noise |"
    )
    print("|---|---|---|---|---|---|---|")
    for kb, kc in ((1, 1), (2, 2), (3, 3), (5, 5), (3, 5)):
        for n in (50, 200, 1000):
            null = cell(n, kb, kc, 0.0, sims)
            drop = cell(n, kb, kc, 0.5, sims)
            print(
                f"| {kb}, {kc} | {n} | {null['observed']:.2f} / {null['estimate']:.2f} | "
                f"{null['ratio']:.3f} ± {null['se_ratio']:.3f} | "
                f"{100 * null['fired']:.1f}% ± {100 * null['se_fired']:.1f} | "
                f"{100 * drop['fired']:.1f}% ± {100 * drop['se_fired']:.1f} | "
                f"{drop['estimate']:.1f} / {drop['own']:.1f} |"
            )


if __name__ == "__main__":
    main()
