"""Records' optional measures (cost, latency, tokens) and several metrics per item.

Read from the contract's own formats, and from real framework files: the Inspect pair
of tests/fixtures/inspect/guardrails (checked against inspect_ai's own log reader) and
promptfoo's outputs (tests/fixtures/promptfoo).
"""

from __future__ import annotations

import gzip
import json
import warnings
from pathlib import Path

import pytest

from leaderboard.errors import InputError
from leaderboard.inputs import EvalRun, load_runs, load_runs_noting

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "tests" / "fixtures" / "inspect" / "guardrails"
OWN_RUN = ROOT / "tests" / "fixtures" / "promptfoo" / "own-run-0.121.20"

RECORDS = [
    {"model_id": "m", "task_id": "t", "score": 1, "item_id": 1, "cost": 0.25,
     "latency": 1.5, "tokens": 120},
    {"model_id": "m", "task_id": "t", "score": 0, "item_id": 2, "cost": 0},
    {"model_id": "m", "task_id": "t", "score": 1, "item_id": 3},
]  # fmt: skip


def _write(tmp_path: Path, kind: str, records: list[dict[str, object]]) -> Path:
    path = tmp_path / f"runs.{kind}"
    if kind == "json":
        path.write_text(json.dumps(records))
    elif kind == "jsonl":
        path.write_text("".join(json.dumps(r) + "\n" for r in records))
    else:
        fields = ["model_id", "task_id", "score", "item_id", "cost", "latency", "tokens"]
        lines = [",".join(fields)]
        lines += [",".join(str(r.get(f, "")) for f in fields) for r in records]
        path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize("kind", ["json", "jsonl", "csv"])
def test_measures__read_alike_from_every_record_format(tmp_path: Path, kind: str) -> None:
    runs = load_runs(_write(tmp_path, kind, RECORDS))
    assert [(r.cost, r.latency, r.tokens) for r in runs] == [
        (0.25, 1.5, 120.0),
        (0.0, None, None),
        (None, None, None),
    ]


@pytest.mark.parametrize("kind", ["json", "jsonl", "csv"])
@pytest.mark.parametrize(
    ("field", "value", "says"),
    [
        ("cost", -0.5, "must be a finite number >= 0, got -0.5"),
        ("latency", "fast", "must be a number"),
        ("tokens", -1, "must be a finite number >= 0"),
    ],
)
def test_measures__a_bad_value_names_file_line_and_field(
    tmp_path: Path, kind: str, field: str, value: object, says: str
) -> None:
    if kind == "csv" and isinstance(value, str):
        says = "must be a number"
    bad = [RECORDS[0], {**RECORDS[1], field: value}]
    path = _write(tmp_path, kind, bad)
    with pytest.raises(InputError) as info:
        load_runs(path)
    text = str(info.value)
    assert str(path) in text
    assert f"field `{field}`" in text
    assert says in text
    assert ("record 2" if kind == "json" else "line") in text


