"""A budget across merges (issue 23, item 5): the anchor comparison.

Generators written here: one model whose true item pass rates drop by 0.01 at each of
ten merges, each run drawing its own pass/fail answers; each merge is gated against the
previous one (margin 0) and against the anchor run at a budget of 0.03.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from leaderboard import EvalRun, build_report
from leaderboard.cli import main
from leaderboard.errors import UsageError

ITEMS = 1000


def _run(rng: np.random.Generator, p: np.ndarray, drop: float) -> list[EvalRun]:
    won = rng.random(p.size) < np.clip(p - drop, 0, 1)
    return [
        EvalRun("m", f"t{i // 250}", float(won[i]), item_id=i % 250) for i in range(p.size)
    ]


def _chain(seed: int) -> tuple[int | None, int]:
    """First merge (1-10) whose anchor comparison regressed, and the merges whose own
    gate (against the previous merge) regressed."""
    rng = np.random.default_rng([29, seed])
    p = rng.beta(2.0, 1.5, ITEMS)
    anchor = previous = _run(rng, p, 0.0)
    first, own = None, 0
    for k in range(1, 11):
        pr = _run(rng, p, 0.01 * k)
        gate = build_report(
            pr,
            baseline_runs=previous,
            anchor_runs=anchor,
            anchor_margin=0.03,
            resamples=999,
            seed=k,
        ).gate
        by = {c.scope: c for c in gate.comparisons}
        assert set(by) == {"overall", "anchor"}
        assert by["anchor"].margin == 0.03
        assert gate.family_size == 2
        own += by["overall"].regressed
        if first is None and by["anchor"].regressed:
            first = k
        previous = pr
    return first, own


def test_anchor__ten_merges_of_a_hundredth_caught_at_a_budget_of_three() -> None:
    chains = [_chain(s) for s in range(10)]
    caught = [first for first, _ in chains if first is not None]
    assert len(caught) >= 9  # each chain ends 0.10 below its anchor
    assert all(first >= 4 for first in caught)  # never before the budget is spent
    own = sum(n for _, n in chains)
    assert own / (10 * 10) <= 0.1  # each merge alone mostly passes: the creep


def test_anchor__comparison_is_one_more_member_of_the_family() -> None:
    rng = np.random.default_rng(1)
    p = rng.beta(2.0, 1.5, ITEMS)
    runs = _run(rng, p, 0.0) + [
        EvalRun("base", r.task_id, r.score, item_id=r.item_id) for r in _run(rng, p, 0.0)
    ]
    report = build_report(
        runs, baseline="base", anchor_runs=_run(rng, p, 0.0), resamples=500
    )
    scopes = sorted(c.scope for c in report.gate.comparisons)
    assert scopes == ["anchor", "overall"]  # only `m` is in the anchor run
    assert report.gate.anchor == "anchor"
    assert {c.confidence for c in report.gate.comparisons} == {
        report.gate.comparisons[0].confidence
    }


def test_anchor__bad_margin_refused() -> None:
    rng = np.random.default_rng(2)
    p = rng.beta(2.0, 1.5, 100)
    with pytest.raises(UsageError, match="anchor_margin"):
        build_report(_run(rng, p, 0.0), anchor_runs=_run(rng, p, 0.0), anchor_margin=-1)


def test_cli__anchor_results_gate_and_name_the_anchor(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rng = np.random.default_rng(3)
    p = rng.beta(2.0, 1.5, ITEMS)
    for name, drop in (("anchor", 0.0), ("main", 0.14), ("pr", 0.15)):
        lines = [
            f'{{"model_id": "m", "task_id": "{r.task_id}", "item_id": {r.item_id}, '
            f'"score": {r.score}}}'
            for r in _run(rng, p, drop)
        ]
        (tmp_path / f"{name}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    code = main(
        [
            "report",
            str(tmp_path / "pr.jsonl"),
            "--baseline-results",
            str(tmp_path / "main.jsonl"),
            "--anchor-results",
            str(tmp_path / "anchor.jsonl"),
            "--anchor-margin",
            "0.03",
            "--anchor-label",
            "v1.0",
            "--resamples",
            "999",
        ]
    )
    out = capsys.readouterr().out
    assert code == 1  # 0.15 below the anchor, beyond the budget of 0.03
    assert "against its own row of the anchor run **v1.0**, with a budget of 0.030" in out
