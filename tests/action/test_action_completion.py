"""Errored units as a measure (CONTRACT.md section 13), through `job.main` and fake GitHub.

The real SWE-bench pair of tests/fixtures/swebench (one agent, the same 100 instances,
68 errored in the harness in `yyloong-1`, 34 in `yyloong-2`). With `yyloong-2` as the
pull request, its score cannot tell (21 instances scored in both) and its completion
is no worse: the verdict is the score's "cannot tell" (tests/action/test_action_ruled_out.py
reads the rest). With `yyloong-1` as the pull request, the agent scored 32 of the 100
instances both runs attempted against the base branch's 66: the exact paired test on
the 56 discordant instances (45 against, 11 for) rejects, and every surface names the
completion regression.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from leaderboard.action.job import main
from tests.action.action_job import HEAD_SHA, Job
from tests.action.test_action_ruled_out import swebench_job
from tests.fakes.github_api import FakeGitHub


def _run(job: Job, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, Any]:
    capsys.readouterr()
    code = main(job.env())
    log = capsys.readouterr().out
    return code, log, json.loads((job.workspace / "out/report.json").read_text("utf-8"))


def test_more_errored_instances__a_completion_regression_on_every_surface(
    tmp_path: Path, github_api: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    job = swebench_job(tmp_path, github_api.base_url, pr="yyloong-1", base="yyloong-2")
    code, log, report = _run(job, capsys)
    assert code == 1
    score, done = report["gate"]["comparisons"]
    assert score["measure"] == "score"
    assert score["shared_units"] == 21  # the score still compares only these
    assert score["status"] == "undetermined"
    assert done["measure"] == "completion"
    assert done["shared_units"] == 100
    assert (done["candidate_mean"], done["baseline_mean"]) == (0.32, 0.66)
    assert done["diff_mean"] == pytest.approx(-0.34)
    assert done["status"] == "regressed"
    assert done["ci_hi"] < 0
    assert "45 scored by the baseline only, 11 by the candidate only" in done["note"]
    assert report["gate"]["status"] == "regressed"
    assert report["gate"]["completion_family_size"] == 1
    assert report["gate"]["bound"] == pytest.approx(0.05)
    v = report["verdict"]
    assert (v["state"], v["measure"]) == ("regressed", "completion")
    assert v["estimate"] == pytest.approx(-0.34)
    (comment,) = github_api.comments(7)
    first = next(x for x in comment["body"].splitlines() if x and not x.startswith("<!--"))
    assert first.startswith("🔴 **Regression**")
    assert ", completion -0.340 [" in first
    body = comment["body"]
    assert "🔴 Completion (the share scored of the units both runs attempted" in body
    assert "0.320 vs 0.660" in body
    assert "guardrail, tolerated" not in body  # completion is no guardrail
    assert job.summary().split("\n", 1)[0] == first
    (status,) = github_api.status.latest(HEAD_SHA).values()
    assert status["state"] == "failure"
    assert status["description"].startswith("regressed: completion -0.340 [")
    assert job.outputs()["verdict"] == "regressed"
    assert job.outputs()["gate-status"] == "regressed"
    assert "completion -0.340" in log


def test_fewer_errored_instances__the_score_still_cannot_tell(
    tmp_path: Path, github_api: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    job = swebench_job(tmp_path, github_api.base_url, pr="yyloong-2", base="yyloong-1")
    code, _, report = _run(job, capsys)
    assert code == 0
    (done,) = [c for c in report["gate"]["comparisons"] if c["measure"] == "completion"]
    assert (done["candidate_mean"], done["baseline_mean"]) == (0.66, 0.32)
    assert done["status"] == "no_regression"
    assert report["gate"]["status"] == "undetermined"
    assert (report["verdict"]["state"], report["verdict"]["measure"]) == (
        "cannot_tell",
        "score",
    )
    (status,) = github_api.status.latest(HEAD_SHA).values()
    assert status["description"].startswith("cannot tell: score -0.143 [")


def test_devstral_pair__half_errored__completion_decides__the_score_cannot_tell(
    tmp_path: Path, github_api: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    """Another real pair (tests/fixtures/swebench/devstral-c50-*): one system, one model,
    the same 50 instances; the earlier run errored on 26 of them, the later on none.
    Read as a pull request that breaks the harness (the earlier run as the PR)."""
    job = swebench_job(
        tmp_path, github_api.base_url, pr="devstral-c50-b", base="devstral-c50-a"
    )
    code, _, report = _run(job, capsys)
    assert code == 1
    score, done = report["gate"]["comparisons"]
    # the 24 instances scored in both agree on every one (1 resolved in each): the
    # interval is Tango's floor for no discordant item, t^2 / (n + t^2) at n = 24
    assert (score["shared_units"], score["diff_mean"]) == (24, 0.0)
    assert score["status"] == "undetermined"
    assert score["ci_lo"] == pytest.approx(-0.1513, abs=5e-4)
    assert done["measure"] == "completion"
    assert (done["candidate_mean"], done["baseline_mean"]) == (0.48, 1.0)
    assert done["status"] == "regressed"
    assert done["ci_hi"] < 0
    assert done["ci_lo"] < done["diff_mean"] - 0.1  # not the conditional end, -0.52
    assert "26 scored by the baseline only, 0 by the candidate only" in done["note"]
    assert (report["verdict"]["state"], report["verdict"]["measure"]) == (
        "regressed",
        "completion",
    )
    (status,) = github_api.status.latest(HEAD_SHA).values()
    assert status["state"] == "failure"
    assert status["description"].startswith("regressed: completion -0.520 [-0.652, ")
