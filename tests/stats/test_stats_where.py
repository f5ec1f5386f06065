"""Where a gated comparison moved: per-category breakdown and item pass/fail flips."""

from __future__ import annotations

import numpy as np
import pytest

from leaderboard import EvalRun, UsageError, build_report
from leaderboard.report import GateComparison


def _item_runs(
    scores: dict[str, dict[tuple[str, str], np.ndarray]],
) -> list[EvalRun]:
    return [
        EvalRun(m, task, float(s), category=cat, item_id=i)
        for m, by_task in scores.items()
        for (cat, task), items in by_task.items()
        for i, s in enumerate(items)
    ]


def _binary_pair(seed: int = 1) -> tuple[list[EvalRun], dict[str, np.ndarray]]:
    """Two models on 4 tasks (2 categories) of 60 pass/fail items; `cand` loses
    items in `code` only."""
    rng = np.random.default_rng(seed)
    base, cand = {}, {}
    for cat in ("code", "math"):
        for t in range(2):
            b = (rng.random(60) < 0.7).astype(float)
            c = b.copy()
            if cat == "code":
                c[rng.random(60) < 0.3] = 0.0  # some passes become fails
            flip_up = (b == 0) & (rng.random(60) < 0.2)
            c[flip_up] = 1.0
            base[(cat, f"{cat}-{t}")] = b
            cand[(cat, f"{cat}-{t}")] = c
    return _item_runs({"base": base, "cand": cand}), {
        "base": np.concatenate(list(base.values())),
        "cand": np.concatenate(list(cand.values())),
    }


def _overall(report_gate: list[GateComparison]) -> GateComparison:
    return next(c for c in report_gate if c.scope == "overall")


def test_flips__count_items_that_changed_outcome_exactly() -> None:
    runs, flat = _binary_pair()
    report = build_report(runs, baseline="base", resamples=200)
    c = _overall(report.gate.comparisons)
    assert c.flips is not None
    b, k = flat["base"], flat["cand"]
    assert c.flips.pass_to_fail == int(((b == 1) & (k == 0)).sum())
    assert c.flips.fail_to_pass == int(((b == 0) & (k == 1)).sum())
    assert c.flips.shared_items == 240
    assert c.flips.pass_to_fail > 0
    assert c.flips.fail_to_pass > 0


def test_flips__none_for_partial_scores_and_for_task_level_data() -> None:
    runs, _ = _binary_pair()
    partial = [
        EvalRun(r.model_id, r.task_id, 0.5 if i == 0 else r.score,
                category=r.category, item_id=r.item_id)
        for i, r in enumerate(runs)
    ]  # fmt: skip
    assert (
        _overall(
            build_report(partial, baseline="base", resamples=200).gate.comparisons
        ).flips
        is None
    )
    tasks = [EvalRun(m, f"t{t}", 1.0 if (t + j) % 2 else 0.0)
             for j, m in enumerate(("base", "cand")) for t in range(8)]  # fmt: skip
    assert (
        _overall(build_report(tasks, baseline="base", resamples=200).gate.comparisons).flips
        is None
    )


def test_breakdown__per_category_differences_worst_first() -> None:
    runs, _ = _binary_pair()
    report = build_report(runs, baseline="base", resamples=500)
    c = _overall(report.gate.comparisons)
    cats = [s for s in c.breakdown if s.scope.startswith("category:")]
    assert [s.scope for s in cats] == ["category:code", "category:math"]
    means = {(r.model_id, r.category): [] for r in runs}  # type: dict[tuple[str, str], list[float]]
    for r in runs:
        means[(r.model_id, r.category)].append(r.score)
    for s in cats:
        cat = s.scope.removeprefix("category:")
        want = np.mean(means[("cand", cat)]) - np.mean(means[("base", cat)])
        assert s.diff_mean == pytest.approx(want, abs=1e-12)
        assert s.ci_lo <= s.diff_mean <= s.ci_hi
    assert cats[0].ci_hi < 0  # the drop in code is located


def test_breakdown__unadjusted_so_inside_the_adjusted_category_gate() -> None:
    runs, _ = _binary_pair(seed=3)
    report = build_report(runs, baseline="base", resamples=2000, gate_categories=True)
    overall = _overall(report.gate.comparisons)
    adjusted = {c.scope: c for c in report.gate.comparisons if c.scope != "overall"}
    for s in (s for s in overall.breakdown if s.scope.startswith("category:")):
        gate = adjusted[s.scope]
        assert gate.confidence > report.settings.confidence
        assert s.diff_mean == pytest.approx(gate.diff_mean)
        assert gate.ci_lo <= s.ci_lo
        assert s.ci_hi <= gate.ci_hi


def test_breakdown__empty_with_one_category() -> None:
    runs = [
        EvalRun(m, f"t{t}", 0.5 + 0.01 * t * (m == "a")) for m in "ab" for t in range(6)
    ]
    c = _overall(build_report(runs, baseline="b", resamples=200).gate.comparisons)
    assert c.breakdown == []


def test_unknown_baseline__did_you_mean() -> None:
    runs = [EvalRun(m, f"t{t}", 0.5) for m in ("main", "feature") for t in range(3)]
    with pytest.raises(
        UsageError, match=r"'mian' is not in the data \(did you mean 'main'\?\)"
    ):
        build_report(runs, baseline="mian")
