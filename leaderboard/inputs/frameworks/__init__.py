"""Readers for the output of eval frameworks (Inspect, lm-eval, promptfoo, and more).

`sniff` tells a framework's file by its content; `read` turns it into `EvalRun`
records. ``leaderboard.inputs.load_runs`` calls both (``format="auto"`` sniffs each
file; a framework name reads every file with that reader). None needs the framework
installed. The rules (one score per task, which scores map to [0, 1] and how) are in
docs/frameworks.md, `leaderboard.inputs.frameworks.metrics` and the readers'
docstrings.
"""

from __future__ import annotations

from pathlib import Path

from leaderboard.inputs import reading
from leaderboard.inputs.frameworks import (
    evalscope,
    helm,
    lighteval,
    livecodebench,
    lm_eval,
    lm_eval_samples,
    promptfoo,
)
from leaderboard.inputs.frameworks._common import DefaultChoice, FormatWarning
from leaderboard.inputs.frameworks.deepeval import read_deepeval
from leaderboard.inputs.frameworks.deepeval import sniff as _sniff_deepeval
from leaderboard.inputs.frameworks.inspect_log import read_inspect
from leaderboard.inputs.frameworks.inspect_log import sniff as _sniff_inspect
from leaderboard.inputs.frameworks.metrics import TASK_WEIGHTS, ReadOptions
from leaderboard.inputs.frameworks.swebench import read_swebench
from leaderboard.inputs.frameworks.swebench import sniff as _sniff_swebench
from leaderboard.inputs.records import EvalRun

__all__ = [
    "FORMAT_HINT",
    "FRAMEWORK_FORMATS",
    "TASK_WEIGHTS",
    "DefaultChoice",
    "FormatWarning",
    "ReadOptions",
    "read",
    "sniff",
]

FRAMEWORK_FORMATS = reading.FRAMEWORK_FORMATS
FORMAT_HINT = reading.FORMAT_HINT


def sniff(path: Path, head: bytes) -> str | None:  # noqa: PLR0911 - one per framework
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
        One of `FRAMEWORK_FORMATS`, or None for anything else.
        Never raises.
    """
    if _sniff_inspect(path, head):
        return "inspect"
    if promptfoo.sniff(head):  # before lm-eval: both can start {"results": {
        return "promptfoo"
    if lighteval.sniff(path, head):  # before lm-eval: both have `results`
        return "lighteval"
    if lm_eval.sniff(head):
        return "lm-eval"
    if evalscope.sniff(head):
        return "evalscope"
    if helm.sniff(head):
        return "helm"
    if livecodebench.sniff(head):
        return "livecodebench"
    if _sniff_deepeval(head):
        return "deepeval"
    if _sniff_swebench(head):
        return "swe-bench"
    return None


def read(  # noqa: PLR0911 - one return per framework
    fmt: str, path: Path, options: ReadOptions | None = None
) -> list[EvalRun]:
    """Read one file written by the framework `fmt` into records.

    Parameters
    ----------
    fmt : str
        The framework, one of `FRAMEWORK_FORMATS`.
    path : pathlib.Path
        An Inspect log (``.eval`` or ``.json``); an lm-evaluation-harness
        ``results_*.json`` (task-level records) or ``samples_<task>_<date>.jsonl``
        (item-level records); a promptfoo ``-o`` output (``.json`` or ``.jsonl``);
        an EvalScope review or report; a HELM ``per_instance_stats.json``; a
        LiveCodeBench ``*_eval_all.json``; a lighteval ``results_*.json``.
    options : ReadOptions, optional
        The user's preferred metrics and task weighting (default: each reader's
        primary metric, tasks weighted equally).

    Returns
    -------
    list of EvalRun

    Raises
    ------
    leaderboard.errors.InputError
        The file breaks the framework's format or gives no score the leaderboard can
        rank; the message is one line naming the file, the sample or line, the field
        and the fix.
    ValueError
        `fmt` is not one of `FRAMEWORK_FORMATS`.
    """
    options = options or ReadOptions()
    if fmt == "inspect":
        return read_inspect(path, options)
    if fmt == "lm-eval":
        if lm_eval.is_samples(path):
            return lm_eval_samples.read_samples(path, options)
        return lm_eval.read_results(path, options)
    if fmt == "promptfoo":
        return promptfoo.read_promptfoo(path, options)
    if fmt == "evalscope":
        return evalscope.read_evalscope(path, options)
    if fmt == "helm":
        return helm.read_helm(path, options)
    if fmt == "livecodebench":
        return livecodebench.read_livecodebench(path, options)
    if fmt == "lighteval":
        return lighteval.read_lighteval(path, options)
    if fmt == "deepeval":
        return read_deepeval(path, options)
    if fmt == "swe-bench":
        return read_swebench(path, options)
    raise ValueError(f"unknown framework format {fmt!r}; one of {FRAMEWORK_FORMATS}")
