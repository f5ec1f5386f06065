"""Where records come from (paths, globs, formats) and the checks across records.

`collect` turns the paths given to `load_runs` into records; `check_runs` refuses
duplicates, mixed item- and task-level records and inconsistent task metadata, naming
both places. Places are found again by re-reading the files on that error path only,
so a million good records carry no bookkeeping.
"""

from __future__ import annotations

import dataclasses
import glob
import itertools
import logging
import os
import sys
import warnings
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from leaderboard.errors import InputError, UsageError
from leaderboard.inputs import frameworks, reading
from leaderboard.inputs.csv_records import iter_csv
from leaderboard.inputs.frameworks import FormatWarning, ReadOptions
from leaderboard.inputs.frameworks.deepeval_folder import check_named, own_files
from leaderboard.inputs.globbing import expand_glob
from leaderboard.inputs.json_records import iter_json
from leaderboard.inputs.jsonl_records import iter_jsonl, load_jsonl
from leaderboard.inputs.reading import (
    FieldProblem,
    Place,
    check_text,
    kind_from_content,
    kind_from_name,
    printable,
    read_head,
    relocate,
)
from leaderboard.inputs.records import EvalRun

if TYPE_CHECKING:
    from leaderboard.inputs.frameworks.inspect_log import LogIdentity

#: "read FILE: N records" for each file, at INFO (the action shows it in its log).
log = logging.getLogger("leaderboard.inputs")
FRAMEWORK_FORMATS = frameworks.FRAMEWORK_FORMATS
FORMATS = ("auto", "records", *FRAMEWORK_FORMATS)
_READERS: dict[str, Callable[[Path, str, Callable[[str], str]], Iterator[Place]]] = {
    "json": iter_json,
    "jsonl": iter_jsonl,
    "csv": iter_csv,
}


@dataclasses.dataclass(frozen=True, slots=True)
class Source:
    """One input file and how it is read (a record kind or a framework name)."""

    shown: str
    path: Path
    reader: str
    options: ReadOptions = dataclasses.field(default_factory=ReadOptions)

    @property
    def unit(self) -> str:
        return "record" if self.reader not in ("jsonl", "csv") else "line"

    def places(self) -> Iterator[Place]:
        """Re-read the file, yielding (line or record number, run)."""
        if self.reader in _READERS:
            yield from _READERS[self.reader](self.path, self.shown, sys.intern)
        else:
            yield from enumerate(
                _read_framework(self.reader, self.path, self.shown, self.options), 1
            )


def _shown(text: str, root: str | os.PathLike[str] | None = None) -> str:
    """`text` as a person reads it: printable, and relative to `root` inside it (the
    runner's checkout path, ``/home/runner/work/repo/repo``, says nothing to a
    reviewer: ``results/run.jsonl`` is what the repository holds)."""
    if root is not None:
        top = os.path.abspath(root)
        if os.path.isabs(text) and Path(text).is_relative_to(top) and text != top:
            text = os.path.relpath(text, top)
    return text if text.isprintable() else repr(text)[1:-1]


