"""Second adversarial review (issue 14): each test reproduced its finding before the fix.

1. a template linked to ``.git/config`` published the token's base64 form; an id equal
   to the token was shown escaped (``ghs\\_...``), past the redaction;
5. ``json-report`` at a committed link wrote through it, outside the workspace;
6. ``pr-number`` was honoured on push, workflow_dispatch and pull_request unchecked;
7. de-duplication copied a forged bot comment's body into the real comment;
8. ``{{ "x" * 10**9 }}`` exited 3, a deeply nested event file exited 1, results
   outside the workspace were read, and confidence 0.9999999 was logged "at 1".
"""

from __future__ import annotations

import base64
import io
import json
from dataclasses import replace
from pathlib import Path

import pytest

from leaderboard.action.event import parse_event, resolve_target
from leaderboard.action.job import main, run
from leaderboard.action.runner import Log
from leaderboard.action.settings import Settings
from leaderboard.errors import UsageError
from tests.action.github_support import SHA1, make_commenter, stamp_of
from tests.action.test_action_run import (
    CLEAN,
    HEAD,
    PR_EVENT,
    TOKEN,
    FakeCommenter,
    Records,
    go,
    settings,
    summary,
)
from tests.conftest import make_runs
from tests.fakes.github_api import BOT_LOGIN, FakeGitHub

__all__ = ["settings"]  # the fixture, re-used

BASIC = base64.b64encode(f"x-access-token:{TOKEN}".encode()).decode()
GIT_CONFIG = f'[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic {BASIC}\n'


def _leaks(text: str) -> list[str]:
    forms = [TOKEN, BASIC, BASIC.rstrip("="), base64.b64encode(TOKEN.encode()).decode()]
    return [form for form in forms if form in text]


# -- 1. the token through a template or an id ------------------------------------------


def test_run__template_linked_to_git_config__refused_nothing_leaks(
    settings: Settings,
) -> None:
    git = settings.workspace / ".git"
    git.mkdir()
    (git / "config").write_text(GIT_CONFIG)
    link = settings.workspace / "comment.md.j2"
    link.symlink_to(git / "config")
    commenter = FakeCommenter()
    code, log = go(replace(settings, template=link), commenter, CLEAN)
    assert code == 0  # the gate's status: a template never hides it
    assert "symbolic link" in log
    assert not _leaks(log + summary(settings) + "".join(c["body"] for c in commenter.calls))


def test_run__template_under_git_folder__refused_unread(settings: Settings) -> None:
    git = settings.workspace / ".git"
    git.mkdir()
    config = git / "config"
    config.write_text(GIT_CONFIG)
    code, log = go(replace(settings, template=config), FakeCommenter(), CLEAN)
    assert code == 0  # the gate's status: a template never hides it
    assert "under .git/" in log


def test_run__template_through_a_linked_folder__refused(settings: Settings) -> None:
    (settings.workspace / "real").mkdir()
    (settings.workspace / "real" / "t.md.j2").write_text("{{ view.verdict }}\n")
    (settings.workspace / "via").symlink_to(settings.workspace / "real")
    template = settings.workspace / "via" / "t.md.j2"
    code, log = go(replace(settings, template=template), FakeCommenter(), CLEAN)
    assert code == 0  # the gate's status: a template never hides it
    assert "through a link" in log


def test_run__template_spelling_the_basic_auth_header__redacted(
    settings: Settings,
) -> None:
    """Even a template that holds the header itself shows no form of the token."""
    template = settings.workspace / "t.md.j2"
    template.write_text(GIT_CONFIG + "{{ view.verdict }}\n")
    commenter = FakeCommenter()
    code, log = go(replace(settings, template=template), commenter, CLEAN)
    assert code == 0
    (call,) = commenter.calls
    assert "AUTHORIZATION: basic ***" in call["body"]
    assert not _leaks(call["body"] + summary(settings) + log)


