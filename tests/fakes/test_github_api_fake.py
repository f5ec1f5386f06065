"""The fake GitHub API answers as GitHub documents, checked with plain ``requests``."""

from __future__ import annotations

import threading
from typing import Any

import pytest
import requests

from tests.fakes.github_api import (
    BOT_LOGIN,
    INSTALLATION_TOKEN,
    MAX_BODY_CHARS,
    PAT_TOKEN,
    READ_ONLY_TOKEN,
    SECONDARY_MESSAGE,
    FakeGitHub,
    Fault,
)

REPO = "/repos/octo-org/octo-repo"
OTHER_TOKEN = "ghu_FAKEotherUSERtoken0123456789"  # noqa: S105 - a fake token


def call(
    fake: FakeGitHub,
    method: str,
    path: str,
    *,
    token: str | None = INSTALLATION_TOKEN,
    json: Any = None,
    params: dict[str, Any] | None = None,
) -> requests.Response:
    headers = {"Authorization": f"token {token}"} if token else {}
    with requests.Session() as session:
        return session.request(
            method,
            fake.base_url + path,
            headers=headers,
            json=json,
            params=params,
            timeout=10,
        )


def test_fake__list_paginates_30_by_default_with_link_header(
    github_api: FakeGitHub,
) -> None:
    for i in range(45):
        github_api.add_comment(7, f"comment {i}")
    first = call(github_api, "GET", f"{REPO}/issues/7/comments")
    assert first.status_code == 200
    assert [c["body"] for c in first.json()] == [f"comment {i}" for i in range(30)]
    assert first.links["next"]["url"].endswith("page=2")
    assert first.links["last"]["url"].endswith("page=2")
    assert "prev" not in first.links
    second = requests.get(
        first.links["next"]["url"],
        headers={"Authorization": f"token {INSTALLATION_TOKEN}"},
        timeout=10,
    )
    assert [c["body"] for c in second.json()] == [f"comment {i}" for i in range(30, 45)]
    assert "next" not in second.links
    assert second.links["first"]["url"].endswith("page=1")
    assert second.links["prev"]["url"].endswith("page=1")


def test_fake__per_page_is_capped_at_100_and_single_page_has_no_link(
    github_api: FakeGitHub,
) -> None:
    for i in range(150):
        github_api.add_comment(7, f"c{i}")
    page = call(github_api, "GET", f"{REPO}/issues/7/comments", params={"per_page": 500})
    assert len(page.json()) == 100
    assert page.links["next"]["url"].endswith("page=2")
    github_api.add_pull(8)
    github_api.add_comment(8, "only")
    assert "Link" not in call(github_api, "GET", f"{REPO}/issues/8/comments").headers


def test_fake__comments_are_ordered_by_ascending_id(github_api: FakeGitHub) -> None:
    for i in range(5):
        github_api.add_comment(7, f"c{i}")
    ids = [c["id"] for c in call(github_api, "GET", f"{REPO}/issues/7/comments").json()]
    assert ids == sorted(ids)
    assert len(set(ids)) == 5


def test_fake__create_answers_201_with_the_documented_fields(
    github_api: FakeGitHub,
) -> None:
    answer = call(github_api, "POST", f"{REPO}/issues/7/comments", json={"body": "hi"})
    assert answer.status_code == 201
    comment = answer.json()
    for key in ("id", "node_id", "html_url", "url", "body", "created_at", "updated_at"):
        assert comment[key], key
    assert comment["body"] == "hi"
    assert comment["user"] == {**comment["user"], "login": BOT_LOGIN, "type": "Bot"}
    assert comment["html_url"].endswith(
        f"/octo-org/octo-repo/pull/7#issuecomment-{comment['id']}"
    )
    assert comment["url"] == f"{github_api.base_url}{REPO}/issues/comments/{comment['id']}"
    assert github_api.comments(7) == [comment]


def test_fake__pat_comments_are_written_by_the_user(github_api: FakeGitHub) -> None:
    comment = call(
        github_api, "POST", f"{REPO}/issues/7/comments", token=PAT_TOKEN, json={"body": "x"}
    ).json()
    assert comment["user"]["login"] == "octocat"
    assert comment["user"]["type"] == "User"


