"""The cyclic garbage collector, paused where a process makes many objects that hold
no reference cycles: `frozen_imports` for an entry's imports, `collector_paused` for
reading records and making the report.

Each collection of the oldest generation walks every object still alive.

`frozen_imports` is the ``with`` block the command line's entry (`leaderboard.__main__`)
and the action's (``entrypoint.py``, `leaderboard.action.__main__`) import their
modules in. The imports (the stages, numpy, pydantic's models, jinja2) leave about
73,000 objects that live as long as the process and are never garbage: the collector
scanned them in about a hundred collections while they were made, again in the run's
collections and in the full one at the interpreter's exit (20-41 ms of collections in
the run at load 2). With the collector paused while they are made and the objects
frozen (`gc.freeze`) after, it skips them (3-12 ms) and collects the run's own
objects as before. Merely pausing made things worse: the first collections after the
pause scanned them all at once (49-110 ms). The price: the few cycles the imports
leave as garbage are frozen too, never collected (about 490 objects, 0.3 MB of 22 MB,
measured by unfreezing and collecting), held until a process that lives seconds
exits; a collection before the freeze would cost most of what the freeze saves.

`collector_paused` is around `load_runs` and `build_report` / `report_for`. Reading a
million records makes a million long-lived objects; the statistics of 200 models make
19,900 pairwise rows on top of the 200,000 records they read, and with the collector
on they paid 122 collections, 0.17-0.25 s of 1.9 s (11 collections, 0.013 s, at 50
models). Reference counting still frees everything dropped meanwhile; the few cycles
made are collected once the collector runs again (one collection after the report,
0.017 s at 200 models).

The collector is the process's: pauses from several threads, and nested ones, are
counted under a lock, and the last to end turns it back on if it was on when the
first began (two steps on shared state without the lock could leave it off for good:
a thread reading "off" while another's pause is under way).
"""

from __future__ import annotations

import _thread
import contextlib
import gc
from collections.abc import Iterator

# re-entrant: a finalizer run on this thread may pause too. `_thread`'s, which the
# interpreter has loaded at start: the entries import this module before their pause,
# and importing `threading` there cost a collection of its own
_LOCK = _thread.RLock()


class _Pauses:
    """The pauses under way and whether the collector was on before the first (read
    and written under `_LOCK`)."""

    under_way = 0
    was_on = False


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic collector for a block or, as a decorator, a function (the
    process's collector, off while any thread's pause is under way)."""
    with _LOCK:
        if _Pauses.under_way == 0:
            _Pauses.was_on = gc.isenabled()
            gc.disable()
        _Pauses.under_way += 1
    try:
        yield
    finally:
        with _LOCK:
            _Pauses.under_way -= 1
            if _Pauses.under_way == 0 and _Pauses.was_on:
                gc.enable()


@contextlib.contextmanager
def frozen_imports() -> Iterator[None]:
    """Run the block (the entry's imports) with the cyclic collector paused, then
    freeze every object alive and turn the collector back on if it was on."""
    with collector_paused():
        try:
            yield
        finally:
            gc.freeze()
