"""run() with fake collaborators: outputs, summary, comment, exit status, failures."""

from __future__ import annotations

import io
import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest

from leaderboard.action.comment.api import CommentError
from leaderboard.action.event import parse_event
from leaderboard.action.job import EXIT_USAGE, Target, resolve_target, run
from leaderboard.action.settings import Settings
from leaderboard.errors import InputError, UsageError
from leaderboard.inputs import EvalRun
from leaderboard.report import Report
from tests.action.action_helpers import annotations, parse_outputs
from tests.action.action_job import write_results

TOKEN = "ghs_unitTESTtokenNEVERprintedABCDEF0123456"  # noqa: S105 - a fake token
HEAD = "a" * 40
MERGE = "m" * 40
PR_EVENT: dict[str, Any] = {
    "number": 7,
    "pull_request": {"number": 7, "head": {"sha": HEAD}},
}


@dataclass
class FakeCommenter:
    """Records upserts; raises `error` instead when it is set."""

    error: Exception | None = None
    calls: list[dict[str, Any]] = field(default_factory=list)

    def upsert(
        self,
        *,
        pr_number: int,
        header: str,
        body: str,
        head_sha: str | None,
        run_id: int | None,
    ) -> str:
        self.calls.append(
            {
                "pr_number": pr_number,
                "header": header,
                "body": body,
                "head_sha": head_sha,
                "run_id": run_id,
            }
        )
        if self.error is not None:
            raise self.error
        return f"https://github.com/octo-org/octo-repo/pull/{pr_number}#issuecomment-1"


@dataclass(frozen=True)
class Records:
    """What `run` reads: records written in the workspace, gated against `baseline`.

    By default the seeded records of `write_results` (model-0 clearly below model-2);
    `runs` writes those instead. Called on the settings, it writes the file and
    returns the settings that name it: the production wiring reads it.
    """

    baseline: str | None
    tasks: int = 30
    runs: tuple[EvalRun, ...] | None = None
    confidence: float = 0.95

    def __call__(self, settings: Settings) -> Settings:
        path = settings.workspace / "results.jsonl"
        if self.runs is None:
            write_results(path, tasks=self.tasks)
        else:
            path.write_text(
                "".join(
                    json.dumps(
                        {"model_id": r.model_id, "task_id": r.task_id, "score": r.score}
                    )
                    + "\n"
                    for r in self.runs
                ),
                encoding="utf-8",
            )
        return replace(
            settings,
            results=(str(path),),
            baseline=self.baseline,
            resamples=300,
            confidence=self.confidence,
        )


def report_of(baseline: str, tasks: int = 30) -> Records:
    """The records of a report gated against `baseline` (see `Records`)."""
    return Records(baseline, tasks)


def raising(monkeypatch: pytest.MonkeyPatch, exc: BaseException) -> Records:
    """Records whose report cannot be made: computing it raises `exc` (a bug, or an
    error the readers would raise), the rest of the wiring as in production."""

    def fail(*_args: object, **_kwargs: object) -> object:
        raise exc

    monkeypatch.setattr("leaderboard.action.job.report_and_runs", fail)
    return CLEAN


REGRESSED = report_of("model-2")
CLEAN = report_of("model-0")


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    ws = tmp_path / "ws"
    ws.mkdir()
    files = tmp_path / "file_commands"
    files.mkdir()
    return Settings(
        results=(str(ws / "results.jsonl"),),
        github_token=TOKEN,
        repository="octo-org/octo-repo",
        event_name="pull_request",
        sha=MERGE,
        run_id=99,
        workspace=ws,
        output_path=files / "output",
        summary_path=files / "summary",
    )


def go(
    settings: Settings,
    commenter: FakeCommenter | None,
    records: Records,
    event: dict[str, Any] | None = None,
) -> tuple[int, str]:
    out = io.StringIO()
    code = run(
        records(settings),
        commenter,
        event=PR_EVENT if event is None else event,
        out=out,
    )
    return code, out.getvalue()


def outputs(settings: Settings) -> dict[str, str]:
    assert settings.output_path is not None
    return parse_outputs(settings.output_path.read_text(encoding="utf-8"))


def summary(settings: Settings) -> str:
    assert settings.summary_path is not None
    return settings.summary_path.read_text(encoding="utf-8")


