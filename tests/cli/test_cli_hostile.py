"""The command line's output cannot carry a legacy ``##[command]`` into a runner log.

Found in review: the runner scans every log line of a step for ``##[`` anywhere (the
legacy command form). The markdown the command prints held model ids raw inside the
interval plot's code block, and ``leaderboard: error:`` lines quoted file names and
ids as they were, so ``leaderboard report`` run in a workflow step let an artifact
issue commands such as ``##[add-mask]``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from leaderboard.cli import main

HOSTILE = "##[add-mask]secret"


def test_report__hostile_model_id__no_legacy_command_on_stdout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "r.jsonl"
    with data.open("w") as fh:
        for model, base in ((HOSTILE, 0.2), ("other", 0.6)):
            for t in range(8):
                record = {"model_id": model, "task_id": f"t{t}", "score": base + t / 40}
                fh.write(json.dumps(record) + "\n")
    assert main(["report", str(data), "--resamples", "200"]) == 0
    out, err = capsys.readouterr()
    assert "```text" in out  # the plot, where ids are not markdown-escaped
    assert "add-mask]secret" in out  # the id is still shown
    assert "##[" not in out + err


def test_report__hostile_file_name__no_legacy_command_on_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / f"{HOSTILE}.jsonl"
    bad.write_text('{"model_id": "m", "task_id": "t", "score": 2}\n')
    assert main(["report", str(bad)]) == 2
    _, err = capsys.readouterr()
    assert err.startswith("leaderboard: error: ")
    assert "add-mask]secret.jsonl" in err
    assert "##[" not in err
    assert err.count("\n") == 1
