"""The commit status: its description from real two-run data, its context and state,
and `GitHubStatuses` against the fake API (statuses and labels)."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from leaderboard.action.status.api import GitHubStatuses, StatusError
from leaderboard.action.status.plan import StatusPlan, accepted_by, status_context
from leaderboard.inputs import EvalRun, load_runs
from leaderboard.render import MAX_DESCRIPTION_CHARS, status_description
from leaderboard.report import BaselineRun, Gate, Report
from leaderboard.stats import accept, build_report, decide
from tests.action.github_support import REPOSITORY, Sleeps
from tests.docs.docs_support import load_script
from tests.fakes.github_api import INSTALLATION_TOKEN, READ_ONLY_TOKEN, FakeGitHub, Fault

M = "-"  # the same hyphen-minus as the comment's first line


def describe(report: Report, *, accepted: str | None = None) -> str:
    """The status description of `report`, its regression accepted by `accepted`."""
    return status_description(accept(report, accepted))


def with_gate(report: Report, gate: Gate) -> Report:
    """`report` with another gate and the verdict decided from it."""
    return report.model_copy(update={"gate": gate, "verdict": decide(gate)})


MAIN = BaselineRun(
    label="main", source="history", branch="main", commit="abc1234" + "0" * 33
)
HEAD = "a" * 40


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[EvalRun]]:
    """`make demo-two-runs`'s data: real MMLU-Pro runs split into a PR's and main's."""
    out = tmp_path_factory.mktemp("two-runs")
    load_script("demo_two_runs").main(out)
    return {
        "pr": load_runs([str(out / "pr.csv")]),
        "main": load_runs([str(out / "main.csv")]),
    }


def _report(pr: list[EvalRun], main: list[EvalRun], max_drop: float = 0.05) -> Report:
    return build_report(pr, baseline_runs=main, baseline_run=MAIN, max_drop=max_drop)


def _only(runs: list[EvalRun], model: str) -> list[EvalRun]:
    return [r for r in runs if r.model_id == model]


def test_describe__regression_in_the_demo(demo: dict[str, list[EvalRun]]) -> None:
    report = _report(demo["pr"], demo["main"])
    assert describe(report) == (
        f"regressed: my-org/assistant-8b score {M}0.081 [{M}0.148, {M}0.022] vs "
        "main@abc1234"
    )
    assert describe(report, accepted="accept-regression") == (
        f"accepted by label accept-regression: my-org/assistant-8b score {M}0.081 "
        f"[{M}0.148, {M}0.022] vs main@abc1234"
    )


def test_describe__cannot_tell_says_what_is_not_ruled_out_within_140(
    demo: dict[str, list[EvalRun]],
) -> None:
    chat = "my-org/chat-7b"
    report = _report(_only(demo["pr"], chat), _only(demo["main"], chat))
    text = describe(report)
    assert text == (
        f"cannot tell: score {M}0.010 [{M}0.088, 0.046] vs main@abc1234, not a pass: a "
        "drop of 0.088 not ruled out, ~370 clusters would rule out 0.050"
    )
    assert len(text) <= MAX_DESCRIPTION_CHARS
    # with max-drop beyond the interval's lower end it passes, and says what it detects
    wide = _report(_only(demo["pr"], chat), _only(demo["main"], chat), max_drop=0.1)
    assert describe(wide) == (
        f"no regression: score {M}0.010 [{M}0.088, 0.046] vs main@abc1234, detects 0.081"
    )


def test_describe__cannot_tell_says_why_within_140(demo: dict[str, list[EvalRun]]) -> None:
    chat = _only(demo["pr"], "my-org/chat-7b")[:1]
    base = [
        r
        for r in _only(demo["main"], "my-org/chat-7b")
        if (r.task_id, r.item_id) == (chat[0].task_id, chat[0].item_id)
    ]
    report = _report(chat, base)
    text = describe(report)
    assert report.gate.status == "undetermined"
    assert text.startswith(
        "cannot tell: score +0.000, no interval vs main@abc1234, not a pass: task "
        "biology holds a single shared cluster"
    )
    assert len(text) == MAX_DESCRIPTION_CHARS
    assert text.endswith("\N{HORIZONTAL ELLIPSIS}")


def test_describe__long_ids_are_cut_to_fit(demo: dict[str, list[EvalRun]]) -> None:
    long = "org/" + "x" * 300
    model = "my-org/assistant-8b"
    pr = [replace(r, model_id=long) for r in _only(demo["pr"], model)]
    main = [replace(r, model_id=long) for r in _only(demo["main"], model)]
    run = MAIN.model_copy(update={"label": "release-" + "y" * 90})
    report = build_report(pr, baseline_runs=main, baseline_run=run, resamples=2000)
    text = describe(report)
    assert len(text) <= MAX_DESCRIPTION_CHARS
    assert "\n" not in text
    assert text.startswith("regressed: ")  # one candidate: not named
    assert f"[{M}0." in text


