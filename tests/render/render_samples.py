"""Hand-built reports for the rendering tests (no statistics involved)."""

from __future__ import annotations

from leaderboard.report import (
    DataSummary,
    Gate,
    GateComparison,
    Interval,
    LeaderboardRow,
    PairwiseDiff,
    Report,
    ReportSettings,
)
from leaderboard.stats import decide


def row(
    rank: int,
    model: str,
    mean: float,
    *,
    half: float = 0.02,
    tasks: int = 40,
    total: int = 40,
    categories: dict[str, float] | None = None,
    missing: list[str] | None = None,
    rank_lo: int | None = None,
    rank_hi: int | None = None,
) -> LeaderboardRow:
    cats = categories or {}
    return LeaderboardRow(
        rank=rank,
        model_id=model,
        mean_score=mean,
        mean_ci_lo=mean - half,
        mean_ci_hi=mean + half,
        win_rate=round(1 / rank, 3),
        tasks_completed=tasks,
        tasks_total=total,
        complete=tasks == total,
        missing_tasks=missing or [],
        units=tasks,
        rank_lo=rank_lo or rank,
        rank_hi=rank_hi or rank,
        categories=cats,
        category_intervals={k: Interval(lo=v - 0.05, hi=v + 0.05) for k, v in cats.items()},
    )


def golden_report() -> Report:
    return _decided(_golden_report())


def _golden_report() -> Report:
    """Four models, two categories, a gate on `base` where `cand-b` regressed."""
    rows = [
        row(1, "cand-a", 0.742, categories={"code": 0.70, "math": 0.784}, rank_hi=2),
        row(
            2,
            "base",
            0.731,
            half=0.018,
            categories={"code": 0.69, "math": 0.772},
            rank_lo=1,
            rank_hi=2,
        ),
        row(3, "cand-b", 0.684, half=0.021, categories={"code": 0.61, "math": 0.758}),
        row(
            4,
            "tiny-model",
            0.402,
            half=0.035,
            tasks=38,
            missing=["math/017", "math/031"],
            categories={"code": 0.35, "math": 0.454},
        ),
    ]
    pairs = []
    for i, a in enumerate(rows):
        for b in rows[i + 1 :]:
            d = round(a.mean_score - b.mean_score, 3)
            sig = d > 0.02
            pairs.append(
                PairwiseDiff(
                    model_a=a.model_id,
                    model_b=b.model_id,
                    diff_mean=d,
                    ci_lo=round(d - 0.021, 3),
                    ci_hi=round(d + 0.021, 3),
                    significant=sig,
                    shared_tasks=38,
                    shared_units=38,
                )
            )
    comps = [
        GateComparison(
            candidate="cand-a",
            baseline="base",
            scope="overall",
            diff_mean=0.011,
            ci_lo=-0.012,
            ci_hi=0.034,
            confidence=0.975,
            margin=0.01,
            regressed=False,
            min_detectable_regression=0.031,
            shared_tasks=40,
            shared_units=40,
        ),
        GateComparison(
            candidate="cand-b",
            baseline="base",
            scope="overall",
            diff_mean=-0.047,
            ci_lo=-0.071,
            ci_hi=-0.022,
            confidence=0.975,
            margin=0.01,
            regressed=True,
            min_detectable_regression=0.033,
            shared_tasks=40,
            shared_units=40,
        ),
    ]
    return Report(
        generator="leaderboard-action 0.1.0",
        settings=ReportSettings(
            confidence=0.95,
            resamples=10000,
            seed=0,
            margin=0.01,
            method="percentile bootstrap",
            unit="task",
            baseline="base",
            candidates=["cand-a", "cand-b"],
        ),
        data=DataSummary(
            records=158,
            models=4,
            tasks=40,
            categories=["code", "math"],
            items=0,
            clusters=0,
        ),
        leaderboard=rows,
        pairwise=pairs,
        gate=Gate(
            baseline="base",
            regressed=True,
            adjustment="bonferroni",
            family_size=2,
            comparisons=comps,
        ),
        warnings=["tiny-model misses 2 of 40 tasks; its mean covers 38 tasks"],
    )


def big_report(models: int = 300, id_len: int = 200, categories: int = 5) -> Report:
    return _decided(_big_report(models, id_len, categories))


def _big_report(models: int, id_len: int, categories: int) -> Report:
    """Many models with long ids, every pair compared, a gate on every candidate."""
    ids = [(f"model-{i:03d}-" + "x" * id_len)[:id_len] for i in range(models)]
    cats = [f"category-{c}" for c in range(categories)]
    rows = [
        row(
            i + 1,
            ids[i],
            0.9 - 0.8 * i / models,
            categories=dict.fromkeys(cats, 0.9 - 0.8 * i / models),
            rank_lo=max(1, i - 2),
            rank_hi=min(models, i + 4),
        )
        for i in range(models)
    ]
    pairs = [
        PairwiseDiff(
            model_a=a.model_id,
            model_b=b.model_id,
            diff_mean=a.mean_score - b.mean_score,
            ci_lo=a.mean_score - b.mean_score - 0.03,
            ci_hi=a.mean_score - b.mean_score + 0.03,
            significant=a.mean_score - b.mean_score > 0.03,
        )
        for i, a in enumerate(rows)
        for b in rows[i + 1 :]
    ]
    base = ids[models // 2]
    comps = [
        GateComparison(
            candidate=m,
            baseline=base,
            scope=scope,
            diff_mean=-0.01,
            ci_lo=-0.04 if k % 7 else -0.09,
            ci_hi=0.02 if k % 7 else -0.02,
            confidence=0.999,
            margin=0.0,
            regressed=not k % 7,
            min_detectable_regression=0.05,
        )
        for k, m in enumerate(i for i in ids if i != base)
        for scope in ["overall", *[f"category:{c}" for c in cats]]
    ]
    return Report(
        generator="leaderboard-action 0.1.0",
        settings=ReportSettings(
            confidence=0.95,
            resamples=1000,
            seed=0,
            margin=0.0,
            method="percentile bootstrap",
            unit="task",
            baseline=base,
        ),
        data=DataSummary(
            records=models * 40,
            models=models,
            tasks=40,
            categories=cats,
            items=0,
            clusters=0,
        ),
        leaderboard=rows,
        pairwise=pairs,
        gate=Gate(baseline=base, regressed=True, family_size=len(comps), comparisons=comps),
        warnings=[f"warning {i}: " + "w" * 300 for i in range(50)],
    )


def _decided(report: Report) -> Report:
    """`report` with the verdict the statistics decide from its gate."""
    return report.model_copy(update={"verdict": decide(report.gate)})
