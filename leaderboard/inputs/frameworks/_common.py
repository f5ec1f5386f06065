"""Helpers shared by the framework readers."""

from __future__ import annotations

import contextlib
import gzip
import json
import lzma
import math
import struct
import zipfile
import zlib
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from leaderboard.errors import InputError
from leaderboard.inputs import fast_json, reading
from leaderboard.inputs.reading import parse_document, too_big
from leaderboard.inputs.records import (
    DEFAULT_CATEGORY,
    MAX_INTEGER,
    EvalRun,
    answer_line,
    finite_number,
    keeps_texts,
    kept_text,
    new_run,
)

__all__ = ["MAX_INTEGER", "finite_number"]  # the one numeric check, for the readers

GZIP_MAGIC = b"\x1f\x8b"
ZIP_MAGIC = b"PK\x03\x04"


class FormatWarning(UserWarning):
    """A framework log was read, but something in it was changed or left out.

    Raised through `warnings.warn`: a metric rescaled from 0-100 to [0, 1], or a
    metric the leaderboard cannot rank (lower-is-better, corpus-level) left out.
    """


class DefaultChoice(FormatWarning):
    """A choice the reader's default made (which of a file's scores is the score).

    Not a problem with the file: ``load_runs_noting`` says it once in the log (the
    logger ``leaderboard.inputs``, INFO), files with the same choice together, and
    keeps it out of the report's warnings (and so out of the comment).
    """

    def __init__(self, file: str, text: str) -> None:
        super().__init__(f"{file}: {text}")
        self.file = file
        self.text = text


def counted(n: int, word: str) -> str:
    """``1 instance``, ``2 instances``: `n` and `word`, plural unless `n` is 1."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def short(value: object, limit: int = 60) -> str:
    """``repr(value)`` cut to `limit` characters, on one line."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


# Levels of lists and message objects `text_of` looks into for a text.
_TEXT_DEPTH = 4


def text_of(value: object, depth: int = _TEXT_DEPTH) -> str | None:
    """An input's or answer's text as one short line (`records.answer_line`), from
    what a framework writes: a string, a list (its first entry with text: chat
    messages, a list of responses) or a message object (``content``, ``text``, or a
    choice's ``message``).
    None when it holds no text, or when the readers keep no texts
    (`records.keeping_texts`); only the kept line outlives the call.
    """
    if isinstance(value, str):
        return kept_text(value)
    if depth == 0 or not keeps_texts():
        return None
    if isinstance(value, list):
        for entry in value[: _TEXT_DEPTH * 4]:
            found = text_of(entry, depth - 1)
            if found:
                return found
        return None
    if isinstance(value, dict):
        for key in ("content", "text", "message"):
            found = text_of(value.get(key), depth - 1)
            if found is not None:
                return found
    return None


def vars_text(variables: object) -> str | None:
    """A test case's variables as one short line: the one variable's text, or
    ``name: text; name: text`` (each its own first line), as the file holds them."""
    if not isinstance(variables, dict) or not variables or not keeps_texts():
        return None
    texts = [(str(k), text_of(v)) for k, v in list(variables.items())[:16]]
    if len(texts) == 1:
        return texts[0][1]
    return answer_line("; ".join(f"{k}: {v}" for k, v in texts if v is not None))


def any_text(value: object) -> str | None:
    """`text_of` for a string or message; other JSON values (a structured answer)
    as their JSON text, one short line."""
    found = text_of(value)
    if found is not None or value is None or not keeps_texts():
        return found
    return answer_line(json.dumps(value, default=str)[:4096])


def read_bounded(path: Path, limit: int | None = None) -> bytes:
    """The bytes of `path`, un-gzipped, refused beyond `limit` (before or after).

    Every framework reader reads its files through here (or `read_member` for an
    archive's members), so none can be made to decompress a bomb whole.
    """
    shown = str(path)
    limit = reading.MAX_DOCUMENT if limit is None else limit
    with path.open("rb") as handle:
        raw = handle.read(limit + 1)
    if raw.startswith(GZIP_MAGIC):
        with gzip.open(path, "rb") as unzipped:
            raw = unzipped.read(limit + 1)
    if len(raw) > limit:
        raise too_big(shown, limit, "as one document")
    return raw


