"""The fake's Git Data and contents endpoints answer as GitHub documents them.

Checked with plain ``requests`` against the behaviours of GitHub's REST docs
(https://docs.github.com/rest/git/refs, .../git/blobs, .../git/trees,
.../git/commits, .../repos/contents) and the live API's error bodies, and once with
PyGithub, a real client, so that the shapes are what a client expects.
"""

from __future__ import annotations

import base64
import hashlib
from typing import Any

import requests
from github import Auth, Github, InputGitTreeElement

from tests.fakes.github_api import INSTALLATION_TOKEN, READ_ONLY_TOKEN, FakeGitHub
from tests.fakes.github_git import CONTENTS_JSON_LIMIT
from tests.fakes.github_wire import Fault

REPO = "/repos/octo-org/octo-repo"


def call(
    fake: FakeGitHub,
    method: str,
    path: str,
    *,
    token: str = INSTALLATION_TOKEN,
    json: Any = None,
    params: dict[str, str] | None = None,
) -> requests.Response:
    return requests.request(
        method,
        fake.base_url + REPO + path,
        headers={"Authorization": f"Bearer {token}"},
        json=json,
        params=params,
        timeout=10,
    )


def blob(fake: FakeGitHub, data: bytes) -> str:
    answer = call(
        fake,
        "POST",
        "/git/blobs",
        json={"content": base64.b64encode(data).decode(), "encoding": "base64"},
    )
    assert answer.status_code == 201, answer.text
    sha: str = answer.json()["sha"]
    return sha


def test_git_fake__empty_repository__409_on_ref_and_writes_404_on_contents(
    github_api: FakeGitHub,
) -> None:
    for method, path, body in (
        ("GET", "/git/ref/heads/main", None),
        ("POST", "/git/refs", {"ref": "refs/heads/x", "sha": "0" * 40}),
        ("POST", "/git/blobs", {"content": "x"}),
        ("POST", "/git/trees", {"tree": []}),
    ):
        answer = call(github_api, method, path, json=body)
        assert answer.status_code == 409, (method, path)
        assert answer.json()["message"] == "Git Repository is empty."
    contents = call(github_api, "GET", "/contents/README.md")
    assert contents.status_code == 404


def test_git_fake__blob_sha_is_gits_and_content_comes_back_base64_wrapped(
    github_api: FakeGitHub,
) -> None:
    github_api.git.commit_files("main", {"a": b"a"})
    data = bytes(range(256)) * 3
    sha = blob(github_api, data)
    assert sha == hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()  # noqa: S324
    got = call(github_api, "GET", f"/git/blobs/{sha}").json()
    assert got["encoding"] == "base64"
    assert got["size"] == len(data)
    assert all(len(line) <= 60 for line in got["content"].splitlines())
    assert base64.b64decode("".join(got["content"].split())) == data
    utf8 = call(github_api, "POST", "/git/blobs", json={"content": "héllo"}).json()
    assert utf8["sha"] == hashlib.sha1(b"blob 6\0" + "héllo".encode()).hexdigest()  # noqa: S324


def test_git_fake__refs__404_missing_422_exists_and_matching_refs_prefix(
    github_api: FakeGitHub,
) -> None:
    main = github_api.git.commit_files("main", {"a": b"a"})
    assert call(github_api, "GET", "/git/ref/heads/nope").status_code == 404
    got = call(github_api, "GET", "/git/ref/heads/main").json()
    assert got["ref"] == "refs/heads/main"
    assert got["object"] == {
        "type": "commit",
        "sha": main,
        "url": got["object"]["url"],
    }
    made = call(
        github_api, "POST", "/git/refs", json={"ref": "refs/heads/feat", "sha": main}
    )
    assert made.status_code == 201
    again = call(
        github_api, "POST", "/git/refs", json={"ref": "refs/heads/feat", "sha": main}
    )
    assert (again.status_code, again.json()["message"]) == (422, "Reference already exists")
    bad = call(github_api, "POST", "/git/refs", json={"ref": "heads/x", "sha": main})
    assert bad.status_code == 422
    ghost = call(
        github_api, "POST", "/git/refs", json={"ref": "refs/heads/y", "sha": "f" * 40}
    )
    assert ghost.json()["message"] == "Object does not exist"
    call(github_api, "POST", "/git/refs", json={"ref": "refs/heads/featureA", "sha": main})
    matching = call(github_api, "GET", "/git/matching-refs/heads/feat").json()
    assert [r["ref"] for r in matching] == ["refs/heads/feat", "refs/heads/featureA"]
    assert call(github_api, "GET", "/git/matching-refs/heads/zzz").json() == []


