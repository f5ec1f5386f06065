"""Real Inspect logs of runs that differ, through the command line.

The logs under tests/fixtures/inspect/differ/ were written by the real ``inspect_ai``
(mockllm and a scripted solver, offline) by scripts/make_inspect_differ_fixtures.py;
its README says what each folder holds. Each test is one case of CONTRACT.md
section 7 as a pull request meets it, asserting what the comment says.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from leaderboard.cli import main

DIFFER = Path(__file__).parents[1] / "fixtures" / "inspect" / "differ"
RESAMPLES = "2000"


def _run(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    pr: str | list[str],
    base: str = "main",
    *extra: str,
) -> tuple[int, str, str, dict]:
    report = tmp_path / "report.json"
    prs = [pr] if isinstance(pr, str) else pr
    argv = [
        "report",
        *[str(DIFFER / p) for p in prs],
        "--baseline-results",
        str(DIFFER / base),
        "--baseline-label",
        "main",
        "--resamples",
        RESAMPLES,
        "--json",
        str(report),
        *extra,
    ]
    code = main(argv)
    out, err = capsys.readouterr()
    data = json.loads(report.read_text(encoding="utf-8")) if report.exists() else {}
    return code, out, err, data


def test_a_model_swap_is_gated_and_the_first_line_names_both_ids(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _, report = _run(capsys, tmp_path, "renamed")
    first = out.splitlines()[0]
    # 16 items: a drop of 0.05 is not ruled out, so the swap cannot tell (CONTRACT 13)
    assert first.startswith(
        "🟡 **Cannot tell** (model changed: **mockllm/model** → **mockllm/model-v2**): "
        "**mockllm/model-v2** vs **mockllm/model @ main**, score -0.125 ["
    )
    assert "is not ruled out; about " in first
    assert " items would rule out 0.050. Not a pass." in first
    assert code == 0
    gate = report["gate"]
    assert gate["status"] == "undetermined"
    assert gate["model_changes"] == [
        {
            "candidate": "mockllm/model-v2",
            "baseline_model": "mockllm/model",
            "how": "only_model",
        }
    ]
    (comp,) = gate["comparisons"]
    assert comp["shared_units"] == 16
    # the items that broke, by id, with both sides, in the "where it moved" block
    assert "Dropped most (baseline → candidate):\n- arith-001: 3/3 → 0/3\n" in out
    assert "- arith-004: 3/3 → 0/3\n- arith-010: 3/3 → 0/3\n" in out
    # (the list ends at its blank line: a flaky list may follow in the same block)
    assert "arith-003" not in out.split("Dropped most")[1].split("\n\n")[0]
    assert [w["item_id"] for w in comp["worst_items"]] == [
        "arith-001",
        "arith-004",
        "arith-010",
    ]
    assert comp["flips"]["pass_to_fail"] == 3
    # three items 3/3 -> 0/3: pooled, 3 passes of 6, a flip either way at 1/2 each
    assert (
        "3 items went pass → fail, 0 fail → pass (of 16 scored for both; an item passes "
        "when half its epochs or more pass); the epochs give about 2 each way from noise "
        "alone, and the difference between the two ways is within noise (exact test on "
        "the epochs at 95%)" in out  # the comparison's own level
    )
    assert comp["flips"]["noise_from"] == "epochs"


def test_a_model_swap_with_fail_on_undetermined_fails_unless_the_drop_is_ruled_out(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _, _, report = _run(capsys, tmp_path, "renamed", "main", "--fail-on-undetermined")
    assert (code, report["gate"]["status"]) == (1, "undetermined")
    # a max-drop the interval rules out (its lower end is about -0.27) passes
    code, _, _, report = _run(
        capsys, tmp_path, "renamed", "main", "--fail-on-undetermined", "--max-drop", "0.5"
    )
    assert (code, report["gate"]["status"]) == (0, "no_regression")


def test_baseline_map_names_the_ids_present_when_one_is_absent(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, err, _ = _run(
        capsys,
        tmp_path,
        "renamed",
        "main",
        "--baseline-map",
        "mockllm/model-v3=mockllm/model",
    )
    assert code == 2
    assert out == ""
    assert err == (
        "leaderboard: error: --baseline-map mockllm/model-v3=mockllm/model: model "
        "'mockllm/model-v3' is not in the results (did you mean 'mockllm/model-v2'?); "
        "the results hold: 'mockllm/model-v2'\n"
    )


def test_baseline_map_pairs_explicitly(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _, _, report = _run(
        capsys,
        tmp_path,
        "renamed",
        "main",
        "--baseline-map",
        "mockllm/model-v2=mockllm/model",
    )
    assert code == 0
    assert [c["how"] for c in report["gate"]["model_changes"]] == ["baseline_map"]


def test_a_changed_scorer_leaves_the_task_out_with_a_warning(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _, report = _run(capsys, tmp_path, "scorer")
    assert code == 0
    assert report["gate"]["left_out_tasks"] == ["arith"]
    (comp,) = report["gate"]["comparisons"]
    assert comp["shared_tasks"] == 1  # spell only
    assert (
        "- ⚠️ task 'arith' is scored by includes in the results and by match in the "
        "baseline run 'main': it is left out of the comparison (a different metric "
        "measures something else)\n" in out
    )


def test_a_changed_scorer_on_the_only_task_is_undetermined_and_can_fail(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    scorer_arith = next((DIFFER / "scorer").glob("*_arith_*.eval"))
    main_arith = next((DIFFER / "main").glob("*_arith_*.eval"))
    (tmp_path / "pr").mkdir()
    (tmp_path / "base").mkdir()
    shutil.copy(scorer_arith, tmp_path / "pr")
    shutil.copy(main_arith, tmp_path / "base")
    argv = [
        "report",
        str(tmp_path / "pr"),
        "--baseline-results",
        str(tmp_path / "base"),
        "--baseline-label",
        "main",
        "--resamples",
        RESAMPLES,
    ]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == (
        "🟡 **Cannot tell**: the two runs share nothing comparable: every task is "
        "scored by another metric in the baseline run 'main' ('arith'), so nothing was "
        "gated; score both runs with the same metric; no model was gated. Not a pass."
    )
    assert main([*argv, "--fail-on-undetermined"]) == 1


def test_different_epochs_are_stated_with_both_counts(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _, _ = _run(capsys, tmp_path, "epochs")
    assert code == 0
    assert (
        "- ⚠️ task 'arith' is run 1 time per item (repeats: Inspect's epochs, "
        "promptfoo's repeat count, the records' sample field) in the results and 3 times "
        "in the baseline run 'main': each item is compared on the mean of its own "
        "samples\n" in out
    )


def test_different_item_sets_say_what_was_compared_and_blame_no_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _, report = _run(capsys, tmp_path, "items")
    assert code == 0
    assert (
        "- ⚠️ mockllm/model: compared on the 12 items both runs hold; the results hold "
        "16, the baseline run 'main' 16\n" in out
    )
    assert "misses" not in out
    (comp,) = report["gate"]["comparisons"]
    assert comp["shared_units"] == 12


@pytest.mark.parametrize(
    ("metric", "said"),
    [
        (
            "nosuch",
            "--metric nosuch: names nothing this file holds; it holds: scorer match",
        ),
        (
            "accuracy",
            "--metric accuracy: names nothing this file holds ('accuracy' is a metric "
            "Inspect computed over the scorer match, not a scorer",
        ),
    ],
)
def test_a_metric_naming_nothing_the_log_holds_is_refused(
    capsys: pytest.CaptureFixture[str], metric: str, said: str
) -> None:
    assert main(["report", str(DIFFER / "main"), "--metric", metric]) == 2
    err = capsys.readouterr().err
    assert said in err
    assert err.count("\n") == 1


def test_a_fallback_metric_list_still_falls_back(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "r.json"
    argv = ["report", str(DIFFER / "main"), "--metric", "nosuch", "--metric", "match"]
    assert main([*argv, "--resamples", "200", "--json", str(path)]) == 0
    assert json.loads(path.read_text())["leaderboard"][0]["model_id"] == "mockllm/model"


def test_a_log_folder_of_an_eval_set_is_read_without_inspects_own_files(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for given in (str(DIFFER / "evalset"), str(DIFFER / "evalset") + "/*"):
        path = tmp_path / "r.json"
        assert main(["report", given, "--resamples", "200", "--json", str(path)]) == 0
        report = json.loads(path.read_text())
        assert report["data"]["tasks"] == 1
        assert report["data"]["records"] == 12  # spell: 4 items, 3 epochs
    assert (DIFFER / "evalset" / ".eval-set-id").exists()
    assert (DIFFER / "evalset" / "logs.json").exists()


def test_a_retried_log_supersedes_the_errored_one_with_a_note(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "r.json"
    assert main(["report", str(DIFFER / "retried"), "--json", str(path)]) == 0
    out, err = capsys.readouterr()
    (errored, retried) = sorted(p.name for p in (DIFFER / "retried").iterdir())
    note = (
        f"left out, status error; {DIFFER / 'retried' / retried} is the retried log of "
        "the same task (inspect eval-retry), read instead"
    )
    assert note in err
    assert errored.replace("_", "\\_") in out.split("\n\n")[1]  # the warning block
    assert json.loads(path.read_text())["data"]["records"] == 36


def test_a_finished_log_with_some_errored_samples_is_read_and_counted(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "r.json"
    assert main(["report", str(DIFFER / "partial"), "--json", str(path)]) == 0
    out = capsys.readouterr().out
    assert (
        "6 of 36 samples of task arith errored (Inspect finished the eval with errors "
        "tolerated, --fail-on-error): attempted, not scored" in out
    )
    report = json.loads(path.read_text())
    assert report["data"]["records"] == 30  # the scored ones: errored are no score
    assert report["data"]["items"] == 10
    assert any("6 of 36 samples" in w for w in report["warnings"])


def test_errored_samples_of_a_finished_log_count_in_completion_against_main(
    tmp_path: Path,
) -> None:
    # arith-002 and arith-009 errored in every epoch: 10 of the 12 arith items both
    # runs attempted are scored, against main's 12; two discordant items (p = 1/4)
    path = tmp_path / "r.json"
    argv = ["report", str(DIFFER / "partial"), "--baseline-results", str(DIFFER / "main")]
    assert main([*argv, "--resamples", "300", "--json", str(path)]) in (0, 1)
    comps = json.loads(path.read_text())["gate"]["comparisons"]
    (done,) = [c for c in comps if c["measure"] == "completion"]
    assert done["shared_units"] == 12  # spell: in main only, not part of it
    assert done["candidate_mean"] == pytest.approx(10 / 12)
    assert done["baseline_mean"] == 1.0
    assert done["status"] == "no_regression"
    assert "2 scored by the baseline only, 0 by the candidate only" in done["note"]


def test_a_log_with_status_error_stays_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", str(DIFFER / "errored")]) == 2
    err = capsys.readouterr().err
    assert "the eval ended with status 'error', not 'success'" in err
    assert "inspect eval-retry" in err


def test_a_folder_with_no_result_files_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "notes.txt").write_text("hello")
    assert main(["report", str(tmp_path)]) == 2
    assert "is a folder that holds no result files" in capsys.readouterr().err


def test_a_broken_template_falls_back_and_keeps_the_gates_exit_status(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    broken = tmp_path / "broken.md.j2"
    broken.write_text("{{ view.verdict }}\n{{ 1 // 0 }}\n", encoding="utf-8")
    code, out, err, report = _run(
        capsys, tmp_path, "renamed", "main", "--template", str(broken)
    )
    assert code == 0  # the gate's status, not 2
    assert report["gate"]["status"] == "undetermined"
    assert out.startswith("🟡 **Cannot tell** (model changed")
    assert "the template" in out
    assert "ZeroDivisionError" in out
    assert "--template:" in err
    good = tmp_path / "good.md.j2"
    good.write_text("status: {{ view.gate_status }}\n", encoding="utf-8")
    code, out, _, _ = _run(capsys, tmp_path, "renamed", "main", "--template", str(good))
    assert (code, out) == (0, "status: undetermined\n")


def test_show_outputs__the_answers_beside_the_items_only_when_asked(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _, report = _run(capsys, tmp_path, "renamed")
    assert "What is 1 + 1?" not in out
    assert report["settings"]["show_outputs"] is False
    code, out, _, report = _run(capsys, tmp_path, "renamed", "main", "--show-outputs")
    assert code == 0
    assert "- arith-001: What is 1 + 1?\n  - baseline: 2\n  - candidate: 21" in out
    (comp,) = [c for c in report["gate"]["comparisons"] if c["worst_items"]]
    assert comp["worst_items"][0]["answers"] == {
        "input": "What is 1 + 1?",
        "baseline": "2",
        "candidate": "21",
    }