#: Members of one archive: an Inspect log holds one a sample and epoch, and five more.
MAX_MEMBERS = 100_000
#: Largest ratio of a member's size to its compressed size, for members over 1 MiB
#: (deflate tops out near 1,030; real logs compress 5 to 50 times).
MAX_RATIO = 1_000
#: Compression methods an archive's members may use: stored, deflate, bzip2, LZMA and
#: Zstandard (what `zipfile` and `backports.zstd` read); anything else is refused.
ARCHIVE_METHODS = frozenset({0, 8, 12, 14, 93})
_ENCRYPTED = 0x1 | 0x40  # general-purpose flags: encrypted, strong encryption
_EOCD = b"PK\x05\x06"
_EOCD64_LOCATOR = b"PK\x06\x07"
_CENTRAL = b"PK\x01\x02"


def _archive_error(shown: str, problem: str, fix: str) -> InputError:
    return InputError(problem, file=shown, fix=fix)


def _central_directory(path: Path) -> tuple[int, int, int] | None:
    """(members declared, central directory bytes, its first byte) from the end record.

    Read from the end of the file before `zipfile` parses the directory, so an
    archive of millions of members is refused without listing them. None: no end
    record found (zipfile then says what is wrong with the file).
    """
    try:
        with path.open("rb") as handle:
            size = handle.seek(0, 2)
            tail_size = min(size, 22 + 65535)
            handle.seek(size - tail_size)
            tail = handle.read(tail_size)
            at = tail.rfind(_EOCD)
            if at < 0 or len(tail) - at < 22:
                return None
            end = size - tail_size + at  # where the end record starts
            *_, entries, cd_size, _offset, _comment = struct.unpack(
                "<4s4H2LH", tail[at : at + 22]
            )
            if entries != 0xFFFF and cd_size != 0xFFFFFFFF:
                return int(entries), int(cd_size), end - int(cd_size)
            loc = at - 20
            if loc < 0 or tail[loc : loc + 4] != _EOCD64_LOCATOR:
                return None
            (offset,) = struct.unpack("<Q", tail[loc + 8 : loc + 16])
            handle.seek(offset)
            record = handle.read(56)
            if len(record) < 56 or not record.startswith(b"PK\x06\x06"):
                return None
            fields = struct.unpack("<4sQ2H2L4Q", record)
            # zipfile places the directory just before the zip64 end record
            return int(fields[7]), int(fields[8]), end - 20 - 56 - int(fields[8])
    except (OSError, struct.error, OverflowError, ValueError):
        return None


def _count_members(path: Path, start: int, cd_size: int) -> int:
    """Members the central directory holds, counted from their headers, stopping
    one past `MAX_MEMBERS` (zipfile parses every entry the directory's bytes hold,
    whatever count the end record declares)."""
    if start < 0:
        return 0
    with path.open("rb") as handle:
        handle.seek(start)
        directory = handle.read(cd_size)
    at = found = 0
    while found <= MAX_MEMBERS and directory.startswith(_CENTRAL, at):
        if at + 46 > len(directory):
            break
        name, extra, comment = struct.unpack_from("<3H", directory, at + 28)
        at += 46 + name + extra + comment
        found += 1
    return found


def check_archive_file(path: Path, shown: str) -> None:
    """Refuse, before `zipfile` reads the directory, an archive of too many members.

    Every opening of an archive goes through `open_archive`, which calls this first:
    the count the end record declares, the directory's size, and the headers the
    directory holds (counted without building anything, up to `MAX_MEMBERS` + 1).
    """
    declared = _central_directory(path)
    if declared is None:
        return  # zipfile says what is wrong with it
    entries, cd_size, start = declared
    if entries > MAX_MEMBERS:
        raise _too_many_members(shown, entries)
    if cd_size > MAX_MEMBERS * 1024:  # more than 1 KiB a member: more members than told
        raise _too_many_members(shown, entries, more=True)
    try:
        held = _count_members(path, start, cd_size)
    except (OSError, ValueError, struct.error):
        return  # zipfile says what is wrong with it
    if held > MAX_MEMBERS:
        raise _too_many_members(shown, held, more=True)


def _too_many_members(shown: str, entries: int, *, more: bool = False) -> InputError:
    problem = (
        f"holds more than {MAX_MEMBERS:,} members in its directory"
        if more
        else f"declares {entries:,} members"
    )
    return _archive_error(
        shown,
        f"{problem}; an archive may hold at most {MAX_MEMBERS:,}",
        "check that the file is the log the eval framework wrote",
    )


@contextlib.contextmanager
def open_archive(
    path: Path, shown: str, opener: Callable[[Path], zipfile.ZipFile] = zipfile.ZipFile
) -> Iterator[zipfile.ZipFile]:
    """An archive opened only after `check_archive_file`, and checked whole
    (`check_archive`) before the caller reads any member. The one way the readers
    open an archive (Inspect's sniffing, its retry matching, its reader)."""
    check_archive_file(path, shown)
    with opener(path) as archive:
        check_archive(archive, shown)
        yield archive


