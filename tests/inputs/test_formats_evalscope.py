"""EvalScope reviews (1.x ``sample_score``, 0.x ``choices[].review``) and reports.

Real files from modelscope/evalscope's examples/viz (origins in
tests/fixtures/evalscope/README.md), trimmed of prompts and answers.
"""

from __future__ import annotations

import json
import shutil
import warnings
from pathlib import Path

import pytest

from leaderboard.errors import InputError
from leaderboard.inputs import load_runs
from leaderboard.inputs.frameworks import FormatWarning, sniff
from tests.inputs._framework_cases import FIXTURES, cli_refusal, load_quiet, read_quiet

V1 = FIXTURES / "evalscope" / "v1" / "outputs"
V0 = FIXTURES / "evalscope" / "v0" / "outputs"
REPORT_ONLY = FIXTURES / "evalscope" / "v0" / "report-only"
ALL = sorted([*V1.rglob("*.json*"), *V0.rglob("*.json*"), *REPORT_ONLY.rglob("*.json")])


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().split("\n") if line.strip()]


@pytest.mark.parametrize("path", ALL, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_sniff__every_real_review_and_report_is_evalscope(path: Path) -> None:
    assert sniff(path, path.read_bytes()[:65536]) == "evalscope"


def test_read_v1__benchmark_is_the_task_subsets_pooled_mean_matches_the_report() -> None:
    runs = load_runs([str(V1 / "reviews" / "qwen-plus" / "iquiz_*.jsonl")])
    assert {r.model_id for r in runs} == {"qwen-plus"}
    assert {r.task_id for r in runs} == {"iquiz"}
    assert len(runs) == 20
    assert {str(r.item_id).split("/")[0] for r in runs} == {"EQ", "IQ"}
    raw = [
        row["sample_score"]["score"]["value"]["acc"]
        for name in ("iquiz_EQ.jsonl", "iquiz_IQ.jsonl")
        for row in _lines(V1 / "reviews" / "qwen-plus" / name)
    ]
    mean = sum(r.score for r in runs) / len(runs)
    assert mean == pytest.approx(sum(raw) / len(raw))
    report = json.loads((V1 / "reports" / "qwen-plus" / "iquiz.json").read_text())
    assert mean == pytest.approx(report["score"])  # EvalScope's own headline


def test_read_v1__main_score_name_is_primary_and_metric_chooses_another() -> None:
    path = V1 / "reviews" / "qwen-plus" / "ifeval_default.jsonl"
    rows = _lines(path)
    assert {r["sample_score"]["score"]["main_score_name"] for r in rows} == {
        "prompt_level_strict"
    }
    runs = read_quiet("evalscope", path)
    assert {r.metric_name for r in runs} == {"prompt_level_strict"}
    loose = read_quiet("evalscope", path, "prompt_level_loose")
    assert [r.score for r in loose] == [
        float(r["sample_score"]["score"]["value"]["prompt_level_loose"]) for r in rows
    ]


def test_read_v1__benchmark_with_underscores_split_at_its_report() -> None:
    path = V1 / "reviews" / "qwen-plus" / "gpqa_diamond_default.jsonl"
    runs = read_quiet("evalscope", path)
    assert {r.task_id for r in runs} == {"gpqa_diamond"}
    assert len(runs) == len(_lines(path))  # a raw U+2028 inside a line splits nothing


def test_read_v1__without_its_report_a_multi_underscore_name_is_refused(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "reviews" / "qwen-plus"
    folder.mkdir(parents=True)
    shutil.copy(V1 / "reviews" / "qwen-plus" / "gpqa_diamond_default.jsonl", folder)
    with pytest.raises(InputError, match="cannot tell the benchmark from the subset"):
        read_quiet("evalscope", folder / "gpqa_diamond_default.jsonl")


def test_read_v0__choices_review_result_with_reviewer_spec_metric() -> None:
    runs = load_quiet(str(V0 / "reviews" / "**" / "*.jsonl"))
    by_task: dict[str, list[float]] = {}
    for run in runs:
        by_task.setdefault(run.task_id, []).append(run.score)
    assert sorted(by_task) == ["ceval", "gsm8k", "humaneval", "ifeval"]
    assert {r.model_id for r in runs} == {"Qwen2.5-0.5B-Instruct"}
    raw = [
        float(row["choices"][0]["review"]["result"])
        for name in ("ceval_computer_network.jsonl", "ceval_operating_system.jsonl")
        for row in _lines(V0 / "reviews" / "Qwen2.5-0.5B-Instruct" / name)
    ]
    assert sum(by_task["ceval"]) / 20 == pytest.approx(sum(raw) / len(raw))
    ceval = {r.metric_name for r in runs if r.task_id == "ceval"}
    assert ceval == {"AverageAccuracy"}
    assert {r.metric_name for r in runs if r.task_id == "humaneval"} == {"Pass@1"}


def test_read_v0__repeats_are_samples_of_one_item(tmp_path: Path) -> None:
    folder = tmp_path / "reviews" / "m"
    folder.mkdir(parents=True)
    rows = _lines(V0 / "reviews" / "Qwen2.5-0.5B-Instruct" / "gsm8k_main.jsonl")[:3]
    for row in rows:
        second = json.loads(json.dumps(row["choices"][0]))
        second["review"]["result"] = not row["choices"][0]["review"]["result"]
        row["choices"].append(second)
    (folder / "gsm8k_main.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    runs = read_quiet("evalscope", folder / "gsm8k_main.jsonl")
    assert len(runs) == 6
    assert sorted({r.sample for r in runs}) == [0, 1]
    assert sum(r.score for r in runs) == 3  # each item passed exactly once


def test_read_v1__an_unusable_score_is_left_out_not_zero(tmp_path: Path) -> None:
    folder = tmp_path / "reviews" / "m"
    folder.mkdir(parents=True)
    rows = _lines(V1 / "reviews" / "qwen-plus" / "gsm8k_main.jsonl")
    rows[0]["sample_score"]["score"]["status"] = "unavailable"
    rows[0]["sample_score"]["score"]["value"] = {}
    (folder / "gsm8k_main.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", FormatWarning)
        runs = load_runs([str(folder / "gsm8k_main.jsonl")])
    assert any("left out (not counted as 0): 1" in str(w.message) for w in caught)
    assert len(runs) == len(rows) - 1


def test_read_report__alone_gives_one_task_level_record() -> None:
    path = REPORT_ONLY / "reports" / "Qwen2.5-7B-Instruct" / "gsm8k.json"
    report = json.loads(path.read_text())
    (run,) = read_quiet("evalscope", path)
    assert (run.model_id, run.task_id, run.item_id) == (
        "Qwen2.5-7B-Instruct",
        "gsm8k",
        None,
    )
    assert run.score == pytest.approx(report["metrics"][0]["score"])
    assert run.metric_name == report["metrics"][0]["name"]


def test_read_report__with_its_reviews_beside_it_is_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    err = cli_refusal(capsys, str(V0 / "reports" / "Qwen2.5-0.5B-Instruct" / "ceval.json"))
    assert "ceval.json" in err
    assert "aggregate of the reviews beside it" in err
    assert "give the reviews/**/*.jsonl files" in err


def test_metric_naming_nothing_held_is_refused_listing_what_is_held(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = V1 / "reviews" / "qwen-plus" / "ifeval_default.jsonl"
    err = cli_refusal(capsys, str(path), "--metric", "bleu")
    assert "ifeval_default.jsonl" in err
    assert "score.value" in err
    assert "prompt_level_strict" in err
    assert "inst_level_loose" in err


def test_read__outside_reviews_model_folder_is_refused(tmp_path: Path) -> None:
    shutil.copy(V1 / "reviews" / "qwen-plus" / "gsm8k_main.jsonl", tmp_path)
    with pytest.raises(InputError, match="outside reviews/<model>/"):
        read_quiet("evalscope", tmp_path / "gsm8k_main.jsonl")


def test_predictions_file__is_evalscope_and_refused_naming_reviews(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = V1 / "predictions" / "qwen-plus" / "gsm8k_main.jsonl"
    assert sniff(path, path.read_bytes()[:65536]) == "evalscope"
    err = cli_refusal(capsys, str(path))
    assert "predictions file" in err
    assert "reviews/<model>/*.jsonl" in err


@pytest.mark.parametrize(
    ("source", "long_key"),
    [
        (V1 / "reviews" / "qwen-plus" / "gsm8k_main.jsonl", "messages"),
        (V0 / "reviews" / "Qwen2.5-0.5B-Instruct" / "gsm8k_main.jsonl", "raw_input"),
    ],
    ids=["1.x", "0.x"],
)
def test_sniff__a_first_line_longer_than_the_head_is_still_evalscope(
    tmp_path: Path, source: Path, long_key: str
) -> None:
    rows = _lines(source)
    first = rows[0]
    keys = list(first)
    at = keys.index("sample_score" if "sample_score" in first else "reviewer_spec")
    long = {k: first[k] for k in keys[:at]}
    long[long_key] = "x" * 70_000  # the long field before the scores, as EvalScope orders
    long.update({k: first[k] for k in keys[at:]})
    folder = tmp_path / "reviews" / "m"
    folder.mkdir(parents=True)
    path = folder / "gsm8k_main.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in [long, *rows[1:]]))
    head = path.read_bytes()[:65536]
    assert b"\n" not in head
    assert sniff(path, head) == "evalscope"
    assert len(load_quiet(str(path))) == len(rows)
