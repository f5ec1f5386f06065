"""Benchmark of the statistical core (`make bench`); prints figures, asserts nothing.

(a) the full `build_report` for 20 models x 2,000 items (20 tasks of 100 binary items)
    x 10,000 resamples, against the bare work timed in the same process: drawing the
    resample counts for the 2,000 items and one matrix product counts @ scores; wall
    and CPU time (the steadier on a shared machine). Target: <= 1.5x.
(b) against `scipy.stats.bootstrap` called once per interval the report shows (20 model
    intervals + 190 pairwise intervals), timed on a few calls and extrapolated.
    Target: >= 100x.
(c) peak memory of `build_report` for 50 models x 10,000 items (20 tasks of 500) x
    10,000 resamples, in a fresh process (tracemalloc peak of the call, and the process'
    maximum resident set size). Target: < 2 GB.
"""

from __future__ import annotations

import os

# One BLAS thread for both sides of every comparison: stable figures on a shared machine.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import resource
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable

import numpy as np

from leaderboard import EvalRun, build_report

B = 10_000


def make_runs(models: int, tasks: int, items: int, seed: int = 0) -> list[EvalRun]:
    rng = np.random.default_rng(seed)
    difficulty = rng.beta(2, 2, (tasks, items))
    runs = []
    for m in range(models):
        skill = rng.normal(0, 0.5)
        p = 1 / (1 + np.exp(-(np.log(difficulty / (1 - difficulty)) + skill)))
        won = rng.random(p.shape) < p
        runs += [
            EvalRun(f"model-{m:02d}", f"task-{t:02d}", float(won[t, i]), item_id=i)
            for t in range(tasks)
            for i in range(items)
        ]
    return runs


def bare_work(scores: np.ndarray, seed: int = 0) -> np.ndarray:
    """Draw B x N multinomial counts (integers + bincount) and one matrix product."""
    n = scores.shape[0]
    rng = np.random.default_rng(seed)
    out = np.empty((B, scores.shape[1]))
    for r0 in range(0, B, 1024):
        rows = min(1024, B - r0)
        idx = rng.integers(0, n, size=(rows, n))
        idx += (np.arange(rows) * n)[:, None]
        counts = np.bincount(idx.ravel(), minlength=rows * n).reshape(rows, n)
        out[r0 : r0 + rows] = counts.astype(np.float64) @ scores
    return out


def best_of(
    fs: dict[str, Callable[[], object]], rounds: int = 7
) -> tuple[dict[str, float], dict[str, float]]:
    """Best wall and best CPU time of each function over interleaved rounds.

    CPU time (`time.process_time`) is the steadier figure on a shared machine: a
    round that waits for a core counts in its wall time only.
    """
    wall = dict.fromkeys(fs, float("inf"))
    cpu = dict.fromkeys(fs, float("inf"))
    for _ in range(rounds):
        for name, f in fs.items():
            t0, c0 = time.perf_counter(), time.process_time()
            f()
            wall[name] = min(wall[name], time.perf_counter() - t0)
            cpu[name] = min(cpu[name], time.process_time() - c0)
    return wall, cpu


def speed() -> None:
    runs = make_runs(20, 20, 100)
    scores = np.array([r.score for r in runs]).reshape(20, 2000).T.copy()
    wall, cpu = best_of(
        {
            "full": lambda: build_report(runs, resamples=B, baseline="model-00"),
            "bare": lambda: bare_work(scores),
        }
    )
    full, bare = wall["full"], wall["bare"]
    print("(a) 20 models x 2,000 items x 10,000 resamples (best of 7, interleaved)")
    print("                                   wall        CPU")
    print(f"    full build_report          {full:8.3f} s {cpu['full']:8.3f} s")
    print(f"    bare counts + one matmul   {bare:8.3f} s {cpu['bare']:8.3f} s")
    ratio_cpu = cpu["full"] / cpu["bare"]
    print(
        f"    ratio                      {full / bare:8.2f} x {ratio_cpu:8.2f} x"
        "   (target <= 1.5x)"
    )

    from scipy import stats  # noqa: PLC0415

    calls = 3
    x = scores[:, 0]
    t0 = time.perf_counter()
    for s in range(calls):
        stats.bootstrap(
            (x,), np.mean, n_resamples=B, method="percentile", vectorized=True, rng=s
        )
    per_call = (time.perf_counter() - t0) / calls
    intervals = 20 + 190
    print(
        "(b) scipy.stats.bootstrap, percentile method (its fastest), one call per interval"
    )
    print(f"    per call (mean of {calls})        {per_call:8.3f} s")
    print(f"    x {intervals} intervals (extrapolated) {per_call * intervals:8.1f} s")
    print(
        f"    speed-up of build_report   {per_call * intervals / full:8.0f} x"
        "   (target >= 100x)"
    )


def peak_rss_kib() -> int:
    """This process' own peak resident set size, in KiB.

    Linux carries the parent's high-water mark over an exec into ``ru_maxrss`` (the
    memory run is started by the speed run, which had grown first), so the figure is
    read from ``VmHWM`` in /proc/self/status, which a new program starts afresh;
    ``ru_maxrss`` where /proc is missing.
    """
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def memory() -> None:
    runs = make_runs(50, 20, 500)
    tracemalloc.start()
    t0 = time.perf_counter()
    build_report(runs, resamples=B)
    seconds = time.perf_counter() - t0
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss = peak_rss_kib() / 1024**2  # KiB -> GiB
    print("(c) 50 models x 10,000 items x 10,000 resamples (500,000 records)")
    print(f"    build_report time          {seconds:8.1f} s")
    print(f"    tracemalloc peak (call)    {peak / 1024**3:8.2f} GiB")
    print(f"    max RSS (whole process)    {rss:8.2f} GiB   (target < 2 GB)")


if __name__ == "__main__":
    if sys.argv[1:] == ["--memory"]:
        memory()
    else:
        speed()
        sys.stdout.flush()
        subprocess.run([sys.executable, __file__, "--memory"], check=True)
