"""What a new user of promptfoo, deepeval or SWE-bench reads first (issue 32), on real
files in tests/fixtures: every format in the unknown-file hint, the default's metric
choice in the log and not among the warnings, SWE-bench's model ids as the harness was
given them, counts with their plural right, repeats named in each framework's words.
"""

from __future__ import annotations

import json
import logging
import shutil
from pathlib import Path

import pytest

from leaderboard.cli import main
from leaderboard.inputs.frameworks import FRAMEWORK_FORMATS
from leaderboard.inputs.load import load_runs_noting
from leaderboard.inputs.sources import FORMATS
from tests.inputs._framework_cases import cli_refusal, load_quiet

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
PROMPTFOO = FIXTURES / "promptfoo"
SWEBENCH = FIXTURES / "swebench"


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("object.json", '{"a": 1}'),  # JSON, but no records and no framework's
        ("notes.txt", "zzz\n"),  # no format at all
    ],
)
def test_unknown_file__the_hint_names_every_format_the_input_takes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, content: str
) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    err = cli_refusal(capsys, str(path))
    fix = err[err.index("set `format`") :]
    assert set(FRAMEWORK_FORMATS) == set(FORMATS) - {"auto", "records"}
    for fmt in FRAMEWORK_FORMATS:
        assert fmt in fix, fmt
    assert "inspect|lm-eval" not in err


def test_promptfoo__the_defaults_choice_is_one_log_line_for_all_files(
    caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    # two real runs of different models, the same choice (the assertion score left out)
    names = ("baseline.json", "results.json")
    shutil.copy(PROMPTFOO / "guardrails-0.121.20" / names[0], tmp_path)
    shutil.copy(PROMPTFOO / "own-run-0.121.20" / names[1], tmp_path)
    with caplog.at_level(logging.INFO, logger="leaderboard.inputs"):
        runs, notes = load_runs_noting([str(tmp_path / n) for n in names])
    assert len({r.model_id for r in runs}) == 3
    said = [r.getMessage() for r in caplog.records if "one score per task" in r.message]
    assert len(said) == 1, said  # said once, the files together
    assert all(name in said[0] for name in names)
    assert not [n for n in notes if "one score per task" in n]  # not for the comment


def test_promptfoo_repeat__told_in_promptfoos_words(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    run = PROMPTFOO / "own-run-0.121.20"
    out = tmp_path / "report.json"
    code = main(
        [
            "report",
            str(run / "results_repeat2.jsonl"),
            "--baseline-results",
            str(run / "results.jsonl"),
            "--json",
            str(out),
        ]
    )
    capsys.readouterr()
    assert code in (0, 1)
    (said,) = [
        d for d in json.loads(out.read_text())["gate"]["differences"] if "per item" in d
    ]
    assert "run 2 times per item" in said
    assert "1 time in the baseline run" in said
    assert "promptfoo's repeat count" in said
    assert "(samples, Inspect's epochs)" not in said


def _trimmed_run_report(tmp_path: Path, name: str, errored: int) -> Path:
    """batch25-v2's real run report under another file name, `errored` error ids kept
    (a derived sample: SWE-bench names the file ``<model with / as __>.<run_id>.json``)."""
    real = (
        SWEBENCH / "batch25-v2" / "opencode-qwen3.5-35B-A3B-tdad.eval_20260312_065239.json"
    )
    data = json.loads(real.read_text(encoding="utf-8"))
    data["error_ids"] = data["error_ids"][:errored]
    data["error_instances"] = errored
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_swebench__the_model_id_is_given_back_as_the_harness_had_it(tmp_path: Path) -> None:
    path = _trimmed_run_report(tmp_path, "acme__agent.eval_20260312_065239.json", 2)
    assert {r.model_id for r in load_quiet(str(path))} == {"acme/agent"}


def test_swebench__a_per_instance_report_under_the_model_folder_too(tmp_path: Path) -> None:
    real = SWEBENCH / "batch25" / "logs" / "run_evaluation" / "eval_20260311_034331"
    instance = "django__django-10973"
    src = real / "opencode-qwen3.5-35B-A3B-baseline" / instance / "report.json"
    dest = tmp_path / "logs" / "run_evaluation" / "run1" / "acme__agent" / instance
    dest.mkdir(parents=True)
    shutil.copy(src, dest / "report.json")
    runs = load_quiet(str(dest / "report.json"))
    assert {(r.model_id, r.item_id) for r in runs} == {("acme/agent", instance)}


def test_swebench__one_instance_is_one_instance(tmp_path: Path) -> None:
    path = _trimmed_run_report(tmp_path, "acme__agent.eval_20260312_065239.json", 1)
    _, notes = load_runs_noting([str(path)])
    text = "\n".join(notes)
    assert "1 instance errored in the harness" in text
    assert "1 instances" not in text
