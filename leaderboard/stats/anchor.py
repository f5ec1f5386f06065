"""A budget across merges: each model also gated against its own row of an anchor run.

Each merge can pass "no regression" at its margin while ten merges sum to a large drop
(bio-creep, in clinical trials' words: a chain of non-inferiority steps drifts). An
anchor run (a release, a tagged commit) fixes the reference: every model id present in
the run and the anchor run is also compared with its anchor row, renamed
``"<model_id> @ <label>"``, at ``anchor_margin``, the total drop allowed since the
anchor. That comparison has scope ``anchor`` and is one more member of the gate's
family (`leaderboard.stats.family`), so a slide of small merges fails once it exceeds
the budget.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from leaderboard.errors import UsageError
from leaderboard.inputs import EvalRun
from leaderboard.stats.two_runs import baseline_id, check_agree, check_label

__all__ = ["ANCHOR_LABEL", "Anchor", "join_anchor"]

ANCHOR_LABEL = "anchor"


@dataclass(frozen=True)
class Anchor:
    """The anchor run joined to the records, and who is gated against whom."""

    runs: list[EvalRun]
    pairs: list[tuple[str, str]]  # (model_id, "<model_id> @ <label>")
    label: str
    margin: float


def join_anchor(
    runs: Sequence[EvalRun],
    anchor_runs: Iterable[EvalRun] | None,
    *,
    label: str,
    margin: float,
    gated_models: Sequence[str],
) -> Anchor | None:
    """Rename the anchor run's models and pair each of `gated_models` with its anchor row.

    Raises
    ------
    UsageError
        `anchor_margin` out of range, an empty anchor run, a label clash.
    InputError
        The anchor run disagrees with the run on what a task is.
    """
    if anchor_runs is None:
        return None
    if (
        isinstance(margin, bool)
        or not isinstance(margin, (int, float))
        or not math.isfinite(margin)
        or not 0.0 <= margin <= 1.0
    ):
        raise UsageError(f"`anchor_margin` must be a number in [0, 1], got {margin!r}")
    label = check_label(label)
    anchor = list(anchor_runs)
    if not anchor:
        raise UsageError("`anchor_runs` holds no records; give the anchor run's files")
    models = {r.model_id for r in runs}
    renamed = {m: baseline_id(m, label) for m in {r.model_id for r in anchor}}
    clash = sorted(models & set(renamed.values()))
    if clash:
        raise UsageError(
            f"model id {clash[0]!r} of the results is also the name of an anchor row "
            f"labelled {label!r}; choose another anchor label"
        )
    check_agree(runs, anchor, label)
    pairs = [(m, renamed[m]) for m in gated_models if m in renamed]
    joined = list(runs) + [
        dataclasses.replace(r, model_id=renamed[r.model_id]) for r in anchor
    ]
    return Anchor(runs=joined, pairs=pairs, label=label, margin=float(margin))
