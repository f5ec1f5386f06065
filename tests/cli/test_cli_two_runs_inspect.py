"""Two real Inspect runs of one model id, compared with --baseline-results.

Inspect runs offline three times with its ``mockllm`` provider and scripted outputs, as
a base branch and two pull requests would: the same model id (``mockllm/model``) each
time, what changes is what the model answers. The logs are Inspect's own ``.eval`` files.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

# Offline, Inspect's token count would download tiktoken's encoding (see
# tests/inputs/test_formats_inspect.py, which patches the same private name).
import inspect_ai.model._model as inspect_model
import pytest
from inspect_ai import Task
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ModelOutput, get_model
from inspect_ai.scorer import match
from inspect_ai.solver import generate

from leaderboard.cli import main

pytestmark = [
    pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning"),
    pytest.mark.filterwarnings("ignore::ResourceWarning"),
]

MODEL = "mockllm/model"
N = 40
WORDS = [f"w{i}" for i in range(N)]
WRONG_ON_MAIN = {3, 17, 29}  # the base branch's run misses these
WRONG_ON_SAME = {3, 17, 30}  # a pull request that changes nothing that matters
WRONG_ON_DROP = WRONG_ON_MAIN | set(range(0, N, 2))  # a pull request that breaks half


def _answers(wrong: set[int]) -> list[str]:
    return ["no idea" if i in wrong else w for i, w in enumerate(WORDS)]


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    assert hasattr(inspect_model, "count_text_tokens"), "inspect_ai moved count_text_tokens"
    patch = pytest.MonkeyPatch()
    patch.setattr(inspect_model, "count_text_tokens", lambda text: max(1, len(text) // 4))
    dataset = MemoryDataset(
        [Sample(id=f"q{i}", input=f"Say {w}", target=w) for i, w in enumerate(WORDS)]
    )
    out: dict[str, Path] = {}
    try:
        for name, wrong in (
            ("main", WRONG_ON_MAIN),
            ("same", WRONG_ON_SAME),
            ("drop", WRONG_ON_DROP),
        ):
            outputs = [ModelOutput.from_content(MODEL, a) for a in _answers(wrong)]
            model = get_model(MODEL, custom_outputs=outputs)
            task = Task(dataset=dataset, solver=generate(), scorer=match(), name="say")
            log_dir = tmp_path_factory.mktemp(name)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                [log] = inspect_eval(
                    task, model=model, log_dir=str(log_dir), display="none", max_samples=1
                )
            assert log.status == "success", log.error
            [out[name]] = log_dir.iterdir()
    finally:
        patch.undo()
    return out


def _report(tmp_path: Path, pr: Path, main_: Path) -> tuple[int, dict]:
    path = tmp_path / "report.json"
    argv = ["report", str(pr), "--baseline-results", str(main_), "--baseline-label"]
    code = main([*argv, "main", "--resamples", "2000", "--json", str(path)])
    return code, json.loads(path.read_text(encoding="utf-8"))


def test_inspect_pair__no_real_change_passes(logs: dict[str, Path], tmp_path: Path) -> None:
    code, report = _report(tmp_path, logs["same"], logs["main"])
    assert code == 0
    (comp,) = report["gate"]["comparisons"]
    assert (comp["candidate"], comp["baseline"]) == (MODEL, f"{MODEL} @ main")
    assert comp["shared_units"] == N
    assert comp["diff_mean"] == pytest.approx(0.0, abs=1e-12)
    assert comp["ci_lo"] < 0 < comp["ci_hi"]  # one item each way: a real spread


def test_inspect_pair__a_broken_pull_request_regresses(
    logs: dict[str, Path], tmp_path: Path
) -> None:
    code, report = _report(tmp_path, logs["drop"], logs["main"])
    assert code == 1
    (comp,) = report["gate"]["comparisons"]
    dropped = len(WRONG_ON_DROP - WRONG_ON_MAIN)
    assert comp["diff_mean"] == pytest.approx(-dropped / N, abs=1e-12)
    assert comp["regressed"]
    assert [r["model_id"] for r in report["leaderboard"]] == [f"{MODEL} @ main", MODEL]


def test_inspect_pair__given_together_the_error_points_to_baseline_results(
    logs: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["report", str(logs["same"]), str(logs["main"])]) == 2
    err = capsys.readouterr().err
    assert "duplicate record" in err
    assert "--baseline-results" in err
    assert err.count("\n") == 1
