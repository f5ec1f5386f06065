"""Hostile and real-size inputs of issue 30, written at any size.

Each builder writes its files into a folder and returns the paths to give
``leaderboard report``; ``n`` sets its size. The tests
(`tests/inputs/test_inputs_hostile_round4.py`) use sizes small enough for CI;
``bench/hostile_inputs.py`` uses the issue's full sizes (4 million archive entries,
15 million LiveCodeBench grades, ...) and prints exit status, peak memory and time.
"""

from __future__ import annotations

import json
import struct
import zlib
from collections.abc import Callable
from pathlib import Path

Builder = Callable[[Path, int], list[Path]]

_HEADER = {
    "version": 2,
    "status": "success",
    "eval": {
        "task": "arith",
        "task_id": "T1",
        "model": "openai/gpt-x",
        "created": "2026-01-01T00:00:00+00:00",
    },
    "results": {"scores": [{"name": "match"}]},
}


def _write_json(path: Path, data: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))
    return path


# ------------------------------------------------------------------- 1. archives


def _local(name: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(data)
    return (
        struct.pack(
            "<4s5H3L2H",
            b"PK\x03\x04",
            20,
            0,
            0,
            0,
            0,
            crc,
            len(data),
            len(data),
            len(name),
            0,
        )
        + name
        + data
    )


def _central(name: bytes, data: bytes, offset: int) -> bytes:
    crc = zlib.crc32(data)
    return (
        struct.pack(
            "<4s6H3L5H2L",
            b"PK\x01\x02",
            20,
            20,
            0,
            0,
            0,
            0,
            crc,
            len(data),
            len(data),
            len(name),
            0,
            0,
            0,
            0,
            0,
            offset,
        )
        + name
    )


def _many_entries_archive(path: Path, entries: int, *, declared: int | None) -> Path:
    """An ``.eval`` whose one member, ``header.json``, starts the file (so the sniff
    sees it in the first 64 KiB) and whose central directory lists it `entries`
    times. The end record declares `declared` entries (None: the true count, in a
    zip64 end record when over 65,535)."""
    name, data = b"header.json", json.dumps(_HEADER).encode()
    local = _local(name, data)
    entry = _central(name, data, 0)
    with path.open("wb") as out:
        out.write(local)
        start = len(local)
        chunk = entry * 10_000
        for _ in range(entries // 10_000):
            out.write(chunk)
        out.write(entry * (entries % 10_000))
        size = len(entry) * entries
        count = entries if declared is None else declared
        if count > 0xFFFF:
            end64 = start + size
            out.write(
                struct.pack(
                    "<4sQ2H2L4Q",
                    b"PK\x06\x06",
                    44,
                    45,
                    45,
                    0,
                    0,
                    count,
                    count,
                    size,
                    start,
                )
            )
            out.write(struct.pack("<4sLQL", b"PK\x06\x07", 0, end64, 1))
            out.write(
                struct.pack(
                    "<4s4H2LH",
                    b"PK\x05\x06",
                    0,
                    0,
                    0xFFFF,
                    0xFFFF,
                    0xFFFFFFFF,
                    0xFFFFFFFF,
                    0,
                )
            )
        else:
            out.write(
                struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, count, count, size, start, 0)
            )
    return path


def eval_many_entries_header_first(tmp: Path, n: int) -> list[Path]:
    return [_many_entries_archive(tmp / "log.eval", n, declared=None)]


def eval_many_entries_one_declared(tmp: Path, n: int) -> list[Path]:
    return [_many_entries_archive(tmp / "log.eval", n, declared=1)]


# ------------------------------------------------------- 2. records past the cap


def livecodebench_graded_list(tmp: Path, n: int) -> list[Path]:
    folder = tmp / "output" / "model-a"
    folder.mkdir(parents=True)
    path = folder / "Scenario.codegeneration_10_0.2_eval_all.json"
    with path.open("w") as out:
        out.write('[{"question_title": "t", "question_id": "q1", "contest_date": "d", ')
        out.write('"graded_list": [')
        out.write("true," * (n - 1) + "true]}]")
    return [path]


def swebench_resolved_ids(tmp: Path, n: int) -> list[Path]:
    path = tmp / "agent.run.json"
    with path.open("w") as out:
        out.write('{"resolved_ids": [')
        out.write(",".join(f'"i{i}"' for i in range(n)))
        out.write('], "unresolved_ids": []}')
    return [path]


# --------------------------------------------------------------- 3. linear readers


def lighteval_many_tasks(tmp: Path, n: int) -> list[Path]:
    results = {f"custom|task{i}|0": {"acc": 0.5, "acc_norm": 0.25} for i in range(n)}
    data = {"config_general": {"model_name": "org/model"}, "results": results}
    return [_write_json(tmp / "results_2025-01-01T00-00-00.000000.json", data)]


def helm_run(tmp: Path, entries: list[dict[str, object]]) -> list[Path]:
    run = tmp / "runs" / "v1" / "mmlu_subject-x_model-org_m"
    spec = {"name": "mmlu:subject=x,model=org/m", "adapter_spec": {"model": "org/m"}}
    _write_json(run / "run_spec.json", spec)
    return [_write_json(run / "per_instance_stats.json", entries)]


def stat(name: str, mean: float) -> dict[str, object]:
    return {"name": {"name": name, "split": "test"}, "count": 1, "mean": mean}


def helm_many_statistics(tmp: Path, n: int) -> list[Path]:
    """`n` distinct statistic names over 10 instances (20,000: 3 MB)."""
    per = max(1, n // 10)
    entries = [
        {
            "instance_id": f"id{i}",
            "train_trial_index": 0,
            "stats": [stat("exact_match", 1.0)]
            + [stat(f"stat{i * per + k}", 0.5) for k in range(per)],
        }
        for i in range(10)
    ]
    return helm_run(tmp, entries)


def helm_many_instances(tmp: Path, n: int) -> list[Path]:
    """`n` instances of 5 statistics each: real-shaped, read in linear time."""
    names = ("exact_match", "quasi_exact_match", "prefix_exact_match", "f1", "bleu_1")
    entries = [
        {
            "instance_id": f"id{i}",
            "train_trial_index": 0,
            "stats": [stat(name, float(i % 2)) for name in names],
        }
        for i in range(n)
    ]
    return helm_run(tmp, entries)


def evalscope_many_metric_names(tmp: Path, n: int) -> list[Path]:
    """Reviews whose rows name `n` distinct metrics in all (10 new ones a row)."""
    folder = tmp / "outputs" / "reviews" / "model-a"
    folder.mkdir(parents=True)
    path = folder / "gsm8k_main.jsonl"
    with path.open("w") as out:
        for row in range(max(1, n // 10)):
            value = {"acc": 1.0} | {f"m{row * 10 + k}": 0.5 for k in range(10)}
            score = {"value": value, "main_score_name": "acc"}
            sample = {"score": score, "sample_id": row}
            line = {"index": row, "target": "", "sample_score": sample}
            out.write(json.dumps(line) + "\n")
    return [path]


# ----------------------------------------------------------------- 5. eval-retry


def _json_log(path: Path, status: str, model: str, created: str) -> Path:
    header = json.loads(json.dumps(_HEADER))
    header["status"] = status
    header["eval"]["model"] = model
    header["eval"]["created"] = created
    if status == "success":
        header["samples"] = [
            {"id": i, "epoch": 1, "scores": {"match": {"value": "C"}}} for i in range(4)
        ]
    else:
        header["error"] = {"message": "rate limited"}
        header["samples"] = []
    return _write_json(path, header)


def eval_retry_other_model(tmp: Path, n: int) -> list[Path]:
    del n
    return [
        _json_log(tmp / "a-error.json", "error", "openai/gpt-x", "2026-01-01T00:00:00"),
        _json_log(tmp / "b-done.json", "success", "other/model", "2026-01-01T01:00:00"),
    ]


def eval_retry_same_model(tmp: Path, n: int) -> list[Path]:
    del n
    return [
        _json_log(tmp / "a-error.json", "error", "openai/gpt-x", "2026-01-01T00:00:00"),
        _json_log(tmp / "b-done.json", "success", "openai/gpt-x", "2026-01-01T01:00:00"),
    ]


# ------------------------------------------------------------ 6. metric names


def _lm_eval_with_key(tmp: Path, key: str) -> list[Path]:
    data = {
        "results": {"arc": {"alias": "arc", "acc,none": 0.5, key: 0.25}},
        "model_name": "org/model",
    }
    return [_write_json(tmp / "results_2024-01-01T00-00-00.json", data)]


def lm_eval_metric_key_escape(tmp: Path, n: int) -> list[Path]:
    del n
    return _lm_eval_with_key(tmp, "evil\x1b[31m,none")


def lm_eval_metric_key_line_separator(tmp: Path, n: int) -> list[Path]:
    del n
    return _lm_eval_with_key(tmp, "evil\u2028x\u202e,none")


# --------------------------------------------------------- real-size JSON Lines


def lm_eval_samples(tmp: Path, n: int) -> list[Path]:
    """An lm-eval samples file of `n` documents with real-sized prompts (~2.2 KB a
    line, as MMLU-Pro's with its few-shot prompt): 70,000 lines are 153 MB."""
    date = "2024-01-01T00-00-00"
    results = {
        "results": {"mmlu_pro": {"alias": "mmlu_pro", "exact_match,custom-extract": 0.5}},
        "model_name": "org/model",
        "configs": {"mmlu_pro": {"metric_list": [{"metric": "exact_match"}]}},
    }
    _write_json(tmp / f"results_{date}.json", results)
    path = tmp / f"samples_mmlu_pro_{date}.jsonl"
    prompt = "The following are multiple choice questions (with answers). " * 30
    with path.open("w") as out:
        for i in range(n):
            doc = {
                "doc_id": i,
                "doc": {"question": prompt, "options": ["A", "B", "C", "D"], "answer": "A"},
                "target": "A",
                "arguments": {"gen_args_0": {"arg_0": prompt, "arg_1": {"until": []}}},
                "resps": [["The answer is (A)"]],
                "filtered_resps": ["A"],
                "filter": "custom-extract",
                "metrics": ["exact_match"],
                "doc_hash": "0" * 64,
                "prompt_hash": "1" * 64,
                "target_hash": "2" * 64,
                "exact_match": i % 2,
            }
            out.write(json.dumps(doc) + "\n")
    return [path]


CASES: dict[str, Builder] = {
    "eval_many_entries_header_first": eval_many_entries_header_first,
    "eval_many_entries_one_declared": eval_many_entries_one_declared,
    "livecodebench_graded_list": livecodebench_graded_list,
    "swebench_resolved_ids": swebench_resolved_ids,
    "lighteval_many_tasks": lighteval_many_tasks,
    "helm_many_statistics": helm_many_statistics,
    "helm_many_instances": helm_many_instances,
    "evalscope_many_metric_names": evalscope_many_metric_names,
    "eval_retry_other_model": eval_retry_other_model,
    "eval_retry_same_model": eval_retry_same_model,
    "lm_eval_metric_key_escape": lm_eval_metric_key_escape,
    "lm_eval_metric_key_line_separator": lm_eval_metric_key_line_separator,
    "lm_eval_samples": lm_eval_samples,
}
