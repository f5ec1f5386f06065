"""Run a child Python process and measure it: exit status, output, peak RSS, seconds.

The hostile-input tests (issue 18) run each case in its own process, reaped with
`os.wait4` so that ``ru_maxrss`` is that child's own peak resident set size, and
bound it by `RSS_CAP`.
"""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The memory cap every hostile input must stay under (issue 18: 2 GiB RSS).
RSS_CAP = 2 * 2**30


@dataclasses.dataclass(frozen=True)
class Measured:
    code: int
    out: str
    err: str
    rss: int  # bytes
    seconds: float

    def line(self, name: str) -> str:
        mib = self.rss / 2**20
        return f"{name}: exit {self.code}, peak RSS {mib:.0f} MiB, {self.seconds:.1f} s"


def run_measured(args: list[str], *, cwd: Path = ROOT, timeout: float = 120) -> Measured:
    """Run ``python ARGS`` in `cwd`; its status, stdout, stderr, peak RSS and time.

    Output goes to temporary files (no pipe can fill up); the child is reaped with
    `os.wait4`, whose ``ru_maxrss`` is the child's own peak. Past `timeout` seconds
    it is killed (the status then says so: -9).
    """
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        child = subprocess.Popen(
            [sys.executable, *args],
            stdout=out,
            stderr=err,
            cwd=cwd,
            env={**os.environ, "OPENBLAS_NUM_THREADS": "1", "PYTHONPATH": str(ROOT)},
        )
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() - start > timeout:
                child.kill()
            time.sleep(0.02)
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Measured(
            child.returncode,
            out.read().decode(errors="replace"),
            err.read().decode(errors="replace"),
            usage.ru_maxrss * 1024,  # KiB on Linux
            time.perf_counter() - start,
        )


def report(paths: list[Path], *extra: str) -> list[str]:
    """Arguments of ``python -m leaderboard report PATHS --resamples 200 EXTRA``."""
    return ["-m", "leaderboard", "report", *map(str, paths), "--resamples", "200", *extra]