def test_run__pull_request_no_regression__comment_summary_outputs_exit_0(
    settings: Settings,
) -> None:
    commenter = FakeCommenter()
    code, log = go(settings, commenter, CLEAN)
    assert code == 0
    assert len(commenter.calls) == 1
    call = commenter.calls[0]
    assert call["pr_number"] == 7
    assert call["header"] == "leaderboard"
    assert call["head_sha"] == HEAD  # the PR head, not GITHUB_SHA's merge commit
    assert call["run_id"] == 99
    assert "model-1" in call["body"]
    out = outputs(settings)
    assert out == {
        "regressed": "false",
        "accepted": "false",
        "gate-status": "no_regression",
        "verdict": "no_regression",
        "verdict-text": "no regression: model-1 score +0.090 [0.032, 0.148] vs model-0 "
        "(and 1 more), improved beyond noise, detects 0.073",
        "report": "leaderboard-report.json",
        "comment-url": "https://github.com/octo-org/octo-repo/pull/7#issuecomment-1",
    }
    data = json.loads((settings.workspace / "leaderboard-report.json").read_text())
    assert Report.model_validate(data).gate.baseline == "model-0"
    assert "model-1" in summary(settings)
    assert annotations(log) == []
    assert TOKEN not in log


def test_run__regression_with_fail_on_regression__exit_1_and_error_annotation(
    settings: Settings,
) -> None:
    commenter = FakeCommenter()
    code, log = go(settings, commenter, REGRESSED)
    assert code == 1
    assert outputs(settings)["regressed"] == "true"
    errors = [a for a in annotations(log) if a[0] == "error"]
    assert len(errors) == 1
    assert errors[0][2].startswith("verdict: regressed: model-0 score -0.13")
    assert len(commenter.calls) == 1  # the comment still goes out


def test_run__regression_without_fail_on_regression__exit_0_and_warning(
    settings: Settings,
) -> None:
    code, log = go(replace(settings, fail_on_regression=False), FakeCommenter(), REGRESSED)
    assert code == 0
    assert outputs(settings)["regressed"] == "true"
    assert [a[0] for a in annotations(log)] == ["warning"]


@pytest.mark.parametrize("event_name", ["push", "schedule", "workflow_dispatch"])
def test_run__outside_a_pull_request__summary_and_outputs_only(
    settings: Settings, event_name: str
) -> None:
    commenter = FakeCommenter()
    code, log = go(replace(settings, event_name=event_name), commenter, REGRESSED, event={})
    assert code == 1
    assert commenter.calls == []
    assert outputs(settings)["comment-url"] == ""
    assert outputs(settings)["regressed"] == "true"
    assert "model-0" in summary(settings)
    assert "no pull request, so no comment" in log


def test_run__comment_false__no_comment(settings: Settings) -> None:
    commenter = FakeCommenter()
    code, _ = go(replace(settings, comment=False), commenter, CLEAN)
    assert code == 0
    assert commenter.calls == []
    assert outputs(settings)["comment-url"] == ""


def test_run__comment_error__one_warning_and_the_gate_decides(settings: Settings) -> None:
    error = CommentError("pull request #7: 403 Resource not accessible by integration")
    code, log = go(settings, FakeCommenter(error=error), REGRESSED)
    assert code == 1
    kinds = [a[0] for a in annotations(log)]
    assert kinds.count("warning") == 1
    warning = next(a for a in annotations(log) if a[0] == "warning")
    assert "403 Resource not accessible by integration" in warning[2]
    assert "two-workflow" in warning[2]
    assert outputs(settings)["regressed"] == "true"
    assert outputs(settings)["comment-url"] == ""
    assert "model-0" in summary(settings)


def test_run__comment_error_on_clean_run__still_exit_0(settings: Settings) -> None:
    code, _ = go(settings, FakeCommenter(error=CommentError("boom")), CLEAN)
    assert code == 0


def test_run__no_token_on_pull_request__warning(settings: Settings) -> None:
    code, log = go(replace(settings, github_token=""), None, CLEAN)
    assert code == 0
    assert [a[0] for a in annotations(log)] == ["warning"]
    assert "no github-token" in log


def test_run__token_in_an_error_is_redacted(settings: Settings) -> None:
    error = CommentError(f"refused token {TOKEN}")
    _, log = go(settings, FakeCommenter(error=error), CLEAN)
    assert TOKEN not in log
    assert "refused token ***" in log


