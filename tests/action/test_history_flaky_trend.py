"""Flaky items and the trend chart through the kept history (the fake GitHub).

Pushes to ``main`` keep runs of item-level pass/fail records; a pull request gated
against the last of them marks the items whose outcome differs across the kept runs
(`leaderboard.stats.flaky`) and draws each model's kept means as a mermaid chart
(`leaderboard.render.trend`), the baseline's run and the pull request marked.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from leaderboard.stats.flaky import FLAKY_RUNS
from tests.action.history_support import Repo, pr_run, push_run
from tests.fakes.github_api import FakeGitHub

ITEMS = 40


def item_records(fails: set[int], *, model: str = "m", items: int = ITEMS) -> str:
    """One pass/fail record per item of task ``qa``; the items in `fails` fail."""
    return "".join(
        json.dumps(
            {
                "model_id": model,
                "task_id": "qa",
                "item_id": f"q-{i:02d}",
                "score": 0 if i in fails else 1,
            }
        )
        + "\n"
        for i in range(items)
    )


def _comparison(report: dict[str, object]) -> dict[str, object]:
    gate = report["gate"]
    assert isinstance(gate, dict)
    (c,) = [
        c
        for c in gate["comparisons"]
        if c["scope"] == "overall" and c["measure"] == "score"
    ]
    assert isinstance(c, dict)
    return c


def test_flaky__item_that_differs_across_kept_runs__marked_in_json_and_comment(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    repo = Repo(github_api)
    # q-07 passes, fails, passes, passes on main: flaky; q-03 always passes.
    commits = []
    for fails in ({1}, {1, 7}, {1}, {1}):
        sha = repo.commit()
        commits.append(sha)
        out = push_run(tmp_path, github_api, sha, results=item_records(fails))
        assert out.code == 0, out.log
    pr = pr_run(
        tmp_path,
        github_api,
        commits[-1],
        results=item_records({1, 3, 7, 11, 12}),
        fail_on_regression="false",
    )
    c = _comparison(pr.report)
    worst = {w["item_id"]: w for w in c["worst_items"]}
    assert set(worst) == {"q-03", "q-07", "q-11", "q-12"}
    assert worst["q-07"]["flaky"] is True
    assert worst["q-07"]["flaky_why"] == ["history"]
    assert [w["flaky"] for k, w in worst.items() if k != "q-07"] == [False] * 3
    (flaky,) = c["flaky_items"]
    assert flaky["item_id"] == "q-07"
    assert flaky["flipped"] is True
    assert flaky["history"] == [1.0, 0.0, 1.0, 1.0]  # oldest first, the base's last
    assert c["flaky_runs"] == 4
    (comment,) = github_api.comments(7)
    body = comment["body"]
    assert re.search(r"- q-07 \(qa\): 1 → 0 · \*flaky\* \(differs across kept runs\)", body)
    assert "- q-03 (qa): 1 → 0\n" in body  # not flaky, not marked
    flaky_block = body[body.index("Flaky: 1 item") :]
    assert "or different across the 4 kept runs read" in flaky_block
    assert (
        "- q-07 (qa): 1 → 0 · flipped · differs across kept runs; kept runs, oldest "
        in (flaky_block)
    )
    assert "first: pass fail pass pass" in flaky_block


def test_flaky__reads_at_most_flaky_runs_kept_runs(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    repo = Repo(github_api)
    # q-05 fails only in the oldest of 7 runs: outside the window of FLAKY_RUNS.
    commits = []
    for k in range(FLAKY_RUNS + 2):
        sha = repo.commit()
        commits.append(sha)
        push_run(tmp_path, github_api, sha, results=item_records({5} if k == 0 else set()))
    pr = pr_run(
        tmp_path,
        github_api,
        commits[-1],
        results=item_records({5}),
        fail_on_regression="false",
    )
    c = _comparison(pr.report)
    assert c["flaky_runs"] == FLAKY_RUNS
    assert c["flaky_items"] == []
    assert c["worst_items"][0]["item_id"] == "q-05"
    assert c["worst_items"][0]["flaky"] is False


def test_trend__pull_request_comment_has_the_chart_base_and_pr_marked(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    repo = Repo(github_api)
    commits = []
    for fails in (set(), {1}, {1, 2}):
        sha = repo.commit()
        commits.append(sha)
        push_run(tmp_path, github_api, sha, results=item_records(fails))
    pr = pr_run(
        tmp_path,
        github_api,
        commits[-1],
        results=item_records({1, 2, 3}),
        fail_on_regression="false",
    )
    trend = pr.gate["baseline_run"]["trend"]
    assert [p["commit"] for p in trend] == commits
    assert [p["models"]["m"]["mean"] for p in trend] == [1.0, 39 / 40, 38 / 40]
    (comment,) = github_api.comments(7)
    body = comment["body"]
    chart = re.search(r"```mermaid\n(.*?)\n```", body, re.S)
    assert chart is not None, body
    lines = chart.group(1).splitlines()
    assert lines[0] == "xychart-beta"
    labels = [c[:7] for c in commits[:-1]] + ["base", "PR"]
    assert lines[2] == "    x-axis [" + ", ".join(f'"{x}"' for x in labels) + "]"
    assert lines[4] == "    line [1.0000, 0.9750, 0.9500, 0.9250]"
    # the table beside it, for readers without mermaid
    assert f"| `{commits[-1][:7]}` (base) | 0.950 [" in body
    assert "| this run (PR) | 0.925 [" in body
    assert "<summary>Trend: the last 3 kept runs of main and this run</summary>" in body


def test_trend__push_summary_names_a_step_change_with_its_commit(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    repo = Repo(github_api)
    commits = []
    # 200 items: 10 fail for four pushes, then 80 fail (0.95 -> 0.60)
    for n_fail in (10, 10, 10, 10, 80):
        sha = repo.commit()
        commits.append(sha)
        out = push_run(
            tmp_path, github_api, sha, results=item_records(set(range(n_fail)), items=200)
        )
    assert "```mermaid\nxychart-beta" in out.summary
    steps = re.findall(r"Step change: \*\*m\*\* at `([0-9a-f]{7})`", out.summary)
    assert steps == [commits[-1][:7]], out.summary
    assert ', "new step"]' in out.summary  # the x-axis's last label
    assert "| Model | Latest |" in out.summary  # the drift table stays


def test_trend__hostile_model_id_is_inert_in_the_chart(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    hostile = 'evil"] %%{init: {"theme": "dark"}}%% ``` <img src=x onerror=alert(1)>;#35;'
    repo = Repo(github_api)
    commits = []
    for fails in (set(), {1}):
        sha = repo.commit()
        commits.append(sha)
        push_run(tmp_path, github_api, sha, results=item_records(fails, model=hostile))
    pr_run(
        tmp_path,
        github_api,
        commits[-1],
        results=item_records({1, 2}, model=hostile),
        fail_on_regression="false",
    )
    (comment,) = github_api.comments(7)
    body = comment["body"]
    chart = re.search(r"```mermaid\n(.*?)\n```", body, re.S)
    assert chart is not None, body
    title = chart.group(1).splitlines()[1]
    assert title == (
        '    title "evil_ _init: _theme_: _dark_ _ _img src_x onerror_alert(1...: mean '
        'score per run"'
    )
    text = chart.group(1)
    assert "<" not in text  # mermaid's labels become HTML
    assert "%%" not in text  # a mermaid comment or directive
    assert "`" not in text  # the fence cannot close early
    assert "#" not in text  # no entity code
    assert "\\<img" in body  # and the table and the rest escape it for markdown
    assert len(chart.group(1).splitlines()) == 5
