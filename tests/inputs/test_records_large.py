"""Large input loads in memory proportional to the records, not to the file.

Measured with tracemalloc (not timed). The bound, per record kept:
an `EvalRun` is a slots dataclass of 9 references, 104 bytes with its GC header; its
list slot is 8; its own `score` float 24; ids are interned, so model, task, category
and the item ids shared by every model cost a fraction of a byte each. That is about
140 bytes; the test allows 200. Streaming means the peak exceeds what is kept by little:
the sort's key list and merge buffer (about 12 bytes a record) plus the reader's buffers.
A loader that read the whole file first would exceed that by the file's size (33 to
115 bytes a record here) plus the parsed objects (several hundred bytes a record).
``bench/load_1m.py`` gives the wall time and resident memory for 1,000,000 records.
"""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import pytest

from leaderboard.inputs import load_runs

MODELS, TASKS, ITEMS = 10, 20, 300  # 60,000 records
KEPT_PER_RECORD = 200
TRANSIENT_PER_RECORD = 16
TRANSIENT_FIXED = 4 * 2**20


def _write(directory: Path) -> tuple[Path, Path]:
    jsonl, csv = directory / "big.jsonl", directory / "big.csv"
    with jsonl.open("w", encoding="utf-8") as jf, csv.open("w", encoding="utf-8") as cf:
        cf.write("model_id,task_id,item_id,cluster,score,category\n")
        for m in range(MODELS):
            for t in range(TASKS):
                for i in range(ITEMS):
                    score = ((m * 7 + t * 3 + i * 13) % 10) / 10
                    record = {
                        "model_id": f"model-{m}",
                        "task_id": f"task-{t}",
                        "item_id": t * 1000 + i,
                        "cluster": f"c{i % 30}",
                        "score": score,
                        "category": f"cat{t % 4}",
                    }
                    jf.write(json.dumps(record) + "\n")
                    cf.write(
                        f"model-{m},task-{t},{t * 1000 + i},c{i % 30},{score},cat{t % 4}\n"
                    )
    return jsonl, csv


@pytest.mark.slow
def test_load_runs__memory_is_bounded_by_the_records(tmp_path: Path) -> None:
    n = MODELS * TASKS * ITEMS
    for path in _write(tmp_path):
        # once untraced first: msgspec is imported on the first large file (issue 31),
        # a fixed cost of about 0.6 MB that is no record's
        del load_runs(path)[:]
        tracemalloc.start()
        try:
            runs = load_runs(path)
            kept, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert len(runs) == n
        assert kept <= KEPT_PER_RECORD * n, (path.name, kept / n)
        assert peak - kept <= TRANSIENT_PER_RECORD * n + TRANSIENT_FIXED, (
            path.name,
            (peak - kept) / n,
        )
        del runs