def expand(
    paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    *,
    root: str | os.PathLike[str] | None = None,
) -> list[Source]:
    """The files named by `paths`, globs expanded (sorted), each file once.

    Globs follow `globbing.expand_glob`: ``**`` matches folders starting with a dot
    and never enters a link to a folder (one warning names the links left out). With
    `root` (the action's workspace), a path or a file outside it, after links, is
    refused.
    """
    items = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    if not items:
        raise UsageError("no input files given: name at least one file or glob")
    sources: list[Source] = []
    seen: set[str] = set()
    for item in items:
        text = os.fspath(item) if isinstance(item, (str, os.PathLike)) else None
        if not isinstance(text, str) or text.strip() == "" or "\0" in text:
            raise UsageError(f"not a usable path: {item!r}; give a file name or a glob")
        files = [text]
        folder = os.path.isdir(text)
        if folder or (glob.has_magic(text) and not os.path.lexists(text)):
            found = expand_glob(os.path.join(text, "**", "*") if folder else text)
            files = own_files(
                _results_only(found.files, folder=folder), lambda f: _shown(f, root)
            )
            if found.skipped_links:
                links = ", ".join(_shown(link, root) for link in found.skipped_links[:3])
                more = len(found.skipped_links) - 3
                warnings.warn(
                    f"{_shown(text, root)}: links to folders are not followed: {links}"
                    + (f" and {more} more" if more > 0 else ""),
                    FormatWarning,
                    stacklevel=2,
                )
            if not files and folder:
                raise InputError(
                    "is a folder that holds no result files",
                    file=_shown(text, root),
                    fix=f"put the results there ({', '.join(RESULT_SUFFIXES)}), or "
                    "give the files or a glob",
                )
            if not files:
                raise InputError(
                    "no file matches this pattern",
                    file=_shown(text, root),
                    fix="check the pattern and the working directory, and "
                    "quote it so the shell does not expand it",
                )
        for name in files:
            key = os.path.realpath(name)
            if root is not None:
                _check_inside(name, key, root)
            if name == text and os.path.isfile(name):  # named, not found by a glob
                check_named(name, _shown(name, root))
            if key not in seen:
                seen.add(key)
                sources.append(Source(_shown(name, root), Path(name), ""))
    return sources


#: What a folder given as input is read for (each also gzipped).
RESULT_SUFFIXES = (".eval", ".json", ".jsonl", ".ndjson", ".csv")
#: Inspect's own bookkeeping in a log folder (`inspect eval-set`, `inspect view`).
INSPECT_OWN = frozenset({".eval-set-id", "eval-set.json", "logs.json"})


def _results_only(files: list[str], *, folder: bool) -> list[str]:
    """Leave out Inspect's own files beside its logs; in a folder, non-result files.

    ``.eval-set-id`` always; ``eval-set.json`` and ``logs.json`` where the same
    folder holds ``.eval`` logs or an ``.eval-set-id`` (elsewhere they may be records).
    """
    folders_with_logs = {
        os.path.dirname(f)
        for f in files
        if f.endswith(".eval") or os.path.basename(f) == ".eval-set-id"
    }
    for f in files:
        if os.path.basename(f) == "eval-set.json":
            folders_with_logs.add(os.path.dirname(f))
    out = []
    for f in files:
        name = os.path.basename(f)
        if name == ".eval-set-id" or (
            name in INSPECT_OWN and os.path.dirname(f) in folders_with_logs
        ):
            continue
        if folder and not name.removesuffix(".gz").endswith(RESULT_SUFFIXES):
            continue
        out.append(f)
    return out


def _superseded(sources: list[Source]) -> list[Source]:
    """Inspect logs of one task id: an errored log that a later log of the same task
    completed (``inspect eval-retry`` writes it beside) is left out, with a note.

    A retry is recognised only when task id, task and model all match: an errored
    log and a finished one that share a task id but name another task or model is
    exit 2 naming both (one would otherwise vanish and the run gate without it).
    """
    ids: dict[Source, LogIdentity] = {}
    for source in sources:
        if source.reader == "inspect":
            # Inspect's reader, imported only when an Inspect log is read
            from leaderboard.inputs.frameworks.inspect_log import (  # noqa: PLC0415
                log_identity,
            )

            found = log_identity(source.path)
            if found is not None:
                ids[source] = found
    by_task: dict[str, list[Source]] = {}
    for source, found in ids.items():
        by_task.setdefault(found.task_id, []).append(source)
    dropped: set[Source] = set()
    for group in by_task.values():
        done = [s for s in group if ids[s].status == "success"]
        if not done or len(group) == 1:
            continue
        latest = max(done, key=lambda s: ids[s].created)
        for s in group:
            if ids[s].status == "success" or ids[s].created > ids[latest].created:
                continue
            if (ids[s].task, ids[s].model) != (ids[latest].task, ids[latest].model):
                raise _not_a_retry(s, ids[s], latest, ids[latest])
            dropped.add(s)
            warnings.warn(
                f"{s.shown}: left out, status {_shown(ids[s].status)}; {latest.shown} "
                "is the retried log of the same task (inspect eval-retry), read instead",
                FormatWarning,
                stacklevel=3,
            )
    return [s for s in sources if s not in dropped]


