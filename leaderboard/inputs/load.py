"""Loading artifacts: `load_runs` finds, reads and checks every record of every file.

The public entry of the inputs stage. `leaderboard.inputs.sources` finds the files and
picks a reader for each; the readers (`json_records`, `csv_records`, `frameworks`) turn
them into `EvalRun` records; `sources.check_runs` checks them across files.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterable

from leaderboard.inputs.frameworks import FormatWarning
from leaderboard.inputs.records import EvalRun, canonical_sort
from leaderboard.inputs.sources import check_runs, collect


def load_runs(
    paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    *,
    format: str = "auto",
    root: str | os.PathLike[str] | None = None,
) -> list[EvalRun]:
    """Load, validate and combine eval-runner artifacts.

    Parameters
    ----------
    paths : path, glob, or iterable of them
        Files (``.json``, ``.jsonl``, ``.ndjson``, ``.csv``, each optionally gzipped)
        and globs (``**`` matches directories recursively). A file named twice is read
        once.
    format : {"auto", "records", "inspect", "lm-eval"}
        ``"auto"`` asks `frameworks.sniff` whether a file is a framework log and
        otherwise reads it as records (by extension, then by content);
        ``"records"`` reads every file as records; a framework name reads every file
        with that framework's reader.
    root : path, optional
        Refuse any path or file outside this folder, after links (the action passes
        its workspace: artifacts and inputs there are untrusted).

    Returns
    -------
    list of EvalRun
        Every record of every file, sorted by (model_id, task_id, item_id, sample), so
        the result depends on the set of records only, not on record or file order.
        ``item_id`` and ``cluster`` are strings (the JSON integer 42 becomes "42").

    Raises
    ------
    UsageError
        No paths, or an unknown `format`.
    InputError
        A file that is missing, empty, unreadable or unrecognised; a glob that matches
        nothing; a record that breaks the input contract; the same (model, task[, item[,
        sample]]) twice; item-level and task-level records for one (model, task); one
        task with two categories or weights. Its message is one line naming the file,
        the line or record, the field and the fix.
    """

    runs, sources = collect(paths, format, root=root)
    canonical_sort(runs)
    check_runs(runs, sources)
    return runs


def load_runs_noting(
    paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    *,
    format: str = "auto",
    root: str | os.PathLike[str] | None = None,
) -> tuple[list[EvalRun], list[str]]:
    """`load_runs`, with what the framework readers changed returned as sentences.

    The readers report a rescaled or left-out metric as a `FormatWarning`; the command
    line and the action show these as one clean line each and put them in the report's
    ``warnings`` instead of letting Python print a warning with a source line.
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", FormatWarning)
        runs = load_runs(paths, format=format, root=root)
    notes: list[str] = []
    for item in caught:
        if issubclass(item.category, FormatWarning):
            # A reader names the file as it is; a name that is not UTF-8 holds lone
            # surrogates, which no JSON report, summary or log line can carry.
            text = str(item.message)
            notes.append(text if text.isprintable() else repr(text)[1:-1])
        else:  # not ours to reword: let the caller's filters decide
            warnings.warn_explicit(item.message, item.category, item.filename, item.lineno)
    return runs, list(dict.fromkeys(notes))
