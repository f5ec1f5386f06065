"""msgspec is imported only for files large enough to pay for it (issue 31, startup).

Importing msgspec costs about 20-28 ms in a clean interpreter (``typing_extensions``
and ``inspect`` with it); a small file parses in a few milliseconds either way. The
inputs read with the standard library until a text reaches its crossover
(`fast_json.use_for`), and the two give the same records, notes and errors: held here
for every framework fixture, and for the records fixtures in test_records_blocks.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

from leaderboard.errors import InputError
from leaderboard.inputs import fast_json
from leaderboard.inputs.load import load_runs_noting

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
FRAMEWORKS = (
    "promptfoo",
    "evalscope",
    "lm_eval",
    "inspect",
    "helm",
    "deepeval",
    "lighteval",
    "livecodebench",
    "swebench",
)

_CHILD = """
import json, sys
import leaderboard
from leaderboard.inputs import load_runs
assert "msgspec" not in sys.modules, "imported with leaderboard"
counts = [len(load_runs(path)) for path in json.loads(sys.argv[1])]
print(json.dumps([counts, "msgspec" in sys.modules]))
"""


def _child(paths: list[Path]) -> tuple[list[int], bool]:
    """(records read from each of `paths`, whether msgspec got imported), in a clean
    interpreter that imports leaderboard first."""
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, json.dumps([str(p) for p in paths])],
        check=True,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        cwd=ROOT,  # `python -c` imports from the working folder first
    )
    counts, imported = json.loads(done.stdout)
    return counts, imported


def _records(path: Path, n: int) -> Path:
    with path.open("w") as out:
        for i in range(n):
            out.write(
                json.dumps(
                    {
                        "model_id": f"m{i % 2}",
                        "task_id": "t",
                        "item_id": i // 2,
                        "score": i % 2,
                        "category": "code",
                    }
                )
                + "\n"
            )
    return path


def test_small_files__read_without_importing_msgspec(tmp_path: Path) -> None:
    """A 1,000-line records file, a .json and a .csv of records, and a real file of
    each framework that reads JSON Lines (promptfoo, EvalScope, lm-eval samples)."""
    jsonl = _records(tmp_path / "small.jsonl", 1000)
    array = tmp_path / "small.json"
    array.write_text(
        json.dumps([json.loads(line) for line in jsonl.read_text().split("\n")[:50]])
    )
    csv = tmp_path / "small.csv"
    csv.write_text("model_id,task_id,score\nm,t,0.5\n")
    promptfoo = next((FIXTURES / "promptfoo").rglob("*.jsonl"))
    evalscope = next(
        p for p in (FIXTURES / "evalscope").rglob("*.jsonl") if "reviews" in str(p)
    )
    lm_eval = next((FIXTURES / "lm_eval").rglob("results_*.json"))
    paths = [jsonl, array, csv, promptfoo, evalscope, lm_eval]
    assert all(p.stat().st_size < fast_json.RECORDS_CROSSOVER for p in paths)
    counts, imported = _child(paths)
    assert counts[:3] == [1000, 50, 1]
    assert all(counts)
    assert not imported


def test_large_records_file__imports_msgspec(tmp_path: Path) -> None:
    n = fast_json.RECORDS_CROSSOVER // 80 + 1000  # lines of under 100 bytes
    path = _records(tmp_path / "large.jsonl", n)
    assert path.stat().st_size > fast_json.RECORDS_CROSSOVER
    counts, imported = _child([path])
    assert counts == [n]
    assert imported


def test_records_crossover__lower_once_msgspec_imports_are_loaded(tmp_path: Path) -> None:
    # The command line and the action import pydantic (typing_extensions, inspect)
    # before they read: msgspec's import is then a few milliseconds, and a records
    # file pays for it from RECORDS_CROSSOVER_WARM; without them, from
    # RECORDS_CROSSOVER (test_small_files: the same file, no msgspec).
    path = _records(tmp_path / "mid.jsonl", 1000)
    size = path.stat().st_size
    assert fast_json.RECORDS_CROSSOVER_WARM <= size < fast_json.RECORDS_CROSSOVER
    code = (
        "import json, sys\n"
        "import pydantic\n"
        "from leaderboard.inputs import fast_json, load_runs\n"
        f"runs = load_runs({str(path)!r})\n"
        "print(json.dumps([len(runs), fast_json.warm(), 'msgspec' in sys.modules]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        check=True,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        cwd=ROOT,
    )
    assert json.loads(done.stdout) == [1000, True, True]
    assert _child([path]) == ([1000], False)


def test_use_for__loads_at_the_crossover_only(monkeypatch: pytest.MonkeyPatch) -> None:
    loaded: list[int] = []
    monkeypatch.setattr(fast_json, "in_use", lambda: bool(loaded))
    monkeypatch.setattr(fast_json, "parser", lambda: loaded.append(1))
    assert not fast_json.use_for(99, 100)
    assert not loaded
    assert fast_json.use_for(100, 100)
    assert fast_json.use_for(0, 100)  # loaded: every later text too
    assert loaded == [1]


def _outcome(path: Path) -> tuple[Any, ...]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            runs, notes = load_runs_noting(str(path))
    except InputError as exc:
        return ("error", str(exc))
    return ("runs", [repr(run) for run in runs], notes)


def _framework_files() -> list[Path]:
    found = [
        p
        for name in FRAMEWORKS
        for p in sorted((FIXTURES / name).rglob("*"))
        if p.is_file() and p.suffix not in (".md", ".sh", ".py", ".txt")
    ]
    assert len(found) >= 100
    return found


@pytest.mark.parametrize(
    "path", _framework_files(), ids=lambda p: str(p.relative_to(FIXTURES))
)
def test_framework_fixture__same_outcome_either_parser(
    monkeypatch: pytest.MonkeyPatch, path: Path
) -> None:
    """Every framework fixture read with msgspec in use and with the standard library
    only: the same records, notes, or error."""
    fast_json.parser()
    fast = _outcome(path)
    monkeypatch.setattr(fast_json, "in_use", lambda: False)
    monkeypatch.setattr(fast_json, "use_for", lambda size, crossover=0: False)
    assert _outcome(path) == fast
