"""SWE-bench reports: real run reports and per-instance reports (tests/fixtures/swebench/).

Expected numbers come from the files' own id lists, counted here, or were read in the
files by hand (said where). The 2.0.0 and 5.x key sets have no public copy the search
found; they are built below from the key lists in SWE-bench's source (named in the
fixtures' README).
"""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path
from typing import Any

import pytest

from leaderboard.cli import main
from leaderboard.errors import InputError
from leaderboard.inputs import EvalRun, load_runs, reading
from leaderboard.inputs.frameworks import sniff
from leaderboard.inputs.load import load_runs_noting
from tests.inputs._framework_cases import cli_refusal, read_quiet

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "swebench"
RUN_REPORTS = {
    "vanilla-a/vanilla.eval.json": "vanilla",
    "vanilla-b/vanilla.eval.json": "vanilla",
    "exp011/baseline.eval.json": "baseline",
    "batch25/opencode-qwen3.5-35B-A3B-baseline.eval_20260311_034331.json": (
        "opencode-qwen3.5-35B-A3B-baseline"
    ),
    "batch25-v2/opencode-qwen3.5-35B-A3B-tdad.eval_20260312_065239.json": (
        "opencode-qwen3.5-35B-A3B-tdad"
    ),
}
LOGS = "batch25/logs/run_evaluation/eval_20260311_034331/opencode-qwen3.5-35B-A3B-baseline"
INSTANCES = sorted(
    p.relative_to(FIXTURES).as_posix()
    for p in (
        *FIXTURES.glob(f"{LOGS}/*/report.json"),
        *FIXTURES.glob("*/logs/*/report.json"),
    )
)
_GLOBS = (
    "sb-cli-*/*/*.json",
    "multi-omnicode/*/*.json",
    "yyloong-*/*.json",
    "devstral-c50-*/*.json",
)
OTHER_REPORTS = [
    *sorted(p.relative_to(FIXTURES).as_posix() for g in _GLOBS for p in FIXTURES.glob(g)),
    "rust-bench/claude-3_5.json",
    "rohan-2.1/gold.validate-gold.json",
]
SB_CLI = "sb-cli-{}/sb-cli-reports/swe-bench_lite__test__{}.json"


def _raw(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    return data


def _read(path: Path, *metrics: str) -> list[EvalRun]:
    return read_quiet("swe-bench", path, *metrics)


def _write(tmp_path: Path, name: str, data: Any) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data, indent=4), encoding="utf-8")
    return path


def _one_line_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    return cli_refusal(capsys, *argv)


def test_fixtures__are_the_ones_the_readme_lists() -> None:
    readme = (FIXTURES / "README.md").read_text(encoding="utf-8")
    names = sorted(p.relative_to(FIXTURES).as_posix() for p in FIXTURES.rglob("*.json"))
    assert len(names) == 21
    for name in names:
        assert f"`{name}`" in readme, name


@pytest.mark.parametrize("name", sorted(RUN_REPORTS) + INSTANCES + OTHER_REPORTS)
def test_sniff__every_real_report_is_swe_bench(name: str) -> None:
    path = FIXTURES / name
    assert sniff(path, path.read_bytes()[:65536]) == "swe-bench"


@pytest.mark.parametrize(("name", "model"), sorted(RUN_REPORTS.items()))
def test_read__run_report_scores_resolved_unresolved_and_empty(
    name: str, model: str
) -> None:
    raw = _raw(name)
    runs = _read(FIXTURES / name)
    zero = set(raw["unresolved_ids"]) | set(raw["empty_patch_ids"])
    scored = [r for r in runs if r.error is None]
    assert len(scored) == len(raw["resolved_ids"]) + len(zero)
    assert {r.item_id for r in runs if r.score == 1.0} == set(raw["resolved_ids"])
    assert {r.item_id for r in runs if r.score == 0.0} == zero
    # errored instances arrive as errored units: attempted, no score (CONTRACT 13)
    errored = [r for r in runs if r.error is not None]
    assert {r.item_id for r in errored} == set(raw["error_ids"])
    assert all(math.isnan(r.score) for r in errored)
    assert {(r.model_id, r.task_id, r.metric_name) for r in runs} == {
        (model, "swe-bench", "resolved")
    }


