"""Inspect (``inspect_ai``) eval logs, read without ``inspect_ai``.

Two layouts, as Inspect writes them (log format version 2):

- ``.eval``: a zip archive with ``header.json`` (``version``, ``status``, ``eval``,
  ``plan``, ``results``, ``stats``, ...; written when the eval ends),
  ``_journal/start.json``, ``summaries.json`` (one summary per sample and epoch, with
  its ``scores``), ``samples/<id>_epoch_<n>.json`` (the full samples) and
  ``reductions.json``. Inspect >= 0.3.2xx compresses the members with Zstandard, which
  Python reads natively from 3.14 and through ``backports.zstd`` before that.
- ``.json``: one object with the same header fields plus ``samples``.

Each sample and epoch of a finished log gives one `EvalRun`: ``model_id`` from
``eval.model``, ``task_id`` from ``eval.task``, ``item_id`` the sample id, ``sample``
the epoch, and the score mapped to [0, 1] (see `score_value`). One score per task: a
log scored by several scorers keeps the first one (``results.scores`` order) unless the
user prefers another (`ReadOptions.metrics`); the other scorers' values that map to
[0, 1] are kept as the record's secondary ``metrics`` (for guardrails).

Measures (for guardrails): ``tokens`` is the sample's ``model_usage`` total tokens
summed over every model it called (a solver's, a grader's); ``latency`` its
``working_time`` in seconds (the time spent working, without waiting for rate limits
or a shared connection pool, so a busier CI runner does not read as a slower PR), else
``total_time``. Inspect records no cost per sample, so ``cost`` stays absent.
"""

from __future__ import annotations

import lzma
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from leaderboard.errors import InputError
from leaderboard.inputs.frameworks._common import (
    ZIP_MAGIC,
    RunList,
    errored_run,
    finite_number,
    load_json,
    open_archive,
    read_member,
    short,
    text_of,
    unit_number,
)
from leaderboard.inputs.frameworks.metrics import (
    Notes,
    ReadOptions,
    choose,
    matches,
    refuse_unmatched,
)
from leaderboard.inputs.reading import parse_document
from leaderboard.inputs.records import DEFAULT_CATEGORY, EvalRun

# Inspect's score letters and the values its own `value_to_float` gives them.
SCORE_LETTERS = {"C": 1.0, "I": 0.0, "P": 0.5, "N": 0.0}
_FIX_SCORE = "score it with `inspect score LOG` (it writes a scored log) and give that log"
_FIX_RERUN = (
    "let the eval finish, or complete it with `inspect eval-retry LOG`, and give the "
    "finished log: a partial run compares models on different samples"
)


def zip_has_log_members(path: Path) -> bool:
    """Whether the archive `path` lists an Inspect log's members (`sniffing.is_inspect`
    asks when the head does not show them). Never raises but for the archive policy."""
    opener, _ = _archive_support()
    try:
        with open_archive(path, str(path), opener) as archive:
            names = set(archive.namelist())
    except InputError:  # a .eval archive beyond the archive policy: refused as such
        raise
    except Exception:  # any other failure here means "not an Inspect log"
        return False
    return "header.json" in names or "_journal/start.json" in names


def read_inspect(path: Path, options: ReadOptions | None = None) -> list[EvalRun]:
    """Read one Inspect log (``.eval`` archive or ``.json``) into records.

    Parameters
    ----------
    path : pathlib.Path
        The log file.
    options : ReadOptions, optional
        Preferred scorers (`ReadOptions.metrics`).

    Returns
    -------
    list of EvalRun
        One record per sample and epoch, of the kept scorer.

    Raises
    ------
    InputError
        The log did not finish with status ``success``, has invalidated or unscored
        samples, or a score that does not map to [0, 1].
    """
    with path.open("rb") as handle:
        is_zip = handle.read(4) == ZIP_MAGIC
    if is_zip:
        header, samples = _read_eval_archive(path)
    else:
        log = load_json(path)
        if not isinstance(log, dict):
            raise InputError("is not an Inspect log object", file=str(path))
        header = log
        samples = log.get("samples")
        if samples is None:
            raise InputError(
                "holds no samples (the log was written without them)",
                file=str(path),
                field="samples",
                fix="run the eval with sample logging on (the default)",
            )
    return _runs(header, samples, str(path), options or ReadOptions())