def check_archive(archive: zipfile.ZipFile, shown: str) -> None:
    """The archive policy, applied to the whole directory before any member is read.

    At most `MAX_MEMBERS` members and `MAX_DECOMPRESSED` bytes declared in all; each
    member unencrypted, compressed by one of `ARCHIVE_METHODS`, at most
    `MAX_DOCUMENT` bytes declared, and (over 1 MiB) at most `MAX_RATIO` times its
    compressed size. `read_member` then holds each member to its declared size.
    """
    infos = archive.infolist()
    if len(infos) > MAX_MEMBERS:
        raise _archive_error(
            shown,
            f"holds {len(infos):,} members; an archive may hold at most {MAX_MEMBERS:,}",
            "check that the file is the log the eval framework wrote",
        )
    total = sum(info.file_size for info in infos)
    if total > reading.MAX_DECOMPRESSED:
        raise too_big(
            shown, reading.MAX_DECOMPRESSED, "in its members (their declared sizes)"
        )
    for info in infos:
        where = f"member {reading.printable(info.filename)}"
        if info.flag_bits & _ENCRYPTED:
            raise _archive_error(
                shown,
                f"{where} is encrypted",
                "give the log as the eval framework wrote it, without a password",
            )
        if info.compress_type not in ARCHIVE_METHODS:
            raise _archive_error(
                shown,
                f"{where} uses compression method {info.compress_type}, not one of "
                "stored, deflate, bzip2, LZMA or Zstandard",
                "give the log as the eval framework wrote it",
            )
        if info.file_size > reading.MAX_DOCUMENT:
            raise too_big(f"{shown}: {where}", reading.MAX_DOCUMENT, "(its declared size)")
        if info.file_size > 2**20 and info.file_size > MAX_RATIO * max(
            1, info.compress_size
        ):
            raise _archive_error(
                shown,
                f"{where} expands {info.file_size // max(1, info.compress_size):,} "
                f"times, more than the {MAX_RATIO:,} a log can (a decompression bomb)",
                "give the log as the eval framework wrote it",
            )


def read_member(archive: zipfile.ZipFile, name: str, shown: str) -> bytes:
    """One member of a zip archive (checked by `check_archive`), read to its size.

    The read stops one byte past the declared size (and `MAX_DOCUMENT`), whatever
    the member holds; a damaged member (a bad CRC, corrupt LZMA or deflate data) is
    an `InputError` naming it.
    """
    info = archive.getinfo(name)
    limit = min(reading.MAX_DOCUMENT, info.file_size)
    where = f"member {reading.printable(name)}"
    if info.file_size > reading.MAX_DOCUMENT:
        raise too_big(f"{shown}: {where}", reading.MAX_DOCUMENT, "(its declared size)")
    try:
        with archive.open(info) as member:
            data = member.read(limit + 1)
    except NotImplementedError:
        raise InputError(
            f"{where} uses a compression this Python cannot read",
            file=shown,
            fix="pip install backports.zstd (Python < 3.14 lacks Zstandard)",
        ) from None
    except RuntimeError as exc:  # zipfile: encrypted, or a password is needed
        raise InputError(
            f"{where} cannot be read ({short(str(exc), 80)})",
            file=shown,
            fix="give the log as the eval framework wrote it, without a password",
        ) from None
    except (OSError, EOFError, zlib.error, lzma.LZMAError, zipfile.BadZipFile) as exc:
        raise InputError(
            f"{where} is damaged ({exc.__class__.__name__}: {short(str(exc), 80)})",
            file=shown,
            fix="check that the log was copied whole",
        ) from None
    if len(data) > limit:
        raise too_big(f"{shown}: {where}", limit)
    return data


def load_json(path: Path) -> Any:
    """Parse the whole file at `path` (optionally gzipped) as one JSON document."""
    try:
        return parse_document(read_bounded(path), str(path))
    except (OSError, EOFError, zlib.error) as exc:
        raise InputError(
            f"cannot be read: {exc.__class__.__name__}: {exc}",
            file=str(path),
            fix="check that the file exists and is complete",
        ) from None
    except ValueError as exc:
        raise InputError(
            f"is not valid JSON ({short(str(exc), 80)})",
            file=str(path),
            fix="check that the framework finished writing it",
        ) from None


def read_head(path: Path, size: int) -> bytes:
    """The first `size` bytes of `path`, un-gzipped."""
    try:
        with path.open("rb") as handle:
            head = handle.read(size)
            if not head.startswith(GZIP_MAGIC):
                return head
        with gzip.open(path, "rb") as unzipped:
            return unzipped.read(size)
    except (OSError, EOFError, zlib.error) as exc:
        raise InputError(
            f"cannot be read: {exc.__class__.__name__}: {short(str(exc), 80)}",
            file=str(path),
            fix="check that the file exists and is complete",
        ) from None


