"""deepeval test runs: real files others committed (origins in the fixtures' README.md).

Every expected number is computed here from the file's JSON with the test's own few
lines (or written out by hand from it), never with the reader's helpers.
"""

from __future__ import annotations

import json
import math
import shutil
import warnings
from pathlib import Path
from typing import Any

import pytest

from leaderboard.cli import main
from leaderboard.errors import InputError
from leaderboard.inputs import EvalRun, load_runs, reading
from leaderboard.inputs.frameworks import FormatWarning, sniff
from leaderboard.inputs.load import load_runs_noting
from tests.inputs._framework_cases import cli_refusal, read_quiet

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "deepeval"
GEVAL = "正确率 [GEval]"
# Files whose cases all have a verdict (no metric errored or unscored).
WHOLE = {
    "cslt/.latest_test_run.json": 2,
    "day08/.latest_run_full.json": 1,
    "day08/.latest_test_run.json": 1,
    "beeai/.latest_test_run.json": 1,
    "weather/.latest_test_run.json": 2,
    "insightdocket/.latest_test_run.json": 1,
    "grounded/.latest_test_run.json": 1,
    "llmgeo/.temp_test_run_data.json": 1,
    "unhm-a/temp_test_run_data.json": 5,
    "unhm-b/temp_test_run_data.json": 1,
    "local-0.20/temp_test_run_data.json": 1,
    "fusion-run-a/.latest_test_run.json": 12,
}
# own-4.3.1 is our own deepeval run (its .deepeval/ folder, cache and all):
# tests/inputs/test_formats_deepeval_folder.py
ALL = sorted(
    p.relative_to(FIXTURES).as_posix()
    for p in FIXTURES.rglob("*.json")
    if "own-4.3.1" not in p.parts
)


def _raw(name: str) -> dict[str, Any]:
    data = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    return data.get("testRunData", data)


def _read(name: str, *metrics: str) -> list[EvalRun]:
    return read_quiet("deepeval", FIXTURES / name, *metrics)


def _one_line_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    return cli_refusal(capsys, *argv)


def test_fixtures__are_the_ones_the_readme_lists() -> None:
    readme = (FIXTURES / "README.md").read_text(encoding="utf-8")
    assert len(ALL) == 20
    for name in ALL:
        assert f"`{name}`" in readme, name


@pytest.mark.parametrize("name", ALL)
def test_sniff__every_real_file_is_deepeval(name: str) -> None:
    path = FIXTURES / name
    assert sniff(path, path.read_bytes()[:65536]) == "deepeval"


@pytest.mark.parametrize(("name", "cases"), sorted(WHOLE.items()))
def test_read__one_record_per_case_scored_as_the_files_success(
    name: str, cases: int
) -> None:
    raw = _raw(name)
    listed = raw.get("testCases", [])
    assert len(listed) == cases
    runs = _read(name)
    assert len(runs) == cases
    assert sorted(r.score for r in runs) == sorted(float(c["success"]) for c in listed)
    assert {r.metric_name for r in runs} == {"success"}
    assert {r.task_id for r in runs} == {"deepeval"}
    assert len({r.item_id for r in runs}) == cases


def test_read__pass_rate_agrees_with_deepevals_own_tally() -> None:
    # testPassed / testFailed: what deepeval printed as "Pass Rate".
    for name in ("cslt/.latest_test_run.json", "weather/.latest_test_run.json"):
        raw = _raw(name)
        runs = _read(name)
        assert sum(r.score for r in runs) == raw["testPassed"]
        assert len(runs) == raw["testPassed"] + raw["testFailed"]


def test_read__wrapped_latest_and_bare_full_file_give_the_same_records() -> None:
    assert _read("day08/.latest_test_run.json") == _read("day08/.latest_run_full.json")


