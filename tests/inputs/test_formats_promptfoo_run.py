"""A real promptfoo eval, offline, read by the promptfoo reader.

promptfoo 0.121.20 (installed under .tools/ by scripts/install-promptfoo.sh, which
`make tools` runs) evaluates tests/fixtures/promptfoo/own-run-0.121.20/
promptfooconfig.yaml with its `echo` provider and a local script provider: no network,
no API key. The reader's records must agree with promptfoo's own tallies of the same
run, and its item ids with those of the shipped output (stable across runs and
``--repeat``). Skips, saying why, only where promptfoo cannot be installed (no Node
>= 20.20 or npm).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import warnings
from collections import defaultdict
from pathlib import Path

import pytest

from leaderboard.inputs.frameworks import FormatWarning, ReadOptions, read

ROOT = Path(__file__).resolve().parents[2]
VERSION = "0.121.20"
PROMPTFOO = ROOT / ".tools" / f"promptfoo-{VERSION}" / "node_modules" / ".bin" / "promptfoo"
CONFIG = ROOT / "tests" / "fixtures" / "promptfoo" / "own-run-0.121.20"
# promptfoo's documented switches for a run that calls nothing but the providers.
OFFLINE = {
    "PROMPTFOO_DISABLE_TELEMETRY": "1",
    "PROMPTFOO_DISABLE_UPDATE": "1",
    "PROMPTFOO_DISABLE_SHARING": "1",
    "PROMPTFOO_DISABLE_REMOTE_GENERATION": "1",
    "PROMPTFOO_DISABLE_REDTEAM_REMOTE_GENERATION": "1",
    "PROMPTFOO_SELF_HOSTED": "1",
    "DO_NOT_TRACK": "1",
    "NO_COLOR": "1",
}
# promptfoo's exit status when some tests failed (they do: echo fails most).
FAILED_TESTS = 100

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not PROMPTFOO.exists():
        pytest.skip(
            f"promptfoo {VERSION} is not installed: `make tools` installs it "
            "(scripts/install-promptfoo.sh; needs Node >= 20.20 and npm)"
        )
    work = tmp_path_factory.mktemp("promptfoo")
    for name in ("promptfooconfig.yaml", "provider.js"):
        shutil.copy(CONFIG / name, work / name)
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(work),
        "PROMPTFOO_CONFIG_DIR": str(work / ".pf-home"),
        **OFFLINE,
    }
    command = [str(PROMPTFOO), "eval", "-c", "promptfooconfig.yaml", "--no-cache"]
    for outputs in (["-o", "once.json", "-o", "once.jsonl"], ["-o", "twice.json"]):
        extra = ["--repeat", "2"] if outputs[1] == "twice.json" else []
        done = subprocess.run(
            [*command, *outputs, *extra],
            cwd=work,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert done.returncode in (0, FAILED_TESTS), done.stderr[-2000:]
    return work


def _read(path: Path, *metrics: str) -> list:  # type: ignore[type-arg]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FormatWarning)
        return read("promptfoo", path, ReadOptions(metrics=metrics))


def test_real_run__pass_counts_and_score_sums_equal_promptfoos_own(run_dir: Path) -> None:
    data = json.loads((run_dir / "once.json").read_text())
    assert data["metadata"]["promptfooVersion"] == VERSION
    own = {p["provider"]: p["metrics"] for p in data["results"]["prompts"]}
    passed: dict[str, float] = defaultdict(float)
    for run in _read(run_dir / "once.json"):
        passed[run.model_id] += run.score
    assert passed == {m: c["testPassCount"] for m, c in own.items()}
    scores: dict[str, float] = defaultdict(float)
    for run in _read(run_dir / "once.jsonl", "score"):
        scores[run.model_id] += run.score
    assert scores == pytest.approx({m: c["score"] for m, c in own.items()})


def test_real_run__item_ids_are_stable_across_runs_and_repeats(run_dir: Path) -> None:
    shipped = {(r.model_id, r.item_id) for r in _read(CONFIG / "results.json")}
    once = _read(run_dir / "once.json")
    twice = _read(run_dir / "twice.json")
    assert {(r.model_id, r.item_id) for r in once} == shipped
    assert {(r.model_id, r.item_id) for r in twice} == shipped
    assert sorted({r.sample for r in twice}) == [0, 1]
    assert len(twice) == 2 * len(once)
    data = json.loads((run_dir / "twice.json").read_text())
    assert data["runtimeOptions"]["repeat"] == 2
    assert len({row["testIdx"] for row in data["results"]["results"]}) == 12