def _archive_support() -> tuple[
    Callable[[Path], zipfile.ZipFile], tuple[type[Exception], ...]
]:
    """How to open an archive, and the errors a damaged one raises."""
    damaged: tuple[type[Exception], ...] = (
        OSError,
        EOFError,
        zlib.error,
        lzma.LZMAError,
        zipfile.BadZipFile,
    )
    try:  # Python < 3.14: a zipfile that reads Zstandard members
        from backports import zstd  # noqa: PLC0415
        from backports.zstd import zipfile as zstd_zipfile  # noqa: PLC0415
    except ImportError:  # Python >= 3.14 reads them itself
        return zipfile.ZipFile, damaged
    opener = cast(Callable[[Path], zipfile.ZipFile], zstd_zipfile.ZipFile)
    return opener, (*damaged, zstd_zipfile.BadZipFile, zstd.ZstdError)


def _member(archive: zipfile.ZipFile, name: str, shown: str) -> Any:
    data = read_member(archive, name, shown)
    try:
        return parse_document(data, shown, f"member {name}")
    except ValueError as exc:
        raise InputError(
            f"member {name} is not valid JSON ({short(str(exc), 80)})",
            file=shown,
            fix="check that the log was copied whole",
        ) from None


def _slim(sample: Any) -> Any:
    """What `_runs` reads of one sample: id, epoch, score values, error, usage, time."""
    if not isinstance(sample, dict):
        return sample
    slim = {
        key: sample[key]
        for key in ("id", "epoch", "working_time", "total_time")
        if key in sample
    }
    usage = sample.get("model_usage")
    if isinstance(usage, dict):
        slim["model_usage"] = {
            name: {"total_tokens": u.get("total_tokens")} if isinstance(u, dict) else u
            for name, u in usage.items()
        }
    slim["input"] = text_of(sample.get("input"))
    output = sample.get("output")
    if isinstance(output, dict):
        slim["output"] = {
            "completion": text_of(output.get("completion"))
            or text_of(output.get("choices"))
        }
    scores = sample.get("scores")
    if isinstance(scores, dict):
        slim["scores"] = {
            name: {key: _kept(key, entry.get(key)) for key in _SCORE_KEYS}
            if isinstance(entry, dict)
            else entry
            for name, entry in scores.items()
        }
    else:
        slim["scores"] = scores
    error = sample.get("error")
    if isinstance(error, dict):
        error = error.get("message")
    if error is not None:
        slim["error"] = error if not isinstance(error, str) else error[:200]
    return slim


# What `_slim` keeps of a scorer's entry: its value, and what it says it read.
_SCORE_KEYS = ("value", "answer", "explanation")


def _kept(key: str, value: object) -> object:
    return value if key == "value" else text_of(value)


def _texts(sample: dict[str, Any], entry: object) -> tuple[str | None, str | None]:
    """The sample's input and what the model answered, one short line each: the
    output's completion (older logs: its first choice's message), else the scorer's
    ``answer``, else its ``explanation`` (a log's summaries hold no output)."""
    output = sample.get("output")
    answer = None
    if isinstance(output, dict):
        answer = text_of(output.get("completion")) or text_of(output.get("choices"))
    if not answer and isinstance(entry, dict):
        answer = text_of(entry.get("answer")) or text_of(entry.get("explanation"))
    return text_of(sample.get("input")), answer


def _read_eval_archive(path: Path) -> tuple[Any, Any]:
    shown = str(path)
    opener, damaged = _archive_support()
    try:
        with open_archive(path, shown, opener) as archive:
            names = set(archive.namelist())
            if "header.json" not in names:
                raise InputError(
                    "has no header.json: the eval never finished (status 'started')",
                    file=shown,
                    fix=_FIX_RERUN,
                )
            header = _member(archive, "header.json", shown)
            if "summaries.json" in names:
                samples = _member(archive, "summaries.json", shown)
            else:  # one member at a time, only what is scored kept of each
                samples = [
                    _slim(_member(archive, name, shown))
                    for name in sorted(names)
                    if name.startswith("samples/") and name.endswith(".json")
                ]
    except damaged as exc:
        raise InputError(
            f"is not a readable .eval archive ({short(str(exc), 80)})",
            file=shown,
            fix="check that the log was copied whole",
        ) from None
    return header, samples


