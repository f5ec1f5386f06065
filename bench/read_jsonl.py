"""Real-shaped JSON Lines files read: time against a bare ``json.loads`` loop, peak memory.

Usage: ``python bench/read_jsonl.py [--mb N] [--dir DIR] [KIND...]`` (part of ``make
bench`` at 100 MB; docs/frameworks.md's largest files were taken with ``--mb 2000``
for promptfoo and lm-eval, 1300 for EvalScope and 189 for records, the sizes at which
they reach 2 GB or the run's 2,000,000 records).
KIND is one of `KINDS`: records JSONL, lm-eval samples (an MMLU-Pro-sized prompt of
about 2.2 KB, held twice: 4.8 KB a line), promptfoo ``-o results.jsonl`` rows,
EvalScope 1.x reviews. Each file of about N MB is written once into DIR (a temporary
directory by default, removed after); then one child process reads it with
``load_runs`` and another runs the bare loop ``for line in file: json.loads(line)``
over the same file, and a third the same loop with msgspec's decoder (the floor of
the parser the readers use first, `leaderboard.inputs.fast_json`), each under
``/usr/bin/time`` (peak resident set size). Prints the machine, then one line a
kind: the reading time, the bare loops', the ratios to each (the reading ratio), and
the peaks. CPU time of the child (user + system) is the steadier figure on a shared
machine; both are shown.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_PROMPT = "The following are multiple choice questions (with answers) about law. " * 30


def _records(i: int) -> dict[str, object]:
    return {
        "model_id": f"model-{i % 20}",
        "task_id": f"task-{i // 20 % 50}",
        "item_id": i // 1000,
        "score": (i * 7919 % 2),
        "category": "code",
    }


def _lm_eval(i: int) -> dict[str, object]:
    return {
        "doc_id": i,
        "doc": {"question": _PROMPT, "options": ["A", "B", "C", "D"], "answer": "A"},
        "target": "A",
        "arguments": {"gen_args_0": {"arg_0": _PROMPT, "arg_1": {"until": ["</s>"]}}},
        "resps": [["The answer is (A)."]],
        "filtered_resps": ["A"],
        "filter": "custom-extract",
        "metrics": ["exact_match"],
        "doc_hash": "0" * 64,
        "prompt_hash": "1" * 64,
        "target_hash": "2" * 64,
        "exact_match": i % 2,
    }


def _promptfoo(i: int) -> dict[str, object]:
    question = f"Question {i}: " + _PROMPT[:600]
    grading = {"pass": i % 2 == 0, "score": float(i % 2 == 0), "reason": "ok"}
    return {
        "cost": 0.0001,
        "gradingResult": grading | {"namedScores": {}, "componentResults": [grading]},
        "id": f"{i:08d}-c0c4-4edb-a827-ece3f5b3c24b",
        "latencyMs": 120 + i % 50,
        "namedScores": {},
        "prompt": {"raw": question, "label": "Question: {{question}}"},
        "promptIdx": 0,
        "provider": {"id": "openai:gpt-4o-mini", "label": "gpt-4o-mini"},
        "response": {
            "output": "The answer is (A). " * 10,
            "tokenUsage": {"total": 800, "prompt": 700, "completion": 100},
        },
        "score": float(i % 2 == 0),
        "success": i % 2 == 0,
        "testCase": {"description": f"case-{i}", "vars": {"question": question}},
        "testIdx": i,
        "vars": {"question": question},
        "failureReason": 0 if i % 2 == 0 else 1,
    }


def _evalscope(i: int) -> dict[str, object]:
    value = {"acc": float(i % 2), "acc_norm": float(i % 3 == 0)}
    score = {
        "value": value,
        "extracted_prediction": "A",
        "prediction": "The answer is (A). " * 20,
        "explanation": None,
        "metadata": {},
        "main_score_name": "acc",
    }
    sample = {"score": score, "sample_id": i, "group_id": i, "sample_metadata": {}}
    return {"index": i, "target": "A", "sample_score": sample}


#: kind: (file name inside its folder, one line's object, files beside it)
KINDS: dict[str, tuple[str, Callable[[int], dict[str, object]], dict[str, object]]] = {
    "records": ("records.jsonl", _records, {}),
    "lm-eval-samples": (
        "samples_mmlu_pro_2024-01-01T00-00-00.jsonl",
        _lm_eval,
        {
            "results_2024-01-01T00-00-00.json": {
                "results": {"mmlu_pro": {"exact_match,custom-extract": 0.5}},
                "model_name": "org/model",
            }
        },
    ),
    "promptfoo": ("results.jsonl", _promptfoo, {}),
    "evalscope-reviews": ("outputs/reviews/model-a/mmlu_law.jsonl", _evalscope, {}),
}

_CLOCK = (
    "import sys, time, warnings\n"
    "warnings.simplefilter('ignore')\n"
    "start, cpu = time.perf_counter(), time.process_time()\n"
    "{work}\n"
    "print(time.perf_counter() - start, time.process_time() - cpu)\n"
)
# Each child times its work only (not the interpreter's start nor the imports).
_READ = "from leaderboard.inputs import load_runs\n" + _CLOCK.format(
    work="load_runs(sys.argv[1])"
)
_BARE = "import json\n" + _CLOCK.format(
    work="with open(sys.argv[1], 'rb') as f:\n    for line in f:\n        json.loads(line)"
)
# The floor of the parser the readers use first (leaderboard.inputs.fast_json).
_BARE_MSGSPEC = "import msgspec\n" + _CLOCK.format(
    work="decode = msgspec.json.Decoder().decode\n"
    "with open(sys.argv[1], 'rb') as f:\n    for line in f:\n        decode(line)"
)


def write(folder: Path, kind: str, megabytes: float) -> Path:
    """A file of `kind` of about `megabytes` MB in `folder` (and its companions)."""
    name, line, beside = KINDS[kind]
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    for other, data in beside.items():
        (path.parent / other).write_text(json.dumps(data))
    target, i = megabytes * 1e6, 0
    with path.open("w", encoding="utf-8") as out:
        while out.tell() < target:
            block = "".join(json.dumps(line(j)) + "\n" for j in range(i, i + 1000))
            out.write(block)
            i += 1000
    return path


@contextlib.contextmanager
def written(kind: str, megabytes: float, parent: Path | None = None) -> Iterator[Path]:
    """A file of `kind` of about `megabytes` MB (`write`) in a temporary folder inside
    `parent`, removed after the block."""
    folder = Path(tempfile.mkdtemp(prefix=f"{kind}-", dir=parent))
    try:
        yield write(folder, kind, megabytes)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def timed(code: str, path: Path) -> tuple[float, float, float]:
    """(wall s, CPU s, peak RSS MiB) of ``python -c CODE PATH`` in a child process:
    the times its work took (printed by the child), the child's peak memory."""
    with tempfile.NamedTemporaryFile("r") as told:
        command = ["/usr/bin/time", "-f", "%M", "-o", told.name]
        done = subprocess.run(
            [*command, sys.executable, "-c", code, str(path.resolve())],
            check=False,
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            cwd=ROOT,  # `python -c` puts the working folder first: this checkout's
        )
        kib = told.read().split()[-1]
    if done.returncode:  # refused (past a cap): say so, and time nothing
        sys.exit(f"{path}: exit {done.returncode}: {done.stderr.strip()[-300:]}")
    wall, cpu = done.stdout.split()[-2:]
    return float(wall), float(cpu), int(kib) / 1024


