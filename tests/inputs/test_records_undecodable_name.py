"""A framework log whose file name is not UTF-8: its notes can still be reported.

Found in review: a reader's note (``FormatWarning``) names the file as it is, and a
name with bytes that are not UTF-8 (possible in an artifact) decodes to lone
surrogates. The note went into the report's ``warnings`` as it was, and the action
crashed writing the JSON report (status 3) on an otherwise good run.
"""

from __future__ import annotations

import io
import os
import shutil
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from leaderboard.action.job import run
from leaderboard.action.settings import Settings
from leaderboard.inputs import load_runs_noting
from tests.action.test_action_run import PR_EVENT, FakeCommenter, settings

__all__ = ["settings"]  # the fixture, re-used

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "lm_eval" / "dummy-a"
pytestmark = pytest.mark.skipif(
    sys.platform == "darwin", reason="macOS refuses file names that are not UTF-8"
)


def undecodable_copy(directory: Path) -> Path:
    (source,) = FIXTURE.glob("results_*.json")
    target = os.fsencode(directory) + b"/results_\xff.json"
    shutil.copy(source, target)
    return Path(os.fsdecode(target))


def test_notes__undecodable_file_name_escaped(tmp_path: Path) -> None:
    path = undecodable_copy(tmp_path)
    runs, notes = load_runs_noting(path, format="lm-eval")
    assert runs
    assert notes  # the fixture's chrf is rescaled: there is a note naming the file
    for note in notes:
        assert "results_\\udcff.json" in note
        note.encode("utf-8")  # no lone surrogate left


def test_action__undecodable_file_name__report_written_exit_0(
    settings: Settings,
) -> None:
    path = undecodable_copy(settings.workspace)
    commenter = FakeCommenter()
    code = run(
        replace(settings, results=(str(path),)),
        commenter,
        event=PR_EVENT,
        out=io.StringIO(),
    )
    assert code == 0
    report = (settings.workspace / "leaderboard-report.json").read_text(encoding="utf-8")
    assert "results_\\\\udcff.json" in report  # the JSON string holds the escape
    assert len(commenter.calls) == 1
