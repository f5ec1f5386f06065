"""Hostile artifacts of issue 18, each generated at test time, run through the CLI.

Each case is a small file (or tree) written into tmp_path, read by
``python -m leaderboard report`` in its own process (`tests.measure`), and must exit
2 with one line on stderr (or, where the input is legal, read correctly), under the
2 GiB RSS cap, in seconds. Before the fixes: tracebacks (``OverflowError`` from a
401-digit number, ``RuntimeError`` from an encrypted member, ``LZMAError``,
``RecursionError`` from a deep tree) or gigabytes of memory. Run with ``-s`` to see
the measured peak RSS and seconds of each.
"""

from __future__ import annotations

import gzip
import json
import os
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.measure import RSS_CAP, Measured, report, run_measured

HUGE = 10**400  # a 401-digit integer: float() of it overflows
MIB = 2**20


def _lm_eval_results(metric: object, **extra: object) -> dict[str, object]:
    return {
        "results": {"arc": {"alias": "arc", "acc,none": metric}},
        "model_name": "org/model",
        "n-samples": {"arc": {"original": 2, "effective": 2}},
    } | extra


def _write_json(path: Path, data: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))
    return path


def _inspect_header() -> dict[str, object]:
    return {
        "version": 2,
        "status": "success",
        "eval": {"task": "arith", "model": "openai/gpt-x"},
        "results": {"scores": [{"name": "match"}]},
    }


def _sample(item: int, value: object) -> dict[str, object]:
    return {"id": item, "epoch": 1, "scores": {"match": {"value": value}}}


def lm_eval_metric_401_digits(tmp: Path) -> list[Path]:
    return [_write_json(tmp / "results_2024-01-01T00-00-00.json", _lm_eval_results(HUGE))]


def lm_eval_group_headline_401_digits(tmp: Path) -> list[Path]:
    data = _lm_eval_results(0.5)
    data["results"] = {
        "grp": {"alias": "grp", "acc,none": HUGE},
        "t1": {"alias": "t1", "acc,none": 0.5},
        "t2": {"alias": "t2", "acc,none": 0.25},
    }
    data["group_subtasks"] = {"grp": ["t1", "t2"]}
    return [_write_json(tmp / "results_2024-01-01T00-00-00.json", data)]


def lm_eval_duplicate_keys(tmp: Path) -> list[Path]:
    path = tmp / "results_2024-01-01T00-00-00.json"
    path.write_text(
        '{"results": {"arc": {"acc,none": 0.5, "acc,none": 0.9}}, "model_name": "m"}'
    )
    return [path]


def inspect_score_401_digits(tmp: Path) -> list[Path]:
    log = _inspect_header() | {"samples": [_sample(1, HUGE), _sample(2, 1)]}
    return [_write_json(tmp / "log.json", log)]


def promptfoo_success_401_digits(tmp: Path) -> list[Path]:
    row = {
        "testIdx": 0,
        "promptIdx": 0,
        "provider": {"id": "openai:gpt"},
        "prompt": {"label": "p"},
        "success": HUGE,
        "score": 1,
        "testCase": {"description": "t"},
        "vars": {},
    }
    path = tmp / "out.jsonl"
    path.write_text(json.dumps(row) + "\n")
    return [path]


def records_metric_401_digits(tmp: Path) -> list[Path]:
    path = tmp / "records.json"
    record = {"model_id": "m", "task_id": "t", "score": 0.5, "metrics": {"f1": HUGE}}
    path.write_text(json.dumps([record]))
    return [path]


def promptfoo_cost_401_digits(tmp: Path) -> list[Path]:
    (path,) = promptfoo_success_401_digits(tmp)
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    path.write_text(
        "".join(
            json.dumps(r | {"success": True, "cost": HUGE, "latencyMs": HUGE}) + "\n"
            for r in rows
        )
        + json.dumps(rows[0] | {"provider": {"id": "other"}, "success": False})
        + "\n"
    )
    return [path]


def _eval_archive(path: Path, members: dict[str, bytes], method: int) -> Path:
    with zipfile.ZipFile(path, "w", compression=method) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


def _inspect_members() -> dict[str, bytes]:
    return {
        "_journal/start.json": b"{}",
        "header.json": json.dumps(_inspect_header()).encode(),
        "samples/1_epoch_1.json": json.dumps(_sample(1, "C")).encode(),
    }


