"""The command line: options, exit statuses, atomic outputs.

The statistics and the rendering are replaced by stand-ins here (the real ones are
exercised end to end in tests/cli/test_cli_report.py), so these tests pin
what the command line itself does.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import leaderboard.render
import leaderboard.stats
from leaderboard import __version__
from leaderboard.cli import main, write_atomic
from leaderboard.errors import InputError, UsageError
from leaderboard.stats import ModelBaseline, Request

#: How both shells word the ranges of `leaderboard.stats.LIMITS`.
EXCLUSIVE = "between 0 and 1 (exclusive)"
MARGIN = "at least 0 and below 1 (scores lie in [0, 1])"
RECORDS = "".join(
    json.dumps({"model_id": m, "task_id": f"t{t}", "score": 0.5}) + "\n"
    for m in ("base", "cand", "other")
    for t in range(3)
)


class FakeReport:
    """What the command line needs of a `Report`: a gate verdict and a JSON dump."""

    def __init__(self, regressed: bool, **kwargs: Any) -> None:
        self.kwargs = kwargs
        status = "regressed" if regressed else "no_regression"
        self.gate = type("Gate", (), {"regressed": regressed, "status": status})()
        self.verdict = type("Verdict", (), {"accepted": None})()

    def model_dump_json(self, indent: int | None = None) -> str:
        return json.dumps({"schema_version": 1, "kwargs": self.kwargs}, indent=indent)


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "runs.jsonl"
    path.write_text(RECORDS, encoding="utf-8")
    return path


@pytest.fixture
def fake_core(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Stand-ins for report_for and render_comment that record their calls."""
    seen: dict[str, Any] = {"regressed": False}

    def report_for(req: Request) -> FakeReport:
        seen["runs"] = req.runs
        seen["request"] = dataclasses.replace(req, runs=())  # the runs: seen["runs"]
        if seen.get("fail"):
            raise InputError("mixed records", file="x.jsonl", line=3, fix="fix it")
        return FakeReport(seen["regressed"])

    class CommentContext:
        pass

    def render_comment(report: FakeReport, context: object = None) -> str:
        seen["context"] = context
        return "## leaderboard\n\n| model | mean |\n"

    monkeypatch.setattr(leaderboard.stats, "report_for", report_for, raising=False)
    monkeypatch.setattr(leaderboard.render, "CommentContext", CommentContext, raising=False)

    def render_with_fallback(
        report: FakeReport, context: object = None, **kwargs: Any
    ) -> tuple[str, None]:
        seen["template"] = kwargs.get("template")
        return render_comment(report, context), None

    monkeypatch.setattr(leaderboard.render, "render_comment", render_comment, raising=False)
    monkeypatch.setattr(
        leaderboard.render, "render_with_fallback", render_with_fallback, raising=False
    )
    return seen


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"leaderboard {__version__}"