def json_lines(path: Path) -> Iterator[tuple[int, Any]]:
    """(line number, value) of each non-blank line of a JSON Lines file (or gzipped).

    Read a line at a time (`reading.iter_lines`: `MAX_LINES` lines, `MAX_DECOMPRESSED`
    bytes after gunzip), so the memory held does not grow with the file; each line is
    parsed within the budget of a whole document (`reading.parse_document`: at most
    `MAX_DOCUMENT` bytes, and no more containers or values than a document may).
    """
    shown = str(path)
    number = seen = 0
    fast = fast_json.in_use()
    try:
        handle = reading.open_binary(path, shown)
        with handle:
            for number, raw in reading.iter_lines(handle, shown, reading.MAX_DOCUMENT):
                if not fast:  # msgspec once the file's lines add up to its crossover
                    seen += len(raw)
                    fast = fast_json.use_for(seen)
                if raw.isspace():
                    continue
                try:
                    if len(raw) > reading.LONG_LINE:  # shorter: too short to matter
                        yield number, parse_document(raw, shown, "line", number)
                    else:
                        yield number, reading.parse_line(raw, shown, number)
                except ValueError:
                    raise InputError(
                        "is not valid JSON (or not UTF-8)",
                        file=shown,
                        line=number,
                        fix="check the file is whole",
                    ) from None
    except (OSError, EOFError, zlib.error) as exc:
        raise InputError(
            f"cannot be read: {exc.__class__.__name__}: {short(str(exc), 80)}",
            file=shown,
            line=number + 1 if number else None,
            fix="check that the file exists and is complete",
        ) from None


class RunList(list[EvalRun]):
    """A reader's records, refused as soon as one more than `limit` is added.

    The framework readers build their records into one of these, so a file of
    millions of scores (a LiveCodeBench ``graded_list`` of 15 million entries) stops
    at the run's cap (`ReadOptions.limit`) as it is read, not after.
    """

    __slots__ = ("limit", "shown")

    def __init__(self, shown: str, limit: int) -> None:
        super().__init__()
        self.shown, self.limit = shown, limit

    def append(self, run: EvalRun) -> None:
        if len(self) >= self.limit:
            raise reading.too_many_records(self.shown)
        super().append(run)

    def extend(self, runs: Iterable[EvalRun]) -> None:
        for run in runs:
            self.append(run)


def check_room(count: int, limit: int, shown: str) -> None:
    """Refuse a file whose `count` scores would bring the run past its cap, before
    any record is built (`limit`: `ReadOptions.limit`, the records still allowed)."""
    if count > limit:
        raise reading.too_many_records(shown)


def count(value: object) -> int | None:
    """`value` when it is a positive integer (never a boolean) within `MAX_INTEGER`."""
    if type(value) is int and 0 < value <= MAX_INTEGER:
        return value
    return None


def unit_number(value: object) -> float | None:
    """`value` as a float when it is a boolean or a number in [0, 1] (`finite_number`)."""
    found = finite_number(value)
    return found if found is not None and 0 <= found <= 1 else None


def item_run(
    model: str,
    task: str,
    metric: str,
    item: str,
    score: float,
    *,
    category: str = DEFAULT_CATEGORY,
    sample: int | None = None,
    **measures: Any,
) -> EvalRun:
    """One item-level record as the framework readers build them.

    Parameters
    ----------
    model, task, metric, item : str
        ``model_id``, ``task_id``, ``metric_name`` and ``item_id``.
    score : float
        The item's score in [0, 1].
    category : str, optional
        The task's category (default ``general``).
    sample : int, optional
        The repeat's number when the file scores an item more than once; else None.
    **measures
        ``cost``, ``latency``, ``tokens`` where the file gives them, and ``metrics``
        (the secondary metrics).
    """
    return new_run(  # EvalRun(...), checked the same, at less cost
        model, task, score, metric, category, 1.0, item, None, sample, **measures
    )


def errored_run(
    model: str,
    task: str,
    metric: str | None,
    item: str | int,
    error: str,
    *,
    category: str = DEFAULT_CATEGORY,
    sample: int | None = None,
) -> EvalRun:
    """One errored unit as the framework readers build them: attempted, not scored
    (``error`` says what went wrong; CONTRACT.md section 13)."""
    return EvalRun(
        model_id=model,
        task_id=task,
        score=math.nan,
        metric_name=metric,
        category=category,
        item_id=item,
        sample=sample,
        error=error,
    )
