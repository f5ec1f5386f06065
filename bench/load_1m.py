"""Load 1,000,000 records from JSON Lines and from CSV: time and peak memory.

Usage: ``python bench/load_1m.py [--records N] [--dir DIR]``. Writes the two files
(20 models x 50 tasks x 1,000 items, binary scores, clusters) once into DIR (a
temporary directory by default), then loads each in a fresh child process and prints
its wall time and peak resident set size (``ru_maxrss`` of the child; the baseline of
an idle interpreter with the package imported is printed beside it).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = """
import resource, sys, time
import leaderboard.inputs as records
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
runs = records.load_runs(sys.argv[1])
elapsed = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(f"{len(runs)} {elapsed:.2f} {base / 1024:.0f} {peak / 1024:.0f}")
"""


def write_files(directory: Path, records: int) -> tuple[Path, Path]:
    """Write `records` item-level records as JSONL and as CSV (same records)."""
    models, tasks = 20, 50
    items = max(1, records // (models * tasks))
    jsonl = directory / f"records-{records}.jsonl"
    csv = directory / f"records-{records}.csv"
    if jsonl.exists() and csv.exists():
        return jsonl, csv
    with jsonl.open("w") as jf, csv.open("w") as cf:
        cf.write("model_id,task_id,item_id,cluster,score,category\n")
        for m in range(models):
            for t in range(tasks):
                for i in range(items):
                    score = (m * 7 + t * 3 + i) % 4 != 0
                    model, task, cluster = f"model-{m:02d}", f"task-{t:02d}", f"c{i % 25}"
                    category = f"cat{t % 5}"
                    jf.write(
                        json.dumps(
                            {
                                "model_id": model,
                                "task_id": task,
                                "item_id": i,
                                "cluster": cluster,
                                "score": score,
                                "category": category,
                            }
                        )
                        + "\n"
                    )
                    cf.write(f"{model},{task},{i},{cluster},{int(score)},{category}\n")
    return jsonl, csv


def measure(path: Path) -> str:
    """Load `path` in a fresh interpreter; return its one-line figures."""
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(path)], check=True, capture_output=True, text=True
    ).stdout.split()
    count, seconds, base, peak = out
    return (
        f"{path.suffix[1:]:>5}: {int(count):,} records in {float(seconds):.1f} s, "
        f"peak RSS {int(peak)} MiB (idle interpreter {int(base)} MiB)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--dir", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        directory = args.dir or Path(tmp)
        directory.mkdir(parents=True, exist_ok=True)
        for path in write_files(directory, args.records):
            print(measure(path), flush=True)


if __name__ == "__main__":
    main()
