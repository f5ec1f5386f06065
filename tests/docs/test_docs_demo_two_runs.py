"""`make demo-two-runs`: the Makefile's command, the script, and what examples/README.md
says the demo shows, kept true to each other."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from leaderboard.cli import main
from tests.docs.docs_support import ROOT, load_script

DEMO = load_script("demo_two_runs")
OUT = "out/two-runs"


def _recipe() -> list[str]:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    found = re.search(r"^demo-two-runs:.*\n((?:\t.*\n)+)", makefile, re.M)
    assert found is not None, "the Makefile has no demo-two-runs target"
    return found.group(1).replace("\\\n", " ").splitlines()


def test_makefile_demo_two_runs__makes_the_runs_then_compares_them() -> None:
    make_runs, report = _recipe()
    assert shlex.split(make_runs) == ["$(BIN)/python", "scripts/demo_two_runs.py", OUT]
    args = shlex.split(report.split(";")[0])
    assert args[:3] == ["$(BIN)/leaderboard", "report", f"{OUT}/pr.csv"]
    assert args[3:7] == [
        "--baseline-results",
        f"{OUT}/main.csv",
        "--baseline-label",
        "main",
    ]


def test_demo_two_runs__shows_what_examples_readme_says(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    DEMO.main(tmp_path)
    report_path = tmp_path / "report.json"
    argv = ["report", str(tmp_path / "pr.csv"), "--baseline-results"]
    argv += [str(tmp_path / "main.csv"), "--baseline-label", "main"]
    assert main([*argv, "--json", str(report_path)]) == 1
    capsys.readouterr()
    report = json.loads(report_path.read_text(encoding="utf-8"))
    gate = report["gate"]
    by = {c["candidate"]: c for c in gate["comparisons"]}
    assert set(by) == {"my-org/assistant-8b", "my-org/chat-7b"}
    assert by["my-org/assistant-8b"]["baseline"] == "my-org/assistant-8b @ main"
    assert by["my-org/assistant-8b"]["regressed"]
    assert not by["my-org/chat-7b"]["regressed"]
    assert gate["ungated"] == ["my-org/new-model"]
    assert len(report["leaderboard"]) == 5
    readme = (ROOT / "examples" / "README.md").read_text(encoding="utf-8")
    for c in by.values():
        quoted = f"{c['diff_mean']:.3f} [{c['ci_lo']:.3f}, {c['ci_hi']:.3f}]"
        assert quoted in readme, f"examples/README.md misquotes {c['candidate']}"
