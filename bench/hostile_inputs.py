"""Issue 30's hostile inputs at their full sizes: exit status, peak memory, seconds.

Usage: ``python bench/hostile_inputs.py [--dir DIR] [--timeout S] [--code CHECKOUT]
[NAME...]``. Writes each case (`tests.inputs.hostile_round4`) into DIR (a temporary
directory by default, removed after), runs ``python -m leaderboard report`` on it in
a child process under ``/usr/bin/time`` (peak RSS of the child) with the package of
CHECKOUT (default: this one; another checkout gives the "before" of the issue's
closing note) and prints one line a case. Asserts nothing; the CI-sized versions are
`tests/inputs/test_inputs_hostile_round4.py`.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.inputs.hostile_round4 import CASES  # noqa: E402
from tests.measure import report  # noqa: E402

#: The issue's sizes.
FULL = {
    "eval_many_entries_header_first": 4_000_000,  # 228 MB
    "eval_many_entries_one_declared": 4_000_000,
    "livecodebench_graded_list": 15_000_000,  # 75 MB
    "swebench_resolved_ids": 10_000_000,  # 110 MB, within the 128 MiB document
    "lighteval_many_tasks": 150_000,  # 6 MB
    "helm_many_statistics": 20_000,  # 3 MB
    "evalscope_many_metric_names": 20_000,
    "eval_retry_other_model": 0,
    "lm_eval_metric_key_escape": 0,
    "lm_eval_metric_key_line_separator": 0,
}


def measure(args: list[str], code: Path, timeout: float) -> tuple[int, float, float, str]:
    """(exit status, peak RSS in MiB, seconds, last line of stderr) of ``python ARGS``."""
    with tempfile.NamedTemporaryFile("r") as peak, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        try:
            code_ = subprocess.run(
                ["/usr/bin/time", "-f", "%M", "-o", peak.name, sys.executable, *args],
                stdout=subprocess.DEVNULL,
                stderr=err,
                env={**os.environ, "PYTHONPATH": str(code), "OPENBLAS_NUM_THREADS": "1"},
                cwd=code,  # `python -m` puts the working directory first on the path
                timeout=timeout,
                check=False,
            ).returncode
        except subprocess.TimeoutExpired:
            code_ = -9
        seconds = time.perf_counter() - start
        told = peak.read().strip().splitlines()
        kib = int(told[-1]) if told and told[-1].isdigit() else 0
        err.seek(0)
        lines = err.read().decode(errors="replace").strip().splitlines()
    return code_, kib / 1024, seconds, (lines or [""])[-1][:160]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", default=list(FULL))
    parser.add_argument("--dir", type=Path)
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--code", type=Path, default=ROOT)
    args = parser.parse_args()
    for name in args.names:
        folder = Path(tempfile.mkdtemp(prefix=f"{name}-", dir=args.dir))
        try:
            paths = CASES[name](folder, FULL.get(name, 0))
            size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
            code, mib, seconds, told = measure(report(paths), args.code, args.timeout)
            print(
                f"{name}: exit {code}, peak RSS {mib:.0f} MiB, {seconds:.1f} s, "
                f"input {size / 1e6:.0f} MB: {told}",
                flush=True,
            )
        finally:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
