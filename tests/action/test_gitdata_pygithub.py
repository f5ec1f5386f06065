"""`leaderboard.action.history.gitdata` on PyGithub: the requests GitHub documents, the
one retry policy, and a bug of ours kept apart from an answer GitHub got wrong.

The kept history's Git Data requests go through the same PyGithub client as the
comment and the commit status (`leaderboard.action.client.connection.open_client`:
``retry=None``, so `leaderboard.action.client.retry` makes every retry). These tests
read what the fake GitHub API (a real HTTP server) received.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import pytest
import requests

import leaderboard.action.history.gitdata as gitdata_module
from leaderboard.action.client.connection import wire_failure
from leaderboard.action.history.gitdata import GitData, GitDataError
from tests.action.history_support import REPOSITORY, Repo, pr_run, push_run
from tests.fakes.github_api import INSTALLATION_TOKEN, FakeGitHub
from tests.fakes.github_wire import Fault

BRANCH = "leaderboard-history"


@pytest.fixture
def fake() -> Iterator[FakeGitHub]:
    with FakeGitHub() as github:
        github.git.commit_files(BRANCH, {"index.json": b"{}\n"})
        yield github


def client(fake: FakeGitHub, sleeps: list[float] | None = None) -> GitData:
    return GitData(
        token=INSTALLATION_TOKEN,
        api_url=fake.base_url,
        repository=REPOSITORY,
        sleep=(sleeps if sleeps is not None else []).append,
        timeout=5.0,
    )


def test_gitdata__a_commit_and_a_fast_forward__the_documented_requests(
    fake: FakeGitHub,
) -> None:
    head = fake.git.refs[f"refs/heads/{BRANCH}"]
    with client(fake) as api:
        tree, parents = api.commit(head)
        blob = api.create_blob(b"records")
        entries = [
            {"path": "runs/records", "mode": "100644", "type": "blob", "sha": blob},
            {"path": "index.json", "mode": "100644", "type": "blob", "sha": None},
        ]
        new_tree = api.create_tree(tree, entries)
        new = api.create_commit("store", new_tree, [head])
        assert api.move_branch(BRANCH, new) is True
        assert api.requests == 5
    assert parents == []
    assert fake.git.refs[f"refs/heads/{BRANCH}"] == new
    assert fake.git.files(BRANCH) == {"runs/records": b"records"}  # index.json deleted
    sent = [(r.method, r.path.split("?")[0], r.body) for r in fake.requests]
    root, on = f"/repos/{REPOSITORY}", {"parents": [head]}
    assert sent[1:] == [
        ("POST", f"{root}/git/blobs", {"content": "cmVjb3Jkcw==", "encoding": "base64"}),
        ("POST", f"{root}/git/trees", {"tree": entries, "base_tree": tree}),
        ("POST", f"{root}/git/commits", {"message": "store", "tree": new_tree, **on}),
        # GitHub documents PATCH git/refs/{ref} (PyGithub's get_git_ref reads git/ref/)
        ("PATCH", f"{root}/git/refs/heads/{BRANCH}", {"sha": new, "force": False}),
    ]
    assert all(r.headers.get("User-Agent") == "leaderboard-action" for r in fake.requests)


def test_gitdata__not_a_fast_forward__false_and_the_branch_kept(fake: FakeGitHub) -> None:
    head = fake.git.refs[f"refs/heads/{BRANCH}"]
    with client(fake) as api:
        tree, _ = api.commit(head)
        root = api.create_commit("a root commit, not on the branch", tree, [])
        assert api.move_branch(BRANCH, root) is False
    assert fake.git.refs[f"refs/heads/{BRANCH}"] == head
    assert [r.status for r in fake.calls("git_update_ref")] == [422]  # never forced


def test_gitdata__a_branch_or_tag_with_a_slash__resolved(fake: FakeGitHub) -> None:
    head = fake.git.refs[f"refs/heads/{BRANCH}"]
    fake.git.tag("release/v1", head)
    with client(fake) as api:
        assert api.resolve("release/v1") == head
        assert api.resolve("release/v2") is None  # 404: no such ref
        assert api.resolve(head[:7]) == head


def test_gitdata__retried_by_the_one_policy_not_by_pygithub(fake: FakeGitHub) -> None:
    # PyGithub is opened with retry=None: a 502 is seen once per attempt of ours, and
    # each wait goes through our sleep hook.
    fake.inject("git_create_commit", Fault.server_error(502), Fault.server_error(502))
    head = fake.git.refs[f"refs/heads/{BRANCH}"]
    sleeps: list[float] = []
    with client(fake, sleeps) as api:
        tree, _ = api.commit(head)
        api.create_commit("store", tree, [head])
    assert [r.status for r in fake.calls("git_create_commit")] == [502, 502, 201]
    assert sleeps == [1.0, 2.0]


def test_gitdata__an_answer_pygithub_cannot_parse__gitdataerror_not_retried(
    fake: FakeGitHub,
) -> None:
    # A JSON number where a ref object belongs: PyGithub itself fails parsing it
    # (a TypeError inside its own code). That is GitHub's answer, not our bug.
    fake.inject("git_get_ref", Fault.altered(lambda _body: 5))
    sleeps: list[float] = []
    with client(fake, sleeps) as api, pytest.raises(GitDataError) as raised:
        api.head(BRANCH)
    assert raised.value.status == 0
    assert str(raised.value) == (
        "could not read the branch: an answer that could not be read (TypeError)"
    )
    assert [r.status for r in fake.calls("git_get_ref")] == [200]
    assert sleeps == []


def _bug(*_args: object) -> object:
    raise KeyError("a typo in the action")


@pytest.mark.parametrize("helper", ["_branch_ref", "_tree"])
def test_gitdata__a_bug_inside_a_request_propagates(
    fake: FakeGitHub, monkeypatch: pytest.MonkeyPatch, helper: str
) -> None:
    monkeypatch.setattr(gitdata_module, helper, _bug)
    head = fake.git.refs[f"refs/heads/{BRANCH}"]
    with client(fake) as api:
        request = (
            partial(api.move_branch, BRANCH, head)
            if helper == "_branch_ref"
            else partial(api.create_commit, "store", head, [])
        )
        with pytest.raises(KeyError, match="a typo in the action"):
            request()
    assert fake.calls("git_update_ref") == []
    assert fake.calls("git_create_commit") == []


def test_gitdata__importing_the_action_loads_no_pygithub_and_no_requests() -> None:
    # The action's modules are imported on every run, the dry run included; PyGithub
    # (about half a second, requests with it) loads with the first request.
    code = (
        "import sys, json\n"
        "import leaderboard.action, leaderboard.action.history.store\n"
        "top = {m.split('.')[0] for m in sys.modules}\n"
        "print(json.dumps(sorted(top & {'github', 'requests', 'urllib3'})))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert json.loads(out) == []


def test_wire_failure__requests_lost_connections_are_oserrors() -> None:
    # `client.connection` catches OSError for the network: PyGithub's transport
    # raises requests' exceptions, which derive from it (so no `import requests`).
    assert issubclass(requests.RequestException, OSError)
    assert wire_failure(requests.ConnectionError("reset"))
    assert wire_failure(requests.ReadTimeout("slow"))
    assert not wire_failure(KeyError("ours"))


def test_gitdata__a_bug_while_a_pull_request_reads_the_history__propagates(
    tmp_path: Path, github_api: FakeGitHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A TypeError/KeyError/AttributeError of our own inside a request PyGithub makes
    # must not read as "the kept run could not be read" (a no-baseline-run note): it
    # leaves `run`, and `main` prints it and exits 3 (tests/action/test_action_traceback).
    from github.Repository import Repository  # noqa: PLC0415

    c1 = Repo(github_api).commit()
    assert push_run(tmp_path, github_api, c1).code == 0
    monkeypatch.setattr(Repository, "get_git_ref", _bug)  # raised from this module
    with pytest.raises(KeyError, match="a typo in the action"):
        pr_run(tmp_path, github_api, c1)
    monkeypatch.undo()  # the control: the same pull request reads and gates
    assert pr_run(tmp_path, github_api, c1).gate["baseline_run"]["commit"] == c1
