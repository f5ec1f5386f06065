"""Epochs that pay: where the variance of a gated difference comes from.

With several samples per item (epochs), each item mean carries generation noise whose
variance, ``s^2 / k`` (``s^2`` the sample variance of the item's ``k`` samples), is
estimable item by item. A gated difference ``sum_h w_h mean_i (c_i - b_i)`` then
splits its (bootstrap) variance ``V`` into a within-item part

    V_within = sum_h w_h^2 / n_h^2 sum_i (s_ci^2 / k_ci + s_bi^2 / k_bi)

(independent generation noise of the candidate's and the baseline's means) and the
rest, ``V_between = V - V_within``: what the items themselves contribute. One more
epoch for both runs divides each within-item term by ``(k + 1) / k``; twice the items
halves both parts. The detectable drop moves with the standard error:
``X' = margin + (X - margin) sqrt(V' / V)`` (the t quantiles barely move at these
degrees of freedom; Miller 2024, section on resampling, arXiv:2411.00640). With one
sample per item nothing is estimated, and nothing is claimed.
"""

from __future__ import annotations

import math

import numpy as np

from leaderboard.report import EpochAdvice
from leaderboard.stats.design import BoolArray, Design

__all__ = ["epoch_advice"]


def epoch_advice(
    d: Design,
    candidate: int,
    baseline: int,
    shared: BoolArray,
    *,
    se: float,
    mdr: float | None,
    margin: float,
) -> EpochAdvice | None:
    """The variance shares and what one more epoch or twice the items would detect.

    None without repeated samples on every shared item of both models, without a
    detectable drop, or with no spread.
    """
    if d.mean_var is None or d.sample_count is None or mdr is None or not se > 0:
        return None
    if not d.item_level or not shared.any():
        return None
    k = d.sample_count[shared][:, [candidate, baseline]]
    if k.min() < 2:
        return None  # an item with one sample: its generation noise is not seen
    v = d.mean_var[shared][:, [candidate, baseline]]
    task = d.item_task[shared]
    n_h = np.bincount(task, minlength=len(d.tasks)).astype(float)
    w = d.task_weight / d.task_weight[n_h > 0].sum()
    per_item = (w[task] / n_h[task]) ** 2
    within = float((per_item * v.sum(axis=1)).sum())
    one_more = float((per_item * (v * k / (k + 1.0)).sum(axis=1)).sum())
    total = se * se
    within = min(within, total)
    between = total - within
    v_epoch = between + min(one_more, within)
    span = mdr - margin
    return EpochAdvice(
        within_share=within / total,
        between_share=between / total,
        samples_per_item=float(k.mean()),
        detectable_one_more_epoch=margin + span * math.sqrt(v_epoch / total),
        detectable_twice_items=margin + span * math.sqrt(0.5),
    )
