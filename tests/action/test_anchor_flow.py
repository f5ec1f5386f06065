"""The ``anchor`` input through the action: a PR also gated against a tagged run.

In-process runs of `leaderboard.action.job.run` with the real Git Data client against
the fake GitHub (``GET commits/{ref}`` resolves the tag), as in ``test_history_flow``.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from tests.action.history_support import HISTORY, Outcome, Repo, pr_run, push_run
from tests.conftest import make_runs
from tests.fakes.github_api import FakeGitHub

TASKS = 40


def drifted(drop: float, *, noise: int) -> str:
    """Seeded records in which model-2 lost `drop` on average, with per-task noise.

    Each run draws its own noise (sd 0.06) on model-2's tasks, so that a small drop
    between two consecutive runs lies within the noise of their paired difference.
    """
    rng = np.random.default_rng(noise)
    lines = []
    for r in make_runs(models=3, tasks=TASKS, seed=0):
        score = r.score
        if r.model_id == "model-2":
            score = min(max(score - drop + float(rng.normal(0, 0.06)), 0.0), 1.0)
        lines.append(
            json.dumps({"model_id": r.model_id, "task_id": r.task_id, "score": score})
        )
    return "\n".join(lines) + "\n"


def _three_pushes(tmp_path: Path, github_api: FakeGitHub, **inputs: str) -> tuple[str, str]:
    """Run A stored at X (tag v1 -> X), then two later runs, each 0.03 lower."""
    repo = Repo(github_api)
    x = repo.commit()
    github_api.git.tag("v1", x)
    base = x
    for step in range(3):
        base = x if step == 0 else repo.commit()
        push = push_run(
            tmp_path,
            github_api,
            base,
            results=drifted(0.03 * step, noise=step),
            **inputs,
        )
        assert push.code == 0, push.log
    return x, base


def _dropped_pr(
    tmp_path: Path, github_api: FakeGitHub, base: str, **inputs: str
) -> Outcome:
    """The pull request onto `base` in which model-2 lost 0.08 since run A."""
    return pr_run(tmp_path, github_api, base, results=drifted(0.08, noise=9), **inputs)


def test_anchor__tagged_run__scope_anchor_comparison_regresses_beyond_the_margin(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    x, base = _three_pushes(tmp_path, github_api)
    pr = _dropped_pr(tmp_path, github_api, base, anchor="v1", anchor_margin="0.03")
    gate = pr.gate
    against_base = [c for c in gate["comparisons"] if c["scope"] == "overall"]
    anchored = [c for c in gate["comparisons"] if c["scope"] == "anchor"]
    assert not any(c["regressed"] for c in against_base), against_base
    assert {c["candidate"] for c in anchored} == {"model-0", "model-1", "model-2"}
    assert all(c["baseline"] == f"{c['candidate']} @ anchor v1" for c in anchored)
    assert [c["candidate"] for c in anchored if c["regressed"]] == ["model-2"]
    assert gate["anchor"] == "anchor v1"
    assert gate["status"] == "regressed"
    assert pr.code == 1, pr.log
    assert f"anchor: gated against the run of {x[:7]}" in pr.log

    # The same pull request without the anchor passes: the drop since the base is noise.
    plain = _dropped_pr(tmp_path, github_api, base)
    assert plain.code == 0, plain.log
    assert all(c["scope"] != "anchor" for c in plain.gate["comparisons"])


def test_anchor__short_sha__the_run_of_that_commit(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    x, base = _three_pushes(tmp_path, github_api)
    pr = _dropped_pr(tmp_path, github_api, base, anchor=x[:10], anchor_margin="0.5")
    anchored = [c for c in pr.gate["comparisons"] if c["scope"] == "anchor"]
    assert len(anchored) == 3
    assert pr.gate["anchor"] == f"anchor {x[:7]}"
    assert not any(c["regressed"] for c in anchored)  # within the 0.5 budget
    assert pr.code == 0, pr.log


def test_anchor__commit_not_stored__warning_no_comparison_same_exit(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    _, base = _three_pushes(tmp_path, github_api)
    unstored = Repo(github_api).commit()  # a commit no push stored a run for
    outcomes = []
    for anchor in ("", unstored):
        outcomes.append(
            _dropped_pr(
                tmp_path,
                github_api,
                base,
                anchor=anchor,
                anchor_margin="0.03",
            )
        )
    without, missing = outcomes
    assert missing.code == without.code == 0
    assert missing.gate["status"] == without.gate["status"]
    assert all(c["scope"] != "anchor" for c in missing.gate["comparisons"])
    assert missing.gate["anchor"] is None
    (warning,) = [w for w in missing.report["warnings"] if "anchor" in w]
    assert repr(unstored) in warning
    assert f"history-branch: {HISTORY}" in warning  # how to store it
    assert "leaderboard/index.json" in warning
    assert ("warning", warning) in [(a[0], a[2]) for a in missing.annotations()]


def test_anchor__run_pruned_by_history_keep__warning_says_so_and_how_to_keep_it(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    x, base = _three_pushes(tmp_path, github_api, history_keep="2")
    index = json.loads(github_api.git.files(HISTORY)["leaderboard/index.json"])
    assert x not in [r["commit"] for r in index["runs"]]  # the tagged run was pruned
    pr = _dropped_pr(tmp_path, github_api, base, anchor="v1", anchor_margin="0.03")
    assert pr.code == 0, pr.log
    assert all(c["scope"] != "anchor" for c in pr.gate["comparisons"])
    (warning,) = [w for w in pr.report["warnings"] if "anchor" in w]
    assert f"No run is kept on {HISTORY} for anchor 'v1' ({x[:7]})" in warning
    assert "or it was pruned" in warning
    assert "keeps only the last history-keep runs" in warning
    assert "set history-keep on the push job" in warning
    assert "move anchor to a newer tag" in warning
    assert f"re-running the push workflow of {x[:7]} stores its run again" in warning
    assert ("warning", warning) in [(a[0], a[2]) for a in pr.annotations()]


def test_anchor__unknown_tag__warning_no_comparison(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    _, base = _three_pushes(tmp_path, github_api)
    pr = _dropped_pr(tmp_path, github_api, base, anchor="v9")
    assert pr.code == 0, pr.log
    assert all(c["scope"] != "anchor" for c in pr.gate["comparisons"])
    (warning,) = [w for w in pr.report["warnings"] if "anchor" in w]
    assert "'v9' names no commit" in warning


def test_anchor__push__no_anchor_lookup(tmp_path: Path, github_api: FakeGitHub) -> None:
    repo = Repo(github_api)
    x = repo.commit()
    github_api.git.tag("v1", x)
    push = push_run(tmp_path, github_api, x, results=drifted(0.0, noise=0), anchor="v1")
    assert push.code == 0, push.log
    assert github_api.calls("git_get_ref_commit") == []
    assert push.report["warnings"] == []
