"""The hidden markers of the sticky comment, and which run's results it should show.

Pure functions, no network: `leaderboard.action.comment.api` uses them to find its
comment among the others and to decide, when two runs race, whose results win.

A sticky comment starts with two hidden HTML comments, added outside any template::

    <!-- leaderboard-action:sticky header=leaderboard -->
    <!-- leaderboard-action:stamp sha=0a1b2c... run=123456789 -->

The first finds the comment again; the second tells an older run from a newer one.
Values are percent-encoded (``-`` included), so no header can end the HTML comment
early (``-->``, ``--!>``), open a tag (``>``) or add a line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import quote, unquote

__all__ = ["MAX_COMMENT_CHARS", "Stamp", "compose", "rank", "should_write", "sticky_marker"]

MAX_COMMENT_CHARS = 65_536
_MARKER = "<!-- leaderboard-action:sticky header={} -->"
_STAMP = "<!-- leaderboard-action:stamp sha={} run={} -->"
_STAMP_RE = re.compile(r"<!-- leaderboard-action:stamp sha=(\S*) run=(\S*) -->")


def _encode(value: str) -> str:
    # Everything but letters, digits and ``_.~`` is percent-encoded, ``-`` too.
    return quote(value, safe="", errors="surrogatepass").replace("-", "%2D")


def sticky_marker(header: str) -> str:
    """The hidden HTML comment that identifies the sticky comment for ``header``.

    Parameters
    ----------
    header : str
        The ``comment-header`` input; any text.

    Returns
    -------
    str
        One line, e.g. ``<!-- leaderboard-action:sticky header=leaderboard -->``.
    """
    return _MARKER.format(_encode(header))


@dataclass(frozen=True)
class Stamp:
    """Which commit and which workflow run a comment's results come from."""

    sha: str | None = None
    run: int | None = None

    def render(self) -> str:
        """The stamp as a hidden HTML comment (one line)."""
        sha = _encode(self.sha) if self.sha else "-"
        return _STAMP.format(sha, self.run if self.run is not None else "-")

    @classmethod
    def parse(cls, body: str) -> Stamp:
        """Read the stamp back from a comment body; empty when there is none."""
        match = _STAMP_RE.search(body[:4096])
        if match is None:
            return cls()
        sha, run = match.groups()
        return cls(
            unquote(sha) if sha not in {"", "-"} else None,
            int(run) if run.isdigit() else None,
        )


def compose(header: str, stamp: Stamp, body: str) -> str:
    """The full comment text: marker, stamp, a blank line, then ``body``.

    Parameters
    ----------
    header : str
        The ``comment-header`` input.
    stamp : Stamp
        The commit and run the body was computed for.
    body : str
        The rendered markdown.

    Returns
    -------
    str
        What is posted.
    """
    return f"{sticky_marker(header)}\n{stamp.render()}\n\n{body}"


def rank(stamp: Stamp, comment_id: int, head: str | None) -> tuple[bool, int, int]:
    """Sort key of competing comment contents: higher is newer.

    Results for the pull request's current head come first, then the later run, then
    the later comment.
    """
    current = head is not None and stamp.sha == head
    return current, stamp.run if stamp.run is not None else -1, comment_id


def should_write(ours: Stamp, newest: Stamp, head: str | None) -> bool:
    """Whether our results may replace what the existing sticky comment shows.

    Parameters
    ----------
    ours : Stamp
        This run.
    newest : Stamp
        The newest content among the existing sticky comments.
    head : str or None
        The pull request's head commit now, when known.

    Returns
    -------
    bool
        False when the pull request has moved past our commit, or when a later run
        for the same commit already wrote.
    """
    if head is not None and ours.sha is not None and ours.sha != head:
        return False
    return not (
        ours.run is not None
        and newest.run is not None
        and newest.run > ours.run
        and newest.sha == ours.sha
    )
