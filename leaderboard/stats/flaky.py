"""Flaky items: pass/fail items whose outcome differs between runs with no change.

A reviewer who sees an item flip asks whether it is one that always flips. Two kinds
of evidence say so, and nothing else does:

- ``epochs``: the item's samples disagree within one run (some pass, some fail) in
  the baseline's or the candidate's run: the same model on the same input, nothing
  changed, two outcomes;
- ``history``: with ``history-branch``, the item's outcome (pass when the mean over
  its samples is at least `PASS_AT`) differs across the kept runs of the baseline's
  model that were read (at most `FLAKY_RUNS`, the baseline's own run included, and at
  least 2 of them holding the item). Those runs are the default branch's, one per
  stored commit: an item that changed for good on main within the window is marked
  too, until the window moves past it (docs/gate-against-main.md says so).

Only pass/fail records (every score of the item 0 or 1) are read; a partial score
has no outcome to disagree. `mark_flaky` marks each overall score comparison's
``worst_items`` and lists its flaky shared items in ``flaky_items``, flipped first.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence

from leaderboard.inputs import EvalRun
from leaderboard.report import FlakyItem, FlakyWhy, Gate, GateComparison

__all__ = [
    "FLAKY_LISTED",
    "FLAKY_RUNS",
    "PASS_AT",
    "ItemKey",
    "mark_flaky",
    "samples_by_item",
]

#: Kept runs read for the history evidence, the baseline's run included: each is one
#: more records blob read (at most `leaderboard.action.history.MAX_RUN_BYTES`).
FLAKY_RUNS = 5
#: Flaky items listed per comparison in the JSON report.
FLAKY_LISTED = 50
PASS_AT = 0.5  # an item passes when at least half of its samples pass (as the flips)

ItemKey = tuple[str, str]  # (task, item id as text)
Samples = dict[str, dict[ItemKey, list[float]]]  # model -> item -> sample scores


def samples_by_item(runs: Iterable[EvalRun]) -> Samples:
    """Each model's item-level scores, one list of samples per (task, item)."""
    out: Samples = defaultdict(lambda: defaultdict(list))
    for r in runs:
        if r.item_id is not None:
            out[r.model_id][(r.task_id, str(r.item_id))].append(float(r.score))
    return out


def _repeated(runs: Sequence[EvalRun]) -> bool:
    """Whether some model may have two records of one (task, item) as
    `samples_by_item` keys them (the item id as text).

    Keys are told apart by their hashes (an int each, not a tuple, held at once): two
    keys that share a hash answer True, and the caller then gathers the samples.
    """
    item_level = sum(r.item_id is not None for r in runs)
    hashes = {
        hash((r.model_id, r.task_id, str(r.item_id))) for r in runs if r.item_id is not None
    }
    return len(hashes) < item_level


def _binary(samples: Sequence[float]) -> bool:
    return bool(samples) and all(s in (0.0, 1.0) for s in samples)


def _passes(samples: Sequence[float]) -> bool:
    return sum(samples) / len(samples) >= PASS_AT


def _disagree(samples: Sequence[float] | None) -> bool:
    return samples is not None and _binary(samples) and 0 < sum(samples) < len(samples)


def mark_flaky(
    gate: Gate,
    runs: Sequence[EvalRun],
    *,
    history: Sequence[Sequence[EvalRun]] = (),
    stored_model: Mapping[str, str] | None = None,
) -> Gate:
    """The gate with flaky items marked on its overall score comparisons.

    Parameters
    ----------
    gate : Gate
        The gate as read from the replicates.
    runs : sequence of EvalRun
        The records the design was built from (a baseline run's under their renamed
        ids).
    history : sequence of sequences of EvalRun
        The kept runs read, oldest first, the baseline's run last (records under the
        ids they were stored with); empty without ``history-branch``.
    stored_model : mapping, optional
        Leaderboard id of a baseline row -> the model id its kept runs hold.
    """
    comparisons = gate.comparisons
    wanted = [c for c in comparisons if c.scope == "overall" and c.measure == "score"]
    if not wanted:
        return gate
    # Without kept runs only an item with two samples or more in one model's run can
    # be flaky: where none has, the samples are not gathered (1,000,000 items: seconds)
    by_model = samples_by_item(runs) if history or _repeated(runs) else {}
    kept = [samples_by_item(h) for h in history]
    names = stored_model or {}
    changed = [
        _marked(c, by_model, _held(kept, names.get(c.baseline, c.baseline)))
        if c in wanted
        else c
        for c in comparisons
    ]
    return gate.model_copy(update={"comparisons": changed})


def _held(kept: list[Samples], model: str) -> list[dict[ItemKey, list[float]]]:
    """The kept runs that hold `model`, its items' samples in each."""
    return [k[model] for k in kept if model in k]


def _marked(
    c: GateComparison, by_model: Samples, kept: list[dict[ItemKey, list[float]]]
) -> GateComparison:
    cand, base = by_model.get(c.candidate, {}), by_model.get(c.baseline, {})
    flaky: list[FlakyItem] = []
    why_of: dict[ItemKey, list[FlakyWhy]] = {}
    for key in cand.keys() & base.keys():  # the flaky ones sorted below
        cs, bs = cand[key], base[key]
        if not kept and len(cs) == 1 and len(bs) == 1:
            continue  # one sample each and no history: nothing can disagree
        if not (_binary(cs) and _binary(bs)):
            continue
        why: list[FlakyWhy] = []
        if _disagree(cs) or _disagree(bs):
            why.append("epochs")
        past = [k[key] for k in kept if key in k and _binary(k[key])]
        if len(past) >= 2 and len({_passes(p) for p in past}) > 1:
            why.append("history")
        if not why:
            continue
        why_of[key] = why
        flaky.append(
            FlakyItem(
                task=key[0],
                item_id=key[1],
                baseline_score=sum(bs) / len(bs),
                candidate_score=sum(cs) / len(cs),
                baseline_samples=len(bs),
                candidate_samples=len(cs),
                flaky=True,
                flaky_why=why,
                flipped=_passes(bs) != _passes(cs),
                history=[sum(p) / len(p) for p in past] if "history" in why else [],
            )
        )
    flaky.sort(key=lambda f: (f.task, f.item_id))  # the items' order, then (stable):
    flaky.sort(key=lambda f: (not f.flipped, f.candidate_score - f.baseline_score))
    worst = [
        w.model_copy(
            update={
                "flaky": (w.task, w.item_id) in why_of,
                "flaky_why": why_of.get((w.task, w.item_id), []),
            }
        )
        for w in c.worst_items
    ]
    return c.model_copy(
        update={
            "flaky_items": flaky[:FLAKY_LISTED],
            "flaky_runs": len(kept),
            "worst_items": worst,
        }
    )
