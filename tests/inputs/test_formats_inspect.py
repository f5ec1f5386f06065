"""A real Inspect eval, run offline, read back by the action's own reader and loader.

Inspect runs with its ``mockllm`` provider and scripted outputs (so scores vary) on a
dataset this test writes, two epochs, and writes real ``.eval`` and ``.json`` logs.
The records are checked against Inspect's own log reader and its computed metrics.
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

# Inspect estimates token counts with tiktoken's o200k_base encoding, which tiktoken
# downloads on first use; offline that fails and the log gets status "error". This
# private name is patched on purpose: the pinned inspect-ai==0.3.285 has it, and if a
# new version moves it this fails loudly here instead of silently going online.
import inspect_ai.model._model as inspect_model
import pytest
from backports.zstd import zipfile
from inspect_ai import Task
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.log import read_eval_log
from inspect_ai.model import ModelOutput, get_model
from inspect_ai.scorer import includes, match, value_to_float
from inspect_ai.solver import generate

from leaderboard.errors import InputError
from leaderboard.inputs import EvalRun, load_runs
from leaderboard.inputs.frameworks import FormatWarning, ReadOptions, read, sniff
from leaderboard.stats import build_report

# Inspect's own internals warn (a tenacity DeprecationWarning, anyio streams closed at
# garbage collection); they are not this project's, so this module does not fail on them.
pytestmark = [
    pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning"),
    pytest.mark.filterwarnings("ignore::ResourceWarning"),
]

WORDS = ["alpha", "bravo", "charlie", "delta", "echo"]
# Scripted answers, one per generate() call: 10 calls for 5 samples x 2 epochs.
ANSWERS = {
    "mockllm/model": [
        "alpha",
        "x",
        "charlie",
        "y",
        "echo",
        "alpha",
        "bravo",
        "z",
        "q",
        "w",
    ],
    "mockllm/other": [
        "alpha",
        "bravo",
        "charlie",
        "delta",
        "n",
        "a",
        "bravo",
        "c",
        "d",
        "e",
    ],
}


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    assert hasattr(inspect_model, "count_text_tokens"), "inspect_ai moved count_text_tokens"
    patch = pytest.MonkeyPatch()
    patch.setattr(inspect_model, "count_text_tokens", lambda text: max(1, len(text) // 4))
    out: dict[str, Path] = {}
    dataset = MemoryDataset(
        [Sample(id=f"q{i}", input=f"Say {w}", target=w) for i, w in enumerate(WORDS)]
    )

    def run(
        name: str, model_name: str, fmt: str, scorers: list[Any], *, score: bool = True
    ) -> None:
        outputs = [ModelOutput.from_content(model_name, a) for a in ANSWERS[model_name]]
        model = get_model(model_name, custom_outputs=outputs)
        task = Task(dataset=dataset, solver=generate(), scorer=scorers, name="tiny")
        log_dir = tmp_path_factory.mktemp(name)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            [log] = inspect_eval(
                task,
                model=model,
                log_dir=str(log_dir),
                epochs=2,
                display="none",
                log_format=fmt,
                max_samples=1,
                score=score,
            )
        assert log.status == "success", log.error
        [path] = log_dir.iterdir()
        out[name] = path

    try:
        run("eval", "mockllm/model", "eval", [match()])
        run("json", "mockllm/model", "json", [match()])
        run("other", "mockllm/other", "eval", [match()])
        run("two_scorers", "mockllm/model", "eval", [match(), includes()])
        run("unscored", "mockllm/model", "eval", [match()], score=False)
    finally:
        patch.undo()
    return out


def _inspect_scores(path: Path) -> dict[tuple[str, str, int], float]:
    """(scorer, sample id, epoch) -> score, through Inspect's own reader."""

    to_float = value_to_float()
    log = read_eval_log(str(path))
    assert log.samples is not None
    return {
        (scorer, str(s.id), s.epoch): to_float(score.value)
        for s in log.samples
        for scorer, score in (s.scores or {}).items()
    }


def _untimed(runs: list[EvalRun]) -> list[EvalRun]:
    """`runs` without latency: two evals of the same task take different times."""
    return [dataclasses.replace(r, latency=None) for r in runs]


def _key(run: EvalRun) -> tuple[str, str, int]:
    assert run.sample is not None
    return (str(run.metric_name), str(run.item_id), run.sample)


def test_eval_log__one_record_per_sample_and_epoch_matching_inspect(
    logs: dict[str, Path],
) -> None:
    path = logs["eval"]
    assert path.suffix == ".eval"
    assert sniff(path, path.read_bytes()[: 64 * 1024]) == "inspect"
    runs = read("inspect", path)
    assert len(runs) == 10
    assert {r.model_id for r in runs} == {"mockllm/model"}
    assert {r.task_id for r in runs} == {"tiny"}
    assert {r.category for r in runs} == {"general"}
    assert {r.weight for r in runs} == {1.0}
    assert sorted({r.sample for r in runs if r.sample is not None}) == [1, 2]
    assert {r.item_id for r in runs} == {f"q{i}" for i in range(5)}
    expected = _inspect_scores(path)
    assert {_key(r): r.score for r in runs} == expected
    assert {r.score for r in runs} == {0.0, 1.0}, "scripted outputs should vary the score"


