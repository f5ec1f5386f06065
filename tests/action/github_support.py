"""Helpers for the GitHub integration tests: a commenter wired to the fake API."""

from __future__ import annotations

from dataclasses import dataclass, field

from leaderboard.action.comment.api import GitHubCommenter
from leaderboard.action.comment.markers import Stamp, sticky_marker
from tests.fakes.github_api import INSTALLATION_TOKEN, FakeGitHub

SHA1 = "1" * 40
SHA2 = "2" * 40
REPOSITORY = "octo-org/octo-repo"


@dataclass
class Sleeps:
    """A `sleep` that records instead of waiting."""

    calls: list[float] = field(default_factory=list)

    def __call__(self, seconds: float) -> None:
        self.calls.append(seconds)

    @property
    def total(self) -> float:
        return sum(self.calls)


def make_commenter(
    fake: FakeGitHub,
    token: str = INSTALLATION_TOKEN,
    repository: str = REPOSITORY,
    **kwargs: object,
) -> tuple[GitHubCommenter, Sleeps]:
    sleeps = Sleeps()
    commenter = GitHubCommenter(
        token=token,
        api_url=fake.base_url,
        repository=repository,
        sleep=sleeps,
        **kwargs,  # type: ignore[arg-type]
    )
    return commenter, sleeps


def sticky(fake: FakeGitHub, number: int = 7, header: str = "leaderboard") -> list[dict]:
    """The comments that carry the sticky marker for ``header``."""
    marker = sticky_marker(header)
    return [c for c in fake.comments(number) if c["body"].startswith(marker)]


def stamp_of(comment: dict) -> Stamp:
    return Stamp.parse(comment["body"])
