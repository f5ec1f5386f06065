"""Fixtures for the integration tests: the fake GitHub API server."""

from tests.fakes.fixtures import github_api

__all__ = ["github_api"]
