"""The ``show-outputs`` input end to end: entrypoint.py against the fake GitHub API.

The real Inspect logs of tests/fixtures/inspect/differ (main, and a model swap where
arith-001, -004 and -010 now answer wrong) on a pull request of a private and of a
public repository (the event's ``repository.private``), and records with a hostile
answer: text, never markdown, HTML or a workflow command, in the comment, the summary
and the log.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from leaderboard.action.event import parse_event
from leaderboard.action.settings import Settings
from leaderboard.errors import UsageError
from tests.action.action_job import HEAD_SHA, Job, annotations
from tests.action.test_action_e2e import launch
from tests.fakes.github_api import INSTALLATION_TOKEN, FakeGitHub

pytestmark = pytest.mark.slow  # a fresh interpreter per run

DIFFER = Path(__file__).resolve().parents[1] / "fixtures" / "inspect" / "differ"
SHOWN = "What they answered (the first line of each, from the result files)"


def _event(private: bool | None) -> dict[str, Any]:
    repository: dict[str, Any] = {"full_name": "octo-org/octo-repo"}
    if private is not None:
        repository["private"] = private
    return {
        "action": "synchronize",
        "number": 7,
        "pull_request": {"number": 7, "head": {"sha": HEAD_SHA}},
        "repository": repository,
    }


def _job(tmp_path: Path, api: FakeGitHub, private: bool | None, **inputs: str) -> Job:
    job = Job(tmp_path / "job", api.base_url, event=_event(private))
    for sub, folder in (("pr", "renamed"), ("main", "main")):
        shutil.copytree(DIFFER / folder, job.workspace / sub)
    job.inputs = {
        "RESULTS": "pr/",
        "BASELINE-RESULTS": "main/",
        "BASELINE-LABEL": "main",
        "RESAMPLES": "1000",
        "GITHUB-TOKEN": INSTALLATION_TOKEN,
        **{k.upper().replace("_", "-"): v for k, v in inputs.items()},
    }
    return job


def _run(job: Job, api: FakeGitHub) -> tuple[str, dict[str, Any], str]:
    """The comment, the JSON report and the log of one run."""
    res = launch(job)
    assert res.returncode == 0, res.stdout + res.stderr
    (comment,) = api.comments(7)
    report = json.loads((job.workspace / job.outputs()["report"]).read_text())
    return comment["body"], report, res.stdout


def _answers(report: dict[str, Any]) -> list[Any]:
    return [
        item.get("answers")
        for c in report["gate"]["comparisons"]
        for item in c["worst_items"]
    ]


def test_auto_on_a_private_repository__answers_in_comment_summary_and_report(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    job = _job(tmp_path, github_api, private=True)
    body, report, _ = _run(job, github_api)
    assert SHOWN in body
    assert "- arith-001: What is 1 + 1?\n  - baseline: 2\n  - candidate: 21" in body
    assert SHOWN in job.summary()
    assert report["settings"]["show_outputs"] is True
    assert {"input": "What is 1 + 1?", "baseline": "2", "candidate": "21"} in _answers(
        report
    )


@pytest.mark.parametrize("private", [False, None])
def test_auto_on_a_public_repository__no_answer_anywhere(
    tmp_path: Path, github_api: FakeGitHub, private: bool | None
) -> None:
    job = _job(tmp_path, github_api, private=private)
    body, report, log = _run(job, github_api)
    assert "Dropped most" in body  # the items are listed, their answers are not
    for text in (body, job.summary(), json.dumps(report), log):
        assert SHOWN not in text
        assert "What is 1 + 1?" not in text
    assert report["settings"]["show_outputs"] is False
    assert set(map(str, _answers(report))) == {"None"}


@pytest.mark.parametrize(("private", "choice"), [(False, "true"), (True, "false")])
def test_true_and_false_choose_whatever_the_repository(
    tmp_path: Path, github_api: FakeGitHub, private: bool, choice: str
) -> None:
    job = _job(tmp_path, github_api, private=private, show_outputs=choice)
    body, report, _ = _run(job, github_api)
    assert (SHOWN in body) is (choice == "true")
    assert report["settings"]["show_outputs"] is (choice == "true")


HOSTILE = (
    "::set-output name=regressed::false\n"
    "::error::pwned\n"
    "<img src=x onerror=alert(1)> **bold** [x](https://evil.example) @octocat"
)


def test_a_hostile_answer_stays_text_in_the_comment_the_summary_and_the_log(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    job = Job(tmp_path / "job", github_api.base_url, event=_event(True))
    lines = []
    for model, score in (("base", 1), ("cand", 0)):
        for i in range(30):
            dropped = i < 10
            lines.append(
                {
                    "model_id": model,
                    "task_id": "t",
                    "item_id": f"q{i}",
                    "score": score if dropped else 1,
                    "input": f"::error::question {i}\n**second line**",
                    "output": HOSTILE if dropped else "fine",
                }
            )
    path = job.workspace / "results.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in lines))
    job.inputs = {
        "RESULTS": "results.jsonl",
        "BASELINE": "base",
        "RESAMPLES": "1000",
        "GITHUB-TOKEN": INSTALLATION_TOKEN,
    }
    res = launch(job)
    assert res.returncode == 1, res.stdout + res.stderr  # cand regressed
    (comment,) = github_api.comments(7)
    body, summary = comment["body"], job.summary()
    assert SHOWN in body
    assert "- candidate: ::set-output name=regressed::false …" in body
    for text in (body, summary, res.stdout):
        for line in text.splitlines():
            assert not line.lstrip().startswith(("::set-output", "::error::pwned")), line
            assert not line.lstrip().startswith("::error::question"), line
    assert "pwned" not in res.stdout
    assert [a for a in annotations(res.stdout) if "pwned" in a[2]] == []
    # only the first line of each is kept: the rest never reaches the comment
    assert "- q0: ::error::question 0 …" in body
    assert "second line" not in body
    assert "<img" not in body
    assert job.outputs()["regressed"] == "true"  # the answer set no output


def test_settings__show_outputs_takes_auto_true_false() -> None:
    base = {"INPUT_RESULTS": "r.jsonl"}
    assert Settings.from_env(base).show_outputs == "auto"
    for raw, want in (("AUTO", "auto"), ("true", "true"), ("False", "false")):
        assert Settings.from_env({**base, "INPUT_SHOW-OUTPUTS": raw}).show_outputs == want
    with pytest.raises(UsageError, match=r"^show-outputs: must be auto, true or false"):
        Settings.from_env({**base, "INPUT_SHOW-OUTPUTS": "yes"})


def test_event__private_is_read_once_and_auto_counts_unknown_as_public() -> None:
    assert parse_event(_event(True)).private is True
    assert parse_event(_event(False)).private is False
    assert parse_event(_event(None)).private is None
    assert parse_event({"repository": {"private": "true"}}).private is None
    assert parse_event(_event(True)).shows_outputs("auto") is True
    assert parse_event(_event(None)).shows_outputs("auto") is False
    assert parse_event(_event(False)).shows_outputs("true") is True
    assert parse_event(_event(True)).shows_outputs("false") is False
