"""The action's `baseline-results` and `baseline-label` inputs: parsed, then gated."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest

from leaderboard.action.event import parse_event
from leaderboard.action.history.baseline import choose_baseline
from leaderboard.action.job import compute_report
from leaderboard.action.runner import Log
from leaderboard.action.settings import Settings
from leaderboard.errors import UsageError
from leaderboard.report import Report


def env(ws: Path, **inputs: str) -> dict[str, str]:
    out = {"INPUT_RESULTS": "pr/*.jsonl", "GITHUB_WORKSPACE": str(ws)}
    for name, value in inputs.items():
        out["INPUT_" + name.upper().replace("_", "-")] = value
    return out


def _write(path: Path, drop: float, seed: int) -> None:
    rng = random.Random(seed)
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [
        json.dumps(
            {
                "model_id": m,
                "task_id": f"t{t}",
                "item_id": i,
                "score": rng.random() < p - (drop if m == "org/b" else 0.0),
            }
        )
        for m, p in (("org/a", 0.7), ("org/b", 0.7))
        for t in range(5)
        for i in range(50)
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _compute(settings: Settings) -> Report:
    """What the action does: choose the baseline run, then build the report."""
    choice = choose_baseline(settings, parse_event({}), lambda: None, Log(io.StringIO()))
    return compute_report(settings, choice)


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    _write(tmp_path / "pr" / "results.jsonl", drop=0.4, seed=1)
    _write(tmp_path / "main" / "results.jsonl", drop=0.0, seed=2)
    return tmp_path


def test_settings__baseline_results_are_paths_in_the_workspace(ws: Path) -> None:
    s = Settings.from_env(env(ws, baseline_results="main/*.jsonl, /abs/x.json"))
    assert s.baseline_results == (str(ws / "main" / "*.jsonl"), "/abs/x.json")
    assert s.baseline_label is None
    assert Settings.from_env(env(ws)).baseline_results == ()


def test_settings__candidates_need_no_baseline_with_baseline_results(ws: Path) -> None:
    s = Settings.from_env(env(ws, baseline_results="main/*.jsonl", candidates="org/b"))
    assert s.candidates == ("org/b",)


def test_settings__baseline_and_baseline_results_together_are_refused(ws: Path) -> None:
    with pytest.raises(UsageError, match=r"^baseline-results: given together with"):
        Settings.from_env(env(ws, baseline="org/a", baseline_results="main/*.jsonl"))


@pytest.mark.parametrize("raw", ["a\tb", "x" * 101, "a\nb"])
def test_settings__a_bad_label_names_the_input(ws: Path, raw: str) -> None:
    with pytest.raises(UsageError, match=r"^baseline-label: "):
        Settings.from_env(env(ws, baseline_label=raw))


def test_compute_report__gates_each_model_against_the_baseline_run(ws: Path) -> None:
    s = Settings.from_env(
        env(ws, baseline_results="main/*.jsonl", baseline_label="main 1a2b3c4")
    )
    report = _compute(s)
    pairs = [(c.candidate, c.baseline, c.regressed) for c in report.gate.comparisons]
    assert pairs == [
        ("org/a", "org/a @ main 1a2b3c4", False),
        ("org/b", "org/b @ main 1a2b3c4", True),
    ]
    assert report.gate.baseline_run is not None
    assert report.gate.baseline_run.label == "main 1a2b3c4"
    assert report.gate.baseline_run.source == "results"
    assert report.gate.baseline == "main 1a2b3c4"


def test_compute_report__label_defaults_to_baseline(ws: Path) -> None:
    report = _compute(Settings.from_env(env(ws, baseline_results="main/*.jsonl")))
    assert report.settings.baseline_label == "baseline"
    assert {c.baseline for c in report.gate.comparisons} == {
        "org/a @ baseline",
        "org/b @ baseline",
    }
