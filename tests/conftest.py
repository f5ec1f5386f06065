"""Shared fixtures: factories for records."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from leaderboard.inputs import EvalRun
from leaderboard.report import Gate, Report
from leaderboard.stats import decide


def make_runs(
    models: int = 3,
    tasks: int = 12,
    *,
    items: int | None = None,
    clusters: int | None = None,
    categories: int = 1,
    seed: int = 0,
    **overrides: Any,
) -> list[EvalRun]:
    """Random but seeded records: model k has true mean 0.5 + 0.05 k.

    With ``items``, each task has that many binary items (``item_id`` set); with
    ``clusters`` too, items are spread over that many clusters per task.
    """
    rng = np.random.default_rng(seed)
    runs: list[EvalRun] = []
    for m in range(models):
        for t in range(tasks):
            cat = f"cat{t % categories}"
            if items is None:
                score = float(np.clip(rng.normal(0.5 + 0.05 * m, 0.1), 0, 1))
                runs.append(
                    EvalRun(f"model-{m}", f"task-{t:02d}", score, category=cat, **overrides)
                )
                continue
            for i in range(items):
                score = float(rng.random() < 0.5 + 0.05 * m)
                cluster = None if clusters is None else f"c{i % clusters}"
                runs.append(
                    EvalRun(
                        f"model-{m}",
                        f"task-{t:02d}",
                        score,
                        category=cat,
                        item_id=i,
                        cluster=cluster,
                        **overrides,
                    )
                )
    return runs


@pytest.fixture
def runs_factory() -> Callable[..., list[EvalRun]]:
    return make_runs


def with_gate(report: Report, gate: Gate, **update: object) -> Report:
    """`report` with another gate and the verdict the statistics decide from it (a
    copy does not re-run them), plus any other `update`."""
    return report.model_copy(update={"gate": gate, "verdict": decide(gate), **update})


def decided(data: dict[str, Any]) -> Report:
    """A report from its JSON form whose gate a test edited: the verdict is decided
    again from that gate, as `build_report` would."""
    report = Report.model_validate(data)
    return with_gate(report, report.gate)