def eval_encrypted_member(tmp: Path) -> list[Path]:
    path = _eval_archive(tmp / "log.eval", _inspect_members(), zipfile.ZIP_DEFLATED)
    data = bytearray(path.read_bytes())
    for magic, at in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):  # general-purpose flags
        found = data.find(magic)
        while found != -1:
            data[found + at] |= 0x1
            found = data.find(magic, found + 4)
    path.write_bytes(bytes(data))
    return [path]


def eval_corrupt_lzma_member(tmp: Path) -> list[Path]:
    members = _inspect_members()
    members["header.json"] = json.dumps(_inspect_header() | {"pad": "x" * 5000}).encode()
    path = _eval_archive(tmp / "log.eval", members, zipfile.ZIP_LZMA)
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as archive:
        info = archive.getinfo("header.json")
    start = info.header_offset + 30 + len(info.filename) + len(info.extra) + 20
    data[start : start + 40] = b"\xff" * 40  # inside the LZMA stream, after its header
    path.write_bytes(bytes(data))
    return [path]


def eval_float_arrays_1mb(tmp: Path) -> list[Path]:
    """~1 MB on disk, ~1 GiB declared: nine sample members of flat float arrays."""
    path = tmp / "log.eval"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("_journal/start.json", b"{}")
        archive.writestr("header.json", json.dumps(_inspect_header()))
        chunk = b"0.0," * (MIB // 4)
        for i in range(9):
            with archive.open(f"samples/{i}_epoch_1.json", "w") as member:
                member.write(b"[")
                for _ in range(110):
                    member.write(chunk)
                member.write(b"0.0]")
    return [path]


def eval_float_array_member_parsed_within_budget(tmp: Path) -> list[Path]:
    """One 110 MiB member of floats compressed under the ratio cap (deflate level 1):
    refused by the parse budget (its values counted) before it is parsed."""
    path = tmp / "log.eval"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        archive.writestr("_journal/start.json", b"{}")
        archive.writestr("header.json", json.dumps(_inspect_header()))
        chunk = b"0.5,0.25,0.125,1.0," * (MIB // 19)
        with archive.open("samples/0_epoch_1.json", "w") as member:
            member.write(b"[")
            for _ in range(110):
                member.write(chunk)
            member.write(b"0.0]")
    with zipfile.ZipFile(path) as archive:
        info = archive.getinfo("samples/0_epoch_1.json")
    assert info.file_size < 1000 * info.compress_size  # under the ratio cap
    return [path]


def _gzip_line(path: Path, head: bytes, line_mib: int) -> Path:
    with gzip.GzipFile(path, "wb", compresslevel=6, mtime=0) as out:
        out.write(head)
        out.write(b"[")
        chunk = b"[]," * (MIB // 3)
        for _ in range(line_mib):
            out.write(chunk)
        out.write(b"[]]\n")
    return path


def promptfoo_jsonl_120mb_line(tmp: Path) -> list[Path]:
    return [_gzip_line(tmp / "out.jsonl.gz", b"", 120)]


def records_jsonl_15mb_line(tmp: Path) -> list[Path]:
    path = tmp / "records.jsonl"
    path.write_bytes(b"[" + b"[]," * 5_000_000 + b"[]]\n")
    return [path]


def lm_eval_samples_120mb_line(tmp: Path) -> list[Path]:
    date = "2024-01-01T00-00-00"
    _write_json(tmp / f"results_{date}.json", _lm_eval_results(0.5))
    first = json.dumps({"doc_id": 0, "doc": {}, "filtered_resps": [], "acc": 1}) + "\n"
    return [_gzip_line(tmp / f"samples_arc_{date}.jsonl.gz", first.encode(), 120)]


def lm_eval_samples_results_linked_out(tmp: Path) -> list[Path]:
    date = "2024-01-01T00-00-00"
    outside = _write_json(tmp / "elsewhere" / "secret.json", _lm_eval_results(0.5))
    run = tmp / "ws" / "out"
    run.mkdir(parents=True)
    (run / f"results_{date}.json").symlink_to(outside)
    samples = run / f"samples_arc_{date}.jsonl"
    samples.write_text(json.dumps({"doc_id": 0, "doc": {}, "acc": 1}) + "\n")
    return [samples]


def renamed_eval_as_results_jsonl(tmp: Path) -> list[Path]:
    (path,) = eval_float_arrays_1mb(tmp)
    return [path.rename(tmp / "results.jsonl")]


def folders_1200_deep(tmp: Path) -> list[Path]:
    folder = deep = tmp / "out"
    folder.mkdir()
    for _ in range(1200):  # one at a time: os.makedirs itself recurses per level
        deep /= "d"
        deep.mkdir()
    (deep / "r.jsonl").write_text(
        "\n".join(
            json.dumps({"model_id": m, "task_id": f"t{t}", "score": (t % 3) / 2})
            for m in ("a", "b")
            for t in range(6)
        )
    )
    return [Path(str(folder) + "/**/*.jsonl")]


# name -> (writer, extra arguments, expected exit, fragments of stderr's one line)
CASES: dict[str, tuple[Callable[[Path], list[Path]], tuple[str, ...], int, list[str]]] = {
    "lm_eval_metric_401_digits": (lm_eval_metric_401_digits, (), 2, ["no score"]),
    "lm_eval_group_headline_401_digits": (lm_eval_group_headline_401_digits, (), 0, []),
    "lm_eval_duplicate_keys": (lm_eval_duplicate_keys, (), 2, ["repeats the key"]),
    "inspect_score_401_digits": (
        inspect_score_401_digits,
        (),
        2,
        ["which is not C, I, P, N"],
    ),
    "promptfoo_success_401_digits": (
        promptfoo_success_401_digits,
        ("--format", "promptfoo"),
        2,
        ["no score"],
    ),
    "records_metric_401_digits": (records_metric_401_digits, (), 2, ["must lie in [0, 1]"]),
    "promptfoo_cost_401_digits": (
        promptfoo_cost_401_digits,
        ("--format", "promptfoo"),
        0,
        [],
    ),
    "eval_encrypted_member": (eval_encrypted_member, (), 2, ["is encrypted"]),
    "eval_corrupt_lzma_member": (eval_corrupt_lzma_member, (), 2, ["is damaged"]),
    "eval_float_arrays_1mb": (eval_float_arrays_1mb, (), 2, ["samples/0_epoch_1.json"]),
    "eval_float_array_member_parsed_within_budget": (
        eval_float_array_member_parsed_within_budget,
        (),
        2,
        ["member samples/0_epoch_1.json", "16,000,000 JSON values"],
    ),
    "promptfoo_jsonl_120mb_line": (
        promptfoo_jsonl_120mb_line,
        ("--format", "promptfoo"),
        2,
        ["line 1", "1,000,000 JSON objects and arrays in one line"],
    ),
    "records_jsonl_15mb_line": (
        records_jsonl_15mb_line,
        (),
        2,
        ["line 1", "1,000,000 JSON objects and arrays in one line"],
    ),
    "lm_eval_samples_120mb_line": (
        lm_eval_samples_120mb_line,
        (),
        2,
        ["line 2", "1,000,000 JSON objects and arrays in one line"],
    ),
    "lm_eval_samples_results_linked_out": (
        lm_eval_samples_results_linked_out,
        (),
        2,
        ["results_2024-01-01T00-00-00.json beside it is a link", "not followed"],
    ),
    "renamed_eval_as_results_jsonl": (
        renamed_eval_as_results_jsonl,
        (),
        2,
        ["results.jsonl"],
    ),
    "folders_1200_deep": (folders_1200_deep, (), 0, []),
}


def remove_deep(top: Path) -> None:
    """Empty a folder tree of any depth without recursion (`shutil.rmtree` and, before
    Python 3.12, `os.walk` recurse: pytest's clean-up would fail on 1,200 levels)."""
    order: list[str] = []
    stack = [str(top)]
    while stack:
        folder = stack.pop()
        order.append(folder)
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
                else:
                    os.unlink(entry.path)
    for folder in reversed(order[1:]):
        os.rmdir(folder)


@pytest.mark.parametrize("name", sorted(CASES))
def test_hostile_input__one_line_exit_2_or_read__under_the_memory_cap(
    tmp_path: Path, name: str
) -> None:
    writer, extra, expected, fragments = CASES[name]
    paths = writer(tmp_path)
    try:
        done: Measured = run_measured(report(paths, *extra), timeout=60)
    finally:
        remove_deep(tmp_path)
    print(done.line(name))  # the measured numbers, for -s and the closing note
    assert done.code == expected, done.err[-2000:]
    assert done.rss < RSS_CAP, done.line(name)
    assert done.seconds < 30, done.line(name)
    if expected == 2:
        assert done.out == ""
        assert done.err.startswith("leaderboard: error: "), done.err[-2000:]
        assert done.err.count("\n") == 1, done.err[-2000:]
        assert "Traceback" not in done.err
        for fragment in fragments:
            assert fragment in done.err, done.err
    else:
        assert done.err.count("Traceback") == 0, done.err[-2000:]
        assert "| " in done.out  # a leaderboard table
