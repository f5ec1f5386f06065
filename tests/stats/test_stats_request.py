"""The request (`leaderboard.stats.Request`): checked once, with one set of limits.

The command line, the action's settings and `build_report` accept exactly the same
values of each numeric setting (before, `build_report` took a margin of 1 or more that
both shells refused), and both shells refuse a value in the same words, those of its
`LIMITS` entry; a request made directly gives the same report as the keywords.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from leaderboard import build_report
from leaderboard.action.settings import Settings, parse_confidence, parse_margin
from leaderboard.cli import main as cli_main
from leaderboard.errors import UsageError
from leaderboard.report import BaselineRun
from leaderboard.stats import (
    LIMITS,
    MAX_RESAMPLES,
    AnchorRun,
    MissingBaseline,
    ModelBaseline,
    Request,
    RunBaseline,
    report_for,
)
from leaderboard.stats.request import request
from tests.conftest import make_runs

EDGES = [-0.5, 0.0, 1e-12, 0.5, 1 - 1e-12, 1.0, 1.5, math.inf, math.nan]


def _accepts(call: object, *args: object) -> bool:
    try:
        call(*args)  # type: ignore[operator]
    except UsageError:
        return False
    return True


@pytest.mark.parametrize("value", EDGES)
def test_limits__the_shells_and_the_request_agree_on_confidence(value: float) -> None:
    expected = 0.0 < value < 1.0
    assert LIMITS["confidence"].holds(value) is expected
    assert _accepts(parse_confidence, "confidence", repr(value)) is expected
    assert _accepts(Request, (), None, None, value) is expected
    # the command line reads --confidence with this very call
    cli = LIMITS["confidence"].read_float
    assert _accepts(cli, "--confidence", repr(value)) is expected


@pytest.mark.parametrize("value", EDGES)
def test_limits__the_shells_and_the_request_agree_on_margin(value: float) -> None:
    expected = 0.0 <= value < 1.0
    assert _accepts(parse_margin, "margin", repr(value)) is expected
    assert _accepts(LIMITS["margin"].read_float, "--margin", repr(value)) is expected
    assert _accepts(Request, (), None, None, 0.95, 10_000, 0, value) is expected
    assert _accepts(lambda: AnchorRun((), value)) is expected


@pytest.mark.parametrize(
    ("setting", "raw", "words"),
    [
        ("confidence", "1.5", "between 0 and 1 (exclusive)"),
        ("margin", "1", "at least 0 and below 1 (scores lie in [0, 1])"),
        ("anchor_margin", "-0.5", "at least 0 and below 1 (scores lie in [0, 1])"),
        ("max_drop", "0", "above 0 and at most 1 (scores lie in [0, 1])"),
        ("resamples", "50", "between 100 and 1000000"),
        ("seed", "-1", "between 0 and 9223372036854775807"),
    ],
)
def test_limits__both_shells_refuse_in_the_words_of_the_one_entry(
    setting: str, raw: str, words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert LIMITS[setting].words == words
    option = setting.replace("_", "-")  # the option's and the input's name
    results = tmp_path / "r.jsonl"  # --anchor-margin is read with --anchor-results
    results.write_text('{"model_id": "m", "task_id": "t", "score": 1}\n')
    args = ["report", str(results), "--anchor-results", str(results), f"--{option}", raw]
    assert cli_main(args) == 2
    err = capsys.readouterr().err
    assert err == f"leaderboard: error: --{option}: must be {words}, got {raw!r}\n"
    env = {"INPUT_RESULTS": "r.jsonl", f"INPUT_{option.upper()}": raw}
    with pytest.raises(UsageError) as refused:
        Settings.from_env(env)
    assert str(refused.value) == f"{option}: must be {words}, got {raw!r}"


def test_build_report__refuses_a_margin_the_shells_refuse() -> None:
    with pytest.raises(UsageError, match=r"`margin` must be .* below 1"):
        build_report(make_runs(2, 5), baseline="model-0", margin=1.0)
    with pytest.raises(UsageError, match=r"`anchor_margin` must be a number in \[0, 1\)"):
        build_report(make_runs(2, 5), anchor_runs=make_runs(2, 5), anchor_margin=1.0)


def test_build_report__refuses_more_resamples_than_the_shells_allow(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(UsageError, match=f"`resamples` must be at most {MAX_RESAMPLES}"):
        build_report(make_runs(2, 5), resamples=MAX_RESAMPLES + 1)
    assert cli_main(["report", "x.jsonl", "--resamples", str(MAX_RESAMPLES + 1)]) == 2
    assert f"between 100 and {MAX_RESAMPLES}" in capsys.readouterr().err


def test_request__from_keywords_is_the_typed_request() -> None:
    runs, base = make_runs(2, 6), make_runs(2, 6)
    run = BaselineRun(label="main", source="results")
    made = request(runs, baseline_runs=base, baseline_run=run, margin=0.01, seed=3)
    assert made == Request(
        runs=tuple(runs),
        baseline=RunBaseline(tuple(base), run, None),
        margin=0.01,
        seed=3,
    )
    assert request(runs, baseline="model-0", candidates="model-1") == Request(
        tuple(runs), ModelBaseline("model-0"), ("model-1",)
    )
    assert request(runs, baseline_missing="nothing kept").baseline == MissingBaseline(
        "nothing kept"
    )


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"baseline": "model-0", "baseline_runs": []}, "exclude each other"),
        ({"baseline_missing": "x", "baseline": "model-0"}, "cannot be given with"),
        ({"baseline_map": {"a": "b"}}, "give the baseline run's records too"),
        ({"baseline_run": BaselineRun(label="m", source="results")}, "describes"),
        ({"baseline_missing": " "}, "non-empty text"),
    ],
)
def test_request__keywords_that_exclude_each_other(
    kwargs: dict[str, object], match: str
) -> None:
    with pytest.raises(UsageError, match=match):
        request(make_runs(2, 5), **kwargs)  # type: ignore[arg-type]


def test_request__a_baseline_of_another_type_is_refused() -> None:
    with pytest.raises(UsageError, match="must be a ModelBaseline, RunBaseline"):
        Request((), "model-0")  # type: ignore[arg-type]


def test_report_for__a_request_gives_the_report_of_the_keywords() -> None:
    runs = make_runs(3, 12)
    kwargs = {"baseline": "model-0", "resamples": 500, "seed": 4, "margin": 0.02}
    by_keywords = build_report(runs, **kwargs)  # type: ignore[arg-type]
    typed = Request(
        tuple(runs), ModelBaseline("model-0"), resamples=500, seed=4, margin=0.02
    )
    assert report_for(typed).model_dump(mode="json") == by_keywords.model_dump(mode="json")