def test_measures__gzipped_jsonl_keeps_them(tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl.gz"
    path.write_bytes(gzip.compress("".join(json.dumps(r) + "\n" for r in RECORDS).encode()))
    assert load_runs(path)[0].tokens == 120.0


def test_evalrun__validates_measures_and_metrics() -> None:
    assert EvalRun("m", "t", 1.0, cost=2).cost == 2.0
    with pytest.raises(InputError, match="field `latency`"):
        EvalRun("m", "t", 1.0, latency=float("nan"))
    with pytest.raises(InputError, match="field `cost`"):
        EvalRun("m", "t", 1.0, cost=True)  # type: ignore[arg-type]
    with pytest.raises(InputError, match="metric 'f' must lie in"):
        EvalRun("m", "t", 1.0, metrics=(("f", 1.5),))
    run = EvalRun("m", "t", 1.0, metrics=(("b", 1), ("a", 0.5)))
    assert run.metrics == (("a", 0.5), ("b", 1.0))


def test_records_differing_only_in_metric_name__are_one_evaluation(tmp_path: Path) -> None:
    rows = [
        {"model_id": "m", "task_id": "t", "item_id": i, "score": s, "metric_name": n}
        for i in range(3)
        for n, s in (("faithfulness", 0.9), ("relevancy", 0.4))
    ]
    path = _write(tmp_path, "jsonl", rows)
    runs = load_runs(path, metrics=["relevancy"])
    assert len(runs) == 3
    assert {(r.metric_name, r.score, r.metrics) for r in runs} == {
        ("relevancy", 0.4, (("faithfulness", 0.9),))
    }
    with pytest.raises(InputError, match=r"faithfulness, relevancy.*--metric"):
        load_runs(path)


def test_inspect_logs__tokens_and_working_time_match_inspect_ai(tmp_path: Path) -> None:
    from inspect_ai.log import read_eval_log  # noqa: PLC0415

    path = LOGS / "candidate.eval"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        log = read_eval_log(str(path))
        runs, notes = load_runs_noting(path)
    assert log.samples is not None
    expected = {
        str(s.id): (
            sum(u.total_tokens for u in s.model_usage.values()),
            s.working_time,
            float(s.scores["includes"].value == "C") if s.scores else None,
        )
        for s in log.samples
    }
    got = {str(r.item_id): (r.tokens, r.latency, dict(r.metrics)["includes"]) for r in runs}
    assert got == expected
    assert {r.metric_name for r in runs} == {"match"}
    assert all(r.cost is None for r in runs)  # Inspect records no cost
    assert not any("kept for --guardrail" in n for n in notes)  # said in the log


def test_promptfoo_own_run__latency_in_seconds_and_the_other_score_kept() -> None:
    runs, _ = load_runs_noting(OWN_RUN / "results.json")
    data = json.loads((OWN_RUN / "results.json").read_text())
    rows = data["results"]["results"]
    assert sorted(r.latency for r in runs) == sorted(  # type: ignore[type-var]
        row["latencyMs"] / 1000 for row in rows
    )
    assert {r.cost for r in runs} == {0.0}
    assert all(dict(r.metrics).keys() == {"score"} for r in runs)


def test_json_records__metrics_object_gives_secondary_metrics(tmp_path: Path) -> None:
    rows = [{**RECORDS[0], "metrics": {"faithfulness": 0.75, "relevancy": 1}}]
    runs = load_runs(_write(tmp_path, "jsonl", rows))
    assert runs[0].metrics == (("faithfulness", 0.75), ("relevancy", 1.0))
    bad = [{**RECORDS[0], "metrics": {"faithfulness": 7}}]
    with pytest.raises(InputError, match=r"line 1, field `metrics`: metric 'faithfulness'"):
        load_runs(_write(tmp_path, "jsonl", bad))
    with pytest.raises(InputError, match="must be an object of metric names"):
        load_runs(_write(tmp_path, "jsonl", [{**RECORDS[0], "metrics": [1]}]))


def test_history_encoding__keeps_measures_and_metrics(tmp_path: Path) -> None:
    from leaderboard.action.history.branch import encode_records  # noqa: PLC0415

    runs = [
        EvalRun("m", "t", 1.0, item_id="1", cost=0.5, latency=2.0, tokens=9.0,
                metrics=(("f", 0.25),)),
        EvalRun("m", "t", 0.0, item_id="2"),
    ]  # fmt: skip
    path = tmp_path / "run.jsonl.gz"
    path.write_bytes(encode_records(runs))
    assert load_runs(path) == runs


def test_promptfoo_metered_run__cost_and_tokens_as_promptfoo_wrote_them() -> None:
    folder = ROOT / "tests" / "fixtures" / "promptfoo" / "guardrails-0.121.20"
    for name in ("baseline", "candidate"):
        rows = json.loads((folder / f"{name}.json").read_text())["results"]["results"]
        runs, _ = load_runs_noting(folder / f"{name}.json")
        assert sorted((r.cost, r.tokens, r.latency) for r in runs) == sorted(
            (row["cost"], row["response"]["tokenUsage"]["total"], row["latencyMs"] / 1000)
            for row in rows
        )
        assert all(r.cost and r.cost > 0 for r in runs)
