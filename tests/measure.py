"""Run a child Python process and measure it: exit status, output, peak RSS, seconds.

The hostile-input tests (issue 18) run each case in its own process under
``/usr/bin/time -f %M`` (or, without it, reaped with `os.wait4`, whose ``ru_maxrss``
then also counts the forking pytest process), and bound its peak resident set size by
`RSS_CAP`.
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
TIME = Path("/usr/bin/time")


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
    with (
        tempfile.TemporaryFile() as out,
        tempfile.TemporaryFile() as err,
        tempfile.NamedTemporaryFile("r") as peak,
    ):
        # Through /usr/bin/time when present: a child forked by this (large) pytest
        # process inherits its peak in ru_maxrss; one forked by `time` does not.
        timed = ["/usr/bin/time", "-f", "%M", "-o", peak.name] if TIME.exists() else []
        child = subprocess.Popen(
            [*timed, sys.executable, *args],
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
        kib = usage.ru_maxrss  # KiB on Linux
        if timed:
            told = peak.read().strip().splitlines()
            kib = int(told[-1]) if told and told[-1].isdigit() else kib
        return Measured(
            child.returncode,
            out.read().decode(errors="replace"),
            err.read().decode(errors="replace"),
            kib * 1024,
            time.perf_counter() - start,
        )


def report(paths: list[Path], *extra: str) -> list[str]:
    """Arguments of ``python -m leaderboard report PATHS --resamples 200 EXTRA``."""
    return ["-m", "leaderboard", "report", *map(str, paths), "--resamples", "200", *extra]
