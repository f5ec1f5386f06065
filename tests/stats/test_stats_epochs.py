"""Epochs that pay (issue 23, item 8): variance shares and the advice, in simulation.

Generators written here: pass/fail samples of items whose pass rates are Beta(1, 1);
the candidate either shares the baseline's rates (a rerun: all the paired variance is
within items) or has its own item effects (``spread``: between-item variance too).
The advice from a k-epoch report is compared with the detectable drop realised on
fresh data with k + 1 epochs, or twice the items.
"""

from __future__ import annotations

import numpy as np
import pytest

from leaderboard import EvalRun, build_report


def _runs(rng: np.random.Generator, n: int, k: int, spread: float) -> list[EvalRun]:
    p = rng.beta(1.0, 1.0, n)
    rates = {"base": p, "cand": np.clip(p + rng.normal(0.0, spread, n), 0.02, 0.98)}
    return [
        EvalRun(m, f"t{i % 4}", float(rng.random() < q[i]), item_id=i, sample=s)
        for m, q in rates.items()
        for i in range(n)
        for s in range(k)
    ]


def _mdr(runs: list[EvalRun], seed: int) -> float:
    c = build_report(runs, baseline="base", resamples=999, seed=seed).gate.comparisons[0]
    assert c.min_detectable_regression is not None
    return c.min_detectable_regression


@pytest.mark.parametrize("spread", [0.0, 0.25])
def test_epochs__advice_matches_the_realised_detectable_drop(spread: float) -> None:
    sims, n, k = 12, 200, 2
    advice, epoch, items, shares = [], [], [], []
    for s in range(sims):
        rng = np.random.default_rng([30, s, int(spread * 100)])
        c = build_report(
            _runs(rng, n, k, spread), baseline="base", resamples=999, seed=s
        ).gate.comparisons[0]
        assert c.epochs is not None
        assert c.epochs.within_share + c.epochs.between_share == pytest.approx(1.0)
        assert c.epochs.samples_per_item == k
        advice.append((c.epochs.detectable_one_more_epoch, c.epochs.detectable_twice_items))
        shares.append(c.epochs.within_share)
        epoch.append(_mdr(_runs(rng, n, k + 1, spread), s))
        items.append(_mdr(_runs(rng, 2 * n, k, spread), s))
    pred = np.mean(advice, axis=0)
    assert pred[0] == pytest.approx(np.mean(epoch), rel=0.15)
    assert pred[1] == pytest.approx(np.mean(items), rel=0.15)
    if spread == 0.0:  # a rerun of one model: the paired variance is generation noise
        assert np.mean(shares) > 0.85
    else:
        assert np.mean(shares) < 0.85


def test_epochs__one_sample_claims_nothing() -> None:
    runs = _runs(np.random.default_rng(1), 100, 1, 0.1)
    c = build_report(runs, baseline="base", resamples=200).gate.comparisons[0]
    assert c.epochs is None


def test_epochs__the_comment_says_what_another_epoch_buys() -> None:
    from leaderboard.render import render_comment  # noqa: PLC0415
    from leaderboard.render.numbers import pct  # noqa: PLC0415

    runs = _runs(np.random.default_rng(0), 200, 2, 0.25)
    report = build_report(runs, baseline="base", resamples=999)
    e = report.gate.comparisons[0].epochs
    assert e is not None
    comment = render_comment(report)
    assert (
        f"of this difference's variance is generation noise within items (2 samples per "
        f"item), {pct(e.between_share)} comes from the items; one more epoch "
        f"would detect drops of {e.detectable_one_more_epoch:.3f}" in comment
    )
