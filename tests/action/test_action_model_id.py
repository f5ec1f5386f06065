"""The ``model-id`` input: two real deepeval runs with no model hyperparameter gated.

entrypoint.py runs as the runner runs it (tests/action/test_action_e2e.py), against
the fake GitHub API; the runs are tests/fixtures/deepeval/fusion-run-{a,b}.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from leaderboard.action.settings import Settings
from leaderboard.errors import UsageError
from tests.action.action_job import Job
from tests.action.test_action_e2e import launch
from tests.fakes.github_api import INSTALLATION_TOKEN, FakeGitHub

DEEPEVAL = Path(__file__).resolve().parents[1] / "fixtures" / "deepeval"


def _job(tmp_path: Path, api: FakeGitHub, model_id: str) -> Job:
    job = Job(tmp_path / "job", api.base_url)
    for sub, run in (("pr", "fusion-run-b"), ("main", "fusion-run-a")):
        (job.workspace / sub).mkdir(parents=True)
        shutil.copy(DEEPEVAL / run / ".latest_test_run.json", job.workspace / sub)
    job.inputs = {
        "RESULTS": "pr/.latest_test_run.json",
        "BASELINE-RESULTS": "main/.latest_test_run.json",
        "BASELINE-LABEL": "main",
        "MODEL-ID": model_id,
        "RESAMPLES": "300",
        "FAIL-ON-REGRESSION": "false",
        "GITHUB-TOKEN": INSTALLATION_TOKEN,
    }
    return job


@pytest.mark.slow  # a fresh interpreter per run
def test_e2e__two_deepeval_runs_pair_under_the_model_id_input(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    res = launch(job := _job(tmp_path, github_api, "rag-bot"))
    assert res.returncode == 0, res.stdout + res.stderr
    report = json.loads((job.workspace / job.outputs()["report"]).read_text())
    (comp,) = report["gate"]["comparisons"]
    assert (comp["candidate"], comp["baseline"]) == ("rag-bot", "rag-bot @ main")
    assert comp["shared_units"] == 12
    models = sorted(row["model_id"] for row in report["leaderboard"])
    assert models == ["rag-bot", "rag-bot @ main"]  # none under the default id
    (comment,) = github_api.comments(7)
    assert "rag-bot" in comment["body"]


def test_settings__model_id_is_parsed_and_checked(tmp_path: Path) -> None:
    base = {"INPUT_RESULTS": "pr/*.json", "GITHUB_WORKSPACE": str(tmp_path)}
    assert Settings.from_env(base).model_id is None
    assert Settings.from_env({**base, "INPUT_MODEL-ID": " rag-bot "}).model_id == "rag-bot"
    with pytest.raises(UsageError, match=r"^model-id: must be a printable model id"):
        Settings.from_env({**base, "INPUT_MODEL-ID": "a\x07b"})
