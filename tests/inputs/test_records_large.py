"""Large input loads in memory proportional to the records, not to the file.

Measured with tracemalloc (not timed). The bound, per record kept:
an `EvalRun` is a slots dataclass of 16 references, 160 bytes with its GC header; its
list slot is 8; its own `score` float 24; ids are interned, so model, task, category
and the item ids shared by every model cost a few bytes a record (5 here: 6,000 item
ids over 10 models). That is about 198 bytes; the test allows 200. Not counted: the
interpreter's one table of interned strings, which a load may make grow (one block,
2 MB when the test suite's own imports have filled it near its next size): a fixed
cost of the process, whatever the file.

Streaming means the peak exceeds what is kept by little: the sort's key list and
merge buffer (about 12 bytes a record) plus the reader's buffers. A loader that read
the whole file first would exceed that by the file's size (33 to 115 bytes a record
here) plus the parsed objects (several hundred bytes a record).
``bench/load_1m.py`` gives the wall time and resident memory for 1,000,000 records.
"""

from __future__ import annotations

import json
import linecache
import tracemalloc
from pathlib import Path

import pytest

from leaderboard.inputs import load_runs

MODELS, TASKS, ITEMS = 10, 20, 300  # 60,000 records
KEPT_PER_RECORD = 200
TRANSIENT_PER_RECORD = 16
TRANSIENT_FIXED = 4 * 2**20


def _kept_by_records(snapshot: tracemalloc.Snapshot) -> int:
    """Bytes still held, without the interpreter's table of interned strings: one
    block of 256 KiB to 4 MiB allocated on a line that interns (no id is that long).
    More than one such block, or a larger one, is not the table: it fails here."""
    kept, table = 0, []
    for trace in snapshot.traces:
        frame = trace.traceback[0]
        line = linecache.getline(frame.filename, frame.lineno)
        if trace.size >= 2**18 and "intern" in line:
            table.append(trace.size)
            continue
        kept += trace.size
    assert len(table) <= 1, table
    assert sum(table) <= 4 * 2**20, table
    return kept


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
            held, peak = tracemalloc.get_traced_memory()
            kept = _kept_by_records(tracemalloc.take_snapshot())
            peak -= held - kept  # the table was allocated once and is still held
        finally:
            tracemalloc.stop()
        assert len(runs) == n
        assert kept <= KEPT_PER_RECORD * n, (path.name, kept / n)
        assert peak - kept <= TRANSIENT_PER_RECORD * n + TRANSIENT_FIXED, (
            path.name,
            (peak - kept) / n,
        )
        del runs
