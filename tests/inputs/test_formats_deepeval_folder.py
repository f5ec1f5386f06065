"""deepeval's ``.deepeval/`` folder as deepeval writes it, read as the one run it holds.

``own-4.3.1/json/.deepeval`` and ``own-4.3.1/sqlite/.deepeval`` are two real runs of
deepeval 4.3.1 (``tests/fixtures/deepeval/own-4.3.1/run.sh``: six test cases with a
deterministic metric, two of them failing), the second with
``DEEPEVAL_LOCAL_STORE=sqlite``; ``day08`` is a real folder someone committed (its
README). Expected numbers come from the files' JSON with this test's own lines.
"""

from __future__ import annotations

import json
import logging
import shutil
from pathlib import Path

import pytest

from leaderboard.cli import main
from leaderboard.errors import InputError
from leaderboard.inputs.load import load_runs_noting
from tests.inputs._framework_cases import cli_refusal, load_quiet

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "deepeval"
OWN = FIXTURES / "own-4.3.1"


def _passed(path: Path) -> dict[str, float]:
    data = json.loads(path.read_text(encoding="utf-8"))
    run = data.get("testRunData", data)
    return {case["name"]: float(case["success"]) for case in run["testCases"]}


def _reads_as_that_file_alone(folder: Path, name: str) -> None:
    """The folder reads as its file `name` alone, read once, with deepeval's own
    pass/fail per test case as the scores."""
    runs = load_quiet(str(folder))
    assert runs == load_quiet(str(folder / name))
    assert sorted(r.score for r in runs) == sorted(_passed(folder / name).values())


def test_own_run__the_folder_holds_what_deepeval_4_3_writes() -> None:
    names = {p.name for p in (OWN / "json" / ".deepeval").iterdir()}
    assert names == {
        ".deepeval-cache.json",
        ".latest_test_run.json",
        ".latest_run_full.json",
    }
    names = {p.name for p in (OWN / "sqlite" / ".deepeval").iterdir()}
    assert names == {".deepeval-cache.json", ".latest_test_run.json", "deepeval.db"}
    full = json.loads((OWN / "json/.deepeval/.latest_run_full.json").read_text())
    latest = json.loads((OWN / "json/.deepeval/.latest_test_run.json").read_text())
    assert latest["testRunData"] == full  # the same run, written twice


def test_folder__reads_as_one_run_cache_skipped_said_in_the_log(
    caplog: pytest.LogCaptureFixture,
) -> None:
    folder = OWN / "json" / ".deepeval"
    with caplog.at_level(logging.INFO, logger="leaderboard.inputs"):
        runs, notes = load_runs_noting([str(folder)])
    expected = _passed(folder / ".latest_run_full.json")
    assert len(expected) == 6
    assert sum(expected.values()) == 4
    assert {r.item_id: r.score for r in runs} == expected
    assert {(r.model_id, r.task_id, r.metric_name) for r in runs} == {
        ("deepeval", "deepeval", "success")
    }
    assert notes == []  # nothing for the comment: this is how deepeval writes a folder
    log = "\n".join(r.getMessage() for r in caplog.records)
    assert "left out" in log
    assert ".deepeval-cache.json: deepeval's metric cache" in log
    assert ".latest_test_run.json: the same run as" in log
    # the default's choice (success, ExactMatch kept for guardrails): once, in the log
    assert log.count("one score per test case") == 1


def test_folder__a_glob_over_it_reads_the_same_run() -> None:
    folder = OWN / "json" / ".deepeval"
    by_glob = load_quiet(str(folder / "*.json"))
    assert by_glob == load_quiet(str(folder))


def test_folder__sqlite_store_reads_its_latest_test_run() -> None:
    folder = OWN / "sqlite" / ".deepeval"
    _reads_as_that_file_alone(folder, ".latest_test_run.json")


def test_named__deepeval_db_is_refused_with_the_fix(
    capsys: pytest.CaptureFixture[str],
) -> None:
    db = OWN / "sqlite" / ".deepeval" / "deepeval.db"
    assert db.read_bytes()[:16] == b"SQLite format 3\x00"
    err = cli_refusal(capsys, str(db))
    assert "deepeval.db: is an SQLite database" in err
    assert "DEEPEVAL_LOCAL_STORE=sqlite" in err
    assert ".deepeval/.latest_test_run.json" in err  # the fix names the file to give


def test_named__the_cache_is_refused_naming_the_run_files(
    capsys: pytest.CaptureFixture[str],
) -> None:
    err = cli_refusal(capsys, str(OWN / "json" / ".deepeval" / ".deepeval-cache.json"))
    assert "metric cache, not a test run" in err
    assert ".latest_run_full.json" in err


def test_public_folder__latest_and_full_of_one_run_read_once(tmp_path: Path) -> None:
    folder = tmp_path / ".deepeval"
    shutil.copytree(FIXTURES / "day08", folder)
    _reads_as_that_file_alone(folder, ".latest_run_full.json")


def test_folder__two_different_runs_in_the_two_files_are_refused(tmp_path: Path) -> None:
    folder = tmp_path / ".deepeval"
    folder.mkdir()
    shutil.copy(FIXTURES / "day08" / ".latest_run_full.json", folder)
    shutil.copy(FIXTURES / "cslt" / ".latest_test_run.json", folder)
    with pytest.raises(InputError, match="hold two different deepeval runs") as caught:
        load_quiet(str(folder))
    assert "give the one file you mean" in str(caught.value)


def test_folder__link_only_latest_beside_the_full_file_reads_the_full_one(
    tmp_path: Path,
) -> None:
    folder = tmp_path / ".deepeval"
    folder.mkdir()
    shutil.copy(FIXTURES / "day08" / ".latest_run_full.json", folder)
    shutil.copy(FIXTURES / "fms" / ".latest_test_run.json", folder)  # testRunLink only
    _reads_as_that_file_alone(folder, ".latest_run_full.json")


def test_folder__a_leftover_temp_file_beside_a_finished_run_is_left_out(
    tmp_path: Path,
) -> None:
    folder = tmp_path / ".deepeval"
    shutil.copytree(FIXTURES / "beeai", folder)  # .latest_test_run.json + temp file
    _reads_as_that_file_alone(folder, ".latest_test_run.json")


def test_cli__two_deepeval_folders_gate_with_no_warning_in_the_comment(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "report.json"
    argv = ["report", str(OWN / "json" / ".deepeval"), "--json", str(out)]
    argv += ["--baseline-results", str(OWN / "sqlite" / ".deepeval")]
    code = main(argv)
    comment = capsys.readouterr().out
    assert code == 0
    report = json.loads(out.read_text())
    (comp,) = [c for c in report["gate"]["comparisons"] if c["measure"] == "score"]
    assert comp["candidate"] == "deepeval"
    assert comp["diff_mean"] == 0.0  # the same six verdicts in both runs
    assert report["warnings"] == []
    assert "one score per" not in comment
    assert "cache" not in comment
