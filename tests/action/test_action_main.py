"""main(env): the environment in, an exit status out; configuration errors reported."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import leaderboard.action.job as action
from leaderboard.action.job import EXIT_BUG, main
from tests.action.action_helpers import annotations, parse_outputs, push_env


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "results.jsonl").write_text(
        "".join(
            json.dumps({"model_id": m, "task_id": f"t{t}", "score": s}) + "\n"
            for m, s in (("a", 0.6), ("b", 0.7))
            # 60 tasks: task-level runs of fewer than 30 take the betting interval,
            # which cannot find a drop of 0.1 on 6 (issue 28)
            for t in range(60)
        ),
        encoding="utf-8",
    )
    return push_env(tmp_path, ws, results="results.jsonl", resamples="200")


def test_main__push__exit_0_outputs_and_summary(
    env: dict[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(env) == 0
    outputs = parse_outputs((tmp_path / "output").read_text())
    assert outputs["regressed"] == "false"
    assert outputs["report"] == "leaderboard-report.json"
    assert (tmp_path / "ws" / "leaderboard-report.json").is_file()
    assert "no pull request" in capsys.readouterr().out


def test_main__bad_input__exit_2_annotation_and_summary_note(
    env: dict[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    env["INPUT_CONFIDENCE"] = "1.5"
    assert main(env) == 2
    out = capsys.readouterr().out
    ((level, _props, message),) = annotations(out)
    assert level == "error"
    assert message == "confidence: must be between 0 and 1 (exclusive), got '1.5'"
    summary = (tmp_path / "summary").read_text()
    assert "could not be computed" in summary
    assert "confidence: must be between 0 and 1" in summary
    assert not (tmp_path / "ws" / "leaderboard-report.json").exists()


def test_main__missing_results_file__exit_2_names_the_file(
    env: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    env["INPUT_RESULTS"] = "nope/*.jsonl"
    assert main(env) == 2
    ((_level, _props, message),) = annotations(capsys.readouterr().out)
    assert "nope/*.jsonl" in message


def test_main__unreadable_event_file__exit_2(
    env: dict[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    event = tmp_path / "event.json"
    event.write_text("{not json", encoding="utf-8")
    env["GITHUB_EVENT_PATH"] = str(event)
    assert main(env) == 2
    ((_level, _props, message),) = annotations(capsys.readouterr().out)
    assert message.startswith("GITHUB_EVENT_PATH: cannot read the event file")


def test_main__missing_event_file_is_no_event(env: dict[str, str], tmp_path: Path) -> None:
    env["GITHUB_EVENT_PATH"] = str(tmp_path / "absent.json")
    assert main(env) == 0


def test_main__bug__traceback_and_exit_3(
    env: dict[str, str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(*_args: object, **_kwargs: object) -> int:
        raise ZeroDivisionError("oops")

    monkeypatch.setattr(action, "run", broken)
    assert main(env) == EXIT_BUG
    captured = capsys.readouterr()
    assert "ZeroDivisionError: oops" in captured.err
    assert "Traceback" in captured.err
    assert annotations(captured.out)[0][0] == "error"


def test_main__pull_request_without_token__warns_and_keeps_status(
    env: dict[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"pull_request": {"number": 3, "head": {"sha": "c" * 40}}}))
    env |= {"GITHUB_EVENT_PATH": str(event), "GITHUB_EVENT_NAME": "pull_request"}
    env |= {"INPUT_BASELINE": "b", "INPUT_GITHUB-TOKEN": ""}
    assert main(env) == 1  # a (0.6 everywhere) is below the baseline b (0.7)
    kinds = [a[0] for a in annotations(capsys.readouterr().out)]
    assert sorted(kinds) == ["error", "warning"]
