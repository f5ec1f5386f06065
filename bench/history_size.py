"""The kept history's cost: store and read time, and the branch's size after N pushes.

Usage: ``python bench/history_size.py [--pushes 120] [--keep 50] [--items 400]``.
Runs N pushes (each a run of 4 models x 40 tasks x ``--items`` binary items, new
random scores each time) through `leaderboard.action.history.branch.History` against the
test suite's fake GitHub (a real HTTP server on 127.0.0.1, so the time is the client's and
the fake's, not GitHub's network), then one pull request's read 10 commits past the
newest run. Prints per-push store time and requests, the read time, and the history
branch's size: the files of its newest tree, and every object reachable from its head
(what a clone of the branch downloads), each zlib-compressed as git stores it.
Prints figures, asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from leaderboard.action.history.branch import History, encode_records  # noqa: E402
from leaderboard.action.history.gitdata import GitData  # noqa: E402
from tests.conftest import make_runs  # noqa: E402
from tests.fakes.github_api import INSTALLATION_TOKEN, FakeGitHub  # noqa: E402

BRANCH = "leaderboard-history"


def reachable_bytes(fake: FakeGitHub, head: str) -> tuple[int, int]:
    """(objects, zlib-compressed bytes) reachable from ``head``."""
    git = fake.git
    seen: set[str] = set()
    total = 0
    commits = [head]
    while commits:
        sha = commits.pop()
        if sha in seen:
            continue
        seen.add(sha)
        commit = git.commits[sha]
        total += len(zlib.compress(repr(commit).encode()))
        commits.extend(commit["parents"])
        trees = [commit["tree"]]
        while trees:
            tree = trees.pop()
            if tree in seen:
                continue
            seen.add(tree)
            entries = git.trees[tree]
            total += len(zlib.compress(repr(sorted(entries)).encode())) + 28 * len(entries)
            for entry in entries.values():
                if entry.type == "tree":
                    trees.append(entry.sha)
                elif entry.sha not in seen:
                    seen.add(entry.sha)
                    total += len(zlib.compress(git.blobs[entry.sha]))
    return len(seen), total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pushes", type=int, default=120)
    parser.add_argument("--keep", type=int, default=50)
    parser.add_argument("--items", type=int, default=400)
    args = parser.parse_args()
    with FakeGitHub() as fake:
        api = GitData(
            token=INSTALLATION_TOKEN, api_url=fake.base_url, repository=fake.repository
        )
        history = History(api, BRANCH, "leaderboard")
        times, requests, sizes = [], [], []
        commit = ""
        for n in range(args.pushes):
            commit = fake.git.commit_files("main", {"v": str(n).encode()})
            runs = make_runs(models=4, tasks=40, items=args.items, seed=n)
            records = encode_records(runs)
            sizes.append(len(records))
            before = api.requests
            start = time.perf_counter()
            history.store(
                commit=commit,
                branch="main",
                records=records,
                report=b"{}" * 4000,
                count=len(runs),
                models={"m": [0.5, 0.4, 0.6]},
                keep=args.keep,
            )
            times.append(time.perf_counter() - start)
            requests.append(api.requests - before)
            if n + 1 in (1, 10, args.keep, args.pushes):
                head = fake.git.refs[f"refs/heads/{BRANCH}"]
                files = fake.git.files(BRANCH)
                objects, packed = reachable_bytes(fake, head)
                print(
                    f"after {n + 1:4d} pushes: newest tree {len(files)} files "
                    f"{sum(map(len, files.values())) / 1e6:.2f} MB; reachable "
                    f"{objects} objects, {packed / 1e6:.2f} MB compressed"
                )
        for _ in range(10):
            commit = fake.git.commit_files("main", {"v": b"later"})
        before = api.requests
        start = time.perf_counter()
        found = history.find(commit)
        read = time.perf_counter() - start
        assert found is not None
        print(
            f"records per run: {len(runs):,}, {statistics.mean(sizes) / 1e3:.0f} kB gzipped"
        )
        print(
            f"store: median {statistics.median(times) * 1000:.0f} ms, max "
            f"{max(times) * 1000:.0f} ms, {statistics.median(requests):.0f} requests"
        )
        print(
            f"read (10 commits behind): {read * 1000:.0f} ms, "
            f"{api.requests - before} requests, {len(found.records):,} records"
        )


if __name__ == "__main__":
    main()
