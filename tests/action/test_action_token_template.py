"""The token never reaches the comment or the summary, whatever the template renders.

Found in review: the ``template`` input may name any file, e.g. /proc/self/environ,
which holds ``INPUT_GITHUB-TOKEN``; the sandbox keeps a template from reading files
or the environment, but not the file the template *is*. Its text went into the
public comment and the job summary as it was (the log alone was redacted).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from leaderboard.action.settings import Settings
from tests.action.test_action_run import CLEAN, TOKEN, FakeCommenter, go, settings, summary

__all__ = ["settings"]  # the fixture, re-used


def test_run__template_holding_the_token__redacted_in_comment_and_summary(
    settings: Settings, tmp_path: Path
) -> None:
    environ = settings.workspace / "environ"  # a copy of /proc/self/environ, checked in
    environ.write_text(
        f"HOME=/github/home\nINPUT_GITHUB-TOKEN={TOKEN}\n{{{{ view.verdict }}}}\n"
    )
    commenter = FakeCommenter()
    code, log = go(replace(settings, template=environ), commenter, CLEAN)
    assert code == 0
    (call,) = commenter.calls
    assert "INPUT_GITHUB-TOKEN=***" in call["body"]
    assert TOKEN not in call["body"]
    assert TOKEN not in summary(settings)
    assert "INPUT_GITHUB-TOKEN=***" in summary(settings)
    assert TOKEN not in log


def test_run__template_outside_the_workspace__refused_unread(
    settings: Settings, tmp_path: Path
) -> None:
    """/proc/self/environ itself, or any file outside the checkout, is refused before
    anything renders: the comment is the built-in one, never the file's text."""
    outside = tmp_path / "environ"
    outside.write_text(f"INPUT_GITHUB-TOKEN={TOKEN}\n")
    commenter = FakeCommenter()
    code, log = go(replace(settings, template=outside), commenter, CLEAN)
    assert code == 0  # the gate's status: a template never hides it
    assert "template:" in log
    assert "outside the workspace" in log
    assert all("INPUT_GITHUB-TOKEN" not in c["body"] for c in commenter.calls)


def test_run__template_linking_out_of_the_workspace__refused_unread(
    settings: Settings, tmp_path: Path
) -> None:
    outside = tmp_path / "secret.txt"
    outside.write_text("not for a comment\n")
    link = settings.workspace / "innocent.md.j2"
    link.symlink_to(outside)
    commenter = FakeCommenter()
    code, log = go(replace(settings, template=link), commenter, CLEAN)
    assert code == 0  # the gate's status: a template never hides it
    assert "is a symbolic link" in log
    assert all("not for a comment" not in c["body"] for c in commenter.calls)
