"""lm-evaluation-harness output of other versions and other writers: real files.

tests/fixtures/lm_eval/README.md says where each came from: files committed to public
repositories (lm-eval 0.3 from EleutherAI/pythia and the harness's tests; 0.4.10 from a
contributor's branch), and real runs of lm-eval 0.4.2 and 0.4.5 made by
scripts/make_lm_eval_old_fixtures.sh (the harness's dummy model, offline).
"""

from __future__ import annotations

import json
import logging
import statistics
import warnings
from pathlib import Path
from typing import Any

import pytest

from leaderboard.errors import InputError
from leaderboard.inputs import EvalRun, load_runs, load_runs_noting
from leaderboard.inputs.frameworks import FormatWarning, ReadOptions, read, sniff
from leaderboard.stats import build_report

LM_EVAL = Path(__file__).resolve().parents[1] / "fixtures" / "lm_eval"
PUBLIC = LM_EVAL / "public"
V042 = LM_EVAL / "v0.4.2"
V045 = LM_EVAL / "v0.4.5"
AFRIMGSM = PUBLIC / "sw_mgsm_direct_0shot_2026-01-26T14-39-33.247121.json"
PYTHIA = PUBLIC / "160m-5shot_step143000.json"
COLA_03 = PUBLIC / "cola-v0-res.json"


def _read(path: Path, *metrics: str, weights: str = "equal") -> list[EvalRun]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FormatWarning)
        return read("lm-eval", path, ReadOptions(metrics=metrics, task_weights=weights))


def _notes(paths: list[Path], **options: Any) -> tuple[list[EvalRun], list[str]]:
    return load_runs_noting([str(p) for p in paths], **options)


# ------------------------------------------------------------ 1: one score per task


def test_metric_variants__one_task_first_filter_others_told_once_in_the_log(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.INFO, logger="leaderboard.inputs"):
        runs, notes = _notes([AFRIMGSM])
    [run] = runs
    assert (run.model_id, run.task_id) == ("google/gemma-2b", "afrimgsm_swa_prompt_1")
    assert (run.metric_name, run.score) == ("exact_match,remove_whitespace", 0.004)
    assert notes == []  # the default's choice is no warning (issue 32): the log says it
    [note] = [r.getMessage() for r in caplog.records if "one score per task" in r.message]
    assert "exact_match,flexible-extract in afrimgsm_swa_prompt_1" in note


def test_metric_variants__filter_chosen_by_the_option() -> None:
    [run] = _read(AFRIMGSM, "exact_match,flexible-extract")
    assert (run.metric_name, run.score) == ("exact_match,flexible-extract", 0.044)


# --------------------------------------------------- 2: scale by metric, not value


def _api_with_model(tmp_path: Path, mcc: float | None = None, name: str = "m") -> Path:
    """The real Python-API results file, given a model name (and an mcc value)."""
    data = json.loads((V042 / "api" / "results.json").read_text())
    data["model_name"] = name
    if mcc is not None:
        data["results"]["tiny_cola"]["mcc,none"] = mcc
    path = tmp_path / name / "results.json"
    path.parent.mkdir()
    path.write_text(json.dumps(data))
    return path


def test_mcc__mapped_from_minus_one_one_whatever_the_value(tmp_path: Path) -> None:
    real = _api_with_model(tmp_path, name="real")
    assert json.loads(real.read_text())["results"]["tiny_cola"]["mcc,none"] == 0.0
    got = {r.task_id: r.score for r in _read(real)}
    assert got["tiny_cola"] == 0.5
    # The values that refused whole runs before (issue 13): negative, and positive.
    for mcc in (-0.091, 0.219):
        [cola] = [
            r
            for r in _read(_api_with_model(tmp_path, mcc, str(mcc)))
            if r.task_id == "tiny_cola"
        ]
        assert cola.score == pytest.approx((mcc + 1) / 2)
        assert cola.metric_name == "mcc,none"