def _not_a_retry(
    errored: Source, first: LogIdentity, done: Source, second: LogIdentity
) -> InputError:
    def named(found: LogIdentity) -> str:
        return f"task {printable(str(found.task))!r}, model {printable(str(found.model))!r}"

    return InputError(
        f"status {printable(first.status)} ({named(first)}) shares its eval.task_id "
        f"{printable(first.task_id)!r} with {done.shown} ({named(second)}), which is "
        "no retry of it: a retry has the same task id, task and model",
        file=errored.shown,
        field="eval.task_id",
        fix="give each log as Inspect wrote it (`inspect eval-retry LOG` for an errored "
        "one), or leave the errored log out",
    )


def _check_inside(name: str, real: str, root: str | os.PathLike[str]) -> None:
    """Refuse a file that is not inside `root` by its name or after links."""
    top = os.path.abspath(root)
    lexical = os.path.abspath(name)
    if not (
        Path(lexical).is_relative_to(top)
        and Path(real).is_relative_to(os.path.realpath(top))
    ):
        how = "links" if Path(lexical).is_relative_to(top) else "is"
        raise InputError(
            f"{how} outside the workspace",
            file=_shown(name, root),
            fix="give results as paths relative to the workspace, inside it "
            "(no absolute paths, no .., no links out of the checkout)",
        )


def _sniff(path: Path, head: bytes) -> str | None:
    return frameworks.sniff(path, head)


def _read_framework(
    fmt: str, path: Path, shown: str, options: ReadOptions
) -> list[EvalRun]:
    runs: list[EvalRun] = []
    try:
        read = frameworks.read(fmt, path, options)
    except InputError as err:
        if err.file is not None:
            raise
        raise relocate(err, shown) from None  # a record the reader built: name the file
    for number, run in enumerate(read, start=1):
        _check_ids(run, shown, number)
        if isinstance(run.item_id, int) or isinstance(run.cluster, int):
            run = dataclasses.replace(  # noqa: PLW2901 - canonical string ids
                run,
                item_id=None if run.item_id is None else str(run.item_id),
                cluster=None if run.cluster is None else str(run.cluster),
            )
        runs.append(run)
    return runs


_ID_FIELDS = ("model_id", "task_id", "category", "metric_name", "item_id", "cluster")


def _check_ids(run: EvalRun, shown: str, number: int) -> None:
    """The rule the records readers apply: no control character in an id.

    A framework's log names models and tasks too (lm-eval's ``model_name``): a
    newline, a lone surrogate or a line separator there would reach the report, the
    comment and the log as from any artifact.
    """
    for field in _ID_FIELDS:
        value = getattr(run, field)
        if isinstance(value, str) and not value.isprintable():  # printable: no problem
            try:
                check_text(field, value)
            except FieldProblem as problem:
                raise problem.at(shown, record=number) from None


def _reader_for(source: Source, fmt: str) -> str:
    if fmt in FRAMEWORK_FORMATS:
        return fmt
    head = read_head(source.path, source.shown)
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise InputError(
            "is UTF-16 encoded",
            file=source.shown,
            fix="save it as UTF-8 (in PowerShell: Out-File -Encoding utf8)",
        )
    if not head:
        raise InputError(
            "is empty",
            file=source.shown,
            fix="check that the eval runner wrote its results to this file",
        )
    if fmt == "auto":
        found = _sniff(source.path, head)
        if found is not None:
            return found
    kind = kind_from_name(source.path) or kind_from_content(head)
    if kind is None:
        tried = ", ".join([*FRAMEWORK_FORMATS, "JSON", "JSON Lines", "CSV"])
        raise InputError(
            f"is in no recognised format (tried {tried})",
            file=source.shown,
            fix="name record files .json, .jsonl, .ndjson or .csv, optionally gzipped, "
            + frameworks.FORMAT_HINT,
        )
    return kind


