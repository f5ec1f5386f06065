"""The kept history: the default branch's runs, stored on a branch of the repository.

A push to the default branch stores its run (the records, normalised and gzipped, and
the JSON report) under the commit it was made for; a pull request reads the run of its
base commit, or of the nearest stored first-parent ancestor, and is gated against it.
Everything goes through the Git Data API (`leaderboard.action.history.gitdata`): no
checkout, no git in the image, no credentials on disk.

The branch holds one folder per ``comment-header`` (two leaderboards in one repository
keep separate runs)::

    README.md                                  what the branch is (written once)
    <header>/index.json                        the runs kept, oldest first
    <header>/runs/<commit>/records.jsonl.gz    the records, one JSON object a line
    <header>/runs/<commit>/report.json         the JSON report of that run

Each entry of ``index.json`` names the commit, its parents, the branch, when it was
stored, the sizes, and each model's mean and interval (what the drift table of the
default branch's job summary reads, without opening any run).

Concurrency: a store builds its commit on the head it read and moves the branch
without ``force``; when another run moved the head meanwhile GitHub answers 422 "Update
is not a fast forward" and the store starts again from the new head (at most
`STORE_ATTEMPTS` times). Both runs land. A store of a commit already stored replaces
it; runs beyond ``keep`` are removed in the same commit (their bytes stay in the
branch's git history, which is what makes the race safe without ``force``).
"""

from __future__ import annotations

import gzip
import json
import math
import random
import re
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from leaderboard.action.history.gitdata import BlobTooLarge, GitData, GitDataError
from leaderboard.action.names import slug
from leaderboard.errors import LeaderboardError
from leaderboard.inputs import MEASURES, EvalRun, load_runs, parse_json

__all__ = [
    "MAX_RUN_BYTES",
    "STORE_ATTEMPTS",
    "WALK_LIMIT",
    "Found",
    "History",
    "HistoryUnreadable",
    "IndexRead",
    "RunTooLarge",
    "Stored",
    "StoredRun",
    "encode_records",
    "folder_for",
    "parse_index",
]

#: Largest run stored (gzipped records plus report). Every stored byte stays in the
#: branch's git history even after its run is pruned: at this cap 50 pushes add at
#: most 400 MiB, under GitHub's advice to keep a repository below 1 GB; a typical run
#: (thousands of item records) takes tens of kilobytes.
MAX_RUN_BYTES = 8 * 2**20
#: First-parent commits walked back from a pull request's base commit.
WALK_LIMIT = 50
#: Tries of one store when racing pushes keep moving the branch.
STORE_ATTEMPTS = 6
INDEX_FORMAT = 1
_README = (
    "# Kept runs of leaderboard-action\n\n"
    "Written by the `history-branch` input of leaderboard-action: one folder per\n"
    "`comment-header`, each with `index.json` and `runs/<commit>/` (the run's records\n"
    "and JSON report). Pull requests are gated against these runs. Safe to delete: the\n"
    "next push to the default branch starts it again.\n"
)


class RunTooLarge(Exception):
    """The run is over `MAX_RUN_BYTES`: it is not stored (the message says its size)."""


class HistoryUnreadable(Exception):
    """The history exists but a stored run or the index could not be read."""


@dataclass(frozen=True)
class StoredRun:
    """One entry of ``index.json``."""

    commit: str
    parents: list[str]
    branch: str | None
    stored_at: str
    records: int
    records_bytes: int
    report_bytes: int
    models: dict[str, list[float]] = field(default_factory=dict)  # id -> mean, lo, hi

    def to_json(self) -> dict[str, Any]:
        return {
            "commit": self.commit,
            "parents": self.parents,
            "branch": self.branch,
            "stored_at": self.stored_at,
            "records": self.records,
            "records_bytes": self.records_bytes,
            "report_bytes": self.report_bytes,
            "models": self.models,
        }

    @classmethod
    def from_json(cls, data: object) -> StoredRun:
        """One entry of the index, checked against `ENTRY_SCHEMA`.

        Raises
        ------
        HistoryUnreadable
            The entry breaks the schema (the message names the first field that does).
        """
        problem = entry_problem(data)
        if problem is not None:
            raise HistoryUnreadable(f"index.json: an entry {problem}")
        assert isinstance(data, dict)
        return cls(
            commit=data["commit"],
            parents=list(data["parents"]),
            branch=data["branch"],
            stored_at=data["stored_at"],
            records=data["records"],
            records_bytes=data["records_bytes"],
            report_bytes=data["report_bytes"],
            models={k: [float(x) for x in v] for k, v in data["models"].items()},
        )


