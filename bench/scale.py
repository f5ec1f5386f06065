"""How build_report scales with items and with models (part of ``make bench``).

Each size runs in a process of its own (``python bench/scale.py --one KIND SIZE``),
which makes the records (bench/run.py's `make_runs`: binary items, 10 tasks), times
`build_report` with 10,000 resamples (wall and CPU) and reads its peak resident set
size (VmHWM, records included). Printed per size, then the ratios and exponents:

- items: 2 models x 1,000 ... 1,000,000 binary items, a baseline (one gated
  comparison with its per-task rows). Goals: under 20 s and 1.5 GiB at 1,000,000;
  exponent ``log(t_1M / t_1k) / log(1000)`` at most 1.0, and no step between sizes.
- models: 50, 100 and 200 models x 1,000 items, no gate (every pair and the rank
  ranges). Goals: 200 models under 400 MB and under 5x the time of 50.

Reading files is not part of it (bench/load_1m.py times that). CPU time is the
steadier figure on a shared machine; run it more than once and read the spread.

Usage: ``python bench/scale.py [items|models] [--repeat N]``.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import itertools
import json
import math
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from run import make_runs, peak_rss_kib  # bench/run.py, beside this file

ITEMS = (1_000, 10_000, 100_000, 1_000_000)
MODELS = (50, 100, 200)
TASKS = 10


def one(kind: str, size: int) -> dict[str, float]:
    """Time one build_report in this process; the figures as a dict."""
    from leaderboard import build_report  # noqa: PLC0415

    if kind == "items":
        runs = make_runs(2, TASKS, size // TASKS)
        kwargs: dict[str, object] = {"baseline": "model-00"}
    else:
        runs = make_runs(size, TASKS, 1_000 // TASKS)
        kwargs = {}
    t0, c0 = time.perf_counter(), time.process_time()
    build_report(runs, resamples=10_000, **kwargs)  # type: ignore[arg-type]
    return {
        "wall": time.perf_counter() - t0,
        "cpu": time.process_time() - c0,
        "rss_mib": peak_rss_kib() / 1024,
    }


def measure(kind: str, sizes: tuple[int, ...], repeat: int) -> None:
    got: dict[int, list[dict[str, float]]] = {s: [] for s in sizes}
    for _ in range(repeat):  # interleaved: a busy spell spreads over every size
        for size in sizes:
            out = subprocess.run(
                [sys.executable, __file__, "--one", kind, str(size)],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            got[size].append(json.loads(out))
    label = "2 models x N items" if kind == "items" else "M models x 1,000 items"
    print(f"{label}, 10,000 resamples ({repeat} runs: min / median)")
    print("      size      wall (s)          CPU (s)        peak RSS (MiB)")
    best: dict[int, float] = {}
    for size in sizes:
        runs = got[size]
        cpu = [r["cpu"] for r in runs]
        wall = [r["wall"] for r in runs]
        best[size] = min(cpu)
        print(
            f"  {size:>9,}  {min(wall):7.2f} / {statistics.median(wall):6.2f}"
            f"  {min(cpu):7.2f} / {statistics.median(cpu):6.2f}"
            f"  {max(r['rss_mib'] for r in runs):8.0f}"
        )
    lo, hi = sizes[0], sizes[-1]
    ratio = best[hi] / best[lo]
    print(
        f"  CPU {hi:,} / {lo:,}: {ratio:.2f}x, exponent "
        f"{math.log(ratio) / math.log(hi / lo):.2f}"
    )
    steps = [best[b] / best[a] / (b / a) for a, b in itertools.pairwise(sizes)]
    print("  per-unit cost from size to size: " + ", ".join(f"{s:.2f}" for s in steps))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "kind", nargs="?", choices=["items", "models", "both"], default="both"
    )
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--one", nargs=2, metavar=("KIND", "SIZE"))
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one(args.one[0], int(args.one[1]))))
        return
    if args.kind in ("items", "both"):
        measure("items", ITEMS, args.repeat)
        sys.stdout.flush()
    if args.kind in ("models", "both"):
        measure("models", MODELS, args.repeat)


if __name__ == "__main__":
    main()
