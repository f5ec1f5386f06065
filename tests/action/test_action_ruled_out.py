"""Green means a drop is ruled out (CONTRACT.md section 13), through `job.main`.

The real SWE-bench pair of tests/fixtures/swebench (one agent, the same 100 instances,
68 and 34 errored in the harness; 21 scored in both) compared on what both runs scored:
its interval, about [-0.40, 0.12], rules out neither a regression nor a drop of 0.05, so
every surface says it cannot tell, with about how many instances would settle it;
the commit status is ``success`` (not a pass, not a failure) unless
``fail-on-undetermined``, and ``max-drop`` wide enough for the interval turns it green.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from leaderboard.action.job import main
from tests.action.action_job import HEAD_SHA, Job
from tests.fakes.github_api import INSTALLATION_TOKEN, FakeGitHub

SWEBENCH = Path(__file__).resolve().parents[1] / "fixtures" / "swebench"


def swebench_job(
    root: Path, api_url: str, pr: str = "yyloong-2", base: str = "yyloong-1", **inputs: str
) -> Job:
    """The action on the real SWE-bench pair: `pr`'s report as the results, `base`'s as
    the baseline run (labelled main)."""
    job = Job(root, api_url)
    for sub, name in (("pr", pr), ("main", base)):
        (job.workspace / sub).mkdir(parents=True)
        for f in (SWEBENCH / name).glob("*.json"):
            shutil.copy(f, job.workspace / sub / f.name)
    job.inputs = {
        "RESULTS": "pr/*.json",
        "BASELINE-RESULTS": "main/*.json",
        "BASELINE-LABEL": "main",
        "RESAMPLES": "2000",
        "JSON-REPORT": "out/report.json",
        "GITHUB-TOKEN": INSTALLATION_TOKEN,
        **inputs,
    }
    return job


def _run(job: Job, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    capsys.readouterr()
    code = main(job.env())
    return code, capsys.readouterr().out


def test_swebench_pair__21_shared__cannot_tell_on_every_surface(
    tmp_path: Path, github_api: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    job = swebench_job(tmp_path, github_api.base_url)
    code, log = _run(job, capsys)
    assert code == 0
    report = json.loads((job.workspace / "out/report.json").read_text("utf-8"))
    (comp,) = [c for c in report["gate"]["comparisons"] if c["measure"] == "score"]
    assert comp["shared_units"] == 21
    assert comp["status"] == "undetermined"
    assert comp["interval"] is True
    assert comp["ci_lo"] < -0.05 < 0.0 < comp["ci_hi"]  # neither a drop nor none
    assert comp["max_drop"] == 0.05
    assert comp["confidence"] == 0.95
    assert report["gate"]["status"] == "undetermined"
    v = report["verdict"]
    assert v["state"] == "cannot_tell"
    assert v["ruled_out"] == pytest.approx(-comp["ci_lo"])
    # the planning figure, n (SE / target)^2, from the interval's own lower half-width
    # (one comparison at 95% on 21 instances: t_{0.975, 20} = 2.086)
    se = (comp["diff_mean"] - comp["ci_lo"]) / 2.086
    expected = 21 * (se / (0.05 / (1.960 + 0.8416))) ** 2
    assert expected <= v["units_needed"] <= expected * 1.1  # rounded up, 2 figures
    (comment,) = github_api.comments(7)
    first = next(x for x in comment["body"].splitlines() if x and not x.startswith("<!--"))
    drop = f"{-comp['ci_lo']:.3f}"
    assert first.startswith("🟡 **Cannot tell**")
    assert f"a drop as large as {drop} is not ruled out; about " in first
    assert re.search(r"about [\d,]+ items would rule out 0\.050\. Not a pass\.", first)
    assert job.summary().split("\n", 1)[0] == first
    (status,) = github_api.status.latest(HEAD_SHA).values()
    assert status["state"] == "success"
    assert status["description"].startswith("cannot tell: score -0.143 [")
    assert status["description"].endswith(
        f"a drop of {drop} not ruled out, ~{v['units_needed']:,} items would rule out 0.050"
    )
    assert job.outputs()["gate-status"] == "undetermined"
    assert job.outputs()["verdict"] == "cannot_tell"
    assert "::warning" in log
    assert "gate undetermined" in log


def test_swebench_pair__fail_on_undetermined_fails_and_a_wide_max_drop_passes(
    tmp_path: Path, github_api: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    strict = {"FAIL-ON-UNDETERMINED": "true"}
    job = swebench_job(tmp_path / "a", github_api.base_url, **strict)
    code, _ = _run(job, capsys)
    assert code == 1
    (status,) = github_api.status.latest(HEAD_SHA).values()
    assert status["state"] == "failure"
    wide = swebench_job(tmp_path / "b", github_api.base_url, **{"MAX-DROP": "0.5"})
    code, _ = _run(wide, capsys)
    assert code == 0
    report = json.loads((wide.workspace / "out/report.json").read_text("utf-8"))
    assert report["gate"]["status"] == "no_regression"
    assert report["settings"]["max_drop"] == 0.5
    assert report["verdict"]["ruled_out"] == pytest.approx(-report["verdict"]["ci_lo"])


def test_max_drop_input__refused_out_of_range(
    tmp_path: Path, github_api: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    job = swebench_job(tmp_path, github_api.base_url, **{"MAX-DROP": "0"})
    code, log = _run(job, capsys)
    assert code == 2
    assert "max-drop: must be above 0 and at most 1" in log
    assert "Traceback" not in log
