"""promptfoo JSONL and EvalScope reviews read in memory bounded by their records.

Issue 30: a 1 GB file of either reads under 1 GiB peak. The readers used to keep a
parsed row per record until the file's metric was known (promptfoo: a tuple and a
dict of measures per row beside the records built at the end; EvalScope: each
sample's ``value`` dict), which took, on the files built here from the real
fixtures' rows (tracemalloc, bytes per row at the peak): promptfoo 1,344, EvalScope
650. Now promptfoo builds each record as its row is read, and EvalScope keeps only
the values of the metrics that may be chosen, in columns: 464 and 364. The bounds
below sit between the two, so the old design fails them.

What a record keeps (in bytes): an `EvalRun` (16 slots, about 150 with its header),
promptfoo's item id (about 100) and its three measures (24 each; its secondary
scores are one shared tuple); EvalScope's ``item_id`` (about 60). Each file is about
25 MB (``ROWS``), big enough that the fixed costs (imports happen before, buffers of
a few MiB) are a small share.
"""

from __future__ import annotations

import copy
import json
import tracemalloc
import warnings
from pathlib import Path
from typing import Any

import pytest

from leaderboard.inputs import load_runs

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
PROMPTFOO = FIXTURES / "promptfoo" / "own-run-0.121.20" / "results.jsonl"
EVALSCOPE = FIXTURES / "evalscope" / "v1" / "outputs" / "reviews" / "qwen-plus"
ROWS = {"promptfoo": 15_000, "evalscope": 40_000}
#: Bytes a row may cost at the peak (records kept and the reading's transients).
PEAK_PER_ROW = {"promptfoo": 800, "evalscope": 500}
FIXED = 4 * 2**20


def _rows(path: Path) -> list[dict[str, Any]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def _write_promptfoo(path: Path, n: int) -> None:
    """The fixture's rows again and again, each a test case of its own."""
    rows = _rows(PROMPTFOO)
    with path.open("w", encoding="utf-8") as out:
        for i in range(n):
            row = copy.deepcopy(rows[i % len(rows)])
            row["testIdx"] = i
            row["testCase"]["description"] = f"{row['testCase']['description']}-{i}"
            row["vars"] = {key: f"{value} #{i}" for key, value in row["vars"].items()}
            out.write(json.dumps(row) + "\n")


def _write_evalscope(path: Path, n: int) -> None:
    """The fixture's samples again and again, each a sample of its own."""
    rows = _rows(EVALSCOPE / "gsm8k_main.jsonl")
    path.parent.mkdir(parents=True)
    with path.open("w", encoding="utf-8") as out:
        for i in range(n):
            row = copy.deepcopy(rows[i % len(rows)])
            row["index"] = i
            row["sample_score"]["sample_id"] = row["sample_score"]["group_id"] = i
            out.write(json.dumps(row) + "\n")


def _peak(path: Path) -> tuple[int, int]:
    """(records read, peak bytes traced while reading `path`)."""
    tracemalloc.start()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the other scores' note
            runs = load_runs(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return len(runs), peak


@pytest.mark.slow
def test_promptfoo_jsonl__peak_memory_is_bounded_by_its_records(tmp_path: Path) -> None:
    n = ROWS["promptfoo"]
    path = tmp_path / "results.jsonl"
    _write_promptfoo(path, n)
    assert path.stat().st_size > 20e6
    read, peak = _peak(path)
    assert read == n
    assert peak <= PEAK_PER_ROW["promptfoo"] * n + FIXED, peak / n


@pytest.mark.slow
def test_evalscope_reviews__peak_memory_is_bounded_by_its_records(
    tmp_path: Path,
) -> None:
    n = ROWS["evalscope"]
    path = tmp_path / "outputs" / "reviews" / "qwen-plus" / "gsm8k_main.jsonl"
    _write_evalscope(path, n)
    assert path.stat().st_size > 20e6
    read, peak = _peak(path)
    assert read == n
    assert peak <= PEAK_PER_ROW["evalscope"] * n + FIXED, peak / n