def score_value(value: object) -> float | None:
    """Map an Inspect score value to [0, 1], or None when it has no such meaning.

    ``C`` (correct) 1, ``P`` (partial) 0.5, ``I`` (incorrect) and ``N`` (no answer) 0,
    as Inspect's own ``value_to_float``; booleans 0/1; numbers already in [0, 1].
    """
    if isinstance(value, str):
        return SCORE_LETTERS.get(value)
    return unit_number(value)


def _text(container: Any, key: str, shown: str, where: str) -> str:
    value = container.get(key) if isinstance(container, dict) else None
    if not isinstance(value, str) or value == "":
        raise InputError(
            f"{where} has no {key} name",
            file=shown,
            field=f"{where}.{key}",
            fix="give an unmodified Inspect log",
        )
    return value


def _check_header(header: Any, shown: str) -> None:
    if not isinstance(header, dict):
        raise InputError("has no Inspect log header", file=shown)
    status = header.get("status")
    if status != "success":
        error = header.get("error")
        message = error.get("message") if isinstance(error, dict) else None
        reason = f" ({short(message, 80)})" if isinstance(message, str) else ""
        raise InputError(
            f"the eval ended with status {short(status)}, not 'success'{reason}",
            file=shown,
            field="status",
            fix=_FIX_RERUN,
        )
    if header.get("invalidated") is True:
        raise InputError(
            "some samples of this log were invalidated",
            file=shown,
            field="invalidated",
            fix="re-run them with `inspect eval-retry LOG` and give the new log",
        )


def _scorer_names(header: dict[str, Any], samples: list[Any]) -> list[str]:
    results = header.get("results")
    listed = results.get("scores") if isinstance(results, dict) else None
    names = [
        s["name"]
        for s in (listed if isinstance(listed, list) else [])
        if isinstance(s, dict) and isinstance(s.get("name"), str)
    ]
    first = samples[0].get("scores") if isinstance(samples[0], dict) else None
    seen = list(first) if isinstance(first, dict) else []
    ordered = [n for n in names if n in seen] + [n for n in seen if n not in names]
    return list(dict.fromkeys(ordered))


def _check_scored(header: dict[str, Any], samples: list[Any], shown: str) -> None:
    """Refuse a log that finished without scoring (``--no-score``), with the fix."""
    results = header.get("results")
    listed = results.get("scores") if isinstance(results, dict) else None
    if listed:
        return
    if any(isinstance(s, dict) and (s.get("scores") or s.get("error")) for s in samples):
        return
    raise InputError(
        "holds no scores: the eval ran without scoring (`--no-score`)",
        file=shown,
        field="results",
        fix=_FIX_SCORE,
    )


def _runs(header: Any, samples: Any, shown: str, options: ReadOptions) -> list[EvalRun]:
    _check_header(header, shown)
    model = _text(header.get("eval"), "model", shown, "eval")
    task = _text(header.get("eval"), "task", shown, "eval")
    metadata = header["eval"].get("metadata")
    category = metadata.get("category") if isinstance(metadata, dict) else None
    if not isinstance(category, str) or category == "":
        category = DEFAULT_CATEGORY
    if not isinstance(samples, list) or not samples:
        raise InputError(
            "holds no samples",
            file=shown,
            field="samples",
            fix="check that the eval ran on a non-empty dataset",
        )
    _check_scored(header, samples, shown)
    scorers = _scorer_names(header, samples)
    notes = Notes(shown)
    if scorers and options.metrics and not matches(scorers, options.metrics):
        raise _unmatched(header, scorers, options.metrics, shown)
    if scorers:
        kept = choose(scorers, options.metrics)
        for other in scorers:
            if other != kept:
                notes.add(Notes.OTHERS, f"{task} {other}")
        scorers = [kept]
    others = [s for s in _scorer_names(header, samples) if s not in scorers]
    runs = RunList(shown, options.limit)
    errored: list[str] = []
    for number, sample in enumerate(samples, 1):
        if _errored(sample):
            # The eval finished (status success, checked above) with errors tolerated
            # (`--fail-on-error 0.2`): an errored sample was attempted, not scored.
            item, epoch = _sample_place(sample, number, shown)
            errored.append(f"{item!r} epoch {epoch}")
            runs.append(
                errored_run(
                    model,
                    task,
                    scorers[0] if scorers else None,
                    item,
                    _error_text(sample.get("error")),
                    category=category,
                    sample=epoch,
                )
            )
            continue
        item, epoch, scores = _sample_parts(sample, number, shown)
        where = f"sample {item!r} epoch {epoch}"
        for scorer in scorers:
            if scorer not in scores:
                raise InputError(
                    f"{where} has no score from scorer `{scorer}`",
                    file=shown,
                    field=f"scores.{scorer}",
                    fix="score every sample with every scorer (`inspect score LOG`)",
                )
            entry = scores[scorer]
            said = _texts(sample, entry)
            value = entry.get("value") if isinstance(entry, dict) else None
            score = score_value(value)
            if score is None:
                raise InputError(
                    f"{where}: scorer `{scorer}` gave {short(value)}, which is not C, "
                    "I, P, N, a boolean or a number in [0, 1]",
                    file=shown,
                    field=f"scores.{scorer}.value",
                    fix="use a scorer whose value maps to [0, 1], or convert the "
                    "log to records with the score you mean",
                )
            runs.append(
                EvalRun(
                    model_id=model,
                    task_id=task,
                    score=score,
                    metric_name=scorer,
                    category=category,
                    item_id=item,
                    sample=epoch,
                    **_extras(sample, scores, others),
                    input=said[0],
                    output=said[1],
                )
            )
    _note_errored(errored, len(samples), runs, task=task, notes=notes, shown=shown)
    notes.warn()
    return runs


