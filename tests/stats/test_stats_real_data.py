"""The statistics on real data: MMLU-Pro per-question correctness (see examples/README.md).

Expected numbers are recomputed here straight from the CSV (csv + gzip), independently
of the loader and the engine.
"""

from __future__ import annotations

import csv
import gzip
import pathlib
from collections import defaultdict

import numpy as np
import pytest

from leaderboard import build_report, load_runs

ROOT = pathlib.Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "examples" / "mmlu-pro-sample.csv.gz"
FULL = ROOT.parent / "shared" / "data" / "mmlu-pro-5shot.csv.gz"
PARTIAL = "DeepSeek-Coder-V2"


def _table(path: pathlib.Path) -> dict[str, dict[tuple[str, str], float]]:
    out: dict[str, dict[tuple[str, str], float]] = defaultdict(dict)
    with gzip.open(path, "rt", encoding="utf-8", newline="") as f:
        for rec in csv.DictReader(f):
            out[rec["model_id"]][(rec["task_id"], rec["item_id"])] = float(rec["score"])
    return out


def _mean(scores: dict[tuple[str, str], float], keep: set[tuple[str, str]] | None) -> float:
    by_task: dict[str, list[float]] = defaultdict(list)
    for key, s in scores.items():
        if keep is None or key in keep:
            by_task[key[0]].append(s)
    return float(np.mean([np.mean(v) for v in by_task.values()]))


def _check(path: pathlib.Path, resamples: int) -> None:
    table = _table(path)
    report = build_report(load_runs(path), resamples=resamples, seed=0)
    assert report.settings.unit == "cluster"
    rows = {r.model_id: r for r in report.leaderboard}
    assert set(rows) == set(table)
    for model, scores in table.items():
        # the mean is the equal-weight mean over tasks of plain per-task item means
        assert rows[model].mean_score == pytest.approx(_mean(scores, None), abs=1e-12)
        assert rows[model].mean_ci_lo < rows[model].mean_score < rows[model].mean_ci_hi
    n_items = max(len(s) for s in table.values())
    partial = rows[PARTIAL]
    assert not partial.complete
    assert len(table[PARTIAL]) < n_items
    assert any(
        w.startswith(f"{PARTIAL} misses {n_items - len(table[PARTIAL])} of")
        for w in report.warnings
    )
    # pairs with the incomplete model compare both models on the shared questions only
    for pair in report.pairwise:
        if PARTIAL not in (pair.model_a, pair.model_b):
            continue
        shared = set(table[pair.model_a]) & set(table[pair.model_b])
        expected = _mean(table[pair.model_a], shared) - _mean(table[pair.model_b], shared)
        assert pair.diff_mean == pytest.approx(expected, abs=1e-12)
    # ranks: the best and worst models are told apart from the rest
    ordered = report.leaderboard
    assert ordered[0].rank_lo == 1
    assert ordered[-1].rank_hi == len(ordered)


def test_sample__means_incomplete_model_and_shared_units() -> None:
    _check(SAMPLE, resamples=2000)


@pytest.mark.slow
@pytest.mark.skipif(not FULL.exists(), reason="full MMLU-Pro file not beside the project")
def test_full_file__means_incomplete_model_and_shared_units() -> None:
    _check(FULL, resamples=1000)
