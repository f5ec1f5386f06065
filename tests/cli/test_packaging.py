"""A wheel installed outside the checkout still renders: the templates travel with it.

The action's layout keeps ``templates/`` at the repository root, outside the package;
pyproject.toml's ``data-files`` carry them to ``<prefix>/share/leaderboard-action``.
This builds the wheel, installs it (without dependencies) into a fresh venv, borrows
the test venv's numpy/pydantic/jinja2 through PYTHONPATH, and runs the command line
from a directory far from the checkout.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str | Path, **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(  # type: ignore[call-overload, no-any-return]
        [str(a) for a in args], capture_output=True, text=True, check=False, **kwargs
    )


def test_wheel__installed_outside_the_checkout_renders_the_comment(tmp_path: Path) -> None:
    built = _run(
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "--no-deps",
        "-q",
        "-w",
        tmp_path / "dist",
        ROOT,
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = (tmp_path / "dist").glob("leaderboard_action-*.whl")

    venv = tmp_path / "venv"
    made = _run(sys.executable, "-m", "venv", venv)
    assert made.returncode == 0, made.stderr
    python = venv / "bin" / "python"
    installed = _run(python, "-m", "pip", "install", "--no-deps", "-q", wheel)
    assert installed.returncode == 0, installed.stderr
    assert (venv / "share" / "leaderboard-action" / "templates" / "comment.md.j2").is_file()

    results = tmp_path / "results.jsonl"
    results.write_text(
        "".join(
            json.dumps({"model_id": f"m{m}", "task_id": f"t{t}", "score": 0.3 + 0.1 * m})
            + "\n"
            for m in range(2)
            for t in range(6)
        )
    )
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": sysconfig.get_paths()["purelib"],  # the dependencies only
    }
    where = _run(
        python,
        "-c",
        "import leaderboard; print(leaderboard.__file__)",
        env=env,
        cwd=tmp_path,
    )
    assert where.returncode == 0, where.stderr
    assert where.stdout.startswith(str(venv)), where.stdout  # not the checkout's copy
    res = _run(
        venv / "bin" / "leaderboard",
        "report",
        results,
        "--resamples",
        "200",
        env=env,
        cwd=tmp_path,
    )
    assert res.returncode == 0, res.stderr
    assert "| m1 |" in res.stdout
