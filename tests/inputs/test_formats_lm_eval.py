"""lm-evaluation-harness output: real files from scripts/make_lm_eval_fixtures.sh.

The fixtures are what lm-eval 0.4.13 wrote for two runs of its `dummy` model (named
dummy-a and dummy-b) on a group of two multiple-choice tasks and a generation task
with two filters and exact_match, chrf (0-100) and ter (lower-is-better).
"""

from __future__ import annotations

import json
import shutil
import statistics
import warnings
from pathlib import Path
from typing import Any

import pytest

from leaderboard.errors import InputError
from leaderboard.inputs import EvalRun, load_runs
from leaderboard.inputs.frameworks import FormatWarning, ReadOptions, read, sniff
from leaderboard.stats import build_report

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "lm_eval"
RESULTS = sorted(FIXTURES.glob("dummy-*/results_*.json"))
SAMPLES = sorted(FIXTURES.glob("dummy-*/samples_*.jsonl"))


def _results(model: str) -> Path:
    [path] = [p for p in RESULTS if p.parent.name == model]
    return path


def _samples(model: str, task: str) -> Path:
    [path] = [p for p in SAMPLES if p.parent.name == model and f"_{task}_" in p.name]
    return path


def _read_quietly(path: Path) -> list[EvalRun]:
    with pytest.warns(FormatWarning):
        return read("lm-eval", path)


def test_fixtures__are_present() -> None:
    assert len(RESULTS) == 2
    assert len(SAMPLES) == 6


@pytest.mark.parametrize("path", RESULTS + SAMPLES, ids=lambda p: p.name)
def test_sniff__recognises_every_real_file(path: Path) -> None:
    assert sniff(path, path.read_bytes()[: 64 * 1024]) == "lm-eval"


def test_results__one_task_level_record_per_task_of_its_primary_metric() -> None:
    path = _results("dummy-a")
    data = json.loads(path.read_text())
    runs = _read_quietly(path)
    assert {r.model_id for r in runs} == {"dummy-a"}
    assert all(r.item_id is None and r.sample is None for r in runs)
    got = {r.task_id: r for r in runs}
    assert set(got) == {"tiny_mc", "tiny_mc2", "tiny_gen"}
    results = data["results"]
    # The first (metric, filter) the harness wrote: metric_list order, first filter.
    assert got["tiny_mc"].metric_name == "acc,none"
    assert got["tiny_mc"].score == results["tiny_mc"]["acc,none"]
    assert got["tiny_gen"].metric_name == "exact_match,strict-match"
    assert got["tiny_gen"].score == results["tiny_gen"]["exact_match,strict-match"]
    assert {r.weight for r in runs} == {1.0}


def test_results__metric_option_chooses_metric_and_filter() -> None:
    path = _results("dummy-b")
    results = json.loads(path.read_text())["results"]
    with pytest.warns(FormatWarning):
        runs = read(
            "lm-eval",
            path,
            ReadOptions(metrics=("acc_norm", "exact_match,flexible-extract")),
        )
    got = {r.task_id: r for r in runs}
    assert got["tiny_mc"].metric_name == "acc_norm,none"
    assert got["tiny_mc2"].score == results["tiny_mc2"]["acc_norm,none"]
    assert got["tiny_gen"].metric_name == "exact_match,flexible-extract"
    assert got["tiny_gen"].score == results["tiny_gen"]["exact_match,flexible-extract"]


def test_results__group_is_not_a_task_but_its_members_category() -> None:
    runs = _read_quietly(_results("dummy-a"))
    assert not any(r.task_id.startswith("tiny_suite") for r in runs)
    categories = {r.task_id: r.category for r in runs}
    assert categories == {
        "tiny_mc": "tiny_suite",
        "tiny_mc2": "tiny_suite",
        "tiny_gen": "general",
    }


def test_results__left_out_and_rescaled_metrics_are_told_once_per_kind() -> None:
    path = _results("dummy-a")
    with pytest.warns(FormatWarning) as caught:
        runs = read("lm-eval", path, ReadOptions(metrics=("chrf",)))
    messages = [str(w.message) for w in caught]
    chrf = json.loads(path.read_text())["results"]["tiny_gen"]["chrf,strict-match"]
    assert {r.task_id: r.score for r in runs}["tiny_gen"] == pytest.approx(chrf / 100)
    assert any(
        "mapped onto [0, 1]" in m and "tiny_gen chrf,strict-match from [0, 100]" in m
        for m in messages
    )
    assert any("lower-is-better" in m and "ter,strict-match" in m for m in messages)
    [others] = [m for m in messages if "one score per task" in m]
    assert "exact_match,strict-match in tiny_gen" in others
    assert len({m.split(": ", 2)[1] for m in messages}) == len(messages)


def test_samples__item_level_records_whose_means_are_the_results() -> None:
    for model in ("dummy-a", "dummy-b"):
        results = json.loads(_results(model).read_text())["results"]
        for task in ("tiny_mc", "tiny_mc2"):
            for metric in ("acc", "acc_norm"):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", FormatWarning)
                    runs = read(
                        "lm-eval", _samples(model, task), ReadOptions(metrics=(metric,))
                    )
                assert {(r.model_id, r.task_id) for r in runs} == {(model, task)}
                assert all(isinstance(r.item_id, int) for r in runs)
                assert {r.metric_name for r in runs} == {f"{metric},none"}
                scores = [r.score for r in runs]
                assert statistics.fmean(scores) == pytest.approx(
                    results[task][f"{metric},none"]
                )
                assert len(scores) == results[task]["sample_len"]


