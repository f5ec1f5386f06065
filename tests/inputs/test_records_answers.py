"""The item's input and the model's answer, as each reader keeps them (issue 33).

Records carry them as the optional `input` and `output` fields; the framework readers
take them from what the framework wrote (the real files of tests/fixtures). Each is
kept as one short line however long the file's text (`records.answer_line`).
"""

from __future__ import annotations

import json
import tracemalloc
import warnings
from pathlib import Path

import pytest

from leaderboard.errors import InputError
from leaderboard.inputs import EvalRun, load_runs
from leaderboard.inputs.records import MAX_ANSWER, answer_line
from tests.inputs.record_files import write_records

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
HOSTILE = "**bold** <img src=x onerror=alert(1)> [link](https://evil.example) @octocat"


def _load(paths: list[Path] | Path, fmt: str = "auto") -> list[EvalRun]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the readers' notes on default choices
        return load_runs(paths, format=fmt, texts=True)


def _by_item(runs: list[EvalRun]) -> dict[tuple[str, str], tuple[str | None, ...]]:
    return {(r.model_id, str(r.item_id)): (r.input, r.output) for r in runs}


# ------------------------------------------------------------------ answer_line


def test_answer_line__first_line_cut_and_marked() -> None:
    assert answer_line("What is 2 + 2?") == "What is 2 + 2?"
    assert answer_line("\n\n  Paris\nbecause it is the capital") == "Paris …"
    long = answer_line("x" * 10_000)
    assert long is not None
    assert len(long) == MAX_ANSWER
    assert long.endswith("…")
    assert answer_line("") == ""  # an empty answer is an answer
    assert answer_line(None) is None


def test_answer_line__control_and_bidi_characters_become_spaces() -> None:
    text = "a\x1b[31mred\u202eevil\u2028next\x00end"
    line = answer_line(text)
    assert line == "a [31mred evil …"
    assert line is not None
    assert line.isprintable()


@pytest.mark.parametrize(
    "text", ["x" * 5000, "word " * 2000, "first\n" + "y" * 9000, "é" * 500 + "\n"]
)
def test_answer_line__is_idempotent(text: str) -> None:
    once = answer_line(text)
    assert answer_line(once) == once


def test_answer_line__keeps_a_short_copy_of_a_huge_answer() -> None:
    huge = "z" * 20_000_000
    kept = answer_line(huge)
    assert kept is not None
    assert len(kept) == MAX_ANSWER
    del huge  # nothing of the 20 MB string survives in what is kept
    tracemalloc.start()
    run = EvalRun("m", "t", 1.0, item_id="1", input=kept, output=kept)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 10_000
    assert run.output == kept


# ---------------------------------------------------------------- records


RECORDS = [
    {"model_id": "m", "task_id": "t", "item_id": 1, "score": 1,
     "input": "What is 2 + 2?\nShow your work.", "output": "4"},
    {"model_id": "m", "task_id": "t", "item_id": 2, "score": 0, "output": HOSTILE},
    {"model_id": "m", "task_id": "t", "item_id": 3, "score": 1},
]  # fmt: skip


def _write(tmp_path: Path, kind: str) -> Path:
    fields = ["model_id", "task_id", "item_id", "score", "input", "output"]
    return write_records(tmp_path, kind, RECORDS, fields)


@pytest.mark.parametrize("kind", ["json", "jsonl", "csv"])
def test_records__input_and_output_read_alike_from_every_format(
    tmp_path: Path, kind: str
) -> None:
    runs = _load(_write(tmp_path, kind))
    assert [(r.input, r.output) for r in runs] == [
        ("What is 2 + 2? …", "4"),
        (None, HOSTILE),  # kept as written: escaping is the renderer's
        (None, None),
    ]


@pytest.mark.parametrize("kind", ["json", "jsonl"])
def test_records__a_non_string_output_names_file_record_and_field(
    tmp_path: Path, kind: str
) -> None:
    path = tmp_path / f"bad.{kind}"
    bad = [{"model_id": "m", "task_id": "t", "item_id": 1, "score": 1, "output": [1]}]
    path.write_text(json.dumps(bad) if kind == "json" else json.dumps(bad[0]) + "\n")
    with pytest.raises(InputError) as err:
        _load(path)
    assert err.value.field == "output"
    assert "must be a string, got an array" in str(err.value)
    assert str(path) in str(err.value)