def test_run__bad_input__exit_2_error_failure_comment_and_summary(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    commenter = FakeCommenter()
    error = InputError(
        "must lie in [0, 1], got 1.5",
        file="r.jsonl",
        line=3,
        field="score",
        fix="normalise scores",
    )
    code, log = go(settings, commenter, raising(monkeypatch, error))
    assert code == EXIT_USAGE
    errors = [a for a in annotations(log) if a[0] == "error"]
    assert len(errors) == 1
    assert errors[0][2] == (
        "r.jsonl, line 3, field `score`: must lie in [0, 1], got 1.5 (normalise scores)"
    )
    assert len(commenter.calls) == 1
    body = commenter.calls[0]["body"]
    assert "could not be computed" in body
    assert commenter.calls[0]["head_sha"] == HEAD
    assert "could not be computed" in summary(settings)
    out = outputs(settings)
    assert "regressed" not in out  # nothing is claimed about a report that was not made
    assert out["comment-url"].endswith("#issuecomment-1")


def test_run__bad_input_outside_pull_request__no_comment(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    commenter = FakeCommenter()
    error = UsageError("baseline: 'main' is not a model of the results")
    records = raising(monkeypatch, error)
    code, _ = go(replace(settings, event_name="push"), commenter, records, event={})
    assert code == 2
    assert commenter.calls == []


def test_run__hostile_message_cannot_issue_workflow_commands(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    error = UsageError("bad id 'x\n::add-mask::oops\r\n##[set-output name=a]b %0A'")
    code, log = go(settings, FakeCommenter(), raising(monkeypatch, error))
    assert code == 2
    lines = log.splitlines()
    assert not any(line.startswith("::add-mask::") for line in lines)
    assert not any("##[" in line for line in lines)
    assert len(annotations(log)) == 1
    # the runner decodes %0A back to a newline inside the one annotation
    assert "%0A::add-mask::oops%0D%0A" in log
    assert "%250A" in log


def test_run__unexpected_exception__failure_comment_then_reraised(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    commenter = FakeCommenter()
    with pytest.raises(RuntimeError, match="a bug"):
        go(settings, commenter, raising(monkeypatch, RuntimeError("a bug")))
    assert len(commenter.calls) == 1
    assert "internal error" in commenter.calls[0]["body"]


def test_run__json_report_path_and_relative_output(settings: Settings) -> None:
    target = settings.workspace / "out" / "lb.json"
    code, _ = go(replace(settings, json_report=target), FakeCommenter(), CLEAN)
    assert code == 0
    assert outputs(settings)["report"] == "out/lb.json"
    assert json.loads(target.read_text())["schema_version"] == 1


def test_run__json_report_outside_workspace__exit_2_nothing_written(
    settings: Settings, tmp_path: Path
) -> None:
    """The docs say relative to the workspace: an absolute path elsewhere is refused."""
    target = tmp_path / "elsewhere" / "lb.json"
    code, log = go(replace(settings, json_report=target), FakeCommenter(), CLEAN)
    assert code == 2
    assert "json-report:" in log
    assert "outside the workspace" in log
    assert not target.exists()
    assert not target.parent.exists()


def test_run__json_report_unwritable__exit_2_names_the_input(settings: Settings) -> None:
    blocker = settings.workspace / "dir"
    blocker.mkdir()
    code, log = go(replace(settings, json_report=blocker), FakeCommenter(), CLEAN)
    assert code == 2
    assert "json-report: cannot write" in annotations(log)[0][2]


def test_run__missing_template__built_in_comment_and_the_gates_status(
    settings: Settings,
) -> None:
    s = replace(settings, template=settings.workspace / "nope.md.j2", results=("x",))
    commenter = FakeCommenter()
    code, log = go(s, commenter, report_of("model-0"))
    assert code == 0  # the gate's status, never 2 for a template
    (warned,) = [a for a in annotations(log) if "template not used" in a[1]]
    assert "template: no such file" in warned[2]
    (call,) = commenter.calls
    assert "could not be used, so this is the built-in comment" in call["body"]


def test_run__custom_template_renders_comment_and_summary(settings: Settings) -> None:
    tpl = settings.workspace / "mine.md.j2"
    tpl.write_text("CUSTOM {{ view.verdict }}\n", encoding="utf-8")
    commenter = FakeCommenter()
    code, _ = go(replace(settings, template=tpl), commenter, CLEAN)
    assert code == 0
    assert commenter.calls[0]["body"].startswith("CUSTOM")
    assert summary(settings).startswith("CUSTOM")


def test_run__two_headers_two_report_files(settings: Settings) -> None:
    go(settings, FakeCommenter(), CLEAN)
    go(replace(settings, comment_header="safety"), FakeCommenter(), CLEAN)
    assert (settings.workspace / "leaderboard-report.json").is_file()
    assert (settings.workspace / "leaderboard-report-safety.json").is_file()


# -- resolve_target ---------------------------------------------------------------------


def test_target__pull_request_target_uses_head_sha(settings: Settings) -> None:
    s = replace(settings, event_name="pull_request_target")
    assert resolve_target(s, parse_event(PR_EVENT)) == Target(7, HEAD, 99)


def test_target__push_has_no_pull_request(settings: Settings) -> None:
    assert resolve_target(replace(settings, event_name="push"), parse_event({})) == Target(
        None, MERGE, 99
    )


def test_target__pr_number_input_on_other_events(settings: Settings) -> None:
    s = replace(settings, event_name="workflow_dispatch", pr_number=12)
    assert resolve_target(s, parse_event({})) == Target(12, MERGE, 99)


def test_target__workflow_run_from_artifact_number(settings: Settings) -> None:
    s = replace(settings, event_name="workflow_run", pr_number=12)
    event = {"workflow_run": {"head_sha": HEAD, "pull_requests": []}}
    assert resolve_target(s, parse_event(event)) == Target(12, HEAD, 99)


def test_target__workflow_run_from_event(settings: Settings) -> None:
    s = replace(settings, event_name="workflow_run")
    event = {"workflow_run": {"head_sha": HEAD, "pull_requests": [{"number": 5}]}}
    assert resolve_target(s, parse_event(event)) == Target(5, HEAD, 99)


def test_target__workflow_run_without_number__no_comment(settings: Settings) -> None:
    s = replace(settings, event_name="workflow_run")
    event = {"workflow_run": {"head_sha": HEAD, "pull_requests": []}}
    assert resolve_target(s, parse_event(event)).pr_number is None


def test_target__workflow_run_contradicted_number_refused(settings: Settings) -> None:
    s = replace(settings, event_name="workflow_run", pr_number=13)
    event = {"workflow_run": {"head_sha": HEAD, "pull_requests": [{"number": 5}]}}
    with pytest.raises(UsageError, match=r"^pr-number: #13 is not a pull request"):
        resolve_target(s, parse_event(event))


def test_target__malformed_event_does_not_crash(settings: Settings) -> None:
    event: dict[str, Any] = {"pull_request": ["x"], "number": "7"}
    assert resolve_target(settings, parse_event(event)) == Target(None, MERGE, 99)


HOSTILE_IDS = [
    "::add-mask::model",
    "m\n::error::forged",
    "m\r\n::stop-commands::tok",
    "##[set-output name=regressed;]false",
    "\x1b[31mred",
]


@pytest.mark.parametrize("hostile", HOSTILE_IDS)
def test_run__hostile_model_ids_never_become_workflow_commands(
    settings: Settings, hostile: str
) -> None:
    runs = tuple(
        EvalRun(model, f"t{t}", score + 0.01 * (t % 3))
        for t in range(20)
        for model, score in ((hostile, 0.3), ("base", 0.8))
    )
    code, log = go(settings, FakeCommenter(), Records("base", runs=runs))
    # The readers refuse control characters in an id (exit 2, the id quoted in the
    # error); the rest are read, and the hostile model regressed against base.
    refused = any(c in hostile for c in "\r\n\x1b")
    assert code == (2 if refused else 1)
    for line in log.split("\n"):
        assert not line.startswith("::") or line.startswith(("::error ", "::warning ")), (
            line
        )
        assert "##[" not in line
        assert "\x1b" not in line
        assert "\r" not in line
    ((level, _props, message),) = annotations(log)
    assert level == "error"
    if not refused:
        assert message.startswith("verdict: regressed: score ")
        assert outputs(settings)["regressed"] == "true"