def test_read__model_id_from_hyperparameters_else_the_default() -> None:
    assert {r.model_id for r in _read("unhm-b/temp_test_run_data.json")} == {
        _raw("unhm-b/temp_test_run_data.json")["hyperparameters"]["model"]
    }
    assert {r.model_id for r in _read("unhm-a/temp_test_run_data.json")} == {
        "your-model-name"
    }
    assert "hyperparameters" not in _raw("cslt/.latest_test_run.json")
    assert {r.model_id for r in _read("cslt/.latest_test_run.json")} == {"deepeval"}


def test_read__pytest_names_are_the_item_ids() -> None:
    names = [c["name"] for c in _raw("cslt/.latest_test_run.json")["testCases"]]
    assert sorted(r.item_id for r in _read("cslt/.latest_test_run.json")) == sorted(names)


def test_read__positional_default_names_become_a_hash_of_the_golden() -> None:
    a = {r.item_id for r in _read("fusion-run-a/.latest_test_run.json")}
    b = {r.item_id for r in _read("fusion-run-b/.latest_test_run.json")}
    assert all(str(i).startswith("#") for i in a | b)
    assert a == b  # the same twelve goldens, so the two runs pair


def test_read__a_case_evaluated_twice_is_two_samples_of_one_item() -> None:
    raw = _raw("fusion-run-b/.latest_test_run.json")["testCases"]
    names = [c["name"] for c in raw]
    twice = {n for n in names if names.count(n) == 2}
    assert len(raw) == 16
    assert len(twice) == 4
    runs = _read("fusion-run-b/.latest_test_run.json")
    assert len(runs) == 16
    assert sorted({r.sample for r in runs}) == [0, 1]
    assert len({r.item_id for r in runs}) == 12


def test_read__metric_chooses_that_metrics_scores() -> None:
    raw = _raw("cslt/.latest_test_run.json")["testCases"]
    want = "Analysis Evaluation [GEval]"
    expected = sorted(
        m["score"] for c in raw for m in c["metricsData"] if m["name"] == want
    )
    runs = _read("cslt/.latest_test_run.json", want)
    assert sorted(r.score for r in runs) == expected == [0.0, 0.5]
    assert {r.metric_name for r in runs} == {want}


def test_read__metric_naming_nothing_in_the_file_lists_what_it_holds() -> None:
    with pytest.raises(InputError) as caught:
        _read("cslt/.latest_test_run.json", "acc_norm")
    text = str(caught.value)
    assert "acc_norm" in text
    assert "success, Analysis Evaluation [GEval], Output Hallucination [GEval]" in text


def test_read__lower_is_better_metric_is_refused() -> None:
    with pytest.raises(InputError, match="lower-is-better"):
        _read("local-0.20/temp_test_run_data.json", "Hallucination")


def test_read__errored_metric_is_left_out_not_counted_as_zero() -> None:
    # beeai's temp file: Answer Relevancy timed out ("error", no score).
    raw = _raw("beeai/.temp_test_run_data.json")["testCases"][0]["metricsData"]
    errored = [m for m in raw if m.get("error")]
    assert {m["name"] for m in errored} >= {"Answer Relevancy"}
    assert all("score" not in m for m in errored)
    with pytest.raises(InputError, match="never counted as 0"):
        _read("beeai/.temp_test_run_data.json", "Answer Relevancy")
    (run,) = _read("beeai/.temp_test_run_data.json", "Tool Correctness")
    assert run.score == 0.5


def test_read__success_is_open_while_a_metric_errored_and_none_failed(
    tmp_path: Path,
) -> None:
    # insightdocket's temp file: its one metric errored, so the case has no verdict.
    raw = _raw("insightdocket/.temp_test_run_data.json")["testCases"]
    assert raw[0]["success"] is False
    assert raw[0]["metricsData"][0]["error"]
    with pytest.raises(InputError, match="errored or was not scored"):
        _read("insightdocket/.temp_test_run_data.json")
    # ... but a case where a scored metric failed outright fails, errors or not.
    (run,) = _read("beeai/.temp_test_run_data.json")
    assert run.score == 0.0


