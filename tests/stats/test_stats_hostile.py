"""The statistics under hostile sizes (issue 18): bounded memory, the same numbers.

- The resample counts of one block were a (1024, n_h) matrix for each stratum: two
  models with a million task-level records (one stratum of a million tasks) held
  ~20 GB of counts. They are now drawn a few rows at a time from the stratum's one
  generator (`bootstrap.count_rows`), which gives the very same draws, so the
  numbers do not change and memory stays within `bootstrap.COUNT_BYTES`.
- The 500-model cap counts the models of each run: 260 models on the base branch and
  260 in the pull request make one report.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from leaderboard.inputs import EvalRun
from leaderboard.stats import bootstrap
from leaderboard.stats.bootstrap import stratified_replicates
from leaderboard.stats.build import build_report
from tests.measure import RSS_CAP, report, run_measured


def _engine(n: int, resamples: int, seed: int = 3) -> np.ndarray:
    rng = np.random.default_rng(0)
    num = rng.random((n, 2))
    den = np.ones((n, 2))
    num[::7, 1] = 0.0
    den[::5, 1] = 0.0  # a ratio column: units without data, so no linear shortcut
    starts = np.array([0, n // 3, n])
    weight = np.array([[0.5, 0.5], [0.5, 0.5]])
    out = stratified_replicates(
        num, den, starts, np.array([0, 1]), weight, resamples=resamples, seed=seed
    )
    return np.asarray(out.replicates)


def test_counts_in_row_chunks__give_the_same_replicates(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    whole = _engine(500, 1500)
    monkeypatch.setattr(bootstrap, "COUNT_BYTES", 7 * 20 * 500)  # 7 rows at a time
    assert bootstrap.count_rows(500) == 7
    chunked = _engine(500, 1500)
    # the same draws; the products differ only in rounding (BLAS blocks by shape)
    np.testing.assert_allclose(whole, chunked, rtol=1e-13, atol=1e-15)


def test_one_stratum_of_120k_units__counts_stay_within_their_budget(tmp_path: Path) -> None:
    code = (
        "import numpy as np\n"
        "from leaderboard.stats.bootstrap import stratified_replicates\n"
        "n = 120_000\n"
        "num = np.random.default_rng(0).random((n, 2)); den = np.ones((n, 2))\n"
        "r = stratified_replicates(num, den, np.array([0, n]), np.array([0, 1]),\n"
        "    np.array([[1.0, 1.0]]), resamples=1024, seed=0)\n"
        "print(r.replicates.shape)\n"
    )
    done = run_measured(["-c", code], timeout=120)
    print(done.line("one stratum of 120,000 units x 1,024 resamples"))
    assert done.code == 0, done.err[-2000:]
    assert "(1024, 2)" in done.out
    # one (1024, 120000) block of counts was ~2.4 GB while it was made (20 bytes a draw)
    assert done.rss < 512 * 2**20, done.line("engine")


def test_two_models_x_200k_task_level_records__run_under_the_cap(tmp_path: Path) -> None:
    path = tmp_path / "tasks.jsonl"
    with path.open("w") as out:
        for m in range(2):
            for t in range(200_000):
                score = (t * 7 + m) % 10 / 10
                out.write(f'{{"model_id":"m{m}","task_id":"t{t}","score":{score}}}\n')
    done = run_measured(
        ["-m", "leaderboard", "report", str(path), "--resamples", "1000"], timeout=120
    )
    print(done.line("2 models x 200,000 task-level records, 1,000 resamples"))
    assert done.code == 0, done.err[-2000:]
    assert done.rss < RSS_CAP, done.line("2 x 200k")
    assert done.rss < 1024 * 2**20  # 4.1 GB before the counts were drawn in chunks


def _runs(models: int, prefix: str = "m") -> list[EvalRun]:
    return [
        EvalRun(f"{prefix}{m}", f"t{t}", float((m + t) % 2), item_id=str(i))
        for m in range(models)
        for t in range(2)
        for i in range(2)
    ]


def test_model_cap__counts_per_run__260_and_260_make_one_report() -> None:
    rep = build_report(_runs(260), resamples=200, baseline_runs=_runs(260))
    assert len(rep.leaderboard) == 520


def test_model_cap__still_refuses_one_run_over_500() -> None:
    from leaderboard.errors import InputError  # noqa: PLC0415

    with pytest.raises(InputError, match="501 models"):
        build_report(_runs(260), resamples=200, baseline_runs=_runs(501))


def test_two_runs_of_260_models__through_the_command_line(tmp_path: Path) -> None:
    for name in ("pr.jsonl", "main.jsonl"):
        (tmp_path / name).write_text(
            "\n".join(
                json.dumps(
                    {
                        "model_id": r.model_id,
                        "task_id": r.task_id,
                        "score": r.score,
                        "item_id": r.item_id,
                    }
                )
                for r in _runs(260)
            )
        )
    args = report(
        [tmp_path / "pr.jsonl"], "--baseline-results", str(tmp_path / "main.jsonl")
    )
    done = run_measured(args, timeout=120)
    print(done.line("260 + 260 models, two runs"))
    assert done.code in (0, 1), done.err[-2000:]  # a report, gated (no "520 models")
    assert "520 models" not in done.err
    assert done.rss < RSS_CAP
    assert sys.executable  # the child ran this interpreter
