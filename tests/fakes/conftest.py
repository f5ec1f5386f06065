"""The fake GitHub API's own tests use its fixture."""

from tests.fakes.fixtures import github_api

__all__ = ["github_api"]