def test_read__left_out_cases_are_counted_in_a_warning(tmp_path: Path) -> None:
    both = tmp_path / "both"
    both.mkdir()
    shutil.copy(FIXTURES / "cslt/.latest_test_run.json", both / "a.json")
    data = json.loads((FIXTURES / "insightdocket/.temp_test_run_data.json").read_text())
    extra = json.loads((FIXTURES / "cslt/.latest_test_run.json").read_text())
    data["testCases"] += extra["testRunData"]["testCases"]
    (both / "b.json").write_text(json.dumps(data), encoding="utf-8")
    runs, notes = load_runs_noting([str(both / "b.json")])
    # insightdocket's case: its one metric errored, so it is an errored unit
    assert len(runs) == 3
    (errored,) = [r for r in runs if r.error is not None]
    assert math.isnan(errored.score)
    (note,) = [n for n in notes if "errored in success" in n]
    assert "1 of 3 test cases" in note
    assert "attempted, not scored" in note
    assert "test_insight_docket_rag_pipeline (Faithfulness)" in note


def test_read__unscored_temp_files_are_refused_naming_the_metric() -> None:
    for name in ("fms/.temp_test_run_data.json", "weather/.temp_test_run_data.json"):
        raw = _raw(name)["testCases"]
        assert all("score" not in m for c in raw for m in c["metricsData"])
        with pytest.raises(InputError, match="errored or was not scored"):
            _read(name)


def test_read__partly_scored_case_fails_on_its_failed_metric() -> None:
    raw = _raw("oan/.temp_test_run_data.json")["testCases"][0]["metricsData"]
    assert [("score" in m) for m in raw] == [True, True, False]
    assert any(m.get("success") is False and "score" in m for m in raw)
    (run,) = _read("oan/.temp_test_run_data.json")
    assert run.score == 0.0


def test_cli__link_only_file_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert set(json.loads((FIXTURES / "fms/.latest_test_run.json").read_text())) == {
        "testRunLink"
    }
    err = _one_line_exit_2(capsys, [str(FIXTURES / "fms/.latest_test_run.json")])
    assert "fms/.latest_test_run.json" in err
    assert "Confident AI's cloud, not in the file" in err
    assert "DEEPEVAL_RESULTS_FOLDER" in err
    assert ".latest_run_full.json" in err


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("task-0.20/temp_test_run_data.json", "holds no test cases"),
        ("insightdocket/.temp_test_run_data.json", "errored or was not scored"),
    ],
)
def test_cli__bad_real_files_exit_2_in_one_line(
    capsys: pytest.CaptureFixture[str], name: str, words: str
) -> None:
    assert words in _one_line_exit_2(capsys, [str(FIXTURES / name)])


def test_cli__unknown_metric_exits_2_listing_the_metrics(
    capsys: pytest.CaptureFixture[str],
) -> None:
    err = _one_line_exit_2(
        capsys, [str(FIXTURES / "cslt/.latest_test_run.json"), "--metric", "nope"]
    )
    assert "Output Hallucination [GEval]" in err


@pytest.mark.parametrize(
    "content",
    [
        b'{"testRunData": 3}',
        b'{"testRunData": {"testCases": "x"}}',
        b'{"testCases": [], "conversationalTestCases": []}',
        b'{"testRunData": {"testCases": [{"name": "t", "metricsData": [{"name": "M", '
        b'"score": 7, "success": true}]}]}}',
    ],
)
def test_cli__malformed_runs_exit_2_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes
) -> None:
    path = tmp_path / "run.json"
    path.write_bytes(content)
    argv = [str(path), "--format", "deepeval"]
    if b'"M"' in content:
        argv += ["--metric", "M"]
    assert str(path) in _one_line_exit_2(capsys, argv)


