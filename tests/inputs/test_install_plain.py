"""`pip install leaderboard-action` with no extra reads a current Inspect log (issue 32).

Every real Inspect log of the current version stores its members with Zstandard, which
Python reads natively only from 3.14: ``backports.zstd`` must come with a plain install.
The test installs the project (its sources copied, so the checkout stays clean) into a
fresh venv with pip as configured on the machine (PyPI in CI; a local index offline),
with no extras, and reads a real log from tests/fixtures/inspect/guardrails there.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

from tests.inputs._framework_cases import load_quiet

ROOT = Path(__file__).resolve().parents[2]
LOG = ROOT / "tests" / "fixtures" / "inspect" / "guardrails" / "candidate.eval"
ZSTANDARD = 93  # the zip compression method of Inspect's members

READ = """
import importlib.util, json, sys
import leaderboard
from leaderboard import load_runs
runs = load_runs([sys.argv[1]])
print(json.dumps({
    "package": leaderboard.__file__,
    "inspect_ai": importlib.util.find_spec("inspect_ai") is not None,
    "zstd": importlib.util.find_spec("backports.zstd") is not None,
    "records": sorted([r.model_id, r.task_id, str(r.item_id), r.score] for r in runs),
}))
"""


@pytest.mark.slow  # a fresh venv and a pip install: about a minute
def test_plain_install__reads_a_zstandard_inspect_log(tmp_path: Path) -> None:
    with zipfile.ZipFile(LOG) as archive:
        assert {i.compress_type for i in archive.infolist()} == {ZSTANDARD}
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, src / name)
    for folder in ("leaderboard", "templates"):
        shutil.copytree(
            ROOT / folder, src / folder, ignore=shutil.ignore_patterns("__pycache__")
        )
    env = tmp_path / "venv"
    venv.create(env, with_pip=True)
    python = env / "bin" / "python"
    pip = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", str(src)],
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert pip.returncode == 0, pip.stdout + pip.stderr
    clean = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(
        [str(python), "-c", READ, str(LOG)],
        env=clean,  # the installed copy, not a checkout on PYTHONPATH
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=tmp_path,  # not the checkout: the installed package is what is imported
    )
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    assert Path(got["package"]).is_relative_to(env)  # the fresh venv's own install
    assert got["inspect_ai"] is False  # the reader needs no Inspect
    assert got["zstd"] is (sys.version_info < (3, 14))
    expected = sorted(
        [r.model_id, r.task_id, str(r.item_id), r.score] for r in load_quiet(str(LOG))
    )
    assert got["records"] == expected
    assert len(expected) > 0
