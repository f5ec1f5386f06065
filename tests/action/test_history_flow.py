"""The kept history through the action: pushes store, pull requests are gated against them.

In-process runs of `leaderboard.action.job.run` with the real Git Data client and
commenter, against the fake GitHub's Git Data endpoints.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from tests.action.history_support import (
    HISTORY,
    Repo,
    act,
    pr_run,
    push_event,
    push_run,
    records,
    workflow_run_half,
)
from tests.fakes.github_api import READ_ONLY_TOKEN, FakeGitHub


def test_history__push_then_pull_request__gated_against_the_stored_run(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    repo = Repo(github_api)
    c1 = repo.commit()
    push = push_run(tmp_path, github_api, c1)
    assert push.code == 0, push.log
    assert push.annotations() == []
    files = github_api.git.files(HISTORY)
    stored = f"leaderboard/runs/{c1}"
    assert set(files) == {
        "README.md",
        "leaderboard/index.json",
        f"{stored}/records.jsonl.gz",
        f"{stored}/report.json",
    }
    lines = gzip.decompress(files[f"{stored}/records.jsonl.gz"]).decode().splitlines()
    assert len(lines) == 90  # 3 models x 30 tasks, normalised
    index = json.loads(files["leaderboard/index.json"])
    (entry,) = index["runs"]
    assert entry["commit"] == c1
    assert entry["branch"] == "main"
    assert set(entry["models"]) == {"model-0", "model-1", "model-2"}
    assert "Kept runs of `main`: 1" in push.summary

    pr = pr_run(tmp_path, github_api, c1, results=records(shift=-0.2))
    assert pr.code == 1, pr.log  # model-2 dropped by 0.2 against its stored self
    gate = pr.gate
    assert gate["status"] == "regressed"
    assert gate["baseline"] == f"main {c1[:7]}"
    assert gate["baseline_run"] == {
        "label": f"main {c1[:7]}",
        "source": "history",
        "branch": "main",
        "commit": c1,
        "stored_at": entry["stored_at"],
        "commits_behind": 0,
        "trend": [  # the kept runs up to the baseline's: one, so no chart
            {
                "commit": c1,
                "stored_at": entry["stored_at"],
                "models": {
                    m: {"mean": v[0], "lo": v[1], "hi": v[2]}
                    for m, v in entry["models"].items()
                },
            }
        ],
    }
    assert "```mermaid" not in github_api.comments(7)[0]["body"]
    regressed = [c for c in gate["comparisons"] if c["regressed"]]
    assert [c["candidate"] for c in regressed] == ["model-2"]
    assert regressed[0]["baseline"] == f"model-2 @ main {c1[:7]}"
    (comment,) = github_api.comments(7)
    assert f"the run stored for `{c1[:7]}`" in comment["body"]
    assert github_api.git.files(HISTORY) == files  # a pull request stores nothing


def test_history__pull_request_base_ahead__nearest_stored_first_parent_ancestor(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    repo = Repo(github_api)
    c1 = repo.commit()
    push_run(tmp_path, github_api, c1)
    repo.commit()
    side = github_api.git.commit_files("side", {"x": b"1"})  # a merged branch's commit
    github_api.git.merge("main", side)
    base = repo.commit()
    pr = pr_run(tmp_path, github_api, base)
    assert pr.code == 0, pr.log
    assert pr.gate["status"] == "no_regression"
    assert pr.gate["baseline_run"]["commit"] == c1
    assert pr.gate["baseline_run"]["commits_behind"] == 3
    assert "3 commits behind the base" in github_api.comments(7)[0]["body"]


def test_history__nothing_stored__no_baseline_run_exit_0_never_a_pass(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    base = Repo(github_api).commit()
    pr = pr_run(tmp_path, github_api, base, results=records(shift=-0.3))
    assert pr.code == 0, pr.log
    assert pr.gate["status"] == "no_baseline_run"
    assert pr.gate["comparisons"] == []
    assert "The next push to main stores one" in pr.gate["note"]
    body = github_api.comments(7)[0]["body"]
    assert "No baseline run" in body
    assert "No regression" not in body
    assert "🟢" not in body


def test_history__fork_read_only_token__reads_and_gates(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    c1 = Repo(github_api).commit()
    push_run(tmp_path, github_api, c1)
    writes_before = len([r for r in github_api.requests if r.method != "GET"])
    pr = pr_run(
        tmp_path, github_api, c1, results=records(shift=-0.2), token=READ_ONLY_TOKEN
    )
    assert pr.code == 1, pr.log
    assert pr.gate["status"] == "regressed"
    writes = [r for r in github_api.requests if r.method != "GET"][writes_before:]
    assert all(r.route == "create_comment" for r in writes)  # only the refused comment


def test_history__read_only_token_on_push__one_warning_and_the_gates_status(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    c1 = Repo(github_api).commit()
    push = push_run(tmp_path, github_api, c1, token=READ_ONLY_TOKEN)
    assert push.code == 0
    (warning,) = push.annotations()
    assert warning[0] == "warning"
    assert "contents: write" in warning[2]
    assert "refs/heads/" + HISTORY not in github_api.git.refs


def test_history__empty_repository__warning_no_store(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    push = push_run(tmp_path, github_api, "c" * 40)
    assert push.code == 0
    (warning,) = push.annotations()
    assert "the repository is empty" in warning[2]
    assert github_api.git.refs == {}


def test_history__push_to_other_branch__not_stored(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    c1 = Repo(github_api).commit()
    push = act(
        tmp_path,
        github_api,
        event_name="push",
        event=push_event(c1, branch="feature"),
        results=records(),
    )
    assert push.code == 0
    assert "refs/heads/" + HISTORY not in github_api.git.refs
    assert "not a push to the default branch" in push.log


def test_history__rerun_same_commit__replaces_and_prunes_at_keep(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    repo = Repo(github_api)
    shas = []
    for _ in range(4):
        sha = repo.commit()
        shas.append(sha)
        push_run(tmp_path, github_api, sha, history_keep="2")
    again = push_run(
        tmp_path, github_api, shas[-1], results=records(shift=-0.1), history_keep="2"
    )
    assert again.code == 0
    index = json.loads(github_api.git.files(HISTORY)["leaderboard/index.json"])
    assert [r["commit"] for r in index["runs"]] == shas[2:]
    runs = {p.split("/")[2] for p in github_api.git.files(HISTORY) if "/runs/" in p}
    assert runs == set(shas[2:])
    # the re-run replaced the stored run: model-2's mean is the shifted one
    means = {m: v[0] for m, v in index["runs"][-1]["models"].items()}
    assert means["model-2"] < index["runs"][0]["models"]["model-2"][0] - 0.05
    # linear history: one commit per store, the first a root commit
    chain = github_api.git.first_parents(HISTORY)
    assert len(chain) == 5
    assert github_api.git.commits[chain[-1]]["parents"] == []


def test_history__baseline_results_win_over_history__with_a_notice(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    c1 = Repo(github_api).commit()
    push_run(tmp_path, github_api, c1)
    pr = pr_run(
        tmp_path,
        github_api,
        c1,
        files={"base.jsonl": records(seed=1)},
        baseline_results="base.jsonl",
        baseline_label="nightly",
    )
    assert pr.code == 0, pr.log
    assert pr.gate["baseline_run"]["source"] == "results"
    assert pr.gate["baseline"] == "nightly"
    notices = [a for a in pr.annotations() if a[0] == "notice"]
    assert len(notices) == 1
    assert "baseline-results" in notices[0][2]


def test_history__workflow_run_half__reads_the_base_from_the_pull_request(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    c1, second = workflow_run_half(tmp_path, github_api, [], pr_number="8")
    assert second.code == 0, second.log
    assert second.gate["status"] == "regressed"
    assert second.gate["baseline_run"]["commit"] == c1
    (comment,) = github_api.comments(8)
    assert f"model-2 @ main {c1[:7]}" in comment["body"]


def test_history__candidates_with_history__push_stores_and_pull_request_narrows(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    c1 = Repo(github_api).commit()
    push = push_run(tmp_path, github_api, c1, candidates="model-2")
    assert push.code == 0, push.log
    pr = pr_run(tmp_path, github_api, c1, candidates="model-2")
    assert pr.code == 0, pr.log
    assert [c["candidate"] for c in pr.gate["comparisons"]] == ["model-2"]
