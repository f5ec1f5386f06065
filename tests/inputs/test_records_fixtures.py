"""The hostile-input corpus (tests/fixtures/bad, good) through the command line.

Every bad case: exit 2, nothing on stdout, exactly one line on stderr that starts with
``leaderboard: error:``, names the file, the line or record, the field and a fix (the
fragments in bad/EXPECTED.json), and no traceback. Every good file loads.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from leaderboard.cli import main
from leaderboard.errors import LeaderboardError
from leaderboard.inputs import EvalRun, load_runs
from tests.fixtures import make_fixtures

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
BAD = FIXTURES / "bad"
GOOD = FIXTURES / "good"
EXPECTED: dict[str, dict[str, list[str]]] = json.loads(
    (BAD / "EXPECTED.json").read_text(encoding="utf-8")
)
FILE_CASES = [name for name, case in EXPECTED.items() if case["args"][0] == name]
# A handful run through a real interpreter too: stdin/stdout/stderr as a user sees them.
SUBPROCESS_CASES = [
    "score_above_one.jsonl",
    "binary_noise.jsonl",
    "gz_truncated.jsonl.gz",
    "duplicate_across_a.jsonl",
    "csv_invalid_utf8.csv",
    "model_id_newline.jsonl",
    "glob_matching_nothing",
    "baseline_missing",
    "format_unknown",
]


def _check_message(err: str, fragments: list[str]) -> None:
    assert err.endswith("\n")
    assert err.count("\n") == 1, err
    assert err.startswith("leaderboard: error: "), err
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in err, f"{fragment!r} not in {err!r}"


def test_corpus__is_large_enough() -> None:
    assert len(EXPECTED) >= 40
    assert len(list(GOOD.iterdir())) >= 10


def test_corpus__matches_its_generator(tmp_path: Path) -> None:
    make_fixtures.write(tmp_path)
    for directory in ("bad", "good"):
        made = {
            p.relative_to(tmp_path / directory) for p in (tmp_path / directory).rglob("*")
        }
        kept = {
            p.relative_to(FIXTURES / directory) for p in (FIXTURES / directory).rglob("*")
        }
        assert made == kept, f"run tests/fixtures/make_fixtures.py ({directory})"
        for rel in made:
            if (tmp_path / directory / rel).is_file():
                assert (tmp_path / directory / rel).read_bytes() == (
                    FIXTURES / directory / rel
                ).read_bytes(), rel


def test_corpus__every_bad_file_is_a_case() -> None:
    used = {arg for case in EXPECTED.values() for arg in case["args"]}
    for path in BAD.iterdir():
        if path.name != "EXPECTED.json":
            assert path.name in used, path.name


@pytest.mark.parametrize("name", list(EXPECTED))
def test_bad_input__exit_2_with_one_line(
    name: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(BAD)
    status = main(["report", *EXPECTED[name]["args"]])
    out, err = capsys.readouterr()
    assert status == 2
    assert out == ""
    _check_message(err, EXPECTED[name]["contains"])


@pytest.mark.parametrize("name", FILE_CASES)
def test_bad_input__load_runs_raises_leaderboard_error(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(BAD)
    files = [a for a in EXPECTED[name]["args"] if not a.startswith("--")]
    with pytest.raises(LeaderboardError) as info:
        load_runs(files)
    assert "\n" not in str(info.value)
    assert name in str(info.value)


@pytest.mark.parametrize("name", SUBPROCESS_CASES)
def test_bad_input__real_process(name: str) -> None:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    proc = subprocess.run(
        [sys.executable, "-m", "leaderboard", "report", *EXPECTED[name]["args"]],
        cwd=BAD,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == ""
    _check_message(proc.stderr, EXPECTED[name]["contains"])


def test_bad_input__file_order_does_not_change_the_verdict(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(BAD)
    pair = ["duplicate_across_a.jsonl", "duplicate_across_b.csv"]
    for files in (pair, pair[::-1]):
        with pytest.raises(
            LeaderboardError, match="duplicate record for model 'm1', task 't3'"
        ):
            load_runs(files)


# ------------------------------------------------------------------------- good files


def _load(name: str) -> list[EvalRun]:
    return load_runs(GOOD / name)


@pytest.mark.parametrize("name", sorted(p.name for p in GOOD.iterdir()))
def test_good_input__loads(name: str) -> None:
    runs = _load(name)
    assert runs
    assert runs == sorted(
        runs,
        key=lambda r: (
            r.model_id,
            r.task_id,
            r.item_id or "",
            -1 if r.sample is None else r.sample,
        ),
    )


def test_good_input__bom_crlf_and_blank_lines_read_as_plain() -> None:
    plain = _load("records.ndjson")
    assert _load("bom.jsonl") == plain
    assert _load("crlf_blank_lines.jsonl") == plain
    assert _load("gzip_without_gz_suffix.jsonl") == plain
    assert _load("no_extension") == plain
    assert [(r.model_id, r.score) for r in _load("bom_crlf.csv")] == [
        ("m1", 0.5),
        ("m2", 1.0),
    ]


def test_good_input__booleans_are_zero_and_one() -> None:
    assert [r.score for r in _load("booleans.jsonl")] == [1.0, 0.0]
    assert [(r.model_id, r.task_id, r.score) for r in _load("booleans.csv")] == [
        ("m1", "t1", 1.0),
        ("m1", "t2", 1.0),
        ("m2", "t1", 0.0),
        ("m2", "t2", 0.0),
    ]
    assert all(type(r.score) is float for r in _load("booleans.csv"))


def test_good_input__unicode_ids_survive_exactly() -> None:
    models = {r.model_id for r in _load("unicode_ids.jsonl")}
    assert models == {"模型-\u03b1", "👩\u200d🔬 model", "e\u0301clair"}


def test_good_input__huge_ids_are_kept_as_exact_strings() -> None:
    items = {r.item_id for r in _load("huge_ids.jsonl")}
    assert items == {str(2**200), "x" * 5000, "9" * 4500}
    assert {r.cluster for r in _load("huge_ids.jsonl")} == {str(-(2**70)), None}


def test_good_input__items_csv_gz_keeps_item_text_and_samples() -> None:
    runs = _load("items.csv.gz")
    assert [(r.item_id, r.sample, r.cluster) for r in runs] == [
        ("003", None, "c2"),
        ("1", 0, "c1"),
        ("1", 1, "c1"),
        ("2", None, "c1"),
    ]


def test_good_input__json_documents() -> None:
    plain = [EvalRun("m1", "t2", 0.5)]
    assert _load("object_records.json") == plain
    assert _load("object_runs.json") == plain
    assert _load("array_bom.json") == plain


def test_good_input__unknown_fields_are_ignored() -> None:
    runs = _load("extra_fields.jsonl")
    assert [(r.model_id, r.task_id, r.category, r.weight) for r in runs] == [
        ("m1", "t2", "general", 1.0),
        ("m1", "t3", "general", 1.0),
    ]


def test_good_input__csv_quoting_and_number_forms() -> None:
    (run,) = _load("quoted_commas.csv")
    assert (run.model_id, run.task_id, run.metric_name) == ("m,1", 't "quoted"', None)
    assert [(r.score, r.weight) for r in _load("numbers.csv")] == [
        (0.1, 2.0),
        (0.5, 2.5),
        (0.0, 100.0),
    ]
