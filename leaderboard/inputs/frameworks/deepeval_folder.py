"""deepeval's ``.deepeval/`` folder read as the one run it holds.

``deepeval test run`` (4.x) leaves in ``.deepeval/``:

- ``.deepeval-cache.json``: its metric cache (``test_cases_lookup_map``), no run;
- ``.latest_test_run.json`` (``{"testRunData": <run>}``) and ``.latest_run_full.json``
  (the bare run): the same run written twice;
- ``.temp_test_run_data.json`` only while a run is in progress (deleted at its end);
- ``deepeval.db`` instead of ``.latest_run_full.json`` with ``DEEPEVAL_LOCAL_STORE=sqlite``
  (``.latest_test_run.json`` is still written beside it).

`own_files` applies that to the files a folder or glob expanded to: the cache is
left out; of the two latest files, one is read when they hold the same run (and the
link-only ``.latest_test_run.json`` of a run uploaded to Confident AI is left out
beside the full file); a temp file beside a finished run is left out; two different
runs in the two latest files are refused. `check_named` refuses the cache and the
SQLite store when named as files, with the fix. Each file left out is said once in
the log (INFO), never in the comment: it is how deepeval writes the folder.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from leaderboard.errors import InputError
from leaderboard.inputs.frameworks._common import load_json, read_head

__all__ = ["CACHE", "FULL", "LATEST", "check_named", "own_files"]

log = logging.getLogger("leaderboard.inputs")

CACHE = ".deepeval-cache.json"
LATEST = ".latest_test_run.json"
FULL = ".latest_run_full.json"
TEMP = frozenset({".temp_test_run_data.json", "temp_test_run_data.json"})
SQLITE_MAGIC = b"SQLite format 3\x00"
FIX_SQLITE = (
    "give .deepeval/.latest_test_run.json (deepeval writes it in sqlite mode too) or "
    "the .deepeval/ folder, or run deepeval without DEEPEVAL_LOCAL_STORE=sqlite (its "
    "default, json, also writes .deepeval/.latest_run_full.json)"
)


def _run_of(path: Path) -> Any:
    data = load_json(path)
    if isinstance(data, dict) and "testRunData" in data:
        return data["testRunData"]
    return data


def _link_only(data: Any) -> bool:
    return isinstance(data, dict) and "testRunLink" in data and "testRunData" not in data


def check_named(name: str, shown: str) -> None:
    """Refuse deepeval's cache or SQLite store given by name as a results file
    (`shown`: its name as the message says it).

    Raises
    ------
    InputError
        `name` is ``.deepeval-cache.json`` or an SQLite database.
    """
    base = os.path.basename(name)
    if base == CACHE:
        raise InputError(
            "is deepeval's metric cache, not a test run (it holds no pass or fail)",
            file=shown,
            fix=f"give the .deepeval/ folder, or .deepeval/{FULL} or "
            f".deepeval/{LATEST} beside it",
        )
    if not base.lower().endswith((".db", ".sqlite", ".sqlite3")):
        return
    try:
        head = read_head(Path(name), len(SQLITE_MAGIC))
    except (OSError, InputError):
        return  # the reader says why it cannot be read
    if head == SQLITE_MAGIC:
        raise InputError(
            "is an SQLite database (deepeval's DEEPEVAL_LOCAL_STORE=sqlite store, "
            "deepeval.db), which the leaderboard does not read",
            file=shown,
            fix=FIX_SQLITE,
        )


def own_files(files: Iterable[str], shown: Callable[[str], str] = str) -> list[str]:
    """`files` without deepeval's bookkeeping and without the same run twice
    (`shown`: a file's name as the log and messages say it).

    Raises
    ------
    InputError
        A folder's ``.latest_test_run.json`` and ``.latest_run_full.json`` hold two
        different runs (which one is meant cannot be told).
    """
    listed = list(files)
    by_folder: dict[str, dict[str, str]] = {}
    for f in listed:
        by_folder.setdefault(os.path.dirname(f), {})[os.path.basename(f)] = f
    dropped: set[str] = set()
    for names in by_folder.values():
        if CACHE in names:
            dropped.add(names[CACHE])
            log.info("left out %s: deepeval's metric cache, not a run", shown(names[CACHE]))
        finished = [names[n] for n in (FULL, LATEST) if n in names]
        if finished:
            for temp in TEMP & names.keys():
                dropped.add(names[temp])
                log.info(
                    "left out %s: the file of a deepeval run in progress (deepeval "
                    "deletes it when a run finishes); %s is read",
                    shown(names[temp]),
                    shown(finished[0]),
                )
        if FULL in names and LATEST in names:
            dropped.add(_one_of(names[FULL], names[LATEST], shown))
    return [f for f in listed if f not in dropped]


def _one_of(full: str, latest: str, shown: Callable[[str], str]) -> str:
    """The one of the two latest files left out (they hold the same run)."""
    latest_run = _run_of(Path(latest))
    if _link_only(latest_run):
        log.info(
            "left out %s: a link to the run on Confident AI; %s holds its scores",
            shown(latest),
            shown(full),
        )
        return latest
    if _run_of(Path(full)) != latest_run:
        raise InputError(
            f"and {shown(full)} hold two different deepeval runs (deepeval writes the "
            "same run to both; one is left from an earlier run)",
            file=shown(latest),
            fix="give the one file you mean, or run deepeval again so that both hold "
            "the latest run",
        )
    log.info(
        "left out %s: the same run as %s (deepeval writes both)", shown(latest), shown(full)
    )
    return latest