def test_read__errored_instances_arrive_as_errored_and_are_counted() -> None:
    name = "batch25/opencode-qwen3.5-35B-A3B-baseline.eval_20260311_034331.json"
    raw = _raw(name)
    assert len(raw["error_ids"]) == 3
    runs, notes = load_runs_noting([str(FIXTURES / name)])
    assert len(runs) == raw["submitted_instances"] == 25
    errored = sorted(str(r.item_id) for r in runs if r.error is not None)
    assert errored == ["psf__requests-1724", "psf__requests-1766", "psf__requests-2317"]
    assert {r.error for r in runs if r.error is not None} == {
        "errored in the SWE-bench harness"
    }
    (note,) = [n for n in notes if "attempted, not scored" in n]
    assert note.endswith(
        "3 instances errored in the harness (not a failed patch): attempted, not "
        "scored; the score compares only instances scored in both runs, and the "
        "completion comparison counts these"
    )
    (denominator,) = [n for n in notes if "instances scored (" in n]
    assert (
        "22 instances scored (6 resolved) of 25 submitted and 500 in the run's "
        "instances (`total_instances`)"
    ) in denominator
    assert "6/500 = 1.2%" in denominator
    assert "475 instances were not run (incomplete)" in denominator


def test_read__filtered_run_states_submitted_against_total() -> None:
    raw = _raw("exp011/baseline.eval.json")
    assert (raw["submitted_instances"], raw["total_instances"]) == (100, 500)
    runs, notes = load_runs_noting([str(FIXTURES / "exp011/baseline.eval.json")])
    assert len(runs) == 100
    assert sum(r.score for r in runs) == len(raw["resolved_ids"]) == 9
    assert any(
        "100 instances scored (9 resolved) of 100 submitted and 500 in" in n for n in notes
    )


def test_read__per_instance_reports_take_the_model_from_their_folder() -> None:
    runs = load_runs([str(FIXTURES / LOGS / "*" / "report.json")])
    expected = {
        i: _raw(f"{LOGS}/{i}/report.json")[i]["resolved"]
        for i in ("django__django-10973", "pylint-dev__pylint-4970", "psf__requests-1142")
    }
    assert {r.item_id: bool(r.score) for r in runs} == expected
    assert {r.model_id for r in runs} == {"opencode-qwen3.5-35B-A3B-baseline"}
    # ... and they agree with the run report of the same run.
    report = _read(
        FIXTURES / "batch25/opencode-qwen3.5-35B-A3B-baseline.eval_20260311_034331.json"
    )
    by_id = {r.item_id: r.score for r in report}
    assert all(by_id[r.item_id] == r.score for r in runs)


def test_read__a_moved_instance_report_gets_the_default_model(tmp_path: Path) -> None:
    shutil.copy(
        FIXTURES / LOGS / "psf__requests-1142" / "report.json", tmp_path / "report.json"
    )
    (run,) = _read(tmp_path / "report.json")
    assert (run.model_id, run.item_id, run.score) == ("agent", "psf__requests-1142", 1.0)


