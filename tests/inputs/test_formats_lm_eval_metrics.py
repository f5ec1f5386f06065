"""lm-eval: every rankable metric of a task kept, the primary as the score.

The other metrics become the record's secondary ``metrics`` (for guardrails), named as
``acc_norm`` for ``acc_norm,none`` and by the results key under another filter
(``exact_match,flexible-extract``). And a `metric` naming nothing the run holds is
refused for samples files as for results files (CONTRACT.md section 7). Real files:
the harness's dummy-model runs (tests/fixtures/lm_eval/README.md); expected values are
read here from the files' JSON.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest

from leaderboard.cli import main
from leaderboard.errors import InputError
from leaderboard.inputs import EvalRun
from leaderboard.inputs.frameworks import FormatWarning, ReadOptions, read

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "lm_eval"


def _read(path: Path, *metrics: str) -> list[EvalRun]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FormatWarning)
        return read("lm-eval", path, ReadOptions(metrics=metrics))


def _one(folder: Path, pattern: str) -> Path:
    [path] = folder.glob(pattern)
    return path


def _docs(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_results__other_metrics_of_each_task_kept_beside_the_score() -> None:
    path = _one(FIXTURES / "dummy-a", "results_*.json")
    results = json.loads(path.read_text())["results"]
    got = {r.task_id: dict(r.metrics) for r in _read(path)}
    for task in ("tiny_mc", "tiny_mc2"):
        assert got[task] == {"acc_norm": results[task]["acc_norm,none"]}
    gen = results["tiny_gen"]
    assert got["tiny_gen"] == {
        "exact_match,flexible-extract": gen["exact_match,flexible-extract"],
        # chrf is sacrebleu's 0-100 score: mapped as the primary would be; ter
        # (lower-is-better) is never kept.
        "chrf,strict-match": pytest.approx(gen["chrf,strict-match"] / 100),
        "chrf,flexible-extract": pytest.approx(gen["chrf,flexible-extract"] / 100),
    }


def test_results__the_metric_option_swaps_score_and_secondary() -> None:
    path = _one(FIXTURES / "dummy-b", "results_*.json")
    results = json.loads(path.read_text())["results"]
    [mc] = [r for r in _read(path, "acc_norm") if r.task_id == "tiny_mc"]
    assert mc.metric_name == "acc_norm,none"
    assert mc.score == results["tiny_mc"]["acc_norm,none"]
    assert mc.metrics == (("acc", results["tiny_mc"]["acc,none"]),)


def test_results__v03_bare_keys_keep_acc_norm() -> None:
    path = FIXTURES / "public" / "160m-5shot_step143000.json"
    results = json.loads(path.read_text())["results"]
    runs = _read(path)
    with_norm = [r for r in runs if "acc_norm" in results[r.task_id]]
    assert len(with_norm) > 50
    for run in with_norm:
        assert dict(run.metrics) == {"acc_norm": results[run.task_id]["acc_norm"]}


def test_samples__each_document_keeps_its_own_acc_norm() -> None:
    path = _one(FIXTURES / "dummy-b", "samples_tiny_mc_*.jsonl")
    runs = _read(path)
    want = {d["doc_id"]: d["acc_norm"] for d in _docs(path)}
    assert len(runs) == len(want) == 6
    assert {r.item_id: dict(r.metrics) for r in runs} == {
        doc: {"acc_norm": value} for doc, value in want.items()
    }
    # dummy-b's documents 1 and 2 differ between acc and acc_norm: not a copy.
    assert [r.item_id for r in runs if r.score != dict(r.metrics)["acc_norm"]] == [1, 2]


def test_samples__the_other_filter_is_read_from_its_own_lines_corpus_metrics_not() -> None:
    path = _one(FIXTURES / "dummy-b", "samples_tiny_gen_*.jsonl")
    docs = _docs(path)
    flexible = {
        d["doc_id"]: d["exact_match"] for d in docs if d["filter"] != "strict-match"
    }
    runs = _read(path)
    assert {r.metric_name for r in runs} == {"exact_match,strict-match"}
    # chrf's aggregation is the corpus score: no per-document value is kept.
    assert {r.item_id: dict(r.metrics) for r in runs} == {
        doc: {"exact_match,flexible-extract": value} for doc, value in flexible.items()
    }


def test_samples__v045_lines_without_filter_keep_the_second_filter_by_order() -> None:
    folder = FIXTURES / "v0.4.5" / "dummy-a" / "dummy-a"
    path = _one(folder, "samples_tiny_gen_*.jsonl")
    docs = _docs(path)
    second: dict[int, float] = {}
    seen: set[int] = set()
    for doc in docs:  # each document twice: strict-match first, flexible-extract second
        if doc["doc_id"] in seen:
            second[doc["doc_id"]] = doc["exact_match"]
        seen.add(doc["doc_id"])
    runs = _read(path)
    assert len(second) == len(runs) == 5
    assert {r.item_id: dict(r.metrics) for r in runs} == {
        doc: {"exact_match,flexible-extract": v} for doc, v in second.items()
    }


def test_samples__a_metric_the_run_does_not_hold_is_refused_listing_it() -> None:
    path = _one(FIXTURES / "dummy-a", "samples_tiny_mc_*.jsonl")
    with pytest.raises(InputError) as caught:
        _read(path, "nosuch")
    text = str(caught.value)
    assert text.startswith(str(path))
    assert "--metric nosuch: names nothing this file holds; it holds: " in text
    for key in ("acc,none", "acc_norm,none", "exact_match,strict-match"):
        assert key in text
    assert "\n" not in text


def test_samples__a_metric_another_task_of_the_run_holds_falls_back() -> None:
    path = _one(FIXTURES / "dummy-a", "samples_tiny_gen_*.jsonl")
    with warnings.catch_warnings(record=True) as told:
        warnings.simplefilter("always", FormatWarning)
        runs = read("lm-eval", path, ReadOptions(metrics=("acc_norm",)))
    assert any("none of the preferred metrics reported" in str(w.message) for w in told)
    assert {r.metric_name for r in runs} == {"exact_match,strict-match"}


def test_cli__samples_with_an_unmatched_metric_exit_2_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["report", str(FIXTURES / "dummy-a" / "samples_*.jsonl"), "--metric", "nosuch"]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err
    assert "Traceback" not in err
    assert "field `metric`" in err
    assert "names nothing this file holds; it holds: acc,none, acc_norm,none" in err