def test_mcc__two_models_pair_and_the_rescaling_is_told(tmp_path: Path) -> None:
    paths = [_api_with_model(tmp_path, -0.091, "a"), _api_with_model(tmp_path, 0.219, "b")]
    runs, notes = _notes(paths)
    assert {(r.model_id, r.task_id) for r in runs} == {
        (m, t) for m in "ab" for t in ("tiny_cola", "tiny_mc")
    }
    assert any("tiny_cola mcc,none from [-1, 1]" in n for n in notes)
    report = build_report(runs, baseline="a", resamples=200, seed=0)
    assert {row.model_id for row in report.leaderboard} == {"a", "b"}


def test_unknown_metric_out_of_range__task_left_out_run_kept(tmp_path: Path) -> None:
    data = json.loads(PYTHIA.read_text())
    data["results"]["sciq"] = {"my_score": 87.0, "my_score_stderr": 1.0}
    path = tmp_path / "results.json"
    path.write_text(json.dumps(data))
    runs, notes = _notes([path])
    assert "sciq" not in {r.task_id for r in runs}
    assert len(runs) == 64
    assert any("no known scale" in n and "sciq my_score = 87.0" in n for n in notes)


def test_squadv2_percent_metrics__divided_by_100(tmp_path: Path) -> None:
    data = json.loads(PYTHIA.read_text())
    data["results"] = {"squadv2": {"exact": 41.0, "f1": 45.5, "exact_stderr": 1.0}}
    path = tmp_path / "results.json"
    path.write_text(json.dumps(data))
    [run] = _read(path, "f1")
    assert run.score == pytest.approx(0.455)


# --------------------------------------------------------- 4: older samples layouts


def test_v042__array_samples_named_after_model_args_read_with_results_json() -> None:
    for model in ("dummy-a", "dummy-b"):
        results = json.loads((V042 / model / "results.json").read_text())["results"]
        for task in ("tiny_mc", "tiny_mc2"):
            path = V042 / model / f"pretrained__{model}_{task}.jsonl"
            assert path.read_text().lstrip().startswith("[")
            assert sniff(path, path.read_bytes()[:65536]) == "lm-eval"
            runs = _read(path)
            assert {(r.model_id, r.task_id, r.metric_name) for r in runs} == {
                (model, task, "acc,none")
            }
            assert statistics.fmean(r.score for r in runs) == pytest.approx(
                results[task]["acc,none"]
            )


def test_v045__top_level_metrics_without_filter_keys() -> None:
    for model in ("dummy-a", "dummy-b"):
        [results_path] = (V045 / model).rglob("results_*.json")
        results = json.loads(results_path.read_text())["results"]
        for path in sorted(results_path.parent.glob("samples_*.jsonl")):
            first = json.loads(path.read_text().splitlines()[0])
            assert "filter" not in first
            assert "metrics" not in first
            runs = _read(path)
            [task] = {r.task_id for r in runs}
            [key] = {str(r.metric_name) for r in runs}
            assert statistics.fmean(r.score for r in runs) == pytest.approx(
                results[task][key]
            )


def test_v045__second_filter_found_by_the_order_of_copies() -> None:
    for model in ("dummy-a", "dummy-b"):
        [path] = (V045 / model).rglob("samples_tiny_gen_*.jsonl")
        results = json.loads(next(path.parent.glob("results_*.json")).read_text())
        for filt in ("strict-match", "flexible-extract"):
            runs = _read(path, f"exact_match,{filt}")
            assert len(runs) == 5
            assert statistics.fmean(r.score for r in runs) == pytest.approx(
                results["results"]["tiny_gen"][f"exact_match,{filt}"]
            )


def test_public_2024_samples__top_level_acc_without_filter_keys() -> None:
    """Real Meta-Llama-3-8B-Instruct samples from a harness pull request (first 4 lines)."""
    path = PUBLIC / "asdiv-pr2236" / "samples_asdiv_2024-08-21T03-44-09.494230.jsonl"
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert all("filter" not in doc and "metrics" not in doc for doc in lines)
    runs = _read(path)
    assert {(r.model_id, r.task_id, r.metric_name) for r in runs} == {
        ("meta-llama/Meta-Llama-3-8B-Instruct", "asdiv", "acc,none")
    }
    assert {r.item_id: r.score for r in runs} == {d["doc_id"]: d["acc"] for d in lines}


