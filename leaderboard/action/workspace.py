"""Files the action reads from and writes to the workspace: the template and the report.

Paths come from inputs, and the workspace is a checkout of code anybody may have
pushed: a committed symbolic link, or a folder that leads out of the checkout, must
neither publish a runner file in the comment nor get a file written through it.
"""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
from pathlib import Path

from leaderboard.action.settings import Settings
from leaderboard.errors import UsageError
from leaderboard.report import Report

__all__ = ["check_template", "display_path", "write_report"]


def check_template(template: Path, workspace: Path) -> None:
    """A template is a regular file inside the workspace, not a link, not under .git/.

    Its text goes into a public comment: a path such as /proc/self/environ, a link
    out of the checkout or to ``.git/config`` (where actions/checkout keeps the token,
    base64-encoded) would publish whatever the runner's files hold.

    Raises
    ------
    UsageError
        The template is missing, a link, outside the workspace or under ``.git/``.
    """
    shown = str(template)
    fix = "keep the template in the repository (for example .github/leaderboard.md.j2)"
    if template.is_symlink():
        raise UsageError(f"template: {shown!r} is a symbolic link; {fix}, as a file")
    if not template.is_file():
        raise UsageError(f"template: no such file {shown!r}")
    root = workspace.resolve()
    real = template.resolve()
    if not real.is_relative_to(root):
        raise UsageError(f"template: {shown!r} is outside the workspace; {fix}")
    if ".git" in real.relative_to(root).parts:
        raise UsageError(
            f"template: {shown!r} lies under .git/, which holds the checkout's "
            f"credentials; {fix}"
        )
    lexical = Path(os.path.abspath(template))
    if not lexical.is_relative_to(os.path.abspath(workspace)) or lexical.relative_to(
        os.path.abspath(workspace)
    ) != real.relative_to(root):
        # A folder on the way is a link: the file is not where the input says.
        raise UsageError(f"template: {shown!r} is reached through a link; {fix}")


def write_report(settings: Settings, report: Report) -> Path:
    """Write the JSON report inside the workspace, through a temporary file.

    A committed symbolic link at the path is replaced, never written through (it could
    point anywhere on the runner); a path outside the workspace, or whose folders lead
    out of it through links, is refused. Nothing is half-written: the file appears
    whole or not at all.

    Raises
    ------
    UsageError
        The path is outside the workspace, a folder, or cannot be written.
    """
    path = settings.json_report or settings.default_report_path()
    shown = str(path)
    root = settings.workspace.resolve()
    fix = "give a path relative to the workspace, such as out/leaderboard.json"
    if not _inside(path.parent, settings.workspace):
        raise UsageError(f"json-report: {shown!r} is outside the workspace; {fix}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.parent.resolve().is_relative_to(root):  # raced, or a link
            raise UsageError(f"json-report: {shown!r} is outside the workspace; {fix}")
        if path.is_dir() and not path.is_symlink():
            raise IsADirectoryError(errno.EISDIR, "Is a directory")
        handle, temp = tempfile.mkstemp(prefix=".leaderboard-", dir=path.parent)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(report.model_dump_json(indent=2) + "\n")
            os.chmod(temp, 0o644)
            os.replace(temp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temp)
            raise
    except OSError as exc:
        raise UsageError(f"json-report: cannot write {shown!r}: {exc.strerror}") from None
    _give_to_workspace_owner(settings.workspace, path)
    return path


def display_path(settings: Settings, path: Path) -> str:
    """The report's path for the ``report`` output.

    Relative to the workspace when inside it: the container sees the workspace at
    ``/github/workspace``, the job's later steps at ``$GITHUB_WORKSPACE``, and a
    relative path means the same file to both.
    """
    try:
        return str(path.relative_to(settings.workspace))
    except ValueError:
        return str(path)


def _inside(folder: Path, workspace: Path) -> bool:
    """Whether `folder` lies in `workspace`, by name and after links are followed.

    A folder yet to be made is judged by its nearest existing ancestor.
    """
    lexical = Path(os.path.abspath(folder))
    if not lexical.is_relative_to(os.path.abspath(workspace)):
        return False
    probe = lexical
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    return probe.resolve().is_relative_to(workspace.resolve())


def _give_to_workspace_owner(workspace: Path, path: Path) -> None:
    """A container action runs as root: hand the file to the job's user, if we can."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return
    try:
        owner = workspace.stat()
        if (owner.st_uid, owner.st_gid) != (0, 0) and path.resolve().is_relative_to(
            workspace.resolve()
        ):
            os.chown(path, owner.st_uid, owner.st_gid)
    except OSError:
        pass
