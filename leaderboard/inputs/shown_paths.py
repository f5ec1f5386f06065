"""Files named as a reviewer knows them: relative to the workspace.

The action joins every input path to its workspace, so the readers see and name
``/home/runner/work/repo/repo/results/run.jsonl``; that checkout path says nothing to a
reviewer, ``results/run.jsonl`` is what the repository holds. `relative` rewrites a
sentence, `relative_error` an `InputError`, both for the `root` that ``load_runs``
is given (the action's workspace); without one, nothing changes.
"""

from __future__ import annotations

import os

from leaderboard.errors import InputError

__all__ = ["relative", "relative_error"]


def relative(text: str, root: str | os.PathLike[str] | None) -> str:
    """`text` with ``<root>/`` removed wherever it starts a path."""
    if root is None:
        return text
    top = os.path.abspath(root).rstrip(os.sep)
    return text.replace(top + os.sep, "") if top else text


def relative_error(exc: InputError, root: str | os.PathLike[str] | None) -> InputError:
    """`exc` itself, its file, problem and fix named relative to `root`."""
    if root is None:
        return exc
    exc.file = None if exc.file is None else relative(exc.file, root)
    exc.problem = relative(exc.problem, root)
    exc.fix = None if exc.fix is None else relative(exc.fix, root)
    exc.args = (exc._format(),)
    return exc
