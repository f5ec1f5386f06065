"""`collector_paused`: the cyclic garbage collector paused while a stage makes many
long-lived objects that hold no reference cycles.

Each collection of the oldest generation walks every object still alive. Reading a
million records makes a million of them; the statistics of 200 models make 19,900
pairwise rows on top of the 200,000 records they read, and with the collector on
they paid 122 collections, 0.17-0.25 s of 1.9 s (11 collections, 0.013 s, at 50
models). Reference counting still frees everything dropped meanwhile; the few cycles
made are collected once the collector runs again. Nested uses are safe: only the
outermost one turns it back on, and only if it was on.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic collector for a block or, as a decorator, a function."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
