"""lm-evaluation-harness output: real files from scripts/make_lm_eval_fixtures.sh.

The fixtures are what lm-eval 0.4.13 wrote for two runs of its `dummy` model (named
dummy-a and dummy-b) on a group of two multiple-choice tasks and a generation task
with two filters and exact_match, chrf (0-100) and ter (lower-is-better).
"""

from __future__ import annotations

import json
import shutil
import statistics
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from leaderboard.errors import InputError
from leaderboard.inputs import EvalRun, load_runs
from leaderboard.inputs.frameworks import FormatWarning, read, sniff
from leaderboard.stats import build_report

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "lm_eval"
RESULTS = sorted(FIXTURES.glob("*/results_*.json"))
SAMPLES = sorted(FIXTURES.glob("*/samples_*.jsonl"))


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


def test_results__one_task_level_record_per_metric_and_filter() -> None:
    path = _results("dummy-a")
    data = json.loads(path.read_text())
    runs = _read_quietly(path)
    assert {r.model_id for r in runs} == {"dummy-a"}
    assert all(r.item_id is None and r.sample is None for r in runs)
    got = {r.task_id: r for r in runs}
    assert set(got) == {
        "tiny_mc/acc",
        "tiny_mc/acc_norm",
        "tiny_mc2/acc",
        "tiny_mc2/acc_norm",
        "tiny_gen/exact_match,strict-match",
        "tiny_gen/exact_match,flexible-extract",
        "tiny_gen/chrf,strict-match",
        "tiny_gen/chrf,flexible-extract",
    }
    results = data["results"]
    assert got["tiny_mc/acc"].score == results["tiny_mc"]["acc,none"]
    assert got["tiny_mc/acc"].metric_name == "acc,none"
    assert got["tiny_mc2/acc_norm"].score == results["tiny_mc2"]["acc_norm,none"]
    em = results["tiny_gen"]["exact_match,strict-match"]
    assert got["tiny_gen/exact_match,strict-match"].score == em
    assert got["tiny_gen/chrf,strict-match"].score == pytest.approx(
        results["tiny_gen"]["chrf,strict-match"] / 100
    )


def test_results__group_is_not_a_task_but_its_members_category() -> None:
    runs = _read_quietly(_results("dummy-a"))
    assert not any(r.task_id.startswith("tiny_suite") for r in runs)
    categories = {r.task_id.split("/")[0]: r.category for r in runs}
    assert categories == {
        "tiny_mc": "tiny_suite",
        "tiny_mc2": "tiny_suite",
        "tiny_gen": "general",
    }


def test_results__weights_make_each_task_count_once() -> None:
    runs = _read_quietly(_results("dummy-b"))
    per_task: dict[str, float] = defaultdict(float)
    for run in runs:
        per_task[run.task_id.split("/")[0]] += run.weight
    assert per_task == pytest.approx({"tiny_mc": 1.0, "tiny_mc2": 1.0, "tiny_gen": 1.0})


def test_results__rescaling_and_leaving_out_are_warned_not_silent() -> None:
    with pytest.warns(FormatWarning) as caught:
        read("lm-eval", _results("dummy-a"))
    messages = [str(w.message) for w in caught]
    assert any(
        "divided by 100" in m and "tiny_gen chrf,strict-match" in m for m in messages
    )
    assert any(
        "lower-is-better" in m and "tiny_gen ter,strict-match" in m for m in messages
    )


def test_samples__item_level_records_whose_means_are_the_results() -> None:
    for model in ("dummy-a", "dummy-b"):
        results = json.loads(_results(model).read_text())["results"]
        for task in ("tiny_mc", "tiny_mc2"):
            runs = read("lm-eval", _samples(model, task))
            assert {r.model_id for r in runs} == {model}
            by_task: dict[str, list[float]] = defaultdict(list)
            for run in runs:
                assert isinstance(run.item_id, int)
                by_task[run.task_id].append(run.score)
            assert set(by_task) == {f"{task}/acc", f"{task}/acc_norm"}
            for metric in ("acc", "acc_norm"):
                scores = by_task[f"{task}/{metric}"]
                assert statistics.fmean(scores) == pytest.approx(
                    results[task][f"{metric},none"]
                )
                assert len(scores) == results[task]["sample_len"]


def test_samples__corpus_metrics_left_out_with_a_warning() -> None:
    path = _samples("dummy-a", "tiny_gen")
    with pytest.warns(FormatWarning) as caught:
        runs = read("lm-eval", path)
    messages = " | ".join(str(w.message) for w in caught)
    assert "no per-document score" in messages
    assert "chrf,strict-match" in messages
    assert {r.task_id for r in runs} == {
        "tiny_gen/exact_match,strict-match",
        "tiny_gen/exact_match,flexible-extract",
    }
    assert {r.weight for r in runs} == {0.5}
    strict = [r.score for r in runs if r.metric_name == "exact_match,strict-match"]
    results = json.loads(_results("dummy-a").read_text())["results"]["tiny_gen"]
    assert statistics.fmean(strict) == pytest.approx(results["exact_match,strict-match"])


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


def test_results__value_outside_unit_interval_is_refused(tmp_path: Path) -> None:
    path = _copy_with(tmp_path, lambda d: d["results"]["tiny_mc"].update({"acc,none": 1.5}))
    with pytest.raises(InputError) as info:
        read("lm-eval", path)
    text = str(info.value)
    for part in ("'tiny_mc'", "'acc,none'", "1.5", str(path)):
        assert part in text
    assert "results.tiny_mc.acc,none" in text


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
        runs = load_runs(str(FIXTURES / "*" / "samples_*.jsonl"))
    assert {r.model_id for r in runs} == {"dummy-a", "dummy-b"}
    assert len(runs) == 2 * (2 * 6 + 2 * 4 + 2 * 5)


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
                for metric in ("acc", "acc_norm"):
                    row = {
                        "model_id": model,
                        "task_id": f"{task}/{metric}",
                        "score": doc[metric],
                        "item_id": doc["doc_id"],
                        "metric_name": f"{metric},none",
                        "category": "tiny_suite",
                        "weight": 0.5,
                    }
                    handle.write(json.dumps(row) + "\n")
    from_records = load_runs(str(records))
    from_harness = load_runs(str(FIXTURES / "*" / "samples_tiny_mc*.jsonl"))
    assert from_records == from_harness
    settings: dict[str, Any] = {"baseline": "dummy-a", "resamples": 200, "seed": 1}
    assert build_report(from_records, **settings).model_dump(mode="json") == build_report(
        from_harness, **settings
    ).model_dump(mode="json")