def collect(
    paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    fmt: str,
    options: ReadOptions | None = None,
    *,
    root: str | os.PathLike[str] | None = None,
) -> tuple[list[EvalRun], list[Source]]:
    """Read every file named by `paths` with the reader `fmt` chooses."""
    if fmt not in FORMATS:
        raise UsageError(f"--format: must be one of {', '.join(FORMATS)}, got {fmt!r}")
    options = options or ReadOptions()
    runs: list[EvalRun] = []
    sources = []
    found_all = [
        dataclasses.replace(found, reader=_reader_for(found, fmt), options=options)
        for found in expand(paths, root=root)
    ]
    for source in _superseded(found_all):
        before = len(runs)
        cap = reading.MAX_RECORDS
        room = cap - before + 1  # one more than fits tells it is too many
        if source.reader == "jsonl":
            load_jsonl(source.path, source.shown, sys.intern, runs, cap)
        elif source.reader in _READERS:
            reader = _READERS[source.reader](source.path, source.shown, sys.intern)
            runs.extend(run for _, run in itertools.islice(reader, room))
        else:  # the reader itself stops at the cap, as it reads
            limited = dataclasses.replace(options, limit=cap - before)
            runs.extend(_read_framework(source.reader, source.path, source.shown, limited))
        if len(runs) > cap:
            raise reading.too_many_records(source.shown)
        if (
            options.task_weights == "items"
            and source.reader in _READERS
            and any(run.item_id is None for run in runs[before:])
        ):
            raise InputError(
                "holds task-level records (no item_id), which carry no item count for "
                "task-weights: items",
                file=source.shown,
                field="item_id",
                fix="give item-level records, or use task-weights: equal and give each "
                "task the `weight` you mean",
            )
        if len(runs) == before:
            raise InputError(
                "holds no records",
                file=source.shown,
                fix="check that the eval runner wrote its results to this file",
            )
        log.info(
            "read %s: %s records (%s)", source.shown, len(runs) - before, source.reader
        )
        sources.append(source)
    return runs, sources


def _where(run: EvalRun) -> str:
    text = f"model {run.model_id!r}, task {run.task_id!r}"
    if run.item_id is not None:
        text += f", item {run.item_id!r}"
    if run.sample is not None:
        text += f", sample {run.sample}"
    return text


FoundAt = tuple[Source, int]

KEEP_ONE = (
    "keep one record per (model_id, task_id, item_id, sample): drop the repeat, or "
    "number repeated samples of an item with `sample`"
)
TWO_RUNS_FIX = (
    "two runs of the same model (e.g. a pull request's and its base branch's) are "
    "compared by giving the baseline run's files as --baseline-results (action input "
    "`baseline-results`), not with the results; within one run, " + KEEP_ONE
)


def _find(
    sources: list[Source], matches: list[Callable[[EvalRun], bool]]
) -> list[FoundAt | None]:
    """The first place matching each of ``matches``, each a different place."""
    found: list[FoundAt | None] = [None] * len(matches)
    for source in sources:
        for number, run in source.places():
            for index, match in enumerate(matches):
                if found[index] is None and match(run) and (source, number) not in found:
                    found[index] = (source, number)
                    break
            if all(found):
                break
        if all(found):
            break
    return found