def machine() -> str:
    """The machine the figures were taken on: ratios only compare within one run."""
    import msgspec  # noqa: PLC0415 - the parser's version, only to print it

    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return (
        f"machine: {platform.machine()} {platform.system()}, {os.cpu_count()} CPUs, "
        f"load average {load}; Python {platform.python_version()}, msgspec "
        f"{msgspec.__version__}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kinds", nargs="*", default=list(KINDS))
    parser.add_argument("--mb", type=float, default=100.0)
    parser.add_argument("--dir", type=Path)
    args = parser.parse_args()
    print(machine(), flush=True)
    for kind in args.kinds:
        with written(kind, args.mb, args.dir) as path:
            size = path.stat().st_size / 1e6
            read_wall, read_cpu, read_rss = timed(_READ, path)
            bare_wall, bare_cpu, bare_rss = timed(_BARE, path)
            fast_wall, fast_cpu, _ = timed(_BARE_MSGSPEC, path)
            print(
                f"{kind}: {size:,.0f} MB read in {read_wall:.1f} s wall / {read_cpu:.1f} s "
                f"CPU, peak {read_rss:,.0f} MiB; bare json.loads loop {bare_wall:.1f} s / "
                f"{bare_cpu:.1f} s CPU, peak {bare_rss:,.0f} MiB; reading ratio "
                f"{read_cpu / bare_cpu:.2f}x (CPU), {read_wall / bare_wall:.2f}x (wall); "
                f"bare msgspec loop {fast_wall:.1f} s / {fast_cpu:.1f} s CPU: "
                f"{read_cpu / fast_cpu:.2f}x its floor (CPU)",
                flush=True,
            )


if __name__ == "__main__":
    main()
