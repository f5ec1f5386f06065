"""Globs over untrusted trees (issue 14.4, issue 13.3): no link loops, hidden folders
matched, a cap on matches, a warning for links left out, a log of files read."""

from __future__ import annotations

import logging
import os
import time
import warnings
from pathlib import Path

import pytest

from leaderboard.errors import InputError
from leaderboard.inputs import globbing, load_runs, load_runs_noting
from leaderboard.inputs.globbing import expand_glob

RECORD = '{{"model_id": "{m}", "task_id": "t", "score": 1}}\n'


def _write(path: Path, model: str = "m") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(RECORD.format(m=model))
    return path


def test_glob__two_links_to_the_folder_itself__finishes_fast_and_warns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "out" / "r.jsonl")
    (tmp_path / "out" / "a").symlink_to(".")
    (tmp_path / "out" / "b").symlink_to(".")
    start = time.perf_counter()
    runs, notes = load_runs_noting("out/**/*.jsonl")
    assert time.perf_counter() - start < 5
    assert len(runs) == 1
    assert notes == ["out/**/*.jsonl: links to folders are not followed: out/a, out/b"]


def test_glob__hidden_folders_from_lm_eval_model_paths__matched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """lm-eval writes pretrained=../x as a folder `..__x`; glob.glob skipped it."""
    monkeypatch.chdir(tmp_path)
    for i, folder in enumerate(["org__a", "..__b", ".hidden", "x/..__c"]):
        _write(tmp_path / "out" / folder / "results.jsonl", model=f"m{i}")
    runs = load_runs("out/**/*.jsonl")
    assert sorted({r.model_id for r in runs}) == ["m0", "m1", "m2", "m3"]


def test_glob__git_folder_skipped_unless_named(tmp_path: Path) -> None:
    _write(tmp_path / ".git" / "r.jsonl")
    _write(tmp_path / "a" / "r.jsonl")
    assert expand_glob(f"{tmp_path}/**/*.jsonl").files == [f"{tmp_path}/a/r.jsonl"]
    assert expand_glob(f"{tmp_path}/.git/*.jsonl").files == [f"{tmp_path}/.git/r.jsonl"]


def test_glob__link_to_a_file_matches_like_a_file(tmp_path: Path) -> None:
    target = _write(tmp_path / "real.jsonl")
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "l.jsonl").symlink_to(target)
    assert expand_glob(f"{tmp_path}/d/*.jsonl").files == [f"{tmp_path}/d/l.jsonl"]


def test_glob__same_matches_as_glob_glob_on_a_plain_tree(tmp_path: Path) -> None:
    import glob  # noqa: PLC0415

    for name in ["a/b/c.json", "a/c.json", "c.json", "a/b/d/e/c.json", "a/x.csv"]:
        _write(tmp_path / name)
    for pattern in ["**/*.json", "a/**/c.json", "a/*/c.json", "*.json", "a/**", "?/*"]:
        ours = expand_glob(f"{tmp_path}/{pattern}").files
        theirs = sorted(
            f
            for f in glob.glob(f"{tmp_path}/{pattern}", recursive=True)
            if os.path.isfile(f)
        )
        assert ours == theirs, pattern


def test_glob__more_matches_than_the_cap__refused_with_the_pattern(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(globbing, "MAX_MATCHES", 5)
    for i in range(6):
        _write(tmp_path / f"r{i}.jsonl")
    with pytest.raises(InputError, match=r"matches more than 5 files") as err:
        load_runs(f"{tmp_path}/*.jsonl")
    assert str(tmp_path) in str(err.value)


def test_glob__walk_over_the_scan_cap__refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(globbing, "MAX_SCANNED", 50)
    for i in range(60):
        (tmp_path / f"d{i}").mkdir()
    with pytest.raises(InputError, match=r"more than 50 files and folders"):
        expand_glob(f"{tmp_path}/**/*.jsonl")


def test_glob__matching_nothing__refused_naming_the_pattern(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"no file matches this pattern"):
        load_runs(f"{tmp_path}/**/*.jsonl")


def test_load__each_file_read_is_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    _write(tmp_path / "a.jsonl")
    _write(tmp_path / "b.jsonl", model="n")
    with (
        caplog.at_level(logging.INFO, logger="leaderboard.inputs"),
        warnings.catch_warnings(),
    ):
        load_runs(f"{tmp_path}/*.jsonl")
    assert [r.getMessage() for r in caplog.records] == [
        f"read {tmp_path}/a.jsonl: 1 records (jsonl)",
        f"read {tmp_path}/b.jsonl: 1 records (jsonl)",
    ]
