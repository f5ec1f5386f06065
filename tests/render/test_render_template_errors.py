"""A user template that fails while rendering is bad configuration: status 2, not 3.

Found in review: only `jinja2.TemplateError` was turned into a `UsageError`, so a
template doing ``1 // 0``, giving a filter a string, or recursing without end crashed
the action (status 3, "internal error", a traceback) instead of a one-line error.
"""

from __future__ import annotations

import io
import pathlib
from collections.abc import Callable
from dataclasses import replace

import pytest

from leaderboard.action.job import run
from leaderboard.action.settings import Settings
from leaderboard.errors import UsageError
from leaderboard.render.comment import render_comment, render_summary
from tests.action import action_helpers
from tests.action.test_action_run import CLEAN, PR_EVENT, FakeCommenter, settings
from tests.render.render_samples import golden_report

__all__ = ["settings"]  # the fixture, re-used

FAILING = {
    "zero": ("line one\n{{ view.rows | length // 0 }}\n", 2, "ZeroDivisionError"),
    "filter": ("{{ view.verdict | num }}\n", 1, "TypeError"),
    "format": ("{{ '{missing}'.format() }}\n", 1, "KeyError"),
    "recursion": ("{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}\n", None, "Recursion"),
}


@pytest.mark.parametrize("name", sorted(FAILING))
@pytest.mark.parametrize("render", [render_comment, render_summary])
def test_user_template__runtime_failure_is_a_usage_error_naming_the_template(
    tmp_path: pathlib.Path, name: str, render: Callable[..., str]
) -> None:
    source, line, kind = FAILING[name]
    tmpl = tmp_path / f"{name}.md.j2"
    tmpl.write_text(source)
    with pytest.raises(UsageError) as info:
        render(golden_report(), template=tmpl)
    message = str(info.value)
    assert f"{name}.md.j2" in message
    assert kind in message
    if line is not None:
        assert f", line {line}:" in message


def test_action__failing_user_template__the_gates_status_and_the_built_in_comment(
    settings: Settings, tmp_path: pathlib.Path
) -> None:
    """CONTRACT.md section 7: a template that fails to render never changes the exit
    status; the built-in comment is posted and names the template's error."""
    tmpl = settings.workspace / "zero.md.j2"
    tmpl.write_text("{{ view.rows | length // 0 }}\n")
    commenter = FakeCommenter()
    out = io.StringIO()
    code = run(
        CLEAN(replace(settings, template=tmpl)),
        commenter,
        event=PR_EVENT,
        out=out,
    )
    assert code == 0  # the gate's status (CLEAN: no regression)
    ((level, _props, message),) = action_helpers.annotations(out.getvalue())
    assert level == "warning"
    assert "zero.md.j2, line 1: ZeroDivisionError" in message
    (call,) = commenter.calls
    assert "could not be used, so this is the built-in comment" in call["body"]
    assert "model-1" in call["body"]  # the leaderboard is shown, not hidden