def test_read__swebench_2_0_report_without_submitted_or_empty_lists(tmp_path: Path) -> None:
    # swebench/harness/run_evaluation.py make_run_report at v2.0.0: these keys only.
    data = {
        "total_instances": 4,
        "completed_instances": 3,
        "resolved_instances": 1,
        "unresolved_instances": 2,
        "error_instances": 1,
        "unstopped_instances": 0,
        "completed_ids": ["a__a-1", "a__a-2", "b__b-3"],
        "resolved_ids": ["a__a-1"],
        "unresolved_ids": ["a__a-2", "b__b-3"],
        "error_ids": ["b__b-4"],
        "unstopped_containers": [],
        "unremoved_images": [],
    }
    path = _write(tmp_path, "gpt-4.1.run-7.json", data)
    assert sniff(path, path.read_bytes()) == "swe-bench"
    runs = _read(path)
    assert sorted((r.item_id, r.score) for r in runs if r.error is None) == [
        ("a__a-1", 1.0),
        ("a__a-2", 0.0),
        ("b__b-3", 0.0),
    ]
    assert [r.item_id for r in runs if r.error is not None] == ["b__b-4"]
    assert {r.model_id for r in runs} == {"gpt-4.1"}


def test_read__swebench_5_infra_failures_stay_as_the_harness_counts_them(
    tmp_path: Path,
) -> None:
    # reporting.py at 7a21e05: infra_failure_ids are a subset of unresolved/error ids.
    data = {
        "total_instances": 3,
        "submitted_instances": 3,
        "resolved_ids": ["x__y-1"],
        "unresolved_ids": ["x__y-2"],
        "empty_patch_ids": [],
        "error_ids": ["x__y-3"],
        "submitted_ids": ["x__y-1", "x__y-2", "x__y-3"],
        "infra_failure_ids": ["x__y-2"],
        "ambiguous_failure_ids": [],
        "failure_reasons": {"x__y-2": "docker"},
        "schema_version": 2,
    }
    runs = _read(_write(tmp_path, "m.r.json", data))
    scored = sorted((r.item_id, r.score) for r in runs if r.error is None)
    assert scored == [("x__y-1", 1.0), ("x__y-2", 0.0)]
    assert [r.item_id for r in runs if r.error is not None] == ["x__y-3"]


def test_cli__two_real_runs_of_one_agent_pair_through_the_gate(tmp_path: Path) -> None:
    a, b = _raw("vanilla-a/vanilla.eval.json"), _raw("vanilla-b/vanilla.eval.json")
    assert set(a["submitted_ids"]) == set(b["submitted_ids"])
    # Run b: 13398 and 14096 have empty patches (0); a and b resolve 2 and 3 of 10.
    expected = (len(b["resolved_ids"]) - len(a["resolved_ids"])) / 10
    assert expected == pytest.approx(0.1)
    out = tmp_path / "report.json"
    argv = ["report", str(FIXTURES / "vanilla-b/vanilla.eval.json"), "--baseline-results"]
    argv += [str(FIXTURES / "vanilla-a/vanilla.eval.json"), "--baseline-label", "main"]
    assert main([*argv, "--resamples", "300", "--json", str(out)]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    (comp,) = report["gate"]["comparisons"]
    assert (comp["candidate"], comp["baseline"]) == ("vanilla", "vanilla @ main")
    assert comp["shared_units"] == 10
    assert comp["diff_mean"] == pytest.approx(expected)
    assert not comp["regressed"]


def test_read__two_systems_on_the_same_instances_share_the_scored_ones() -> None:
    # The score pairs on the units both runs scored: instances errored in either are
    # errored units, which only the completion comparison counts.
    names = (
        "batch25/opencode-qwen3.5-35B-A3B-baseline.eval_20260311_034331.json",
        "batch25-v2/opencode-qwen3.5-35B-A3B-tdad.eval_20260312_065239.json",
    )
    a, b = (_raw(n) for n in names)
    assert a["submitted_ids"] == b["submitted_ids"]
    errored = set(a["error_ids"]) | set(b["error_ids"])
    shared = set(a["submitted_ids"]) - errored
    ra, rb = (_read(FIXTURES / n) for n in names)
    scored_a = {r.item_id for r in ra if r.error is None}
    assert scored_a & {r.item_id for r in rb if r.error is None} == shared
    assert {r.item_id for r in ra} == {r.item_id for r in rb} == set(a["submitted_ids"])
    assert len(shared) == 22  # 25 submitted, 3 errored in one run or both


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (
            {"total_instances": 1, "resolved_ids": ["a"], "unresolved_ids": ["a"]},
            "as resolved and",
        ),
        ({"total_instances": 2, "resolved_instances": 1}, "counts only"),
        ({"total_instances": 1, "resolved_ids": "a"}, "not a list"),
        (
            {"total_instances": 1, "resolved_ids": [], "error_ids": ["a"]},
            "scores no instance",
        ),
        ({"django__django-1": {"patch_exists": True}}, "no boolean `resolved`"),
    ],
)
def test_cli__bad_reports_exit_2_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], data: Any, words: str
) -> None:
    path = _write(tmp_path, "m.run.json", data)
    err = _one_line_exit_2(capsys, [str(path), "--format", "swe-bench"])
    assert str(path) in err
    assert words in err