#: The schema of one entry of ``index.json`` (`entry_problem` checks it): field ->
#: what it must be. Anything else in an entry is ignored; an entry that breaks it is
#: left out of the index (and its run kept, see `History._commit`).
ENTRY_SCHEMA = {
    "commit": "40 lowercase hex digits",
    "parents": f"a list of at most {16} commits (40 hex digits)",
    "branch": f"null or a string of at most {255} characters",
    "stored_at": "a string of at most 40 characters",
    "records": "an integer from 0 to 2**53",
    "records_bytes": "an integer from 0 to 2**53",
    "report_bytes": "an integer from 0 to 2**53",
    "models": "an object of at most 1,000 model ids -> [mean, lo, hi], finite numbers",
}
#: Largest index read (a full index of 50 runs of 500 models is ~3 MB).
MAX_INDEX_BYTES = 16 * 2**20
_MAX_PARENTS = 16
_MAX_MODELS = 1000
_MAX_COUNT = 2**53


def _count_ok(value: object) -> bool:
    return type(value) is int and 0 <= value <= _MAX_COUNT


def _finite(value: object) -> bool:
    if type(value) is int:
        return -_MAX_COUNT <= value <= _MAX_COUNT
    return type(value) is float and math.isfinite(value)


def entry_problem(data: object) -> str | None:  # noqa: PLR0911 - one return per field
    """What breaks `ENTRY_SCHEMA` in one index entry, or None when nothing does."""
    if not isinstance(data, dict):
        return "is not an object"
    if not _is_sha(data.get("commit")):
        return f"has no commit ({ENTRY_SCHEMA['commit']})"
    parents = data.get("parents")
    if (
        not isinstance(parents, list)
        or len(parents) > _MAX_PARENTS
        or not all(_is_sha(p) for p in parents)
    ):
        return f"of {data['commit'][:7]}: parents must be {ENTRY_SCHEMA['parents']}"
    branch = data.get("branch")
    if branch is not None and not (isinstance(branch, str) and len(branch) <= 255):
        return f"of {data['commit'][:7]}: branch must be {ENTRY_SCHEMA['branch']}"
    stored_at = data.get("stored_at")
    if not (isinstance(stored_at, str) and len(stored_at) <= 40):
        return f"of {data['commit'][:7]}: stored_at must be {ENTRY_SCHEMA['stored_at']}"
    for name in ("records", "records_bytes", "report_bytes"):
        if not _count_ok(data.get(name)):
            return f"of {data['commit'][:7]}: {name} must be {ENTRY_SCHEMA[name]}"
    models = data.get("models")
    if (
        not isinstance(models, dict)
        or len(models) > _MAX_MODELS
        or not all(
            isinstance(v, list) and len(v) == 3 and all(_finite(x) for x in v)
            for v in models.values()
        )
    ):
        return f"of {data['commit'][:7]}: models must be {ENTRY_SCHEMA['models']}"
    return None


@dataclass(frozen=True)
class IndexRead:
    """The index as read: its valid entries, and what was wrong with the rest."""

    runs: list[StoredRun]
    problems: list[str]  # one per entry left out, or one for an unreadable index
    unreadable: frozenset[str] = frozenset()  # commits named by entries left out
    anonymous: bool = False  # an entry left out names no readable commit

    @property
    def blind(self) -> bool:
        """Whether a damaged part could be any run (the walk cannot trust the rest)."""
        return self.anonymous or (self.damaged and not self.runs)

    @property
    def damaged(self) -> bool:
        return bool(self.problems)


def parse_index(raw: bytes, where: str) -> IndexRead:
    """Validate a whole ``index.json`` at once: every valid entry kept, the rest named.

    The document is read within the inputs' JSON budget (size, containers, nesting,
    huge integers kept as text) and each entry checked against `ENTRY_SCHEMA`; an
    entry repeated for the same commit keeps its last copy. Never raises.
    """
    if len(raw) > MAX_INDEX_BYTES:
        return IndexRead([], [f"{where} is over {MAX_INDEX_BYTES // 2**20} MiB"])
    try:
        data = parse_json(raw, where)
    except (LeaderboardError, ValueError) as exc:
        return IndexRead([], [f"{where} is not readable JSON ({str(exc)[:120]})"])
    listed = data.get("runs") if isinstance(data, dict) else None
    if not isinstance(listed, list):
        return IndexRead([], [f"{where} has no list of runs"])
    runs: dict[str, StoredRun] = {}
    problems: list[str] = []
    unreadable: set[str] = set()
    anonymous = False
    for entry in listed:
        try:
            run = StoredRun.from_json(entry)
        except HistoryUnreadable as exc:
            problems.append(str(exc))
            commit = entry.get("commit") if isinstance(entry, dict) else None
            if _is_sha(commit):
                unreadable.add(str(commit))
            else:
                anonymous = True
            continue
        runs.pop(run.commit, None)
        runs[run.commit] = run
    for commit in unreadable & set(runs):  # a later valid copy of the same commit
        unreadable.discard(commit)
    return IndexRead(list(runs.values()), problems, frozenset(unreadable), anonymous)


