"""`leaderboard report FILES --baseline-results FILES`: two runs of the same model ids."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from leaderboard.cli import main

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "two_runs"
ASDIV = FIXTURES / "lm-eval-asdiv"
LLAMA = "meta-llama/Meta-Llama-3-8B-Instruct"


def _run(models: dict[str, float], seed: int, tasks: int = 6, items: int = 40) -> list:
    """One run: each model answers each item correctly with its probability."""
    rng = random.Random(seed)
    return [
        {
            "model_id": m,
            "task_id": f"t{t}",
            "item_id": i,
            "score": rng.random() < p,
        }
        for m, p in models.items()
        for t in range(tasks)
        for i in range(items)
    ]


def _write(path: Path, records: list) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def _pair(tmp_path: Path, pr: dict[str, float], main_: dict[str, float]) -> tuple:
    return (
        _write(tmp_path / "pr" / "results.jsonl", _run(pr, seed=1)),
        _write(tmp_path / "main" / "results.jsonl", _run(main_, seed=2)),
    )


def test_report__real_lm_eval_pair_gates_the_model_against_its_baseline_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Two real lm-eval runs of one model on asdiv (batch size 8 and 1): same answers.
    out = tmp_path / "report.json"
    argv = ["report", str(ASDIV / "run-b" / "samples_*.jsonl"), "--baseline-results"]
    argv += [str(ASDIV / "run-a" / "samples_*.jsonl"), "--baseline-label", "batch 8"]
    assert main([*argv, "--resamples", "500", "--json", str(out)]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    (comp,) = report["gate"]["comparisons"]
    assert comp["candidate"] == LLAMA
    assert comp["baseline"] == f"{LLAMA} @ batch 8"
    assert comp["shared_units"] == 4
    assert comp["diff_mean"] == 0.0
    assert not comp["regressed"]
    # 4 items that agree cannot rule out a drop of 0.05 (stats/paired.py)
    assert report["gate"]["status"] == "undetermined"
    assert [r["model_id"] for r in report["leaderboard"]] == [LLAMA, f"{LLAMA} @ batch 8"]
    stdout = capsys.readouterr().out
    assert "**Baseline run**: **batch 8**" in stdout


def test_report__real_lm_eval_results_files_pair_at_task_level(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    argv = ["report", str(ASDIV / "run-b" / "results_*.json"), "--baseline-results"]
    argv += [str(ASDIV / "run-a" / "results_*.json"), "--json", str(out)]
    assert main([*argv, "--resamples", "200"]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    (comp,) = report["gate"]["comparisons"]
    assert (comp["candidate"], comp["baseline"]) == (LLAMA, f"{LLAMA} @ baseline")
    assert comp["diff_mean"] == 0.0  # both runs report acc 0.92
    assert report["settings"]["unit"] == "task"


def test_report__two_runs_given_as_one_results_list_point_to_baseline_results(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["report", str(ASDIV / "run-*" / "samples_*.jsonl")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "duplicate record" in err
    assert "run-a" in err
    assert "run-b" in err
    assert "--baseline-results" in err
    assert "Traceback" not in err


def test_report__no_change_between_runs_exits_0(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pr, base = _pair(tmp_path, {"a": 0.7, "b": 0.6}, {"a": 0.7, "b": 0.6})
    out = tmp_path / "r.json"
    argv = ["report", str(pr), "--baseline-results", str(base), "--baseline-label", "main"]
    assert main([*argv, "--resamples", "500", "--json", str(out)]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert [(c["candidate"], c["baseline"]) for c in report["gate"]["comparisons"]] == [
        ("a", "a @ main"),
        ("b", "b @ main"),
    ]
    assert len(report["leaderboard"]) == 4
    # a handful of tasks rules out no drop of 0.05: it cannot tell, and exits 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("🟡 **Cannot tell**")
    assert "is not ruled out; about" in first
    assert report["gate"]["status"] == "undetermined"


def test_report__a_planted_drop_in_the_pull_request_run_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pr, base = _pair(tmp_path, {"a": 0.7, "b": 0.4}, {"a": 0.7, "b": 0.7})
    argv = ["report", str(pr), "--baseline-results", str(base), "--baseline-label", "main"]
    assert main([*argv, "--resamples", "500"]) == 1
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("🔴 **Regression**: **b** vs **b @")
    assert "**a**" not in first


def test_report__ungated_models_are_named_and_candidates_narrow(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pr, base = _pair(tmp_path, {"a": 0.7, "b": 0.6, "new": 0.5}, {"a": 0.7, "b": 0.6})
    out = tmp_path / "r.json"
    argv = ["report", str(pr), "--baseline-results", str(base), "--candidate", "b"]
    assert main([*argv, "--resamples", "300", "--json", str(out)]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert [c["candidate"] for c in report["gate"]["comparisons"]] == ["b"]
    assert report["gate"]["ungated"] == ["new"]
    assert "Not gated (in one run only): new." in capsys.readouterr().out


def test_report__several_baseline_files_and_globs_combine(tmp_path: Path) -> None:
    records = _run({"a": 0.7}, seed=3)
    half = len(records) // 2
    _write(tmp_path / "main" / "part1.jsonl", records[:half])
    _write(tmp_path / "main" / "part2.jsonl", records[half:])
    pr = _write(tmp_path / "pr.jsonl", _run({"a": 0.7}, seed=4))
    out = tmp_path / "r.json"
    argv = ["report", str(pr), "--baseline-results", str(tmp_path / "main" / "part1.jsonl")]
    argv += [str(tmp_path / "main" / "part2*"), "--json", str(out), "--resamples", "200"]
    assert main(argv) == 0
    (comp,) = json.loads(out.read_text(encoding="utf-8"))["gate"]["comparisons"]
    assert comp["shared_units"] == len(records)


@pytest.mark.parametrize(
    ("extra", "fragment"),
    [
        (["--baseline", "a"], "--baseline and --baseline-results exclude each other"),
        (["--candidate", "zzz"], "--candidate: model 'zzz' is not in the results"),
        (["--baseline-label", "a\tb"], "--baseline-label: "),
        (["--baseline-label", ""], "--baseline-label: "),
    ],
)
def test_report__two_run_usage_errors_exit_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], fragment: str
) -> None:
    pr, base = _pair(tmp_path, {"a": 0.7}, {"a": 0.7})
    assert main(["report", str(pr), "--baseline-results", str(base), *extra]) == 2
    err = capsys.readouterr().err
    assert fragment in err
    assert err.count("\n") == 1


def test_report__a_label_without_baseline_results_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pr, _ = _pair(tmp_path, {"a": 0.7}, {"a": 0.7})
    assert main(["report", str(pr), "--baseline-label", "main"]) == 2
    assert "--baseline-label: names the run given with --baseline-results" in (
        capsys.readouterr().err
    )


def test_report__a_candidate_only_in_the_pull_request_run_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pr, base = _pair(tmp_path, {"a": 0.7, "new": 0.5}, {"a": 0.7})
    argv = ["report", str(pr), "--baseline-results", str(base), "--candidate", "new"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "'new' is not in the --baseline-results" in err
    assert "'a'" in err


def test_report__a_bad_baseline_file_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pr, base = _pair(tmp_path, {"a": 0.7}, {"a": 0.7})
    with base.open("a", encoding="utf-8") as f:
        f.write('{"model_id": "a", "task_id": "t0", "item_id": 1, "score": 1.5}\n')
    assert main(["report", str(pr), "--baseline-results", str(base)]) == 2
    err = capsys.readouterr().err
    assert str(base) in err
    assert "score" in err


def test_report__a_duplicate_within_the_baseline_run_keeps_its_own_fix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pr, base = _pair(tmp_path, {"a": 0.7}, {"a": 0.7})
    with base.open("a", encoding="utf-8") as f:
        f.write('{"model_id": "a", "task_id": "t0", "item_id": 1, "score": 1}\n')
    assert main(["report", str(pr), "--baseline-results", str(base)]) == 2
    err = capsys.readouterr().err
    assert "duplicate record" in err
    assert "keep one record" in err
    assert "--baseline-results" not in err