def _refuse(
    sources: list[Source],
    matches: list[Callable[[EvalRun], bool]],
    problem: str,
    *,
    field: str | None,
    fix: str,
    found: list[FoundAt | None] | None = None,
) -> InputError:
    """An InputError at the first place matching ``matches[0]``, naming the other place."""
    if found is None:
        found = _find(sources, matches)
    first, other = found[0], found[-1]
    if other is not None and other is not first:
        problem += f"; the other is {other[0].shown}, {other[0].unit} {other[1]}"
    if first is None:  # pragma: no cover - the runs came from these sources
        return InputError(problem, field=field, fix=fix)
    source, number = first
    place: dict[str, Any] = {source.unit: number}
    return InputError(problem, file=source.shown, field=field, fix=fix, **place)


def _same_record(a: EvalRun) -> Callable[[EvalRun], bool]:
    key = (a.model_id, a.task_id, a.item_id, a.sample)
    return lambda r: (r.model_id, r.task_id, r.item_id, r.sample) == key


def check_runs(runs: list[EvalRun], sources: list[Source]) -> None:
    """Refuse what no single record shows: repeats, mixed levels, conflicting tasks.

    `runs` must be in canonical order (`canonical_sort`), so repeats are neighbours.
    """
    tasks: dict[str, EvalRun] = {}
    prev: EvalRun | None = None
    prev_model = prev_task = prev_item = None
    for run in runs:
        model, task, item = run.model_id, run.task_id, run.item_id
        if (
            model == prev_model
            and task == prev_task
            and (item is None or prev_item is None or item == prev_item)
        ) and prev is not None:  # distinct items of one (model, task) need no check
            _check_neighbours(prev, run, sources)
        first = tasks.setdefault(task, run)
        if first is not run and (
            first.category != run.category or first.weight != run.weight
        ):
            raise _task_conflict(first, run, sources)
        prev, prev_model, prev_task, prev_item = run, model, task, item


def _check_neighbours(prev: EvalRun, run: EvalRun, sources: list[Source]) -> None:
    model, task = run.model_id, run.task_id
    if (prev.item_id is None) != (run.item_id is None):
        raise _refuse(
            sources,
            [
                lambda r: r.model_id == model and r.task_id == task and r.item_id is None,
                lambda r: (
                    r.model_id == model and r.task_id == task and r.item_id is not None
                ),
            ],
            f"{_where(prev)} has a task-level record (no item_id) here and item-level "
            "records elsewhere",
            field="item_id",
            fix="give every record of a (model, task) an item_id, or none of them",
        )
    if prev.item_id != run.item_id:
        return
    if prev.sample == run.sample:
        same = _same_record(run)
        found = _find(sources, [same, same])
        two_files = (
            found[0] is not None
            and found[1] is not None
            and found[0][0].path != found[1][0].path
        )
        raise _refuse(
            sources,
            [same, same],
            f"duplicate record for {_where(run)}",
            field=None,
            fix=TWO_RUNS_FIX if two_files else KEEP_ONE,
            found=found,
        )
    if prev.sample is None:
        item = run.item_id
        raise _refuse(
            sources,
            [
                lambda r: (
                    (r.model_id, r.task_id, r.item_id) == (model, task, item)
                    and r.sample is None
                ),
                lambda r: (
                    (r.model_id, r.task_id, r.item_id) == (model, task, item)
                    and r.sample is not None
                ),
            ],
            f"{_where(prev)} has a record without `sample` here and numbered samples "
            "elsewhere",
            field="sample",
            fix="number every sample of an item, or give the item one record",
        )


def _task_conflict(first: EvalRun, run: EvalRun, sources: list[Source]) -> InputError:
    field = "category" if first.category != run.category else "weight"
    task, a, b = run.task_id, getattr(first, field), getattr(run, field)
    return _refuse(
        sources,
        [
            lambda r: r.task_id == task and getattr(r, field) == a,
            lambda r: r.task_id == task and getattr(r, field) == b,
        ],
        f"task {task!r} has {field} {a!r} here and {b!r} elsewhere",
        field=field,
        fix=f"give every record of a task the same {field}",
    )
