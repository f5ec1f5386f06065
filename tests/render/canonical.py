"""Canonical comments: one per state a reviewer meets, rendered from hand-built reports.

The layout tests (`test_render_layout.py`) measure these in a real browser, and
`scripts/screenshots.py` photographs the first one for the docs.
"""

from __future__ import annotations

from collections.abc import Callable

from leaderboard.render.comment import CommentContext, render_comment, render_failure
from leaderboard.report import (
    BaselineRun,
    FlakyItem,
    Flips,
    Gate,
    GateComparison,
    ItemAnswers,
    ItemMove,
    KeptMean,
    PairwiseDiff,
    Report,
    ScopeDiff,
    TrendPoint,
)
from tests.conftest import with_gate
from tests.render.render_samples import golden_report, row

CTX = CommentContext(
    head_sha="0123456789abcdef0123456789abcdef01234567",
    run_url="https://github.com/octo/evals/actions/runs/42",
    summary_url="https://github.com/octo/evals/actions/runs/42#summary-1",
    docs_url="https://github.com/OWNER/leaderboard-action/blob/v1/docs/statistics.md",
)

# Real model ids (from examples/mmlu-pro-sample.csv.gz and common releases): long,
# hyphenated, the widths a leaderboard meets.
MODEL_IDS = [
    "Meta-Llama-3_1-70B-Instruct",
    "Qwen2.5-72B-Instruct",
    "Mixtral-8x22B-Instruct-v0.1",
    "DeepSeek-Coder-V2",
    "Meta-Llama-3_1-8B-Instruct",
    "gemma-2-27b-it",
    "Phi-3-medium-128k-instruct",
    "Yi-1.5-34B-Chat",
    "Mistral-Nemo-Instruct-2407",
    "Meta-Llama-3_1-8B",
]


def regressed_report() -> Report:
    """The golden report, where `cand-b` regressed, with where it moved."""
    report = golden_report()
    gate = report.gate
    cand_b = gate.comparisons[1].model_copy(
        update={
            "breakdown": [
                ScopeDiff(
                    scope="category:code",
                    diff_mean=-0.080,
                    ci_lo=-0.112,
                    ci_hi=-0.047,
                    family_ci_lo=-0.121,
                    family_ci_hi=-0.038,
                    shared_units=20,
                    moved=True,
                ),
                ScopeDiff(
                    scope="category:math",
                    diff_mean=-0.014,
                    ci_lo=-0.041,
                    ci_hi=0.012,
                    family_ci_lo=-0.050,
                    family_ci_hi=0.021,
                    shared_units=20,
                ),
            ],
            "flips": Flips(
                pass_to_fail=31,
                fail_to_pass=12,
                shared_items=400,
                noise_each_way=22,  # (31 + 12) / 2, halves up
                beyond_noise=True,
            ),
        }
    )
    return report.model_copy(
        update={
            "gate": gate.model_copy(update={"comparisons": [gate.comparisons[0], cand_b]})
        }
    )


def epoch_flips_report() -> Report:
    """The regressed report with epochs: the flips line with the noise the epochs give,
    uneven between the directions (different epochs per run), at four-digit counts."""
    report = regressed_report()
    comps = [
        c.model_copy(
            update={
                "flips": Flips(
                    pass_to_fail=1_262,
                    fail_to_pass=694,
                    shared_items=12_000,
                    rule="pass/fail samples averaged per item; an item passes when at "
                    "least 0.5 of its samples (epochs) pass",
                    noise_from="epochs",
                    noise_each_way=702,
                    noise_pass_to_fail=731.4,
                    noise_fail_to_pass=672.9,
                    beyond_noise=True,
                )
            }
        )
        if c.flips is not None
        else c
        for c in report.gate.comparisons
    ]
    return with_gate(report, report.gate.model_copy(update={"comparisons": comps}))


#: Answers as long as the readers keep (160 characters), with a word too long to
#: wrap and markdown, HTML and workflow commands that must stay text.
LONG_ANSWERS = [
    ItemAnswers(
        input="A train leaves Boston at 3 pm travelling at 60 miles per hour toward "
        "Chicago, while another leaves Chicago at 4 pm at 75 miles per hour; when …",
        baseline="They meet at about 11:20 pm, roughly 480 miles from Boston.",
        candidate="::error::<b>**They never meet**</b> because "
        + "https://example.com/"
        + "x" * 80
        + " …",
    ),
    ItemAnswers(
        input="Translate to French: the cat sleeps on the mat",
        baseline="Le chat dort sur le tapis.",
        candidate="",
    ),
    ItemAnswers(input=None, baseline=None, candidate="`def f(): return 1` | a | b |"),
]


def answers_report() -> Report:
    """The regressed report with the items that dropped most and what they answered
    (long ones: the readers keep 160 characters), as a private repository shows it."""
    report = regressed_report()
    items = [
        ItemMove(
            task="reasoning",
            item_id=f"reasoning-{n:03d}",
            baseline_score=1.0,
            candidate_score=0.0,
            answers=answers,
        )
        for n, answers in enumerate(LONG_ANSWERS, 1)
    ]
    comps = [
        c.model_copy(update={"worst_items": items}) if c.regressed else c
        for c in report.gate.comparisons
    ]
    return with_gate(report, report.gate.model_copy(update={"comparisons": comps}))