def test_cli__a_metric_other_than_resolved_exits_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = FIXTURES / "vanilla-a/vanilla.eval.json"
    err = _one_line_exit_2(capsys, [str(path), "--metric", "pass@1"])
    assert "it holds resolved" in err
    assert len(_read(path, "resolved")) == 10


def test_read__sb_cli_reports_name_the_subset_as_the_task() -> None:
    # Read by hand: ten SWE-bench Lite instances each, one resolved (django-16139) by
    # the first run, none by the second; 290 of the subset's 300 not submitted.
    sonnet = _read(FIXTURES / SB_CLI.format("sonnet", "sonnet_20250919_120804"))
    groq = _read(FIXTURES / SB_CLI.format("groq", "groq-llama_20250922_005334"))
    for runs in (sonnet, groq):
        assert len(runs) == 10
        assert {(r.model_id, r.task_id) for r in runs} == {("agent", "swe-bench_lite")}
    assert [r.item_id for r in sonnet if r.score == 1.0] == ["django__django-16139"]
    assert sum(r.score for r in groq) == 0.0
    _, notes = load_runs_noting(
        [str(FIXTURES / SB_CLI.format("sonnet", "sonnet_20250919_120804"))]
    )
    assert any("of 10 submitted and 300 in the run's instances" in n for n in notes)
    assert any("290 instances were not run (incomplete)" in n for n in notes)


