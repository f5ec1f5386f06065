"""The kept history: the default branch's runs, stored on a branch of the repository.

A push to the default branch stores its run (the records, normalised and gzipped, and
the JSON report) under the commit it was made for; a pull request reads the run of its
base commit, or of the nearest stored first-parent ancestor, and is gated against it.
Everything goes through the Git Data API (`leaderboard.action.gitdata`): no checkout,
no git in the image, no credentials on disk.

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
import random
import re
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from leaderboard.action.gitdata import GitData, GitDataError
from leaderboard.action.names import slug
from leaderboard.inputs import MEASURES, EvalRun, load_runs

__all__ = [
    "MAX_RUN_BYTES",
    "STORE_ATTEMPTS",
    "WALK_LIMIT",
    "Found",
    "History",
    "HistoryUnreadable",
    "RunTooLarge",
    "Stored",
    "StoredRun",
    "encode_records",
    "folder_for",
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
        if not isinstance(data, dict) or not _is_sha(data.get("commit")):
            raise HistoryUnreadable("index.json: an entry without a commit")
        models = data.get("models") if isinstance(data.get("models"), dict) else {}
        return cls(
            commit=str(data["commit"]),
            parents=[p for p in data.get("parents") or [] if _is_sha(p)],
            branch=data["branch"] if isinstance(data.get("branch"), str) else None,
            stored_at=str(data.get("stored_at") or ""),
            records=_int(data.get("records")),
            records_bytes=_int(data.get("records_bytes")),
            report_bytes=_int(data.get("report_bytes")),
            models={
                str(k): [float(x) for x in v]
                for k, v in (models or {}).items()
                if isinstance(v, list)
                and len(v) == 3
                and all(isinstance(x, (int, float)) for x in v)
            },
        )


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


def folder_for(header: str) -> str:
    """The branch folder of one ``comment-header``: its `slug`."""
    return slug(header)


def encode_records(runs: Sequence[EvalRun]) -> bytes:
    """The records as gzipped JSON Lines, in the given order, byte-for-byte reproducible.

    Fields left at their default (``category`` general, ``weight`` 1) or None are left
    out; the loader reads them back as the same records.
    """
    lines = []
    for r in runs:
        record: dict[str, Any] = {
            "model_id": r.model_id,
            "task_id": r.task_id,
            "score": r.score,
        }
        for name in ("metric_name", "item_id", "cluster", "sample", *MEASURES):
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
    text = "\n".join(lines) + "\n"
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
        """The runs stored at ``ref`` (a commit of the history branch), oldest first."""
        raw = self.api.read(f"{self.folder}/index.json", ref)
        if raw is None:
            return []
        try:
            data = json.loads(raw)
        except ValueError:
            raise HistoryUnreadable(f"{self.folder}/index.json is not JSON") from None
        runs = data.get("runs") if isinstance(data, dict) else None
        if not isinstance(runs, list):
            raise HistoryUnreadable(f"{self.folder}/index.json has no list of runs")
        return [StoredRun.from_json(r) for r in runs]

    def find(self, base: str) -> Found | None:
        """The run stored for ``base`` or its nearest stored first-parent ancestor.

        Walks ``parents[0]`` from ``base`` for at most `WALK_LIMIT` commits. None when
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
        stored = {r.commit: r for r in self.index(head)}
        if not stored:
            return None
        sha, behind = base, 0
        while sha not in stored:
            if behind >= WALK_LIMIT:
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
        run = stored[sha]
        raw = self.api.read(f"{self._run_dir(sha)}/records.jsonl.gz", head)
        if raw is None:
            raise HistoryUnreadable(f"the records of {sha[:7]} are missing")
        return Found(run, _decode_records(raw, sha), behind)

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
                parents=parents,
                branch=branch,
                stored_at=self._clock().strftime("%Y-%m-%dT%H:%M:%SZ"),
                records=count,
                records_bytes=len(records),
                report_bytes=len(report),
                models=models,
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
            try:
                runs = self.index(head)
            except HistoryUnreadable:
                runs = []  # rebuilt from this run on; the old files are removed below
        runs = [r for r in runs if r.commit != entry.commit] + [entry]
        kept, pruned = runs[-keep:], [r.commit for r in runs[:-keep]]
        keep_dirs = {self._run_dir(r.commit) + "/" for r in kept}
        run_dir = self._run_dir(entry.commit)
        index = {"format": INDEX_FORMAT, "runs": [r.to_json() for r in kept]}
        tree: list[dict[str, Any]] = [
            _blob(f"{run_dir}/records.jsonl.gz", records_sha),
            _blob(f"{run_dir}/report.json", report_sha),
            {
                "path": f"{self.folder}/index.json",
                "mode": "100644",
                "type": "blob",
                "content": json.dumps(index, indent=1, sort_keys=True) + "\n",
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


def _int(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0
