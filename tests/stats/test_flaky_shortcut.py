"""The flaky marks skip gathering samples where no item can be flaky (issue 31).

Without kept runs an item is flaky only when two samples of it in one model's run
disagree; `flaky.mark_flaky` therefore gathers the samples only where some model has
two records of one item (`flaky._repeated`). These tests hold the shortcut to the full
path (the samples always gathered) on data with and without repeated samples, and
check that item ids the flaky marks read as one (1 and "1") count as repeated.
"""

from __future__ import annotations

import random

import pytest

from leaderboard import EvalRun, build_report
from leaderboard.report import Gate
from leaderboard.stats import flaky


def _runs(*, epochs: int, items: int = 60, seed: int = 0) -> list[EvalRun]:
    rng = random.Random(seed)
    out = []
    for model, p in (("base", 0.7), ("cand", 0.6)):
        for t in range(3):
            for i in range(items):
                flips = rng.random() < 0.2  # an item that flips between samples
                q = 0.5 if flips else p
                for s in range(epochs):
                    score = float(rng.random() < q)
                    out.append(EvalRun(model, f"t{t}", score, item_id=i, sample=s))
    return out


def _both_paths(runs: list[EvalRun], monkeypatch: pytest.MonkeyPatch) -> tuple[Gate, Gate]:
    report = build_report(runs, baseline="base", resamples=200, seed=1)
    shortcut = flaky.mark_flaky(report.gate, runs)
    with monkeypatch.context() as m:
        m.setattr(flaky, "_repeated", lambda _runs: True)
        full = flaky.mark_flaky(report.gate, runs)
    return shortcut, full


@pytest.mark.parametrize("epochs", [1, 3])
def test_mark_flaky__the_shortcut_gives_the_full_paths_gate(
    epochs: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    runs = _runs(epochs=epochs)
    shortcut, full = _both_paths(runs, monkeypatch)
    assert shortcut == full
    listed = [c.flaky_items for c in full.comparisons if c.scope == "overall"]
    # one sample each: nothing can disagree; three: the flipping items are listed
    assert (sum(map(len, listed)) > 0) == (epochs > 1)
    assert flaky._repeated(runs) == (epochs > 1)


def test_repeated__item_ids_read_as_the_same_text_count_as_repeated() -> None:
    runs = [
        EvalRun("base", "t", 1.0, item_id=1),
        EvalRun("base", "t", 0.0, item_id="1"),
        EvalRun("cand", "t", 1.0, item_id=1),
    ]
    assert flaky._repeated(runs)
    assert not flaky._repeated(runs[:1] + runs[2:])


def test_mark_flaky__one_sample_each_gathers_no_samples(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the shortcut in earnest: the records' samples are not gathered (at 1,000,000
    # items they took seconds and hundreds of MiB)
    runs = _runs(epochs=1, items=400)
    report = build_report(runs, baseline="base", resamples=200, seed=1)

    def refused(_runs: object) -> None:
        raise AssertionError("samples gathered")

    monkeypatch.setattr(flaky, "samples_by_item", refused)
    gate = flaky.mark_flaky(report.gate, runs)
    assert all(c.flaky_items == [] for c in gate.comparisons)
