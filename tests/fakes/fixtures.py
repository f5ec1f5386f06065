"""Pytest fixtures around the fake GitHub API; import them in a ``conftest.py``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.fakes.github_api import FakeGitHub


@pytest.fixture
def github_api() -> Iterator[FakeGitHub]:
    """A started fake GitHub API with pull request #7 open; stopped after the test.

    ``github_api.base_url`` is the ``GITHUB_API_URL``; the tokens are
    ``tests.fakes.github_api.INSTALLATION_TOKEN`` (the workflow's token),
    ``PAT_TOKEN`` and ``READ_ONLY_TOKEN`` (a fork's); ``github_api.comments(7)`` reads
    back what was posted.
    """
    with FakeGitHub() as fake:
        fake.add_pull(7, head_sha="a" * 40)
        yield fake
