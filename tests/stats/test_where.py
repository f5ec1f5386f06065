"""`leaderboard.stats.where` directly: the scopes it plans, the differences it reports
(against numpy on a small hand-made set of records), their order, and item flips."""

from __future__ import annotations

import numpy as np
import pytest

from leaderboard import EvalRun
from leaderboard.stats.design import build_design
from leaderboard.stats.estimates import EstimatePlan
from leaderboard.stats.where import breakdowns, item_flips, plan_breakdown, worst_items

# (category, task) -> items of (base, cand); base and cand pass/fail, 6 items a task
ITEMS = {
    ("code", "c1"): ([1, 1, 1, 0, 1, 1], [0, 1, 0, 0, 1, 0]),
    ("code", "c2"): ([1, 0, 1, 1, 1, 1], [1, 0, 0, 1, 0, 1]),
    ("math", "m1"): ([0, 0, 1, 1, 0, 1], [1, 0, 1, 1, 1, 1]),
    ("math", "m2"): ([1, 1, 0, 0, 1, 0], [1, 1, 0, 1, 1, 0]),
    ("prose", "p1"): ([1, 0, 1, 0, 1, 0], [1, 0, 1, 0, 1, 0]),
}


def _runs(items: dict = ITEMS) -> list[EvalRun]:
    return [
        EvalRun(model, task, float(s), category=cat, item_id=i)
        for (cat, task), pair in items.items()
        for model, scores in zip(("base", "cand"), pair, strict=True)
        for i, s in enumerate(scores)
    ]


def _where(runs: list[EvalRun], confidence: float = 0.95) -> list:
    d = build_design(runs)
    plan = EstimatePlan(d)
    cand, base = d.models.index("cand"), d.models.index("base")
    planned = plan_breakdown(plan, d, cand, base)
    rep = plan.run(resamples=400, seed=1)
    [out] = breakdowns(
        [planned],
        plan=plan,
        est=rep.estimate,
        reps=rep.replicates.copy(),
        rep=rep,
        confidence=confidence,
    )
    return out


def _numpy_diffs() -> dict[str, float]:
    """Per task: mean of cand - base over its items; per category: the mean of its
    tasks' differences (tasks weigh alike)."""
    task = {
        f"task:{t}": float(np.mean(np.subtract(c, b))) for (_, t), (b, c) in ITEMS.items()
    }
    cats: dict[str, list[float]] = {}
    for (cat, t), _ in ITEMS.items():
        cats.setdefault(cat, []).append(task[f"task:{t}"])
    return {**task, **{f"category:{c}": float(np.mean(v)) for c, v in cats.items()}}


def test_plan_breakdown__one_scope_per_category_and_per_task() -> None:
    d = build_design(_runs())
    plan = EstimatePlan(d)
    planned = plan_breakdown(plan, d, d.models.index("cand"), d.models.index("base"))
    assert [scope for scope, _, _ in planned] == [
        "category:code",
        "category:math",
        "category:prose",
        "task:c1",
        "task:c2",
        "task:m1",
        "task:m2",
        "task:p1",
    ]
    assert all(kc != kb for _, kc, kb in planned)  # candidate and baseline estimates


def test_breakdowns__differences_match_numpy_and_come_worst_first() -> None:
    got = _where(_runs())
    want = _numpy_diffs()
    assert {s.scope: s.diff_mean for s in got} == pytest.approx(want, abs=1e-12)
    assert want["category:code"] == pytest.approx(-5 / 12)  # by hand: -3/6 and -2/6
    assert want["task:p1"] == 0.0
    means = [s.diff_mean for s in got]
    assert means == sorted(means)
    assert got[0].scope == "task:c1"  # -0.5, the worst
    for s in got:
        assert -1.0 <= s.ci_lo <= s.diff_mean <= s.ci_hi <= 1.0
    assert {s.scope: s.shared_units for s in got}["category:code"] == 12  # items
    assert {s.scope: s.shared_units for s in got}["task:m1"] == 6


def test_breakdowns__wider_at_a_higher_confidence() -> None:
    low = {s.scope: s for s in _where(_runs(), confidence=0.8)}
    high = {s.scope: s for s in _where(_runs(), confidence=0.99)}
    for scope in ("category:code", "category:math", "task:c1"):
        assert high[scope].ci_lo < low[scope].ci_lo
        assert high[scope].ci_hi > low[scope].ci_hi


