"""promptfoo output (``promptfoo eval -o results.json`` / ``.jsonl``): real files.

``tests/fixtures/promptfoo/own-run-0.121.20/`` is what promptfoo 0.121.20 wrote for the
config beside it (two offline providers, six tests; once, and with ``--repeat 2``);
``public/french-greeting-test_output.json`` is promptfoo 0.120.16 output from
promptfoo's own repository (origins and licences in tests/fixtures/promptfoo/README.md).
tests/inputs/test_formats_promptfoo_run.py runs promptfoo itself.
"""

from __future__ import annotations

import json
import math
import warnings
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from leaderboard.errors import InputError
from leaderboard.inputs import EvalRun, load_runs
from leaderboard.inputs.frameworks import FormatWarning, ReadOptions, read, sniff

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "promptfoo"
OWN = FIXTURES / "own-run-0.121.20"
FRENCH = FIXTURES / "public" / "french-greeting-test_output.json"


def _read(path: Path, *metrics: str) -> list[EvalRun]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FormatWarning)
        return read("promptfoo", path, ReadOptions(metrics=metrics))


def _own_counts(path: Path) -> dict[str, dict[str, Any]]:
    """promptfoo's own per-provider tallies (``results.prompts[].metrics``)."""
    prompts = json.loads(path.read_text())["results"]["prompts"]
    return {p["provider"]: p["metrics"] for p in prompts}


@pytest.mark.parametrize(
    "path",
    [OWN / "results.json", OWN / "results.jsonl", OWN / "results_repeat2.jsonl", FRENCH],
    ids=lambda p: p.name,
)
def test_sniff__recognises_every_real_output(path: Path) -> None:
    assert sniff(path, path.read_bytes()[: 64 * 1024]) == "promptfoo"


def test_read__providers_are_models_tests_are_items_pass_is_the_score() -> None:
    runs = _read(OWN / "results.json")
    assert len(runs) == 12
    assert {r.model_id for r in runs} == {"echo-baseline", "local-table"}
    assert {r.task_id for r in runs} == {"Question: {{question}}"}
    assert {r.metric_name for r in runs} == {"pass"}
    assert all(r.sample is None for r in runs)
    items = {str(r.item_id).split(" #")[0] for r in runs}
    assert items == {
        "capital-france",
        "capital-italy",
        "add",
        "mul-equals",
        "length-js",
        "two-asserts-weighted",
    }
    passed: dict[str, float] = defaultdict(float)
    for run in runs:
        passed[run.model_id] += run.score
    counts = _own_counts(OWN / "results.json")
    assert passed == {m: c["testPassCount"] for m, c in counts.items()}


def test_read__score_metric_is_the_assertion_score_independent_of_pass() -> None:
    runs = _read(OWN / "results.json", "score")
    assert {r.metric_name for r in runs} == {"score"}
    total: dict[str, float] = defaultdict(float)
    for run in runs:
        total[run.model_id] += run.score
    counts = _own_counts(OWN / "results.json")
    assert total == pytest.approx({m: c["score"] for m, c in counts.items()})
    weighted = {
        r.model_id: r.score for r in runs if str(r.item_id).startswith("two-asserts")
    }
    # echo passes this test with score 0.4375; local-table fails it with 0.75.
    assert weighted == {"echo-baseline": 0.4375, "local-table": 0.75}
    passed = {
        r.model_id: r.score
        for r in _read(OWN / "results.json")
        if str(r.item_id).startswith("two-asserts")
    }
    assert passed == {"echo-baseline": 1.0, "local-table": 0.0}


def test_read__json_and_jsonl_of_one_run_give_the_same_records() -> None:
    from_json = sorted(_read(OWN / "results.json"), key=repr)
    from_jsonl = sorted(_read(OWN / "results.jsonl"), key=repr)
    assert [(r.model_id, r.item_id) for r in from_json] == [
        (r.model_id, r.item_id) for r in from_jsonl
    ]


