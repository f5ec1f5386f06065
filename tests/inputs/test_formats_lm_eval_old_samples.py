"""lm-eval samples files written before the harness listed `metrics` on each line.

The real asdiv files of tests/fixtures/two_runs/ (lm-eval git 59170e85, August 2024)
carry `acc` on each line but no `metrics` or `filter` field; the metric names then come
from the results file's `higher_is_better`.
"""

from __future__ import annotations

import json
from pathlib import Path

from leaderboard.inputs import load_runs

ASDIV = Path(__file__).resolve().parents[1] / "fixtures" / "two_runs" / "lm-eval-asdiv"


def test_lm_eval_samples__without_a_metrics_field_use_higher_is_better() -> None:
    [path] = (ASDIV / "run-a").glob("samples_*.jsonl")
    lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
    assert all("metrics" not in doc and "filter" not in doc for doc in lines)
    runs = load_runs(path)
    assert [(r.task_id, r.item_id, r.score) for r in runs] == [
        ("asdiv/acc", str(doc["doc_id"]), float(doc["acc"])) for doc in lines
    ]
    assert {r.model_id for r in runs} == {"meta-llama/Meta-Llama-3-8B-Instruct"}