def test_git_fake__patch_ref__fast_forward_only_unless_force(
    github_api: FakeGitHub,
) -> None:
    first = github_api.git.commit_files("main", {"a": b"1"})
    second = github_api.git.commit_files("main", {"a": b"2"})
    tree = github_api.git.commits[first]["tree"]
    sibling = call(
        github_api,
        "POST",
        "/git/commits",
        json={"message": "sibling", "tree": tree, "parents": [first]},
    ).json()["sha"]
    refused = call(github_api, "PATCH", "/git/refs/heads/main", json={"sha": sibling})
    assert (refused.status_code, refused.json()["message"]) == (
        422,
        "Update is not a fast forward",
    )
    assert github_api.git.refs["refs/heads/main"] == second
    same = call(github_api, "PATCH", "/git/refs/heads/main", json={"sha": second})
    assert same.status_code == 200  # the same sha is a fast forward
    forced = call(
        github_api, "PATCH", "/git/refs/heads/main", json={"sha": sibling, "force": True}
    )
    assert forced.status_code == 200
    assert github_api.git.refs["refs/heads/main"] == sibling
    missing = call(github_api, "PATCH", "/git/refs/heads/nope", json={"sha": first})
    assert missing.json()["message"] == "Reference does not exist"
    not_commit = call(github_api, "PATCH", "/git/refs/heads/main", json={"sha": tree})
    assert not_commit.json()["message"] == "Object is not a commit"


def test_git_fake__trees__base_tree_nested_paths_deletion_and_recursive(
    github_api: FakeGitHub,
) -> None:
    github_api.git.commit_files("main", {"keep.txt": b"k", "d/old.txt": b"o"})
    base = github_api.git.commits[github_api.git.refs["refs/heads/main"]]["tree"]
    new = blob(github_api, b"new")
    made = call(
        github_api,
        "POST",
        "/git/trees",
        json={
            "base_tree": base,
            "tree": [
                {"path": "a/b/c.txt", "mode": "100644", "type": "blob", "sha": new},
                {"path": "d/old.txt", "mode": "100644", "type": "blob", "sha": None},
                {"path": "inline.md", "mode": "100644", "type": "blob", "content": "hi"},
            ],
        },
    )
    assert made.status_code == 201, made.text
    sha = made.json()["sha"]
    top = call(github_api, "GET", f"/git/trees/{sha}").json()
    assert [e["path"] for e in top["tree"]] == ["a", "inline.md", "keep.txt"]  # d/ is gone
    deep = call(github_api, "GET", f"/git/trees/{sha}", params={"recursive": "0"}).json()
    paths = {e["path"]: e["type"] for e in deep["tree"]}  # any value means recursive
    assert paths == {
        "a": "tree",
        "a/b": "tree",
        "a/b/c.txt": "blob",
        "inline.md": "blob",
        "keep.txt": "blob",
    }
    assert deep["truncated"] is False
    without_base = call(
        github_api,
        "POST",
        "/git/trees",
        json={"tree": [{"path": "x", "mode": "100644", "type": "blob", "sha": new}]},
    ).json()
    assert [e["path"] for e in without_base["tree"]] == ["x"]  # only what was listed
    gone = call(
        github_api,
        "POST",
        "/git/trees",
        json={
            "base_tree": base,
            "tree": [{"path": "no/such", "mode": "100644", "type": "blob", "sha": None}],
        },
    )
    assert gone.status_code == 422  # deleting a path that does not exist is an error


def test_git_fake__commits__parents_in_order_and_root_commit(
    github_api: FakeGitHub,
) -> None:
    main = github_api.git.commit_files("main", {"a": b"1"})
    tree = github_api.git.commits[main]["tree"]
    root = call(
        github_api, "POST", "/git/commits", json={"message": "root", "tree": tree}
    ).json()
    assert root["parents"] == []
    merge = call(
        github_api,
        "POST",
        "/git/commits",
        json={"message": "m", "tree": tree, "parents": [main, root["sha"]]},
    ).json()
    got = call(github_api, "GET", f"/git/commits/{merge['sha']}").json()
    assert [p["sha"] for p in got["parents"]] == [main, root["sha"]]
    assert got["tree"]["sha"] == tree
    assert call(github_api, "GET", "/git/commits/" + "f" * 40).status_code == 404
    bad = call(
        github_api,
        "POST",
        "/git/commits",
        json={"message": "m", "tree": tree, "parents": ["f" * 40]},
    )
    assert bad.status_code == 422


def test_git_fake__contents__file_dir_404_and_the_1mb_rule(github_api: FakeGitHub) -> None:
    big = b"x" * (CONTENTS_JSON_LIMIT + 1)
    sha = github_api.git.commit_files(
        "data", {"dir/small.txt": b"small", "dir/big.bin": big, "top.txt": b"t"}
    )
    github_api.git.commit_files("main", {"a": b"a"})
    small = call(
        github_api, "GET", "/contents/dir/small.txt", params={"ref": "data"}
    ).json()
    assert small["type"] == "file"
    assert small["encoding"] == "base64"
    assert base64.b64decode(small["content"]) == b"small"
    large = call(github_api, "GET", "/contents/dir/big.bin", params={"ref": sha}).json()
    assert (large["encoding"], large["content"], large["size"]) == ("none", "", len(big))
    listing = call(github_api, "GET", "/contents/dir", params={"ref": "data"}).json()
    assert isinstance(listing, list)
    assert [(e["name"], e["type"]) for e in listing] == [
        ("big.bin", "file"),
        ("small.txt", "file"),
    ]
    assert call(github_api, "GET", "/contents/top.txt").status_code == 404  # main lacks it
    missing_ref = call(github_api, "GET", "/contents/top.txt", params={"ref": "nope"})
    assert missing_ref.status_code == 404


