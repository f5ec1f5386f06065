"""The answers beside the items that dropped most (`leaderboard.stats.answers`).

On the real Inspect logs of tests/fixtures/inspect/differ (a model swap where
arith-001, -004 and -010 go from 3/3 to 0/3) and on records with epochs.
"""

from __future__ import annotations

import warnings
from pathlib import Path

from leaderboard import build_report
from leaderboard.inputs import EvalRun, load_runs
from leaderboard.report import ItemAnswers

DIFFER = Path(__file__).resolve().parents[1] / "fixtures" / "inspect" / "differ"


def _logs(folder: str) -> list[EvalRun]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return load_runs(
            sorted((DIFFER / folder).glob("*.eval")), format="inspect", texts=True
        )


def test_answers__only_when_asked() -> None:
    main, pr = _logs("main"), _logs("renamed")
    off = build_report(pr, baseline_runs=main, resamples=200)
    (comp,) = [c for c in off.gate.comparisons if c.worst_items]
    assert comp.worst_items
    assert all(i.answers is None for i in comp.worst_items)
    assert off.settings.show_outputs is False
    assert '"answers"' not in off.model_dump_json(exclude_none=True)

    on = build_report(pr, baseline_runs=main, resamples=200, show_outputs=True)
    (comp,) = [c for c in on.gate.comparisons if c.worst_items]
    assert on.settings.show_outputs is True
    assert [(i.item_id, i.answers) for i in comp.worst_items] == [
        ("arith-001", ItemAnswers(input="What is 1 + 1?", baseline="2", candidate="21")),
        ("arith-004", ItemAnswers(input="What is 4 + 4?", baseline="8", candidate="81")),
        (
            "arith-010",
            ItemAnswers(input="What is 10 + 10?", baseline="20", candidate="201"),
        ),
    ]
    # everything else is the same with and without the answers
    stripped = on.model_dump()
    stripped["settings"]["show_outputs"] = False
    for c in stripped["gate"]["comparisons"]:
        for item in c["worst_items"]:
            item["answers"] = None
    assert stripped == off.model_dump()


def _run(model: str, item: str, sample: int, score: float, out: str | None) -> EvalRun:
    return EvalRun(
        model, "t", score, item_id=item, sample=sample, input=f"q {item}", output=out
    )


def test_answers__the_first_sample_that_holds_text_and_none_made_up() -> None:
    runs = [
        _run("base", "a", 1, 1.0, "second"),
        _run("base", "a", 0, 1.0, "first"),
        _run("cand", "a", 0, 0.0, None),
        _run("cand", "a", 1, 0.0, "later"),
        _run("base", "b", 0, 1.0, None),
        _run("cand", "b", 0, 0.0, None),
        EvalRun("base", "t", 1.0, item_id="c", sample=0),
        EvalRun("cand", "t", 0.0, item_id="c", sample=0),
        EvalRun("base", "t", 1.0, item_id="c", sample=1),
        EvalRun("cand", "t", 0.0, item_id="c", sample=1),
    ]
    runs += [EvalRun(m, "t", 1.0, item_id=f"z{i}", sample=s) for m in ("base", "cand")
             for i in range(20) for s in (0, 1)]  # fmt: skip
    report = build_report(runs, baseline="base", resamples=200, show_outputs=True)
    (comp,) = report.gate.comparisons
    got = {i.item_id: i.answers for i in comp.worst_items}
    assert got["a"] == ItemAnswers(input="q a", baseline="first", candidate="later")
    # records with an input but no answer: the input, and no answer made up
    assert got["b"] == ItemAnswers(input="q b", baseline=None, candidate=None)
    assert got["c"] is None  # its records hold no text at all
