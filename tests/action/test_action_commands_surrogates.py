"""An annotation naming a file that is not UTF-8 can still be written to the log.

Found in review: the framework readers name the file as it is, and a name with bytes
that are not UTF-8 decodes to lone surrogates; `escape_data` left them in, and the
image's standard output (LANG=C.UTF-8, strict) refused to encode them, so a bad input
file turned into a crash (status 3) instead of the one-line ``::error::`` (status 2).
"""

from __future__ import annotations

import io
import os
import sys
from dataclasses import replace

import pytest

from leaderboard.action.job import EXIT_USAGE, run
from leaderboard.action.runner import Log, escape_data
from leaderboard.action.settings import Settings
from tests.action import action_helpers
from tests.action.test_action_run import PR_EVENT, FakeCommenter, settings

__all__ = ["settings"]  # the fixture, re-used


def test_escape_data__lone_surrogate_shown_as_escape() -> None:
    assert escape_data("results_\udcff.json") == "results_\\udcff.json"


def test_log__strict_utf8_stream_accepts_any_message() -> None:
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="utf-8", errors="strict")
    Log(stream).error("bad \ud800 name", title="t\udcff")
    assert raw.getvalue().decode("utf-8") == ("::error title=t\\udcff::bad \\ud800 name\n")


@pytest.mark.skipif(sys.platform == "darwin", reason="macOS needs UTF-8 file names")
def test_action__bad_framework_file_with_undecodable_name__exit_2(
    settings: Settings,
) -> None:
    name = os.fsencode(settings.workspace) + b"/results_\xff.json"
    with open(name, "w", encoding="utf-8") as fh:
        fh.write("{not json")
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="utf-8", errors="strict")  # as in the image
    commenter = FakeCommenter()
    code = run(
        replace(settings, results=(os.fsdecode(name),), format="lm-eval"),
        commenter,
        event=PR_EVENT,
        out=out,
    )
    assert code == EXIT_USAGE
    out.flush()
    ((level, _props, message),) = action_helpers.annotations(raw.getvalue().decode())
    assert level == "error"
    assert "results_\\udcff.json" in message
    (call,) = commenter.calls
    assert "could not be computed" in call["body"]
