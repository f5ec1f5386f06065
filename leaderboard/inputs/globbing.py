"""Expanding the globs of the input paths, safely for untrusted trees.

`glob.glob` follows symbolic links to folders while matching ``**`` (two links
``a -> .`` and ``b -> .`` make ``out/**/*.jsonl`` run for hours) and skips folders
whose names start with a dot (lm-eval writes ``pretrained=../x`` as a folder
``..__x``). `expand_glob` walks the tree itself:

- ``*``, ``?``, ``[...]`` and ``**`` match names starting with a dot too, except
  ``.git`` (a checkout's own database, never eval results) unless a pattern names it;
- a link to a folder is never entered by a wildcard (it is listed in
  `Matches.skipped_links`); a link to a file matches like a file;
- at most `MAX_MATCHES` files match and at most `MAX_SCANNED` folder entries are
  looked at, so a huge tree fails fast with a message instead of running on.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import glob
import os
import re
from collections.abc import Iterator

from leaderboard.errors import InputError

#: Most files one pattern may match.
MAX_MATCHES = 10_000
#: Most folder entries one pattern may look at.
MAX_SCANNED = 1_000_000
_SKIPPED = frozenset({".git"})


@dataclasses.dataclass
class Matches:
    """The files a pattern matched (sorted), and what the walk left out."""

    files: list[str] = dataclasses.field(default_factory=list)
    skipped_links: list[str] = dataclasses.field(default_factory=list)
    scanned: int = 0


def _parts(pattern: str) -> tuple[str, list[str]]:
    """The literal folder a pattern starts from, and its remaining segments."""
    drive, rest = os.path.splitdrive(pattern)
    segments = rest.replace(os.sep, "/").split("/")
    base = drive + ("/" if rest.startswith(("/", os.sep)) else "")
    if base.endswith("/") or drive:
        segments = segments[1:] if segments and segments[0] == "" else segments
    literal: list[str] = []
    while segments and not glob.has_magic(segments[0]) and len(segments) > 1:
        literal.append(segments.pop(0))
    start = base + "/".join(literal) if literal else (base or "")
    return start, [s for s in segments if s != ""] or [""]


def expand_glob(pattern: str) -> Matches:
    """Expand `pattern` (with ``**`` for any number of folders), never following links
    to folders.

    Raises
    ------
    InputError
        The pattern matches more than `MAX_MATCHES` files, or the walk looks at more
        than `MAX_SCANNED` entries.
    """
    start, segments = _parts(pattern)
    found = Matches()
    seen: set[str] = set()
    for path in _walk(start, segments, found, pattern):
        if path not in seen:
            seen.add(path)
            found.files.append(path)
            if len(found.files) > MAX_MATCHES:
                raise InputError(
                    f"matches more than {MAX_MATCHES:,} files",
                    file=pattern,
                    fix="narrow the pattern, or combine the files into fewer larger ones",
                )
    found.files.sort()
    found.skipped_links = sorted(set(found.skipped_links))
    return found


def _join(folder: str, name: str) -> str:
    if folder == "":
        return name
    return folder + name if folder.endswith("/") else f"{folder}/{name}"


def _entries(folder: str, found: Matches, pattern: str) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(folder or ".") as listing:
            entries = list(listing)
    except OSError:
        return []
    found.scanned += len(entries)
    if found.scanned > MAX_SCANNED:
        raise InputError(
            f"makes the search look at more than {MAX_SCANNED:,} files and folders",
            file=pattern,
            fix="start the pattern in the folder that holds the results "
            "(e.g. out/**/*.json rather than **/*.json)",
        )
    return entries


def _is_dir(entry: os.DirEntry[str], found: Matches, path: str) -> bool:
    try:
        if entry.is_dir(follow_symlinks=False):
            return True
        if entry.is_symlink() and entry.is_dir():
            found.skipped_links.append(path)
    except OSError:
        pass
    return False


def _is_file(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_file()
    except OSError:
        return False


def _matcher(segment: str) -> re.Pattern[str]:
    return re.compile(fnmatch.translate(segment), re.DOTALL)


def _walk(folder: str, segments: list[str], found: Matches, pattern: str) -> Iterator[str]:
    """The files under `folder` matching `segments`, walked with a stack of its own.

    No recursion: a tree thousands of folders deep under ``**`` is walked (within
    `MAX_SCANNED`) without ever reaching Python's recursion limit.
    """
    stack: list[tuple[str, tuple[str, ...]]] = [(folder, tuple(segments))]
    while stack:
        here, parts = stack.pop()
        segment, rest = parts[0], parts[1:]
        if segment == "**":
            # Zero folders, then each folder below (not through links) with ** again.
            below = [
                (_join(here, entry.name), parts)
                for entry in _entries(here, found, pattern)
                if entry.name not in _SKIPPED
                and _is_dir(entry, found, _join(here, entry.name))
            ]
            stack.extend(reversed(below))
            stack.append((here, rest or ("*",)))
            continue
        if not glob.has_magic(segment):
            path = _join(here, segment)
            if not rest:
                if os.path.isfile(path):
                    yield path
            elif os.path.isdir(path):
                stack.append((path, rest))
            continue
        match = _matcher(segment).match
        deeper: list[tuple[str, tuple[str, ...]]] = []
        for entry in sorted(_entries(here, found, pattern), key=lambda e: e.name):
            if not match(entry.name) or (entry.name in _SKIPPED and segment != entry.name):
                continue
            path = _join(here, entry.name)
            if rest:
                if _is_dir(entry, found, path):
                    deeper.append((path, rest))
            elif _is_file(entry):
                yield path
        stack.extend(reversed(deeper))