@dataclass(frozen=True)
class Stored:
    """What one store did."""

    commit: str  # the history branch's new head
    attempts: int
    pruned: list[str]
    runs: list[StoredRun]  # the index after the store, oldest first
    created_branch: bool


@dataclass(frozen=True)
class Found:
    """The run a pull request is gated against."""

    run: StoredRun
    records: list[EvalRun]
    commits_behind: int
    head: str = ""  # the history branch's head the run was read at
    index: tuple[StoredRun, ...] = ()  # the valid runs of the index, oldest first


def folder_for(header: str) -> str:
    """The branch folder of one ``comment-header``: its `slug`."""
    return slug(header)


def encode_records(
    runs: Sequence[EvalRun], *, redact: Callable[[str], str] = lambda text: text
) -> bytes:
    """The records as gzipped JSON Lines, in the given order, byte-for-byte reproducible.

    Fields left at their default (``category`` general, ``weight`` 1) or None are left
    out; an errored unit is written ``"score": null`` with its ``error``; the loader
    reads them back as the same records. `redact` is applied to the
    whole text before it is compressed (the log's: the token in plain and the
    encodings `leaderboard.action.runner.secret_forms` lists become ``***``).
    """
    lines = []
    for r in runs:
        record: dict[str, Any] = {
            "model_id": r.model_id,
            "task_id": r.task_id,
            "score": None if r.error is not None else r.score,
        }
        for name in ("metric_name", "item_id", "cluster", "sample", *MEASURES, "error"):
            value = getattr(r, name)
            if value is not None:
                record[name] = value
        if r.metrics:
            record["metrics"] = dict(r.metrics)
        if r.category != "general":
            record["category"] = r.category
        if r.weight != 1.0:
            record["weight"] = r.weight
        lines.append(json.dumps(record, ensure_ascii=False, separators=(",", ":")))
    text = redact("\n".join(lines) + "\n")
    return gzip.compress(text.encode("utf-8", "surrogatepass"), compresslevel=9, mtime=0)