def test_read__is_bounded_by_the_shared_document_cap(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(reading, "MAX_DOCUMENT", 1000)
    with pytest.raises(InputError, match="holds more than 1,000 bytes"):
        _read("cslt/.latest_test_run.json")


def test_load__a_results_folder_file_without_extension_is_sniffed(tmp_path: Path) -> None:
    # deepeval 3.x wrote DEEPEVAL_RESULTS_FOLDER files named <YYYYMMDD_HHMMSS>, no .json.
    path = tmp_path / "20250704_101500"
    shutil.copy(FIXTURES / "day08/.latest_run_full.json", path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FormatWarning)
        assert load_runs([str(path)]) == _read("day08/.latest_run_full.json")


def _geval(name: str) -> dict[str, float]:
    return {
        c["input"]: m["score"]
        for c in _raw(name)["testCases"]
        for m in c["metricsData"]
        if m["name"] == GEVAL
    }


def test_cli__two_real_runs_pair_through_the_gate_on_a_metric(tmp_path: Path) -> None:
    a, b = (
        _geval("fusion-run-a/.latest_test_run.json"),
        _geval("fusion-run-b/.latest_test_run.json"),
    )
    assert a.keys() == b.keys()
    assert len(a) == 12
    expected = sum(b[k] - a[k] for k in a) / len(a)
    out = tmp_path / "report.json"
    argv = ["report", str(FIXTURES / "fusion-run-b/.latest_test_run.json")]
    argv += ["--baseline-results", str(FIXTURES / "fusion-run-a/.latest_test_run.json")]
    argv += ["--metric", GEVAL, "--resamples", "300", "--json", str(out)]
    assert main(argv) in (0, 1)
    report = json.loads(out.read_text(encoding="utf-8"))
    (comp,) = [
        c for c in report["gate"]["comparisons"] if c.get("measure", "score") == "score"
    ]
    assert (comp["candidate"], comp["baseline"]) == ("deepeval", "deepeval @ baseline")
    assert comp["shared_units"] == 12
    assert comp["diff_mean"] == pytest.approx(expected)


def test_cli__two_real_runs_pair_on_deepevals_pass_fail(tmp_path: Path) -> None:
    # Run b evaluated four goldens twice (GEval passed, the RAG metrics failed):
    # those items average 0.5; run a passed all twelve.
    raw = _raw("fusion-run-b/.latest_test_run.json")["testCases"]
    per_item: dict[str, list[float]] = {}
    for case in raw:
        per_item.setdefault(case["input"], []).append(float(case["success"]))
    b_mean = sum(sum(v) / len(v) for v in per_item.values()) / len(per_item)
    assert b_mean == pytest.approx(10 / 12)
    out = tmp_path / "report.json"
    argv = ["report", str(FIXTURES / "fusion-run-b/.latest_test_run.json")]
    argv += ["--baseline-results", str(FIXTURES / "fusion-run-a/.latest_test_run.json")]
    argv += ["--resamples", "300", "--json", str(out)]
    assert main(argv) in (0, 1)
    report = json.loads(out.read_text(encoding="utf-8"))
    (comp,) = report["gate"]["comparisons"]
    assert comp["shared_units"] == 12
    assert comp["diff_mean"] == pytest.approx(b_mean - 1.0)


def test_read__other_metrics_kept_as_secondary_metrics() -> None:
    """Every other scored metric beside the score (for guardrails), and `success`
    beside a chosen metric; a lower-is-better metric (Hallucination) never."""
    [case] = _raw("day08/.latest_test_run.json")["testCases"]
    scores = {m["name"]: m["score"] for m in case["metricsData"]}
    [run] = _read("day08/.latest_test_run.json")
    assert run.metric_name == "success"
    assert dict(run.metrics) == scores
    [chosen] = _read("day08/.latest_test_run.json", "Faithfulness")
    assert chosen.score == scores["Faithfulness"]
    assert dict(chosen.metrics) == {
        **{k: v for k, v in scores.items() if k != "Faithfulness"},
        "success": float(case["success"]),
    }
    [lower] = _read("local-0.20/temp_test_run_data.json")
    assert lower.metrics == ()