def test_run__model_id_equal_to_the_token__redacted_before_escaping(
    settings: Settings,
) -> None:
    runs = tuple(
        replace(r, model_id=TOKEN) if r.model_id == "model-1" else r for r in make_runs()
    )
    commenter = FakeCommenter()
    report_path = settings.workspace / "leaderboard-report.json"
    code, log = go(settings, commenter, Records(None, runs=runs))
    assert code == 0
    body = commenter.calls[0]["body"]
    escaped = TOKEN.replace("_", "\\_")
    for text in (body, summary(settings), log, report_path.read_text()):
        assert TOKEN not in text
        assert escaped not in text
    assert "\\*\\*\\*" in body or "***" in body


def test_log__redacts_base64_of_the_token_at_any_offset() -> None:
    log = Log(io.StringIO(), secrets=[TOKEN])
    for prefix in ("", "a", "ab", "x-access-token:", "user:"):
        encoded = base64.b64encode(f"{prefix}{TOKEN}\n".encode()).decode()
        redacted = log.redact(encoded)
        assert "***" in redacted
        # What is left cannot hold 12 characters of the token's encoding.
        assert len(redacted) < len(encoded) - 40
    assert log.redact(f"token%3A{TOKEN}") == "token%3A***"


# -- 5. json-report at a link ------------------------------------------------------------


def test_run__json_report_at_a_committed_link__link_replaced_target_untouched(
    settings: Settings, tmp_path: Path
) -> None:
    victim = tmp_path / "outside.txt"
    victim.write_text("precious\n")
    link = settings.workspace / "leaderboard-report.json"
    link.symlink_to(victim)
    code, _ = go(settings, FakeCommenter(), CLEAN)
    assert code == 0
    assert victim.read_text() == "precious\n"
    assert not link.is_symlink()
    assert json.loads(link.read_text())["schema_version"] == 1


def test_run__json_report_in_a_folder_linking_out__exit_2(
    settings: Settings, tmp_path: Path
) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (settings.workspace / "out").symlink_to(outside)
    target = settings.workspace / "out" / "lb.json"
    code, log = go(replace(settings, json_report=target), FakeCommenter(), CLEAN)
    assert code == 2
    assert "outside the workspace" in log
    assert list(outside.iterdir()) == []


# -- 6. pr-number that the event does not vouch for --------------------------------------


@pytest.mark.parametrize("event_name", ["push", "workflow_dispatch", "schedule"])
def test_target__pr_number_on_non_pr_events__unconfirmed(
    settings: Settings, event_name: str
) -> None:
    s = replace(settings, event_name=event_name, pr_number=12)
    target = resolve_target(s, parse_event({}))
    assert target.pr_number == 12
    assert target.unconfirmed


def test_target__pr_number_contradicting_the_pull_request_event__refused(
    settings: Settings,
) -> None:
    s = replace(settings, pr_number=8)
    with pytest.raises(UsageError, match=r"^pr-number: #8 is not the pull request"):
        resolve_target(s, parse_event(PR_EVENT))
    same = resolve_target(replace(settings, pr_number=7), parse_event(PR_EVENT))
    assert (same.pr_number, same.unconfirmed) == (7, False)


def test_run__push_with_pr_number__comment_only_if_that_pr_head_is_this_commit(
    settings: Settings, github_api: FakeGitHub
) -> None:
    github_api.add_pull(7, head_sha="b" * 40)  # the PR's head is another commit
    s = replace(settings, event_name="push", pr_number=7, sha=HEAD)
    commenter, _ = make_commenter(github_api)
    out = io.StringIO()
    code = run(CLEAN(s), commenter, event={}, out=out)
    assert code == 0
    assert github_api.comments(7) == []
    assert "comment not posted on #7" in out.getvalue()


# -- 7. a forged bot comment ---------------------------------------------------------