# ------------------------------------------------------------------- 5: lm-eval 0.3


def test_v03_results__read_acc_first_perplexity_left_out() -> None:
    assert sniff(PYTHIA, PYTHIA.read_bytes()) == "lm-eval"
    runs, notes = _notes([PYTHIA])
    data = json.loads(PYTHIA.read_text())["results"]
    assert len(runs) == len(data) == 65
    assert {r.model_id for r in runs} == {"EleutherAI/pythia-v1.1-160m"}
    assert {r.task_id: r.score for r in runs} == {t: v["acc"] for t, v in data.items()}
    assert {r.metric_name for r in runs} == {"acc"}
    assert len(notes) == 1  # acc_norm left out is the default's choice: in the log
    assert all("\n" not in n and len(n) < 400 for n in notes)
    assert any("lower-is-better" in n and "ppl in lambada_openai" in n for n in notes)


def test_v03_results_without_a_model_name__one_line_what_to_pass() -> None:
    assert sniff(COLA_03, COLA_03.read_bytes()) == "lm-eval"
    with pytest.raises(InputError) as info:
        read("lm-eval", COLA_03)
    text = str(info.value)
    assert "names no model" in text
    assert "pretrained=NAME" in text
    assert "\n" not in text
    assert len(text) < 400


# --------------------------------------------------------- 6: model object configs


@pytest.mark.parametrize("version", ["v0.4.2", "v0.4.5"])
def test_model_object__names_the_class_and_what_to_set(version: str) -> None:
    path = LM_EVAL / version / "api" / "results.json"
    assert json.loads(path.read_text())["config"]["model"] == "DummyLM"
    with pytest.raises(InputError) as info:
        read("lm-eval", path)
    text = str(info.value)
    assert "config.model is 'DummyLM'" in text
    assert 'results["model_name"] = NAME' in text


def test_model_object__a_name_or_path_in_config_model_is_used(tmp_path: Path) -> None:
    data = json.loads((V042 / "api" / "results.json").read_text())
    data["config"]["model"] = "EleutherAI/pythia-70m"  # what HFLM's _name_or_path gives
    path = tmp_path / "results.json"
    path.write_text(json.dumps(data))
    assert {r.model_id for r in _read(path)} == {"EleutherAI/pythia-70m"}


# ------------------------------------------------------------- 8: group weighting


def test_group_means__equal_weighting_is_told_with_both_numbers() -> None:
    _, notes = _notes([V042 / "dummy-a" / "results.json"])
    [note] = [n for n in notes if "group scores" in n]
    assert "tiny_suite 0.7000 (harness) vs 0.7500 (equal)" in note
    assert "task-weights: items" in note


def test_group_means__items_weighting_reproduces_the_harness_headline() -> None:
    for model in ("dummy-a", "dummy-b"):
        headline = json.loads((V042 / model / "results.json").read_text())["results"][
            "tiny_suite"
        ]["acc,none"]
        runs = load_runs_noting([str(V042 / model / "*.jsonl")], task_weights="items")[0]
        assert {r.task_id: r.weight for r in runs} == {"tiny_mc": 6.0, "tiny_mc2": 4.0}
        report = build_report(runs, resamples=200, seed=0)
        [row] = report.leaderboard
        assert row.mean_score == pytest.approx(headline)


def test_group_means__items_weighting_from_results_n_samples() -> None:
    results = sorted((LM_EVAL).glob("dummy-*/results_*.json"))
    runs, _ = load_runs_noting([str(p) for p in results], task_weights="items")
    weights = {r.task_id: r.weight for r in runs}
    assert weights == {"tiny_mc": 6.0, "tiny_mc2": 4.0, "tiny_gen": 5.0}


def test_group_means__items_weighting_without_counts_is_refused() -> None:
    with pytest.raises(InputError, match=r"n-samples.*task-weights: equal"):
        load_runs([str(V042 / "dummy-a" / "results.json")], task_weights="items")


def test_task_weights__unknown_value_is_a_usage_error() -> None:
    from leaderboard.errors import UsageError  # noqa: PLC0415

    with pytest.raises(UsageError, match="equal, items"):
        load_runs([str(PYTHIA)], task_weights="size")