def test_samples__corpus_metric_chosen_leaves_the_task_out_with_its_reason() -> None:
    path = _samples("dummy-a", "tiny_gen")
    runs = _read_quietly(path)
    results = json.loads(_results("dummy-a").read_text())["results"]["tiny_gen"]
    assert {r.metric_name for r in runs} == {"exact_match,strict-match"}
    assert statistics.fmean(r.score for r in runs) == pytest.approx(
        results["exact_match,strict-match"]
    )
    with pytest.raises(InputError, match=r"corpus-level.*tiny_gen chrf,strict-match"):
        read("lm-eval", path, ReadOptions(metrics=("chrf",)))


def test_samples__without_their_results_file_are_refused(tmp_path: Path) -> None:
    path = _samples("dummy-a", "tiny_mc")
    copy = tmp_path / path.name
    shutil.copy(path, copy)
    with pytest.raises(InputError, match="without its results file") as info:
        read("lm-eval", copy)
    assert str(copy) in str(info.value)
    assert "\n" not in str(info.value)


def _copy_with(tmp_path: Path, change: Any) -> Path:
    data = json.loads(_results("dummy-a").read_text())
    change(data)
    path = tmp_path / "results_2026-01-01T00-00-00.000000.json"
    path.write_text(json.dumps(data, indent=2))
    return path


def test_results__value_outside_the_unit_interval_leaves_only_that_task_out(
    tmp_path: Path,
) -> None:
    path = _copy_with(tmp_path, lambda d: d["results"]["tiny_mc"].update({"acc,none": 1.5}))
    with pytest.warns(FormatWarning) as caught:
        runs = read("lm-eval", path)
    assert {r.task_id for r in runs} == {"tiny_mc2", "tiny_gen"}
    [told] = [str(w.message) for w in caught if "no known scale" in str(w.message)]
    assert str(path) in told
    assert "tiny_mc acc,none = 1.5" in told


def test_results__model_from_model_args_when_model_name_is_absent(tmp_path: Path) -> None:
    def change(data: dict[str, Any]) -> None:
        del data["model_name"]
        data["config"]["model_args"] = "pretrained=org/some-model,dtype=float32"

    with pytest.warns(FormatWarning):
        runs = read("lm-eval", _copy_with(tmp_path, change))
    assert {r.model_id for r in runs} == {"org/some-model"}


def test_results__no_model_name_is_refused(tmp_path: Path) -> None:
    def change(data: dict[str, Any]) -> None:
        del data["model_name"]
        data["config"]["model_args"] = {}

    with pytest.raises(InputError, match="names no model"):
        read("lm-eval", _copy_with(tmp_path, change))


def test_results__only_unrankable_metrics_is_refused(tmp_path: Path) -> None:
    def change(data: dict[str, Any]) -> None:
        data["results"] = {"wikitext": {"alias": "wikitext", "word_perplexity,none": 31.2}}
        data["higher_is_better"] = {"wikitext": {"word_perplexity": False}}
        data["group_subtasks"] = {}
        data["groups"] = {}

    with pytest.raises(InputError, match=r"no score.*lower-is-better.*word_perplexity"):
        read("lm-eval", _copy_with(tmp_path, change))


def test_load_runs__auto_reads_the_harness_output_directory() -> None:
    with pytest.warns(FormatWarning):
        runs = load_runs(str(FIXTURES / "dummy-*" / "samples_*.jsonl"))
    assert {r.model_id for r in runs} == {"dummy-a", "dummy-b"}
    assert len(runs) == 2 * (6 + 4 + 5)


def test_round_trip__records_and_lm_eval_samples_give_the_same_report(
    tmp_path: Path,
) -> None:
    records = tmp_path / "records.jsonl"
    with records.open("w") as handle:
        for path in SAMPLES:
            model = json.loads(_results(path.parent.name).read_text())["model_name"]
            for line in path.read_text().splitlines():
                doc = json.loads(line)
                task = path.name.split("_2026")[0].removeprefix("samples_")
                if task == "tiny_gen":
                    continue
                row = {
                    "model_id": model,
                    "task_id": task,
                    "score": doc["acc"],
                    "item_id": doc["doc_id"],
                    "metric_name": "acc,none",
                    "category": "tiny_suite",
                    "metrics": {"acc_norm": doc["acc_norm"]},
                }
                handle.write(json.dumps(row) + "\n")
    from_records = load_runs(str(records))
    with pytest.warns(FormatWarning):
        from_harness = load_runs(str(FIXTURES / "dummy-*" / "samples_tiny_mc*.jsonl"))
    assert from_records == from_harness
    settings: dict[str, Any] = {"baseline": "dummy-a", "resamples": 200, "seed": 1}
    assert build_report(from_records, **settings).model_dump(mode="json") == build_report(
        from_harness, **settings
    ).model_dump(mode="json")