def pass_report() -> Report:
    report = golden_report()
    comps = [
        c.model_copy(
            update={
                "diff_mean": -0.004,
                "ci_lo": -0.027,
                "ci_hi": 0.019,
                "regressed": False,
                "status": "no_regression",
            }
        )
        if c.candidate == "cand-b"
        else c
        for c in report.gate.comparisons
    ]
    gate = report.gate.model_copy(
        update={"comparisons": comps, "regressed": False, "status": "no_regression"}
    )
    return with_gate(report, gate, warnings=[])


def guardrail_report() -> Report:
    """The passing report whose cost guardrail is breached, latency shown, not gated."""
    report = pass_report()
    first = report.gate.comparisons[0]
    common = {
        "candidate": MODEL_IDS[0],
        "baseline": f"{MODEL_IDS[0]} @ main",
        "scope": "overall",
        "direction": "lower_is_better",
        "relative": True,
        "confidence": first.confidence,
        "min_detectable_regression": 0.19,
        "shared_units": 120,
        "shared_tasks": 4,
    }
    cost = GateComparison(
        measure="cost",
        candidate_mean=0.004213,
        baseline_mean=0.003216,
        diff_mean=0.31,
        ci_lo=0.22,
        ci_hi=0.41,
        margin=0.10,
        regressed=True,
        **common,
    )
    faith = GateComparison(
        **{**common, "direction": "higher_is_better", "relative": False},
        measure="faithfulness",
        candidate_mean=0.871,
        baseline_mean=0.880,
        diff_mean=-0.009,
        ci_lo=-0.031,
        ci_hi=0.013,
        margin=0.02,
        regressed=False,
    )
    latency = GateComparison(
        **{**common, "confidence": 0.95, "min_detectable_regression": None},
        measure="latency",
        candidate_mean=2.41,
        baseline_mean=2.52,
        diff_mean=-0.044,
        ci_lo=-0.121,
        ci_hi=0.039,
        margin=0.0,
        regressed=False,
    )
    gate = report.gate.model_copy(
        update={
            "comparisons": [*report.gate.comparisons, cost, faith],
            "not_gated": [latency],
            "regressed": True,
            "status": "regressed",
            "family_size": report.gate.family_size + 2,
        }
    )
    return with_gate(report, gate)


def cannot_tell_report() -> Report:
    report = golden_report()
    comp = GateComparison(
        candidate="cand-a",
        baseline="base",
        scope="overall",
        diff_mean=-0.020,
        ci_lo=-1.0,
        ci_hi=1.0,
        confidence=0.95,
        margin=0.01,
        regressed=False,
        status="undetermined",
        note="one shared task carries no spread; item-level records would settle it",
        min_detectable_regression=None,
        shared_tasks=1,
        shared_units=1,
    )
    gate = Gate(
        baseline="base",
        regressed=False,
        status="undetermined",
        adjustment="none",
        family_size=1,
        comparisons=[comp],
    )
    return with_gate(report, gate)


def no_gate_report() -> Report:
    return with_gate(golden_report(), Gate(baseline=None, regressed=False))


def no_baseline_run_report() -> Report:
    gate = Gate(
        baseline=None,
        regressed=False,
        status="no_baseline_run",
        note="no run is stored on `leaderboard-history` for main yet (the first push "
        "to main stores one)",
        baseline_run=BaselineRun(label="main", source="history", branch="main"),
    )
    return with_gate(golden_report(), gate, warnings=[])


def models_30_report() -> Report:
    """30 models with real-length ids, one baseline, 29 gated candidates."""
    ids = [f"{MODEL_IDS[i % 10]}" + ("" if i < 10 else f"-r{i // 10}") for i in range(30)]
    rows = [
        row(
            i + 1,
            m,
            0.82 - 0.012 * i,
            half=0.03,
            rank_lo=max(1, i - 1),
            rank_hi=min(30, i + 3),
            categories={"code": 0.8 - 0.01 * i, "math": 0.84 - 0.014 * i},
        )
        for i, m in enumerate(ids)
    ]
    base = ids[4]
    comps = [
        GateComparison(
            candidate=m,
            baseline=base,
            scope="overall",
            diff_mean=round(0.772 - 0.012 * i - 0.772 + 0.012 * 4, 3),
            ci_lo=round(-0.012 * (i - 4) - 0.021, 3),
            ci_hi=round(-0.012 * (i - 4) + 0.021, 3),
            confidence=1 - 0.05 / 29,
            margin=0.0,
            regressed=-0.012 * (i - 4) + 0.021 < 0,
            min_detectable_regression=0.034,
            shared_tasks=40,
            shared_units=40,
        )
        for i, m in enumerate(ids)
        if m != base
    ]
    pairs = [
        PairwiseDiff(
            model_a=a.model_id,
            model_b=b.model_id,
            diff_mean=round(a.mean_score - b.mean_score, 3),
            ci_lo=round(a.mean_score - b.mean_score - 0.03, 3),
            ci_hi=round(a.mean_score - b.mean_score + 0.03, 3),
            significant=a.mean_score - b.mean_score > 0.03,
        )
        for k, a in enumerate(rows)
        for b in rows[k + 1 :]
    ]
    report = golden_report()
    return report.model_copy(
        update={
            "leaderboard": rows,
            "pairwise": pairs,
            "gate": Gate(
                baseline=base,
                regressed=any(c.regressed for c in comps),
                family_size=len(comps),
                comparisons=comps,
            ),
            "settings": report.settings.model_copy(
                update={"baseline": base, "candidates": [], "margin": 0.0}
            ),
            "data": report.data.model_copy(update={"models": 30}),
            "warnings": [
                f"{ids[29]} misses 2 of 40 tasks; its mean covers 38 tasks",
                "2 records had no category; they count as general",
            ],
        }
    )