def test_cli__an_sb_cli_report_whose_runs_all_failed_is_refused_with_the_count(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # sb-cli's hosted evaluator finished none of the three (completed 0, failed 3):
    # no instance has a score, and none is counted as a failed patch.
    path = (
        FIXTURES / "sb-cli-failed/sb-cli-reports/swe-bench_verified__test__smoke_run10.json"
    )
    raw = _raw(path.relative_to(FIXTURES).as_posix())
    assert (raw["completed_instances"], len(raw["failed_ids"])) == (0, 3)
    err = _one_line_exit_2(capsys, [str(path)])
    assert "scores no instance" in err
    assert "3 failed to evaluate" in err


def test_read__multi_swe_bench_final_reports_of_two_runs_on_one_instance() -> None:
    # Read by hand: the same instance, resolved in one run and unresolved in the other.
    (a,) = _read(FIXTURES / "multi-omnicode/run_mswe_java_stylereview/final_report.json")
    (b,) = _read(FIXTURES / "multi-omnicode/run_test_0_1_2/final_report.json")
    assert (a.item_id, a.score) == ("mockito/mockito:pr-3424", 1.0)
    assert (b.item_id, b.score) == ("mockito/mockito:pr-3424", 0.0)
    assert {a.task_id, b.task_id} == {"multi-swe-bench"}


def test_read__results_json_with_a_resolved_list_and_merged_empty_or_error_ids() -> None:
    # Multi-SWE-bench leaderboard shape (here from a Rust fork): `resolved`, not
    # `resolved_ids`; empty and errored patches in one list, so neither is scored 0.
    raw = _raw("rust-bench/claude-3_5.json")
    assert (len(raw["resolved"]), len(raw["unresolved_ids"])) == (29, 179)
    runs, notes = load_runs_noting([str(FIXTURES / "rust-bench/claude-3_5.json")])
    assert len(runs) == 29 + 179
    assert {r.item_id for r in runs if r.score == 1.0} == set(raw["resolved"])
    assert not {r.item_id for r in runs} & set(raw["empty_error_patch_ids"])
    assert any(
        n.split(": ", 1)[1].startswith(
            "31 instances left out, with an empty or errored patch (the report does "
            "not say which)"
        )
        for n in notes
    )


def test_read__a_run_that_mostly_errored_scores_only_what_was_evaluated() -> None:
    # SWE-bench 2.0.x-2.1 key set (unstopped_instances after error_instances): the
    # gold patches of 300 Lite instances, 296 of which the harness could not run.
    runs, notes = load_runs_noting([str(FIXTURES / "rohan-2.1/gold.validate-gold.json")])
    scored = [r for r in runs if r.error is None]
    assert sorted(r.item_id for r in scored) == [
        "astropy__astropy-14182",
        "astropy__astropy-14365",
        "sphinx-doc__sphinx-10325",
        "sympy__sympy-20590",
    ]
    assert {(r.model_id, r.score) for r in scored} == {("gold", 1.0)}
    assert sum(r.error is not None for r in runs) == 296
    assert any("296 instances errored in the harness" in n for n in notes)


def test_read__a_per_instance_report_without_its_id_takes_it_from_the_folder() -> None:
    # SWE-bench's published evaluation logs: logs/<instance>/report.json holds the
    # entry itself, not {instance: entry}. Read by hand: 12907 resolved, 13033 not.
    runs = _read(FIXTURES / "mini-swe-agent/logs/astropy__astropy-12907/report.json")
    runs += _read(FIXTURES / "mini-swe-agent/logs/astropy__astropy-13033/report.json")
    assert [(r.model_id, r.item_id, r.score) for r in runs] == [
        ("agent", "astropy__astropy-12907", 1.0),
        ("agent", "astropy__astropy-13033", 0.0),
    ]


def test_cli__two_real_runs_of_one_agent_with_errors_pair_on_the_scored_instances(
    tmp_path: Path,
) -> None:
    # Two harness runs of one agent on the same 100 instances (68 and 34 errored);
    # read by hand: 21 are scored in both, run 1 resolves 10 of them, run 2 resolves 7.
    a, b = (
        _raw("yyloong-1/qwen3-coder-flash-1.json"),
        _raw("yyloong-2/qwen3-coder-flash-2.json"),
    )
    assert a["submitted_ids"] == b["submitted_ids"]
    out = tmp_path / "report.json"
    argv = ["report", str(FIXTURES / "yyloong-2/qwen3-coder-flash-2.json")]
    argv += ["--baseline-results", str(FIXTURES / "yyloong-1/qwen3-coder-flash-1.json")]
    argv += ["--baseline-label", "run1", "--resamples", "300", "--json", str(out)]
    assert main(argv) in (0, 1)
    comps = json.loads(out.read_text(encoding="utf-8"))["gate"]["comparisons"]
    (comp,) = [c for c in comps if c["measure"] == "score"]
    assert (comp["candidate"], comp["baseline"]) == ("agent", "agent @ run1")
    assert comp["shared_units"] == 21
    assert comp["diff_mean"] == pytest.approx(-3 / 21)
    # run 2 scored 66 of the 100 both attempted, run 1 32: no completion regression
    (done,) = [c for c in comps if c["measure"] == "completion"]
    assert done["shared_units"] == 100
    assert (done["candidate_mean"], done["baseline_mean"]) == (0.66, 0.32)
    assert done["status"] == "no_regression"


def test_read__is_bounded_by_the_shared_document_cap(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(reading, "MAX_DOCUMENT", 1000)
    with pytest.raises(InputError, match="holds more than 1,000 bytes"):
        _read(FIXTURES / "vanilla-a/vanilla.eval.json")