def test_fake__get_user_is_403_for_installation_token_and_200_for_pat(
    github_api: FakeGitHub,
) -> None:
    denied = call(github_api, "GET", "/user")
    assert denied.status_code == 403
    assert denied.json()["message"] == "Resource not accessible by integration"
    allowed = call(github_api, "GET", "/user", token=PAT_TOKEN)
    assert allowed.status_code == 200
    assert allowed.json()["login"] == "octocat"


def test_fake__get_user_is_configurable(github_api: FakeGitHub) -> None:
    github_api.add_token(OTHER_TOKEN, login="someone", user_type="User", user_endpoint=True)
    assert call(github_api, "GET", "/user", token=OTHER_TOKEN).json()["login"] == "someone"


@pytest.mark.parametrize("token", ["ghs_notAKnownToken", None])
def test_fake__unknown_or_missing_token_is_401(
    github_api: FakeGitHub, token: str | None
) -> None:
    answer = call(github_api, "GET", f"{REPO}/issues/7/comments", token=token)
    assert answer.status_code == 401
    assert answer.json()["message"] == "Bad credentials"


def test_fake__read_only_token_reads_but_cannot_write(github_api: FakeGitHub) -> None:
    comment = github_api.add_comment(7, "by a human")
    kwargs: dict[str, Any] = {"token": READ_ONLY_TOKEN}
    assert call(github_api, "GET", f"{REPO}/issues/7/comments", **kwargs).status_code == 200
    for method, path in [
        ("POST", f"{REPO}/issues/7/comments"),
        ("PATCH", f"{REPO}/issues/comments/{comment['id']}"),
        ("DELETE", f"{REPO}/issues/comments/{comment['id']}"),
    ]:
        answer = call(github_api, method, path, json={"body": "x"}, **kwargs)
        assert answer.status_code == 403, method
        assert answer.json()["message"] == "Resource not accessible by integration"
    assert github_api.comments(7) == [comment]


@pytest.mark.parametrize("payload", [{"body": ""}, {"body": "  \n "}, {}, {"body": 3}])
def test_fake__blank_or_missing_body_is_422(github_api: FakeGitHub, payload: Any) -> None:
    answer = call(github_api, "POST", f"{REPO}/issues/7/comments", json=payload)
    assert answer.status_code == 422
    assert answer.json()["message"] == "Validation Failed"
    assert answer.json()["errors"][0]["field"] == "body"
    assert github_api.comments(7) == []


def test_fake__body_limit_is_65536_characters(github_api: FakeGitHub) -> None:
    path = f"{REPO}/issues/7/comments"
    at_limit = call(github_api, "POST", path, json={"body": "é" * MAX_BODY_CHARS})
    assert at_limit.status_code == 201
    over = call(github_api, "POST", path, json={"body": "x" * (MAX_BODY_CHARS + 1)})
    assert over.status_code == 422
    assert "maximum is 65536 characters" in over.json()["errors"][0]["message"]
    comment_path = f"{REPO}/issues/comments/{at_limit.json()['id']}"
    patched = call(github_api, "PATCH", comment_path, json={"body": "y" * 65_537})
    assert patched.status_code == 422
    assert len(github_api.comments(7)) == 1


def test_fake__patch_get_delete_and_404_once_deleted(github_api: FakeGitHub) -> None:
    comment = github_api.add_comment(7, "old")
    path = f"{REPO}/issues/comments/{comment['id']}"
    patched = call(github_api, "PATCH", path, json={"body": "new"})
    assert patched.status_code == 200
    assert patched.json()["body"] == "new"
    assert patched.json()["updated_at"] > comment["updated_at"]
    assert call(github_api, "GET", path).json()["body"] == "new"
    assert call(github_api, "DELETE", path).status_code == 204
    for method in ("GET", "PATCH", "DELETE"):
        assert call(github_api, method, path, json={"body": "x"}).status_code == 404
    assert github_api.comments(7) == []


def test_fake__pull_request_head_sha_follows_pushes(github_api: FakeGitHub) -> None:
    assert call(github_api, "GET", f"{REPO}/pulls/7").json()["head"]["sha"] == "a" * 40
    github_api.set_head(7, "b" * 40)
    assert call(github_api, "GET", f"{REPO}/pulls/7").json()["head"]["sha"] == "b" * 40
    assert call(github_api, "GET", f"{REPO}/pulls/99").status_code == 404


