"""A framework log's ids obey the records' rule: no control characters.

Found in review: the records readers refuse a newline, a lone surrogate or a line
separator in an id, but the Inspect and lm-eval readers passed them through. An
lm-eval ``model_name`` with a lone surrogate made the action crash while writing
the JSON report (status 3, "internal error") instead of a one-line input error.
"""

from __future__ import annotations

import io
import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from leaderboard.action.job import EXIT_USAGE, run
from leaderboard.action.settings import Settings
from leaderboard.errors import InputError
from leaderboard.inputs import load_runs_noting
from tests.action import action_helpers
from tests.action.test_action_run import PR_EVENT, FakeCommenter, settings

__all__ = ["settings"]  # the fixture, re-used

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "lm_eval" / "dummy-a"


def results_named(tmp_path: Path, model_name: str) -> Path:
    (source,) = FIXTURE.glob("results_*.json")
    target = tmp_path / source.name
    data = json.loads(source.read_text(encoding="utf-8"))
    data["model_name"] = model_name
    target.write_text(json.dumps(data), encoding="utf-8")  # ensure_ascii: \ud800 kept
    return target


@pytest.mark.parametrize(
    ("name", "shown"),
    [("m\ud800", "U+D800"), ("m\n::error::x", "U+000A"), ("m\u2028x", "U+2028")],
)
def test_lm_eval__control_character_in_model_name_refused(
    tmp_path: Path, name: str, shown: str
) -> None:
    path = results_named(tmp_path, name)
    with pytest.raises(InputError) as info:
        load_runs_noting(path, format="lm-eval")
    message = str(info.value)
    assert path.name in message
    assert "`model_id`" in message
    assert shown in message
    assert "\n" not in message


def test_action__lone_surrogate_in_lm_eval_model__exit_2_not_a_crash(
    settings: Settings, tmp_path: Path
) -> None:
    path = results_named(tmp_path, "m\ud800")
    shutil.copy(path, settings.workspace / path.name)
    s = replace(settings, results=(str(settings.workspace / path.name),))
    commenter = FakeCommenter()
    out = io.StringIO()
    code = run(s, commenter, event=PR_EVENT, out=out)
    assert code == EXIT_USAGE
    ((level, _props, message),) = action_helpers.annotations(out.getvalue())
    assert level == "error"
    assert "U+D800" in message
    (call,) = commenter.calls
    assert "could not be computed" in call["body"]
