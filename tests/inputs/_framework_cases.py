"""Helpers shared by the tests of the EvalScope, HELM, LiveCodeBench, lighteval readers."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from leaderboard.cli import main
from leaderboard.inputs import EvalRun, load_runs
from leaderboard.inputs.frameworks import FormatWarning, ReadOptions, read

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def read_quiet(fmt: str, path: Path, *metrics: str) -> list[EvalRun]:
    """`read` with its FormatWarnings silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FormatWarning)
        return read(fmt, path, ReadOptions(metrics=metrics))


def cli_refusal(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """Run the command line, assert exit 2 and one line on stderr; return that line."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FormatWarning)
        code = main(["report", *args])
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert "\n" not in err
    assert "Traceback" not in err
    return err


def load_quiet(*paths: str) -> list[EvalRun]:
    """`load_runs` with its FormatWarnings silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FormatWarning)
        return load_runs(list(paths))