def test_describe__no_gate_and_no_baseline_run_with_its_note() -> None:
    report = build_report(
        [EvalRun("m", f"t{i}", 0.5 + i / 100) for i in range(5)], resamples=200
    )
    assert describe(report) == "no gate: no baseline was set, nothing was checked"
    gate = report.gate.model_copy(update={"status": "no_baseline_run"})
    stored = with_gate(report, gate)
    assert describe(stored) == "no baseline run, nothing was checked for a regression"
    note = "A run is kept on lh, but it could not be read (index.json: bad). " + "x" * 99
    noted = gate.model_copy(update={"note": note})
    text = describe(with_gate(report, noted))
    assert text.startswith(
        "no baseline run, nothing was checked for a regression: A run is kept on lh, "
        "but it could not be read"
    )
    assert len(text) == MAX_DESCRIPTION_CHARS
    assert text.endswith("\N{HORIZONTAL ELLIPSIS}")


@pytest.mark.parametrize(
    ("header", "context"),
    [
        ("leaderboard", "leaderboard"),
        ("safety evals", "leaderboard/safety evals"),
        ("two\nlines ", "leaderboard/two lines"),
    ],
)
def test_status_context__one_per_header(header: str, context: str) -> None:
    assert status_context(header) == context


def test_accepted_by__ignores_case_and_is_off_when_empty() -> None:
    assert accepted_by(["bug", "Accept-Regression"], "accept-regression") == (
        "accept-regression"
    )
    assert accepted_by(["bug"], "accept-regression") is None
    assert accepted_by(["accept-regression"], "") is None
    assert accepted_by(["accept-regression"], None) is None


def _client(fake: FakeGitHub, token: str = INSTALLATION_TOKEN) -> GitHubStatuses:
    return GitHubStatuses(
        token=token, api_url=fake.base_url, repository=REPOSITORY, sleep=Sleeps()
    )


PLAN = StatusPlan("leaderboard", "failure", f"regressed: {M}0.081", "https://x/1")


def test_set_status__posts_on_the_commit_and_a_rerun_replaces_it(
    github_api: FakeGitHub,
) -> None:
    client = _client(github_api)
    assert client.set_status(HEAD, PLAN) == "leaderboard"
    again = StatusPlan("leaderboard", "success", "no regression: +0.004", None)
    client.set_status(HEAD, again)
    client.set_status(HEAD, StatusPlan("leaderboard/evals", "success", "x", None))
    latest = github_api.status.latest(HEAD)
    assert {k: v["state"] for k, v in latest.items()} == {
        "leaderboard": "success",
        "leaderboard/evals": "success",
    }
    assert latest["leaderboard"]["target_url"] is None
    assert github_api.status.statuses[HEAD][0]["description"] == (f"regressed: {M}0.081")
    assert github_api.status.statuses[HEAD][0]["target_url"] == "https://x/1"
    assert [c.route for c in github_api.requests] == ["create_status"] * 3


@pytest.mark.parametrize("token", ["no-statuses", READ_ONLY_TOKEN])
def test_set_status__refused_without_the_permission(
    github_api: FakeGitHub, token: str
) -> None:
    github_api.add_token("no-statuses", can_write_statuses=False)
    with pytest.raises(StatusError) as caught:
        _client(github_api, token).set_status(HEAD, PLAN)
    assert caught.value.status == 403
    assert "Resource not accessible by integration" in str(caught.value)
    assert token not in str(caught.value)
    assert len(github_api.calls("create_status")) == 1  # not retried


def test_set_status__a_server_error_is_retried(github_api: FakeGitHub) -> None:
    github_api.inject("create_status", Fault.server_error(502))
    _client(github_api).set_status(HEAD, PLAN)
    assert len(github_api.calls("create_status")) == 2
    assert github_api.status.latest(HEAD)["leaderboard"]["state"] == "failure"


def test_set_status__an_unknown_commit_is_a_status_error(github_api: FakeGitHub) -> None:
    with pytest.raises(StatusError, match="422 No commit found for SHA"):
        _client(github_api).set_status("f" * 40, PLAN)


def test_labels__read_from_the_api_every_page(github_api: FakeGitHub) -> None:
    client = _client(github_api, READ_ONLY_TOKEN)
    assert client.labels(7) == []
    for i in range(120):
        github_api.status.add_label(7, f"label-{i:03d}")
    github_api.status.add_label(7, "accept-regression")
    names = client.labels(7)
    assert len(names) == 121
    assert names[-1] == "accept-regression"
    assert client.head(7) == HEAD
    with pytest.raises(StatusError, match="404"):
        client.labels(99)


def test_repr_hides_the_token() -> None:
    client = GitHubStatuses(token=INSTALLATION_TOKEN, api_url="http://x", repository="o/r")
    assert INSTALLATION_TOKEN not in repr(client)


def test_merge_box_doc__quotes_the_descriptions_the_code_makes_for_the_demo(
    demo: dict[str, list[EvalRun]],
) -> None:
    """docs/merge-box.md's table of statuses is what `make demo-two-runs`' data gives."""
    doc = Path(__file__).resolve().parents[2] / "docs" / "merge-box.md"
    section = doc.read_text("utf-8").split("# The verdict in the merge box", 1)[1]
    section = section.split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `leaderboard`")]
    quoted = [re.findall(r"`([^`]+)`", row.split("|")[3])[0] for row in rows]
    run = BaselineRun(label="main", source="results")  # as the command line makes it
    both = build_report(demo["pr"], baseline_runs=demo["main"], baseline_run=run)
    chat = build_report(
        demo["pr"],
        baseline_runs=demo["main"],
        baseline_run=run,
        candidates=["my-org/chat-7b"],
    )
    assert quoted == [
        describe(both),
        describe(both, accepted="accept-regression"),
        describe(chat),
    ]
