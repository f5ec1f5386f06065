"""The kept history under hostile data (issue 18), end to end against the GitHub fake.

A damaged ``index.json`` (an entry with ``parents: 5``, a 401-digit number or NaN in
``models``, a commit that is not hex; the whole file 100,000 levels deep or 90 MB)
used to fail every pull request with exit 3 and every push with "run not stored:
internal error", or drop the whole index and delete every older run's files. Now the
index is validated whole (`branch.parse_index`): a pull request gets
``no_baseline_run`` with a note that says a run is kept but unreadable, and the next
push stores its run and rebuilds the index, keeping every run that was there.

Also: the token in a model id is redacted from everything the push writes to the
branch (records included); a default branch name of 120 characters (or with a
newline) never becomes a label that fails the pull request; a workflow_run with
``pr-number`` empty is gated like one with the number given.
"""

from __future__ import annotations

import base64
import gzip
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from leaderboard.action.history.baseline import baseline_label
from leaderboard.action.history.branch import parse_index
from leaderboard.action.runner import MAX_LOG_LINE, Log
from leaderboard.stats.two_runs import check_label
from tests.action.history_support import (
    HISTORY,
    Repo,
    damage,
    pr_event,
    pr_run,
    push_event,
    push_run,
    records,
    workflow_run_half,
)
from tests.fakes.github_api import INSTALLATION_TOKEN, FakeGitHub

INDEX = "leaderboard/index.json"


def _entry(index: dict[str, Any], commit: str) -> dict[str, Any]:
    found: dict[str, Any] = next(e for e in index["runs"] if e["commit"] == commit)
    return found


def _damage_entry(key: str, value: str) -> Callable[[bytes, str], bytes]:
    """Replace one field of the entry of `commit` by raw JSON text `value`."""

    def damage(raw: bytes, commit: str) -> bytes:
        index = json.loads(raw)
        _entry(index, commit)[key] = "@@@"
        return json.dumps(index).replace('"@@@"', value).encode()

    return damage


def _non_hex(raw: bytes, commit: str) -> bytes:
    return raw.replace(commit.encode(), b"z" * 40)


def _deep(raw: bytes, commit: str) -> bytes:
    return b'{"format": 1, "runs": [' + b"[" * 100_000 + b"]" * 100_000 + b"]}"


def _huge(raw: bytes, commit: str) -> bytes:
    index = json.loads(raw)
    index["pad"] = "x" * (90 * 2**20)
    return json.dumps(index).encode()


DAMAGE: dict[str, Callable[[bytes, str], bytes]] = {
    "parents_5": _damage_entry("parents", "5"),
    "models_401_digits": _damage_entry("models", '{"model-0": [%s, 0, 1]}' % (10**400)),
    "models_nan": _damage_entry("models", '{"model-0": [NaN, 0.1, 0.9]}'),
    "commit_not_hex": _non_hex,
    "nested_100000_deep": _deep,
    "index_90_mb": _huge,
}


@pytest.mark.parametrize("name", sorted(DAMAGE))
def test_damaged_index__pr_no_baseline_run_with_a_note__next_push_heals_losing_nothing(
    tmp_path: Path, github_api: FakeGitHub, name: str
) -> None:
    repo = Repo(github_api)
    c0, c1 = repo.commit(), repo.commit()
    for commit in (c0, c1):
        push = push_run(tmp_path, github_api, commit)
        assert push.code == 0, push.log
    files = damage(github_api, INDEX, lambda raw: DAMAGE[name](raw, c1))
    run_files = {p for p in files if "/runs/" in p}

    pr = pr_run(tmp_path, github_api, c1)
    assert pr.code == 0, pr.log
    assert pr.gate["status"] == "no_baseline_run"
    assert (
        "A run is kept on leaderboard-history, but it could not be read" in pr.gate["note"]
    )
    assert "rebuilds the index" in pr.gate["note"]
    assert [a[0] for a in pr.annotations()] == ["warning"]
    assert "Traceback" not in pr.log

    c2 = repo.commit()
    push = push_run(tmp_path, github_api, c2)
    assert push.code == 0, push.log
    assert push.annotations() == [], push.log  # stored, no "internal error"
    healed = github_api.git.files(HISTORY)
    assert run_files <= set(healed)  # no older run's files removed
    read = parse_index(healed[INDEX], INDEX)
    assert not read.damaged, read.problems
    kept = [r.commit for r in read.runs]
    assert {c0, c1, c2} <= set(kept)  # c1 recovered from its folder when its entry broke
    assert b"NaN" not in healed[INDEX]

    pr = pr_run(tmp_path, github_api, c2, results=records(shift=-0.2))
    assert pr.code == 1, pr.log  # gated against the healed history's run of c2
    assert pr.gate["baseline_run"]["commit"] == c2


