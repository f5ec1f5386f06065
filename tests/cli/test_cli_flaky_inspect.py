"""Flaky items on real Inspect logs with epochs (tests/fixtures/inspect/differ/).

``main/`` (3 epochs) has arith-003 wrong in epoch 2 only, and ``renamed/`` (the
model swapped) has it wrong in epoch 1 only: its epochs disagree in both runs, so it
is flaky by ``epochs`` (`leaderboard.stats.flaky`) though its outcome did not flip;
arith-001, -004 and -010 went 3/3 -> 0/3, every epoch agreeing: dropped, not flaky.
The same logs read by ``epochs/`` (one epoch) have nothing to disagree.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.test_cli_differ_inspect import _run


def _overall(data: dict) -> dict:
    (c,) = [
        c
        for c in data["gate"]["comparisons"]
        if c["scope"] == "overall" and c["measure"] == "score"
    ]
    return c


def test_flaky__real_epochs_log__disagreeing_epochs_marked(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, err, data = _run(capsys, tmp_path, "renamed")
    assert code in (0, 1), err
    c = _overall(data)
    assert [(w["item_id"], w["flaky"]) for w in c["worst_items"]] == [
        ("arith-001", False),
        ("arith-004", False),
        ("arith-010", False),
    ]
    (flaky,) = c["flaky_items"]
    assert flaky == {
        "task": "arith",
        "item_id": "arith-003",
        "baseline_score": pytest.approx(2 / 3),
        "candidate_score": pytest.approx(2 / 3),
        "baseline_samples": 3,
        "candidate_samples": 3,
        "flipped": False,
        "flaky": True,
        "flaky_why": ["epochs"],
        "history": [],
        "answers": None,  # outputs are shown only when asked (--show-outputs)
    }
    assert c["flaky_runs"] == 0  # no kept history on the command line
    assert (
        "Flaky: 1 item whose outcome differs with no change (epochs that disagree); "
        "0 of them flipped (baseline → candidate):\n"
        "- arith-003: 2/3 → 2/3 · epochs disagree\n"
    ) in out


def test_flaky__one_epoch_against_three__only_the_run_with_epochs_can_disagree(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _out, err, data = _run(capsys, tmp_path, "epochs")
    assert code in (0, 1), err
    c = _overall(data)
    flaky = {f["item_id"]: f for f in c["flaky_items"]}
    # main's arith-003 (2/3) disagrees; the one-epoch run has nothing to disagree
    assert set(flaky) == {"arith-003"}
    assert flaky["arith-003"]["candidate_samples"] == 1
    assert flaky["arith-003"]["flaky_why"] == ["epochs"]