def test_records__near_misses_of_input_and_output_stay_other_fields(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    record = {"model_id": "m", "task_id": "t", "score": 1, "inputs": {"q": 1}, "outputs": 2}
    path.write_text(json.dumps(record) + "\n")
    (run,) = _load(path)
    assert (run.input, run.output) == (None, None)


@pytest.mark.parametrize("kind", ["json", "jsonl", "csv"])
def test_records__no_text_is_kept_unless_asked(tmp_path: Path, kind: str) -> None:
    runs = load_runs(_write(tmp_path, kind))
    assert [(r.input, r.output) for r in runs] == [(None, None)] * 3


@pytest.mark.parametrize(
    ("fmt", "path"),
    [
        ("inspect", "inspect/log_formats.json"),
        ("promptfoo", "promptfoo/own-run-0.121.20/results.json"),
        ("deepeval", "deepeval/unhm-a/temp_test_run_data.json"),
        (
            "lm-eval",
            "lm_eval/v0.4.5/dummy-a/dummy-a/samples_tiny_gen_2026-11-30T18-28-06.365647.jsonl",
        ),
    ],
)
def test_frameworks__no_text_is_kept_unless_asked(fmt: str, path: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        off = load_runs(FIXTURES / path, format=fmt)
        on = load_runs(FIXTURES / path, format=fmt, texts=True)
    assert all(r.input is None and r.output is None for r in off)
    assert all(r.input is not None and r.output is not None for r in on)


def test_records__a_megabyte_answer_keeps_one_short_line(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    lines = [
        json.dumps(
            {"model_id": "m", "task_id": "t", "item_id": i, "score": 1,
             "output": f"{i} " + "long answer " * 90_000}
        )
        for i in range(3)
    ]  # fmt: skip
    path.write_text("\n".join(lines) + "\n")
    runs = _load(path)
    assert all(r.output is not None and len(r.output) == MAX_ANSWER for r in runs)


# ---------------------------------------------------------- frameworks' files


def test_inspect_archive__input_and_the_scorers_answer() -> None:
    # .eval archives with summaries.json: the summaries hold the input and the
    # scorer's answer, not the output (tests/fixtures/inspect/differ/README.md)
    runs = _load(sorted((FIXTURES / "inspect" / "differ" / "renamed").glob("*.eval")))
    got = _by_item(runs)
    assert got["mockllm/model-v2", "arith-001"] == ("What is 1 + 1?", "21")
    assert got["mockllm/model-v2", "arith-002"] == ("What is 2 + 2?", "4")


def test_inspect_json_log__input_and_the_completion() -> None:
    (run,) = _load(FIXTURES / "inspect" / "log_formats.json", "inspect")
    doc = json.loads((FIXTURES / "inspect" / "log_formats.json").read_text())
    sample = doc["samples"][0]
    # this older log's output has no `completion`: its first choice's message
    assert "completion" not in sample["output"]
    assert run.output == sample["output"]["choices"][0]["message"]["content"] == "No"
    assert run.input is not None
    assert run.input.startswith("Is the following statement something you would say?")


def test_promptfoo__vars_and_the_response_output() -> None:
    for name in ("results.json", "results.jsonl"):
        runs = _load(FIXTURES / "promptfoo" / "own-run-0.121.20" / name, "promptfoo")
        got = _by_item(runs)
        assert got["local-table", "capital-france #2cf1977cde"] == (
            "What is the capital of France?",
            "The answer is Paris.",
        )
        assert got["echo-baseline", "add #83c079aca4"] == (
            "What is 2+2?",
            "Question: What is 2+2?",
        )


def test_deepeval__input_and_actual_output() -> None:
    path = FIXTURES / "deepeval" / "unhm-a" / "temp_test_run_data.json"
    runs = _load(path, "deepeval")
    case = json.loads(path.read_text())["testCases"][1]
    by_input = {r.input: r.output for r in runs}
    assert by_input[answer_line(case["input"])] == answer_line(case["actualOutput"])
    # a markdown heading answer (a real run's) is kept as written, cut
    fusion = _load(FIXTURES / "deepeval" / "fusion-run-a" / ".latest_test_run.json")
    assert {r.output for r in fusion} == {"### 核心结论 …", "1. **核心结论** …"}


def test_lm_eval_samples__doc_question_and_filtered_response() -> None:
    folder = FIXTURES / "lm_eval" / "v0.4.5" / "dummy-a" / "dummy-a"
    runs = _load(sorted(folder.glob("samples_*.jsonl")), "lm-eval")
    got = {(r.task_id, str(r.item_id)): (r.input, r.output) for r in runs}
    assert got["tiny_gen", "1"] == ("Say hi:", "lol")  # generation: filtered_resps
    # multiple choice: the likeliest of the log-likelihoods, named from doc.choices
    assert got["tiny_mc", "0"] == ("2 + 2 =", "likeliest choice 2: 5")


def test_lm_eval_samples__a_few_shot_prompt_shows_the_documents_question() -> None:
    folder = FIXTURES / "lm_eval" / "public" / "asdiv-pr2236"
    runs = _load(sorted(folder.glob("samples_*.jsonl")), "lm-eval")
    first = next(r for r in runs if str(r.item_id) == "0")
    assert first.input == "How many apples are in the basket?"
    assert first.output is not None
    assert first.output.startswith("log-likelihood of the target ")