def test_nothing_stored__note_says_none_is_kept__not_unreadable(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    c1 = Repo(github_api).commit()
    pr = pr_run(tmp_path, github_api, c1)
    assert pr.gate["status"] == "no_baseline_run"
    assert "could not be read" not in pr.gate["note"]
    assert "The next push to main stores one" in pr.gate["note"]


def test_commit_status__kept_run_unreadable__says_so_not_none_stored_yet(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    c1 = Repo(github_api).commit()
    push_run(tmp_path, github_api, c1)
    damage(github_api, INDEX, lambda _raw: b"{not json")
    pr = pr_run(tmp_path, github_api, c1, statuses=True)
    assert pr.code == 0, pr.log
    assert pr.gate["status"] == "no_baseline_run"
    (status,) = github_api.status.latest("a" * 40).values()
    text = status["description"]
    assert status["state"] == "success"
    assert len(text) <= 140
    assert text.startswith("no baseline run, nothing was checked for a regression: ")
    assert "A run is kept on leaderboard-history, but it could not be read" in text
    assert "stored yet" not in text


def test_commit_status__nothing_kept__says_no_run_is_kept_for_the_base(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    c1 = Repo(github_api).commit()
    pr = pr_run(tmp_path, github_api, c1, statuses=True)
    assert pr.gate["status"] == "no_baseline_run"
    (status,) = github_api.status.latest("a" * 40).values()
    text = status["description"]
    assert len(text) <= 140
    assert text.startswith("no baseline run, nothing was checked for a regression: ")
    assert f"No run of main is kept on leaderboard-history for {c1[:7]}" in text
    assert "could not be read" not in text


def test_token_in_a_model_id__redacted_from_everything_on_the_branch(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    token = INSTALLATION_TOKEN
    encoded = base64.b64encode(f"x-access-token:{token}".encode()).decode()
    results = (
        records()
        .replace('"model-1"', f'"leak-{token}"')
        .replace('"model-0"', f'"b64-{encoded}"')
    )
    c1 = Repo(github_api).commit()
    push = push_run(tmp_path, github_api, c1, results=results)
    assert push.code == 0, push.log
    files = github_api.git.files(HISTORY)
    texts = {
        path: gzip.decompress(data) if path.endswith(".gz") else data
        for path, data in files.items()
    }
    for path, text in texts.items():
        assert token.encode() not in text, path
        assert encoded.encode() not in text, path
    records_text = texts[f"leaderboard/runs/{c1}/records.jsonl.gz"].decode()
    assert '"leak-***"' in records_text
    assert '"b64-***"' in records_text


@pytest.mark.parametrize("branch", ["b" * 120, "release\nnext"])
def test_long_or_multiline_default_branch__a_valid_label(branch: str) -> None:
    label = baseline_label(branch, "c" * 40)
    assert check_label(label) == label
    assert label.endswith(" ccccccc")


def test_default_branch_of_120_characters__pull_request_gated_not_exit_2(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    long = "release-" + "x" * 112
    c1 = Repo(github_api).commit()
    event = push_event(c1) | {
        "ref": f"refs/heads/{long}",
        "repository": {"default_branch": long, "full_name": "octo-org/octo-repo"},
    }
    push = push_run(tmp_path, github_api, c1, event=event)
    assert push.code == 0, push.log
    pr_evt = pr_event(c1)
    pr_evt["pull_request"]["base"]["ref"] = long
    pr = pr_run(tmp_path, github_api, c1, event=pr_evt, results=records(shift=-0.2))
    assert pr.code == 1, pr.log  # a regression against the kept run, not exit 2
    assert len(pr.gate["baseline_run"]["label"]) <= 100


def test_workflow_run_with_pr_number_empty__gated_from_the_events_pull_request(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    c1, second = workflow_run_half(tmp_path, github_api, [{"number": 8}])
    assert second.code == 0, second.log
    assert second.gate["status"] == "regressed"  # was "off" ("No gate")
    assert second.gate["baseline_run"]["commit"] == c1


def test_index_90_mb__read_refused_by_its_size_before_download(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    c1 = Repo(github_api).commit()
    push_run(tmp_path, github_api, c1)
    damage(github_api, INDEX, lambda raw: _huge(raw, c1))
    before = len(github_api.requests)
    pr = pr_run(tmp_path, github_api, c1)
    assert pr.gate["status"] == "no_baseline_run"
    assert "over 16 MiB" in pr.gate["note"]
    blobs = [r for r in github_api.requests[before:] if "/git/blobs/" in r.path]
    assert blobs == []  # the 90 MB were never asked for


def test_log_line__15_mb_model_id__cut_to_the_log_line_cap() -> None:
    out = io.StringIO()
    log = Log(out, secrets=[INSTALLATION_TOKEN])
    huge = "m" * (15 * 2**20) + INSTALLATION_TOKEN
    log.warning(f"model {huge} left out", title="leaderboard")
    log.info(f"model {huge}")
    lines = out.getvalue().splitlines()
    assert len(lines) == 2
    assert all(len(line) < MAX_LOG_LINE + 200 for line in lines)
    assert "(cut: 15,728," in lines[0]
    assert INSTALLATION_TOKEN not in out.getvalue()


def test_action__3_mb_model_id__runner_log_stays_small(
    tmp_path: Path, github_api: FakeGitHub
) -> None:
    c1 = Repo(github_api).commit()
    huge = "m" * (3 * 2**20)  # 15 MB behaves the same, in 30 s rather than 6
    results = records().replace('"model-1"', json.dumps(huge))
    pr = pr_run(tmp_path, github_api, c1, results=results)
    assert pr.code in (0, 2), pr.log[:2000]
    assert len(pr.log) < 64 * 1024  # was 2 x the id: every line naming the model
