"""Helpers for the kept-history tests: a repository in the fake, events, one action run.

`Repo` puts a default branch with a first-parent history into the fake GitHub; `act`
runs the action in-process (`leaderboard.action.job.run`, the real Git Data client and
commenter talking HTTP to the fake) for a push or a pull request, and returns what a
workflow would see; `push_run` and `pr_run` are `act` for a push of a commit to
``main`` and a pull request onto a base commit; `workflow_run_half` the second half of
a fork's pull request. `damage` rewrites kept files on the history branch.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from leaderboard.action.comment.api import GitHubCommenter
from leaderboard.action.job import run
from leaderboard.action.settings import Settings
from leaderboard.action.status.publisher import make_statuses
from tests.action.action_helpers import annotations
from tests.conftest import make_runs
from tests.fakes.github_api import INSTALLATION_TOKEN, FakeGitHub

HISTORY = "leaderboard-history"
Event = dict[str, Any]
REPOSITORY = "octo-org/octo-repo"


def records(shift: float = 0.0, *, models: int = 3, tasks: int = 30, seed: int = 0) -> str:
    """JSON Lines of seeded records; ``shift`` moves model-2's scores (a regression)."""
    lines = []
    for r in make_runs(models=models, tasks=tasks, seed=seed):
        score = r.score + shift if r.model_id == "model-2" else r.score
        score = min(max(score, 0.0), 1.0)
        lines.append(
            json.dumps({"model_id": r.model_id, "task_id": r.task_id, "score": score})
        )
    return "\n".join(lines) + "\n"


def push_event(sha: str, branch: str = "main") -> dict[str, Any]:
    return {
        "ref": f"refs/heads/{branch}",
        "after": sha,
        "repository": {"default_branch": "main", "full_name": REPOSITORY},
    }


def pr_event(base: str, *, number: int = 7, head: str = "a" * 40) -> dict[str, Any]:
    return {
        "action": "synchronize",
        "number": number,
        "pull_request": {
            "number": number,
            "head": {"sha": head, "ref": "feature"},
            "base": {"sha": base, "ref": "main"},
        },
    }


class Repo:
    """The default branch ``main`` of the fake, one commit per `commit` call."""

    def __init__(self, fake: FakeGitHub) -> None:
        self.fake = fake
        self.n = 0

    def commit(self) -> str:
        self.n += 1
        return self.fake.git.commit_files(
            "main", {"src/app.py": f"v = {self.n}\n".encode()}
        )


@dataclass
class Outcome:
    code: int
    log: str
    summary: str
    report: dict[str, Any]

    @property
    def gate(self) -> dict[str, Any]:
        gate: dict[str, Any] = self.report["gate"]
        return gate

    def annotations(self) -> list[tuple[str, str, str]]:
        return annotations(self.log)


def act(
    tmp_path: Path,
    fake: FakeGitHub,
    *,
    event_name: str,
    event: Event,
    results: str | None = None,
    sha: str | None = None,
    token: str = INSTALLATION_TOKEN,
    files: dict[str, str] | None = None,
    statuses: bool = False,
    **inputs: str,
) -> Outcome:
    """Run the action in-process once; each call gets its own workspace.

    `results` defaults to `records()`. `files` are written into the workspace too
    (name relative to it -> text). With `statuses`, the commit status is set through
    the real client (`make_statuses`).
    """
    ws = tmp_path / f"ws{len(list(tmp_path.glob('ws*')))}"
    (ws / "results").mkdir(parents=True)
    (ws / "results" / "evals.jsonl").write_text(records() if results is None else results)
    for name, text in (files or {}).items():
        (ws / name).write_text(text)
    (ws / "event.json").write_text(json.dumps(event))
    env = {
        "GITHUB_API_URL": fake.base_url,
        "GITHUB_REPOSITORY": REPOSITORY,
        "GITHUB_EVENT_NAME": event_name,
        "GITHUB_EVENT_PATH": str(ws / "event.json"),
        "GITHUB_SHA": sha or event.get("after") or "e" * 40,
        "GITHUB_RUN_ID": "1001",
        "GITHUB_WORKSPACE": str(ws),
        "GITHUB_STEP_SUMMARY": str(ws / "summary.md"),
        "INPUT_RESULTS": "results/*.jsonl",
        "INPUT_RESAMPLES": "1000",
        "INPUT_GITHUB-TOKEN": token,
        "INPUT_HISTORY-BRANCH": HISTORY,
    }
    env.update({"INPUT_" + k.upper().replace("_", "-"): v for k, v in inputs.items()})
    settings = Settings.from_env(env)
    commenter = GitHubCommenter(
        token=token, api_url=fake.base_url, repository=REPOSITORY, sleep=lambda _s: None
    )
    out = io.StringIO()
    status_client = make_statuses(settings) if statuses else None
    code = run(settings, commenter, event=event, out=out, statuses=status_client)
    summary = (ws / "summary.md").read_text() if (ws / "summary.md").exists() else ""
    report_path = ws / "leaderboard-report.json"
    report = json.loads(report_path.read_text()) if report_path.exists() else {}
    return Outcome(code, out.getvalue(), summary, report)


def push_run(
    tmp_path: Path, fake: FakeGitHub, sha: str, *, event: Event | None = None, **kw: Any
) -> Outcome:
    """`act` for a push of `sha`: `push_event` of it (to ``main``) unless `event`."""
    event = push_event(sha) if event is None else event
    return act(tmp_path, fake, event_name="push", event=event, sha=sha, **kw)


def pr_run(
    tmp_path: Path, fake: FakeGitHub, base: str, *, event: Event | None = None, **kw: Any
) -> Outcome:
    """`act` for a pull request: `pr_event` of `base` (#7 onto ``main``) unless `event`."""
    event = pr_event(base) if event is None else event
    return act(tmp_path, fake, event_name="pull_request", event=event, **kw)


def workflow_run_half(
    tmp_path: Path, fake: FakeGitHub, pull_requests: list[dict[str, int]], **inputs: str
) -> tuple[str, Outcome]:
    """A push keeps the run of a commit; pull request #8 onto it, gated in a workflow_run.

    The workflow_run event (head ``a…a``) lists `pull_requests`; model-2 dropped by 0.2,
    ``fail-on-regression: false``. Returns the commit and the workflow_run's outcome.
    """
    c1 = Repo(fake).commit()
    push_run(tmp_path, fake, c1)
    fake.add_pull(8, head_sha="a" * 40, base_sha=c1)
    event = {"workflow_run": {"head_sha": "a" * 40, "pull_requests": pull_requests}}
    second = act(
        tmp_path,
        fake,
        event_name="workflow_run",
        event=event,
        results=records(shift=-0.2),
        fail_on_regression="false",
        **inputs,
    )
    return c1, second


def damage(
    fake: FakeGitHub, path: str, change: Callable[[bytes], bytes]
) -> dict[str, bytes]:
    """Commit `change` of the kept file `path` on the history branch; the tree back."""
    kept = fake.git.files(HISTORY)
    kept[path] = change(kept[path])
    fake.git.commit_files(HISTORY, kept)
    return kept