def test_breakdowns__ties_ordered_by_scope() -> None:
    same = {("x", "t1"): ([1, 0, 1], [1, 0, 1]), ("y", "t2"): ([0, 1, 1], [0, 1, 1])}
    got = _where(_runs(same))
    assert [s.scope for s in got] == ["category:x", "category:y", "task:t1", "task:t2"]
    assert all(s.diff_mean == 0.0 for s in got)


def test_plan_breakdown__a_category_the_baseline_never_answered_is_left_out() -> None:
    runs = [r for r in _runs() if not (r.model_id == "base" and r.category == "prose")]
    got = {s.scope for s in _where(runs)}
    assert "category:prose" not in got
    assert "task:p1" not in got
    assert "category:code" in got


def test_plan_breakdown__one_category_and_one_task__nothing_to_break_down() -> None:
    one = {("x", "t1"): ([1, 0, 1, 1], [0, 0, 1, 1])}
    d = build_design(_runs(one))
    plan = EstimatePlan(d)
    assert plan_breakdown(plan, d, d.models.index("cand"), d.models.index("base")) == ()


def test_breakdowns__nothing_planned__an_empty_list_per_comparison() -> None:
    d = build_design(_runs())
    plan = EstimatePlan(d)
    plan.add(0)
    rep = plan.run(resamples=50, seed=1)
    out = breakdowns(
        [(), ()],
        plan=plan,
        est=rep.estimate,
        reps=rep.replicates.copy(),
        rep=rep,
        confidence=0.95,
    )
    assert out == [[], []]


def test_item_flips__counted_against_numpy_and_restricted_by_the_mask() -> None:
    d = build_design(_runs())
    cand, base = d.models.index("cand"), d.models.index("base")
    b = np.concatenate([np.array(p[0], float) for p in ITEMS.values()])
    c = np.concatenate([np.array(p[1], float) for p in ITEMS.values()])
    flips = item_flips(d, cand, base, np.ones(b.size, dtype=bool))
    assert flips is not None
    assert flips.pass_to_fail == int(((b == 1) & (c == 0)).sum()) == 5
    assert flips.fail_to_pass == int(((b == 0) & (c == 1)).sum()) == 3
    assert flips.shared_items == 30
    code = d.item_category == "code"
    in_code = item_flips(d, cand, base, code)
    assert in_code is not None
    assert (in_code.pass_to_fail, in_code.fail_to_pass, in_code.shared_items) == (5, 0, 12)


def test_item_flips__none_for_partial_scores_or_task_level_records() -> None:
    partial = {("x", "t1"): ([1, 0.5, 1], [1, 0, 1]), ("y", "t2"): ([0, 1, 1], [0, 1, 1])}
    d = build_design(_runs(partial))
    mask = np.ones(6, dtype=bool)
    assert item_flips(d, d.models.index("cand"), d.models.index("base"), mask) is None
    tasks = [EvalRun(m, f"t{t}", float(t % 2)) for m in ("base", "cand") for t in range(4)]
    d = build_design(tasks)
    mask = np.ones(4, dtype=bool)
    assert item_flips(d, d.models.index("cand"), d.models.index("base"), mask) is None


def test_worst_items__largest_drop_first_ties_by_task_then_id_as_strings() -> None:
    # integer ids lie in the design by number (2 before 10) but are listed by their
    # string ("10" before "2"); drops of 1.0 tie, partial ones come between
    rng = np.random.default_rng(3)
    runs = []
    for task in ("b", "a"):
        for i in range(30):
            base = 1.0
            cand = float(rng.choice([0.0, 0.0, 0.5, 1.0]))
            runs += [
                EvalRun("base", task, base, item_id=i),
                EvalRun("cand", task, cand, item_id=i),
            ]
    d = build_design(runs)
    cand, base = d.models.index("cand"), d.models.index("base")
    got = worst_items(d, cand, base, np.ones(d.present.shape[0], dtype=bool), limit=25)
    by_key = sorted(
        (
            (r_b.score - r_c.score, r_b.task_id, str(r_b.item_id))
            for r_b, r_c in zip(runs[::2], runs[1::2], strict=True)
            if r_b.score - r_c.score > 1e-12
        ),
        key=lambda k: (-k[0], k[1], k[2]),
    )[:25]
    assert [(1.0 - w.candidate_score, w.task, w.item_id) for w in got] == by_key
    ids = [w.item_id for w in got if w.task == "a" and w.candidate_score == 0.0]
    assert ids == sorted(ids)
    assert ids != sorted(ids, key=int)  # the string order, not the design's