def test_read__repeats_are_samples_of_stable_items_not_new_test_indices() -> None:
    once = _read(OWN / "results.json")
    twice = _read(OWN / "results_repeat2.jsonl")
    assert len(twice) == 24
    assert {r.item_id for r in twice} == {r.item_id for r in once}
    per_item: dict[tuple[str, Any], list[int | None]] = defaultdict(list)
    for run in twice:
        per_item[run.model_id, run.item_id].append(run.sample)
    assert all(sorted(s) == [0, 1] for s in per_item.values())  # type: ignore[type-var]
    with pytest.warns(FormatWarning, match="left out.*score"):
        loaded = load_runs([OWN / "results_repeat2.jsonl"])
    assert len(loaded) == 24


def test_read__public_output_unlabelled_provider_and_named_scores() -> None:
    [run] = _read(FRENCH)
    assert run.model_id == "openai:gpt-4o-mini"  # label "" -> the provider id
    assert run.task_id == "Greet the user in French."
    assert run.score == 0.0  # success false
    [scored] = _read(FRENCH, "score")
    assert scored.score == pytest.approx(0.8203000664800403)
    [named] = _read(FRENCH, "Topicality")
    assert named.metric_name == "Topicality"
    assert named.score == pytest.approx(0.6015003324002018)


def test_read__the_scores_left_out_are_named_once() -> None:
    with pytest.warns(FormatWarning) as caught:
        read("promptfoo", FRENCH)
    [message] = [str(w.message) for w in caught]
    assert "one score per task" in message
    for name in ("score", "Correctness", "Tone", "Topicality", "Performance"):
        assert name in message


def _derived(tmp_path: Path, change: Any) -> Path:
    data = json.loads((OWN / "results.json").read_text())
    change(data)
    path = tmp_path / "results.json"
    path.write_text(json.dumps(data))
    return path


def test_read__an_errored_row_arrives_errored_not_scored_zero(tmp_path: Path) -> None:
    def change(data: dict[str, Any]) -> None:
        row = data["results"]["results"][3]
        row.update(
            failureReason=2,
            success=False,
            score=0,
            gradingResult=None,
            error="RateLimitExhaustedError: too many requests",
        )

    path = _derived(tmp_path, change)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        runs = read("promptfoo", path)
    (errored,) = [r for r in runs if r.error is not None]
    assert errored.error == "RateLimitExhaustedError: too many requests"
    assert math.isnan(errored.score)
    assert len(runs) == 12  # the errored row is attempted, not scored, never a 0
    (text,) = [str(w.message) for w in caught if "rows errored" in str(w.message)]
    assert "1 of 12 rows errored" in text
    assert "attempted, not scored" in text
    assert "row 4" in text


def test_read__a_file_whose_every_row_errored_is_refused(tmp_path: Path) -> None:
    def change(data: dict[str, Any]) -> None:
        for row in data["results"]["results"]:
            row.update(failureReason=2, gradingResult=None, error="boom")

    with pytest.raises(InputError) as info:
        read("promptfoo", _derived(tmp_path, change))
    text = str(info.value)
    assert "every row errored (12)" in text
    assert "--retry-errors" in text
    assert "\n" not in text


def test_read__node_api_eval_object_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "output.json"
    path.write_text(json.dumps({"id": "eval-1", "_resultsLoaded": False, "results": []}))
    with pytest.raises(InputError, match="Node API"):
        read("promptfoo", path)


def test_read__score_outside_the_unit_interval_leaves_the_task_out(
    tmp_path: Path,
) -> None:
    path = _derived(tmp_path, lambda d: d["results"]["results"][0].update(score=3.5))
    with pytest.raises(InputError, match="not in \\[0, 1\\]"):
        read("promptfoo", path, ReadOptions(metrics=("score",)))


def test_load_runs__auto_tells_promptfoo_from_lm_eval_and_records() -> None:
    with pytest.warns(FormatWarning):
        runs = load_runs([OWN / "results.json", FRENCH])
    assert {r.model_id for r in runs} == {
        "echo-baseline",
        "local-table",
        "openai:gpt-4o-mini",
    }
