"""Golden files: the rendered comment, summary and failure for fixed hand-built reports.

A change to the templates, the view or the plot shows up here as a diff. When the change
is intended, regenerate the files and review the diff before committing:

    UPDATE_GOLDEN=1 .venv/bin/pytest tests/render/test_render_golden.py
"""

from __future__ import annotations

import os
import pathlib

import pytest

from leaderboard.render.comment import (
    CommentContext,
    render_comment,
    render_failure,
    render_summary,
)
from leaderboard.report import Gate
from tests.conftest import with_gate
from tests.render.render_samples import golden_report

GOLDEN = pathlib.Path(__file__).resolve().parent.parent / "golden"
CTX = CommentContext(
    head_sha="0123456789abcdef0123456789abcdef01234567",
    run_url="https://github.com/octo/evals/actions/runs/42",
    summary_url="https://github.com/octo/evals/actions/runs/42#summary-1",
)


def rendered() -> dict[str, str]:
    no_gate = with_gate(golden_report(), Gate(baseline=None, regressed=False))
    return {
        "comment.md": render_comment(golden_report(), CTX),
        "summary.md": render_summary(golden_report(), CTX),
        "comment-no-gate.md": render_comment(no_gate, CommentContext(head_sha="abcdef1")),
        "failure.md": render_failure(
            "results/run.jsonl, line 7, field `score`: 1.5 is outside [0, 1] "
            "(scores must be normalised to [0, 1])",
            CTX,
        ),
    }


@pytest.mark.parametrize(
    "name", ["comment.md", "summary.md", "comment-no-gate.md", "failure.md"]
)
def test_golden(name: str) -> None:
    text = rendered()[name]
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN") == "1":
        path.write_text(text, encoding="utf-8", newline="\n")
    assert path.exists(), f"{path} is missing: run with UPDATE_GOLDEN=1 to create it"
    assert text == path.read_text(encoding="utf-8")
