"""'Where it moved': each row is shown with the interval that decides its label
(CONTRACT.md section 10), over many no-change draws and a few real moves."""

from __future__ import annotations

import numpy as np

from leaderboard import EvalRun, build_report
from leaderboard.render.gateview import scope_text, where_views


def _runs(rng: np.random.Generator, shift: float) -> list[EvalRun]:
    """Two models, 3 categories of 2 tasks of 12 pass/fail items; the candidate
    moved by `shift` on one task (0: no change, the two runs the same model)."""
    out = []
    for cat in range(3):
        for t in range(2):
            task = f"c{cat}t{t}"
            p = rng.uniform(0.3, 0.8, 12)
            for model, move in (("base", 0.0), ("cand", shift if task == "c0t0" else 0)):
                for i, pi in enumerate(np.clip(p + move, 0, 1)):
                    out.append(
                        EvalRun(
                            model,
                            task,
                            float(rng.random() < pi),
                            item_id=str(i),
                            category=f"cat{cat}",
                        )
                    )
    return out


def test_where_rows__the_shown_interval_decides_the_label_over_many_draws() -> None:
    shown = moved = excluded_by_raw_only = 0
    for s in range(60):
        rng = np.random.default_rng([27, 4, s])
        shift = 0.0 if s < 45 else -0.6  # mostly no change; a few real drops
        report = build_report(_runs(rng, shift), baseline="base", resamples=300, seed=s)
        [view] = where_views(report.gate.comparisons, report.settings.confidence)
        [comp] = [c for c in report.gate.comparisons if c.scope == "overall"]
        raw = {scope_text(b.scope): b for b in comp.breakdown}
        for row in view.rows:
            excludes = row.lo > 0 or row.hi < 0
            assert row.moved == excludes, (s, row)  # never "within noise" off zero
            shown += 1
            moved += row.moved
            d = raw[row.category]
            assert (row.lo, row.hi) == (d.family_ci_lo, d.family_ci_hi)
            assert d.family_ci_lo <= d.ci_lo <= d.ci_hi <= d.family_ci_hi
            excluded_by_raw_only += (d.ci_lo > 0 or d.ci_hi < 0) and not excludes
    assert shown > 200
    assert moved > 0  # the real drops are found
    # the unadjusted interval would have shown rows off zero labelled within noise
    assert excluded_by_raw_only > 0
