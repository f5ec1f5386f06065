"""The deepeval recipe in docs/frameworks.md lets failed test cases through, not crashes.

``deepeval test run`` exits as pytest does (deepeval/cli/test/command.py, 4.3.1): 1 when
test cases failed, 2-5 when the run itself went wrong. The recipe's ``run:`` line is
run here as GitHub runs a step (``bash --noprofile --norc -eo pipefail``) with a
stand-in ``deepeval`` on PATH that exits with each status.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests.docs.docs_support import ROOT


def _recipe_line() -> str:
    text = (ROOT / "docs" / "frameworks.md").read_text(encoding="utf-8")
    section = text.split("## deepeval (Confident AI)", 1)[1].split("\n## ", 1)[0]
    (block,) = re.findall(r"```yaml\n(.*?)```", section, re.S)[:1]
    (line,) = [x for x in block.splitlines() if x.startswith("- run: deepeval test run")]
    return line.removeprefix("- run: ")


@pytest.mark.parametrize(
    ("status", "step_passes"),
    [(0, True), (1, True), (2, False), (3, False), (4, False), (5, False)],
)
def test_recipe__passes_failed_test_cases_and_fails_on_deepevals_own_errors(
    tmp_path: Path, status: int, step_passes: bool
) -> None:
    stub = tmp_path / "bin" / "deepeval"
    stub.parent.mkdir()
    stub.write_text(f"#!/bin/sh\nexit {status}\n", encoding="utf-8")
    stub.chmod(0o755)
    line = _recipe_line()
    assert "|| true" not in line
    done = subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", line],
        env={"PATH": f"{stub.parent}:/usr/bin:/bin"},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert (done.returncode == 0) is step_passes, (status, done.returncode, done.stderr)