def test_fake__unknown_repository_or_issue_is_404(github_api: FakeGitHub) -> None:
    assert call(github_api, "GET", "/repos/other/repo/issues/7/comments").status_code == 404
    assert call(github_api, "GET", f"{REPO}/issues/99/comments").status_code == 404
    post = call(github_api, "POST", f"{REPO}/issues/99/comments", json={"body": "x"})
    assert post.status_code == 404


def test_fake__invalid_json_is_400(github_api: FakeGitHub) -> None:
    answer = requests.post(
        f"{github_api.base_url}{REPO}/issues/7/comments",
        data=b"{not json",
        headers={"Authorization": f"token {INSTALLATION_TOKEN}"},
        timeout=10,
    )
    assert answer.status_code == 400
    assert github_api.comments(7) == []


def test_fake__every_answer_has_rate_limit_headers(github_api: FakeGitHub) -> None:
    first = call(github_api, "GET", f"{REPO}/issues/7/comments")
    second = call(github_api, "GET", f"{REPO}/issues/7/comments")
    for answer in (first, second):
        for name in ("x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"):
            assert answer.headers[name].isdigit(), name
    assert int(second.headers["x-ratelimit-remaining"]) < int(
        first.headers["x-ratelimit-remaining"]
    )


@pytest.mark.parametrize("status", [500, 502, 503])
def test_fake__server_errors_are_served_once_in_order(
    github_api: FakeGitHub, status: int
) -> None:
    github_api.inject("list_comments", Fault.server_error(status), Fault.server_error(500))
    assert github_api.pending_faults("list_comments") == 2
    assert call(github_api, "GET", "/user").status_code == 403  # other routes unaffected
    assert call(github_api, "GET", f"{REPO}/issues/7/comments").status_code == status
    assert call(github_api, "GET", f"{REPO}/issues/7/comments").status_code == 500
    assert call(github_api, "GET", f"{REPO}/issues/7/comments").status_code == 200
    assert github_api.pending_faults("list_comments") == 0


def test_fake__connection_reset_gives_no_answer(github_api: FakeGitHub) -> None:
    github_api.inject("create_comment", Fault.connection_reset())
    with pytest.raises(requests.ConnectionError):
        call(github_api, "POST", f"{REPO}/issues/7/comments", json={"body": "x"})
    assert github_api.comments(7) == []  # reset before the write
    assert call(github_api, "GET", f"{REPO}/issues/7/comments").status_code == 200


@pytest.mark.parametrize("status", [403, 429])
@pytest.mark.parametrize("retry_after", [None, 7])
def test_fake__secondary_limit_with_and_without_retry_after(
    github_api: FakeGitHub, status: int, retry_after: int | None
) -> None:
    github_api.inject("update_comment", Fault.secondary_limit(status, retry_after))
    comment = github_api.add_comment(7, "x")
    answer = call(
        github_api, "PATCH", f"{REPO}/issues/comments/{comment['id']}", json={"body": "y"}
    )
    assert answer.status_code == status
    assert answer.json()["message"] == SECONDARY_MESSAGE
    assert answer.headers.get("Retry-After") == (None if retry_after is None else "7")
    assert answer.headers["x-ratelimit-remaining"] != "0"
    assert github_api.comments(7)[0]["body"] == "x"


def test_fake__primary_limit_has_remaining_zero_and_reset(github_api: FakeGitHub) -> None:
    github_api.inject("list_comments", Fault.primary_limit(reset_at=1_800_000_000))
    answer = call(github_api, "GET", f"{REPO}/issues/7/comments")
    assert answer.status_code == 403
    assert answer.json()["message"].startswith("API rate limit exceeded")
    assert answer.headers["x-ratelimit-remaining"] == "0"
    assert answer.headers["x-ratelimit-reset"] == "1800000000"


def test_fake__fault_after_write_applies_the_write(github_api: FakeGitHub) -> None:
    github_api.inject("create_comment", Fault.server_error(502).applied_first())
    answer = call(github_api, "POST", f"{REPO}/issues/7/comments", json={"body": "landed"})
    assert answer.status_code == 502
    assert [c["body"] for c in github_api.comments(7)] == ["landed"]
    github_api.inject("create_comment", Fault.connection_reset().applied_first())
    with pytest.raises(requests.ConnectionError):
        call(github_api, "POST", f"{REPO}/issues/7/comments", json={"body": "again"})
    assert [c["body"] for c in github_api.comments(7)] == ["landed", "again"]


