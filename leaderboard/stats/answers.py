"""What the items that dropped most answered: their input and both sides' answers.

A gated comparison names the items whose score dropped most (`worst_items`, from
`leaderboard.stats.where`). When outputs are shown (`Request.show_outputs`), each such
item gets the input and the answers its records carry (`EvalRun.input`,
`EvalRun.output`, already one short line each as read): the baseline's and the
candidate's, from their first sample that holds any. Nothing is made up: an item whose
records hold no text gets none, and one whose runs hold no text at all gets no
``answers``.
"""

from __future__ import annotations

from collections.abc import Sequence

from leaderboard.inputs import EvalRun
from leaderboard.report import Gate, ItemAnswers, ItemMove

__all__ = ["with_answers"]

_Key = tuple[str, str, str]  # (model_id, task_id, item_id)


def with_answers(gate: Gate, runs: Sequence[EvalRun]) -> Gate:
    """`gate` with ``answers`` on every listed item whose records hold text.

    One pass over `runs`; only the listed items' texts are looked up and kept.
    """
    wanted: set[_Key] = set()
    for c in gate.comparisons:
        for item in c.worst_items:
            wanted.add((c.candidate, item.task, item.item_id))
            wanted.add((c.baseline, item.task, item.item_id))
    if not wanted:
        return gate
    models = {key[0] for key in wanted}
    found: dict[_Key, tuple[int, str | None, str | None]] = {}
    for run in runs:
        if (run.input is None and run.output is None) or run.model_id not in models:
            continue
        key = (run.model_id, run.task_id, str(run.item_id))
        if key not in wanted:
            continue
        sample = -1 if run.sample is None else run.sample
        if key not in found or sample < found[key][0]:
            found[key] = (sample, run.input, run.output)
    if not found:
        return gate

    def answered(candidate: str, baseline: str, item: ItemMove) -> ItemMove:
        cand = found.get((candidate, item.task, item.item_id))
        base = found.get((baseline, item.task, item.item_id))
        if cand is None and base is None:
            return item
        question = next((x[1] for x in (cand, base) if x is not None and x[1]), None)
        answers = ItemAnswers(
            input=question,
            baseline=None if base is None else base[2],
            candidate=None if cand is None else cand[2],
        )
        return item.model_copy(update={"answers": answers})

    comparisons = [
        c.model_copy(
            update={
                "worst_items": [
                    answered(c.candidate, c.baseline, i) for i in c.worst_items
                ]
            }
        )
        if c.worst_items
        else c
        for c in gate.comparisons
    ]
    return gate.model_copy(update={"comparisons": comparisons})
