"""The action's entries import as the command line's does (issue 31).

``entrypoint.py`` (the container's entrypoint) imports the action's modules with the
cyclic garbage collector paused and freezes what they made
(`leaderboard._gc.frozen_imports`), as `leaderboard.__main__` does for the
command; ``python -m leaderboard.action`` freezes them before it runs (its package is
imported before its ``__main__``, so that import is not paused). Each run then collects
its own objects. tests/cli/test_startup.py holds the command line's entry.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.action.action_job import results_job
from tests.fakes.github_api import FakeGitHub

ROOT = Path(__file__).resolve().parents[2]

# Runs the entry as the runner does (`python entrypoint.py --dry-run`, or `python -m
# leaderboard.action --dry-run`), noting each collection's phase: while the entry
# imports the action's modules (from its first import of the package until
# leaderboard.action holds `entry`) or in the run.
_PROBE = """
import contextlib, gc, io, json, runpy, sys
seen = []
def during(phase, info):
    if phase == 'start':
        if 'leaderboard' not in sys.modules:
            return  # the probe's own start
        action = sys.modules.get('leaderboard.action')
        importing = action is None or not hasattr(action, 'entry')
        seen.append('importing' if importing else 'run')
gc.callbacks.append(during)
how, where = sys.argv[1], sys.argv[2]
sys.argv = [where, '--dry-run']
with contextlib.redirect_stdout(io.StringIO()):
    try:
        if how == 'path':
            runpy.run_path(where, run_name='__main__')
        else:
            runpy.run_module(where, run_name='__main__', alter_sys=True)
    except SystemExit as done:
        status = done.code
print(json.dumps([status, gc.isenabled(), gc.get_freeze_count(),
                  seen.count('importing'), seen.count('run')]))
"""


def _entry_run(tmp_path: Path, api: FakeGitHub, how: str, where: str) -> list[int]:
    job = results_job(tmp_path / "job", api.base_url, baseline="model-0")
    env = {**job.env(), "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, how, where],
        env=env,
        cwd=job.workspace,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    result: list[int] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_entrypoint__imports_paused_freezes_them_and_runs_collecting(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    status, enabled, frozen, importing, run = _entry_run(
        tmp_path, github_api, "path", str(ROOT / "entrypoint.py")
    )
    assert status == 0
    assert enabled
    assert frozen > 20_000  # the stages, numpy, pydantic's models, jinja2
    assert importing == 0  # without the pause: about a hundred collections
    assert run >= 1


@pytest.mark.parametrize("module", ["leaderboard.action"])
def test_python_m_action__freezes_the_imports_before_the_run(
    tmp_path: Path, github_api: FakeGitHub, module: str
) -> None:
    status, enabled, frozen, _, run = _entry_run(tmp_path, github_api, "module", module)
    assert status == 0
    assert enabled
    assert frozen > 20_000
    assert run >= 1
