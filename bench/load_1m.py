"""Load 1,000,000 records from JSON Lines and from CSV: time and peak memory.

Usage: ``python bench/load_1m.py [--records N] [--dir DIR]`` (part of ``make bench``).
Writes the two files (20 models x 50 tasks x 1,000 items, binary scores, clusters)
once into DIR (a temporary directory by default), then loads each in a fresh child
process and prints its wall and CPU time and peak resident set size (``ru_maxrss`` of
the child; the baseline of an idle interpreter with the package imported is printed
beside it). For JSON Lines the same child also times a bare ``json.loads`` of every
line of the same file, interleaved with the loads (best of 3 of each): the target is
``load_runs`` within 2x of it. CPU time is the steadier figure on a shared machine.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = """
import json, resource, sys, time
import leaderboard.inputs as records
path = sys.argv[1]
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

def bare():
    with open(path, "rb") as handle:
        for line in handle:
            json.loads(line)

def timed(work):
    start, cpu = time.perf_counter(), time.process_time()
    result = work()
    return result, time.perf_counter() - start, time.process_time() - cpu

best = {"load": (1e9, 1e9), "bare": (1e9, 1e9)}
for _ in range(3):  # interleaved, best of 3: steadier on a shared machine
    runs, wall, cpu = timed(lambda: records.load_runs(path))
    count = len(runs)
    del runs
    best["load"] = min(best["load"], (cpu, wall))
    if path.endswith(".jsonl"):  # the same file, one bare json.loads a line
        _, wall, cpu = timed(bare)
        best["bare"] = min(best["bare"], (cpu, wall))
    else:
        best["bare"] = (0.0, 0.0)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
(cpu, elapsed), (bare_cpu, bare_wall) = best["load"], best["bare"]
figures = (count, elapsed, cpu, bare_wall, bare_cpu, base / 1024, peak / 1024)
print(" ".join(f"{x:.2f}" if isinstance(x, float) else str(x) for x in figures))
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
    """Load `path` in a fresh interpreter; return its figures (and the bare parse's)."""
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(path)],
        check=True,
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[1],  # this checkout's package, not the cwd's
    ).stdout.split()
    count, seconds, cpu, bare, bare_cpu, base, peak = out  # best of 3 each
    base, peak = str(round(float(base))), str(round(float(peak)))
    text = (
        f"{path.suffix[1:]:>5}: {int(count):,} records in {float(seconds):.1f} s "
        f"({float(cpu):.1f} s CPU), peak RSS {int(peak)} MiB (idle interpreter "
        f"{int(base)} MiB)"
    )
    if float(bare_cpu) > 0:
        text += (
            f"\n       bare json.loads of each line: {float(bare):.1f} s "
            f"({float(bare_cpu):.1f} s CPU); load_runs / bare = "
            f"{float(cpu) / float(bare_cpu):.2f}x CPU, "
            f"{float(seconds) / float(bare):.2f}x wall   (target <= 2x)"
        )
    return text


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