def _seconds(value: object) -> float | None:
    found = None if isinstance(value, bool) else finite_number(value)
    return found if found is not None and found >= 0 else None


def _extras(sample: dict[str, Any], scores: dict[str, Any], others: list[str]) -> Any:
    """The sample's tokens, latency (s) and its other scorers' values in [0, 1]."""
    usage = sample.get("model_usage")
    tokens: float | None = None
    if isinstance(usage, dict) and usage:
        counts = [
            _seconds(u.get("total_tokens")) for u in usage.values() if isinstance(u, dict)
        ]
        if counts and all(c is not None for c in counts):
            tokens = sum(c for c in counts if c is not None)
    latency = _seconds(sample.get("working_time"))
    if latency is None:
        latency = _seconds(sample.get("total_time"))
    metrics = []
    for name in others:
        entry = scores.get(name)
        value = score_value(entry.get("value")) if isinstance(entry, dict) else None
        if value is not None:
            metrics.append((name, value))
    return {"tokens": tokens, "latency": latency, "metrics": tuple(metrics)}


def _unmatched(
    header: dict[str, Any], scorers: list[str], preferred: tuple[str, ...], shown: str
) -> InputError:
    """Refuse `preferred` naming no scorer; a metric of Inspect's (``accuracy``) is
    told apart: the leaderboard reads each sample's score and makes its own mean."""
    results = header.get("results")
    listed = results.get("scores") if isinstance(results, dict) else None
    reported: dict[str, list[str]] = {}
    for entry in listed if isinstance(listed, list) else []:
        metrics = entry.get("metrics") if isinstance(entry, dict) else None
        for metric in metrics if isinstance(metrics, dict) else {}:
            reported.setdefault(str(metric), []).append(str(entry.get("name")))
    named = [p for p in preferred if p in reported]
    hint = ""
    if named:
        hint = (
            f" ({named[0]!r} is a metric Inspect computed over the scorer "
            f"{', '.join(reported[named[0]])}, not a scorer: the leaderboard reads each "
            "sample's score and takes its own mean, so name the scorer)"
        )
    return refuse_unmatched([f"scorer {s}" for s in scorers], preferred, shown, hint)


def _note_errored(
    errored: list[str],
    total: int,
    runs: list[EvalRun],
    *,
    task: str,
    notes: Notes,
    shown: str,
) -> None:
    """Count the errored samples in a note; refuse a log of nothing else."""
    if errored and len(errored) == len(runs):
        raise InputError(
            f"every sample errored ({len(errored)} of {total})",
            file=shown,
            field="samples",
            fix=_FIX_RERUN,
        )
    if errored:
        listed = ", ".join(errored[:3]) + (", ..." if len(errored) > 3 else "")
        notes.add(
            f"{len(errored)} of {total} samples of task {task} errored (Inspect "
            "finished the eval with errors tolerated, --fail-on-error): attempted, not "
            "scored; its mean covers the others, the score compares only the samples "
            "both runs scored, and the completion comparison counts these",
            listed,
        )


