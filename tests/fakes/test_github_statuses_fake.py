"""The fake's commit statuses and labels answer as GitHub's REST documentation says."""

from __future__ import annotations

import pytest
import requests

from tests.fakes.github_api import INSTALLATION_TOKEN, READ_ONLY_TOKEN, FakeGitHub
from tests.fakes.github_statuses import MAX_DESCRIPTION_CHARS, MAX_STATUSES_PER_CONTEXT
from tests.fakes.test_github_api_fake import REPO, call

HEAD = "a" * 40
NO_STATUSES = "ghs_FAKEnoSTATUSESwritePERMISSION0123456"


def post(
    fake: FakeGitHub, sha: str = HEAD, token: str = INSTALLATION_TOKEN, **body: object
) -> requests.Response:
    payload = {"state": "success", "context": "leaderboard", **body}
    return call(fake, "POST", f"{REPO}/statuses/{sha}", token=token, json=payload)


def test_status__create_answers_201_with_the_documented_fields(
    github_api: FakeGitHub,
) -> None:
    answer = post(
        github_api,
        state="failure",
        description="regressed: \N{MINUS SIGN}0.081",
        target_url="https://github.com/octo-org/octo-repo/pull/7#issuecomment-1",
    )
    assert answer.status_code == 201
    status = answer.json()
    for key in ("id", "node_id", "url", "created_at", "updated_at", "creator"):
        assert status[key], key
    assert status["state"] == "failure"
    assert status["description"] == "regressed: \N{MINUS SIGN}0.081"
    assert status["context"] == "leaderboard"
    assert status["target_url"].endswith("#issuecomment-1")
    assert status["creator"]["login"] == "github-actions[bot]"
    assert github_api.status.latest(HEAD) == {"leaderboard": status}


def test_status__context_defaults_to_default(github_api: FakeGitHub) -> None:
    answer = call(github_api, "POST", f"{REPO}/statuses/{HEAD}", json={"state": "pending"})
    assert answer.json()["context"] == "default"
    assert answer.json()["description"] is None


@pytest.mark.parametrize("state", ["ok", "FAILURE", "", None, 1])
def test_status__a_state_outside_the_four_is_422(
    github_api: FakeGitHub, state: object
) -> None:
    answer = post(github_api, state=state)
    assert answer.status_code == 422
    assert answer.json()["message"] == "Validation Failed"
    assert answer.json()["errors"][0]["field"] == "state"
    assert github_api.status.statuses == {}


def test_status__description_limit_is_140_characters(github_api: FakeGitHub) -> None:
    assert (
        post(github_api, description="\N{MINUS SIGN}" * MAX_DESCRIPTION_CHARS).status_code
        == 201
    )
    over = post(github_api, description="x" * (MAX_DESCRIPTION_CHARS + 1))
    assert over.status_code == 422
    assert "maximum is 140 characters" in over.json()["errors"][0]["message"]
    assert len(github_api.status.statuses[HEAD]) == 1


def test_status__an_unknown_commit_is_422(github_api: FakeGitHub) -> None:
    answer = post(github_api, sha="c" * 40)
    assert answer.status_code == 422
    assert answer.json()["message"] == f"No commit found for SHA: {'c' * 40}"
    github_api.add_commit("c" * 40)
    assert post(github_api, sha="c" * 40).status_code == 201
    github_api.set_head(7, "d" * 40)
    assert post(github_api, sha="d" * 40).status_code == 201


def test_status__refused_without_statuses_write_and_for_a_fork_token(
    github_api: FakeGitHub,
) -> None:
    github_api.add_token(NO_STATUSES, can_write_statuses=False)
    for token in (NO_STATUSES, READ_ONLY_TOKEN):
        answer = post(github_api, token=token)
        assert answer.status_code == 403, token
        assert answer.json()["message"] == "Resource not accessible by integration"
        # Reading is allowed to both.
        listed = call(github_api, "GET", f"{REPO}/commits/{HEAD}/statuses", token=token)
        assert listed.status_code == 200
    assert github_api.status.statuses == {}