def test_upsert__forged_bot_comment_with_huge_run_id__body_never_copied(
    github_api: FakeGitHub,
) -> None:
    from leaderboard.action.comment.markers import sticky_marker  # noqa: PLC0415

    github_api.set_head(7, SHA1)
    marker = sticky_marker("leaderboard")
    github_api.add_comment(
        7,
        f"{marker}\n<!-- leaderboard-action:stamp sha={SHA1} run=50 -->\n\nreal",
        login=BOT_LOGIN,
        user_type="Bot",
    )
    github_api.add_comment(
        7,
        f"{marker}\n<!-- leaderboard-action:stamp sha={SHA1} run=99999999999 -->\n\n"
        "FORGED: all models passed",
        login=BOT_LOGIN,
        user_type="Bot",
    )
    commenter, _ = make_commenter(github_api)
    commenter.upsert(
        pr_number=7, header="leaderboard", body="ours", head_sha=SHA1, run_id=100
    )
    written = [r.body for r in github_api.calls("update_comment")]
    written += [r.body for r in github_api.calls("create_comment")]
    assert all("FORGED" not in json.dumps(body) for body in written)
    assert [stamp_of(c).run for c in github_api.comments(7)] == [99999999999]


# -- 8. smaller ones -----------------------------------------------------------------------


def test_run__template_multiplying_a_string_to_a_gigabyte__falls_back(
    settings: Settings,
) -> None:
    template = settings.workspace / "t.md.j2"
    template.write_text('{{ view.verdict }}\n{{ "x" * 10**9 }}\n')
    code, log = go(replace(settings, template=template), FakeCommenter(), CLEAN)
    assert code == 0  # the gate's status: a template never hides it
    assert "line 2" in log
    assert "template limit" in log


def test_run__template_huge_power__falls_back(settings: Settings) -> None:
    template = settings.workspace / "t.md.j2"
    template.write_text("{{ 10 ** 100000000 }}\n")
    code, log = go(replace(settings, template=template), FakeCommenter(), CLEAN)
    assert code == 0  # the gate's status: a template never hides it
    assert "too many digits" in log


def test_main__deeply_nested_event_file__exit_2_not_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    event = tmp_path / "event.json"
    event.write_text("[" * 100_000 + "]" * 100_000)
    (tmp_path / "r.jsonl").write_text('{"model_id": "a", "task_id": "t", "score": 1}\n')
    code = main(
        {
            "GITHUB_EVENT_PATH": str(event),
            "GITHUB_EVENT_NAME": "push",
            "GITHUB_WORKSPACE": str(tmp_path),
            "INPUT_RESULTS": "r.jsonl",
        }
    )
    assert code == 2
    assert "nested too deeply" in capsys.readouterr().out


@pytest.mark.parametrize("kind", ["absolute", "dotdot", "link"])
def test_main__results_outside_the_workspace__exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    outside = tmp_path / "secret.jsonl"
    outside.write_text('{"model_id": "a", "task_id": "t", "score": 1}\n')
    results = {"absolute": str(outside), "dotdot": "../secret.jsonl", "link": "r.jsonl"}[
        kind
    ]
    if kind == "link":
        (ws / "r.jsonl").symlink_to(outside)
    code = main({"GITHUB_WORKSPACE": str(ws), "INPUT_RESULTS": results})
    assert code == 2
    assert "outside the workspace" in capsys.readouterr().out


def test_main__results_log_names_each_file_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a.jsonl").write_text('{"model_id": "a", "task_id": "t", "score": 1}\n')
    code = main({"GITHUB_WORKSPACE": str(tmp_path), "INPUT_RESULTS": "*.jsonl"})
    assert code == 0
    out = capsys.readouterr().out
    # named as the repository holds it, not by the runner's checkout path (issue 32)
    assert "read a.jsonl: 1 records (jsonl)" in out
    assert str(tmp_path) not in out


def test_run__confidence_just_below_one__logged_as_given(settings: Settings) -> None:
    _, log = go(settings, FakeCommenter(), Records(None, confidence=0.9999999))
    assert "intervals at 99.99999%" in log
    assert "at 1;" not in log
    assert "intervals at 1\n" not in log
