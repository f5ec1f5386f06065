"""A bug while commenting is one warning; the exit status is still the gate's.

Found in review: `_post` caught only `CommentError`; anything else the commenter
raised (PyGithub reading an unexpected answer, a bug) left `run` and `main` turned it
into status 3, hiding the regression (1) or the clean result (0). CONTRACT: a comment
failure never hides the gate's status.
"""

from __future__ import annotations

import pytest

from leaderboard.action.settings import Settings
from tests.action import action_helpers
from tests.action.test_action_run import (
    CLEAN,
    REGRESSED,
    TOKEN,
    FakeCommenter,
    go,
    outputs,
    settings,
    summary,
)

__all__ = ["settings"]  # the fixture, re-used


@pytest.mark.parametrize(("compute", "status"), [(REGRESSED, 1), (CLEAN, 0)])
def test_run__commenter_bug__warning_and_gate_status(
    settings: Settings,
    capsys: pytest.CaptureFixture[str],
    compute: object,
    status: int,
) -> None:
    error = TypeError(f"string indices must be integers {TOKEN}")
    code, log = go(settings, FakeCommenter(error=error), compute)  # type: ignore[arg-type]
    assert code == status
    warnings = [a for a in action_helpers.annotations(log) if a[0] == "warning"]
    assert len(warnings) == 1
    assert "comment not published: internal error" in warnings[0][2]
    assert outputs(settings)["comment-url"] == ""
    assert "model-1" in summary(settings)
    err = capsys.readouterr().err
    assert "TypeError: string indices" in err
    assert TOKEN not in err + log