class History:
    """The runs of one ``comment-header`` on one branch.

    Parameters
    ----------
    api : GitData
        The repository's Git Data client.
    branch : str
        The history branch (the ``history-branch`` input).
    header : str
        The ``comment-header``; picks the folder.
    clock : callable
        Current time as an aware datetime (``stored_at``).
    sleep : callable
        Pause between store attempts.
    """

    def __init__(
        self,
        api: GitData,
        branch: str,
        header: str,
        *,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.api, self.branch = api, branch
        self.folder = folder_for(header)
        self._clock, self._sleep = clock, sleep

    def _run_dir(self, commit: str) -> str:
        return f"{self.folder}/runs/{commit}"

    # -- reading -------------------------------------------------------------------------
    def index(self, ref: str) -> list[StoredRun]:
        """The runs stored at ``ref`` (a commit of the history branch), oldest first.

        Raises
        ------
        HistoryUnreadable
            Any part of the index breaks its schema (`read_index` keeps the rest).
        """
        read = self.read_index(ref)
        if read.damaged:
            raise HistoryUnreadable("; ".join(read.problems[:3]))
        return read.runs

    def read_index(self, ref: str) -> IndexRead:
        """The index at ``ref`` validated whole (`parse_index`): valid runs, problems."""
        where = f"{self.folder}/index.json"
        try:
            raw = self.api.read(where, ref, limit=MAX_INDEX_BYTES)
        except BlobTooLarge:
            return IndexRead([], [f"{where} is over {MAX_INDEX_BYTES // 2**20} MiB"])
        if raw is None:
            return IndexRead([], [])
        return parse_index(raw, where)

    def find(self, base: str, *, walk: int = WALK_LIMIT) -> Found | None:
        """The run stored for ``base`` or its nearest stored first-parent ancestor.

        Walks ``parents[0]`` from ``base`` for at most `walk` commits (0: the run of
        ``base`` itself, as the ``anchor`` input asks). None when
        nothing is stored (no branch, an empty repository, an empty index) or no stored
        run lies on the walk.

        Raises
        ------
        HistoryUnreadable
            The index or the found run's records cannot be read.
        GitDataError
            GitHub refused or failed a request.
        """
        head = self.api.head(self.branch)
        if head is None:
            return None
        read = self.read_index(head)
        if read.blind:  # the base's own run may be the one that cannot be read
            raise HistoryUnreadable("; ".join(read.problems[:3]))
        stored = {r.commit: r for r in read.runs}
        walked = self._walk(base, stored, read.unreadable, walk)
        if walked is None:
            if read.damaged:  # the run may be among the entries that cannot be read
                raise HistoryUnreadable("; ".join(read.problems[:3]))
            return None
        sha, behind = walked
        return Found(stored[sha], self.records(sha, head), behind, head, tuple(read.runs))

    def records(self, sha: str, head: str) -> list[EvalRun]:
        """The records kept for commit ``sha`` at ``head`` of the history branch.

        Raises
        ------
        HistoryUnreadable
            They are missing, over `MAX_RUN_BYTES`, or cannot be read.
        GitDataError
            GitHub refused or failed the request.
        """
        try:
            raw = self.api.read(
                f"{self._run_dir(sha)}/records.jsonl.gz", head, limit=MAX_RUN_BYTES
            )
        except BlobTooLarge:
            raise HistoryUnreadable(
                f"the records of {sha[:7]} are over {MAX_RUN_BYTES:,} bytes"
            ) from None
        if raw is None:
            raise HistoryUnreadable(f"the records of {sha[:7]} are missing")
        return _decode_records(raw, sha)

    def _walk(
        self,
        base: str,
        stored: dict[str, StoredRun],
        unreadable: frozenset[str],
        limit: int,
    ) -> tuple[str, int] | None:
        """The first stored commit on ``base``'s first-parent walk, and its distance.

        A commit whose entry is damaged stops the walk (None): its run exists but
        cannot be read, and an older run must not silently take its place.
        """
        if not stored:
            return None
        sha, behind = base, 0
        while sha not in stored:
            if sha in unreadable:
                return None
            if behind >= limit:
                return None
            try:
                _, parents = self.api.commit(sha)
            except GitDataError as exc:
                if exc.status in (404, 422):  # not in this repository (yet)
                    return None
                raise
            if not parents:
                return None
            sha, behind = parents[0], behind + 1
        return sha, behind

    # -- writing -------------------------------------------------------------------------
    def store(
        self,
        *,
        commit: str,
        branch: str | None,
        records: bytes,
        report: bytes,
        count: int,
        models: dict[str, list[float]],
        keep: int,
    ) -> Stored:
        """Store one run under ``commit``, replacing an earlier store of it; prune.

        Raises
        ------
        RunTooLarge
            The run is over `MAX_RUN_BYTES`.
        EmptyRepository
            The repository has no commit (the branch cannot be created).
        GitDataError
            GitHub refused or failed a request, or the branch kept moving.
        """
        if len(records) + len(report) > MAX_RUN_BYTES:
            raise RunTooLarge(
                f"the run takes {len(records) + len(report):,} bytes (records gzipped, "
                f"and the report), over the {MAX_RUN_BYTES:,} bytes kept per run"
            )
        head = self.api.head(self.branch)  # EmptyRepository before any write
        parents = self._parents(commit)
        records_sha = self.api.create_blob(records)
        report_sha = self.api.create_blob(report)
        for attempt in range(1, STORE_ATTEMPTS + 1):
            if attempt > 1:
                self._sleep(random.uniform(0.2, 1.0) * attempt)  # jitter, not security
                head = self.api.head(self.branch)
            entry = StoredRun(
                commit=commit,
                parents=parents[:_MAX_PARENTS],
                branch=branch if branch is None or len(branch) <= 255 else None,
                stored_at=self._clock().strftime("%Y-%m-%dT%H:%M:%SZ"),
                records=count,
                records_bytes=len(records),
                report_bytes=len(report),
                models=_valid_models(models),
            )
            result = self._commit(
                head,
                entry=entry,
                records_sha=records_sha,
                report_sha=report_sha,
                keep=keep,
                attempt=attempt,
            )
            if result is not None:
                return result
        raise GitDataError(
            f"store the run on {self.branch}",
            0,
            f"the branch kept moving ({STORE_ATTEMPTS} attempts)",
        )

    def _parents(self, commit: str) -> list[str]:
        """The stored commit's parents, for the index; none when it cannot be read."""
        if not _is_sha(commit):
            return []
        try:
            return self.api.commit(commit)[1]
        except GitDataError as exc:
            if exc.status in (404, 422):
                return []
            raise

    def _commit(
        self,
        head: str | None,
        *,
        entry: StoredRun,
        records_sha: str,
        report_sha: str,
        keep: int,
        attempt: int,
    ) -> Stored | None:
        files: dict[str, str] = {}
        base_tree = None
        runs: list[StoredRun] = []
        if head is not None:
            base_tree, _ = self.api.commit(head)
            files = self.api.files(base_tree)
            runs = self._rebuilt(self.read_index(head), files)
        runs = [r for r in runs if r.commit != entry.commit] + [entry]
        kept, pruned = runs[-keep:], [r.commit for r in runs[:-keep]]
        keep_dirs = {self._run_dir(r.commit) + "/" for r in kept}
        run_dir = self._run_dir(entry.commit)
        index = {"format": INDEX_FORMAT, "runs": [r.to_json() for r in kept]}
        index_text = json.dumps(index, indent=1, sort_keys=True, allow_nan=False)
        tree: list[dict[str, Any]] = [
            _blob(f"{run_dir}/records.jsonl.gz", records_sha),
            _blob(f"{run_dir}/report.json", report_sha),
            {
                "path": f"{self.folder}/index.json",
                "mode": "100644",
                "type": "blob",
                "content": index_text + "\n",
            },
        ]
        runs_prefix = f"{self.folder}/runs/"
        tree += [
            {"path": path, "mode": "100644", "type": "blob", "sha": None}
            for path in sorted(files)
            if path.startswith(runs_prefix)
            and not any(path.startswith(d) for d in keep_dirs)
        ]
        if head is None:
            tree.append(
                {"path": "README.md", "mode": "100644", "type": "blob", "content": _README}
            )
        new_tree = self.api.create_tree(base_tree, tree)
        message = f"leaderboard: {self.folder} run of {entry.commit[:12]}"
        if pruned:
            message += f", prune {len(pruned)}"
        new = self.api.create_commit(message, new_tree, [head] if head else [])
        if head is None:
            moved = self.api.create_branch(self.branch, new)
        else:
            moved = self.api.move_branch(self.branch, new)
        if not moved:
            return None
        return Stored(new, attempt, pruned, kept, created_branch=head is None)

    def _rebuilt(self, read: IndexRead, files: dict[str, str]) -> list[StoredRun]:
        """The index's valid runs, and a plain entry for every other run on the branch.

        A damaged index (an entry that breaks the schema, or the whole file) loses
        no run whose files are there: a run folder with records and a report that no
        valid entry names comes back first (oldest; when it was stored is unknown),
        with no parents and no models, so the drift table skips it.
        """
        if not read.damaged:
            return read.runs
        named = {r.commit for r in read.runs}
        prefix = f"{self.folder}/runs/"
        found = sorted(
            {
                path[len(prefix) : len(prefix) + 40]
                for path in files
                if path.startswith(prefix) and path.endswith("/records.jsonl.gz")
            }
        )
        recovered = [
            StoredRun(commit, [], None, "", 0, 0, 0)
            for commit in found
            if _is_sha(commit)
            and commit not in named
            and f"{self._run_dir(commit)}/report.json" in files
        ]
        return recovered + read.runs


def _blob(path: str, sha: str) -> dict[str, Any]:
    return {"path": path, "mode": "100644", "type": "blob", "sha": sha}


def _decode_records(raw: bytes, commit: str) -> list[EvalRun]:
    """Read stored records back through the loader (they are data like any artifact)."""
    with tempfile.TemporaryDirectory(prefix="leaderboard-history-") as tmp:
        path = Path(tmp) / f"{commit[:12]}.records.jsonl.gz"
        path.write_bytes(raw)
        try:
            return load_runs([str(path)], format="records")
        except Exception as exc:  # any failure: the stored run is unreadable
            raise HistoryUnreadable(
                f"the records stored for {commit[:7]} cannot be read ({type(exc).__name__})"
            ) from None


def _is_sha(value: object) -> bool:
    return isinstance(value, str) and re.fullmatch(r"[0-9a-f]{40}", value) is not None


def _valid_models(models: dict[str, list[float]]) -> dict[str, list[float]]:
    """The models whose [mean, lo, hi] are finite (NaN is never written), at most 1,000."""
    valid = {
        str(m): [float(x) for x in v]
        for m, v in models.items()
        if len(v) == 3 and all(_finite(x) for x in v)
    }
    return dict(list(valid.items())[:_MAX_MODELS])
