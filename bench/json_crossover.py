"""Where msgspec's import pays for itself: reading a file with and without it.

Usage: ``python bench/json_crossover.py [--sizes KB,...] [KIND...]`` (KIND as in
`read_jsonl.KINDS`). For each kind and size a file is written (`read_jsonl.write`),
then read by ``load_runs`` in fresh child processes: once with the standard library
only (msgspec kept out), once with msgspec loaded first (its import timed apart).
The CPU times (best of ``--repeat``) are printed with what msgspec saves on the
reading; msgspec pays for itself where that exceeds its import, timed in a clean
interpreter (``typing_extensions`` and ``inspect`` with it: the cost once nothing
else has loaded them). The crossover is what
`leaderboard.inputs.fast_json.RECORDS_CROSSOVER` and ``DOCUMENT_CROSSOVER`` are set
from (docs/frameworks.md, "Real sizes").
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from read_jsonl import KINDS, ROOT, machine, written

_CHILD = (
    "import sys, time\n"
    "from leaderboard.inputs import fast_json, load_runs\n"
    "if sys.argv[2] == 'stdlib':\n"
    "    fast_json.use_for = lambda size, crossover=0: False\n"
    "else:\n"
    "    fast_json.parser()\n"
    "cpu = time.process_time()\n"
    "load_runs(sys.argv[1])\n"
    "print(time.process_time() - cpu, 'msgspec' in sys.modules)\n"
)
_IMPORT = (
    "import time\n"
    "cpu = time.process_time()\n"
    "import msgspec\n"
    "print(time.process_time() - cpu, True)\n"
)


def cpu(path: Path | None, how: str, repeat: int) -> float:
    """Best CPU seconds of `repeat` children reading `path` `how` (stdlib, msgspec),
    or (no path) importing msgspec in a clean interpreter."""
    best = float("inf")
    for _ in range(repeat):
        code = [_IMPORT] if path is None else [_CHILD, str(path), how]
        done = subprocess.run(
            [sys.executable, "-c", *code],
            check=True,
            capture_output=True,
            text=True,
            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
            cwd=ROOT,  # `python -c` puts the working folder first: this checkout's
        )
        seconds, loaded = done.stdout.split()
        assert loaded == str(how == "msgspec"), (how, loaded)
        best = min(best, float(seconds))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kinds", nargs="*", default=list(KINDS))
    parser.add_argument("--sizes", default="32,64,128,256,512,1024,4096,8192")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(machine(), flush=True)
    cost = cpu(None, "msgspec", args.repeat)
    print(f"import msgspec in a clean interpreter: {cost * 1e3:.1f} ms CPU", flush=True)
    for kind in args.kinds:
        for kb in map(int, args.sizes.split(",")):
            with written(kind, kb / 1000) as path:
                plain = cpu(path, "stdlib", args.repeat)
                fast = cpu(path, "msgspec", args.repeat)
            print(
                f"{kind}: {kb:,} KB, standard library {plain * 1e3:.1f} ms, msgspec "
                f"{fast * 1e3:.1f} ms: saves {(plain - fast) * 1e3:+.1f} ms, "
                f"{(plain - fast - cost) * 1e3:+.1f} ms with its import",
                flush=True,
            )


if __name__ == "__main__":
    main()