def test_status__every_post_is_a_new_status_and_the_latest_wins(
    github_api: FakeGitHub,
) -> None:
    first = post(github_api, state="failure", description="run 1").json()
    other = post(github_api, context="leaderboard/safety", description="other").json()
    second = post(github_api, state="success", description="run 2").json()
    listed = call(github_api, "GET", f"{REPO}/commits/{HEAD}/statuses").json()
    assert [s["id"] for s in listed] == [second["id"], other["id"], first["id"]]
    combined = call(github_api, "GET", f"{REPO}/commits/{HEAD}/status").json()
    assert combined["state"] == "success"
    assert combined["total_count"] == 2
    assert combined["sha"] == HEAD
    assert {s["context"]: s["description"] for s in combined["statuses"]} == {
        "leaderboard": "run 2",
        "leaderboard/safety": "other",
    }


def test_status__combined_state_failure_beats_pending_beats_success(
    github_api: FakeGitHub,
) -> None:
    def combined() -> str:
        return str(call(github_api, "GET", f"{REPO}/commits/{HEAD}/status").json()["state"])

    assert combined() == "pending"  # no status at all
    post(github_api, context="a", state="success")
    assert combined() == "success"
    post(github_api, context="b", state="pending")
    assert combined() == "pending"
    post(github_api, context="c", state="error")
    assert combined() == "failure"


def test_status__the_list_is_paginated(github_api: FakeGitHub) -> None:
    for i in range(35):
        post(github_api, description=f"run {i}")
    first = call(github_api, "GET", f"{REPO}/commits/{HEAD}/statuses")
    assert [s["description"] for s in first.json()] == [
        f"run {i}" for i in range(34, 4, -1)
    ]
    assert first.links["next"]["url"].endswith("page=2")
    second = call(github_api, "GET", f"{REPO}/commits/{HEAD}/statuses", params={"page": 2})
    assert len(second.json()) == 5
    assert call(github_api, "GET", f"{REPO}/commits/{'e' * 40}/statuses").status_code == 404


def test_status__a_1001st_status_for_one_context_is_422(github_api: FakeGitHub) -> None:
    github_api.status.statuses[HEAD] = [
        {"context": "leaderboard", "id": i, "state": "success"}
        for i in range(MAX_STATUSES_PER_CONTEXT)
    ]
    answer = post(github_api)
    assert answer.status_code == 422
    assert "maximum number of statuses" in answer.json()["errors"][0]["message"]
    assert post(github_api, context="leaderboard/other").status_code == 201


def test_labels__listed_for_issues_and_pulls_paginated_and_404_for_none(
    github_api: FakeGitHub,
) -> None:
    assert call(github_api, "GET", f"{REPO}/issues/7/labels").json() == []
    github_api.status.add_label(7, "accept-regression")
    github_api.status.add_label(7, "accept-regression")  # once only
    github_api.status.add_label(7, "bug")
    names = [
        lab["name"] for lab in call(github_api, "GET", f"{REPO}/issues/7/labels").json()
    ]
    assert names == ["accept-regression", "bug"]
    pull = call(github_api, "GET", f"{REPO}/pulls/7").json()
    assert [lab["name"] for lab in pull["labels"]] == names
    github_api.status.remove_label(7, "accept-regression")
    listed = call(github_api, "GET", f"{REPO}/issues/7/labels", token=READ_ONLY_TOKEN)
    assert [lab["name"] for lab in listed.json()] == ["bug"]
    for i in range(40):
        github_api.status.add_label(7, f"l{i}")
    page = call(github_api, "GET", f"{REPO}/issues/7/labels")
    assert len(page.json()) == 30
    assert page.links["next"]["url"].endswith("page=2")
    assert call(github_api, "GET", f"{REPO}/issues/99/labels").status_code == 404
