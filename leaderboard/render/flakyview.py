"""Flaky items in the comment: their mark in "Dropped most", and their own list.

An item is flaky when its outcome differs between runs with no change
(`leaderboard.stats.flaky`): its epochs disagree within one run, or its outcome
differs across the kept runs of the same model. "Dropped most" marks such items; the
"Flaky" list under it names every flaky item the comparison holds, flipped first, with
the evidence, so that a reviewer reads a flip of a flaky item as the noise it may be.
"""

from __future__ import annotations

from leaderboard.render.escape import truncate
from leaderboard.render.numbers import count, num
from leaderboard.render.verdict import esc_id
from leaderboard.report import FlakyItem, GateComparison, ItemMove
from leaderboard.stats.flaky import PASS_AT

__all__ = ["FLAKY_SHOWN", "flaky_lines", "flaky_mark", "flaky_summary", "item_score"]

FLAKY_SHOWN = 5  # flaky items listed per candidate in the comment
_WHY = {"epochs": "epochs disagree", "history": "differs across kept runs"}


def item_score(score: float, samples: int) -> str:
    """``2/3`` for a mean over pass/fail samples, ``1``/``0`` for one, else the number."""
    passed = score * samples
    if abs(passed - round(passed)) < 1e-9:
        return f"{round(passed)}/{samples}" if samples > 1 else str(round(passed))
    return num(score)


def flaky_mark(item: ItemMove) -> str:
    """`` · flaky (epochs disagree)`` for a flaky item of "Dropped most"; else empty."""
    if not item.flaky:
        return ""
    return " · *flaky* (" + ", ".join(_WHY[w] for w in item.flaky_why) + ")"


def _name(task: str, item_id: str) -> str:
    name = esc_id(truncate(item_id, 80))
    if task not in item_id:
        name += f" ({esc_id(truncate(task, 60))})"
    return name


def _history(f: FlakyItem) -> str:
    if not f.history:
        return ""
    runs = " ".join("pass" if h >= PASS_AT else "fail" for h in f.history)
    return f"; kept runs, oldest first: {runs}"


def flaky_lines(c: GateComparison, limit: int = FLAKY_SHOWN) -> list[str]:
    """``arith-003: 2/3 → 1/3 · flipped · epochs disagree`` per flaky item, at most
    `limit`, then a line saying the JSON report lists more."""
    out = []
    for f in c.flaky_items[:limit]:
        out.append(
            f"{_name(f.task, f.item_id)}: "
            f"{item_score(f.baseline_score, f.baseline_samples)}"
            f" → {item_score(f.candidate_score, f.candidate_samples)}"
            f"{' · flipped' if f.flipped else ''} · "
            + ", ".join(_WHY[w] for w in f.flaky_why)
            + _history(f)
        )
    if len(c.flaky_items) > limit:
        out.append(
            f"… and more: the JSON report lists {count(len(c.flaky_items))} (`flaky_items`)"
        )
    return out


def flaky_summary(c: GateComparison) -> str | None:
    """The heading of the flaky list; None when the comparison has no flaky item."""
    if not c.flaky_items:
        return None
    flipped = sum(f.flipped for f in c.flaky_items)
    runs = (
        f", or different across the {count(c.flaky_runs)} kept runs read"
        if c.flaky_runs > 1
        else ""
    )
    return (
        f"Flaky: {count(len(c.flaky_items))} item{'s' * (len(c.flaky_items) != 1)} "
        f"whose outcome differs with no change (epochs that disagree{runs}); "
        f"{count(flipped)} of them flipped"
    )
