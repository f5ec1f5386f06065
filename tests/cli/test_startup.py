"""What the everyday run's start may cost (issue 31; bench/startup.py measures it).

The CLI on a pull request's records, in a fresh interpreter, loads no HTTP stack
(PyGithub, requests, urllib3: about 0.2 s of imports) and reads no installed package's
metadata for its version (the report's ``generator`` is `leaderboard._version.GENERATOR`,
held here to pyproject.toml's version).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

from leaderboard import __version__
from leaderboard._version import GENERATOR

ROOT = Path(__file__).resolve().parents[2]


def test_version__is_pyprojects() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert __version__ == project["version"]
    assert f"leaderboard-action {project['version']}" == GENERATOR


def test_cli_report__loads_no_http_stack(tmp_path: Path) -> None:
    records = tmp_path / "pr.jsonl"
    lines = [
        json.dumps(
            {"model_id": m, "task_id": "t", "item_id": i, "score": (i * 7 + k) % 3 > 0}
        )
        for k, m in enumerate(("base", "cand"))
        for i in range(40)
    ]
    records.write_text("\n".join(lines) + "\n")
    out = tmp_path / "report.json"
    code = (
        "import sys, json\n"
        "from leaderboard.cli import main\n"
        f"status = main(['report', {str(records)!r}, '--baseline', 'base',"
        f" '--json', {str(out)!r}])\n"
        "top = {m.split('.')[0] for m in sys.modules}\n"
        "print(json.dumps([status, sorted(top & {'github', 'requests', 'urllib3'})]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    status, loaded = json.loads(done.stdout.strip().splitlines()[-1])
    assert status in (0, 1)
    assert loaded == []
    assert json.loads(out.read_text())["generator"] == GENERATOR
