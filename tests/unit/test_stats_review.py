"""Regression tests from the review of the statistical core."""

from __future__ import annotations

import random

import numpy as np

from leaderboard import EvalRun, build_report


def test_repeated_samples__record_order_changes_no_bit() -> None:
    # Three or more samples of an item: their float sum depends on the order of the
    # terms unless the engine fixes it; the contract says order changes no number.
    rng = np.random.default_rng(2)
    runs = [
        EvalRun(m, f"t{t}", float(rng.random()), item_id=i, sample=s)
        for m in ("a", "b")
        for t in range(3)
        for i in range(5)
        for s in range(7)
    ]
    first = build_report(runs, resamples=100).model_dump(mode="json")
    for k in range(5):
        shuffled = list(runs)
        random.Random(k).shuffle(shuffled)
        assert build_report(shuffled, resamples=100).model_dump(mode="json") == first
