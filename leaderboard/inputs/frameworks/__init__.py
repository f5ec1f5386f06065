"""Readers for the output of eval frameworks: Inspect logs and lm-evaluation-harness.

`sniff` tells a framework's file by its content; `read` turns it into `EvalRun`
records. ``leaderboard.inputs.load_runs`` calls both (``format="auto"`` sniffs each
file; a framework name reads every file with that reader). Neither needs the
framework installed. The rules (which scores map to [0, 1], which metrics become which
tasks) are in docs/frameworks.md and in the readers' docstrings.
"""

from __future__ import annotations

from pathlib import Path

from leaderboard.inputs.frameworks._common import FormatWarning
from leaderboard.inputs.frameworks.inspect_log import read_inspect
from leaderboard.inputs.frameworks.inspect_log import sniff as _sniff_inspect
from leaderboard.inputs.frameworks.lm_eval import read_lm_eval
from leaderboard.inputs.frameworks.lm_eval import sniff as _sniff_lm_eval
from leaderboard.inputs.records import EvalRun

__all__ = ["FRAMEWORK_FORMATS", "FormatWarning", "read", "sniff"]

FRAMEWORK_FORMATS: tuple[str, ...] = ("inspect", "lm-eval")


def sniff(path: Path, head: bytes) -> str | None:
    """Name the framework that wrote a file, judged by its content.

    Parameters
    ----------
    path : pathlib.Path
        The file (opened only to list a zip archive's members when `head` does not
        show them).
    head : bytes
        Its first bytes (64 KiB), already un-gzipped.

    Returns
    -------
    str or None
        ``"inspect"``, ``"lm-eval"``, or None for anything else. Never raises.
    """
    if _sniff_inspect(path, head):
        return "inspect"
    if _sniff_lm_eval(head):
        return "lm-eval"
    return None


def read(fmt: str, path: Path) -> list[EvalRun]:
    """Read one file written by the framework `fmt` into records.

    Parameters
    ----------
    fmt : {"inspect", "lm-eval"}
        The framework.
    path : pathlib.Path
        An Inspect log (``.eval`` or ``.json``), or an lm-evaluation-harness
        ``results_*.json`` (task-level records) or ``samples_<task>_<date>.jsonl``
        (item-level records).

    Returns
    -------
    list of EvalRun

    Raises
    ------
    leaderboard.errors.InputError
        The file breaks the framework's format or holds a score that does not map to
        [0, 1]; the message is one line naming the file, the sample or line, the field
        and the fix.
    ValueError
        `fmt` is not one of `FRAMEWORK_FORMATS`.
    """
    if fmt == "inspect":
        return read_inspect(path)
    if fmt == "lm-eval":
        return read_lm_eval(path)
    raise ValueError(f"unknown framework format {fmt!r}; one of {FRAMEWORK_FORMATS}")
