"""What the items that dropped most answered: their input and both sides' answers.

A gated comparison names the items whose score dropped most (`worst_items`, from
`leaderboard.stats.where`). When outputs are shown (`Request.show_outputs`), each such
item gets the input and the answers its records carry (`EvalRun.input`,
`EvalRun.output`, already one short line each as read): the baseline's and the
candidate's answer from their first sample that holds one. Nothing is made up: an item whose
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
    inputs: dict[_Key, str] = {}
    outputs: dict[_Key, tuple[int, str]] = {}  # the first sample's answer
    for run in runs:
        if (run.input is None and run.output is None) or run.model_id not in models:
            continue
        key = (run.model_id, run.task_id, str(run.item_id))
        if key not in wanted:
            continue
        if run.input is not None:
            inputs.setdefault(key, run.input)
        sample = -1 if run.sample is None else run.sample
        if run.output is not None and (key not in outputs or sample < outputs[key][0]):
            outputs[key] = (sample, run.output)
    if not inputs and not outputs:
        return gate

    def answered(candidate: str, baseline: str, item: ItemMove) -> ItemMove:
        cand = (candidate, item.task, item.item_id)
        base = (baseline, item.task, item.item_id)
        question = inputs.get(cand) or inputs.get(base)
        if question is None and cand not in outputs and base not in outputs:
            return item
        answers = ItemAnswers(
            input=question,
            baseline=outputs[base][1] if base in outputs else None,
            candidate=outputs[cand][1] if cand in outputs else None,
        )
        return item.model_copy(update={"answers": answers})

    comparisons = [
        c.model_copy(
            update={
                "worst_items": [answered(c.candidate, c.baseline, i) for i in c.worst_items]
            }
        )
        if c.worst_items
        else c
        for c in gate.comparisons
    ]
    return gate.model_copy(update={"comparisons": comparisons})
