"""Helpers shared by the framework readers."""

from __future__ import annotations

import gzip
import math
import zipfile
import zlib
from pathlib import Path
from typing import Any

from leaderboard.errors import InputError
from leaderboard.inputs import reading
from leaderboard.inputs.reading import parse_document, too_big

GZIP_MAGIC = b"\x1f\x8b"


class FormatWarning(UserWarning):
    """A framework log was read, but something in it was changed or left out.

    Raised through `warnings.warn`: a metric rescaled from 0-100 to [0, 1], or a
    metric the leaderboard cannot rank (lower-is-better, corpus-level) left out.
    """


def short(value: object, limit: int = 60) -> str:
    """``repr(value)`` cut to `limit` characters, on one line."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


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


def read_member(archive: zipfile.ZipFile, name: str, shown: str) -> bytes:
    """One member of a zip archive, refused when it declares or holds too much.

    The declared size is checked before anything is decompressed; the read itself
    stops one byte past the limit, whatever the member holds.
    """
    info = archive.getinfo(name)
    limit = reading.MAX_DOCUMENT
    if info.file_size > limit:
        raise too_big(f"{shown}: member {name}", limit, "(its declared size)")
    with archive.open(info) as member:
        data = member.read(limit + 1)
    if len(data) > limit:
        raise too_big(f"{shown}: member {name}", limit)
    return data


def check_archive(archive: zipfile.ZipFile, shown: str) -> None:
    """Refuse an archive whose members declare more than `MAX_DECOMPRESSED` in all."""
    total = sum(info.file_size for info in archive.infolist())
    if total > reading.MAX_DECOMPRESSED:
        raise too_big(
            shown, reading.MAX_DECOMPRESSED, "in its members (their declared sizes)"
        )


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


def text_lines(path: Path) -> list[str]:
    """The lines of the text file at `path` (optionally gzipped)."""
    try:
        return read_bounded(path).decode("utf-8-sig").splitlines()
    except (OSError, EOFError, zlib.error, UnicodeDecodeError) as exc:
        raise InputError(
            f"cannot be read: {exc.__class__.__name__}: {short(str(exc), 80)}",
            file=str(path),
            fix="check that the file exists, is complete and is UTF-8",
        ) from None


def unit_number(value: object) -> float | None:
    """`value` as a float when it is a boolean or a finite number in [0, 1], else None."""
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float)) and math.isfinite(value) and 0 <= value <= 1:
        return float(value)
    return None
