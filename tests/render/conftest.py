"""One headless Chromium per test module for the layout tests.

Per module, not per session: Playwright's sync API keeps an asyncio loop running in
the main thread while it is started, and a later test in the same worker that runs a
real Inspect eval in-process (anyio.run) then fails with "Runner.run() cannot be
called from a running event loop". Closing the browser after each module ends it.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.render.browser import Browser, unavailable


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    why = unavailable()
    if why is not None:
        pytest.skip(why)
    b = Browser()
    try:
        yield b
    finally:
        b.close()
