"""A bug's traceback on stderr can neither issue a workflow command nor show the token.

Found in review: `main` printed an unexpected exception with `traceback.print_exc`,
raw. The runner reads a container's stderr as log lines too, so an exception message
quoting an artifact's id (``\\n::add-mask::...``, ``##[...]``) or, from a library,
the token reached the log unescaped and unredacted.
"""

from __future__ import annotations

import pytest

import leaderboard.action.job as action
from leaderboard.action.job import EXIT_BUG, main
from tests.action.test_action_main import env

__all__ = ["env"]  # the fixture, re-used

TOKEN = "ghs_traceTESTtokenNEVERprintedABCDEF012345"  # noqa: S105 - a fake token


def test_main__bug_traceback__escaped_and_redacted(
    env: dict[str, str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    env["INPUT_GITHUB-TOKEN"] = TOKEN

    def broken(*_args: object, **_kwargs: object) -> int:
        message = f"model x\n::add-mask::hidden\n##[error]forged {TOKEN}"
        raise RuntimeError(message)

    monkeypatch.setattr(action, "run", broken)
    assert main(env) == EXIT_BUG
    captured = capsys.readouterr()
    assert "Traceback (most recent call last):" in captured.err
    assert "RuntimeError: model x" in captured.err
    assert "add-mask" in captured.err  # shown, but not as a command
    for line in captured.err.splitlines():
        assert not line.lstrip().startswith("::"), line
    assert "##[" not in captured.err
    assert TOKEN not in captured.err + captured.out
    assert "***" in captured.err
