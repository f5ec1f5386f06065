"""Helpers of the EvalScope, HELM, LiveCodeBench, lighteval and lm-eval readers.

- `json_lines`: a JSON Lines file read a line at a time (`_common.json_lines`:
  the memory held does not grow with the file), one parsed object a line. Lines
  end at ``\n`` only: `str.splitlines` also splits at U+2028 and U+0085, which
  JSON strings may hold raw (EvalScope's ``ensure_ascii=False`` output does).
- `pick_metric`: the user's metric (``--metric`` / the ``metric`` input) among the
  metrics a file holds, else the framework's primary one; a preference that names
  nothing the file holds is refused, listing what it holds.
- `beside`, `confined`: a file a framework writes next to the one given (HELM's
  ``run_spec.json``, lm-eval's results file beside its samples), refused when it is
  a link or resolves elsewhere.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from leaderboard.errors import InputError
from leaderboard.inputs.frameworks._common import json_lines as budgeted_lines
from leaderboard.inputs.frameworks.metrics import ReadOptions


def json_lines(path: Path, shown: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) of every non-blank line of a JSON Lines file.

    Raises
    ------
    InputError
        A line that is not JSON (or nested too deeply), or not a JSON object.
    """
    for number, row in budgeted_lines(path):  # each line within a document's budget
        if not isinstance(row, dict):
            raise InputError("is not a JSON object", file=shown, line=number)
        yield number, row


def pick_metric(
    available: Sequence[str],
    primary: str,
    options: ReadOptions,
    shown: str,
    *,
    field: str,
) -> str:
    """The metric kept: the first of the user's preferences held, else `primary`.

    Parameters
    ----------
    available : sequence of str
        The metrics the file holds, in the framework's order.
    primary : str
        The framework's own primary metric (one of `available`).
    options : ReadOptions
        The user's preferences.
    shown : str
        The file, for the message.
    field : str
        Where the metrics are in the file, for the message.

    Raises
    ------
    InputError
        Preferences were given and the file holds none of them.
    """
    for want in options.metrics:
        if want in available:
            return want
    if options.metrics:
        listed = ", ".join(available[:12]) + (", ..." if len(available) > 12 else "")
        raise InputError(
            f"holds no metric named {', '.join(options.metrics)}; it holds {listed}",
            file=shown,
            field=field,
            fix="set `metric` (--metric) to one of the metrics it holds",
        )
    return primary


def beside(path: Path, name: str, shown: str, fix: str) -> Path:
    """The file `name` in the folder of `path`, refused when not a plain file there.

    Raises
    ------
    InputError
        Missing, a link, not a regular file, or resolving outside the folder
        (`confined`).
    """
    return confined(path.parent / name, path, shown, fix)


def confined(candidate: Path, path: Path, shown: str, fix: str) -> Path:
    """`candidate`, a file beside `path`, refused when not a plain file in its folder.

    The readers get no workspace root (`ReadOptions` carries none), so a file the
    framework writes beside the one given (HELM's ``run_spec.json``, lm-eval's results
    file beside its samples) is only read when it is a regular file in the same
    folder: not a link (to anywhere), and its real path is in the real folder of
    `path`. `path` itself was already confined by `sources.expand`. This is checked
    before the file is opened, so a link cannot make a reader publish a file from
    outside the workspace.

    Raises
    ------
    InputError
        Missing (`fix` says what to give), a link, not a regular file, or resolving
        outside the folder.
    """
    name = candidate.name
    try:
        info = os.lstat(candidate)
    except FileNotFoundError:
        raise InputError(
            f"has no {name} beside it", file=shown, field=name, fix=fix
        ) from None
    except OSError as exc:
        raise InputError(
            f"{name} beside it cannot be read ({exc.strerror})", file=shown, fix=fix
        ) from None
    real = Path(os.path.realpath(candidate))
    if (
        stat.S_ISLNK(info.st_mode)
        or not stat.S_ISREG(info.st_mode)
        or real.parent != Path(os.path.realpath(path.parent))
    ):
        raise InputError(
            f"{name} beside it is a link or not a regular file, which is not followed",
            file=shown,
            field=name,
            fix=f"put the {name} the framework wrote beside it as a plain file, not a link",
        )
    return candidate
