"""Reports of varied inputs, byte for byte: a check that a speed-up changed no number.

Writes the JSON report of each scenario below (models, tasks, categories, missing
items, partial scores, weights, clusters, epochs, lone tasks, task-level records, two
runs with guardrails, an anchor, a renamed model, one large stratum, and bench/run.py's
own 20 x 2,000 x 10,000 case) to a folder and prints its SHA-256. Run it on two
commits and compare::

    python bench/same_reports.py /tmp/before      # on the old commit
    python bench/same_reports.py /tmp/after       # on the new one
    diff <(cd /tmp/before && sha256sum *) <(cd /tmp/after && sha256sum *)
    python bench/same_reports.py --compare /tmp/before /tmp/after   # numbers within 1e-12?

Takes about 10 s. The numbers depend on the records, the seed and the numpy/BLAS
build, so compare the two commits on one machine.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import hashlib
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np

from leaderboard import EvalRun, build_report
from leaderboard.report import BaselineRun, Report
from leaderboard.stats.guardrails import Guardrail

sys.path.insert(0, str(Path(__file__).parent))
from run import make_runs  # bench/run.py, beside this file


def items(
    models: list[str],
    tasks: int,
    n: int,
    *,
    seed: int,
    cats: int = 1,
    drop: float = 0.0,
    clusters: int = 0,
    partial: bool = False,
    epochs: int = 1,
    weights: bool = False,
    measures: bool = False,
    lone: int = 0,
    shift: dict[str, float] | None = None,
) -> list[EvalRun]:
    """Item-level records; `lone` tasks hold a single item; `drop` items go missing."""
    rng = np.random.default_rng(seed)
    out = []
    difficulty = rng.beta(2, 2, (tasks, n))
    for name in models:
        skill = rng.normal(0, 0.5) + (shift or {}).get(name, 0.0)
        for t in range(tasks):
            for i in range(1 if t < lone else n):
                if drop and rng.random() < drop:
                    continue
                logit = np.log(difficulty[t, i] / (1 - difficulty[t, i])) + skill
                p = 1 / (1 + np.exp(-logit))
                for s in range(epochs):
                    score = (
                        float(np.clip(p + rng.normal(0, 0.2), 0, 1))
                        if partial
                        else float(rng.random() < p)
                    )
                    extra: dict[str, object] = {}
                    if clusters:
                        extra["cluster"] = f"c{(i * i) % clusters}"  # unequal sizes
                    if epochs > 1:
                        extra["sample"] = s
                    if measures:
                        extra["cost"] = float(rng.gamma(2, 0.01))
                        extra["latency"] = float(rng.gamma(3, 0.5))
                        extra["metrics"] = (("faith", float(np.clip(p, 0, 1))),)
                    out.append(
                        EvalRun(
                            name,
                            f"t{t:02d}",
                            score,
                            category=f"cat{t % cats}",
                            weight=float(1 + t % 3) if weights else 1.0,
                            item_id=f"i{i:03d}",
                            **extra,  # type: ignore[arg-type]
                        )
                    )
    return out


def tasks_only(
    models: list[str], tasks: int, *, seed: int, cats: int = 1, drop: float = 0.0
) -> list[EvalRun]:
    """Task-level records with weights and categories."""
    rng = np.random.default_rng(seed)
    return [
        EvalRun(
            name,
            f"task{t}",
            float(rng.beta(5, 3)),
            category=f"c{t % cats}",
            weight=float(1 + t % 2),
        )
        for name in models
        for t in range(tasks)
        if not (drop and rng.random() < drop)
    ]


def names(k: int) -> list[str]:
    return [f"m{j}" for j in range(k)]


def _two_runs_guardrails() -> Report:
    kw = {"measures": True}
    return build_report(
        items(names(4), 5, 30, seed=12, shift={"m1": -0.3}, **kw),  # type: ignore[arg-type]
        baseline_runs=items(names(4), 5, 30, seed=13, **kw),  # type: ignore[arg-type]
        baseline_run=BaselineRun(label="main", source="results"),
        guardrails=[Guardrail("cost", 0.1), Guardrail("faith", 0.02)],
        resamples=1500,
        seed=2,
    )


SCENARIOS: dict[str, Callable[[], Report]] = {
    "bench_run": lambda: build_report(
        make_runs(20, 20, 100), baseline="model-00", resamples=10_000
    ),
    "items": lambda: build_report(
        items(names(8), 6, 40, seed=1), baseline="m0", resamples=2500
    ),
    "categories_missing_partial": lambda: build_report(
        items(names(5), 9, 30, seed=2, cats=3, drop=0.08, partial=True, weights=True),
        baseline="m1",
        candidates=["m0", "m3"],
        gate_categories=True,
        resamples=1500,
        seed=3,
        margin=0.01,
    ),
    "clusters": lambda: build_report(
        items(names(4), 5, 36, seed=4, clusters=7, cats=2, drop=0.05),
        baseline="m0",
        resamples=1200,
        seed=5,
    ),
    "epochs": lambda: build_report(
        items(names(3), 4, 25, seed=6, epochs=3), baseline="m2", resamples=1100
    ),
    "lone_tasks": lambda: build_report(
        items(names(4), 7, 20, seed=7, lone=3, cats=2), baseline="m0", resamples=1000
    ),
    "task_level": lambda: build_report(
        tasks_only(names(6), 12, seed=8, cats=3, drop=0.1),
        baseline="m0",
        gate_categories=True,
        resamples=2100,
        seed=9,
    ),
    "two_tasks": lambda: build_report(
        tasks_only(names(3), 2, seed=10), baseline="m0", resamples=1000
    ),
    "no_gate": lambda: build_report(
        items(names(6), 3, 50, seed=11, drop=0.1), resamples=1300, confidence=0.9
    ),
    "two_runs_guardrails": _two_runs_guardrails,
    "anchor": lambda: build_report(
        items(names(3), 4, 30, seed=14, epochs=2),
        baseline_runs=items(names(3), 4, 30, seed=15, epochs=2),
        anchor_runs=items(names(3), 4, 30, seed=16, epochs=2),
        anchor_margin=0.03,
        resamples=1200,
    ),
    "large_stratum": lambda: build_report(  # counts drawn in row chunks
        items(names(3), 2, 3600, seed=19, drop=0.01), baseline="m0", resamples=1100
    ),
    "renamed": lambda: build_report(
        items(["new"], 6, 30, seed=17, clusters=5),
        baseline_runs=items(["old"], 6, 30, seed=18, clusters=5),
        resamples=1000,
    ),
}


def _numbers(a: object, b: object, path: str) -> Iterator[tuple[str, float]]:
    """Each number's absolute difference between two parsed reports (by path); a
    difference in anything else is an error naming where."""
    if isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys():
        for key in a:
            yield from _numbers(a[key], b[key], f"{path}.{key}")
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            yield from _numbers(x, y, f"{path}[{i}]")
    elif isinstance(a, float | int) and isinstance(b, float | int) and a != b:
        if isinstance(a, bool) or isinstance(b, bool):
            raise SystemExit(f"{path}: {a!r} != {b!r}")
        yield path, abs(float(a) - float(b))
    elif a != b:
        raise SystemExit(f"{path}: {a!r} != {b!r}")


def compare(before: str, after: str) -> None:
    """Per report: byte-identical, or the largest difference of a number (and where);
    exits 1 when any number differs by more than 1e-12."""
    worst = 0.0
    for old in sorted(Path(before).glob("*.json")):
        new = Path(after) / old.name
        if old.read_bytes() == new.read_bytes():
            print(f"  identical        {old.name}")
            continue
        diffs = list(_numbers(json.loads(old.read_text()), json.loads(new.read_text()), ""))
        path, most = max(diffs, key=lambda d: d[1], default=("", 0.0))
        worst = max(worst, most)
        print(
            f"  max |diff| {most:.1e}  {old.name}  ({len(diffs)} numbers; largest {path})"
        )
    if worst > 1e-12:
        raise SystemExit(1)


def main(folder: str, chosen: list[str]) -> None:
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    for name in chosen or list(SCENARIOS):
        text = SCENARIOS[name]().model_dump_json(indent=1)
        (out / f"{name}.json").write_text(text)
        print(f"{hashlib.sha256(text.encode()).hexdigest()}  {name}.json")


if __name__ == "__main__":
    if sys.argv[1] == "--compare":
        compare(sys.argv[2], sys.argv[3])
    else:
        main(sys.argv[1], sys.argv[2:])
