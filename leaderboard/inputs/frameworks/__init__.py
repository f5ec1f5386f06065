"""Readers for the output of eval frameworks (Inspect, lm-eval, promptfoo, and more).

`sniff` tells a framework's file by its content (`sniffing`, which every file read
with ``format: "auto"`` goes through); `read` turns it into `EvalRun` records,
importing the framework's reader only then: a run that reads records alone imports
none of them. ``leaderboard.inputs.load_runs`` calls both (``format="auto"`` sniffs each
file; a framework name reads every file with that reader). None needs the framework
installed. The rules (one score per task, which scores map to [0, 1] and how) are in
docs/frameworks.md, `leaderboard.inputs.frameworks.metrics` and the readers'
docstrings.
"""

from __future__ import annotations

from pathlib import Path

from leaderboard.inputs import reading
from leaderboard.inputs.frameworks._common import DefaultChoice, FormatWarning
from leaderboard.inputs.frameworks.metrics import TASK_WEIGHTS, ReadOptions
from leaderboard.inputs.frameworks.sniffing import sniff
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

# Each reader is imported when its format is first read (not with the package).
# ruff: noqa: PLC0415


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
        from leaderboard.inputs.frameworks.inspect_log import read_inspect

        return read_inspect(path, options)
    if fmt == "lm-eval":
        from leaderboard.inputs.frameworks import lm_eval

        if lm_eval.is_samples(path):
            from leaderboard.inputs.frameworks import lm_eval_samples

            return lm_eval_samples.read_samples(path, options)
        return lm_eval.read_results(path, options)
    if fmt == "promptfoo":
        from leaderboard.inputs.frameworks.promptfoo import read_promptfoo

        return read_promptfoo(path, options)
    if fmt == "evalscope":
        from leaderboard.inputs.frameworks.evalscope import read_evalscope

        return read_evalscope(path, options)
    if fmt == "helm":
        from leaderboard.inputs.frameworks.helm import read_helm

        return read_helm(path, options)
    if fmt == "livecodebench":
        from leaderboard.inputs.frameworks.livecodebench import read_livecodebench

        return read_livecodebench(path, options)
    if fmt == "lighteval":
        from leaderboard.inputs.frameworks.lighteval import read_lighteval

        return read_lighteval(path, options)
    if fmt == "deepeval":
        from leaderboard.inputs.frameworks.deepeval import read_deepeval

        return read_deepeval(path, options)
    if fmt == "swe-bench":
        from leaderboard.inputs.frameworks.swebench import read_swebench

        return read_swebench(path, options)
    raise ValueError(f"unknown framework format {fmt!r}; one of {FRAMEWORK_FORMATS}")
