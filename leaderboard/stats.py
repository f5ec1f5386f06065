"""Scaffold: replaced by the statistical core."""
# ruff: noqa
from typing import Any


def aggregate(runs: Any, b: int = 500, alpha: float = 0.05, seed: int = 0) -> Any:
    raise NotImplementedError


def pairwise_diffs(runs: Any, b: int = 500, alpha: float = 0.05, seed: int = 0) -> Any:
    raise NotImplementedError


def bootstrap_mean_ci(scores: Any, b: int = 1000, alpha: float = 0.05, seed: int = 0) -> Any:
    raise NotImplementedError


def bootstrap_pairwise_diff(
    paired_a: Any, paired_b: Any, b: int = 1000, alpha: float = 0.05, seed: int = 0
) -> Any:
    raise NotImplementedError


def build_report(runs: Any, **kwargs: Any) -> Any:
    raise NotImplementedError