@pytest.mark.parametrize("argv", [["--help"], ["report", "--help"]])
def test_help__exits_0_and_explains(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "exit status" in out
    assert "report" in out


def test_report_help__lists_every_contract_option(
    capsys: pytest.CaptureFixture[str],
) -> None:
    main(["report", "--help"])
    out = capsys.readouterr().out
    for option in (
        "--baseline", "--candidate", "--confidence", "--resamples", "--seed", "--margin",
        "--json", "--markdown", "--format", "--gate-categories", "model_id", "score",
        "--baseline-results", "--baseline-label",
    ):  # fmt: skip
        assert option in out


def test_report__prints_markdown_and_passes_options(
    data: Path, fake_core: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["report", str(data), "--baseline", "base", "--candidate", "cand"]
    argv += ["--candidate", "cand", "--confidence", "0.9", "--resamples", "200"]
    argv += ["--seed", "7", "--margin", "0.01", "--gate-categories", "--max-drop", "0.1"]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert out == "## leaderboard\n\n| model | mean |\n"
    assert err == ""
    assert fake_core["request"] == Request(
        runs=(),
        baseline=ModelBaseline("base"),
        candidates=("cand",),
        confidence=0.9,
        resamples=200,
        seed=7,
        margin=0.01,
        max_drop=0.1,
        gate_categories=True,
        guardrails=(),
        anchor=None,
    )
    assert len(fake_core["runs"]) == 9
    assert type(fake_core["context"]).__name__ == "CommentContext"


def test_report__defaults(data: Path, fake_core: dict[str, Any]) -> None:
    assert main(["report", str(data)]) == 0
    assert fake_core["request"] == Request(
        runs=(),
        baseline=None,
        candidates=None,
        confidence=0.95,
        resamples=10000,
        seed=0,
        margin=0.0,
        max_drop=0.05,
        gate_categories=False,
        guardrails=(),
        anchor=None,
    )


def test_report__regression_exits_1(data: Path, fake_core: dict[str, Any]) -> None:
    fake_core["regressed"] = True
    assert main(["report", str(data), "--baseline", "base"]) == 1


def test_report__writes_json_and_markdown(
    data: Path, fake_core: dict[str, Any], tmp_path: Path
) -> None:
    json_path = tmp_path / "out" / "deep" / "report.json"
    md_path = tmp_path / "comment.md"
    status = main(
        ["report", str(data), "--json", str(json_path), "--markdown", str(md_path)]
    )
    assert status == 0
    assert json.loads(json_path.read_text())["schema_version"] == 1
    assert md_path.read_text() == "## leaderboard\n\n| model | mean |\n"
    assert not list(tmp_path.rglob("*.tmp"))
    umask = os.umask(0)
    os.umask(umask)
    assert json_path.stat().st_mode & 0o777 == 0o666 & ~umask  # not mkstemp's 0o600


def test_report__error_in_core_writes_nothing(
    data: Path,
    fake_core: dict[str, Any],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    fake_core["fail"] = True
    json_path = tmp_path / "report.json"
    json_path.write_text("old")
    assert main(["report", str(data), "--json", str(json_path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "leaderboard: error: x.jsonl, line 3: mixed records (fix it)\n"
    assert json_path.read_text() == "old"


def test_write_atomic__failed_rename_keeps_old_file_and_no_temp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "r.json"
    target.write_text("old")

    def boom(src: str, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(UsageError, match=r"--json: cannot write .*No space left"):
        write_atomic(target, "new", "--json")
    assert target.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.json"]


def test_write_atomic__unwritable_directory(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(UsageError, match="--markdown: cannot write"):
        write_atomic(blocker / "sub" / "x.md", "text", "--markdown")


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--confidence", "1.5", f"--confidence: must be {EXCLUSIVE}, got '1.5'"),
        ("--confidence", "0", f"--confidence: must be {EXCLUSIVE}, got '0'"),
        ("--confidence", "1", f"--confidence: must be {EXCLUSIVE}, got '1'"),
        ("--confidence", "nan", f"--confidence: must be {EXCLUSIVE}, got 'nan'"),
        ("--confidence", "95%", "--confidence: must be a number, got '95%'"),
        ("--margin", "-0.1", f"--margin: must be {MARGIN}, got '-0.1'"),
        ("--margin", "inf", f"--margin: must be {MARGIN}, got 'inf'"),
        ("--max-drop", "0", "--max-drop: must be above 0 and at most 1 (scores lie in"),
        ("--anchor-margin", "1", f"--anchor-margin: must be {MARGIN}, got '1'"),
        ("--resamples", "0", "--resamples: must be between 100 and 1000000, got '0'"),
        ("--resamples", "1e4", "--resamples: must be an integer, got '1e4'"),
        ("--resamples", "99999999", "--resamples: must be between 100 and 1000000"),
        ("--seed", "-1", f"--seed: must be between 0 and {2**63 - 1}, got '-1'"),
        ("--seed", "x", "--seed: must be an integer, got 'x'"),
        ("--json", "", "--json: must be a file path"),
        ("--markdown", ".", "--markdown: . is a directory"),
    ],
)
def test_options__bad_values_name_the_option(
    data: Path, option: str, value: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["report", str(data), option, value]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"leaderboard: error: {message}")
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "required: COMMAND"),
        (["report"], "required: FILE_OR_GLOB"),
        (["publish", "x"], "invalid choice: 'publish'"),
        (["report", "x", "--frobnicate"], "unrecognized arguments: --frobnicate"),
        (["report", "x", "--confidence"], "--confidence: expected one argument"),
        (["report", "x", "--format", "xml"], "invalid choice: 'xml'"),
    ],
)
def test_usage_errors__one_line_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("leaderboard: error: ")
    assert message in err
    assert "--help" in err
    assert err.count("\n") == 1


def test_gate_options__baseline_among_candidates(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["report", str(data), "--baseline", "base", "--candidate", "base"]) == 2
    assert "is the baseline" in capsys.readouterr().err


def test_python_m_leaderboard__is_the_same_command(data: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "leaderboard", "report", "nothing-*.jsonl"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stderr == (
        "leaderboard: error: nothing-*.jsonl: no file matches this pattern (check the "
        "pattern and the working directory, and quote it so the shell does not expand it)\n"
    )
    version = subprocess.run(
        [sys.executable, "-m", "leaderboard", "--version"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert version.stdout.strip() == f"leaderboard {__version__}"
