"""Strata summed over their weighted estimates only (issue 31), bit for bit.

`satterthwaite.Variances._unit_v` multiplied every unit by every estimate's weight,
zeros included: with a baseline, each model's per-task estimates made that 22 columns
of 2,000,000 units at 2 models x 1,000,000 items (about 4 s). Summing each stratum
over the estimates weighted in it adds the same products in the same order; the
reports here are the same bits either way, and the shortcut is taken.
"""

from __future__ import annotations

import random

import pytest

from leaderboard import EvalRun, build_report
from leaderboard.stats import satterthwaite


def _runs(items: int) -> list[EvalRun]:
    rng = random.Random(7)
    out = []
    for model, p in (("base", 0.7), ("cand", 0.66), ("other", 0.5)):
        for t in range(6):
            for i in range(items):
                score = float(rng.random() < p) if t < 4 else rng.random()
                out.append(EvalRun(model, f"t{t}", score, item_id=i, category=f"c{t % 2}"))
    return out


@pytest.mark.parametrize("clusters", [False, True])
def test_unit_v__by_stratum_gives_the_same_report(
    clusters: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    runs = _runs(300)
    if clusters:
        runs = [
            EvalRun(
                r.model_id,
                r.task_id,
                r.score,
                item_id=r.item_id,
                cluster=f"k{r.item_id // 3}",
            )
            for r in runs
        ]
    taken = 0
    by_stratum = satterthwaite.Variances._unit_v_by_stratum

    def counted(self: satterthwaite.Variances, *args: object) -> object:
        nonlocal taken
        taken += 1
        return by_stratum(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(satterthwaite.Variances, "_unit_v_by_stratum", counted)
    fast = build_report(runs, baseline="base", resamples=300, seed=3)
    assert taken > 0
    monkeypatch.setattr(satterthwaite, "BY_STRATUM_SHARE", -1.0)  # never
    plain = build_report(runs, baseline="base", resamples=300, seed=3)
    assert fast.model_dump_json() == plain.model_dump_json()
