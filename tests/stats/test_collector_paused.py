"""The cyclic collector is paused while the statistics and the reader make their
many long-lived objects (issue 31: at 200 models it ran 122 collections, 0.17-0.25 s
of 1.9 s), and turned back on afterwards only if it was on.

With the collector's first threshold at 50 objects (`collections` below), an
unpaused build_report of these records runs hundreds of collections; paused, at most
one: the collection the first allocation after it resumes may start.
"""

from __future__ import annotations

import gc
import json
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from leaderboard import build_report, load_runs
from leaderboard._gc import collector_paused
from leaderboard.errors import UsageError
from leaderboard.inputs import EvalRun


@pytest.fixture
def collections() -> Iterator[list[int]]:
    """Counts the collections that start (one entry each) with a low threshold."""
    started: list[int] = []

    def note(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            started.append(info["generation"])

    threshold = gc.get_threshold()
    was_on = gc.isenabled()
    gc.enable()
    gc.set_threshold(50, 10, 10)
    gc.callbacks.append(note)
    try:
        yield started
    finally:
        gc.callbacks.remove(note)
        gc.set_threshold(*threshold)
        if was_on:
            gc.enable()
        else:
            gc.disable()


def test_build_report__runs_at_most_the_resuming_collection(
    runs_factory: Callable[..., list[EvalRun]], collections: list[int]
) -> None:
    runs = runs_factory(models=6, tasks=4, items=20)
    collections.clear()
    build_report(runs, resamples=200, baseline="model-0")
    assert len(collections) <= 1, collections
    assert gc.isenabled()


def test_build_report__unpaused_would_collect_many_times(
    runs_factory: Callable[..., list[EvalRun]], collections: list[int]
) -> None:
    """The test above could fail: the same work, the collector not paused."""
    from leaderboard.stats import build  # noqa: PLC0415

    runs = runs_factory(models=6, tasks=4, items=20)
    req = build.request(runs, resamples=200, baseline="model-0")
    collections.clear()
    build.report_for.__wrapped__(req)  # type: ignore[attr-defined]
    assert len(collections) >= 5, collections


def test_build_report__leaves_a_paused_collector_paused(
    runs_factory: Callable[..., list[EvalRun]], collections: list[int]
) -> None:
    runs = runs_factory(models=3, tasks=4, items=10)
    gc.disable()
    collections.clear()
    build_report(runs, resamples=100)
    assert not gc.isenabled()
    assert collections == []


def test_build_report__resumes_the_collector_after_an_error(
    runs_factory: Callable[..., list[EvalRun]], collections: list[int]
) -> None:
    with pytest.raises(UsageError):
        build_report(runs_factory(models=3, tasks=4), baseline="no-such-model")
    assert gc.isenabled()


def test_load_runs__runs_at_most_the_resuming_collection(
    tmp_path: Path, collections: list[int]
) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text(
        "".join(
            json.dumps({"model_id": f"m{m}", "task_id": "t", "item_id": i, "score": i % 2})
            + "\n"
            for m in range(3)
            for i in range(2_000)
        )
    )
    collections.clear()
    assert len(load_runs(path)) == 6_000
    assert len(collections) <= 1, collections
    assert gc.isenabled()


def test_collector_paused__overlapping_threads_leave_it_on(collections: list[int]) -> None:
    """Pauses overlapping in threads: the last to end resumes the collector. Forced
    order: B starts while A's pause is under way, A ends, then B ends (unlocked, B
    read "off" and never turned it back on)."""
    a_in, b_in, a_out = threading.Event(), threading.Event(), threading.Event()

    def a() -> None:
        with collector_paused():
            a_in.set()
            b_in.wait(5)
        a_out.set()

    def b() -> None:
        a_in.wait(5)
        with collector_paused():
            b_in.set()
            a_out.wait(5)
            assert not gc.isenabled()  # A has ended; B's pause still holds

    threads = [threading.Thread(target=a), threading.Thread(target=b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert a_out.is_set()
    assert gc.isenabled()


def test_collector_paused__many_threads_leave_it_on(collections: list[int]) -> None:
    def work() -> None:
        for _ in range(500):
            with collector_paused():
                pass

    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=work) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
    finally:
        sys.setswitchinterval(switch)
    assert gc.isenabled()


def test_collector_paused__only_the_outermost_resumes(collections: list[int]) -> None:
    with collector_paused():
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