def test_fake__validation_fault_is_a_422(github_api: FakeGitHub) -> None:
    github_api.inject("create_comment", Fault.validation("was flagged as spam"))
    answer = call(github_api, "POST", f"{REPO}/issues/7/comments", json={"body": "x"})
    assert answer.status_code == 422
    assert answer.json()["errors"][0]["message"] == "was flagged as spam"


def test_fake__records_requests_without_the_token(github_api: FakeGitHub) -> None:
    call(github_api, "POST", f"{REPO}/issues/7/comments", json={"body": "x"})
    call(github_api, "GET", f"{REPO}/issues/7/comments", params={"per_page": 5})
    posted, listed = github_api.requests
    assert (posted.method, posted.route, posted.status) == ("POST", "create_comment", 201)
    assert posted.body == {"body": "x"}
    assert listed.path == f"{REPO}/issues/7/comments?per_page=5"
    assert all(
        "authorization" not in {k.lower() for k in r.headers} for r in github_api.requests
    )
    assert INSTALLATION_TOKEN not in repr(github_api.requests)
    assert github_api.calls("create_comment") == [posted]


def test_fake__hooks_run_inside_the_request_before_it_is_served(
    github_api: FakeGitHub,
) -> None:
    barrier = threading.Barrier(2, timeout=10)
    github_api.on("create_comment", lambda _request: barrier.wait())
    results: list[int] = []

    def post(text: str) -> None:
        answer = call(github_api, "POST", f"{REPO}/issues/7/comments", json={"body": text})
        results.append(answer.status_code)

    threads = [threading.Thread(target=post, args=(t,)) for t in ("one", "two")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=20)
    assert results == [201, 201]  # neither POST was served before both had arrived
    assert sorted(c["body"] for c in github_api.comments(7)) == ["one", "two"]


def test_fake__stops_cleanly_with_open_keep_alive_connections() -> None:
    fake = FakeGitHub().start()
    fake.add_pull(1)
    url = f"{fake.base_url}{REPO}/issues/1/comments"
    headers = {"Authorization": f"token {INSTALLATION_TOKEN}"}
    with requests.Session() as session:
        assert session.get(url, headers=headers, timeout=10).status_code == 200
        fake.stop()
        with pytest.raises(requests.ConnectionError):
            session.get(url, headers=headers, timeout=5)


def test_fake__serves_under_an_enterprise_prefix() -> None:
    with FakeGitHub(prefix="/api/v3") as fake:
        fake.add_pull(1)
        assert fake.base_url.endswith("/api/v3")
        posted = call(fake, "POST", f"{REPO}/issues/1/comments", json={"body": "x"})
        assert posted.status_code == 201
        assert posted.json()["url"].startswith(fake.base_url + REPO)
        root = fake.base_url.removesuffix("/api/v3")
        headers = {"Authorization": f"token {INSTALLATION_TOKEN}"}
        outside = requests.get(
            f"{root}{REPO}/issues/1/comments", headers=headers, timeout=10
        )
        assert outside.status_code == 404


def test_fake__slow_fault_answers_after_the_client_gave_up(github_api: FakeGitHub) -> None:
    github_api.inject("create_comment", Fault.server_error(502).applied_first().slow(1.5))
    with pytest.raises(requests.Timeout):
        requests.post(
            f"{github_api.base_url}{REPO}/issues/7/comments",
            json={"body": "late"},
            headers={"Authorization": f"token {INSTALLATION_TOKEN}"},
            timeout=0.5,
        )
    assert [c["body"] for c in github_api.comments(7)] == ["late"]


def test_fake__token_without_pull_request_read_gets_403_on_pulls(
    github_api: FakeGitHub,
) -> None:
    github_api.add_token(OTHER_TOKEN, can_read_pulls=False)
    assert call(github_api, "GET", f"{REPO}/pulls/7", token=OTHER_TOKEN).status_code == 403
    post = call(
        github_api,
        "POST",
        f"{REPO}/issues/7/comments",
        token=OTHER_TOKEN,
        json={"body": "x"},
    )
    assert post.status_code == 201