def test_git_fake__read_only_token__reads_but_every_write_is_403(
    github_api: FakeGitHub,
) -> None:
    main = github_api.git.commit_files("main", {"a": b"a"})
    tree = github_api.git.commits[main]["tree"]
    assert call(github_api, "GET", "/git/ref/heads/main", token=READ_ONLY_TOKEN).ok
    assert call(github_api, "GET", f"/git/trees/{tree}", token=READ_ONLY_TOKEN).ok
    for method, path, body in (
        ("POST", "/git/blobs", {"content": "x"}),
        ("POST", "/git/trees", {"tree": []}),
        ("POST", "/git/commits", {"message": "m", "tree": tree, "parents": [main]}),
        ("POST", "/git/refs", {"ref": "refs/heads/z", "sha": main}),
        ("PATCH", "/git/refs/heads/main", {"sha": main}),
    ):
        answer = call(github_api, method, path, json=body, token=READ_ONLY_TOKEN)
        assert answer.status_code == 403, (method, path)
        assert answer.json()["message"] == "Resource not accessible by integration"


def test_git_fake__pygithub_round_trip__a_real_client_reads_what_it_wrote(
    github_api: FakeGitHub,
) -> None:
    main = github_api.git.commit_files("main", {"README.md": b"hello"})
    with Github(
        base_url=github_api.base_url,
        auth=Auth.Token(INSTALLATION_TOKEN),
        retry=None,
        lazy=True,
    ) as gh:
        repo = gh.get_repo("octo-org/octo-repo")
        ref = repo.get_git_ref("heads/main")
        assert ref.object.sha == main
        made = repo.create_git_blob("data", "utf-8")
        base = repo.get_git_tree(github_api.git.commits[main]["tree"])
        tree = repo.create_git_tree(
            [InputGitTreeElement("f/data.txt", "100644", "blob", sha=made.sha)], base
        )
        commit = repo.create_git_commit("add", tree, [repo.get_git_commit(main)])
        ref.edit(commit.sha)
        assert repo.get_contents("f/data.txt", ref="main").decoded_content == b"data"
        assert [p.sha for p in repo.get_git_commit(commit.sha).parents] == [main]
    assert github_api.git.files("main") == {"README.md": b"hello", "f/data.txt": b"data"}


def test_git_fake__altered_fault__the_real_answer_edited_once_then_served_plain(
    github_api: FakeGitHub,
) -> None:
    github_api.git.commit_files("main", {"a.txt": b"a"})
    tree = github_api.git.commits[github_api.git.refs["refs/heads/main"]]["tree"]
    github_api.inject(
        "git_get_tree", Fault.altered(lambda body: {**body, "truncated": True})
    )
    first = call(github_api, "GET", f"/git/trees/{tree}", params={"recursive": "1"})
    assert first.status_code == 200  # the real status: only the body is altered
    assert first.json()["truncated"] is True
    assert [e["path"] for e in first.json()["tree"]] == ["a.txt"]  # the rest as served
    again = call(github_api, "GET", f"/git/trees/{tree}", params={"recursive": "1"})
    assert again.json()["truncated"] is False  # one fault, used once
    assert [r.status for r in github_api.calls("git_get_tree")] == [200, 200]


def test_git_fake__commit_of_a_ref__sha_short_sha_branch_tag_404_unknown(
    github_api: FakeGitHub,
) -> None:
    git = github_api.git
    first = git.commit_files("main", {"a.txt": b"1"})
    second = git.commit_files("main", {"a.txt": b"2"})
    git.tag("v1", first)
    for ref, sha in (
        (first, first),
        (first[:7], first),
        ("main", second),
        ("v1", first),
        ("refs/tags/v1", first),
    ):
        answer = call(github_api, "GET", f"/commits/{ref}")
        assert answer.status_code == 200, (ref, answer.text)
        data = answer.json()
        assert data["sha"] == sha
        assert data["commit"]["tree"]["sha"] == git.commits[sha]["tree"]
        assert [p["sha"] for p in data["parents"]] == git.commits[sha]["parents"]
    for ref in ("v9", "0" * 40, "deadbee"):
        answer = call(github_api, "GET", f"/commits/{ref}")
        assert answer.status_code == 404, ref
        assert answer.json()["message"] == "Not Found"
    # the statuses' routes under commits/{ref} are still theirs
    assert call(github_api, "GET", f"/commits/{first}/status").json()["sha"] == first
