"""schema/report.schema.json: current with the pydantic model, and true of real reports."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from leaderboard import build_report, load_runs
from leaderboard.report import (
    DataSummary,
    Gate,
    GateComparison,
    Interval,
    LeaderboardRow,
    PairwiseDiff,
    Report,
    ReportSettings,
)
from tests.docs.docs_support import ROOT, load_script

SCRIPT = ROOT / "scripts" / "gen_schema.py"
SCHEMA_FILE = ROOT / "schema" / "report.schema.json"
EXAMPLE = ROOT / "examples" / "mmlu-pro-sample.csv.gz"


@pytest.fixture(scope="module")
def validator() -> jsonschema.protocols.Validator:
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def _hand_built_report() -> Report:
    row = LeaderboardRow(
        rank=1,
        model_id="m|1",
        mean_score=0.7,
        mean_ci_lo=0.6,
        mean_ci_hi=0.8,
        win_rate=1.0,
        tasks_completed=5,
        tasks_total=5,
        complete=True,
        units=5,
        rank_lo=1,
        rank_hi=2,
        categories={"math": 0.7},
        category_intervals={"math": Interval(lo=0.6, hi=0.8)},
    )
    comparison = GateComparison(
        candidate="m|1",
        baseline="base",
        scope="overall",
        diff_mean=0.01,
        ci_lo=-0.02,
        ci_hi=0.04,
        confidence=0.95,
        margin=0.0,
        regressed=False,
        min_detectable_regression=0.05,
    )
    return Report(
        generator="leaderboard-action test",
        settings=ReportSettings(
            confidence=0.95, resamples=100, seed=0, margin=0.0, method="test", unit="task"
        ),
        data=DataSummary(
            records=10, models=2, tasks=5, categories=["math"], items=0, clusters=0
        ),
        leaderboard=[row],
        pairwise=[
            PairwiseDiff(
                model_a="m|1",
                model_b="base",
                diff_mean=0.01,
                ci_lo=-0.02,
                ci_hi=0.04,
                significant=False,
            )
        ],
        gate=Gate(
            baseline="base", regressed=False, family_size=1, comparisons=[comparison]
        ),
    )


def test_schema_file__matches_the_pydantic_model() -> None:
    expected = load_script("gen_schema").render_schema()
    assert SCHEMA_FILE.read_text(encoding="utf-8") == expected, (
        "schema/report.schema.json is stale: run python scripts/gen_schema.py"
    )


def test_gen_schema_check__exits_1_on_a_stale_file_and_0_on_a_current_one(
    tmp_path: Path,
) -> None:
    stale = tmp_path / "report.schema.json"
    stale_text = SCHEMA_FILE.read_text(encoding="utf-8").replace('"rank"', '"place"')
    stale.write_text(stale_text, encoding="utf-8")
    cmd = [sys.executable, str(SCRIPT), "--check", "--output"]
    assert (
        subprocess.run([*cmd, str(stale)], check=False, capture_output=True).returncode == 1
    )
    assert subprocess.run([*cmd, str(SCHEMA_FILE)], check=False).returncode == 0
    assert stale.read_text(encoding="utf-8") == stale_text, "--check must write nothing"


def test_schema__accepts_a_hand_built_report(
    validator: jsonschema.protocols.Validator,
) -> None:
    validator.validate(_hand_built_report().model_dump(mode="json"))


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("schema_version",), 2),
        (("leaderboard", 0, "mean_score"), "0.7"),
        (("gate", "comparisons", 0, "regressed"), "no"),
        (("settings", "unit"), "question"),
        (("leaderboard", 0, "surprise"), 1),
    ],
)
def test_schema__rejects_a_report_with_a_wrong_field(
    validator: jsonschema.protocols.Validator, path: tuple[str | int, ...], value: Any
) -> None:
    doc = copy.deepcopy(_hand_built_report().model_dump(mode="json"))
    target = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(jsonschema.ValidationError):
        validator.validate(doc)


def test_schema__accepts_the_json_report_the_command_line_writes(
    validator: jsonschema.protocols.Validator, tmp_path: Path
) -> None:
    out = tmp_path / "report.json"
    gate = ["--baseline", "Meta-Llama-3_1-8B-Instruct", "--candidate", "Meta-Llama-3_1-8B"]
    options = [*gate, "--resamples", "200", "--json", str(out)]
    proc = subprocess.run(
        [sys.executable, "-m", "leaderboard", "report", str(EXAMPLE), *options],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode in (0, 1), proc.stderr
    doc = json.loads(out.read_text(encoding="utf-8"))
    validator.validate(doc)
    assert len(doc["leaderboard"]) == 9
    assert [c["scope"] for c in doc["gate"]["comparisons"]] == ["overall"]


def test_schema__accepts_the_report_build_report_returns(
    validator: jsonschema.protocols.Validator,
) -> None:
    report = build_report(load_runs([str(EXAMPLE)]), resamples=200)
    validator.validate(json.loads(report.model_dump_json()))