FAILURE_MESSAGE = (
    "/home/runner/work/evals/evals/results/run.jsonl, line 7, field `score`: 1.5 is "
    "outside [0, 1] (scores must be normalised to [0, 1])"
)


TREND_RUNS = 12  # kept runs drawn, the baseline's the last
TREND_STEP = 8  # cand-b's kept run that drops well outside the runs before it


def _sha(i: int) -> str:
    return f"{i:x}{'7c0ffee' * 6}"[:40]


def trend_report() -> Report:
    """The regressed report gated against the kept history: 12 kept runs of both
    models (cand-b steps down at run 8), flaky items in its flip list."""
    report = regressed_report()
    gate = report.gate
    trend = []
    for i in range(TREND_RUNS):
        b = 0.74 - (0.06 if i >= TREND_STEP else 0.0) + 0.004 * ((i * 7) % 3 - 1)
        a = 0.71 + 0.003 * ((i * 5) % 4 - 1.5)
        trend.append(
            TrendPoint(
                commit=_sha(i),
                stored_at=f"2026-11-{i + 1:02d}T10:00:00Z",
                models={
                    "cand-a": KeptMean(mean=a, lo=a - 0.02, hi=a + 0.02),
                    "cand-b": KeptMean(mean=b, lo=b - 0.02, hi=b + 0.02),
                },
            )
        )
    run = BaselineRun(
        label="main 7c0ffee",
        source="history",
        branch="main",
        commit=_sha(TREND_RUNS - 1),
        stored_at="2026-11-12T10:00:00Z",
        commits_behind=0,
        trend=trend,
    )
    worst = [
        ItemMove(
            task="code",
            item_id="humaneval-042",
            baseline_score=1.0,
            candidate_score=0.0,
            flaky=True,
            flaky_why=["epochs", "history"],
        ),
        ItemMove(
            task="code", item_id="humaneval-117", baseline_score=1.0, candidate_score=0.0
        ),
    ]
    three = {"baseline_samples": 3, "candidate_samples": 3, "flaky": True}
    flaky = [
        FlakyItem(
            task="code",
            item_id="humaneval-042",
            baseline_score=2 / 3,
            candidate_score=1 / 3,
            flipped=True,
            flaky_why=["epochs", "history"],
            history=[1.0, 0.0, 1.0, 1.0],
            **three,
        ),
        FlakyItem(
            task="math",
            item_id="gsm8k-0193",
            baseline_score=1 / 3,
            candidate_score=1 / 3,
            flipped=False,
            flaky_why=["epochs"],
            **three,
        ),
    ]
    comps = [
        c.model_copy(update={"worst_items": worst, "flaky_items": flaky, "flaky_runs": 5})
        if c.flips is not None
        else c
        for c in gate.comparisons
    ]
    return with_gate(
        report, gate.model_copy(update={"comparisons": comps, "baseline_run": run})
    )


def failure_comment() -> str:
    ctx = CommentContext(
        head_sha=CTX.head_sha,
        run_url=CTX.run_url,
        docs_url=CTX.docs_url,
        workspace="/home/runner/work/evals/evals",
    )
    return render_failure(FAILURE_MESSAGE, ctx)


CANONICAL: dict[str, Callable[[], str]] = {
    "regressed": lambda: render_comment(regressed_report(), CTX),
    "answers": lambda: render_comment(answers_report(), CTX),
    "pass": lambda: render_comment(pass_report(), CTX),
    "epoch-flips": lambda: render_comment(epoch_flips_report(), CTX),
    "guardrail": lambda: render_comment(guardrail_report(), CTX),
    "cannot-tell": lambda: render_comment(cannot_tell_report(), CTX),
    "no-gate": lambda: render_comment(no_gate_report(), CTX),
    "no-baseline-run": lambda: render_comment(no_baseline_run_report(), CTX),
    "models-30": lambda: render_comment(models_30_report(), CTX),
    "trend": lambda: render_comment(trend_report(), CTX),
    "failure": failure_comment,
}
