"""The kept history end to end through the built image, against the fake GitHub API.

push (stores, the branch created), pull request (found, gated), pushes (stored, pruned
at ``history-keep: 2``), pull request (gated against the newest run), two pushes racing
(both land), and a fork's read-only token (reads and gates). Timings are written to
``out/container-timings.json`` with the image test's figures.
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest

from tests.action.action_job import HEAD_SHA, Job, annotations
from tests.action.history_support import HISTORY, Repo, pr_event, push_event, records
from tests.action.test_container import _record, image, run_container
from tests.fakes.github_api import INSTALLATION_TOKEN, READ_ONLY_TOKEN, FakeGitHub

__all__ = ["image"]  # the module-scoped fixture that builds the image

pytestmark = [pytest.mark.container, pytest.mark.slow]


def job_for(
    root: Path,
    api: FakeGitHub,
    name: str,
    event: dict,
    *,
    shift: float = 0.0,
    **inputs: str,
) -> Job:
    kind = "push" if "ref" in event else "pull_request"
    job = Job(root / name, api.base_url, event_name=kind, event=event)
    if kind == "push":
        job.sha = event["after"]
    (job.workspace / "results").mkdir(parents=True, exist_ok=True)
    (job.workspace / "results" / "evals.jsonl").write_text(records(shift=shift))
    job.inputs = {
        "RESULTS": "results/*.jsonl",
        "RESAMPLES": "1000",
        "GITHUB-TOKEN": INSTALLATION_TOKEN,
        "HISTORY-BRANCH": HISTORY,
        "HISTORY-KEEP": "2",
        **inputs,
    }
    return job


def report(job: Job) -> dict:
    return json.loads((job.workspace / job.outputs()["report"]).read_text())


def index(api: FakeGitHub) -> list[str]:
    data = json.loads(api.git.files(HISTORY)["leaderboard/index.json"])
    return [r["commit"] for r in data["runs"]]


def test_container_history__push_pr_push_pr_race_and_fork(
    image: list[str], tmp_path: Path
) -> None:
    with FakeGitHub() as api:
        api.add_pull(7, head_sha=HEAD_SHA)
        repo = Repo(api)
        c1 = repo.commit()

        t0 = time.monotonic()
        first = run_container(image, job_for(tmp_path, api, "push1", push_event(c1)))
        t_store = time.monotonic() - t0
        assert first.returncode == 0, first.stdout + first.stderr
        assert annotations(first.stdout) == []
        assert index(api) == [c1]
        assert api.git.commits[api.git.refs[f"refs/heads/{HISTORY}"]]["parents"] == []

        pr = job_for(tmp_path, api, "pr1", pr_event(c1), shift=-0.2)
        t0 = time.monotonic()
        gated = run_container(image, pr)
        t_read = time.monotonic() - t0
        assert gated.returncode == 1, gated.stdout + gated.stderr
        assert report(pr)["gate"]["baseline_run"]["commit"] == c1
        assert f"model-2 @ main {c1[:7]}" in api.comments(7)[0]["body"]

        c2, c3 = repo.commit(), repo.commit()
        for name, sha in (("push2", c2), ("push3", c3)):
            res = run_container(image, job_for(tmp_path, api, name, push_event(sha)))
            assert res.returncode == 0, res.stdout + res.stderr
        assert index(api) == [c2, c3]  # c1 pruned at history-keep 2
        assert not [p for p in api.git.files(HISTORY) if c1 in p]

        base = repo.commit()  # the pull request's base: one commit past the newest run
        pr2 = job_for(tmp_path, api, "pr2", pr_event(base))
        res = run_container(image, pr2)
        assert res.returncode == 0, res.stdout + res.stderr
        run = report(pr2)["gate"]["baseline_run"]
        assert (run["commit"], run["commits_behind"]) == (c3, 1)
        assert report(pr2)["gate"]["status"] == "no_regression"

        c5, c6 = repo.commit(), repo.commit()
        results: dict[str, int] = {}

        def push(name: str, sha: str) -> None:
            job = job_for(tmp_path, api, name, push_event(sha), **{"HISTORY-KEEP": "5"})
            results[name] = run_container(image, job).returncode

        threads = [threading.Thread(target=push, args=a) for a in (("r5", c5), ("r6", c6))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(300)
        assert results == {"r5": 0, "r6": 0}
        assert set(index(api)) == {c2, c3, c5, c6}  # both racing pushes landed

        fork = job_for(
            tmp_path,
            api,
            "fork",
            pr_event(c6),
            shift=-0.2,
            **{"GITHUB-TOKEN": READ_ONLY_TOKEN},
        )
        res = run_container(image, fork)
        assert res.returncode == 1, res.stdout + res.stderr  # gated with a read-only token
        assert report(fork)["gate"]["baseline_run"]["commit"] == c6
        assert INSTALLATION_TOKEN not in res.stdout + res.stderr
        assert READ_ONLY_TOKEN not in res.stdout + res.stderr
    _record(history_push_store_s=t_store, history_pr_read_gate_s=t_read)