def test_eval_log__mean_equals_the_accuracy_inspect_computed(logs: dict[str, Path]) -> None:

    log = read_eval_log(str(logs["eval"]), header_only=True)
    assert log.results is not None
    accuracy = log.results.scores[0].metrics["accuracy"].value
    runs = read("inspect", logs["eval"])
    assert sum(r.score for r in runs) / len(runs) == pytest.approx(accuracy)


def test_json_log__gives_the_same_records_as_the_eval_log(logs: dict[str, Path]) -> None:
    path = logs["json"]
    assert path.suffix == ".json"
    assert sniff(path, path.read_bytes()[: 64 * 1024]) == "inspect"
    from_json = sorted(read("inspect", path), key=_key)
    from_eval = sorted(read("inspect", logs["eval"]), key=_key)
    assert _untimed(from_json) == _untimed(from_eval)  # two evals: times differ


def test_eval_log__without_summaries_reads_the_samples(
    logs: dict[str, Path], tmp_path: Path
) -> None:

    copy = tmp_path / "no-summaries.eval"
    with (
        zipfile.ZipFile(logs["eval"]) as src,
        zipfile.ZipFile(copy, "w", compression=zipfile.ZIP_ZSTANDARD) as dst,
    ):
        for info in src.infolist():
            if info.filename != "summaries.json":
                dst.writestr(info.filename, src.read(info.filename))
    assert sorted(read("inspect", copy), key=_key) == sorted(
        read("inspect", logs["eval"]), key=_key
    )


def test_two_scorers__one_score_per_task_the_first_scorer_unless_chosen(
    logs: dict[str, Path],
) -> None:
    path = logs["two_scorers"]
    with pytest.warns(FormatWarning, match="one score per task.*includes in tiny"):
        runs = read("inspect", path)
    assert len(runs) == 10
    assert {(r.task_id, r.metric_name, r.weight) for r in runs} == {("tiny", "match", 1.0)}
    inspect_scores = _inspect_scores(path)
    assert {_key(r): r.score for r in runs} == {
        k: v for k, v in inspect_scores.items() if k[0] == "match"
    }
    with pytest.warns(FormatWarning, match="match in tiny"):
        chosen = read("inspect", path, ReadOptions(metrics=("includes",)))
    assert {_key(r): r.score for r in chosen} == {
        k: v for k, v in inspect_scores.items() if k[0] == "includes"
    }


def test_unscored_log__refused_with_the_inspect_score_fix(logs: dict[str, Path]) -> None:
    path = logs["unscored"]
    log = read_eval_log(str(path))
    assert log.status == "success"
    assert log.results is None or not log.results.scores
    with pytest.raises(InputError) as info:
        read("inspect", path)
    text = str(info.value)
    assert "without scoring" in text
    assert "`inspect score LOG`" in text
    assert "eval-retry" not in text
    assert "\n" not in text


def test_load_runs_auto__sniffs_and_reads_both_log_formats(logs: dict[str, Path]) -> None:
    runs = load_runs([str(logs["eval"]), str(logs["other"])], format="auto")
    assert len(runs) == 20
    assert {r.model_id for r in runs} == {"mockllm/model", "mockllm/other"}
    assert _untimed(sorted(load_runs(str(logs["json"])), key=_key)) == _untimed(
        sorted(load_runs(str(logs["eval"]), format="inspect"), key=_key)
    )


def test_round_trip__records_and_inspect_logs_give_the_same_report(
    logs: dict[str, Path], tmp_path: Path
) -> None:
    records = tmp_path / "records.jsonl"
    with records.open("w") as handle:
        for name, model in (("eval", "mockllm/model"), ("other", "mockllm/other")):
            for (_, item, epoch), score in _inspect_scores(logs[name]).items():
                row = {"model_id": model, "task_id": "tiny", "score": score}
                row |= {"item_id": item, "sample": epoch, "metric_name": "match"}
                handle.write(json.dumps(row) + "\n")
    from_records = load_runs(str(records))
    from_logs = load_runs([str(logs["eval"]), str(logs["other"])])
    assert all(r.tokens is not None and r.latency is not None for r in from_logs)
    # the records carry scores only: compare without the logs' tokens and times
    from_logs = [dataclasses.replace(r, latency=None, tokens=None) for r in from_logs]
    assert from_records == from_logs
    settings: dict[str, Any] = {"baseline": "mockllm/model", "resamples": 200, "seed": 3}
    assert build_report(from_records, **settings).model_dump(mode="json") == build_report(
        from_logs, **settings
    ).model_dump(mode="json")


def test_eval_log__read_in_a_process_without_inspect_ai(logs: dict[str, Path]) -> None:
    """As in the action's image: no inspect_ai (and its zipfile patch) imported."""
    code = (
        "import sys, json, pathlib\n"
        "from leaderboard.inputs.frameworks import read\n"
        "runs = read('inspect', pathlib.Path(sys.argv[1]))\n"
        "names = ('inspect_ai', 'zipfile_zstd')\n"
        "assert not any(m.startswith(names) for m in sys.modules)\n"
        "print(json.dumps(sorted([r.item_id, r.sample, r.score] for r in runs)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(logs["eval"])],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    expected = sorted([r.item_id, r.sample, r.score] for r in read("inspect", logs["eval"]))
    assert json.loads(done.stdout) == expected
