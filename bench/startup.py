"""The everyday pull request's run against its floors (part of ``make bench``).

Times, each in a fresh interpreter and interleaved over rounds (min and median of
wall and CPU time, the CPU time of the child from `resource.getrusage`):

- ``python -c pass``: the interpreter alone;
- ``python -c "import numpy, pydantic, jinja2"``: the bare imports, the floor the CLI
  is held to (goal: the CLI within 2.0x of it, wall and CPU);
- the same imports with the cyclic collector paused and what they made frozen, as
  the command imports its modules (`leaderboard.__main__`): the ratio against it is
  printed too, so that the collector's share of the gain is seen both ways;
- ``python -c "import leaderboard"``: the package's import;
- ``python -m leaderboard report FILE --baseline base``: the CLI on 2 models x 500
  binary items (5 tasks of 100), written once to a temporary file.

The action's container run is held to 2.0x ``python -c pass`` in its image; that
needs the image (podman), so here the in-process equivalent is printed: the CLI and
``import leaderboard.action`` against ``python -c pass`` on this machine.

Every child must end as it should: the imports with status 0 and no output, the CLI
with status 0 (the seeded records' verdict is no regression), its comment on standard
output and nothing on standard error. Anything else stops the bench with the child's
output (a failed import is reported, never timed). The ratios are printed min over
min and median over median, with the load average before and after.

Byte-compiled modules are what users run (pip and the image compile them), so the
package is compiled first (``compileall``) and the children run without
``PYTHONDONTWRITEBYTECODE``.

Usage: ``python bench/startup.py [--rounds N]``.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import leaderboard

ROOT = Path(__file__).resolve().parents[1]


def write_records(path: Path) -> None:
    rng = random.Random(0)
    with path.open("w") as out:
        for model in ("base", "cand"):
            for t in range(5):
                for i in range(100):
                    score = float(rng.random() < 0.6)
                    rec = {
                        "model_id": model,
                        "task_id": f"t{t}",
                        "item_id": i,
                        "score": score,
                    }
                    out.write(json.dumps(rec) + "\n")


class Child(NamedTuple):
    """A command to time and what its output must be; each must exit 0: a child that
    fails (an import error, a changed verdict) is reported, not timed."""

    cmd: list[str]
    stdout: Callable[[str], bool] = lambda out: out == ""


def timed(child: Child, env: dict[str, str]) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    # from this checkout: ``python -c`` and ``-m`` import the current folder's package
    # first, whatever PYTHONPATH says
    done = subprocess.run(child.cmd, env=env, capture_output=True, check=False, cwd=ROOT)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    out, err = done.stdout.decode(errors="replace"), done.stderr.decode(errors="replace")
    if done.returncode != 0 or err or not child.stdout(out):
        raise SystemExit(
            f"{child.cmd} exited {done.returncode} (expected 0); "
            f"stdout {out[-300:]!r}; stderr {err[-500:]!r}"
        )
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


Timings = dict[str, list[tuple[float, float]]]


def table(title: str, got: Timings) -> dict[str, tuple[float, float]]:
    """Print each command's min / median wall and CPU time; return their minima."""
    print(title)
    print("                              wall (s)          CPU (s)")
    best = {}
    for name, runs in got.items():
        wall, cpu = [w for w, _ in runs], [c for _, c in runs]
        best[name] = (min(wall), min(cpu))
        print(
            f"  {name:<26} {min(wall):6.3f} / {statistics.median(wall):6.3f}"
            f"   {min(cpu):6.3f} / {statistics.median(cpu):6.3f}"
        )
    return best


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args()
    package = Path(leaderboard.__file__).parent
    compileall.compile_dir(str(package), quiet=1)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(package.parent)
    py = sys.executable
    load = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        records = Path(tmp) / "pr.jsonl"
        write_records(records)
        # the seeded records give this verdict: any other output (or status) is a
        # failed run, not a time
        verdict = "🟢 **No regression**: **cand** vs **base**"
        cmds = {
            "python -c pass": Child([py, "-c", "pass"]),
            "bare imports": Child([py, "-c", "import numpy, pydantic, jinja2"]),
            "bare imports, frozen": Child(
                [
                    py,
                    "-c",
                    "import gc; gc.disable(); import numpy, pydantic, jinja2; "
                    "gc.freeze(); gc.enable()",
                ]
            ),
            "import leaderboard": Child([py, "-c", "import leaderboard"]),
            "import leaderboard.action": Child([py, "-c", "import leaderboard.action"]),
            "CLI, 2 x 500": Child(
                [py, "-m", "leaderboard", "report", str(records), "--baseline", "base"],
                stdout=lambda out: out.startswith(verdict),
            ),
        }
        got: dict[str, list[tuple[float, float]]] = {k: [] for k in cmds}
        for _ in range(args.rounds):
            for name, child in cmds.items():
                got[name].append(timed(child, env))
    best = table(f"Startup, {args.rounds} interleaved rounds (min / median)", got)
    cli, bare, nothing = best["CLI, 2 x 500"], best["bare imports"], best["python -c pass"]
    print(
        f"  CLI / bare imports: {cli[0] / bare[0]:.2f}x wall, {cli[1] / bare[1]:.2f}x CPU"
        "   (goal <= 2.0x)"
    )
    middle = {
        name: (statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs))
        for name, runs in got.items()
    }
    cli_m, bare_m = middle["CLI, 2 x 500"], middle["bare imports"]
    print(
        f"  the same, median over median: {cli_m[0] / bare_m[0]:.2f}x wall, "
        f"{cli_m[1] / bare_m[1]:.2f}x CPU"
    )
    frozen = best["bare imports, frozen"]
    print(
        f"  CLI / bare imports frozen as the CLI's: {cli[0] / frozen[0]:.2f}x wall, "
        f"{cli[1] / frozen[1]:.2f}x CPU"
    )
    print(
        f"  CLI / python -c pass: {cli[0] / nothing[0]:.1f}x wall, "
        f"{cli[1] / nothing[1]:.1f}x CPU   (the container's own: bench/container.py)"
    )
    print(f"  load average before / after: {load[0]:.2f} / {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
