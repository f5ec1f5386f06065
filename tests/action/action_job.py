"""A job as the Actions runner lays it out for a Docker action, for end-to-end tests.

The runner mounts the workspace at ``/github/workspace``, the event file under
``/github/workflow`` and the ``GITHUB_OUTPUT`` / ``GITHUB_STEP_SUMMARY`` files under
``/github/file_commands``, and passes every input as ``INPUT_<NAME>`` (upper-cased,
hyphens kept). `Job` builds the three directories on the host and the environment,
with either the host paths (running ``entrypoint.py`` directly) or the container paths.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.action.action_helpers import annotations, parse_outputs
from tests.conftest import make_runs
from tests.fakes.github_api import INSTALLATION_TOKEN

__all__ = [
    "CONTAINER_ROOT",
    "Job",
    "annotations",
    "guardrails_job",
    "results_job",
    "write_results",
]

CONTAINER_ROOT = Path("/github")
GUARDRAIL_LOGS = Path(__file__).resolve().parents[1] / "fixtures" / "inspect" / "guardrails"
REPOSITORY = "octo-org/octo-repo"
HEAD_SHA = "a" * 40
MERGE_SHA = "e" * 40


def write_results(path: Path, *, tasks: int = 30) -> None:
    """Seeded records: model-0 < model-1 < model-2 (model-0 clearly below model-2)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as fh:
        for run in make_runs(tasks=tasks):
            record = {"model_id": run.model_id, "task_id": run.task_id, "score": run.score}
            fh.write(json.dumps(record) + "\n")


@dataclass
class Job:
    """The host side of one action run: workspace, workflow and file-command dirs."""

    root: Path
    api_url: str
    event_name: str = "pull_request"
    event: dict[str, Any] = field(default_factory=dict)
    inputs: dict[str, str] = field(default_factory=dict)
    run_id: int = 1001
    sha: str = MERGE_SHA  # GITHUB_SHA: the merge commit of a PR, the pushed commit

    def __post_init__(self) -> None:
        for sub in ("workspace", "workflow", "file_commands"):
            (self.root / sub).mkdir(parents=True, exist_ok=True)
        if not self.event and self.event_name in ("pull_request", "pull_request_target"):
            self.event = {
                "action": "synchronize",
                "number": 7,
                "pull_request": {"number": 7, "head": {"sha": HEAD_SHA}},
            }

    def as_workflow_run(self, head: str, listed: list[int]) -> None:
        """Make this the workflow_run half of the fork-safe recipe for `head`.

        The event lists the pull requests `listed` (a fork's lists none);
        ``GITHUB_SHA`` becomes the default branch's head, as on workflow_run.
        """
        self.event_name = "workflow_run"
        self.event = {
            "workflow_run": {
                "id": 5,
                "event": "pull_request",
                "head_sha": head,
                "pull_requests": [{"number": n} for n in listed],
            }
        }
        self.sha = "f" * 40

    @property
    def workspace(self) -> Path:
        return self.root / "workspace"

    def env(self, *, container: bool = False) -> dict[str, str]:
        """The environment the runner gives the action (host or container paths)."""
        (self.root / "workflow" / "event.json").write_text(json.dumps(self.event))
        for name in ("set_output", "step_summary"):
            (self.root / "file_commands" / name).touch()
        base = CONTAINER_ROOT if container else self.root
        ws = base / "workspace"
        env = {
            "GITHUB_ACTIONS": "true",
            "CI": "true",
            "GITHUB_API_URL": self.api_url,
            "GITHUB_SERVER_URL": "https://github.com",
            "GITHUB_REPOSITORY": REPOSITORY,
            "GITHUB_EVENT_NAME": self.event_name,
            "GITHUB_EVENT_PATH": str(base / "workflow" / "event.json"),
            "GITHUB_SHA": self.sha,
            "GITHUB_RUN_ID": str(self.run_id),
            "GITHUB_WORKSPACE": str(ws),
            "GITHUB_OUTPUT": str(base / "file_commands" / "set_output"),
            "GITHUB_STEP_SUMMARY": str(base / "file_commands" / "step_summary"),
            "HOME": str(base / "home") if container else str(self.root),
        }
        for name, value in self.inputs.items():
            env["INPUT_" + name.upper()] = value
        return env

    def outputs(self) -> dict[str, str]:
        return parse_outputs((self.root / "file_commands" / "set_output").read_text())

    def summary(self) -> str:
        return (self.root / "file_commands" / "step_summary").read_text(encoding="utf-8")


def results_job(
    root: Path,
    api_url: str,
    *,
    baseline: str,
    token: str = INSTALLATION_TOKEN,
    **inputs: str,
) -> Job:
    """A pull-request `Job` of `write_results`' records, models gated against `baseline`.

    `inputs` are by their names (``fail-on-regression``; any case), after the results,
    ``baseline``, ``resamples: 1000`` and ``github-token``; a later one wins.
    """
    job = Job(root, api_url)
    write_results(job.workspace / "results" / "evals.jsonl")
    job.inputs = {
        "RESULTS": "results/*.jsonl",
        "BASELINE": baseline,
        "RESAMPLES": "1000",
        "GITHUB-TOKEN": token,
        **{k.upper(): v for k, v in inputs.items()},
    }
    return job


def guardrails_job(root: Path, api_url: str, guardrails: str, **inputs: str) -> Job:
    """A pull-request `Job` of the real Inspect pair of tests/fixtures/inspect/guardrails.

    ``pr/candidate.eval`` gated against ``main/baseline.eval`` (label ``main``) with
    ``guardrails``; `inputs` (upper-case names) are added after those.
    """
    job = Job(root, api_url)
    for sub, name in (("pr", "candidate.eval"), ("main", "baseline.eval")):
        (job.workspace / sub).mkdir(parents=True)
        shutil.copy(GUARDRAIL_LOGS / name, job.workspace / sub / name)
    job.inputs = {
        "RESULTS": "pr/*.eval",
        "BASELINE-RESULTS": "main/*.eval",
        "BASELINE-LABEL": "main",
        "GUARDRAILS": guardrails,
        "GITHUB-TOKEN": INSTALLATION_TOKEN,
        **inputs,
    }
    return job
