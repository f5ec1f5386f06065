"""`leaderboard.action.history.branch`: store and find runs in the Git Data API fake."""

from __future__ import annotations

import gzip
import json
import threading
from pathlib import Path

import numpy as np
import pytest

import leaderboard.action.history.branch as history_module
from leaderboard.action.history.branch import (
    STORE_ATTEMPTS,
    WALK_LIMIT,
    History,
    HistoryUnreadable,
    encode_records,
    folder_for,
)
from leaderboard.action.history.gitdata import GitData, GitDataError
from leaderboard.inputs import EvalRun, load_runs
from tests.action.history_support import HISTORY, REPOSITORY, Repo, damage, pr_run, push_run
from tests.conftest import make_runs
from tests.fakes.github_api import INSTALLATION_TOKEN, FakeGitHub
from tests.fakes.github_wire import RecordedRequest

# A push event without "after": the pushed commit comes from GITHUB_SHA alone.
BARE_PUSH = {"ref": "refs/heads/main", "repository": {"default_branch": "main"}}


def client(fake: FakeGitHub) -> GitData:
    return GitData(
        token=INSTALLATION_TOKEN,
        api_url=fake.base_url,
        repository=REPOSITORY,
        sleep=lambda _s: None,
    )


def history(fake: FakeGitHub, header: str = "leaderboard") -> History:
    return History(client(fake), HISTORY, header, sleep=lambda _s: None)


def store(h: History, commit: str, keep: int = 50, payload: bytes = b"x") -> None:
    h.store(
        commit=commit,
        branch="main",
        records=encode_records(make_runs(tasks=4)),
        report=b'{"r": "' + payload + b'"}',
        count=12,
        models={"model-0": [0.5, 0.4, 0.6]},
        keep=keep,
    )


def test_encode_records__round_trips_through_the_loader_byte_for_byte(
    tmp_path: Path,
) -> None:
    runs = make_runs(tasks=5, items=4, clusters=2, categories=2, metric_name="acc")
    data = encode_records(runs)
    assert data == encode_records(runs)  # reproducible: the same run, the same blob
    path = tmp_path / "r.jsonl.gz"
    path.write_bytes(data)
    loaded = load_runs(path)  # what the action stores is what the loader gave it
    assert len(loaded) == len(runs)
    key = lambda r: (r.model_id, r.task_id, str(r.item_id))  # noqa: E731
    for a, b in zip(sorted(runs, key=key), loaded, strict=True):
        assert (a.score, a.category, a.cluster, a.metric_name) == (
            b.score,
            b.category,
            b.cluster,
            b.metric_name,
        )
    path.write_bytes(encode_records(loaded))
    assert load_runs(path) == loaded


def test_folder_for__plain_header_kept_others_slug_and_hash() -> None:
    assert folder_for("leaderboard") == "leaderboard"
    assert folder_for("safety evals") != folder_for("safety-evals")
    assert folder_for("../x").startswith("x-")
    assert "/" not in folder_for("a/b")


