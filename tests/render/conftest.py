"""One headless Chromium per test session (per xdist worker) for the layout tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.render.browser import Browser, unavailable


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    why = unavailable()
    if why is not None:
        pytest.skip(why)
    b = Browser()
    try:
        yield b
    finally:
        b.close()
