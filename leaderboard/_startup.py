"""What both entries do before they run: import with the collector paused, then freeze.

`frozen_imports` is the ``with`` block the command line's entry (`leaderboard.__main__`)
and the action's (``entrypoint.py``, `leaderboard.action.__main__`) import their
modules in. The imports (the stages, numpy, pydantic's models, jinja2) leave about
73,000 objects that live as long as the process and are never garbage: the cyclic
garbage collector scanned them in about a hundred collections while they were made,
again in the run's collections and in the full one at the interpreter's exit (20-41 ms
of collections in the run at load 2). With the collector paused while they are made
and the objects frozen (`gc.freeze`) after, it skips them (3-12 ms) and collects the
run's own objects as before. Merely pausing made things worse: the first collections
after the pause scanned them all at once (49-110 ms).

The price: the few cycles the imports leave as garbage are frozen too, never collected
(about 490 objects, 0.3 MB of 22 MB, measured by unfreezing and collecting), held until
a process that lives seconds exits; a collection before the freeze would cost most of
what the freeze saves.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def frozen_imports() -> Iterator[None]:
    """Run the block (the entry's imports) with the cyclic collector paused, then
    freeze every object alive and turn the collector back on if it was on."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if collecting:
            gc.enable()