def test_history_store__racing_stores_on_a_missing_branch__both_land(
    github_api: FakeGitHub,
) -> None:
    repo = Repo(github_api)
    c1, c2 = repo.commit(), repo.commit()
    barrier = threading.Barrier(2, timeout=10)
    held: list[RecordedRequest] = []

    def together(seen: RecordedRequest) -> None:  # both build on the same (no) head
        if len(held) < 2:
            held.append(seen)
            barrier.wait()

    github_api.on("git_create_commit", together)
    errors: list[BaseException] = []

    def go(sha: str) -> None:
        try:
            store(history(github_api), sha)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=go, args=(sha,)) for sha in (c1, c2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert errors == []
    index = json.loads(github_api.git.files(HISTORY)["leaderboard/index.json"])
    assert {r["commit"] for r in index["runs"]} == {c1, c2}
    creates = [r.status for r in github_api.calls("git_create_ref")]
    assert sorted(creates) == [201, 422]  # the loser saw "Reference already exists"
    assert len(github_api.git.first_parents(HISTORY)) == 2  # one commit each, linear


def test_history_store__head_moved_before_the_patch__retried_on_the_new_head(
    github_api: FakeGitHub,
) -> None:
    repo = Repo(github_api)
    c1, c2 = repo.commit(), repo.commit()
    store(history(github_api), c1)
    moved = []

    def race(_seen: RecordedRequest) -> None:  # another push lands first, once
        if not moved:
            moved.append(True)
            store(history(github_api), c1, payload=b"other")

    h = history(github_api)
    github_api.on("git_update_ref", race)
    store(h, c2)
    patches = [r.status for r in github_api.calls("git_update_ref")]
    assert patches.count(422) == 1
    index = json.loads(github_api.git.files(HISTORY)["leaderboard/index.json"])
    assert [r["commit"] for r in index["runs"]] == [c1, c2]
    report = github_api.git.files(HISTORY)[f"leaderboard/runs/{c1}/report.json"]
    assert report == b'{"r": "other"}'  # the racing re-run of c1 was kept


def test_history_store__branch_always_moving__gives_up_after_bounded_attempts(
    github_api: FakeGitHub,
) -> None:
    repo = Repo(github_api)
    c1 = repo.commit()
    store(history(github_api), c1)
    other = history(github_api, header="other")

    def race(seen: RecordedRequest) -> None:
        if seen.body and seen.body.get("force") is False and len(race_log) < 50:
            race_log.append(seen)
            if len(race_log) % 2:  # every PATCH of ours is preceded by another store
                store(other, c1)

    race_log: list[RecordedRequest] = []
    github_api.on("git_update_ref", race)
    with pytest.raises(GitDataError, match=f"kept moving \\({STORE_ATTEMPTS} attempts\\)"):
        store(history(github_api), repo.commit())


def test_history_find__walk_is_bounded_by_walk_limit(github_api: FakeGitHub) -> None:
    repo = Repo(github_api)
    c1 = repo.commit()
    store(history(github_api), c1)
    for _ in range(WALK_LIMIT - 1):
        repo.commit()
    within = repo.commit()  # WALK_LIMIT commits after c1
    found = history(github_api).find(within)
    assert found is not None
    assert found.commits_behind == WALK_LIMIT
    assert history(github_api).find(repo.commit()) is None


def test_history__headers_keep_separate_runs(github_api: FakeGitHub) -> None:
    repo = Repo(github_api)
    c1, c2 = repo.commit(), repo.commit()
    store(history(github_api, "safety"), c1)
    store(history(github_api, "quality"), c2)
    assert history(github_api, "safety").find(c2).run.commit == c1  # type: ignore[union-attr]
    assert history(github_api, "quality").find(c1) is None


def test_history_find__corrupt_stored_records__unreadable(github_api: FakeGitHub) -> None:
    c1 = Repo(github_api).commit()
    store(history(github_api), c1)
    bad = gzip.compress(b'{"model_id": 3}\n')
    damage(github_api, f"leaderboard/runs/{c1}/records.jsonl.gz", lambda _old: bad)
    with pytest.raises(HistoryUnreadable, match=c1[:7]):
        history(github_api).find(c1)


def test_history__unreadable_run__no_baseline_run_note_and_one_warning(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    c1 = Repo(github_api).commit()
    store(history(github_api), c1)
    damage(github_api, "leaderboard/index.json", lambda _old: b"{not json")
    pr = pr_run(tmp_path, github_api, c1)
    assert pr.code == 0
    assert pr.gate["status"] == "no_baseline_run"
    assert "could not be read" in pr.gate["note"]
    assert [a[0] for a in pr.annotations()] == ["warning"]


def test_history__run_over_the_byte_cap__one_warning_nothing_stored(
    tmp_path: Path, github_api: FakeGitHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(history_module, "MAX_RUN_BYTES", 1000)
    c1 = Repo(github_api).commit()
    push = push_run(tmp_path, github_api, c1, event=BARE_PUSH)
    assert push.code == 0
    (warning,) = push.annotations()
    assert "over the 1,000 bytes kept per run" in warning[2]
    assert push.gate["status"] == "off"  # the job's own report is unaffected
    assert f"refs/heads/{HISTORY}" not in github_api.git.refs


@pytest.mark.slow  # 100,000 records written, stored and read back: about 10 s
def test_history_store__run_past_1mb__read_back_through_the_blob_api(
    github_api: FakeGitHub,
) -> None:
    c1 = Repo(github_api).commit()
    rng = np.random.default_rng(0)
    runs = [
        EvalRun(f"model-{m}", f"task-{t:02d}", float(rng.random()), item_id=f"i{i}")
        for m in range(2)
        for t in range(20)
        for i in range(2500)
    ]
    data = encode_records(runs)
    assert 1024 * 1024 < len(data) < history_module.MAX_RUN_BYTES
    h = history(github_api)
    h.store(
        commit=c1,
        branch="main",
        records=data,
        report=b"{}",
        count=len(runs),
        models={},
        keep=5,
    )
    found = h.find(c1)
    assert found is not None
    assert len(found.records) == len(runs)
    (contents,) = [r for r in github_api.calls("get_contents") if "records" in r.path]
    assert contents.status == 200
    assert len(github_api.calls("git_get_blob")) == 1  # no content in JSON past 1 MB


def test_history__a_bug_while_storing__one_warning_and_the_gates_status(
    tmp_path: Path, github_api: FakeGitHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_a: object, **_k: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(History, "store", broken)
    c1 = Repo(github_api).commit()
    push = push_run(tmp_path, github_api, c1, event=BARE_PUSH, baseline="model-2")
    assert push.code == 1  # model-0 regressed against model-2: the gate decides
    (warning,) = [a for a in push.annotations() if a[0] == "warning"]
    assert "internal error" in warning[2]