def _errored(sample: Any) -> bool:
    """A sample Inspect recorded as errored, with no score."""
    return (
        isinstance(sample, dict) and bool(sample.get("error")) and not sample.get("scores")
    )


class ArchiveRefused(Exception):
    """An archive that `open_archive` refused, carried past `log_identity`'s catch-all."""

    def __init__(self, error: InputError) -> None:
        super().__init__(str(error))
        self.error = error


def _archive_header(path: Path, shown: str) -> Any:
    """The header (or start journal) of an archive, opened only through `open_archive`;
    an archive beyond the policy raises `ArchiveRefused`."""
    opener, _ = _archive_support()
    try:
        with open_archive(path, shown, opener) as archive:
            names = set(archive.namelist())
            name = "header.json" if "header.json" in names else "_journal/start.json"
            try:
                return _member(archive, name, shown)
            except Exception:  # the reader says what is wrong with it
                return None
    except InputError as err:
        raise ArchiveRefused(err) from None


@dataclass(frozen=True, slots=True)
class LogIdentity:
    """What tells an ``inspect eval-retry`` log from another log (`log_identity`)."""

    task_id: str
    task: str | None
    model: str | None
    status: str
    created: str


def log_identity(path: Path) -> LogIdentity | None:
    """The identity in an Inspect log's header; None if it has none to read.

    Inspect's ``eval-retry`` writes a new log of the same ``eval.task_id``, task and
    model beside the errored one; `leaderboard.inputs.sources` keeps the retried log.
    An archive is opened only through `open_archive` (checked first): one beyond the
    archive policy raises its `InputError`, as its reader would; any other failure
    is None (the reader then says what is wrong).
    """
    shown = str(path)
    try:
        with path.open("rb") as handle:
            is_zip = handle.read(4) == ZIP_MAGIC
        header = _archive_header(path, shown) if is_zip else load_json(path)
    except ArchiveRefused as refused:  # exit 2 naming the file and the limit
        raise refused.error from None
    except Exception:  # the reader says what is wrong with the file
        return None
    ev = header.get("eval") if isinstance(header, dict) else None
    if not isinstance(ev, dict):
        return None
    task_id, created = ev.get("task_id"), ev.get("created")
    status = header.get("status", "started")
    task, model = ev.get("task"), ev.get("model")
    if isinstance(task_id, str) and isinstance(created, str) and isinstance(status, str):
        return LogIdentity(
            task_id,
            task if isinstance(task, str) else None,
            model if isinstance(model, str) else None,
            status,
            created,
        )
    return None


def _error_text(error: object) -> str:
    """An errored sample's message (Inspect's ``error.message``), or a stand-in."""
    if isinstance(error, dict):
        error = error.get("message")
    return error if isinstance(error, str) and error.strip() else "errored in Inspect"


def _sample_place(sample: Any, number: int, shown: str) -> tuple[str | int, int]:
    """A sample's id and epoch, checked (`_sample_parts` without its scores)."""
    if not isinstance(sample, dict):
        raise InputError(f"sample {number} is not an object", file=shown, record=number)
    item = sample.get("id")
    epoch = sample.get("epoch")
    if isinstance(item, bool) or not isinstance(item, (str, int)):
        raise InputError(
            f"sample {number} has no usable id: {short(item)}",
            file=shown,
            record=number,
            field="id",
        )
    if isinstance(epoch, bool) or not isinstance(epoch, int):
        raise InputError(
            f"sample {item!r} has no usable epoch: {short(epoch)}",
            file=shown,
            record=number,
            field="epoch",
        )
    return item, epoch


def _sample_parts(
    sample: Any, number: int, shown: str
) -> tuple[str | int, int, dict[str, Any]]:
    item, epoch = _sample_place(sample, number, shown)
    scores = sample.get("scores")
    if not isinstance(scores, dict) or not scores:
        error = sample.get("error")
        if isinstance(error, dict):
            error = error.get("message")
        reason = f" (error: {short(error, 80)})" if isinstance(error, str) else ""
        raise InputError(
            f"sample {item!r} epoch {epoch} has no scores{reason}",
            file=shown,
            record=number,
            field="scores",
            fix=_FIX_RERUN if reason else _FIX_SCORE,
        )
    return item, epoch, scores
