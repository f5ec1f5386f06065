"""Helpers shared by the framework readers."""

from __future__ import annotations

import gzip
import json
import math
import zlib
from pathlib import Path
from typing import Any

from leaderboard.errors import InputError

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


def load_json(path: Path) -> Any:
    """Parse the whole file at `path` (optionally gzipped) as one JSON document."""
    try:
        raw = path.read_bytes()
        if raw.startswith(GZIP_MAGIC):
            raw = gzip.decompress(raw)
        return json.loads(raw)
    except (OSError, EOFError, zlib.error) as exc:
        raise InputError(
            f"cannot be read: {exc.__class__.__name__}: {exc}",
            file=str(path),
            fix="check that the file exists and is complete",
        ) from None
    except (ValueError, RecursionError) as exc:
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
        raw = path.read_bytes()
        if raw.startswith(GZIP_MAGIC):
            raw = gzip.decompress(raw)
        return raw.decode("utf-8-sig").splitlines()
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
