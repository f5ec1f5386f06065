"""The action when the two runs differ: baseline-map, fail-on-undetermined, gate-status,
one warning for a gate that cannot tell, and a broken template that never hides the gate.

The runs are the real Inspect logs of tests/fixtures/inspect/differ/ (see its README),
copied into a workspace and given as folders, as a workflow would after `inspect eval`.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from leaderboard.action.job import main
from leaderboard.action.settings import Settings
from leaderboard.errors import UsageError
from tests.action.action_helpers import annotations, parse_outputs, push_env

DIFFER = Path(__file__).parents[1] / "fixtures" / "inspect" / "differ"


def _env(tmp_path: Path, pr: str, base: str = "main", **inputs: str) -> dict[str, str]:
    ws = tmp_path / "ws"
    shutil.copytree(DIFFER / pr, ws / "pr", dirs_exist_ok=True)
    shutil.copytree(DIFFER / base, ws / "main", dirs_exist_ok=True)
    given = {
        "results": "pr/",
        "baseline_results": "main/",
        "baseline_label": "main",
        "resamples": "1000",
        **inputs,
    }
    return push_env(tmp_path, ws, **given)


def _outputs(tmp_path: Path) -> dict[str, str]:
    return parse_outputs((tmp_path / "output").read_text(encoding="utf-8"))


def _summary(tmp_path: Path) -> str:
    return (tmp_path / "summary").read_text(encoding="utf-8")


def test_settings__baseline_map_and_fail_on_undetermined(tmp_path: Path) -> None:
    base = {"INPUT_RESULTS": "r.jsonl", "GITHUB_WORKSPACE": str(tmp_path)}
    s = Settings.from_env({**base, "INPUT_BASELINE-MAP": "b/new=b/old\na/new = a/old, c=d"})
    assert s.baseline_map == (("a/new", "a/old"), ("b/new", "b/old"), ("c", "d"))
    assert s.fail_on_undetermined is False
    s = Settings.from_env({**base, "INPUT_FAIL-ON-UNDETERMINED": "true"})
    assert s.fail_on_undetermined is True
    with pytest.raises(UsageError, match=r"^baseline-map: expected NEW=OLD .*'oops'"):
        Settings.from_env({**base, "INPUT_BASELINE-MAP": "oops"})


def test_a_model_swap_is_gated_and_gate_status_is_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(_env(tmp_path, "renamed")) == 0
    out = _outputs(tmp_path)
    # 16 items rule out no drop of 0.05: the swap cannot tell (CONTRACT 13)
    assert (out["regressed"], out["gate-status"]) == ("false", "undetermined")
    first = _summary(tmp_path).splitlines()[0]
    assert first.startswith("🟡 **Cannot tell**")
    assert "(model changed: **mockllm/model** → **mockllm/model-v2**)" in first
    (note,) = annotations(capsys.readouterr().out)
    assert note[0] == "warning"
    assert "gate undetermined" in note[1]


def test_baseline_map_with_an_absent_id_fails_naming_the_ids_present(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    env = _env(tmp_path, "renamed", baseline_map="mockllm/model-v2=mockllm/gone")
    assert main(env) == 2
    (error,) = annotations(capsys.readouterr().out)
    assert error[0] == "error"
    assert "'mockllm/gone' is not in the baseline run 'main'" in error[2]
    assert "it holds: 'mockllm/model'" in error[2]


def _only_arith(tmp_path: Path) -> None:
    for folder in ("pr", "main"):
        for log in (tmp_path / "ws" / folder).glob("*_spell_*.eval"):
            log.unlink()


def test_an_undetermined_gate_warns_once_and_fails_only_when_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    env = _env(tmp_path, "scorer")
    _only_arith(tmp_path)  # arith alone, scored by another scorer: nothing to compare
    assert main(env) == 0
    warned = [a for a in annotations(capsys.readouterr().out) if a[0] == "warning"]
    gate = [a for a in warned if a[2].startswith("verdict: cannot tell")]
    assert len(gate) == 1
    assert "fail-on-undetermined: false" in gate[0][2]
    assert _outputs(tmp_path)["gate-status"] == "undetermined"
    assert _outputs(tmp_path)["regressed"] == "false"
    assert _summary(tmp_path).startswith("🟡 **Cannot tell**")

    (tmp_path / "output").write_text("")
    assert main({**env, "INPUT_FAIL-ON-UNDETERMINED": "true"}) == 1
    assert _outputs(tmp_path)["gate-status"] == "undetermined"


@pytest.mark.parametrize(
    "template",
    ["{{ view.verdict }}\n{{ 1 // 0 }}\n", "{% if %}\n", None],  # render, parse, missing
)
def test_a_broken_template_falls_back_and_keeps_the_gates_status(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], template: str | None
) -> None:
    env = _env(tmp_path, "renamed", template="broken.md.j2")
    if template is not None:
        (tmp_path / "ws" / "broken.md.j2").write_text(template, encoding="utf-8")
    assert main(env) == 0  # the gate's status, not 2
    out = _outputs(tmp_path)
    assert (out["regressed"], out["gate-status"]) == ("false", "undetermined")
    summary = _summary(tmp_path)
    assert summary.startswith("🟡 **Cannot tell** (model changed")
    assert "broken.md.j2 could not be used, so this is the built-in comment" in summary
    logged = annotations(capsys.readouterr().out)
    assert [a for a in logged if "template not used" in a[1]], logged


def test_a_broken_template_never_hides_a_regression(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    lines = [
        json.dumps({"model_id": m, "task_id": "t", "item_id": i, "score": s})
        for m, wrong in (("base", 5), ("cand", 45))
        for i in range(100)
        for s in [0.0 if i < wrong else 1.0]
    ]
    (ws / "r.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (ws / "broken.md.j2").write_text("{{ nosuch.attr }}\n", encoding="utf-8")
    env = push_env(
        tmp_path,
        ws,
        results="r.jsonl",
        baseline="base",
        resamples="500",
        template="broken.md.j2",
    )
    assert main(env) == 1
    out = _outputs(tmp_path)
    assert (out["regressed"], out["gate-status"]) == ("true", "regressed")
    summary = _summary(tmp_path)
    assert summary.startswith("🔴 **Regression**")
    assert "could not be used" in summary
    assert "UndefinedError" in summary
    capsys.readouterr()


def test_drift_table_goes_above_the_summarys_footer() -> None:
    from leaderboard.render import above_footer  # noqa: PLC0415

    summary = "verdict\n\n<details>x</details>\n\n<sub>leaderboard-action 0.1.0</sub>\n"
    placed = above_footer(summary, ["| drift |\n|---|\n"])
    assert placed == (
        "verdict\n\n<details>x</details>\n\n| drift |\n|---|\n\n"
        "<sub>leaderboard-action 0.1.0</sub>\n"
    )
    assert above_footer(summary, []) == summary
    assert above_footer("no footer\n", ["t"]) == "no footer\n\nt\n\n"
